"""State helpers: seats and councils (B36, B37), decks with pinned tops, power tokens, hands.

State layout: docs/engine-btwixt.md. Secrets live under state["secret"][seat] (hand, set-aside
leader cards, peeked allies, draft packet, a choice's options); decks and the supply of power
tokens under state["decks"] (order hidden from everyone); token values in councils are masked by
the views until the game is over (B40, H2).
"""
from __future__ import annotations

from typing import Any

from games.engine import rng
from games.engine.btwixt import data

State = dict[str, Any]


# ------------------------------------------------------------------ seats and councils


def clockwise_from(state: State, seat: str, include: bool = True) -> list[str]:
    seats = state["seats"]
    i = seats.index(seat)
    order = seats[i:] + seats[:i]
    return order if include else order[1:]


def council_name(a: str, b: str) -> str:
    return f"{a}-{b}"


def all_councils(state: State) -> list[str]:
    """B37: one council between each pair of adjacent seats, seats[i]-seats[i+1]."""
    seats = state["seats"]
    return [council_name(seats[i], seats[(i + 1) % len(seats)]) for i in range(len(seats))]


def councils_of(state: State, seat: str) -> list[str]:
    """[council with the next seat clockwise, council with the previous seat] (B36, B37)."""
    seats = state["seats"]
    i = seats.index(seat)
    n = len(seats)
    return [council_name(seat, seats[(i + 1) % n]), council_name(seats[(i - 1) % n], seat)]


def neighbours(state: State, seat: str) -> list[str]:
    """[next seat clockwise, previous seat] (B36)."""
    seats = state["seats"]
    i = seats.index(seat)
    return [seats[(i + 1) % len(seats)], seats[(i - 1) % len(seats)]]


def council_sharing(state: State, seat: str, other: str) -> str:
    for c in councils_of(state, seat):
        if c in (council_name(seat, other), council_name(other, seat)):
            return c
    raise KeyError(f"{seat} and {other} share no council")


def council_of_ally(state: State, ally: str) -> str | None:
    for name, c in state["councils"].items():
        if ally in c["allies"]:
            return name
    return None


# ------------------------------------------------------------------ decks (top first, pinned tops)


def pinned(state: State, deck: str) -> int:
    return int(state["decks"]["_pinned"].get(deck, 0))


def set_pinned(state: State, deck: str, n: int) -> None:
    if n > 0:
        state["decks"]["_pinned"][deck] = n
    else:
        state["decks"]["_pinned"].pop(deck, None)


def shuffle_deck(state: State, deck: str) -> None:
    """Shuffle the cards not fixed by a scenario (SCENARIOS.md "Randomness")."""
    rng.shuffle(state, state["decks"][deck], start=pinned(state, deck))


def take_top(state: State, deck: str) -> Any:
    cards = state["decks"][deck]
    if not cards:
        return None
    set_pinned(state, deck, pinned(state, deck) - 1)
    return cards.pop(0)


def draw_influence(state: State) -> str | None:
    """One influence card; an empty deck takes the discard pile, shuffled (N9, A14)."""
    if not state["decks"]["influence"] and state["discard"]:
        state["decks"]["influence"] = list(state["discard"])
        state["discard"] = []
        shuffle_deck(state, "influence")
    return take_top(state, "influence")


def draw_to_hand(state: State, seat: str, count: int) -> list[str]:
    got: list[str] = []
    for _ in range(count):
        c = draw_influence(state)
        if c is None:
            break
        got.append(c)
    hand(state, seat).extend(got)
    return got


def take_token(state: State) -> int | None:
    """A power token from the supply, without looking (B35, B39)."""
    return take_top(state, "tokens")


def return_tokens(state: State, values: list[int]) -> None:
    """Tokens back to the supply, still hidden (B42, N8): the unpinned part is shuffled again."""
    if values:
        state["decks"]["tokens"].extend(values)
        shuffle_deck(state, "tokens")


def to_discard(state: State, card_id: str) -> None:
    """B43; a leader card is removed from the game instead (B70)."""
    if data.card(card_id).kind == "leader":
        state["removed"].append(card_id)
    else:
        state["discard"].append(card_id)


# ------------------------------------------------------------------ secrets


def secret(state: State, seat: str) -> dict[str, Any]:
    return state["secret"][seat]


def hand(state: State, seat: str) -> list[str]:
    return state["secret"][seat]["hand"]


def leader_cards(state: State, seat: str) -> list[str]:
    return state["secret"][seat]["leader_cards"]


def draw_leader_card(state: State, seat: str) -> str | None:
    """B69: one of the seat's set-aside leader cards at random (a scenario may pin the next)."""
    cards = leader_cards(state, seat)
    if not cards:
        return None
    key = f"leader_cards:{seat}"
    if pinned(state, key) > 0:
        set_pinned(state, key, pinned(state, key) - 1)
        c = cards.pop(0)
    else:
        c = cards.pop(rng.randbelow(state, len(cards)))
    hand(state, seat).append(c)
    return c


# ------------------------------------------------------------------ totals


def current_ops(state: State, op: str) -> list[dict[str, Any]]:
    """The current ally's "during this round" steps of one op (B19; extra allies' do not apply, N7)."""
    ally = state.get("round_ally")
    if not ally:
        return []
    return [s for s in data.card(ally).steps("during_round") if s.get("op") == op]


def abilities_on(state: State) -> bool:
    return not current_ops(state, "no_abilities")


def card_value(state: State, card_id: str) -> int:
    v = data.value(card_id)
    colour = data.card(card_id).colour
    for s in current_ops(state, "colour_bonus"):
        if s.get("colour") == colour:
            v += int(s.get("amount", 0))
    return v


def total(state: State, seat: str) -> int:
    """B29: the sum of the pile's influence values, whatever the number of cards."""
    return sum(card_value(state, c) for c in state["piles"][seat])
