"""Planning phase (R111-R130): secret simultaneous orders, the not-enough-orders case, the reveal and
the Messenger Raven.

Placed orders stay in state["secret"][house]["orders"] until every house has placed; a house may not
place again once it has submitted (its decision is gone: not_your_turn). Then they move to
state["orders"] face up.
"""
from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from games.engine import fields as F
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.agot.data import ORDER_TOKENS, token_kind, token_special
from games.engine.base import EngineError
from games.engine.narration import gettext, ngettext

State = dict[str, Any]
Event = dict[str, Any]


def areas_needing_orders(state: State, house: str) -> list[str]:
    """Every area with at least one unit of the house, routed or not (R112), sorted."""
    return sorted(a for a, by in state["units"].items() if by.get(house))


def _forbidden(state: State, token: str) -> str:
    """Why `token` may not be placed this round, in words: its kind, or this very order (R57-R62)."""
    if token_kind(token) in state["restrictions"]:
        return gettext("%(kind)s orders are forbidden this round") % {"kind": NM.order_kind(token)}
    return gettext("the %(order)s is forbidden this round") % {"order": NM.order(token)}


def restricted(state: State, token: str) -> bool:
    """Westeros restrictions in force (R57-R62): a kind, or 'march+1*'."""
    r = state["restrictions"]
    return token_kind(token) in r or token in r


def token_pool(state: State, house: str, exclude_area: str | None = None) -> Counter[str]:
    """Order tokens of the house not on the board (R133), optionally treating one area's as free."""
    avail = Counter(ORDER_TOKENS)
    for area, o in state["orders"].items():
        if o["house"] == house and area != exclude_area:
            avail[o["token"]] -= 1
    return avail


def usable_count(state: State, house: str) -> int:
    """How many orders the house can place this phase: normal tokens not restricted, plus special ones up
    to its King's Court stars (R117, R119, R124)."""
    normal, special = _usable_by_kind(tuple(state["restrictions"]))
    return normal + min(special, B.stars_of(state, house))


@cache
def _usable_by_kind(restrictions: tuple[str, ...]) -> tuple[int, int]:
    """(normal, special) tokens not forbidden by these restrictions."""
    ok = [(t, n) for t, n in ORDER_TOKENS.items() if token_kind(t) not in restrictions and t not in restrictions]
    return sum(n for t, n in ok if not token_special(t)), sum(n for t, n in ok if token_special(t))


def start_planning(state: State, events: list[Event]) -> None:
    state["phase"] = "planning"
    state["step"] = "assign"
    state["orders"] = {}
    houses = [h for h in B.turn_order(state) if areas_needing_orders(state, h)]
    # R119: if anyone is short of usable tokens, everyone places in turn order.
    short = any(usable_count(state, h) < len(areas_needing_orders(state, h)) for h in houses)
    for h in state["seats"]:
        state["secret"][h].pop("orders", None)
    events.append({"type": "planning", "round": state["round"], "sequential": short})
    for h in [h for h in houses if usable_count(state, h) == 0]:
        # a single legal option (place nothing): forced, never asked
        houses.remove(h)
        state["secret"][h]["orders"] = {}
        events.append({"type": "orders_placed", "house": h, "count": 0, "forced": True})
    state["planning"] = {"sequential": short, "todo": houses}
    _ask_next(state, events)


def _ask_next(state: State, events: list[Event]) -> None:
    todo = state["planning"]["todo"]
    if not todo:
        _reveal(state, events)
        return
    seats = [todo[0]] if state["planning"]["sequential"] else list(todo)
    state["decision"] = {"kind": "place_orders", "seats": seats}


def check_orders(state: State, house: str, placed: Any) -> dict[str, str]:
    """Validate one house's placement; returns it as {area: token}."""
    if not isinstance(placed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in placed.items()):
        raise EngineError("bad_action", gettext("place_orders takes {area: token}"))
    need = areas_needing_orders(state, house)
    need_set = set(need)
    counts: Counter[str] = Counter()
    for area, token in placed.items():
        if token not in ORDER_TOKENS:
            raise EngineError("bad_action", gettext("unknown order token %(token)s") % {"token": F.shown(token)})
        if area not in need_set:
            raise EngineError("illegal_action", gettext("%(house)s has no units in %(area)s to give an order") % {
                "house": NM.house(house), "area": NM.area(area)}, rules=("R112", "R121"))
        if restricted(state, token):
            raise EngineError("illegal_action", _forbidden(state, token), rules=("R124",))
        counts[token] += 1
        if counts[token] > ORDER_TOKENS[token]:
            raise EngineError("illegal_action", ngettext("%(house)s has only one %(order)s token", "%(house)s has only %(count)s %(order)s tokens",
                                                         ORDER_TOKENS[token]) % {
                "house": NM.house(house), "count": ORDER_TOKENS[token], "order": NM.order(token)}, rules=("R116",))
    specials = sum(n for t, n in counts.items() if token_special(t))
    allowed = B.stars_of(state, house)
    if specials > allowed:
        raise EngineError(
            "illegal_action", gettext("%(house)s may place %(count)s special order(s) at its King's Court position")
            % {"house": NM.house(house), "count": allowed}, rules=("R117",))
    expected = min(len(need), usable_count(state, house))
    if len(placed) < expected:
        missing = [a for a in need if a not in placed]
        raise EngineError(
            "illegal_action",
            gettext("every area with units needs an order: %(areas)s") % {"areas": NM.areas(missing)},
            rules=("R112", "R119"))
    return dict(placed)


def place_orders(state: State, house: str, placed: Any, events: list[Event]) -> None:
    orders = check_orders(state, house, placed)
    state["secret"][house]["orders"] = orders
    state["planning"]["todo"].remove(house)
    events.append({"type": "orders_placed", "house": house, "count": len(orders)})
    events.append({"type": "orders_placed_detail", "house": house, "orders": orders, "only": [house]})
    state["decision"] = None
    _ask_next(state, events)


def _reveal(state: State, events: list[Event]) -> None:
    """R120: every placed order is turned face up at once."""
    state["step"] = "reveal"
    revealed: dict[str, dict[str, str]] = {}
    for h in state["seats"]:
        for area, token in sorted(state["secret"][h].pop("orders", {}).items()):
            state["orders"][area] = {"house": h, "token": token}
            revealed[area] = {h: token}
    state.pop("planning", None)
    events.append({"type": "orders_revealed", "orders": revealed})
    _start_raven(state, events)


def _start_raven(state: State, events: list[Event]) -> None:
    state["step"] = "raven"
    raven = B.holder(state, "messenger_raven")
    if state["used"]["messenger_raven"]:
        _done(state, events)
        return
    # Skip and peek are always two options (R126), so the holder is always asked.
    state["decision"] = {"kind": "raven", "seats": [raven]}


def check_replacement(state: State, house: str, area: Any, token: Any) -> None:
    """A13: the new order respects the King's Court stars and this round's restrictions."""
    if not isinstance(area, str) or not isinstance(token, str):
        raise EngineError("bad_action", gettext("raven replace takes {area, order}"))
    if token not in ORDER_TOKENS:
        raise EngineError("bad_action", gettext("unknown order token %(token)s") % {"token": F.shown(token)})
    cur = state["orders"].get(area)
    if not cur or cur["house"] != house:
        raise EngineError("illegal_action", gettext("%(house)s has no order in %(area)s to replace") % {
            "house": NM.house(house), "area": NM.area(area)}, rules=("R126",))
    if token == cur["token"]:
        raise EngineError("illegal_action", gettext("the replacement must be a different order"))
    if token_pool(state, house)[token] <= 0:
        raise EngineError("illegal_action", gettext("%(house)s has no unused %(order)s token") % {"house": NM.house(house), "order": NM.order(token)})
    if restricted(state, token):
        raise EngineError("illegal_action", _forbidden(state, token), rules=("R124", "A13"))
    specials = sum(
        1 for a, o in state["orders"].items() if o["house"] == house and a != area and token_special(o["token"])
    ) + token_special(token)
    if specials > B.stars_of(state, house):
        raise EngineError("illegal_action", gettext("the King's Court stars do not allow another special order"), rules=("R117", "A13"))


def raven(state: State, house: str, value: Any, events: list[Event]) -> None:
    if value == "skip":
        events.append({"type": "raven_skip", "house": house})
        state["decision"] = None
        _done(state, events)
        return
    if value == "peek":
        deck = state["decks"].get("wildlings") or []
        if not deck:
            raise EngineError("illegal_action", gettext("the wildling deck is empty"))
        state["used"]["messenger_raven"] = True  # R127
        state["secret"][house]["peeked"] = deck[0]
        events.append({"type": "raven_peek", "house": house})
        events.append({"type": "raven_peeked", "house": house, "card": deck[0], "only": [house]})
        state["decision"] = {"kind": "raven_peek", "seats": [house]}
        return
    if isinstance(value, dict) and set(value) == {"replace"} and isinstance(value["replace"], dict):
        rep = value["replace"]
        if set(rep) != {"area", "order"}:
            raise EngineError("bad_action", gettext("raven replace takes {area, order}"))
        check_replacement(state, house, rep["area"], rep["order"])
        old = state["orders"][rep["area"]]["token"]
        state["orders"][rep["area"]] = {"house": house, "token": rep["order"]}
        state["used"]["messenger_raven"] = True  # R127
        events.append({"type": "raven_replace", "house": house, "area": rep["area"], "old": old, "new": rep["order"]})
        state["decision"] = None
        _done(state, events)
        return
    raise EngineError("bad_action", gettext("raven takes skip, peek or {replace: {area, order}}"))


def raven_peek(state: State, house: str, value: Any, events: list[Event]) -> None:
    if value not in ("keep", "bottom"):
        raise EngineError("bad_action", gettext("raven_peek takes keep or bottom"))
    if value == "bottom":
        deck = state["decks"]["wildlings"]
        deck.append(deck.pop(0))
        pins = state["decks"]["_pinned"]
        if pins.get("wildlings"):
            pins["wildlings"] -= 1
    events.append({"type": "raven_peek_" + value, "house": house})
    state["decision"] = None
    _done(state, events)


def _done(state: State, events: list[Event]) -> None:
    """R129: the Planning phase ends; the Action phase begins."""
    from games.engine.agot import action

    action.start_action(state, events)
