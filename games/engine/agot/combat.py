"""Combat (R189-R246), garrisons (R273-R278) and neutral forces (R279-R285, A14).

Everything from the moment a march enters a contested area until the combat is over: support
declared in Iron Throne order and accepted or refused, initial strength, house cards chosen
secretly, the Valyrian Steel Blade, final strength, the victor, casualties, retreats, discards and
the hand refresh, and the optional Tides of Battle (R297-R304). The house card texts live in cards.py; this module calls
them at the points their timing names (immediately after the reveal, while computing strengths and
icons, on the result, after the combat).

State (docs/engine-agot-state.md, "combat"): `state["combat"]` holds the public record of the
combat in progress once house cards are revealed, else of the last one, in the shape of the referee
summary; the working data of the combat in progress lives under `state["combat"]["_current"]`.
A house card being chosen lives in `state["secret"][house]["house_card"]` until both are chosen.

Every function here works on the working copy `apply` made: it mutates `state` and appends events.
An EngineError raised here aborts the whole action, so the caller's state is untouched.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

from games.engine import fields as F
from games.engine import rng
from games.engine.agot import board as B
from games.engine.agot import cards, supply
from games.engine.agot import names as NM
from games.engine.agot.data import house_cards, tides_cards, token_bonus, token_kind, token_special
from games.engine.base import EngineError
from games.engine.narration import gettext, ngettext

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

KINDS = ("support", "accept_support", "house_card", "blade", "blade_redraw", "casualties", "retreat")
# plus `choose` decisions with owner "combat" (house card abilities, cards.py)
# D24/D26: the order in which a loser gives up units when it may choose (siege engines would die
# on retreat anyway, R240).
LOSS_PRIORITY = ("siege_engine", "footman", "ship", "knight")
PORT_CAPACITY = 3  # R248

ATTACKER = "attacker"
DEFENDER = "defender"


# =========================================================================== small helpers


def _bad(reason: str) -> EngineError:
    return EngineError("bad_action", reason)


def _illegal(reason: str, rules: tuple[str, ...] = ()) -> EngineError:
    return EngineError("illegal_action", reason, rules=rules)


def _cur(state: State) -> dict[str, Any]:
    combat = state.get("combat") or {}
    current = combat.get("_current")
    if not current:
        raise EngineError("not_your_turn", gettext("no combat is in progress"))
    return current


def in_progress(state: State) -> bool:
    return bool((state.get("combat") or {}).get("_current"))


def _set_decision(state: State, kind: str, seats: list[str], **context: Any) -> None:
    state["decision"] = {"kind": kind, "seats": list(seats), **context}


def _loss_key(unit: str) -> tuple[int, str]:
    base = B.base_unit(unit)
    return (LOSS_PRIORITY.index(base) if base in LOSS_PRIORITY else len(LOSS_PRIORITY), unit)


def _fiefdoms_rank(state: State, house: str) -> int:
    return state["tracks"]["fiefdoms"].index(house)


def _card(card_id: str | None) -> dict[str, Any]:
    return house_cards()[card_id] if card_id else {}


def _multiset_sub(have: list[str], take: list[str]) -> bool:
    need = Counter(take)
    got = Counter(have)
    return all(got[u] >= n for u, n in need.items())


# =========================================================================== strengths


def unit_strength(unit: str, *, attacking: bool, castle: bool) -> int:
    """R194, R195: footman 1, knight 2, ship 1, siege engine 4 only attacking (or supporting an
    attack on) a castle/stronghold, routed units 0."""
    if B.is_routed(unit):
        return 0
    if unit == "siege_engine":
        return 4 if attacking and castle else 0
    return {"footman": 1, "knight": 2, "ship": 1}.get(unit, 0)


def _units_strength(units: list[str], *, attacking: bool, castle: bool) -> int:
    return sum(unit_strength(u, attacking=attacking, castle=castle) for u in units)


def support_areas(state: State, house: str, area: str) -> list[str]:
    return _support_areas(state, house, area)


def _support_areas(state: State, house: str, area: str) -> list[str]:
    """Areas of `house` with a Support order that may support a combat in `area` (R199, R208,
    R211, R213): adjacent on the board (never by transport); a land combat takes support from land
    and sea areas, never from ports; a sea combat takes it from sea areas and ports (ships only)."""
    combat_type = B.area_type(area)
    out: list[str] = []
    for other in B.adjacent(area):
        order = state["orders"].get(other)
        if not order or order["house"] != house or token_kind(order["token"]) != "support":
            continue
        if not B.house_units(state, other, house):
            continue
        kind = B.area_type(other)
        if combat_type == "land" and kind == "port":
            continue  # R198, R213: port ships never support a land combat
        if combat_type == "sea" and kind == "land":
            continue  # R208: land units never support a sea combat
        out.append(other)
    return out


def _support_strength(state: State, house: str, area: str, side: str, cur: dict[str, Any] | None = None) -> int:
    """What `house` adds when it supports `side` (R201 all of it, R209 siege engines only for the
    attacker against a castle, R212/A27 the special +1 whenever it supports); with `cur`, the unit
    values after the card texts (Kevan, Victarion, Salladhor)."""
    castle = B.has_castle(area)
    total = 0
    side_house = None if cur is None else (cur["attacker"] if side == ATTACKER else cur["defender"])
    for other in _support_areas(state, house, area):
        token = state["orders"][other]["token"]
        for u in B.house_units(state, other, house):
            base = unit_strength(u, attacking=side == ATTACKER, castle=castle)
            total += base if side_house is None or cur is None else cards.unit_value(cur, side_house, house, u, base)
        total += 1 if token_special(token) else 0
    return total


def _supporting_houses(state: State, area: str) -> list[str]:
    """Houses with at least one Support order able to support here, in Iron Throne order (R203)."""
    return [h for h in B.turn_order(state) if _support_areas(state, h, area)]


def _march_bonus(cur: dict[str, Any]) -> int:
    token = cur.get("march_token")
    return token_bonus(token) if token else 0


def _defense_bonus(state: State, area: str, defender: str | None) -> int:
    """R196, R197: only a Defense order of the defender in the embattled area adds strength."""
    if defender is None:
        return 0
    order = state["orders"].get(area)
    if not order or order["house"] != defender or token_kind(order["token"]) != "defense":
        return 0
    return token_bonus(order["token"])


def _side_of(cur: dict[str, Any], house: str | None) -> str | None:
    if house == cur["attacker"]:
        return ATTACKER
    if house is not None and house == cur["defender"]:
        return DEFENDER
    return None


def _active_supports(state: State, cur: dict[str, Any]) -> dict[str, str]:
    """{supporter: side} for the supports that count now: declared, not refused (R207), with a
    Support order still able to support (Queen of Thorns may have removed it)."""
    return {h: side for h, side in cur["supports"].items()
            if side is not None and h not in cur["refused"] and _support_areas(state, h, cur["area"])}


def _initial_parts(state: State, cur: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """R215, line by line for each combatant: units, March/Defense modifier, accepted supports, the
    garrison, with the card texts that change them once the cards are revealed (Kevan, Victarion,
    Salladhor, Catelyn). Also sets `cur["supported"]` (Asha, Salladhor read it)."""
    area = cur["area"]
    castle = B.has_castle(area)
    attacker, defender = cur["attacker"], cur["defender"]
    active = _active_supports(state, cur)
    cur["supported"] = sorted({attacker if side == ATTACKER else defender for side in active.values()} - {None})
    att_units = list(cur["units"])
    parts: dict[str, dict[str, Any]] = {attacker: {
        "unit_list": sorted(att_units),
        "units": sum(cards.unit_value(cur, attacker, attacker, u, unit_strength(u, attacking=True, castle=castle))
                     for u in att_units),
        "order": _march_bonus(cur),
        "order_token": cur.get("march_token"),
        "garrison": 0,
        "supporters": {},
    }}
    if defender is not None:
        dfn_units = list(B.house_units(state, area, defender))
        defense = _defense_bonus(state, area, defender)
        parts[defender] = {
            "unit_list": sorted(dfn_units),
            "units": sum(cards.unit_value(cur, defender, defender, u, unit_strength(u, attacking=False, castle=castle))
                         for u in dfn_units),
            "order": defense * cards.defense_multiplier(cur, defender),
            "order_token": str(state["orders"][area]["token"]) if defense else None,
            "garrison": int(cur.get("garrison") or 0),
            "supporters": {},
        }
    for supporter, side in active.items():
        target = attacker if side == ATTACKER else defender
        if target is not None:
            parts[target]["supporters"][supporter] = _support_strength(state, supporter, area, side, cur)
    for p in parts.values():
        p["support"] = sum(p["supporters"].values())
        p["initial"] = p["units"] + p["order"] + p["garrison"] + p["support"]
    return parts


def _breakdown(state: State, cur: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each combatant's strength line by line (docs/engine-agot-state.md, "The combat breakdown"):
    the R215 parts, then the house card (R216, with its text), the revealed Tides of Battle card
    (R300) and the blade (R228). Only what is public: the cards once revealed, the Tides once
    revealed; never a card still being chosen or a Tides card still face down."""
    out = _initial_parts(state, cur)
    for house, p in out.items():
        card = (cur.get("cards") or {}).get(house)
        tide = (cur.get("tides") or {}).get(house)
        p["card_id"] = card
        p["card"] = cards.card_strength(state, cur, house) if card is not None else 0
        p["tides_card"] = tide
        p["tides"] = int(tides_cards()[tide]["value"]) if tide is not None else 0
        p["blade"] = 1 if cur.get("blade_house") == house else 0
        p["total"] = p["initial"] + p["card"] + p["tides"] + p["blade"]
    return out


def _set_initial(state: State, cur: dict[str, Any]) -> None:
    """Step 2 (R215): the initial strengths, announced (public), with their breakdown."""
    cur["breakdown"] = _breakdown(state, cur)
    cur["initial"] = {house: p["initial"] for house, p in cur["breakdown"].items()}


def _recompute(state: State, cur: dict[str, Any]) -> None:
    """Initial and final strengths from the board as it is now (R215, R216, R217): card strengths
    with their texts, Tides of Battle values once revealed (R300), the blade's +1 (R228). Once the
    victor is decided (R229) the strengths are frozen: casualties and later card texts (Tywin,
    Cersei, Renly, Patchface) no longer change the record of the battle."""
    if cur.get("winner") is not None:
        return
    breakdown = _breakdown(state, cur)
    initial = {house: p["initial"] for house, p in breakdown.items()}
    strength = {house: p["total"] for house, p in breakdown.items()}
    cur["initial"], cur["strength"], cur["breakdown"] = initial, strength, breakdown
    state["combat"]["initial_strength"] = dict(initial)
    state["combat"]["strength"] = dict(strength)
    state["combat"]["breakdown"] = json.loads(json.dumps(breakdown))


# =========================================================================== starting a combat


def start_combat(
    state: State, events: list[Event], attacker: str, origin: str, area: str, units: list[str]
) -> None:
    """A march of `attacker` from `origin` moves `units` into `area`, which holds enemy units, an
    enemy garrison or a neutral force. The units must already be off the board (they are kept in
    the combat until it ends). The March token must still be in `state["orders"][origin]`: it is
    read for its modifier (action.after_combat removes it).

    Raises EngineError(illegal_action) for a march into a neutral force that no possible support
    could make strong enough (A14 decision), which refuses the whole march."""
    neutral = state["neutral_forces"].get(area)
    if neutral == "impassable":
        raise _illegal(gettext("%(area)s is impassable") % {"area": NM.area(area)}, rules=("R284",))
    defender = _defender(state, area, attacker)
    march_token = _march_token(state, origin, attacker)
    garrison = state["garrisons"].get(area) if defender is not None else None
    if garrison is not None and B.home_of(state, area) != defender:
        garrison = None
    previous = {k: v for k, v in (state.get("combat") or {}).items() if not k.startswith("_")}
    cur: dict[str, Any] = {
        "attacker": attacker,
        "defender": defender,
        "area": area,
        "origin": origin,
        "units": sorted(units),
        "march_token": march_token,
        "neutral": neutral if defender is None else None,
        "garrison": garrison,
        "supports": {},
        "refused": [],
        "to_declare": [],
        "accept": {},
        "cards": {},
        "blade": False,
        "step": "support",
    }
    state["combat"] = {**previous, "_current": cur}
    if cur["neutral"] is not None:
        _check_neutral_reachable(state, cur)
    events.append({"type": "combat_started", "attacker": attacker, "defender": defender, "area": area,
                   "origin": origin, "units": list(cur["units"]), "neutral": cur["neutral"]})
    cur["to_declare"] = _supporting_houses(state, area)
    _advance(state, events)


def _defender(state: State, area: str, attacker: str) -> str | None:
    for house, units in B.units_in(state, area).items():
        if house != attacker and units:
            return house
    home = B.home_of(state, area)
    if state["garrisons"].get(area) and home and home != attacker and home in state["seats"]:
        return home  # R275, A32: a garrison alone is defended by its house
    if state["neutral_forces"].get(area) is not None:
        return None
    raise ValueError(f"no combat in {area}: nobody defends it")


def _march_token(state: State, origin: str, attacker: str) -> str | None:
    order = state["orders"].get(origin)
    if order and order["house"] == attacker and token_kind(order["token"]) == "march":
        return str(order["token"])
    return None


def _check_neutral_reachable(state: State, cur: dict[str, Any]) -> None:
    """A14 decision: refuse the march outright when the marching units plus every Support order
    that could legally help them cannot reach the neutral force's strength (R280, R281)."""
    area = cur["area"]
    best = _units_strength(cur["units"], attacking=True, castle=B.has_castle(area)) + _march_bonus(cur)
    for house in _supporting_houses(state, area):
        best += _support_strength(state, house, area, ATTACKER)
    if best < cur["neutral"]:
        raise _illegal(gettext("the march cannot reach the strength %(force)s of the neutral force in %(area)s "
                               "(at most %(best)s with every possible support)") % {
                                   "force": cur["neutral"], "area": NM.area(area), "best": best}, rules=("R280", "A14"))


# =========================================================================== the combat's course


def _advance(state: State, events: list[Event]) -> None:
    """Run the combat, step by step (R193), until a player must decide or it is over. Each step
    function returns True when it set a decision (or ended the combat)."""
    while in_progress(state):
        cur = state["combat"]["_current"]
        if _STEPS[cur["step"]](state, cur, events):
            return


def _ask(state: State, kind: str, seats: list[str], cur: dict[str, Any], **context: Any) -> bool:
    _set_decision(state, kind, seats, area=cur["area"], **context)
    return True


def _step_support(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 1 (R199-R203): one supporting house at a time, in Iron Throne order."""
    if cur["to_declare"]:
        return _ask(state, "support", [cur["to_declare"][0]], cur)
    cur["accept"] = {h: None for h, offers in _offered_to(cur).items() if offers}
    cur["step"] = "accept_support"
    return False


def _step_accept(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """R207: the combatants offered another house's support keep or refuse it, both at once; then
    step 2, the initial strength (R215)."""
    waiting = [h for h, answered in cur["accept"].items() if answered is None]
    if waiting:
        return _ask(state, "accept_support", waiting, cur)
    _set_initial(state, cur)
    if cur["neutral"] is not None:
        _resolve_neutral(state, events)
        return True
    cur["step"] = "house_card"
    _start_house_cards(state, events)
    return False


def _step_house_card(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 3 (R219): both choose secretly; the cards are revealed once both have chosen."""
    waiting = [h for h in _combatants(cur) if "house_card" not in state["secret"].get(h, {})]
    if waiting:
        return _ask(state, "house_card", waiting, cur)
    _reveal(state, events)
    cur["step"] = "immediate"
    return False


def _step_immediate(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 3 (R221, R222): the cards' immediate texts, cancel first, then Iron Throne order; a card
    replaced (Tyrion, Aeron) sends its owner back to choose; then Tides of Battle (R298)."""
    if cur.get("replace"):
        cur["step"] = "replace_card"
        return False
    nxt = cards.next_ability(state, cur, "immediately")
    if nxt is None:
        _recompute(state, cur)
        cur["step"] = "blade"
        if state["options"].get("tides_of_battle"):
            _draw_tides(state, events)
            cur["step"] = "blade_redraw"
        return False
    return _start_ability(state, cur, nxt, events)


def _start_ability(state: State, cur: dict[str, Any], nxt: tuple[str, str], events: list[Event]) -> bool:
    ask = cards.start(state, cur, nxt[0], nxt[1], events)
    _recompute(state, cur)
    if ask is None:
        return False
    cur["ask"] = ask
    return _ask(state, "choose", [ask["house"]], cur, owner="combat", ability=ask["card"],
                options=list(ask["options"]))


def _replacement_hand(state: State, cur: dict[str, Any]) -> list[str]:
    rep = cur["replace"]
    return sorted(c for c in state["hands"][rep["house"]] if c not in rep["exclude"])


def _step_replace_card(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Tyrion Lannister / Aeron Damphair: the house reveals a different card (alone, so it is shown
    as soon as it is chosen); with no other card it fights without one."""
    house = cur["replace"]["house"]
    secret = state["secret"].setdefault(house, {})
    allowed = _replacement_hand(state, cur)
    if "house_card" not in secret:
        if len(allowed) > 1:
            return _ask(state, "house_card", [house], cur, replacing=True)
        if allowed:
            secret["house_card"] = allowed[0]
            events.append({"type": "house_card_forced", "house": house, "forced": True})
    card = secret.pop("house_card", None)
    if card is not None:
        state["hands"][house].remove(card)
    cur["cards"][house] = card
    state["combat"]["cards"] = dict(cur["cards"])
    events.append({"type": "house_card_replaced", "house": house, "card": card, "area": cur["area"]})
    cur["replace"] = None
    cur["step"] = "immediate"
    _recompute(state, cur)
    return False


def _step_on_result(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """R222.3: the "if you win / lose" texts in Iron Throne order, after the casualties."""
    nxt = cards.next_ability(state, cur, "on_result")
    if nxt is None:
        cur["step"] = "retreat"
        _start_retreat(state, events)
        return False
    return _start_ability(state, cur, nxt, events)


def _step_blade_redraw(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """R299: before the Tides of Battle reveal the blade holder may redraw."""
    if _blade_holder_can_use(state, cur) and cur.get("redraw_asked") is None:
        cur["redraw_asked"] = B.holder(state, "valyrian_steel_blade")
        return _ask(state, "blade_redraw", [cur["redraw_asked"]], cur)
    _reveal_tides(state, events)
    cur["step"] = "blade"
    return False


def _step_blade(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 4 (R228), then steps 5 and 6.1: final strength and the victor."""
    if _blade_holder_can_use(state, cur) and cur.get("blade_asked") is None:
        cur["blade_asked"] = B.holder(state, "valyrian_steel_blade")
        return _ask(state, "blade", [cur["blade_asked"]], cur)
    _decide_victor(state, events)
    cur["step"] = "casualties"
    return False


def _step_casualties(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 6.2 (R230-R235, R302)."""
    _next_casualties(state, events)
    choice = cur.get("casualty_choice")
    if choice is not None:
        return _ask(state, "casualties", [choice["house"]], cur, count=choice["count"])
    cur["step"] = "on_result"
    return False


def _step_retreat(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 6.3 (R236-R243), then 6.4, the end of the combat (R244)."""
    if cur.get("retreat_options") is not None:
        return _ask(state, "retreat", [cur.get("retreat_chooser") or cur["loser"]], cur)
    cur["step"] = "cleanup"
    return False


def _step_cleanup(state: State, cur: dict[str, Any], events: list[Event]) -> bool:
    """Step 6.4 (R244): units in place, cards discarded; then the after-combat texts (Patchface)."""
    if not cur.get("cleaned"):
        _finish(state, events)
        cur["cleaned"] = True
    nxt = cards.next_ability(state, cur, "after_combat")
    if nxt is not None:
        return _start_ability(state, cur, nxt, events)
    _end(state, events, winner=cur["winner"], control=cur.get("control_winner", cur["winner"]))
    return True


_STEPS = {
    "support": _step_support,
    "accept_support": _step_accept,
    "house_card": _step_house_card,
    "immediate": _step_immediate,
    "replace_card": _step_replace_card,
    "blade_redraw": _step_blade_redraw,
    "blade": _step_blade,
    "casualties": _step_casualties,
    "on_result": _step_on_result,
    "retreat": _step_retreat,
    "cleanup": _step_cleanup,
}


def _combatants(cur: dict[str, Any]) -> list[str]:
    return [h for h in (cur["attacker"], cur["defender"]) if h is not None]


def _offered_to(cur: dict[str, Any]) -> dict[str, list[str]]:
    """{combatant: [other houses that offered it support]} (R207: only those can be refused)."""
    out: dict[str, list[str]] = {h: [] for h in _combatants(cur)}
    for supporter, side in cur["supports"].items():
        if side is None:
            continue
        target = cur["attacker"] if side == ATTACKER else cur["defender"]
        if target is not None and supporter != target:
            out[target].append(supporter)
    return out


# ------------------------------------------------------------------ support (R199-R214)


def support_options(state: State, house: str) -> list[str | None]:
    """Whom `house` may support in the current combat: never the enemy of its own units (R210)."""
    cur = _cur(state)
    if house == cur["attacker"]:
        return [cur["attacker"], None]
    if house == cur["defender"]:
        return [cur["defender"], None]
    return [h for h in (cur["attacker"], cur["defender"]) if h is not None] + [None]


def _apply_support(state: State, seat: str, value: Any, events: list[Event]) -> None:
    cur = _cur(state)
    if not isinstance(value, dict) or set(value) != {"for"}:
        raise _bad(gettext("support takes {for: house} or {for: null}"))
    target = value["for"]
    if target is not None and not isinstance(target, str):
        raise _bad(gettext("support: for must be a house or null"))
    if target not in support_options(state, seat):
        raise _illegal(gettext("%(seat)s may not support %(target)s in this combat (never the enemy of one's own units)") % {
            "seat": NM.house(seat), "target": NM.house(target)}, rules=("R210",))
    cur["to_declare"].remove(seat)
    cur["supports"][seat] = _side_of(cur, target) if target is not None else None
    events.append({"type": "support_declared", "house": seat, "for": target, "area": cur["area"]})


def _apply_accept(state: State, seat: str, value: Any, events: list[Event]) -> None:
    cur = _cur(state)
    if not isinstance(value, dict) or not all(isinstance(v, bool) for v in value.values()):
        raise _bad(gettext("accept_support takes {house: true|false, ...}"))
    offers = _offered_to(cur)[seat]
    unknown = [h for h in value if h not in offers]
    if unknown:
        raise _illegal(gettext("%(house)s has not offered %(seat)s support") % {"house": NM.house(unknown[0]), "seat": NM.house(seat)})
    for house, keep in value.items():
        if not keep:
            cur["refused"].append(house)
            events.append({"type": "support_refused", "house": seat, "supporter": house, "area": cur["area"]})
    cur["accept"][seat] = True


# ------------------------------------------------------------------ neutral forces (R280-R285)


def _resolve_neutral(state: State, events: list[Event]) -> None:
    """R280-R283 with the A14 procedure: no house cards, no blade; strength >= the token wins."""
    cur = state["combat"]["_current"]
    attacker, area = cur["attacker"], cur["area"]
    strength = cur["initial"][attacker]
    won = strength >= cur["neutral"]
    _publish(state, cur, winner=attacker if won else None)
    state["combat"]["initial_strength"] = {attacker: strength}
    state["combat"]["strength"] = {attacker: strength}
    state["combat"]["breakdown"] = json.loads(json.dumps(cur["breakdown"]))
    state["combat"]["decided_by"] = "neutral_force"
    if won:
        del state["neutral_forces"][area]  # R282: removed from the game
        B.add_units(state, area, attacker, cur["units"])
        events.append({"type": "neutral_force_destroyed", "house": attacker, "area": area, "strength": strength})
    else:
        # A14 steps 3-4: the move is cancelled, the units stay home, the March is used up.
        _send_home(state, events, attacker, cur["origin"], cur["units"], "supply (A14, A19)")
        events.append({"type": "neutral_force_holds", "house": attacker, "area": area, "strength": strength,
                       "needed": cur["neutral"]})
    _end(state, events, winner=attacker if won else None, control=attacker if won else None)


# ------------------------------------------------------------------ house cards (R218-R227)


def _start_house_cards(state: State, events: list[Event]) -> None:
    """R219, R220: both choose secretly; a house with one card left plays it without being asked."""
    cur = state["combat"]["_current"]
    for house in _combatants(cur):
        hand = state["hands"][house]
        if len(hand) == 1:
            state["secret"].setdefault(house, {})["house_card"] = hand[0]
            events.append({"type": "house_card_forced", "house": house, "forced": True})


def _apply_house_card(state: State, seat: str, value: Any, events: list[Event]) -> None:
    if not isinstance(value, str):
        raise _bad(gettext("house_card takes a card id"))
    if value not in state["hands"][seat]:
        raise _illegal(gettext("%(card)s is not in %(seat)s's hand (discarded cards cannot be played)") % {
            "card": NM.card(value), "seat": NM.house(seat)}, rules=("R223",))
    cur = _cur(state)
    if cur.get("replace") and value in cur["replace"]["exclude"]:
        raise _illegal(gettext("%(seat)s must reveal a card other than %(card)s (Tyrion Lannister / Aeron Damphair)") % {
            "seat": NM.house(seat), "card": NM.card(value)})
    # Only the chooser may see it until both are chosen (R219): it lives under `secret`.
    state["secret"].setdefault(seat, {})["house_card"] = value
    events.append({"type": "house_card_chosen", "house": seat})
    events.append({"type": "house_card_chosen_detail", "house": seat, "card": value, "only": [seat]})


def _reveal(state: State, events: list[Event]) -> None:
    """Both cards are chosen: reveal them together (R219) and publish the combat."""
    cur = state["combat"]["_current"]
    for house in _combatants(cur):
        card = state["secret"][house].pop("house_card")
        cur["cards"][house] = card
        state["hands"][house].remove(card)
    _publish(state, cur, winner=None)
    _recompute(state, cur)
    events.append({"type": "house_cards_revealed", "area": cur["area"], "cards": dict(cur["cards"]),
                   "initial_strength": dict(cur["initial"])})


def _publish(state: State, cur: dict[str, Any], winner: str | None) -> None:
    """The referee summary's `combat` for the combat in progress (SCENARIOS.md)."""
    state["combat"].update({
        "attacker": cur["attacker"],
        "defender": cur["defender"],
        "area": cur["area"],
        "neutral": cur["neutral"],
        "initial_strength": dict(cur["initial"]),
        "strength": dict(cur["initial"]),
        "cards": dict(cur["cards"]),
        "tides": {},
        "winner": winner,
        "casualties": {},
        "breakdown": json.loads(json.dumps(cur.get("breakdown") or {})),
        "decided_by": None,
    })


# ------------------------------------------------------------------ Tides of Battle (R297-R304, A15, A16)


def _draw_tide(state: State) -> str:
    """The top card of the Tides of Battle deck (cards a scenario listed come first, in order)."""
    deck = state["decks"]["tides"]
    card = deck.pop(0)
    # It goes under the deck at once (never drawn twice in a combat: 24 cards, at most 3 draws), so
    # that which cards are out is known only to their holders and the deck, never to the views.
    deck.append(card)
    pins = state["decks"].setdefault("_pinned", {})
    if pins.get("tides"):
        pins["tides"] -= 1
    cur = state["combat"]["_current"]
    cur["tides_drawn"] = int(cur.get("tides_drawn") or 0) + 1
    return str(card)


def _draw_tides(state: State, events: list[Event]) -> None:
    """R298: after the reveal each combatant draws one card, the attacker first, and keeps it secret."""
    cur = state["combat"]["_current"]
    for house in _combatants(cur):
        card = _draw_tide(state)
        state["secret"].setdefault(house, {})["tides"] = card
        events.append({"type": "tides_drawn", "house": house})
        events.append({"type": "tides_drawn_detail", "house": house, "card": card, "only": [house]})


def _apply_redraw(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """R299, A15: the blade holder may discard its Tides card for the next one, which it must keep;
    the blade is then used for the round (no +1 in step 4)."""
    cur = _cur(state)
    if not isinstance(value, bool):
        raise _bad(gettext("blade takes true or false"))
    cur["redraw_asked"] = False
    if value:
        state["used"]["valyrian_steel_blade"] = True
        state["secret"][seat]["tides"] = _draw_tide(state)  # the discarded card stays hidden (A16)
        events.append({"type": "blade_redraw", "house": seat})
        events.append({"type": "tides_drawn_detail", "house": seat, "card": state["secret"][seat]["tides"],
                       "only": [seat]})


def _reveal_tides(state: State, events: list[Event]) -> None:
    """R300: both cards are revealed; their value joins the strength, their icons the house card's."""
    cur = state["combat"]["_current"]
    cur["tides"] = {}
    for house in _combatants(cur):
        card = state["secret"][house].pop("tides")
        cur["tides"][house] = card
    _recompute(state, cur)
    state["combat"]["tides"] = dict(cur["tides"])
    events.append({"type": "tides_revealed", "area": cur["area"], "tides": dict(cur["tides"]),
                   "strength": dict(cur["strength"])})


def _return_tides(state: State) -> None:
    """A16 (as the FAQ and S&R): the drawn cards go back and the deck is reshuffled after each
    combat; cards a scenario pinned on top stay on top."""
    cur = state["combat"]["_current"]
    if not cur.pop("tides_drawn", 0):
        return
    rng.shuffle(state, state["decks"]["tides"], start=state["decks"].get("_pinned", {}).get("tides", 0))


# ------------------------------------------------------------------ the blade (R228, D22)


def _blade_holder_can_use(state: State, cur: dict[str, Any]) -> bool:
    if state["used"].get("valyrian_steel_blade"):
        return False
    return B.holder(state, "valyrian_steel_blade") in _combatants(cur)


def _apply_blade(state: State, seat: str, value: Any, events: list[Event]) -> None:
    cur = _cur(state)
    if not isinstance(value, bool):
        raise _bad(gettext("blade takes true or false"))
    cur["blade_asked"] = False
    if value:
        state["used"]["valyrian_steel_blade"] = True
        cur["blade_house"] = seat
        _recompute(state, cur)
        cur["blade"] = True
        events.append({"type": "blade_used", "house": seat, "area": cur["area"]})


def _winner(state: State, strength: dict[str, int], attacker: str, defender: str) -> str:
    """R229: the higher strength wins; a tie goes to the house higher on Fiefdoms."""
    if strength[attacker] != strength[defender]:
        return attacker if strength[attacker] > strength[defender] else defender
    return min((attacker, defender), key=lambda h: _fiefdoms_rank(state, h))


def _decided_by(strength: dict[str, int], attacker: str, defender: str) -> str:
    """Which rule of R229 decided: `higher_strength`, or `fiefdoms_tie` (equal strengths)."""
    return "higher_strength" if strength[attacker] != strength[defender] else "fiefdoms_tie"


# ------------------------------------------------------------------ victor and casualties


def _icons(state: State, cur: dict[str, Any], house: str, icon: str) -> int:
    """Icons of the house's card with its text (cards.icon_bonus), plus those of its Tides of Battle
    card (R301)."""
    total = int(_card(cur["cards"].get(house)).get(icon) or 0) + cards.icon_bonus(state, cur, house, icon)
    tide = (cur.get("tides") or {}).get(house)
    if tide is not None:
        total += int(tides_cards()[tide].get(icon) or 0)
    return total


def _decide_victor(state: State, events: list[Event]) -> None:
    cur = state["combat"]["_current"]
    attacker, defender, area = cur["attacker"], cur["defender"], cur["area"]
    winner = _winner(state, cur["strength"], attacker, defender)
    loser = defender if winner == attacker else attacker
    # The record of the battle is frozen here, as the strengths stood when the victor was decided
    # (R229): casualties and the texts that follow no longer change it (_recompute stops).
    decided_by = _decided_by(cur["strength"], attacker, defender)
    breakdown = json.loads(json.dumps(cur["breakdown"]))
    cur["winner"], cur["loser"], cur["decided_by"] = winner, loser, decided_by
    state["combat"].update({"winner": winner, "decided_by": decided_by, "breakdown": breakdown,
                            "initial_strength": dict(cur["initial"]), "strength": dict(cur["strength"])})
    count = max(0, _icons(state, cur, winner, "swords") - _icons(state, cur, loser, "fortifications"))  # R231
    # R302: a skull costs the opponent one more casualty, won or lost, whatever its fortifications.
    count += _icons(state, cur, winner, "skulls")
    skulls_on_winner = _icons(state, cur, loser, "skulls")
    # The Blackfish: its owner suffers no casualties from swords, skulls or card texts.
    if cards.immune(cur, loser):
        count = 0
    if cards.immune(cur, winner):
        skulls_on_winner = 0
    cur["casualty_count"] = count
    cur["casualty_queue"] = [[loser, count], [winner, skulls_on_winner]]
    cur["casualty_choice"] = None
    state["combat"]["casualties"] = {}
    events.append({"type": "combat_won", "area": area, "winner": winner, "loser": loser,
                   "strength": dict(cur["strength"]), "casualties": count, "decided_by": decided_by,
                   "breakdown": json.loads(json.dumps(breakdown))})


def _next_casualties(state: State, events: list[Event]) -> None:
    """Take the queued casualties, the loser's first (R230-R235, R302), until one needs a choice."""
    cur = state["combat"]["_current"]
    while cur["casualty_choice"] is None and cur["casualty_queue"]:
        house, count = cur["casualty_queue"].pop(0)
        eligible = _eligible_casualties(state, cur, house)
        if count <= 0 or not eligible:
            continue
        if count >= len(eligible) or len(set(eligible)) == 1:
            _take_casualties(state, events, house, sorted(eligible, key=_loss_key)[:count], forced=True)
            continue
        cur["casualty_choice"] = {"house": house, "count": count}


def _eligible_casualties(state: State, cur: dict[str, Any], house: str) -> list[str]:
    """R232, R234: the house's units in the embattled area, neither supporting nor routed (the
    attacker's are still off the board until the combat ends)."""
    units = cur["units"] if house == cur["attacker"] else B.house_units(state, cur["area"], house)
    return [u for u in units if not B.is_routed(u)]


def _take_casualties(state: State, events: list[Event], house: str, units: list[str], forced: bool = False) -> None:
    cur = state["combat"]["_current"]
    if house == cur["attacker"]:
        for u in units:
            cur["units"].remove(u)
    else:
        B.remove_units(state, cur["area"], house, units)
    cur["casualty_choice"] = None
    if not units:
        return
    taken = state["combat"]["casualties"]
    taken[house] = sorted(taken.get(house, []) + list(units))
    event: Event = {"type": "casualties", "house": house, "area": cur["area"], "units": sorted(units)}
    if forced:
        event["forced"] = True
    events.append(event)


def casualty_options(state: State) -> list[list[str]]:
    cur = _cur(state)
    choice = cur["casualty_choice"]
    eligible = _eligible_casualties(state, cur, choice["house"])
    return [sorted(c) for c in sorted(set(combinations(sorted(eligible), choice["count"])))]


def _apply_casualties(state: State, seat: str, value: Any, events: list[Event]) -> None:
    cur = _cur(state)
    if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
        raise _bad(gettext("casualties takes a list of units"))
    count = cur["casualty_choice"]["count"]
    if len(value) != count:
        raise _illegal(ngettext("%(seat)s must lose exactly one unit", "%(seat)s must lose exactly %(count)s units", count) % {
            "seat": NM.house(seat), "count": count}, rules=("R231", "R302"))
    if not _multiset_sub(_eligible_casualties(state, cur, seat), value):
        raise _illegal(gettext("casualties must be units of this house in the embattled area, neither routed nor supporting"), rules=("R232", "R234"))
    _take_casualties(state, events, seat, list(value))


# ------------------------------------------------------------------ retreats (R236-R245)


def _start_retreat(state: State, events: list[Event]) -> None:
    cur = state["combat"]["_current"]
    loser, area = cur["loser"], cur["area"]
    cur["retreat_options"] = None
    if cur.get("garrison") is not None and loser == cur["defender"]:
        # R276: a losing garrison leaves the game, whatever the icons.
        state["garrisons"].pop(area, None)
        events.append({"type": "garrison_removed", "house": loser, "area": area})
    if loser == cur["attacker"]:
        _attacker_retreats(state, events)
        return
    units = list(B.house_units(state, area, loser))
    if not units:
        return
    B.remove_units(state, area, loser, units)
    doomed = [u for u in units if B.is_routed(u) or u == "siege_engine"]  # R240, R241
    movers = list((Counter(units) - Counter(doomed)).elements())
    if doomed:
        events.append({"type": "units_destroyed", "house": loser, "area": area, "units": sorted(doomed),
                       "reason": "cannot retreat"})
    if not movers:
        return
    cur["retreating"] = sorted(movers)
    options = retreat_areas(state, loser, area, cur["origin"], cur["retreating"])
    if not options:
        events.append({"type": "units_destroyed", "house": loser, "area": area, "units": sorted(movers),
                       "reason": "no legal retreat (R238e)"})
        cur["retreating"] = []
        return
    if cards.robb_chooses_retreat(cur):
        # Robb Stark: the winner chooses, among the legal areas where the loser loses the fewest.
        fewest = min(options.values())
        options = {a: n for a, n in options.items() if n == fewest}
        cur["retreat_chooser"] = cur["winner"]
    cur["retreat_options"] = options
    forced = _forced_retreat(options, cur["retreating"])
    if forced is not None:
        _do_retreat(state, events, forced[0], forced[1], forced=True)


def _attacker_retreats(state: State, events: list[Event]) -> None:
    """R237, R242: a losing attacker goes back to its origin, routed; siege engines die (R240);
    A19: units that would break supply there are destroyed first (D26 order)."""
    cur = state["combat"]["_current"]
    attacker, origin = cur["attacker"], cur["origin"]
    units = list(cur["units"])
    cur["units"] = []
    doomed = [u for u in units if u == "siege_engine"]
    movers = list((Counter(units) - Counter(doomed)).elements())
    keep = _fit_count(state, attacker, origin, len(movers))
    movers = sorted(movers, key=_loss_key)
    doomed += movers[: len(movers) - keep]
    movers = movers[len(movers) - keep:]
    if doomed:
        events.append({"type": "units_destroyed", "house": attacker, "area": cur["area"], "units": sorted(doomed),
                       "reason": "cannot retreat"})
    B.add_units(state, origin, attacker, [B.ROUTED + u for u in movers])
    if movers:
        events.append({"type": "retreat", "house": attacker, "from": cur["area"], "to": origin,
                       "units": sorted(movers)})


def _send_home(state: State, events: list[Event], house: str, origin: str, units: list[str], reason: str) -> list[str]:
    """Attacking units going back to their origin unrouted. The march's other moves may have filled
    the supply there meanwhile: as A19, the units that no longer fit are destroyed first, in the
    D26 order. Returns the units that made it home."""
    units = sorted(units, key=_loss_key)
    keep = _fit_count(state, house, origin, len(units))
    lost, units = units[: len(units) - keep], units[len(units) - keep:]
    if lost:
        events.append({"type": "units_destroyed", "house": house, "area": origin, "units": sorted(lost), "reason": reason})
    B.add_units(state, origin, house, units)
    return units


def _fit_count(state: State, house: str, area: str, n: int) -> int:
    """How many of n units can join `area` without breaking the house's supply (R238d)."""
    for k in range(n, 0, -1):
        if supply.fits(state, house, {area: k}):
            return k
    return 0


def retreat_areas(state: State, house: str, area: str, origin: str, units: list[str]) -> dict[str, int]:
    """Legal retreat areas for `units` of `house` leaving `area`, each with the number of units that
    must be destroyed there to fit supply (R238). Land units may also retreat by ship transport
    (R239). Areas with no loss are the only legal ones when there is any (R238d); an area where
    nobody would survive is no retreat at all."""
    ships = all(B.base_unit(u) == "ship" for u in units)
    candidates = set(B.adjacent(area))
    if not ships:
        candidates |= _transport_targets(state, house, area)
    legal = sorted(a for a in candidates if _retreat_target_ok(state, house, a, origin, ships, len(units)))
    losses = {a: len(units) - _fit_count(state, house, a, len(units)) for a in legal}
    losses = {a: n for a, n in losses.items() if n < len(units)}
    if any(n == 0 for n in losses.values()):
        return {a: 0 for a, n in losses.items() if n == 0}
    return losses


def _retreat_target_ok(state: State, house: str, target: str, origin: str, ships: bool, n: int) -> bool:
    if target == origin:
        return False  # R238c
    kind = B.area_type(target)
    if ships:
        if kind == "land":
            return False  # R238f
        if kind == "port":
            # A18: a friendly port, within the 3-ship cap
            if B.port_owner(state, target) != house:
                return False
            return len(B.house_units(state, target, house)) + n <= PORT_CAPACITY
    elif kind != "land":
        return False  # R238f
    if state["neutral_forces"].get(target) is not None:
        return False  # A24, R284
    for other, us in B.units_in(state, target).items():
        if other != house and us:
            return False
    return B.controller(state, target) in (None, house)  # R238a: empty or friendly


def _transport_targets(state: State, house: str, area: str) -> set[str]:
    """Land areas reachable from `area` along chains of the house's ships (R239, R259)."""
    from games.engine.agot import action  # action imports combat lazily; keep the cycle lazy too

    return set(action.transport_reach(state, house, area))


def _forced_retreat(options: dict[str, int], units: list[str]) -> tuple[str, list[str]] | None:
    """The retreat when there is nothing to choose (one area, and the units to destroy are forced)."""
    if len(options) != 1:
        return None
    (target, lose), = options.items()
    if lose and len(set(units)) > 1:
        return None
    return target, sorted(units, key=_loss_key)[:lose]


def _apply_retreat(state: State, seat: str, value: Any, events: list[Event]) -> None:
    cur = _cur(state)
    if not isinstance(value, dict) or "to" not in value or not set(value) <= {"to", "destroy"}:
        raise _bad(gettext("retreat takes {to: area} or {to: area, destroy: [units]}"))
    target, destroy = value["to"], value.get("destroy") or []
    if not isinstance(target, str) or not isinstance(destroy, list):
        raise _bad(gettext("retreat: to is an area, destroy a list of units"))
    options = cur["retreat_options"] or {}
    if target not in options:
        raise _illegal(gettext("%(area)s is not a legal retreat area; legal: %(areas)s") % {
            "area": NM.area(target), "areas": NM.areas(sorted(options))}, rules=("R238",))
    if len(destroy) != options[target] or not _multiset_sub(cur["retreating"], destroy):
        raise _illegal(gettext("retreating to %(area)s destroys exactly %(count)s of %(units)s to fit supply") % {
            "area": NM.area(target), "count": options[target], "units": NM.units(cur["retreating"])}, rules=("R238d",))
    _do_retreat(state, events, target, list(destroy))


def _do_retreat(state: State, events: list[Event], target: str, destroy: list[str], forced: bool = False) -> None:
    cur = state["combat"]["_current"]
    loser = cur["loser"]
    movers = list((Counter(cur["retreating"]) - Counter(destroy)).elements())
    if destroy:
        events.append({"type": "units_destroyed", "house": loser, "area": cur["area"], "units": sorted(destroy),
                       "reason": "supply (R238d)"})
    B.add_units(state, target, loser, [B.ROUTED + u for u in movers])  # R241
    event: Event = {"type": "retreat", "house": loser, "from": cur["area"], "to": target, "units": sorted(movers)}
    if forced:
        event["forced"] = True
    events.append(event)
    cur["retreating"] = []
    cur["retreat_options"] = None


# ------------------------------------------------------------------ end of combat (R244, R223, R224)


def _finish(state: State, events: list[Event]) -> None:
    cur = state["combat"]["_current"]
    area, winner, attacker = cur["area"], cur["winner"], cur["attacker"]
    if winner == attacker and cards.arianne_holds(cur):
        # Arianne Martell: the attackers go back where they marched from (not routed); nobody takes
        # the area, so action.after_combat changes no control (control winner None).
        units = _send_home(state, events, attacker, cur["origin"], cur["units"], "supply (Arianne Martell, A19)")
        events.append({"type": "card_ability", "house": cur["defender"], "card": "arianne_martell",
                       "returned": sorted(units), "to": cur["origin"]})
        cur["units"] = []
        cur["control_winner"] = None
        order = state["orders"].get(area)
        if order and order["house"] != attacker and not B.house_units(state, area, order["house"]):
            del state["orders"][area]
            events.append({"type": "order_lost", "house": order["house"], "area": area, "token": order["token"]})
    elif winner == attacker:
        # R245; the defender's order and power token there are removed by action.after_combat (R244).
        B.add_units(state, area, attacker, cur["units"])
        cur["units"] = []
        if cards.loras_moves_march(cur) and B.house_units(state, area, attacker):
            _loras(state, cur, events)
    else:
        # A winning defender wiped out by a skull (R302) leaves its order without units: it goes.
        order = state["orders"].get(area)
        if order and order["house"] == winner and not B.house_units(state, area, winner):
            del state["orders"][area]
            events.append({"type": "order_lost", "house": winner, "area": area, "token": order["token"]})
    for house, card in cur["cards"].items():
        if card is not None:
            _discard(state, events, house, card)
    roose = cards.roose_returns(cur)
    if roose is not None:
        # Roose Bolton: the whole discard pile, this card included, back to the hand.
        state["hands"][roose] = sorted(state["hands"][roose] + state["discards"][roose])
        state["discards"][roose] = []
        events.append({"type": "card_ability", "house": roose, "card": "roose_bolton", "hand_returned": True})
    state["combat"]["casualties"] = state["combat"].get("casualties") or {}


def _loras(state: State, cur: dict[str, Any], events: list[Event]) -> None:
    """Ser Loras Tyrell: the March order moves into the conquered area instead of being removed; it
    may be resolved again this round (action.after_combat finds no March at the origin)."""
    area, origin, attacker = cur["area"], cur["origin"], cur["attacker"]
    march = state["orders"].get(origin)
    if not march or march["house"] != attacker:
        return
    defender_order = state["orders"].get(area)
    if defender_order and defender_order["house"] != attacker:
        del state["orders"][area]
        events.append({"type": "order_lost", "house": defender_order["house"], "area": area,
                       "token": defender_order["token"]})
    state["orders"][area] = state["orders"].pop(origin)
    events.append({"type": "card_ability", "house": attacker, "card": "ser_loras_tyrell", "from": origin,
                   "to": area, "token": march["token"]})


def _discard(state: State, events: list[Event], house: str, card: str) -> None:
    """R223, R224: the played card goes to the discard pile; after the last card the other six
    come back to the hand."""
    state["discards"][house].append(card)
    if not state["hands"][house]:
        state["hands"][house] = [c for c in state["discards"][house] if c != card]
        state["discards"][house] = [card]
        events.append({"type": "hand_refreshed", "house": house})


def _end(state: State, events: list[Event], winner: str | None, control: str | None) -> None:
    """`control`: the house that takes the area (the winner, except Arianne Martell's)."""
    from games.engine.agot import action  # the core imports combat; import late to avoid a cycle

    _return_tides(state)
    cur = state["combat"].pop("_current")
    state["decision"] = None
    events.append({"type": "combat_over", "area": cur["area"], "winner": winner})
    action.after_combat(state, events, winner=control, area=cur["area"])


# =========================================================================== the public interface


def apply(state: State, seat: str, action: Action, events: list[Event]) -> None:
    """Apply one combat decision (the action's only key is its kind). Mutates `state`."""
    if not isinstance(action, dict) or len(action) != 1:
        raise _bad(gettext("an action is an object with one key"))
    (kind, value), = action.items()
    decision = state.get("decision") or {}
    pending_kind = decision.get("kind")
    # SCENARIOS.md: `{blade: true|false}` answers both `blade` and `blade_redraw`.
    answers = kind == pending_kind or (kind == "blade" and pending_kind == "blade_redraw")
    if not in_progress(state) or not answers or seat not in decision.get("seats", []):
        raise EngineError("not_your_turn", gettext("%(seat)s has no pending %(kind)s decision") % {"seat": NM.house(seat), "kind": kind})
    if kind == "support":
        _apply_support(state, seat, value, events)
    elif kind == "accept_support":
        _apply_accept(state, seat, value, events)
    elif kind == "house_card":
        _apply_house_card(state, seat, value, events)
    elif pending_kind == "blade_redraw":
        _apply_redraw(state, seat, value, events)
    elif kind == "blade":
        _apply_blade(state, seat, value, events)
    elif kind == "casualties":
        _apply_casualties(state, seat, value, events)
    elif kind == "retreat":
        _apply_retreat(state, seat, value, events)
    elif kind == "choose":
        _apply_choose(state, seat, value, events)
    else:
        raise _bad(gettext("unknown combat decision %(kind)s") % {"kind": kind})
    _advance(state, events)


def _apply_choose(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """A house card ability's choice (cards.py): a listed option, or false to decline a "may"."""
    cur = _cur(state)
    ask = cur.get("ask")
    if not ask:
        raise EngineError("not_your_turn", gettext("%(seat)s has no pending ability choice") % {"seat": NM.house(seat)})
    if not F.among(value, ask["options"]):  # as JSON: 0 is not false, 1 is not true
        shown = ", ".join(json_text(o) for o in ask["options"])
        raise _illegal(gettext("%(card)s: choose one of %(options)s") % {"card": NM.card(ask["card"]), "options": shown}, rules=("R221", "D21"))
    cur["ask"] = None
    state["decision"] = None
    cards.choose(state, cur, ask, value, events)
    _recompute(state, cur)


def json_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def legal_actions(state: State, seat: str) -> list[Action] | None:
    """The seat's legal combat actions (house cards, supports, blade, casualties, retreats)."""
    decision = state.get("decision") or {}
    if not in_progress(state) or seat not in decision.get("seats", []):
        return []
    kind = decision["kind"]
    cur = _cur(state)
    if kind == "support":
        return [{"support": {"for": h}} for h in support_options(state, seat)]
    if kind == "accept_support":
        offers = _offered_to(cur)[seat]
        out: list[Action] = []
        for n in range(len(offers) + 1):
            for refused in combinations(offers, n):
                out.append({"accept_support": {h: h not in refused for h in offers}})
        return out
    if kind == "house_card":
        hand = _replacement_hand(state, cur) if cur.get("replace") else sorted(state["hands"][seat])
        return [{"house_card": c} for c in hand]
    if kind == "choose":
        return [{"choose": o} for o in (cur.get("ask") or {}).get("options", [])]
    if kind == "blade":
        return [{"blade": True}, {"blade": False}]
    if kind == "blade_redraw":
        # SCENARIOS.md answers it with {blade: ...} too (apply accepts both); the decision's own name
        # is listed because AgotRuleset.apply only lets an action answer a decision of its name.
        return [{"blade_redraw": True}, {"blade_redraw": False}]
    if kind == "casualties":
        return [{"casualties": c} for c in casualty_options(state)]
    if kind == "retreat":
        return _retreat_actions(cur)
    return None


def _retreat_actions(cur: dict[str, Any]) -> list[Action]:
    out: list[Action] = []
    for target, lose in sorted((cur["retreat_options"] or {}).items()):
        if not lose:
            out.append({"retreat": {"to": target}})
            continue
        for destroy in sorted(set(combinations(sorted(cur["retreating"]), lose))):
            out.append({"retreat": {"to": target, "destroy": list(destroy)}})
    return out


def default_action(state: State, seat: str) -> Action:
    """Section 4 defaults: D18 support self else decline, D19 accept, D20 a random card (seeded
    from the game's generator without advancing it), D22 blade only if it turns a loss into a
    win, D24 casualties siege engines/footmen/ships/knights first, D25/D26 retreat."""
    decision = state.get("decision") or {}
    kind = decision.get("kind")
    cur = _cur(state)
    if kind == "support":
        return {"support": {"for": seat if seat in _combatants(cur) else None}}
    if kind == "accept_support":
        return {"accept_support": {h: True for h in _offered_to(cur)[seat]}}
    if kind == "house_card":
        return {"house_card": _default_card(state, seat)}
    if kind == "choose":
        return {"choose": cards.default_choice(cur["ask"])}
    if kind == "blade":
        return {"blade": _blade_turns_the_combat(state, cur, seat)}
    if kind == "blade_redraw":
        return {"blade_redraw": False}  # D23
    if kind == "casualties":
        eligible = sorted(_eligible_casualties(state, cur, seat), key=_loss_key)
        return {"casualties": eligible[: cur["casualty_choice"]["count"]]}
    if kind == "retreat":
        return {"retreat": _default_retreat(state, cur)}
    raise EngineError("not_your_turn", gettext("%(seat)s has no pending combat decision") % {"seat": NM.house(seat)})


def _default_card(state: State, seat: str) -> str:
    cur = _cur(state)
    hand = _replacement_hand(state, cur) if cur.get("replace") else sorted(state["hands"][seat])
    salt = sum((i + 1) * ord(ch) for i, ch in enumerate(seat))
    peek = {"rng": (int(state["rng"]) ^ (salt * 0x9E3779B97F4A7C15)) & ((1 << 64) - 1)}
    return rng.choice(peek, hand)


def _blade_turns_the_combat(state: State, cur: dict[str, Any], seat: str) -> bool:
    other = cur["defender"] if seat == cur["attacker"] else cur["attacker"]
    now = _winner(state, cur["strength"], cur["attacker"], cur["defender"])
    boosted = dict(cur["strength"])
    boosted[seat] += 1
    return now == other and _winner(state, boosted, cur["attacker"], cur["defender"]) == seat


def _default_retreat(state: State, cur: dict[str, Any]) -> dict[str, Any]:
    """D25: fewest units lost, then an adjacent area over one reached by ship transport, then a
    friendly area over an empty one, then the lowest area id."""
    loser = cur["loser"]

    adjacent = set(B.adjacent(cur["area"]))

    def key(item: tuple[str, int]) -> tuple[int, int, int, str]:
        target, lose = item
        return (lose, 0 if target in adjacent else 1, 0 if B.controller(state, target) == loser else 1, target)

    target, lose = min(cur["retreat_options"].items(), key=key)
    out: dict[str, Any] = {"to": target}
    if lose:
        out["destroy"] = sorted(cur["retreating"], key=_loss_key)[:lose]
    return out


def random_action(state: State, seat: str, rand: random.Random) -> Action:
    actions = legal_actions(state, seat) or []
    if not actions:
        raise EngineError("not_your_turn", gettext("%(seat)s has no pending combat decision") % {"seat": NM.house(seat)})
    return rand.choice(actions)
