"""Each ruleset's decision kinds in words, for what the server writes to people (e-mails, webhooks):
"choose a house card", "keep this hand or mulligan", never the engine's code ("house_card",
"mulligan").

`pending(state)` of every engine returns {seat: kind}; the kinds are those below, found where each
engine asks (games/engine/agot: `state["decision"] = {"kind": ...}` and combat's `ask`; btwixt's
flow and effects; lcg's `flow.ask`, its keyword prompts and ability windows; minis's `flow.ask`).
The pages say the same in their scripts (static/js/game.js TODO and decisionTitle, btwixt.js,
lcg.js and minis.js TITLES); these phrases follow them. Every phrase completes "It is your turn:
..." and is lower case, without a final stop. All the sentences live here, so they can be
translated in one place. tests/test_notification_words.py plays random games of each ruleset and
checks every kind met has words. The phrases are marked for translation here and translated when
said (decision_words), in the active language; tests/test_i18n_words.py checks the Spanish.
"""
from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

DECISIONS: dict[str, dict[str, str]] = {
    "agot": {
        "place_orders": gettext_noop("place your orders"),
        "raven": gettext_noop("use the Messenger Raven or not"),
        "raven_peek": gettext_noop("keep the top wildling card on top or bury it"),
        "raid": gettext_noop("resolve one of your Raid orders"),
        "march": gettext_noop("resolve one of your March orders"),
        "replace_ships": gettext_noop("replace the enemy ships in the port you took"),
        "consolidate": gettext_noop("resolve one of your Consolidate Power orders"),
        "support": gettext_noop("choose whom to support in the battle"),
        "accept_support": gettext_noop("accept or refuse support in the battle"),
        "house_card": gettext_noop("choose a house card"),
        "blade": gettext_noop("decide on the Valyrian Steel Blade"),
        "blade_redraw": gettext_noop("decide on the Valyrian Steel Blade"),
        "casualties": gettext_noop("choose the casualties of the battle"),
        "retreat": gettext_noop("choose where to retreat"),
        "bid": gettext_noop("bid your power"),
        "break_tie": gettext_noop("break a tie"),
        "choose": gettext_noop("make a choice"),
        "muster": gettext_noop("muster in your castles and strongholds"),
        "reduce": gettext_noop("reduce your armies to your supply"),
        "draft": gettext_noop("draft a house card or a place on an Influence track"),
    },
    "btwixt": {
        "turn": gettext_noop("play a card or kneel"),
        "claim": gettext_noop("place the ally you won"),
        "token": gettext_noop("place your power token"),
        "choose": gettext_noop("choose a card"),
        "keep": gettext_noop("keep a card of the hands passed round"),
    },
    "lcg": {
        "mulligan": gettext_noop("keep your hand or mulligan"),
        "setup": gettext_noop("place your setup cards"),
        "plot": gettext_noop("choose your plot"),
        "first_player": gettext_noop("choose the first player"),
        "action": gettext_noop("act or pass"),
        "interrupt": gettext_noop("play an interrupt or pass"),
        "reaction": gettext_noop("play a reaction or pass"),
        "challenge": gettext_noop("declare a challenge or pass"),
        "defenders": gettext_noop("declare defenders"),
        "kill": gettext_noop("choose characters to kill"),
        "discard": gettext_noop("discard cards"),
        "renown": gettext_noop("choose the characters whose renown applies"),
        "insight": gettext_noop("choose the characters whose insight applies"),
        "pillage": gettext_noop("choose the characters whose pillage applies"),
        "intimidate": gettext_noop("choose a character to kneel by intimidate, or none"),
        "order": gettext_noop("choose the order in which the abilities or keywords resolve"),
        "winner": gettext_noop("name the winner"),
        "choose": gettext_noop("make a choice"),
        # a melee's (issue 31): the titles, Crown Regent's redirect, Master of Whispers' claim
        "title": gettext_noop("choose a title"),
        "redirect": gettext_noop("redirect the challenge or not"),
        "redirect_to": gettext_noop("choose the opponent the challenge is redirected to"),
        "claim_opponents": gettext_noop("choose the opponents who also suffer the claim"),
    },
    "minis": {
        "activate": gettext_noop("activate a unit"),
        "action": gettext_noop("choose your unit's action"),
        "retreat_move": gettext_noop("move the retreating unit"),
        "reroll": gettext_noop("re-roll dice or not"),
        "spend": gettext_noop("spend a condition token or not"),
        "react": gettext_noop("play a tactics card or an Order, or pass"),
        "pivot": gettext_noop("pivot your unit"),
        "surge": gettext_noop("surge forward or not"),
        "discard": gettext_noop("discard cards"),
        "choose": gettext_noop("make a choice"),
        "deploy": gettext_noop("deploy a unit"),
        "redeploy": gettext_noop("redeploy a destroyed unit"),
    },
}

A_DECISION = gettext_noop("make a decision")


def decision_words(ruleset: str, kind: str | None) -> str:
    """The decision `kind` of `ruleset` in words ("choose a house card"); "make a decision" for a
    kind without words (never the code itself). In the active language: notifications.services.compose
    writes in the recipient's; the Spanish says the rulebooks' terms (docs/glossary-es.md)."""
    return gettext(DECISIONS.get(ruleset, {}).get(str(kind or ""), A_DECISION))


def has_words(ruleset: str, kind: str) -> bool:
    return kind in DECISIONS.get(ruleset, {})
