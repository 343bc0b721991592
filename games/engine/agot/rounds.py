"""Round flow (R34-R41): rounds 1-10, the Westeros phase from round 2 (westeros.py), the Victory track
and the end of the game."""
from __future__ import annotations

from typing import Any

from games.engine.agot import board as B
from games.engine.agot.data import board

State = dict[str, Any]
Event = dict[str, Any]
INSTANT_WIN = 7
LAST_ROUND = 10


def castles_to_win(state: State) -> int:
    """R37b: 7 castles and strongholds, or the `castles_to_win` option (issue 34)."""
    return int((state.get("options") or {}).get("castles_to_win", INSTANT_WIN))


def last_round(state: State) -> int:
    """R37a: the game ends after round 10, or after the `rounds` option's round (issue 34)."""
    return int((state.get("options") or {}).get("rounds", LAST_ROUND))


def begin_round(state: State, events: list[Event]) -> None:
    """R34-R36: round 1 starts at Planning (R35); later rounds start with the Westeros phase."""
    from games.engine.agot import planning

    events.append({"type": "round", "round": state["round"]})
    if state["round"] > 1:
        from games.engine.agot import westeros

        westeros.start_westeros(state, events)
        return
    planning.start_planning(state, events)


def ranking_key(state: State, house: str) -> tuple[int, int, int, int, int]:
    """R40 (the seed's printed order, decision in section 9): castles and strongholds, strongholds,
    supply, available power, Iron Throne position."""
    b = board()
    strongholds = sum(1 for a in b.strongholds if B.controller(state, a) == house)
    return (
        -state["victory"][house],
        -strongholds,
        -state["supply"][house],
        -state["power"][house],
        state["tracks"]["iron_throne"].index(house),
    )


def ranking(state: State) -> list[str]:
    return sorted(state["seats"], key=lambda h: ranking_key(state, h))


def victory_check(state: State, events: list[Event]) -> bool:
    old = state["victory"]
    new = B.victory_counts(state)
    if new != old:
        state["victory"] = new
        events.append({"type": "victory", "victory": dict(new)})
    winners = [h for h in state["seats"] if new[h] >= castles_to_win(state)]
    if winners:
        end_game(state, events, instant=winners)
        return True
    return False


def end_game(state: State, events: list[Event], instant: list[str] | None = None) -> None:
    """R37, R40, R41: the ranking; an instant winner (R37b) comes first whatever the tie-breakers."""
    state["victory"] = B.victory_counts(state)
    order = ranking(state)
    if instant:
        first = [h for h in order if h in instant][0]
        order = [first] + [h for h in order if h != first]
    state["phase"] = "over"
    state["decision"] = None
    state["winner"] = order[0]
    state["ranking"] = order
    event = {"type": "game_over", "winner": order[0], "ranking": order, "instant": bool(instant)}
    if castles_to_win(state) != INSTANT_WIN or last_round(state) != LAST_ROUND:
        event.update(castles=castles_to_win(state), round=state["round"])
    events.append(event)
