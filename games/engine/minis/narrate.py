"""The miniatures game's log in words: one plain English sentence per engine event, for players.

Pure and read-only, like lcg's narrate.py: `narrate(event)` is the sentence, `parts(event)` the same
sentence in pieces and `describe(event)` what `MinisRuleset.describe_event` returns.

Seats. The engine's seats are `stark` and `lannister`; the narrator does not know the players' names,
so a seat is written as the placeholder `{stark}` / `{lannister}` in `text`, and as its own piece
`{"text": "{stark}", "seat": "stark"}` in `parts`. The log API puts the players' names in
(`games.queries.with_player_names`); `fill(text, names)` does it in Python. No other braces ever
appear in a sentence.

Names. Units by their printed card name ("Stark Sworn Swords"; the second unit of one card in a list
is "Stark Sworn Swords 2", from the engine's unit name `sworn_swords_2`), NCUs and Tactics cards as
printed, zones of the Tactics Board by their names on the board (Crown, Wealth, Tactics, Combat,
Maneuver), condition tokens capitalised, distances in inches.

Hidden information. The narrator runs after `event_view` (per seat), and reads only the filtered
event: a `draw` names its cards only when the event carries them (the drawer's own view); everyone
else reads the count. Such a line is marked `private`.

Facts for the log. Some facts a sentence needs are implicit in the flow's events (how far a move
went, how many attack dice hit, how many ranks a unit has left, the victory points a quadrant
scores at Cleanup). `Recorder`, the event list `MinisRuleset.apply` hands the flow, adds them to
each event as it is appended, from the state at that moment: public values only (the table, the
dice, the scores), never a hand or a deck.
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from games.engine.minis import data, flow
from games.engine.minis import geometry as G
from games.engine.minis import table as T
from games.engine.narration import NUMBERS, Event, Part, Piece, Seat, count_of, join, line, seats, sentence, text
from games.engine.narration import fill as fill  # the module's API: a sentence with the players' names

SEATS = ("stark", "lannister")
ZONE_NAMES = {"crown": "Crown", "money": "Wealth", "letter": "Tactics", "swords": "Combat", "horse": "Maneuver"}
QUADRANTS = {"sw": "south-west", "se": "south-east", "nw": "north-west", "ne": "north-east"}
ARCS = {"front": "Front", "flank": "Flank", "rear": "Rear"}
COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
# a reaction window (cards.py) as the moment a seat passes at
WINDOWS = {
    "turn_start": "the start of the turn", "unit_activates": "a unit's activation",
    "ncu_activates": "an NCU's activation", "melee_before": "a melee attack", "morale_before": "a Morale Test",
    "morale_rolled": "a Morale Test's roll", "panic_failed": "a failed Panic Test",
    "after_attack": "the end of an attack", "card_played": "a Tactics card played", "zone_claimed": "a zone claimed",
    "charge_declared": "a charge declared", "charge_rolled": "a charge roll", "charge_success": "a successful charge",
    "surge": "a Surge Forward", "unit_destroyed": "a unit destroyed",
}
MOVES = {"maneuver": "maneuvers", "march": "marches", "retreat": "retreats", "shift": "shifts",
         "surge": "surges forward", "push_back": "is pushed back", "reface": "re-faces its enemy, moving",
         "align": "aligns with its enemy, moving"}
RESULTS = {"vp": "on victory points", "points": "on army points left, the victory points tied",
           "elimination": "by elimination: the enemy has no combat unit left"}
# Lines that matter in a digest ("since your last move"); the others are bookkeeping.
KEY_KINDS = frozenset({
    "first_player", "round", "cleanup", "activate", "move", "retreat", "charge", "attack", "attack_dice", "hits",
    "wounds", "heal", "destroyed", "test", "condition", "claim", "place", "influence", "play", "order", "attach",
    "counterplot", "cancelled", "reckless_heroism", "last_stand", "redeploy", "vp", "game_over",
})
# The lines a round's summary leads with (a subset of KEY_KINDS).
HEADLINE_KINDS = frozenset({"charge", "destroyed", "claim", "place", "play", "vp", "game_over"})



# ------------------------------------------------------------------ names


def words(x: Any) -> str:
    """Any id as words: 'the_old_ways' -> 'the old ways' (never underscores or braces)."""
    if x is None:
        return "nobody"
    return re.sub(r"\s+", " ", re.sub(r"[_{}\[\]\"]", " ", str(x))).strip()


def _unit_names() -> dict[str, str]:
    return {data.slug(c["name"]): str(c["name"]) for c in data.content()["cards"].values() if c["kind"] == "unit"}


_UNITS: dict[str, str] = {}


def card(cid: Any) -> str:
    """A card's printed name ('40201' -> "Winter's Might"); an id the data does not know reads as
    'a card' (never as digits)."""
    if isinstance(cid, str) and data.known(cid):
        return str(data.card(cid)["name"])
    return "a card"


def unit(key: Any) -> str:
    """A unit (or an NCU activating) by its printed name: the engine names units after their cards
    (`sworn_swords`, `sworn_swords_2`); a scenario's own unit name reads as words, title case."""
    if not isinstance(key, str) or not key:
        return "a unit"
    if data.known(key):
        return card(key)
    if not _UNITS:
        _UNITS.update(_unit_names())
    if key in _UNITS:
        return _UNITS[key]
    m = re.fullmatch(r"(\w+?)_(\d+)", key)
    if m and m.group(1) in _UNITS:
        return f"{_UNITS[m.group(1)]} {m.group(2)}"
    return words(key).title()


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def seat(s: Any) -> Seat | str:
    return Seat(s) if isinstance(s, str) and s in SEATS else "nobody"


def num(n: Any, one: str, many: str) -> str:
    """'1 wound', '3 wounds' (digits: dice, wounds and points read better as figures)."""
    n = int(n or 0)
    return f"{n} {one if n == 1 else many}"


def inches(x: Any) -> str:
    v = round(float(x), 1)
    return f"{v:g} in"


def dice(faces: Any) -> str:
    return join([str(f) for f in faces or []]) or "no dice"


def zone(z: Any) -> str:
    return f"the {ZONE_NAMES.get(z, words(z).title())} zone"


def quadrant(q: Any) -> str:
    return f"the {QUADRANTS.get(q, words(q))} quadrant"


def condition(c: Any) -> str:
    return words(c).capitalize()


def compass(f: Any) -> str:
    return COMPASS[round((float(f or 0) % 360) / 45) % 8]


def ability(a: Any) -> str:
    return re.sub(r"^Order: ", "", str(a or "an Order"))


def vp_total(ev: Event, s: Any) -> str:
    """' (3 in all)' when the event carries the scores."""
    vp = ev.get("vp")
    return f" ({vp[s]} in all)" if isinstance(vp, dict) and isinstance(vp.get(s), int) else ""


# ------------------------------------------------------------------ setup, rounds, the Tactics deck


def _first_player(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), " is the First Player."]


def _deploy(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} deploys on the battlefield."]


def _redeploy(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} returns to the battlefield at full strength (Here We Stand)."]


def _round(ev: Event) -> list[Piece]:
    return [f"Round {ev['round']} begins."]


def _cleanup(ev: Event) -> list[Piece]:
    return [f"Round {ev['round']} ends: the Cleanup phase."]


def _draw(ev: Event) -> list[Piece]:
    got = ev.get("cards")
    n = ev.get("count") if ev.get("count") is not None else len(got if isinstance(got, list) else [])
    what = count_of(n, "Tactics card", "Tactics cards")
    if isinstance(got, list) and got:
        return [seat(ev["seat"]), f" draws {what}: {join([card(c) for c in got])}."]
    return [seat(ev["seat"]), f" draws {what}."]


def _discard(ev: Event) -> list[Piece]:
    if not ev.get("cards"):
        return [seat(ev["seat"]), " keeps every card in their hand."]
    return [seat(ev["seat"]), f" discards {join([card(c) for c in ev['cards']])}."]


# ------------------------------------------------------------------ activations and movement


def _activate(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" activates {unit(ev['unit'])}."]


def _activation_end(ev: Event) -> list[Piece]:
    return [f"{possessive(unit(ev['unit']))} activation ends."]


def _no_action(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} takes no action."]


def _move(ev: Event) -> list[Piece]:
    name, kind = unit(ev["unit"]), ev.get("kind")
    if kind == "pivot":
        return [f"{name} pivots to face {compass(ev.get('facing'))}."]
    if ev.get("stays"):
        return [f"{name} has nowhere to retreat and stays where it is."]
    verb = MOVES.get(kind, "moves")
    dist = ev.get("distance")
    if dist is None:
        return [f"{name} {verb.removesuffix(', moving')}."]
    if kind in ("reface", "align"):
        return [f"{name} {verb} {inches(dist)}."]
    return [f"{name} {verb} {inches(dist)}, facing {compass(ev.get('facing'))}."]


def _retreat(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} falls back: it rolls {ev['roll']} and may retreat up to {inches(ev['max'])}."]


def _charge(ev: Event) -> list[Piece]:
    name, target = unit(ev["unit"]), unit(ev["target"])
    arc = ARCS.get(ev.get("arc"), "")
    where = f" in the {arc}" if arc and ev.get("result") == "success" else ""
    head = f"{name} charges {target}{where}: it rolls {ev['roll']} for a charge of {inches(ev['distance'])}"
    if ev.get("result") != "success":
        return [f"{head} and falls short after {inches(ev.get('moved', 0))}: the charge fails."]
    tail = " It is a Disorderly Charge." if ev.get("disorderly") else ""
    return [f"{head} and makes contact after {inches(ev.get('moved', 0))}.{tail}"]


# ------------------------------------------------------------------ attacks, dice, wounds


def _attack(ev: Event) -> list[Piece]:
    attacker, defender = unit(ev["attacker"]), unit(ev["defender"])
    kind, arc = ev.get("kind"), ARCS.get(ev.get("arc"))
    head = f"{attacker} attacks {defender} with {ev['attack']}"
    if kind in ("melee", "ranged") and arc:
        return [f"{head}, a {kind} attack in the {arc}."]
    return [head + "."]


def _hits_told(ev: Event) -> str:
    if ev.get("hits") is None:
        return ""
    if ev.get("every_die_hits"):
        return f": {num(ev['hits'], 'hit', 'hits')}, every die hitting"
    needs = f" on {ev['to_hit']}+" if isinstance(ev.get("to_hit"), int) else ""
    crit = int(ev.get("critical") or 0)
    extra = f", {NUMBERS[crit] if crit < len(NUMBERS) else crit} of them from Critical Blow" if crit else ""
    return f": {num(ev['hits'], 'hit', 'hits')}{needs}{extra}"


def _attack_dice(ev: Event) -> list[Piece]:
    who = unit(ev["unit"]) if ev.get("unit") else "The attacker"
    return [f"{who} rolls {num(len(ev.get('dice') or []), 'attack die', 'attack dice')} ({dice(ev.get('dice'))})"
            f"{_hits_told(ev)}."]


def _blocked_told(ev: Event) -> str:
    if ev.get("blocked") is None:
        return ""
    save = f" on {ev['save']}+" if isinstance(ev.get("save"), int) else ""
    return f": {ev['blocked']} blocked{save}"


def _defense_dice(ev: Event) -> list[Piece]:
    faces = ev.get("dice") or []
    who = unit(ev["unit"]) if ev.get("unit") else "The defender"
    if not faces:
        return [f"{who} has no hits to save."]
    return [f"{who} rolls {num(len(faces), 'defense die', 'defense dice')} ({dice(faces)}){_blocked_told(ev)}."]


def _hits(ev: Event) -> list[Piece]:
    faces = ev.get("defense_dice") or []
    return [f"{unit(ev['unit'])} suffers {num(ev['hits'], 'hit', 'hits')} and rolls "
            f"{num(len(faces), 'defense die', 'defense dice')} ({dice(faces)}): {ev['blocked']} blocked."]


def _reroll(ev: Event) -> list[Piece]:
    if ev.get("what") == "charge" or (ev.get("what") is None and ev.get("positions") == [0] and len(ev.get("dice") or []) == 1
                                      and "hits" not in ev):
        return [seat(ev["seat"]), f" re-rolls the charge die: {dice(ev.get('dice'))}."]
    n = len(ev.get("positions") or [])
    if not n:
        return [seat(ev["seat"]), " keeps the attack dice as rolled."]
    return [seat(ev["seat"]), f" re-rolls {num(n, 'attack die', 'attack dice')}: now {dice(ev.get('dice'))}"
            f"{_hits_told(ev)}."]


SPENT_DICE = {"weakened": "attack", "vulnerable": "defense", "panicked": "Morale Test"}


def _spend(ev: Event) -> list[Piece]:
    token = ev.get("token")
    n = len(ev.get("positions") or [])
    out: list[Piece] = [seat(ev["seat"]), f" spends {possessive(unit(ev['unit']))} {condition(token)} token"]
    if not n:
        return out + [" and re-rolls nothing."]
    what = SPENT_DICE.get(token, "")
    told = ""
    if ev.get("dice"):
        told = f": now {dice(ev['dice'])}"
        if "hits" in ev:
            told += _hits_told(ev)
        elif "blocked" in ev:
            told += _blocked_told(ev)
    return out + [f" to re-roll {num(n, what + ' die', what + ' dice').replace('  ', ' ')}{told}."]


def _wounds(ev: Event) -> list[Piece]:
    name = unit(ev["unit"])
    n = num(ev["wounds"], "wound", "wounds")
    left = int(ev.get("left") or 0)
    if not left:
        return [f"{name} suffers {n} and has no wound left."]
    lost, ranks = ev.get("ranks_lost"), ev.get("ranks_left")
    if isinstance(lost, int) and isinstance(ranks, int) and (lost or ev.get("ranks", 1) > 1):
        gone = f" and loses {'a rank' if lost == 1 else count_of(lost, 'rank', 'ranks')}" if lost else ""
        return [f"{name} suffers {n}{gone}: {count_of(ranks, 'rank', 'ranks')} left."]
    return [f"{name} suffers {n}: {num(left, 'wound', 'wounds')} left."]


def _heal(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} heals {num(ev['wounds'], 'wound', 'wounds')}."]


def _destroyed(ev: Event) -> list[Piece]:
    winner = SEATS[1] if ev.get("seat") == SEATS[0] else SEATS[0] if ev.get("seat") == SEATS[1] else None
    if winner is None:
        return [f"{unit(ev['unit'])} is destroyed."]
    return [f"{unit(ev['unit'])} is destroyed: ", seat(winner), f" scores 1 victory point{vp_total(ev, winner)}."]


def _removed(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} is removed from the battlefield."]


def _test(ev: Event) -> list[Piece]:
    name = unit(ev["unit"])
    kind = "Panic Test" if ev.get("kind") == "panic" else "Morale Test"
    verb = "passes" if ev.get("passed") else "fails"
    if ev.get("automatic"):
        return [f"{name} passes a {kind} automatically."]
    faces = list(ev.get("dice") or [])
    mod = int(ev.get("modifier") or 0)
    sum_told = " + ".join(str(f) for f in faces) + (f" {'+' if mod > 0 else '-'} {abs(mod)}" if mod else "")
    needs = f", needing {ev['morale']}" if isinstance(ev.get("morale"), int) else ""
    out = f"{name} {verb} a {kind}: {sum_told} = {ev.get('result')}{needs}"
    extra = int(ev.get("wounds") or 0)
    if not ev.get("passed") and extra:
        d3 = f" (D3: {ev['d3']})" if ev.get("kind") == "panic" and ev.get("d3") else ""
        out += f"; it suffers {num(extra, 'more wound', 'more wounds')}{d3}"
    return [out + "."]


def _condition(ev: Event) -> list[Piece]:
    return [f"{unit(ev['unit'])} gains a {condition(ev['condition'])} token."]


# ------------------------------------------------------------------ NCUs and the Tactics Board


def _claim(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f"'s {card(ev['ncu'])} claims {zone(ev['zone'])} of the Tactics Board."]


def _place(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" places {card(ev['ncu'])} in {quadrant(ev['quadrant'])}."]


def _influence(ev: Event) -> list[Piece]:
    removed = f", removing its {condition(ev['removed'])} token" if ev.get("removed") else ""
    return [f"{possessive(card(ev['ncu']))} Influence falls on {unit(ev['unit'])}{removed}."]


def _vp(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" holds {quadrant(ev.get('quadrant'))} and scores "
            f"{num(ev.get('points', 1), 'victory point', 'victory points')}{vp_total(ev, ev['seat'])}."]


# ------------------------------------------------------------------ Orders and Tactics cards


def _react_pass(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" plays no card at {WINDOWS.get(ev.get('window'), 'this moment')}."]


def _play(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" plays {card(ev['card'])}."]


def _order(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" gives {unit(ev['unit'])} its Order: {ability(ev.get('ability'))}."]


def _cancelled(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), "'s Tactics card is cancelled: it has no effect."]


def _counterplot(ev: Event) -> list[Piece]:
    if ev.get("roll") is None:
        how = "controlling the Crown and Wealth zones, cancels the card"
    else:
        how = f"rolls {ev['roll']}: the card is {'cancelled' if ev.get('cancelled') else 'not cancelled and resolves'}"
    return ["Counterplot: ", seat(ev["seat"]), f" {how}."]


def _attach(ev: Event) -> list[Piece]:
    return [seat(ev["seat"]), f" attaches {card(ev['card'])} to {unit(ev['unit'])}."]


def _detached(ev: Event) -> list[Piece]:
    return [f"{card(ev['card'])} no longer affects {unit(ev['unit'])}."]


def _reckless_heroism(ev: Event) -> list[Piece]:
    return [f"Reckless Heroism: {unit(ev['unit'])} suffers {num(ev['d3'], 'wound', 'wounds')} (D3) and every "
            "charge die counts as a 6."]


def _last_stand(ev: Event) -> list[Piece]:
    return [f"Last Stand: {unit(ev['unit'])} attacks {unit(ev['target'])} before it is removed."]


# ------------------------------------------------------------------ the end


def _game_over(ev: Event) -> list[Piece]:
    w = ev.get("winner")
    vp = ev.get("vp")
    score = ""
    if isinstance(vp, dict) and w in vp and len(vp) == 2:
        score = f", {vp[w]} to {[v for s, v in vp.items() if s != w][0]}"
    if w is None:
        tied = f" ({' to '.join(str(v) for v in vp.values())} victory points, army points tied)" \
            if isinstance(vp, dict) and vp else ""
        return [f"The battle is over: a draw{tied}."]
    how = RESULTS.get(ev.get("result"), "")
    if ev.get("result") == "vp":
        how += score
    return ["The battle is over: ", seat(w), f" wins{' ' + how if how else ''}."]


NARRATORS: dict[str, Callable[[Event], list[Piece]]] = {
    "first_player": _first_player, "deploy": _deploy, "redeploy": _redeploy, "round": _round, "cleanup": _cleanup,
    "draw": _draw, "discard": _discard, "activate": _activate, "activation_end": _activation_end,
    "no_action": _no_action, "move": _move, "retreat": _retreat, "charge": _charge, "attack": _attack,
    "attack_dice": _attack_dice, "defense_dice": _defense_dice, "hits": _hits, "reroll": _reroll, "spend": _spend,
    "wounds": _wounds, "heal": _heal, "destroyed": _destroyed, "removed": _removed, "test": _test,
    "condition": _condition, "claim": _claim, "place": _place, "influence": _influence, "vp": _vp,
    "react_pass": _react_pass, "play": _play, "order": _order, "cancelled": _cancelled, "counterplot": _counterplot,
    "attach": _attach, "detached": _detached, "reckless_heroism": _reckless_heroism, "last_stand": _last_stand,
    "game_over": _game_over,
}


# ------------------------------------------------------------------ sentences


def _fallback(ev: Event) -> list[Piece]:
    """An event this module does not know: its kind in words, and the seat and unit it names."""
    out: list[Piece] = [words(ev.get("type") or "something").capitalize()]
    if ev.get("seat") in SEATS:
        out += [": ", seat(ev["seat"])]
    if isinstance(ev.get("unit"), str):
        out.append(f" ({unit(ev['unit'])})")
    return out + ["."]


def parts(event: Event) -> list[Part]:
    """The event's sentence in pieces: {"text"}, and {"text": "{stark}", "seat": "stark"} for a seat."""
    return sentence(NARRATORS.get(event.get("type")), event, _fallback)


def narrate(event: Event) -> str:
    return text(parts(event))


def moment(event: Event) -> dict[str, Any]:
    """The round and phase an event starts ({} when it starts none); phases by their engine id."""
    t = event.get("type")
    if t == "round":
        return {"round": event.get("round"), "phase": "activation"}
    if t == "cleanup":
        return {"round": event.get("round"), "phase": "cleanup"}
    if t == "game_over":
        return {"phase": "game_over"}
    return {}


def describe(event: Event) -> dict[str, Any]:
    """What MinisRuleset.describe_event returns: the sentence (`text`), its pieces (`parts`), the
    seats it names (`seats`), whether it belongs in a digest (`key`) and leads a round's summary
    (`headline`), `private` when it tells what only this viewer may see (the cards drawn), and the
    round/phase it starts, when it starts one."""
    ps = parts(event)
    t = event.get("type")
    private = t == "draw" and isinstance(event.get("cards"), list) and bool(event["cards"])
    return line(ps, key=t in KEY_KINDS, headline=t in HEADLINE_KINDS, seats=seats(ps), private=private,
                moment=moment(event))


# ------------------------------------------------------------------ facts for the log


class Recorder(list):
    """The events of one `apply`, each completed as it is appended with the public facts its
    sentence needs, read from the state at that moment:

    - `move`: `distance`, how far the tray went (its centre's displacement: a pivot turns about the
      centre, so a maneuver's or retreat's straight distance);
    - `attack`: `kind` (melee or ranged) and `arc`; `attack_dice`, `reroll` and `spend` on attack
      dice: the attacker (`unit`), `to_hit` and the `hits` the dice now make; `reroll` says `what`
      (the charge die or attack dice);
    - `defense_dice` and `spend` on defense dice: the defender (`unit`), `save` and `blocked`;
      `spend` on a Morale Test: the test's `dice` now;
    - `wounds`: `ranks` (printed), `ranks_left`, `ranks_lost` (by these wounds);
    - `test`: the unit's printed `morale`;
    - `destroyed` and `game_over`: the scores (`vp`); the victory points a quadrant scores at Cleanup
      (M123), which the flow keeps in `vp_log` only, become `vp` events.
    """

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.state = state
        self.poses = self._poses()
        self.scored = len(state.get("vp_log") or [])

    def _poses(self) -> dict[str, tuple[Any, Any]]:
        return {n: (tuple(u["at"]) if u.get("at") is not None else None, u.get("facing"))
                for n, u in self.state["units"].items()}

    def append(self, ev: Event) -> None:  # type: ignore[override]
        self._scores()
        try:
            _complete(self, ev)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            pass  # a fact missing from the log is no reason to refuse a move
        super().append(ev)
        self.poses = self._poses()

    def _scores(self) -> None:
        log = self.state.get("vp_log") or []
        for x in log[self.scored:]:
            src = str(x.get("source", ""))
            if src.startswith("quadrant:"):
                super().append({"type": "vp", "seat": x["seat"], "points": x["vp"],
                                "quadrant": src.split(":", 1)[1], "vp": {x["seat"]: self._total(x)}})
        self.scored = len(log)

    def _total(self, entry: dict[str, Any]) -> int:
        log = self.state["vp_log"]
        upto = log[: log.index(entry) + 1]
        return sum(int(y["vp"]) for y in upto if y["seat"] == entry["seat"])

    def close(self) -> list[Event]:
        """The events as a plain list, with the scores of the last moments."""
        self._scores()
        return list(self)


def _centre(state: dict[str, Any], name: str, pose: tuple[Any, Any]) -> tuple[float, float] | None:
    at, facing = pose
    if at is None:
        return None
    _w, d = T.size(state, name)
    dx, dy = G.direction(float(facing))
    return float(at[0]) - dx * d / 2, float(at[1]) - dy * d / 2


def _blocked(faces: list[int], save: int) -> int:
    return sum(1 for f in faces if f == 6 or (f != 1 and f >= save))


def _complete(rec: Recorder, ev: Event) -> None:
    state, t = rec.state, ev.get("type")
    la = state.get("last_attack") or {}
    if t == "move" and ev["unit"] in rec.poses:
        name = ev["unit"]
        a = _centre(state, name, rec.poses[name])
        u = state["units"][name]
        b = _centre(state, name, (u["at"], u["facing"]))
        if a is not None and b is not None:
            ev["distance"] = round(math.dist(a, b), 2)
    elif t == "attack":
        ev.update(kind=la.get("kind"), arc=la.get("arc"))
    elif t == "attack_dice":
        ev.update(unit=la["attacker"], **_hit_facts(la))
    elif t == "defense_dice":
        ev.update(unit=la["defender"], save=la["defense_save"], blocked=_blocked(ev["dice"], la["defense_save"]))
    elif t == "reroll":
        task = state["work"][0] if state.get("work") else {}
        if task.get("t") == "charge":
            ev["what"] = "charge"
        else:
            ev.update(what="attack", unit=la["attacker"], **_hit_facts(la))
    elif t == "spend":
        spent = SPENT_DICE.get(ev.get("token"))
        if spent == "attack":
            ev.update(dice=list(la["attack_dice"]), **_hit_facts(la))
        elif spent == "defense":
            ev.update(dice=list(la["defense_dice"]), save=la["defense_save"],
                      blocked=_blocked(la["defense_dice"], la["defense_save"]))
        elif state.get("work") and state["work"][0].get("t") == "test":
            task = state["work"][0]
            ev["dice"] = list(task["dice"]) + ([task["d3"]] if task.get("d3") else [])
    elif t == "wounds":
        name = ev["unit"]
        c = T.ucard(state, name)
        before = _ranks(c, int(ev["left"]) + int(ev["wounds"]))
        after = _ranks(c, int(ev["left"]))
        ev.update(ranks=int(c.get("ranks", 1)), ranks_left=after, ranks_lost=before - after)
    elif t == "test":
        ev["morale"] = int(T.ucard(state, ev["unit"])["morale"])
    elif t in ("destroyed", "game_over"):
        ev["vp"] = dict(state["vp"])


def _hit_facts(la: dict[str, Any]) -> dict[str, Any]:
    """The hits the attack dice make now (M84), the to-hit value, and how many of them Critical Blow
    adds (M95: a 6 hits twice) or whether every die hits."""
    hits, sixes = flow._hits(la)
    facts: dict[str, Any] = {"to_hit": la["to_hit"], "hits": hits}
    if la.get("auto_hit"):
        facts["every_die_hits"] = True
    elif "critical_blow" in la.get("keywords", []) and sixes:
        facts["critical"] = sixes
    return facts


def _ranks(c: dict[str, Any], wounds: int) -> int:
    """M91: figures = ceil(wounds / wounds per figure), ranks = ceil(figures / figures per rank)."""
    figures = math.ceil(wounds / int(c.get("wounds_per_figure", 1)))
    return math.ceil(figures / T.per_rank(c))
