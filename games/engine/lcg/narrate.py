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
from games.engine.narration import Event, Part, Piece, Seat, count_of, join, line, seats, sentence, text
from games.engine.narration import fill as fill  # the module's API: a sentence with the players' names

PHASE_NAMES = {"setup": "Setup", "plot": "Plot phase", "draw": "Draw phase", "marshaling": "Marshaling phase",
               "challenges": "Challenges phase", "dominance": "Dominance phase", "standing": "Standing phase",
               "taxation": "Taxation phase"}
CHALLENGES = ("military", "intrigue", "power")
PILES = {"dead": "dead pile", "discard": "discard pile", "hand": "hand", "deck": "draw deck",
         "plots": "plot deck", "used_plots": "used pile", "removed": "out of the game"}
# Why something happened, when the engine says so by a word rather than a card id.
REASONS = {"claim": "claim", "pillage": "pillage", "renown": "renown", "intimidate": "intimidate",
           "unopposed": "an unopposed challenge", "reserve": "reserve", "cost": "a cost"}
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
        return "nobody"
    return re.sub(r"[_{}\[\]\"]", " ", str(x)).replace("  ", " ").strip()


def card(cid: Any) -> str:
    """A card's printed name ('robb_stark' -> 'Robb Stark'); a card the data does not know (a
    scenario's synthetic card) reads as its id in words, title case."""
    if cid == "faction":
        return "their faction card"
    info = data.cards().get(cid) if isinstance(cid, str) else None
    if info and info.get("name"):
        return str(info["name"]).strip('"')
    return words(cid).title() if cid else "a card"


def cards(cids: Any) -> str:
    return join([card(c) for c in cids or []]) or "no cards"


def seat(s: Any) -> Seat | str:
    return Seat(s) if isinstance(s, str) and s else "nobody"


def phase(p: Any) -> str:
    return PHASE_NAMES.get(p, words(p).capitalize() + " phase")


def challenge(t: Any, article: str = "a") -> str:
    """'military' -> 'a military challenge' (article 'the' or '' as asked)."""
    name = t if t in CHALLENGES else words(t)
    if article == "a" and name[:1] in "aeiou":
        article = "an"
    return f"{article + ' ' if article else ''}{name} challenge"


def why(reason: Any, card_id: Any = None) -> str:
    """' (Robb Stark)' for a card's ability, ' (claim)' for a framework reason, '' for none (or when
    the reason is the card the sentence already names, `card_id`)."""
    if not reason or reason == card_id:
        return ""
    if reason in REASONS:
        return f" ({REASONS[reason]})"
    return f" ({card(reason)})"


def power(n: Any) -> str:
    return f"{int(n or 0)} power"


def gold(n: Any) -> str:
    return f"{int(n or 0)} gold" if n else "no gold"


def owned(s: Any, name: str) -> list[Piece]:
    """"{p1}'s Robb Stark"."""
    return [seat(s), f"'s {name}"]


# ------------------------------------------------------------------ setup, rounds, plots


def _round(ev: Event) -> list[Piece]:
    return [f"Round {ev['round']} begins."]


def _phase(ev: Event) -> list[Piece]:
    return [f"The {phase(ev['phase'])} begins."]


def _mulligan(ev: Event) -> list[Piece]:
    if ev.get("mulligan"):
        return [seat(ev["seat"]), " takes a mulligan: their hand goes back into the deck and they draw a new one."]
    return [seat(ev["seat"]), " keeps their opening hand."]


def _setup_chosen(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), " chooses their setup cards face down."]


def _setup_revealed(ev: Event) -> list[Piece]:
    out: list[Piece] = ["The setup cards are revealed: "]
    for i, (s, cs) in enumerate((ev.get("cards") or {}).items()):
        out += ["; " if i else "", seat(s), f" places {cards(cs)}"]
    return out + ["."]


def _draw(ev: Event) -> list[Piece]:
    n = ev.get("count") or len(ev.get("cards") or [])
    drawn = "a card" if n == 1 else count_of(n, "card", "cards")
    if ev.get("cards"):
        return [seat(ev["seat"]), f" draws {drawn}: {cards(ev['cards'])}."]
    return [seat(ev["seat"]), f" draws {drawn}."]


def _plot_chosen(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), " chooses a plot face down."]


def _plots_revealed(ev: Event) -> list[Piece]:
    out: list[Piece] = ["The plots are revealed: "]
    for i, (s, c) in enumerate((ev.get("plots") or {}).items()):
        out += ["; " if i else "", seat(s), f" reveals {card(c)}"]
    if not ev.get("plots"):
        out.append("nobody has a plot left to reveal")
    return out + ["."]


def _initiative(ev: Event) -> list[Piece]:
    values = ev.get("initiative") or {}
    w = ev["winner"]
    rest = [v for s, v in values.items() if s != w]
    if rest and all(v == values.get(w) for v in rest):
        score = f" (a tie at {values.get(w)}, broken in their favour)"
    elif rest:
        score = f" ({values.get(w)} to {max(rest)})"
    else:
        score = ""
    return [seat(w), f" wins the initiative{score}."]


def _first_player(ev: Event) -> list[Piece]:
    if ev.get("by") in (None, ev["seat"]):
        return [seat(ev["seat"]), " chooses to be the first player."]
    return [seat(ev["by"]), " chooses ", seat(ev["seat"]), " as the first player."]


def _plots_recycled(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), " takes the used plots back into their plot deck."]


# ------------------------------------------------------------------ marshaling, cards entering play


def _income(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" collects {gold(ev.get('gold'))}."]


def _marshal(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("duplicate"):
        return [seat(ev["seat"]), f" marshals a duplicate of {name}."]
    onto = f" onto {card(ev['on'])}" if ev.get("on") else ""
    return [seat(ev["seat"]), f" marshals {name}{onto}."]


def _ambush(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("duplicate"):
        return [seat(ev["seat"]), f" ambushes a duplicate of {name} into play."]
    onto = f", attaching it to {card(ev['on'])}" if ev.get("on") else ""
    return [seat(ev["seat"]), f" brings {name} into play by ambush{onto}."]


def _put_into_play(ev: Event) -> list[Piece]:
    if ev.get("duplicate"):
        return [seat(ev["seat"]), f" puts a duplicate of {card(ev['card'])} into play."]
    return [seat(ev["seat"]), f" puts {card(ev['card'])} into play."]


def _bestow(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" bestows {gold(ev.get('gold'))} on {card(ev['card'])}."]


def _attached(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" attaches {card(ev['card'])} to {card(ev['on'])}."]


def _duplicate_placed(ev: Event) -> list[Piece]:
    if ev.get("cards"):  # the controller's own view of a facedown duplicate (L55)
        what = cards(ev["cards"])
    elif ev.get("card") and not ev.get("facedown"):
        what = card(ev["card"])
    else:
        what = "the top card of their deck"
    how = " facedown" if ev.get("facedown") else ""
    return [seat(ev["seat"]), f" places {what}{how} on {card(ev['on'])} as a duplicate."]


# ------------------------------------------------------------------ abilities


def _targets(ev: Event) -> str:
    return f", targeting {cards(ev['targets'])}" if ev.get("targets") else ""


def _played(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" plays {card(ev['card'])}{_targets(ev)}."]


def _triggered(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" uses the ability of {card(ev['card'])}{_targets(ev)}."]


def _forced(ev: Event) -> list[Piece]:
    return owned(ev["seat"], card(ev["card"])) + [" takes effect."]


def _cancelled(ev: Event) -> list[Piece]:
    return owned(ev["seat"], card(ev["card"])) + [" is cancelled."]


def _saved(ev: Event) -> list[Piece]:
    return owned(ev["seat"], card(ev["card"])) + [" is saved."]


def _duplicate_discarded(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" discards a duplicate of {card(ev['card'])} to save it."]


def _gold(ev: Event) -> list[Piece]:
    n = int(ev.get("gold") or 0)
    verb = "gains" if n >= 0 else "loses"
    return [seat(ev["seat"]), f" {verb} {gold(abs(n))}{why(ev.get('card'))}."]


def _gold_returned(ev: Event) -> list[Piece]:
    return [f"{card(ev['card'])}: every player returns their gold to the treasury."]


def _named(ev: Event) -> list[Piece]:
    by = f" for {card(ev['card'])}"
    if "challenge" in ev:
        return [seat(ev["seat"]), f" names {challenge(ev['challenge'])}{by}."]
    if "card_type" in ev:
        kind = words(ev["card_type"])
        return [seat(ev["seat"]), f" names the card type {kind}{by}."]
    return [seat(ev["seat"]), f" chooses X = {ev.get('x')}{by}."]


def _revealed(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" reveals {card(ev['card'])}{why(ev.get('reason'))}."]


def _look(ev: Event) -> list[Piece]:
    whose: list[Piece] = ["their"] if ev.get("deck") in (None, ev["seat"]) else [seat(ev["deck"]), "'s"]
    top = count_of(ev.get("count"), "card", "cards")
    seen = f": {cards(ev['cards'])}" if ev.get("cards") else ""
    return [seat(ev["seat"]), f" looks at the top {top} of ", *whose, f" deck{seen}."]


def _deck_of(ev: Event) -> list[Piece]:
    return ["their"] if ev.get("by") in (None, ev["seat"]) else [seat(ev["seat"]), "'s"]


def _to_bottom(ev: Event) -> list[Piece]:
    n = count_of(ev.get("count"), "card", "cards")
    return [seat(ev.get("by") or ev["seat"]), f" puts {n} at the bottom of ", *_deck_of(ev), " deck."]


def _reordered(ev: Event) -> list[Piece]:
    n = count_of(ev.get("count"), "card", "cards")
    return [seat(ev.get("by") or ev["seat"]), f" puts {n} back on top of ", *_deck_of(ev), " deck in an order of their choice."]


def _shuffled_into_deck(ev: Event) -> list[Piece]:
    if not ev.get("cards"):
        return [seat(ev["seat"]), " shuffles their deck."]
    return [seat(ev["seat"]), f" shuffles {cards(ev.get('cards'))} from their discard pile into their deck."]


def _returned_to_hand(ev: Event) -> list[Piece]:
    pile = PILES.get(ev.get("from"), words(ev.get("from")))
    return [seat(ev["seat"]), f" returns {card(ev['card'])} from their {pile} to their hand."]


def _token(ev: Event) -> list[Piece]:
    kind = words(ev.get("token") or "a")
    return [f"{card(ev['card'])} gets a {kind} token."]


# ------------------------------------------------------------------ kneeling, standing, power


def _kneel(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    if ev.get("reason") == "cost":
        return [seat(ev["seat"]), f" kneels {name} to pay a cost."]
    if ev.get("reason") == "intimidate":
        return ["Intimidate: "] + owned(ev["seat"], name) + [" kneels."]
    return owned(ev["seat"], name) + [f" kneels{why(ev.get('reason'))}."]


def _stand(ev: Event) -> list[Piece]:
    if not ev.get("card"):
        return ["Every kneeling card stands."]
    return owned(ev["seat"], card(ev["card"])) + [" stands."]


def _power(ev: Event) -> list[Piece]:
    n = int(ev.get("amount") or 0)
    verb = "gains" if n >= 0 else "loses"
    reason = ev.get("reason")
    if ev.get("card") == "faction":
        for_what = " for an unopposed challenge" if reason == "unopposed" else why(reason)
        return [seat(ev["seat"]), f" {verb} {power(abs(n))} on their faction card{for_what}."]
    name = card(ev.get("card"))
    if reason == "renown":
        return ["Renown: "] + owned(ev["seat"], name) + [f" {verb} {power(abs(n))}."]
    return owned(ev["seat"], name) + [f" {verb} {power(abs(n))}{why(reason, ev.get('card'))}."]


def _power_moved(ev: Event) -> list[Piece]:
    n = int(ev.get("amount") or 0)
    if not n:
        return [seat(ev["from"]), " has no power on their faction card for ", seat(ev["to"]), " to take."]
    return [seat(ev["to"]), f" takes {power(n)} from ", seat(ev["from"]), "'s faction card."]


# ------------------------------------------------------------------ challenges


def _no_challenge(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), " declares no further challenge."]


def _challenge(ev: Event) -> list[Piece]:
    out: list[Piece] = [seat(ev["seat"]), f" declares {challenge(ev['challenge'])} against ", seat(ev.get("defender")),
                        f", attacking with {cards(ev.get('attackers'))}"]
    stealth = ev.get("stealth") or {}
    if stealth:
        out.append("; stealth: " + join([f"{card(a)} bypasses {card(b)}" for a, b in stealth.items()]))
    return out + ["."]


def _defenders(ev: Event) -> list[Piece]:
    if not ev.get("defenders"):
        return [seat(ev["seat"]), " does not defend."]
    return [seat(ev["seat"]), f" defends with {cards(ev['defenders'])}."]


def _challenge_result(ev: Event) -> list[Piece]:
    strength = ev.get("strength") or {}
    w = ev.get("winner")
    kind = challenge(ev.get("challenge"), "the")
    if w is None:
        score = " to ".join(str(v) for v in strength.values())
        return [f"Nobody wins {kind}" + (f" ({score})." if score else ".")]
    lost = [v for s, v in strength.items() if s != w]
    score = f", {strength.get(w)} to {lost[0]}" if lost and w in strength else ""
    if lost and lost[0] == strength.get(w):
        score += " (the attacker wins a tie)"
    unopposed = " unopposed" if ev.get("unopposed") else ""
    return [seat(w), f" wins {kind}{unopposed}{score}."]


CLAIM_EFFECT = {
    "military": lambda n: f"the defender must kill {count_of(n, 'character', 'characters')}",
    "intrigue": lambda n: f"the defender discards {count_of(n, 'card', 'cards')} at random from their hand",
    "power": lambda n: f"{power(n)} moves from the defender's faction card to the attacker's",
}


def _claim(ev: Event) -> list[Piece]:
    n = int(ev.get("claim") or 0)
    kind = ev.get("challenge")
    if n <= 0:
        return [seat(ev["seat"]), f" wins {challenge(kind)} but has a claim of 0: nothing happens."]
    effect = CLAIM_EFFECT.get(kind)
    told = f": {effect(n)}" if effect else ""
    return [seat(ev["seat"]), f" claims {n} ({words(kind)}){told}."]


def _leaves_play(ev: Event) -> list[Piece]:
    name = card(ev["card"])
    to, reason = ev.get("to"), ev.get("reason")
    if reason == "sacrifice":
        return [seat(ev["seat"]), f" sacrifices {name}."]
    if reason == "host_left":
        where = "returns to its owner's hand" if to == "hand" else f"goes to the {PILES.get(to, words(to))}"
        return [f"{name} {where}, as the card it was attached to leaves play."]
    if to == "removed":
        return owned(ev["seat"], name) + [f" is removed from the game{why(None if reason == 'removed' else reason)}."]
    if to == "dead":
        return owned(ev["seat"], name) + [f" is killed{why(reason, ev['card'])}."]
    if to == "hand":
        return owned(ev["seat"], name) + [f" returns to its owner's hand{why(None if reason == 'returned' else reason)}."]
    return owned(ev["seat"], name) + [f" is discarded from play{why(reason, ev['card'])}."]


def _discard(ev: Event) -> list[Piece]:
    reason = ev.get("reason")
    if "cards" in ev:
        listed = cards(ev["cards"])
        if reason == "reserve":
            return [seat(ev["seat"]), f" discards {listed} from their hand, down to their reserve."]
        return [seat(ev["seat"]), f" discards {listed}{why(reason)}."]
    name = card(ev["card"])
    if reason == "claim":
        return ["Claim: ", seat(ev["seat"]), f" discards {name} at random from their hand."]
    if reason == "pillage":
        return ["Pillage: ", seat(ev["seat"]), f" discards {name} from the top of their deck."]
    pile = " into their dead pile" if ev.get("to") == "dead" else ""
    return [seat(ev["seat"]), f" discards {name}{pile}{why(reason)}."]


def _removed_from_challenge(ev: Event) -> list[Piece]:
    return [f"{card(ev['card'])} is removed from the challenge."]


# ------------------------------------------------------------------ dominance, the end


def _dominance(ev: Event) -> list[Piece]:
    total = ev.get("total") or {}
    w = ev.get("winner")
    if w is None:
        scores = " to ".join(str(v) for v in total.values())
        return [f"Nobody wins dominance: a tie, {scores}." if scores else "Nobody wins dominance."]
    rest = [v for s, v in total.items() if s != w]
    score = f" ({total.get(w)} to {max(rest)})" if rest and w in total else ""
    return [seat(w), f" wins dominance{score} and gains 1 power on their faction card."]


def _eliminated(ev: Event) -> list[Piece]:
    if ev.get("reason") == "decked":
        return [seat(ev["seat"]), " has run out of cards in their draw deck and is out of the game."]
    return [seat(ev["seat"]), f" is out of the game{why(ev.get('reason'))}."]


def _game_over(ev: Event) -> list[Piece]:
    reason = ev.get("reason")
    if reason == "power":
        how = " with 15 power"
    elif reason == "decked":
        how = ": their opponent's draw deck ran out"
    else:
        how = ""
    return ["The game is over: ", seat(ev.get("winner")), f" wins{how}."]


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
    "game_over": _game_over,
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
