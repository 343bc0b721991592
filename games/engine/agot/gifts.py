"""Gifting power tokens (issue 34, docs/rules-decisions.md "AGoT variants"): with the
`gift_power_tokens` option a house may give some of its available power tokens to another house at
any time of a running game outside bidding, whether or not it has a decision pending (Swords and
Ravens' "gifting power tokens"). The giver's tokens go back to the Power Pool and the receiver takes
as many of its own from the pool (R7-R10: each house's 20 tokens), so the receiver's pool must hold
them. Every gift is logged, for everyone (it names no area, so the fog of war hides none).

Action: {"gift": {"to": "<house>", "tokens": <n>}}.
"""
from __future__ import annotations

from typing import Any

from games.engine import fields as F
from games.engine.agot import board as B
from games.engine.agot import names as NM
from games.engine.base import EngineError
from games.engine.narration import gettext, ngettext

State = dict[str, Any]
Event = dict[str, Any]


def _illegal(reason: str, rules: tuple[str, ...] = ()) -> EngineError:
    return EngineError("illegal_action", reason, rules)


def gift(state: State, seat: str, value: Any, events: list[Event]) -> None:
    """Move `tokens` available power tokens from `seat` to `to` (mutates `state`)."""
    if not state["options"].get("gift_power_tokens"):
        raise _illegal(gettext("power tokens may be gifted only in a game with the gifting option"))
    if seat not in state["seats"]:
        raise EngineError("not_your_turn", gettext("only a house in the game may gift power tokens"))
    if not isinstance(value, dict) or set(value) != {"to", "tokens"}:
        raise EngineError("bad_action", gettext("a gift is {\"to\": a house, \"tokens\": a number}"))
    to, tokens = value["to"], value["tokens"]
    if not isinstance(to, str) or to not in state["seats"]:
        raise EngineError("bad_action", gettext("%(house)s is not a house in this game") % {"house": F.shown(to)})
    if to == seat:
        raise _illegal(gettext("a house cannot gift power tokens to itself"))
    if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 1:
        raise EngineError("bad_action", gettext("the tokens gifted are a whole number, at least 1"))
    if (state.get("decision") or {}).get("kind") == "bid":
        raise _illegal(gettext("power tokens cannot be gifted while a bid is open"))
    have, room = state["power"][seat], B.pool(state, to)
    if tokens > have:
        raise _illegal(ngettext("%(house)s has only %(count)s available power token",
                                "%(house)s has only %(count)s available power tokens", have) % {
            "house": NM.house(seat), "count": have})
    if tokens > room:
        raise _illegal(ngettext("%(house)s can take at most %(count)s more power token (20 in all)",
                                "%(house)s can take at most %(count)s more power tokens (20 in all)", room) % {
            "house": NM.house(to), "count": room}, rules=("R9",))
    state["power"][seat] -= tokens
    state["power"][to] += tokens
    events.append({"type": "power_gifted", "house": seat, "to": to, "tokens": tokens,
                   "power": {seat: state["power"][seat], to: state["power"][to]}})
