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
checks every kind met has words.
"""
from __future__ import annotations

DECISIONS: dict[str, dict[str, str]] = {
    "agot": {
        "place_orders": "place your orders",
        "raven": "use the Messenger Raven or not",
        "raven_peek": "keep the top wildling card on top or bury it",
        "raid": "resolve one of your Raid orders",
        "march": "resolve one of your March orders",
        "replace_ships": "replace the enemy ships in the port you took",
        "consolidate": "resolve one of your Consolidate Power orders",
        "support": "choose whom to support in the battle",
        "accept_support": "accept or refuse support in the battle",
        "house_card": "choose a house card",
        "blade": "decide on the Valyrian Steel Blade",
        "blade_redraw": "decide on the Valyrian Steel Blade",
        "casualties": "choose the casualties of the battle",
        "retreat": "choose where to retreat",
        "bid": "bid your power",
        "break_tie": "break a tie",
        "choose": "make a choice",
        "muster": "muster in your castles and strongholds",
        "reduce": "reduce your armies to your supply",
    },
    "btwixt": {
        "turn": "play a card or kneel",
        "claim": "place the ally you won",
        "token": "place your power token",
        "choose": "choose a card",
        "keep": "keep a card of the hands passed round",
    },
    "lcg": {
        "mulligan": "keep your hand or mulligan",
        "setup": "place your setup cards",
        "plot": "choose your plot",
        "first_player": "choose the first player",
        "action": "act or pass",
        "interrupt": "play an interrupt or pass",
        "reaction": "play a reaction or pass",
        "challenge": "declare a challenge or pass",
        "defenders": "declare defenders",
        "kill": "choose characters to kill",
        "discard": "discard cards",
        "renown": "choose the characters whose renown applies",
        "insight": "choose the characters whose insight applies",
        "pillage": "choose the characters whose pillage applies",
        "intimidate": "choose a character to kneel by intimidate, or none",
        "order": "choose the order in which the abilities or keywords resolve",
        "winner": "name the winner",
        "choose": "make a choice",
    },
    "minis": {
        "activate": "activate a unit",
        "action": "choose your unit's action",
        "retreat_move": "move the retreating unit",
        "reroll": "re-roll dice or not",
        "spend": "spend a condition token or not",
        "react": "play a tactics card or an Order, or pass",
        "pivot": "pivot your unit",
        "surge": "surge forward or not",
        "discard": "discard cards",
        "choose": "make a choice",
        "deploy": "deploy a unit",
        "redeploy": "redeploy a destroyed unit",
    },
}

A_DECISION = "make a decision"


def decision_words(ruleset: str, kind: str | None) -> str:
    """The decision `kind` of `ruleset` in words ("choose a house card"); "make a decision" for a
    kind without words (never the code itself)."""
    return DECISIONS.get(ruleset, {}).get(str(kind or ""), A_DECISION)


def has_words(ruleset: str, kind: str) -> bool:
    return kind in DECISIONS.get(ruleset, {})
