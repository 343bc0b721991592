"""The miniatures game's log in words: one plain sentence per engine event, for players, in the
reader's language (issue 29: each sentence is one translatable template said with
`games.engine.narration`'s `gettext` and `say`, game names through `term("minis", ...)`, the Spanish
rulebook's words on the site; English without a host's words).

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
from games.engine.narration import (
    Event,
    Marked,
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

SEATS = ("stark", "lannister", "stark_2", "lannister_2")  # three or four players: a house may play twice
ZONE_NAMES = {"crown": "Crown", "money": "Wealth", "letter": "Tactics", "swords": "Combat", "horse": "Maneuver"}
QUADRANTS = {"sw": "south-west", "se": "south-east", "nw": "north-west", "ne": "north-east"}
QUADRANT_PHRASES = {"sw": gettext_noop("the south-west quadrant"), "se": gettext_noop("the south-east quadrant"),
                    "nw": gettext_noop("the north-west quadrant"), "ne": gettext_noop("the north-east quadrant")}
ARCS = {"front": "Front", "flank": "Flank", "rear": "Rear"}
COMPASS = (gettext_noop("north"), gettext_noop("north-east"), gettext_noop("east"), gettext_noop("south-east"),
           gettext_noop("south"), gettext_noop("south-west"), gettext_noop("west"), gettext_noop("north-west"))
# a reaction window (cards.py) as the moment a seat passes at
WINDOWS = {
    "turn_start": gettext_noop("the start of the turn"), "unit_activates": gettext_noop("a unit's activation"),
    "ncu_activates": gettext_noop("an NCU's activation"), "melee_before": gettext_noop("a melee attack"),
    "morale_before": gettext_noop("a Morale Test"), "morale_rolled": gettext_noop("a Morale Test's roll"),
    "panic_failed": gettext_noop("a failed Panic Test"), "after_attack": gettext_noop("the end of an attack"),
    "card_played": gettext_noop("a Tactics card played"), "zone_claimed": gettext_noop("a zone claimed"),
    "charge_declared": gettext_noop("a charge declared"), "charge_rolled": gettext_noop("a charge roll"),
    "charge_success": gettext_noop("a successful charge"), "surge": gettext_noop("a Surge Forward"),
    "unit_destroyed": gettext_noop("a unit destroyed"), "turn_end": gettext_noop("the end of the turn"),
}
# Lines that matter in a digest ("since your last move"); the others are bookkeeping.
KEY_KINDS = frozenset({
    "first_player", "round", "cleanup", "activate", "move", "retreat", "charge", "attack", "attack_dice", "hits",
    "wounds", "heal", "destroyed", "test", "condition", "claim", "place", "influence", "play", "order", "attach",
    "counterplot", "cancelled", "reckless_heroism", "last_stand", "redeploy", "vp", "game_over", "ability",
    "dangerous", "terrain_destroyed", "eliminated", "ncu_ability",
})
# The lines a round's summary leads with (a subset of KEY_KINDS).
HEADLINE_KINDS = frozenset({"charge", "destroyed", "claim", "place", "play", "vp", "game_over"})



# ------------------------------------------------------------------ names


def tr(english: str, kind: str | None = None) -> str:
    """A game term in the reader's language (the Spanish rulebook's word, else the English name)."""
    return term("minis", english, kind)


def words(x: Any) -> str:
    """Any id as words: 'the_old_ways' -> 'the old ways' (never underscores or braces)."""
    if x is None:
        return gettext("nobody")
    return re.sub(r"\s+", " ", re.sub(r"[_{}\[\]\"]", " ", str(x))).strip()


def _unit_names() -> dict[str, str]:
    return {data.slug(c["name"]): str(c["name"]) for c in data.content()["cards"].values() if c["kind"] == "unit"}


_UNITS: dict[str, str] = {}


def card(cid: Any) -> str:
    """A card's printed name ('40201' -> "Winter's Might"), as the reader's language prints it (the
    glossary's); an id the data does not know reads as 'a card' (never as digits)."""
    if isinstance(cid, str) and data.known(cid):
        return tr(str(data.card(cid)["name"]))
    if isinstance(cid, str) and re.fullmatch(r"[0-9]+_[0-9]+", cid) and data.known(cid.split("_")[0]):
        return card(cid.split("_")[0])  # a second copy of an NCU (a house played twice, M131)
    return gettext("a card")


def unit(key: Any) -> str:
    """A unit (or an NCU activating) by its printed name: the engine names units after their cards
    (`sworn_swords`, `sworn_swords_2`); a scenario's own unit name reads as words, title case."""
    if not isinstance(key, str) or not key:
        return gettext("a unit")
    if data.known(key) or re.fullmatch(r"[0-9]+_[0-9]+", key):
        return card(key)
    if not _UNITS:
        _UNITS.update(_unit_names())
    if key in _UNITS:
        return tr(_UNITS[key])
    m = re.fullmatch(r"(\w+?)_(\d+)", key)
    if m and m.group(1) in _UNITS:
        return f"{tr(_UNITS[m.group(1)])} {m.group(2)}"
    return words(key).title()


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def seat(s: Any) -> Seat | str:
    return Seat(s) if isinstance(s, str) and s in SEATS else gettext("nobody")


def num(n: Any, one: str, many: str) -> str:
    """'1 wound', '3 wounds' (digits: dice, wounds and points read better as figures). English only: a
    sentence uses `ngettext` with '%(count)s' (`figures`)."""
    n = int(n or 0)
    return f"{n} {one if n == 1 else many}"


def figures(n: Any, template: str) -> str:
    """A counted phrase in figures from a template `ngettext` chose ('%(count)s wounds' -> '3 wounds')."""
    return template % {"count": int(n or 0)}


def decimal(v: float) -> str:
    return f"{v:g}".replace(".", pgettext("decimal separator", "."))


def inches(x: Any) -> str:
    return gettext("%(inches)s in") % {"inches": decimal(round(float(x), 1))}


def dice(faces: Any) -> str:
    return join([str(f) for f in faces or []]) or gettext("no dice")


def zone(z: Any) -> str:
    return gettext("the %(zone)s zone") % {"zone": tr(ZONE_NAMES[z], "zone") if z in ZONE_NAMES else words(z).title()}


def quadrant(q: Any) -> str:
    if q in QUADRANT_PHRASES:
        return gettext(QUADRANT_PHRASES[q])
    return gettext("the %(quadrant)s quadrant") % {"quadrant": words(q)}


def condition(c: Any) -> str:
    return tr(words(c).capitalize(), "condition")


def compass(f: Any) -> str:
    return gettext(COMPASS[round((float(f or 0) % 360) / 45) % 8])


def ability(a: Any) -> str:
    if not a:
        return gettext("an Order")
    return re.sub(r"^(Order|Orden): ", "", tr(str(a)))


def vp_total(ev: Event, s: Any) -> str:
    """' (3 in all)' when the event carries the scores."""
    vp = ev.get("vp")
    return gettext(" (%(total)s in all)") % {"total": vp[s]} \
        if isinstance(vp, dict) and isinstance(vp.get(s), int) else ""


def says(template: str, **pieces: Piece) -> list[Piece]:
    """`say`, with English's possessive of a name ending in s: "Stark Sworn Swords' activation" from
    the template's "%(unit)s's"."""
    out = say(template, **pieces)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if isinstance(a, str) and not isinstance(a, Marked) and a.endswith("s") and isinstance(b, str) \
                and not isinstance(b, Marked) and b.startswith("'s"):
            out[i + 1] = "'" + b[2:]
    return out


# ------------------------------------------------------------------ setup, rounds, the Tactics deck


def _first_player(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s is the First Player."), seat=seat(ev["seat"]))


def _deploy(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s deploys on the battlefield."), unit=unit(ev["unit"]))


def _redeploy(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s returns to the battlefield at full strength (%(rule)s)."), unit=unit(ev["unit"]),
                rule=tr("Here We Stand"))


def _round(ev: Event) -> list[Piece]:
    return says(gettext("Round %(round)s begins."), round=str(ev["round"]))


def _cleanup(ev: Event) -> list[Piece]:
    return says(gettext("Round %(round)s ends: the Cleanup phase."), round=str(ev["round"]))


def _draw(ev: Event) -> list[Piece]:
    got = ev.get("cards")
    n = ev.get("count") if ev.get("count") is not None else len(got if isinstance(got, list) else [])
    if not int(n or 0):
        return says(gettext("%(seat)s draws no Tactics cards."), seat=seat(ev["seat"]))
    what = counted(n, ngettext("one Tactics card", "%(count)s Tactics cards", int(n)))
    if isinstance(got, list) and got:
        return says(gettext("%(seat)s draws %(count)s: %(cards)s."), seat=seat(ev["seat"]), count=what,
                    cards=join([card(c) for c in got]))
    return says(gettext("%(seat)s draws %(count)s."), seat=seat(ev["seat"]), count=what)


def _discard(ev: Event) -> list[Piece]:
    if not ev.get("cards"):
        return says(gettext("%(seat)s keeps every card in their hand."), seat=seat(ev["seat"]))
    return says(gettext("%(seat)s discards %(cards)s."), seat=seat(ev["seat"]), cards=join([card(c) for c in ev["cards"]]))


# ------------------------------------------------------------------ activations and movement


def _activate(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s activates %(unit)s."), seat=seat(ev["seat"]), unit=unit(ev["unit"]))


def _activation_end(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s's activation ends."), unit=unit(ev["unit"]))


def _no_action(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s takes no action."), unit=unit(ev["unit"]))


def _move_sentences(kind: Any) -> tuple[str, str]:
    """A move's sentence with its distance (and facing), and without."""
    if kind == "maneuver":
        return gettext("%(unit)s maneuvers %(distance)s, facing %(facing)s."), gettext("%(unit)s maneuvers.")
    if kind == "march":
        return gettext("%(unit)s marches %(distance)s, facing %(facing)s."), gettext("%(unit)s marches.")
    if kind == "retreat":
        return gettext("%(unit)s retreats %(distance)s, facing %(facing)s."), gettext("%(unit)s retreats.")
    if kind == "shift":
        return gettext("%(unit)s shifts %(distance)s, facing %(facing)s."), gettext("%(unit)s shifts.")
    if kind == "surge":
        return gettext("%(unit)s surges forward %(distance)s, facing %(facing)s."), gettext("%(unit)s surges forward.")
    if kind == "push_back":
        return gettext("%(unit)s is pushed back %(distance)s, facing %(facing)s."), gettext("%(unit)s is pushed back.")
    if kind == "reface":
        return gettext("%(unit)s re-faces its enemy, moving %(distance)s."), gettext("%(unit)s re-faces its enemy.")
    if kind == "align":
        return gettext("%(unit)s aligns with its enemy, moving %(distance)s."), gettext("%(unit)s aligns with its enemy.")
    return gettext("%(unit)s moves %(distance)s, facing %(facing)s."), gettext("%(unit)s moves.")


def _move(ev: Event) -> list[Piece]:
    name, kind = unit(ev["unit"]), ev.get("kind")
    if kind == "pivot":
        return says(gettext("%(unit)s pivots to face %(facing)s."), unit=name, facing=compass(ev.get("facing")))
    if ev.get("stays"):
        return says(gettext("%(unit)s has nowhere to retreat and stays where it is."), unit=name)
    moved, still = _move_sentences(kind)
    dist = ev.get("distance")
    if dist is None:
        return says(still, unit=name)
    return says(moved, unit=name, distance=inches(dist), facing=compass(ev.get("facing")))


def _retreat(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s falls back: it rolls %(roll)s and may retreat up to %(distance)s."),
                unit=unit(ev["unit"]), roll=str(ev["roll"]), distance=inches(ev["max"]))


def _arc_place(arc: Any) -> str:
    """'in the Front' (where a charge lands or an attack strikes), '' for no arc."""
    if arc == "front":
        return gettext("in the Front")
    if arc == "flank":
        return gettext("in the Flank")
    if arc == "rear":
        return gettext("in the Rear")
    return ""


def _charge(ev: Event) -> list[Piece]:
    pieces: dict[str, Piece] = {"unit": unit(ev["unit"]), "target": unit(ev["target"]), "roll": str(ev["roll"]),
                                "distance": inches(ev["distance"]), "moved": inches(ev.get("moved", 0))}
    if ev.get("result") != "success":
        return says(gettext("%(unit)s charges %(target)s: it rolls %(roll)s for a charge of %(distance)s and falls "
                            "short after %(moved)s: the charge fails."), **pieces)
    where = _arc_place(ev.get("arc")) if ev.get("arc") in ARCS else ""
    if where:
        out = says(gettext("%(unit)s charges %(target)s %(arc)s: it rolls %(roll)s for a charge of %(distance)s and "
                           "makes contact after %(moved)s."), arc=where, **pieces)
    else:
        out = says(gettext("%(unit)s charges %(target)s: it rolls %(roll)s for a charge of %(distance)s and makes "
                           "contact after %(moved)s."), **pieces)
    if ev.get("disorderly"):
        out += [" ", gettext("It is a Disorderly Charge.")]
    return out


# ------------------------------------------------------------------ attacks, dice, wounds


def _attack(ev: Event) -> list[Piece]:
    pieces: dict[str, Piece] = {"attacker": unit(ev["attacker"]), "defender": unit(ev["defender"]),
                                "attack": str(ev["attack"])}
    kind, arc = ev.get("kind"), ev.get("arc")
    if kind in ("melee", "ranged") and arc in ARCS:
        if kind == "melee":
            return says(gettext("%(attacker)s attacks %(defender)s with %(attack)s, a melee attack %(arc)s."),
                        arc=_arc_place(arc), **pieces)
        return says(gettext("%(attacker)s attacks %(defender)s with %(attack)s, a ranged attack %(arc)s."),
                    arc=_arc_place(arc), **pieces)
    return says(gettext("%(attacker)s attacks %(defender)s with %(attack)s."), **pieces)


def _hits_told(ev: Event) -> str:
    if ev.get("hits") is None:
        return ""
    hits = figures(ev["hits"], ngettext("%(count)s hit", "%(count)s hits", int(ev["hits"])))
    if ev.get("every_die_hits"):
        return gettext(": %(hits)s, every die hitting") % {"hits": hits}
    crit = int(ev.get("critical") or 0)
    extra = counted(crit, ngettext(", one of them from %(rule)s", ", %(count)s of them from %(rule)s", crit)
                    .replace("%(rule)s", tr("Critical Blow"))) if crit else ""
    if isinstance(ev.get("to_hit"), int):
        return gettext(": %(hits)s on %(to_hit)s+%(extra)s") % {"hits": hits, "to_hit": ev["to_hit"], "extra": extra}
    return gettext(": %(hits)s%(extra)s") % {"hits": hits, "extra": extra}


def _dice_count(n: int, what: str = "") -> str:
    """'4 attack dice', '1 defense die', '2 Morale Test dice', '3 dice'."""
    if what == "attack":
        return figures(n, ngettext("%(count)s attack die", "%(count)s attack dice", n))
    if what == "defense":
        return figures(n, ngettext("%(count)s defense die", "%(count)s defense dice", n))
    if what == "Morale Test":
        return figures(n, ngettext("%(count)s Morale Test die", "%(count)s Morale Test dice", n))
    return figures(n, ngettext("%(count)s die", "%(count)s dice", n))


def _attack_dice(ev: Event) -> list[Piece]:
    pieces: dict[str, Piece] = {"count": _dice_count(len(ev.get("dice") or []), "attack"), "faces": dice(ev.get("dice")),
                                "hits": _hits_told(ev)}
    if ev.get("unit"):
        return says(gettext("%(unit)s rolls %(count)s (%(faces)s)%(hits)s."), unit=unit(ev["unit"]), **pieces)
    return says(gettext("The attacker rolls %(count)s (%(faces)s)%(hits)s."), **pieces)


def _blocked_told(ev: Event) -> str:
    if ev.get("blocked") is None:
        return ""
    n = int(ev["blocked"])
    if isinstance(ev.get("save"), int):
        return ngettext(": %(blocked)s blocked on %(save)s+", ": %(blocked)s blocked on %(save)s+", n) % {
            "blocked": n, "save": ev["save"]}
    return ngettext(": %(blocked)s blocked", ": %(blocked)s blocked", n) % {"blocked": n}


def _defense_dice(ev: Event) -> list[Piece]:
    faces = ev.get("dice") or []
    if not faces:
        if ev.get("unit"):
            return says(gettext("%(unit)s has no hits to save."), unit=unit(ev["unit"]))
        return says(gettext("The defender has no hits to save."))
    pieces: dict[str, Piece] = {"count": _dice_count(len(faces), "defense"), "faces": dice(faces),
                                "blocked": _blocked_told(ev)}
    if ev.get("unit"):
        return says(gettext("%(unit)s rolls %(count)s (%(faces)s)%(blocked)s."), unit=unit(ev["unit"]), **pieces)
    return says(gettext("The defender rolls %(count)s (%(faces)s)%(blocked)s."), **pieces)


def _hits(ev: Event) -> list[Piece]:
    faces = ev.get("defense_dice") or []
    blocked = int(ev["blocked"])
    return says(ngettext("%(unit)s suffers %(hits)s and rolls %(count)s (%(faces)s): %(blocked)s blocked.",
                         "%(unit)s suffers %(hits)s and rolls %(count)s (%(faces)s): %(blocked)s blocked.", blocked),
                unit=unit(ev["unit"]), hits=figures(ev["hits"], ngettext("%(count)s hit", "%(count)s hits", int(ev["hits"]))),
                count=_dice_count(len(faces), "defense"), faces=dice(faces), blocked=str(blocked))


def _reroll(ev: Event) -> list[Piece]:
    if ev.get("what") == "charge" or (ev.get("what") is None and ev.get("positions") == [0] and len(ev.get("dice") or []) == 1
                                      and "hits" not in ev):
        return says(gettext("%(seat)s re-rolls the charge die: %(faces)s."), seat=seat(ev["seat"]), faces=dice(ev.get("dice")))
    if ev.get("what") == "retreat":
        return says(gettext("%(seat)s re-rolls the retreat die: %(faces)s, up to %(max)s in."), seat=seat(ev["seat"]),
                    faces=dice(ev.get("dice")), max=str(ev.get("max")))
    n = len(ev.get("positions") or [])
    if not n:
        return says(gettext("%(seat)s keeps the attack dice as rolled."), seat=seat(ev["seat"]))
    return says(gettext("%(seat)s re-rolls %(count)s: now %(faces)s%(hits)s."), seat=seat(ev["seat"]),
                count=_dice_count(n, "attack"), faces=dice(ev.get("dice")), hits=_hits_told(ev))


SPENT_DICE = {"weakened": "attack", "vulnerable": "defense", "panicked": "Morale Test"}


def _spend(ev: Event) -> list[Piece]:
    token = ev.get("token")
    n = len(ev.get("positions") or [])
    pieces: dict[str, Piece] = {"seat": seat(ev["seat"]), "unit": unit(ev["unit"]), "token": condition(token)}
    if not n:
        return says(gettext("%(seat)s spends %(unit)s's %(token)s token and re-rolls nothing."), **pieces)
    told = ""
    if ev.get("dice"):
        more = _hits_told(ev) if "hits" in ev else _blocked_told(ev) if "blocked" in ev else ""
        told = gettext(": now %(faces)s%(more)s") % {"faces": dice(ev["dice"]), "more": more}
    return says(gettext("%(seat)s spends %(unit)s's %(token)s token to re-roll %(count)s%(told)s."),
                count=_dice_count(n, SPENT_DICE.get(token, "")), told=told, **pieces)


def _wounds_count(n: Any) -> str:
    return figures(n, ngettext("%(count)s wound", "%(count)s wounds", int(n or 0)))


def _wounds(ev: Event) -> list[Piece]:
    name = unit(ev["unit"])
    n = _wounds_count(ev["wounds"])
    left = int(ev.get("left") or 0)
    if not left:
        return says(gettext("%(unit)s suffers %(wounds)s and has no wound left."), unit=name, wounds=n)
    lost, ranks = ev.get("ranks_lost"), ev.get("ranks_left")
    if isinstance(lost, int) and isinstance(ranks, int) and (lost or ev.get("ranks", 1) > 1):
        ranks_left = gettext("no ranks left") if not ranks else \
            counted(ranks, ngettext("one rank left", "%(count)s ranks left", ranks))
        if lost:
            gone = gettext("a rank") if lost == 1 else counted(lost, ngettext("one rank", "%(count)s ranks", lost))
            return says(gettext("%(unit)s suffers %(wounds)s and loses %(ranks)s: %(left)s."), unit=name, wounds=n,
                        ranks=gone, left=ranks_left)
        return says(gettext("%(unit)s suffers %(wounds)s: %(left)s."), unit=name, wounds=n, left=ranks_left)
    return says(gettext("%(unit)s suffers %(wounds)s: %(left)s."), unit=name, wounds=n,
                left=figures(left, ngettext("%(count)s wound left", "%(count)s wounds left", left)))


def _heal(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s heals %(wounds)s."), unit=unit(ev["unit"]), wounds=_wounds_count(ev["wounds"]))


def _dangerous(ev: Event) -> list[Piece]:
    if ev.get("why") == "enter":
        return says(gettext("%(unit)s enters Dangerous terrain: 1D3+1 rolls %(roll)s, %(wounds)s."),
                    unit=unit(ev["unit"]), roll=str(ev.get("roll")), wounds=_wounds_count(ev["wounds"]))
    return says(gettext("%(unit)s acts on Dangerous terrain: 1D3+1 rolls %(roll)s, %(wounds)s."),
                unit=unit(ev["unit"]), roll=str(ev.get("roll")), wounds=_wounds_count(ev["wounds"]))


def _terrain_destroyed(ev: Event) -> list[Piece]:
    from games.engine.minis.table import _terrain_word

    return says(gettext("%(unit)s attacks the %(terrain)s and removes it from the battlefield."),
                unit=unit(ev["unit"]), terrain=_terrain_word(str(ev.get("kind") or "")))


def _destroyed(ev: Event) -> list[Piece]:
    if ev.get("scorer") in SEATS:  # a mirror match (stark against stark_2): the recorder names the opponent
        return says(gettext("%(unit)s is destroyed: %(seat)s scores 1 victory point%(total)s."), unit=unit(ev["unit"]),
                    seat=seat(ev["scorer"]), total=vp_total(ev, ev["scorer"]))
    scorers = ev.get("scorers")
    if isinstance(scorers, list) and all(s in SEATS for s in scorers):  # three or four players (M129, M131)
        return _destroyed_scored(ev, scorers)
    winner = SEATS[1] if ev.get("seat") == SEATS[0] else SEATS[0] if ev.get("seat") == SEATS[1] else None
    if winner is None:
        return says(gettext("%(unit)s is destroyed."), unit=unit(ev["unit"]))
    return says(gettext("%(unit)s is destroyed: %(seat)s scores 1 victory point%(total)s."), unit=unit(ev["unit"]),
                seat=seat(winner), total=vp_total(ev, winner))


def _destroyed_scored(ev: Event, scorers: list[str]) -> list[Piece]:
    """A unit destroyed with three or four players: M129's VP to the enemy whose effect destroyed it, else to each
    enemy still in the game (with teams, M130: the enemy team, once), as the recorder read them from `vp_log`."""
    name = unit(ev["unit"])
    team = ev.get("scoring_team")
    if isinstance(team, str) and len(scorers) == 2:
        return says(gettext("%(unit)s is destroyed: the team of %(first)s and %(second)s scores 1 victory "
                            "point%(total)s."), unit=name, first=seat(scorers[0]), second=seat(scorers[1]),
                    total=vp_total(ev, team))
    if len(scorers) == 1:
        return says(gettext("%(unit)s is destroyed: %(seat)s scores 1 victory point%(total)s."), unit=name,
                    seat=seat(scorers[0]), total=vp_total(ev, scorers[0]))
    if len(scorers) == 2:
        return says(gettext("%(unit)s is destroyed: %(first)s and %(second)s score 1 victory point each."),
                    unit=name, first=seat(scorers[0]), second=seat(scorers[1]))
    if len(scorers) == 3:
        return says(gettext("%(unit)s is destroyed: %(first)s, %(second)s and %(third)s score 1 victory point "
                            "each."), unit=name, first=seat(scorers[0]), second=seat(scorers[1]),
                    third=seat(scorers[2]))
    return says(gettext("%(unit)s is destroyed."), unit=name)


def _removed(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s is removed from the battlefield."), unit=unit(ev["unit"]))


def _test(ev: Event) -> list[Piece]:
    name = unit(ev["unit"])
    test = tr("Panic Test") if ev.get("kind") == "panic" else tr("Morale Test")
    if ev.get("automatic"):
        return says(gettext("%(unit)s passes a %(test)s automatically."), unit=name, test=test)
    faces = list(ev.get("dice") or [])
    mod = int(ev.get("modifier") or 0)
    roll = " + ".join(str(f) for f in faces) + (f" {'+' if mod > 0 else '-'} {abs(mod)}" if mod else "")
    roll += f" = {ev.get('result')}"
    needs = gettext(", needing %(morale)s") % {"morale": ev["morale"]} if isinstance(ev.get("morale"), int) else ""
    extra = int(ev.get("wounds") or 0)
    more = ""
    if not ev.get("passed") and extra:
        d3 = f" (D3: {ev['d3']})" if ev.get("kind") == "panic" and ev.get("d3") else ""
        more = gettext("; it suffers %(wounds)s%(d3)s") % {
            "wounds": figures(extra, ngettext("%(count)s more wound", "%(count)s more wounds", extra)), "d3": d3}
    if ev.get("passed"):
        return says(gettext("%(unit)s passes a %(test)s: %(roll)s%(needs)s%(more)s."), unit=name, test=test, roll=roll,
                    needs=needs, more=more)
    return says(gettext("%(unit)s fails a %(test)s: %(roll)s%(needs)s%(more)s."), unit=name, test=test, roll=roll,
                needs=needs, more=more)


def _condition(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s gains a %(token)s token."), unit=unit(ev["unit"]), token=condition(ev["condition"]))


# ------------------------------------------------------------------ NCUs and the Tactics Board


def _claim(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s's %(ncu)s claims %(zone)s of the Tactics Board."), seat=seat(ev["seat"]),
                ncu=card(ev["ncu"]), zone=zone(ev["zone"]))


def _place(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s places %(ncu)s in %(quadrant)s."), seat=seat(ev["seat"]), ncu=card(ev["ncu"]),
                quadrant=quadrant(ev["quadrant"]))


def _influence(ev: Event) -> list[Piece]:
    if ev.get("removed"):
        return says(gettext("%(ncu)s's Influence falls on %(unit)s, removing its %(token)s token."), ncu=card(ev["ncu"]),
                    unit=unit(ev["unit"]), token=condition(ev["removed"]))
    return says(gettext("%(ncu)s's Influence falls on %(unit)s."), ncu=card(ev["ncu"]), unit=unit(ev["unit"]))


def _from_pile(cid: Any, pile: Any) -> str:
    if pile == "deck":
        return gettext("%(card)s from the deck") % {"card": card(cid)}
    return gettext("%(card)s from the discard pile") % {"card": card(cid)}


def _ncu_ability(ev: Event) -> list[Piece]:
    """An NCU's triggered ability (revision 4): Playing The Game (Cersei), Repeating the Words (Sansa)."""
    got = [c for c in (ev.get("cards") or []) if isinstance(c, str)]
    piles = list(ev.get("sources") or [])
    if ev.get("tokens") is not None:
        pieces: dict[str, Piece] = {"seat": seat(ev["seat"]), "ncu": card(ev["ncu"]), "ability": ability(ev.get("ability")),
                                    "left": str(ev["tokens"])}
        if not got:
            return says(gettext("%(seat)s spends an Order token of %(ncu)s (%(ability)s; tokens left: %(left)s) but "
                                "finds no card; the Tactics deck is shuffled."), **pieces)
        found = join([_from_pile(c, piles[i] if i < len(piles) else None) for i, c in enumerate(got)])
        return says(gettext("%(seat)s spends an Order token of %(ncu)s (%(ability)s; tokens left: %(left)s) and takes "
                            "%(cards)s into the hand; the Tactics deck is shuffled."), cards=found, **pieces)
    taken = join([card(c) for c in got])
    if ev.get("instead"):
        return says(gettext("%(seat)s takes %(cards)s back from the discard pile instead of the effect of %(zone)s "
                            "(%(ncu)s: %(ability)s)."), seat=seat(ev["seat"]), cards=taken, zone=zone(ev["instead"]),
                    ncu=card(ev["ncu"]), ability=ability(ev.get("ability")))
    return says(gettext("%(seat)s takes %(cards)s back from the discard pile as %(ncu)s activates (%(ability)s, once "
                        "per game)."), seat=seat(ev["seat"]), cards=taken, ncu=card(ev["ncu"]),
                ability=ability(ev.get("ability")))


def _empty_turn(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s has nothing left to activate: its turn goes from its start straight to its end."),
                seat=seat(ev["seat"]))  # M29


def _vp(ev: Event) -> list[Piece]:
    n = ev.get("points", 1)
    return says(gettext("%(seat)s holds %(quadrant)s and scores %(points)s%(total)s."), seat=seat(ev["seat"]),
                quadrant=quadrant(ev.get("quadrant")),
                points=figures(n, ngettext("%(count)s victory point", "%(count)s victory points", int(n or 0))),
                total=vp_total(ev, ev["seat"]))


# ------------------------------------------------------------------ Orders and Tactics cards


def _react_pass(ev: Event) -> list[Piece]:
    w = ev.get("window")
    moment = gettext(WINDOWS[w]) if w in WINDOWS else gettext("this moment")
    return says(gettext("%(seat)s plays no card at %(moment)s."), seat=seat(ev["seat"]), moment=moment)


def _play(ev: Event) -> list[Piece]:
    if ev.get("source") == "deck":
        return says(gettext("%(seat)s plays %(card)s from the deck (Tactical Mastermind, once per game) and "
                            "shuffles the deck."), seat=seat(ev["seat"]), card=card(ev["card"]))
    if ev.get("source") == "discards":
        return says(gettext("%(seat)s plays %(card)s from the discard pile (Tactical Mastermind, once per game) "
                            "and shuffles the deck."), seat=seat(ev["seat"]), card=card(ev["card"]))
    return says(gettext("%(seat)s plays %(card)s."), seat=seat(ev["seat"]), card=card(ev["card"]))


def _ability(ev: Event) -> list[Piece]:
    """A unit's own triggered ability takes effect (Counterstrike, Ambush, Furious Charge, Go Down
    Fighting, Uncontrolled Rage)."""
    if ev.get("target"):
        return says(gettext("%(unit)s's %(ability)s strikes %(target)s."), unit=unit(ev["unit"]),
                    ability=ability(ev.get("ability")), target=unit(ev["target"]))
    return says(gettext("%(unit)s's %(ability)s takes hold."), unit=unit(ev["unit"]), ability=ability(ev.get("ability")))


def _order(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s gives %(unit)s its Order: %(order)s."), seat=seat(ev["seat"]), unit=unit(ev["unit"]),
                order=ability(ev.get("ability")))


def _cancelled(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s's Tactics card is cancelled: it has no effect."), seat=seat(ev["seat"]))


def _counterplot(ev: Event) -> list[Piece]:
    pieces: dict[str, Piece] = {"card": tr("Counterplot"), "seat": seat(ev["seat"])}
    if ev.get("roll") is None:
        return says(gettext("%(card)s: %(seat)s controlling the Crown and Wealth zones, cancels the card."), **pieces)
    if ev.get("cancelled"):
        return says(gettext("%(card)s: %(seat)s rolls %(roll)s: the card is cancelled."), roll=str(ev["roll"]), **pieces)
    return says(gettext("%(card)s: %(seat)s rolls %(roll)s: the card is not cancelled and resolves."), roll=str(ev["roll"]),
                **pieces)


def _attach(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s attaches %(card)s to %(unit)s."), seat=seat(ev["seat"]), card=card(ev["card"]),
                unit=unit(ev["unit"]))


def _detached(ev: Event) -> list[Piece]:
    return says(gettext("%(card)s no longer affects %(unit)s."), card=card(ev["card"]), unit=unit(ev["unit"]))


def _reckless_heroism(ev: Event) -> list[Piece]:
    return says(gettext("%(order)s: %(unit)s suffers %(wounds)s (D3) and every charge die counts as a 6."),
                order=ability("Order: Reckless Heroism"), unit=unit(ev["unit"]), wounds=_wounds_count(ev["d3"]))


def _last_stand(ev: Event) -> list[Piece]:
    return says(gettext("%(card)s: %(unit)s attacks %(target)s before it is removed."), card=tr("Last Stand"),
                unit=unit(ev["unit"]), target=unit(ev["target"]))


# ------------------------------------------------------------------ the end


def _to(a: Any, b: Any) -> str:
    return gettext("%(first)s to %(second)s") % {"first": a, "second": b}


def _game_over(ev: Event) -> list[Piece]:
    w = ev.get("winner")
    vp = ev.get("vp")
    if w is None:
        if isinstance(vp, dict) and vp:
            values = list(vp.values())
            scores = str(values[0])
            for v in values[1:]:
                scores = _to(scores, v)
            return says(gettext("The battle is over: a draw (%(scores)s victory points, army points tied)."),
                        scores=scores)
        return says(gettext("The battle is over: a draw."))
    result = ev.get("result")
    team = ev.get("team")
    if isinstance(team, list) and len(team) == 2:
        # M130: two players win together
        return says(gettext("The battle is over: %(first)s and %(second)s win as a team."),
                    first=seat(team[0]), second=seat(team[1]))
    if result == "vp":
        if isinstance(vp, dict) and w in vp and len(vp) == 2:
            return says(gettext("The battle is over: %(seat)s wins on victory points, %(score)s."), seat=seat(w),
                        score=_to(vp[w], [v for s, v in vp.items() if s != w][0]))
        return says(gettext("The battle is over: %(seat)s wins on victory points."), seat=seat(w))
    if result == "points":
        return says(gettext("The battle is over: %(seat)s wins on army points left, the victory points tied."),
                    seat=seat(w))
    if result == "elimination":
        return says(gettext("The battle is over: %(seat)s wins by elimination: the enemy has no combat unit left."),
                    seat=seat(w))
    return says(gettext("The battle is over: %(seat)s wins."), seat=seat(w))


def _eliminated(ev: Event) -> list[Piece]:
    return says(gettext("%(seat)s has no combat unit left on the table and is out of the battle."),
                seat=seat(ev["seat"]))  # M131


def _left_out(ev: Event) -> list[Piece]:
    return says(gettext("%(unit)s finds no room left in its deployment corner and stays out of the battle."),
                unit=unit(ev["unit"]))


NARRATORS: dict[str, Callable[[Event], list[Piece]]] = {
    "eliminated": _eliminated, "left_out": _left_out,
    "first_player": _first_player, "deploy": _deploy, "redeploy": _redeploy, "round": _round, "cleanup": _cleanup,
    "draw": _draw, "discard": _discard, "activate": _activate, "activation_end": _activation_end,
    "no_action": _no_action, "move": _move, "retreat": _retreat, "charge": _charge, "attack": _attack,
    "attack_dice": _attack_dice, "defense_dice": _defense_dice, "hits": _hits, "reroll": _reroll, "spend": _spend,
    "wounds": _wounds, "heal": _heal, "destroyed": _destroyed, "removed": _removed, "test": _test,
    "condition": _condition, "claim": _claim, "place": _place, "influence": _influence, "vp": _vp,
    "react_pass": _react_pass, "play": _play, "order": _order, "cancelled": _cancelled, "counterplot": _counterplot,
    "attach": _attach, "detached": _detached, "reckless_heroism": _reckless_heroism, "last_stand": _last_stand,
    "ability": _ability, "ncu_ability": _ncu_ability, "empty_turn": _empty_turn, "game_over": _game_over,
    "dangerous": _dangerous, "terrain_destroyed": _terrain_destroyed,
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
        if ev.get("what") == "retreat":
            pass
        elif task.get("t") == "charge":
            ev["what"] = "charge"
        else:
            ev.update(what="attack", unit=la["attacker"], **_hit_facts(la))
    elif t == "spend":
        spent = SPENT_DICE.get(ev.get("token"))
        task = state["work"][0] if state.get("work") else {}
        if task.get("t") == "hits":  # hits that are not an attack (Hold the Line!, Counterstrike)
            ev.update(dice=list(task["dice"]), save=task["save"], blocked=_blocked(task["dice"], task["save"]))
        elif spent == "attack":
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
        if t == "destroyed" and not T.multi(state) and T.faction_of(state["seats"][0]) == T.faction_of(state["seats"][1]):
            ev["scorer"] = T.opponent(state, ev["seat"])  # a mirror match: the seat names do not say the opponent
        elif t == "destroyed" and T.multi(state):
            _destroyed_scorers(state, ev)


def _destroyed_scorers(state: dict[str, Any], ev: Event) -> None:
    """Three or four players (M129, M131): who scored the destroyed unit, for the narrator, read from the entries
    `flow.destroy` has just added to `vp_log` ("destroyed:<unit>", the last ones): `scorers`, the seats in the order
    they scored (none: no enemy left in the game); with teams (M130) the scoring team's seats and
    `scoring_team` (the key of its VP)."""
    source = "destroyed:" + str(ev["unit"])
    tail: list[dict[str, Any]] = []
    for entry in reversed(state.get("vp_log") or []):
        if entry.get("source") != source:
            break
        tail.insert(0, entry)
    if T.team_game(state) and tail:
        team = str(tail[0]["team"])
        ev["scorers"] = [s for s in state["seats"] if T.team(state, s) == team]
        ev["scoring_team"] = team
    else:
        ev["scorers"] = [str(entry["seat"]) for entry in tail]


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
