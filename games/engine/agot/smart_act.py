"""The smart bot's Action phase and combat choices (docs/agot-bot.md): marches, raids, supports,
house cards and card abilities. Orders are revealed by now, so fights are judged on the real March,
Defense and Support orders (smart_eval.attack_margin)."""
from __future__ import annotations

from typing import Any

from games.engine.agot import action
from games.engine.agot import board as B
from games.engine.agot import smart_eval as E
from games.engine.agot import smart_plan as P
from games.engine.agot.data import board, house_cards, token_bonus, token_kind
from games.engine.base import EngineError

State = dict[str, Any]
Action = dict[str, Any]


def _legal(state: State, seat: str, spec: dict[str, Any]) -> bool:
    try:
        action.check_march(state, seat, spec)
    except EngineError:
        return False
    return True


def march_options(state: State, seat: str, area: str) -> list[tuple[int, dict[str, Any]]]:
    """(score, march spec) for one March order: attacks that should win (score by the target's
    value, well above any walk), then walks into free areas, best first."""
    units = P.attackers_from(state, seat, area)
    if not units:
        return []
    token = state["orders"][area]["token"]
    out: list[tuple[int, dict[str, Any]]] = []
    leave = _leave_token(state, seat, area, len(units))
    sea = board().type[area] == "sea"
    for target in P.sea_targets(state, seat, area) if sea else P.land_targets(state, seat, area):
        if P.is_contested(state, seat, target):
            castle = B.has_castle(target)
            attack = (E.units_strength(units, attacking=True, castle=castle) + token_bonus(token)
                      + E.revealed_support(state, seat, target, attacking=True))
            if E.attack_margin(state, seat, target, attack) <= 0:
                continue
            score = 100 + E.area_value(state, seat, target)
        elif sea:
            continue  # ships stay where they carry and support
        elif P.is_free(state, seat, target):
            score = E.area_value(state, seat, target)
        elif target == P.regroup_target(state, seat, area):
            score = P.frontier(state, seat, target) - P.frontier(state, seat, area)
        else:
            continue
        for lv in (leave, False):
            spec = {"from": area, "moves": {target: list(units)}, "leave_power_token": lv}
            if _legal(state, seat, spec):
                out.append((score, spec))
                break
    out.sort(key=lambda item: (-item[0], sorted(item[1]["moves"])))
    return out


def _leave_token(state: State, seat: str, area: str, moving: int) -> bool:
    """Keep control of a vacated land area with a power token (R154) when it is worth something
    and power is not short."""
    if board().type[area] != "land" or moving < len(B.house_units(state, area, seat)):
        return False
    if area in state["power_tokens"] or B.home_of(state, area) == seat:
        return False
    worth = B.has_castle(area) or board().power[area] or board().supply[area]
    return state["power"][seat] > (1 if worth else 3)


def march(state: State, seat: str) -> Action:
    areas = action.orders_of(state, seat, "march")
    best: tuple[int, dict[str, Any]] | None = None
    for area in areas:
        options = march_options(state, seat, area)
        if options and (best is None or options[0][0] > best[0]):
            best = options[0]
    if best is not None:
        return {"march": best[1]}
    return {"march": {"from": areas[0], "moves": {}}}


RAID_KIND = {"support": 0, "consolidate": 1, "raid": 2, "defense": 3}


def raid(state: State, seat: str) -> Action:
    """Raid Support orders first (they would count against us), then Consolidate Power (pillage,
    R136), then raids and defences; the leader's orders before others'."""
    lead = E.leader(state, exclude=seat)
    best: tuple[tuple[int, int, str, str], dict[str, Any]] | None = None
    for area in action.orders_of(state, seat, "raid"):
        for target in action.raid_targets(state, area):
            o = state["orders"][target]
            key = (RAID_KIND.get(token_kind(o["token"]), 9), 0 if o["house"] == lead else 1, area, target)
            if best is None or key < best[0]:
                best = (key, {"from": area, "target": target})
    if best is not None:
        return {"raid": best[1]}
    return {"raid": {"from": action.orders_of(state, seat, "raid")[0], "target": None}}


def support(state: State, seat: str) -> Action:
    """Its own side; in other houses' battles the side with fewer castles (weakening the leader),
    none when they are level."""
    cur = state["combat"]["_current"]
    attacker, defender = cur["attacker"], cur["defender"]
    if seat in (attacker, defender):
        return {"support": {"for": seat}}
    if defender is None:
        return {"support": {"for": None}}
    counts = B.victory_counts(state)
    if counts[attacker] == counts[defender]:
        return {"support": {"for": None}}
    return {"support": {"for": attacker if counts[attacker] < counts[defender] else defender}}


def house_card(state: State, seat: str) -> str:
    """The weakest card that beats the opponent's best possible card on the initial strengths (the
    Fiefdoms tie-break counted, R216); else, when the area is a home or castle/stronghold, the
    strongest; else the weakest (save the good ones). Ties: card id."""
    cur = state["combat"]["_current"]
    hand = sorted(state["hands"][seat])
    if cur.get("replace"):
        hand = [c for c in hand if c not in cur["replace"]["exclude"]]
    cards = house_cards()
    other = cur["defender"] if seat == cur["attacker"] else cur["attacker"]
    mine = int(cur["initial"].get(seat, 0))
    theirs = int(cur["initial"].get(other, 0)) if other else 0
    their_best = E.best_card(state, other)
    ties = E.wins_ties(state, seat, other)
    by_strength = sorted(hand, key=lambda c: (int(cards[c]["strength"]), c))
    for card in by_strength:
        total = mine + int(cards[card]["strength"])
        if total > theirs + their_best or (ties and total == theirs + their_best):
            return card
    area = cur["area"]
    if B.home_of(state, area) == seat or B.has_castle(area):
        return by_strength[-1]
    best = by_strength[-1]
    if mine + int(cards[best]["strength"]) > theirs + min(E.cards_of(state, other), default=0):
        return best  # a chance to win if they hold back their best card
    return by_strength[0]


def card_choice(state: State, seat: str, d: dict[str, Any]) -> Any:
    options = list(d.get("options") or [])
    real = [o for o in options if o is not False]
    ability = d.get("ability")
    if not real:
        return False
    if ability == "tyrion_lannister":
        cur = state["combat"]["_current"]
        other = cur["defender"] if seat == cur["attacker"] else cur["attacker"]
        card = cur["cards"].get(other)
        return bool(card) and int(house_cards()[card]["strength"]) >= 3
    if ability == "aeron_damphair":
        return False
    if ability == "patchface":
        return max(real, key=lambda c: (int(house_cards()[c]["strength"]), c))
    return real[0]  # Cersei, Renly: take the gain; mandatory choices: the first option
