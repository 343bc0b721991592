"""The card game's log in words: one plain English sentence per engine event, for players.

Pure and read-only, like agot's narrate.py: `narrate(event)` is the sentence, `parts(event)` the same
sentence in pieces and `describe(event)` what `LcgRuleset.describe_event` returns.

Seats. The engine's seats are `p1` and `p2`; the narrator does not know the players' names, so a
seat is written as the placeholder `{p1}` / `{p2}` in `text`, and as its own piece
`{"text": "{p1}", "seat": "p1"}` in `parts`. A page shows the player's name instead (replace each
piece that has a `seat`, or every `{p1}` in `text`); `fill(text, names)` does it in Python. No other
braces ever appear in a sentence.

Cards are named as printed ("Robb Stark", from the card data); phases and challenge types in words
("the Marshaling phase", "a military challenge").

Languages (issue 29). Each sentence is one translatable template with named placeholders, said with
`games.engine.narration.say` so a seat keeps its piece in any word order; counted words come from
`ngettext` + `counted`, the tables below hold English words marked with `gettext_noop` and are
translated where they are used, and the game's terms (phases, challenge types, piles, keywords) go
through `term("lcg", english, kind)`: the Spanish Rules Reference's words (games/i18n/glossary/lcg.yaml).
Without installed words (the engine, its tests) every sentence is the English one, unchanged.

Hidden information. The narrator runs after `event_view` (per seat), and reads only the filtered
event: a `draw` or `look` names its cards only when the event carries them (`cards`, the private part
`event_view` gives the seat that drew or looked); everyone else reads the count. Such a line is marked
`private`. Nothing is re-derived from the card data but printed names.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from games.engine.lcg import data
from games.engine.narration import (
    Event,
    Part,
    Piece,
    Seat,
    counted,
    gettext,
    gettext_noop,
    join,
    line,
    ngettext,
    pgettext,
    say,
    seats,
    sentence,
    term,
    text,
)
from games.engine.narration import fill as fill  # the module's API: a sentence with the players' names

PHASE_NAMES = {"setup": "Setup", "plot": "Plot phase", "draw": "Draw phase", "marshaling": "Marshaling phase",
               "challenges": "Challenges phase", "dominance": "Dominance phase", "standing": "Standing phase",
               "taxation": "Taxation phase"}
CHALLENGES = ("military", "intrigue", "power")
# The piles by their glossary name (kind "zone"); "out of the game" is no pile of the glossary.
PILES = {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck": "draw deck",
         "plots": "plot deck", "used_plots": "used pile", "removed": gettext_noop("out of the game")}
# A pile with its article, where a card goes ("goes to the dead pile").
THE_PILES = {"dead": gettext_noop("the dead pile"), "discard": gettext_noop("the discard pile"),
             "hand": gettext_noop("the hand"), "deck": gettext_noop("the draw deck"),
             "plots": gettext_noop("the plot deck"), "used_plots": gettext_noop("the used pile"),
             "removed": gettext_noop("the out of the game")}
# Why something happened, when the engine says so by a word rather than a card id.
REASONS = {"claim": gettext_noop("claim"), "pillage": gettext_noop("pillage"), "renown": gettext_noop("renown"),
           "intimidate": gettext_noop("intimidate"), "unopposed": gettext_noop("an unopposed challenge"),
           "reserve": gettext_noop("reserve"), "cost": gettext_noop("a cost")}
# The three challenges with their article (Spanish: "un reto Militar", "el reto de Intriga").
A_CHALLENGE = {"military": gettext_noop("a military challenge"), "intrigue": gettext_noop("an intrigue challenge"),
               "power": gettext_noop("a power challenge")}
THE_CHALLENGE = {"military": gettext_noop("the military challenge"),
                 "intrigue": gettext_noop("the intrigue challenge"), "power": gettext_noop("the power challenge")}
TOKENS = {"poison": gettext_noop("poison")}
# Lines that matter in a digest ("since your last move"); the others are bookkeeping.
KEY_KINDS = frozenset({
    "round", "plots_revealed", "initiative", "first_player", "marshal", "ambush", "put_into_play", "played",
    "triggered", "attached", "bestow", "challenge", "defenders", "challenge_result", "claim", "power", "power_moved",
    "leaves_play", "discard", "saved", "cancelled", "returned_to_hand", "revealed", "dominance", "eliminated",
    "game_over",
})
# The lines a phase's summary leads with (a subset of KEY_KINDS).
HEADLINE_KINDS = frozenset({
    "plots_revealed", "first_player", "marshal", "ambush", "challenge_result", "claim", "power_moved", "dominance",
    "eliminated", "game_over",
})



# ------------------------------------------------------------------ names


def words(x: Any) -> str:
    """Any id as words: 'the_old_ways' -> 'the old ways' (never underscores or braces)."""
    if x is None:
        return pgettext("lcg", "nobody")
    return re.sub(r"[_{}\[\]\"]", " ", str(x)).replace("  ", " ").strip()


def card(cid: Any) -> str:
    """A card's printed name ('robb_stark' -> 'Robb Stark'); a card the data does not know (a
    scenario's synthetic card) reads as its id in words, title case. Card names stay as printed in
    every language (the Spanish seed names no card of the Core Set's decks)."""
    if cid == "faction":
        return gettext("their faction card")
    info = data.cards().get(cid) if isinstance(cid, str) else None
    if info and info.get("name"):
        return str(info["name"]).strip('"')
    return words(cid).title() if cid else pgettext("lcg", "a card")


def cards(cids: Any) -> str:
    return join([card(c) for c in cids or []]) or pgettext("lcg", "no cards")


def seat(s: Any) -> Seat | str:
    return Seat(s) if isinstance(s, str) and s else pgettext("lcg", "nobody")


def phase(p: Any) -> str:
    if p in PHASE_NAMES:
        return term("lcg", PHASE_NAMES[p], "phase")
    return gettext("%(name)s phase") % {"name": words(p).capitalize()}


def challenge(t: Any, article: str = "a") -> str:
    """'military' -> 'a military challenge' (article 'the' or '' as asked)."""
    if t in CHALLENGES and article in ("a", "the"):
        return gettext((A_CHALLENGE if article == "a" else THE_CHALLENGE)[t])
    if t in CHALLENGES:
        return term("lcg", f"{t} challenge", "challenge")
    name = words(t)
    if article == "a" and name[:1] in "aeiou":
        article = "an"
    return f"{article + ' ' if article else ''}{name} challenge"


def challenge_type(t: Any) -> str:
    """'military' -> 'military' ('Militar'): the challenge's type alone."""
    return term("lcg", t, "challenge") if t in CHALLENGES else words(t)


def why(reason: Any, card_id: Any = None) -> str:
    """' (Robb Stark)' for a card's ability, ' (claim)' for a framework reason, '' for none (or when
    the reason is the card the sentence already names, `card_id`)."""
    if not reason or reason == card_id:
        return ""
    if reason in REASONS:
        return f" ({gettext(REASONS[reason])})"
    return f" ({card(reason)})"


def power(n: Any) -> str:
    n = int(n or 0)
    return ngettext("%(n)s power", "%(n)s power", n) % {"n": n}


def gold(n: Any) -> str:
    n = int(n or 0)
    return ngettext("%(n)s gold", "%(n)s gold", n) % {"n": n} if n else gettext("no gold")


def count_cards(n: Any) -> str:
    """'no cards', 'one card', 'three cards', '12 cards' (in the active language)."""
    n = int(n or 0)
    return counted(n, ngettext("one card", "%(count)s cards", n)) if n else pgettext("lcg", "no cards")


def count_characters(n: Any) -> str:
    n = int(n or 0)
    return counted(n, ngettext("one character", "%(count)s characters", n)) if n else gettext("no characters")


def pile(where: Any) -> str:
    """A pile by its glossary name ('dead pile', 'pila de muertos')."""
    if where == "removed":
        return gettext(PILES["removed"])
    return term("lcg", PILES[where], "zone") if where in PILES else words(where)


def the_pile(where: Any) -> str:
    return gettext(THE_PILES[where]) if where in THE_PILES else f"the {words(where)}"


def score(values: Any) -> str:
    """'3 to 2' (in the active language): each value in order."""
    out = ""
    for v in values:
        out = str(v) if out == "" else gettext("%(score)s to %(next)s") % {"score": out, "next": v}
    return out


# ------------------------------------------------------------------ setup, rounds, plots


def _round(ev: Event) -> list[Piece]:
    return say(gettext("Round %(round)s begins."), round=str(ev["round"]))


def _phase(ev: Event) -> list[Piece]:
    return say(gettext("The %(phase)s begins."), phase=phase(ev["phase"]))


def _mulligan(ev: Event) -> list[Piece]:
    if ev.get("mulligan"):
        return say(gettext("%(seat)s takes a mulligan: their hand goes back into the deck and they draw a new one."),
                   seat=seat(ev["seat"]))
    return say(gettext("%(seat)s keeps their opening hand."), seat=seat(ev["seat"]))


def _setup_chosen(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s chooses their setup cards face down."), seat=seat(ev["seat"]))


def _setup_revealed(ev: Event) -> list[Piece]:
    placed: list[Piece] = []
    for i, (s, cs) in enumerate((ev.get("cards") or {}).items()):
        placed += ["; " if i else "", say(gettext("%(seat)s places %(cards)s"), seat=seat(s), cards=cards(cs))]
    return say(gettext("The setup cards are revealed: %(placed)s."), placed=placed)


def _draw(ev: Event) -> list[Piece]:
    n = ev.get("count") or len(ev.get("cards") or [])
    drawn = pgettext("lcg", "a card") if n == 1 else count_cards(n)
    if ev.get("cards"):
        return say(gettext("%(seat)s draws %(drawn)s: %(cards)s."), seat=seat(ev["seat"]), drawn=drawn,
                   cards=cards(ev["cards"]))
    return say(gettext("%(seat)s draws %(drawn)s."), seat=seat(ev["seat"]), drawn=drawn)


def _plot_chosen(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s chooses a plot face down."), seat=seat(ev["seat"]))


def _plots_revealed(ev: Event) -> list[Piece]:
    plots: list[Piece] | str = []
    for i, (s, c) in enumerate((ev.get("plots") or {}).items()):
        plots += ["; " if i else "", say(gettext("%(seat)s reveals %(card)s"), seat=seat(s), card=card(c))]
    if not ev.get("plots"):
        plots = gettext("nobody has a plot left to reveal")
    return say(gettext("The plots are revealed: %(plots)s."), plots=plots)


def _initiative(ev: Event) -> list[Piece]:
    values = ev.get("initiative") or {}
    w = ev["winner"]
    rest = [v for s, v in values.items() if s != w]
    if rest and all(v == values.get(w) for v in rest):
        return say(gettext("%(seat)s wins the initiative (a tie at %(value)s, broken in their favour)."),
                   seat=seat(w), value=str(values.get(w)))
    if rest:
        return say(gettext("%(seat)s wins the initiative (%(value)s to %(other)s)."), seat=seat(w),
                   value=str(values.get(w)), other=str(max(rest)))
    return say(gettext("%(seat)s wins the initiative."), seat=seat(w))


def _first_player(ev: Event) -> list[Piece]:
    if ev.get("by") in (None, ev["seat"]):
        return say(gettext("%(seat)s chooses to be the first player."), seat=seat(ev["seat"]))
    return say(gettext("%(by)s chooses %(seat)s as the first player."), by=seat(ev["by"]), seat=seat(ev["seat"]))


def _plots_recycled(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s takes the used plots back into their plot deck."), seat=seat(ev["seat"]))


# ------------------------------------------------------------------ marshaling, cards entering play


def _income(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s collects %(gold)s."), seat=seat(ev["seat"]), gold=gold(ev.get("gold")))


def _marshal(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("duplicate"):
        return say(gettext("%(seat)s marshals a duplicate of %(card)s."), seat=seat(ev["seat"]), card=name)
    if ev.get("on"):
        return say(gettext("%(seat)s marshals %(card)s onto %(on)s."), seat=seat(ev["seat"]), card=name,
                   on=card(ev["on"]))
    return say(gettext("%(seat)s marshals %(card)s."), seat=seat(ev["seat"]), card=name)


def _ambush(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("duplicate"):
        return say(gettext("%(seat)s ambushes a duplicate of %(card)s into play."), seat=seat(ev["seat"]), card=name)
    if ev.get("on"):
        return say(gettext("%(seat)s brings %(card)s into play by ambush, attaching it to %(on)s."),
                   seat=seat(ev["seat"]), card=name, on=card(ev["on"]))
    return say(gettext("%(seat)s brings %(card)s into play by ambush."), seat=seat(ev["seat"]), card=name)


def _put_into_play(ev: Event) -> list[Piece]:
    if ev.get("duplicate"):
        return say(gettext("%(seat)s puts a duplicate of %(card)s into play."), seat=seat(ev["seat"]),
                   card=card(ev["card"]))
    return say(gettext("%(seat)s puts %(card)s into play."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _bestow(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s bestows %(gold)s on %(card)s."), seat=seat(ev["seat"]), gold=gold(ev.get("gold")),
               card=card(ev["card"]))


def _attached(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s attaches %(card)s to %(on)s."), seat=seat(ev["seat"]), card=card(ev["card"]),
               on=card(ev["on"]))


def _duplicate_placed(ev: Event) -> list[Piece]:
    if ev.get("cards"):  # the controller's own view of a facedown duplicate (L55)
        what = cards(ev["cards"])
    elif ev.get("card") and not ev.get("facedown"):
        what = card(ev["card"])
    else:
        what = gettext("the top card of their deck")
    if ev.get("facedown"):
        return say(gettext("%(seat)s places %(what)s facedown on %(on)s as a duplicate."), seat=seat(ev["seat"]),
                   what=what, on=card(ev["on"]))
    return say(gettext("%(seat)s places %(what)s on %(on)s as a duplicate."), seat=seat(ev["seat"]), what=what,
               on=card(ev["on"]))


# ------------------------------------------------------------------ abilities


def _played(ev: Event) -> list[Piece]:
    if ev.get("targets"):
        return say(gettext("%(seat)s plays %(card)s, targeting %(targets)s."), seat=seat(ev["seat"]),
                   card=card(ev["card"]), targets=cards(ev["targets"]))
    return say(gettext("%(seat)s plays %(card)s."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _triggered(ev: Event) -> list[Piece]:
    if ev.get("targets"):
        return say(gettext("%(seat)s uses the ability of %(card)s, targeting %(targets)s."), seat=seat(ev["seat"]),
                   card=card(ev["card"]), targets=cards(ev["targets"]))
    return say(gettext("%(seat)s uses the ability of %(card)s."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _forced(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s's %(card)s takes effect."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _cancelled(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s's %(card)s is cancelled."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _saved(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s's %(card)s is saved."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _duplicate_discarded(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s discards a duplicate of %(card)s to save it."), seat=seat(ev["seat"]),
               card=card(ev["card"]))


def _gold(ev: Event) -> list[Piece]:
    n = int(ev.get("gold") or 0)
    template = gettext("%(seat)s gains %(gold)s%(why)s.") if n >= 0 else gettext("%(seat)s loses %(gold)s%(why)s.")
    return say(template, seat=seat(ev["seat"]), gold=gold(abs(n)), why=why(ev.get("card")))


def _gold_returned(ev: Event) -> list[Piece]:
    return say(gettext("%(card)s: every player returns their gold to the treasury."), card=card(ev["card"]))


def _named(ev: Event) -> list[Piece]:
    by = card(ev["card"])
    if "challenge" in ev:
        return say(gettext("%(seat)s names %(challenge)s for %(card)s."), seat=seat(ev["seat"]),
                   challenge=challenge(ev["challenge"]), card=by)
    if "card_type" in ev:
        kind = words(ev["card_type"])
        return say(gettext("%(seat)s names the card type %(kind)s for %(card)s."), seat=seat(ev["seat"]),
                   kind=term("lcg", kind, "card_type"), card=by)
    if "opponent" in ev:
        return say(gettext("%(seat)s chooses %(opponent)s as the opponent for %(card)s."), seat=seat(ev["seat"]),
                   opponent=seat(ev["opponent"]), card=by)
    return say(gettext("%(seat)s chooses X = %(x)s for %(card)s."), seat=seat(ev["seat"]), x=str(ev.get("x")), card=by)


def _revealed(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s reveals %(card)s%(why)s."), seat=seat(ev["seat"]), card=card(ev["card"]),
               why=why(ev.get("reason")))


def _look(ev: Event) -> list[Piece]:
    top = count_cards(ev.get("count"))
    own = ev.get("deck") in (None, ev["seat"])
    if ev.get("cards"):
        seen = cards(ev["cards"])
        if own:
            return say(gettext("%(seat)s looks at the top %(count)s of their deck: %(cards)s."), seat=seat(ev["seat"]),
                       count=top, cards=seen)
        return say(gettext("%(seat)s looks at the top %(count)s of %(owner)s's deck: %(cards)s."),
                   seat=seat(ev["seat"]), count=top, owner=seat(ev["deck"]), cards=seen)
    if own:
        return say(gettext("%(seat)s looks at the top %(count)s of their deck."), seat=seat(ev["seat"]), count=top)
    return say(gettext("%(seat)s looks at the top %(count)s of %(owner)s's deck."), seat=seat(ev["seat"]), count=top,
               owner=seat(ev["deck"]))


def _to_bottom(ev: Event) -> list[Piece]:
    n = count_cards(ev.get("count"))
    who = seat(ev.get("by") or ev["seat"])
    if ev.get("by") in (None, ev["seat"]):
        return say(gettext("%(seat)s puts %(count)s at the bottom of their deck."), seat=who, count=n)
    return say(gettext("%(seat)s puts %(count)s at the bottom of %(owner)s's deck."), seat=who, count=n,
               owner=seat(ev["seat"]))


def _reordered(ev: Event) -> list[Piece]:
    n = count_cards(ev.get("count"))
    who = seat(ev.get("by") or ev["seat"])
    if ev.get("by") in (None, ev["seat"]):
        return say(gettext("%(seat)s puts %(count)s back on top of their deck in an order of their choice."),
                   seat=who, count=n)
    return say(gettext("%(seat)s puts %(count)s back on top of %(owner)s's deck in an order of their choice."),
               seat=who, count=n, owner=seat(ev["seat"]))


def _shuffled_into_deck(ev: Event) -> list[Piece]:
    if not ev.get("cards"):
        return say(gettext("%(seat)s shuffles their deck."), seat=seat(ev["seat"]))
    return say(gettext("%(seat)s shuffles %(cards)s from their discard pile into their deck."), seat=seat(ev["seat"]),
               cards=cards(ev.get("cards")))


def _returned_to_hand(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s returns %(card)s from their %(pile)s to their hand."), seat=seat(ev["seat"]),
               card=card(ev["card"]), pile=pile(ev.get("from")))


def _token(ev: Event) -> list[Piece]:
    kind = ev.get("token") or "a"
    return say(gettext("%(card)s gets a %(kind)s token."), card=card(ev["card"]),
               kind=gettext(TOKENS[kind]) if kind in TOKENS else words(kind))


# ------------------------------------------------------------------ kneeling, standing, power


def _kneel(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("reason") == "cost":
        return say(gettext("%(seat)s kneels %(card)s to pay a cost."), seat=seat(ev["seat"]), card=name)
    if ev.get("reason") == "intimidate":
        return say(gettext("Intimidate: %(seat)s's %(card)s kneels."), seat=seat(ev["seat"]), card=name)
    return say(gettext("%(seat)s's %(card)s kneels%(why)s."), seat=seat(ev["seat"]), card=name,
               why=why(ev.get("reason")))


def _stand(ev: Event) -> list[Piece]:
    if not ev.get("card"):
        return [gettext("Every kneeling card stands.")]
    return say(gettext("%(seat)s's %(card)s stands."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _power(ev: Event) -> list[Piece]:
    n = int(ev.get("amount") or 0)
    gains = n >= 0
    reason = ev.get("reason")
    amount = power(abs(n))
    if ev.get("card") == "faction":
        if reason == "unopposed":
            template = (gettext("%(seat)s gains %(power)s on their faction card for an unopposed challenge.") if gains
                        else gettext("%(seat)s loses %(power)s on their faction card for an unopposed challenge."))
            return say(template, seat=seat(ev["seat"]), power=amount)
        template = (gettext("%(seat)s gains %(power)s on their faction card%(why)s.") if gains
                    else gettext("%(seat)s loses %(power)s on their faction card%(why)s."))
        return say(template, seat=seat(ev["seat"]), power=amount, why=why(reason))
    name = card(ev.get("card"))
    if reason == "renown":
        template = (gettext("Renown: %(seat)s's %(card)s gains %(power)s.") if gains
                    else gettext("Renown: %(seat)s's %(card)s loses %(power)s."))
        return say(template, seat=seat(ev["seat"]), card=name, power=amount)
    template = (gettext("%(seat)s's %(card)s gains %(power)s%(why)s.") if gains
                else gettext("%(seat)s's %(card)s loses %(power)s%(why)s."))
    return say(template, seat=seat(ev["seat"]), card=name, power=amount, why=why(reason, ev.get("card")))


def _power_moved(ev: Event) -> list[Piece]:
    n = int(ev.get("amount") or 0)
    if not n:
        return say(gettext("%(loser)s has no power on their faction card for %(taker)s to take."),
                   loser=seat(ev["from"]), taker=seat(ev["to"]))
    return say(gettext("%(taker)s takes %(power)s from %(loser)s's faction card."), taker=seat(ev["to"]),
               power=power(n), loser=seat(ev["from"]))


# ------------------------------------------------------------------ challenges


def _no_challenge(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s declares no further challenge."), seat=seat(ev["seat"]))


def _challenge(ev: Event) -> list[Piece]:
    pieces = {"seat": seat(ev["seat"]), "challenge": challenge(ev["challenge"]), "defender": seat(ev.get("defender")),
              "attackers": cards(ev.get("attackers"))}
    stealth = ev.get("stealth") or {}
    if stealth:
        bypass = join([gettext("%(card)s bypasses %(target)s") % {"card": card(a), "target": card(b)}
                       for a, b in stealth.items()])
        return say(gettext("%(seat)s declares %(challenge)s against %(defender)s, attacking with %(attackers)s; "
                           "stealth: %(stealth)s."), stealth=bypass, **pieces)
    return say(gettext("%(seat)s declares %(challenge)s against %(defender)s, attacking with %(attackers)s."), **pieces)


def _defenders(ev: Event) -> list[Piece]:
    if not ev.get("defenders"):
        return say(gettext("%(seat)s does not defend."), seat=seat(ev["seat"]))
    return say(gettext("%(seat)s defends with %(cards)s."), seat=seat(ev["seat"]), cards=cards(ev["defenders"]))


def _challenge_result(ev: Event) -> list[Piece]:
    strength = ev.get("strength") or {}
    w = ev.get("winner")
    kind = challenge(ev.get("challenge"), "the")
    if w is None:
        if strength:
            return say(gettext("Nobody wins %(challenge)s (%(score)s)."), challenge=kind, score=score(strength.values()))
        return say(gettext("Nobody wins %(challenge)s."), challenge=kind)
    lost = [v for s, v in strength.items() if s != w]
    unopposed = bool(ev.get("unopposed"))
    if not (lost and w in strength):
        template = gettext("%(seat)s wins %(challenge)s unopposed.") if unopposed else gettext("%(seat)s wins %(challenge)s.")
    elif lost[0] == strength.get(w):
        template = (gettext("%(seat)s wins %(challenge)s unopposed, %(won)s to %(lost)s (the attacker wins a tie).")
                    if unopposed else gettext("%(seat)s wins %(challenge)s, %(won)s to %(lost)s (the attacker wins a tie)."))
    else:
        template = (gettext("%(seat)s wins %(challenge)s unopposed, %(won)s to %(lost)s.") if unopposed
                    else gettext("%(seat)s wins %(challenge)s, %(won)s to %(lost)s."))
    return say(template, seat=seat(w), challenge=kind, won=str(strength.get(w)), lost=str(lost[0]) if lost else "")


def claim_effect(kind: Any, n: int) -> str | None:
    """What a won challenge's claim does, in words ('the defender must kill two characters')."""
    if kind == "military":
        return gettext("the defender must kill %(count)s") % {"count": count_characters(n)}
    if kind == "intrigue":
        return gettext("the defender discards %(count)s at random from their hand") % {"count": count_cards(n)}
    if kind == "power":
        return gettext("%(power)s moves from the defender's faction card to the attacker's") % {"power": power(n)}
    return None


def _claim(ev: Event) -> list[Piece]:
    n = int(ev.get("claim") or 0)
    kind = ev.get("challenge")
    if n <= 0:
        return say(gettext("%(seat)s wins %(challenge)s but has a claim of 0: nothing happens."), seat=seat(ev["seat"]),
                   challenge=challenge(kind))
    effect = claim_effect(kind, n)
    if effect:
        return say(gettext("%(seat)s claims %(n)s (%(kind)s): %(effect)s."), seat=seat(ev["seat"]), n=str(n),
                   kind=challenge_type(kind), effect=effect)
    return say(gettext("%(seat)s claims %(n)s (%(kind)s)."), seat=seat(ev["seat"]), n=str(n), kind=challenge_type(kind))


def _leaves_play(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    to, reason = ev.get("to"), ev.get("reason")
    who = seat(ev["seat"])
    if reason == "sacrifice":
        return say(gettext("%(seat)s sacrifices %(card)s."), seat=who, card=name)
    if reason == "host_left":
        if to == "hand":
            return say(gettext("%(card)s returns to its owner's hand, as the card it was attached to leaves play."),
                       card=name)
        return say(gettext("%(card)s goes to %(pile)s, as the card it was attached to leaves play."), card=name,
                   pile=the_pile(to))
    if to == "removed":
        return say(gettext("%(seat)s's %(card)s is removed from the game%(why)s."), seat=who, card=name,
                   why=why(None if reason == "removed" else reason))
    if to == "dead":
        return say(gettext("%(seat)s's %(card)s is killed%(why)s."), seat=who, card=name, why=why(reason, ev["card"]))
    if to == "hand":
        return say(gettext("%(seat)s's %(card)s returns to its owner's hand%(why)s."), seat=who, card=name,
                   why=why(None if reason == "returned" else reason))
    if to == "deck":
        return say(gettext("%(seat)s's %(card)s is shuffled into its owner's deck%(why)s."), seat=who, card=name,
                   why=why(reason, ev["card"]))
    return say(gettext("%(seat)s's %(card)s is discarded from play%(why)s."), seat=who, card=name,
               why=why(reason, ev["card"]))


def _discard(ev: Event) -> list[Piece]:
    reason = ev.get("reason")
    if "cards" in ev:
        listed = cards(ev["cards"])
        if reason == "reserve":
            return say(gettext("%(seat)s discards %(cards)s from their hand, down to their reserve."),
                       seat=seat(ev["seat"]), cards=listed)
        return say(gettext("%(seat)s discards %(cards)s%(why)s."), seat=seat(ev["seat"]), cards=listed, why=why(reason))
    name = card(ev["card"])
    if reason == "claim":
        return say(gettext("Claim: %(seat)s discards %(card)s at random from their hand."), seat=seat(ev["seat"]),
                   card=name)
    if reason == "pillage":
        return say(gettext("Pillage: %(seat)s discards %(card)s from the top of their deck."), seat=seat(ev["seat"]),
                   card=name)
    if ev.get("to") == "dead":
        return say(gettext("%(seat)s discards %(cards)s into their dead pile%(why)s."), seat=seat(ev["seat"]),
                   cards=name, why=why(reason))
    return say(gettext("%(seat)s discards %(cards)s%(why)s."), seat=seat(ev["seat"]), cards=name, why=why(reason))


def _control(ev: Event) -> list[Piece]:
    return say(gettext("%(seat)s takes control of %(card)s%(why)s."), seat=seat(ev["seat"]), card=card(ev["card"]),
               why=why(ev.get("reason")))


def _removed_from_challenge(ev: Event) -> list[Piece]:
    return say(gettext("%(card)s is removed from the challenge."), card=card(ev["card"]))


# ------------------------------------------------------------------ dominance, the end


def _dominance(ev: Event) -> list[Piece]:
    total = ev.get("total") or {}
    w = ev.get("winner")
    if w is None:
        if total:
            return [gettext("Nobody wins dominance: a tie, %(score)s.") % {"score": score(total.values())}]
        return [gettext("Nobody wins dominance.")]
    rest = [v for s, v in total.items() if s != w]
    if rest and w in total:
        return say(gettext("%(seat)s wins dominance (%(won)s to %(other)s) and gains 1 power on their faction card."),
                   seat=seat(w), won=str(total.get(w)), other=str(max(rest)))
    return say(gettext("%(seat)s wins dominance and gains 1 power on their faction card."), seat=seat(w))


def _eliminated(ev: Event) -> list[Piece]:
    if ev.get("reason") == "decked":
        return say(gettext("%(seat)s has run out of cards in their draw deck and is out of the game."),
                   seat=seat(ev["seat"]))
    return say(gettext("%(seat)s is out of the game%(why)s."), seat=seat(ev["seat"]), why=why(ev.get("reason")))


def _game_over(ev: Event) -> list[Piece]:
    reason = ev.get("reason")
    winner = seat(ev.get("winner"))
    if reason == "power":
        return say(gettext("The game is over: %(seat)s wins with 15 power."), seat=winner)
    if reason == "decked":
        return say(gettext("The game is over: %(seat)s wins: their opponent's draw deck ran out."), seat=winner)
    return say(gettext("The game is over: %(seat)s wins."), seat=winner)


NARRATORS: dict[str, Callable[[Event], list[Piece]]] = {
    "round": _round, "phase": _phase, "mulligan": _mulligan, "setup_chosen": _setup_chosen,
    "setup_revealed": _setup_revealed, "draw": _draw, "plot_chosen": _plot_chosen, "plots_revealed": _plots_revealed,
    "initiative": _initiative, "first_player": _first_player, "plots_recycled": _plots_recycled, "income": _income,
    "marshal": _marshal, "ambush": _ambush, "put_into_play": _put_into_play, "bestow": _bestow, "attached": _attached,
    "duplicate_placed": _duplicate_placed, "played": _played, "triggered": _triggered, "forced": _forced,
    "cancelled": _cancelled, "saved": _saved, "duplicate_discarded": _duplicate_discarded, "gold": _gold,
    "gold_returned": _gold_returned, "named": _named, "revealed": _revealed, "look": _look, "to_bottom": _to_bottom,
    "reordered": _reordered, "shuffled_into_deck": _shuffled_into_deck, "returned_to_hand": _returned_to_hand,
    "token": _token, "kneel": _kneel, "stand": _stand, "power": _power, "power_moved": _power_moved,
    "no_challenge": _no_challenge, "challenge": _challenge, "defenders": _defenders,
    "challenge_result": _challenge_result, "claim": _claim, "leaves_play": _leaves_play, "discard": _discard,
    "removed_from_challenge": _removed_from_challenge, "dominance": _dominance, "eliminated": _eliminated,
    "game_over": _game_over, "control": _control,
}


# ------------------------------------------------------------------ sentences


def _fallback(ev: Event) -> list[Piece]:
    """An event this module does not know: its kind in words, and the seat and card it names."""
    out: list[Piece] = [words(ev.get("type") or "something").capitalize()]
    if isinstance(ev.get("seat"), str):
        out += [": ", seat(ev["seat"])]
    if isinstance(ev.get("card"), str):
        out.append(f" ({card(ev['card'])})")
    return out + ["."]


def parts(event: Event) -> list[Part]:
    """The event's sentence in pieces: {"text"}, and {"text": "{p1}", "seat": "p1"} for a seat."""
    return sentence(NARRATORS.get(event.get("type")), event, _fallback)


def narrate(event: Event) -> str:
    return text(parts(event))


def moment(event: Event) -> dict[str, Any]:
    """The round and phase an event starts ({} when it starts none); phases by their engine id."""
    t = event.get("type")
    if t == "round":
        return {"round": event.get("round"), "phase": "plot"}
    if t == "phase":
        return {"round": event.get("round"), "phase": event.get("phase")}
    if t == "game_over":
        return {"phase": "over"}
    return {}


def describe(event: Event) -> dict[str, Any]:
    """What LcgRuleset.describe_event returns: the sentence (`text`), its pieces (`parts`), the seats
    it names (`seats`), whether it belongs in a digest (`key`) and leads a phase summary
    (`headline`), `private` when it tells what only this viewer may see (the cards drawn or looked
    at), and the round/phase it starts, when it starts one."""
    ps = parts(event)
    t = event.get("type")
    return line(ps, key=t in KEY_KINDS,
                headline=t in HEADLINE_KINDS or (t == "leaves_play" and event.get("reason") == "claim"),
                seats=seats(ps), private=t in ("draw", "look") and bool(event.get("cards")), moment=moment(event))


# the melee's own events (narrate_melee.py)
from games.engine.lcg import narrate_melee  # noqa: E402

NARRATORS.update(narrate_melee.NARRATORS)
