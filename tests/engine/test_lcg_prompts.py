"""Fewer prompts without leaking (issue 30): with `every_window` on (live games) a seat is asked in an
action, interrupt or reaction window (L87-L98) only when some card it might hold, or a card it
controls, could legally be used there, judged from public information only (games/engine/lcg/
prompts.py).

- The decision to ask never depends on hidden information: the same public state with other hands
  and other (closed) decks, or other orders of the same open list, asks the same seats at the same
  moments (L90 action windows, L91-L98 interrupt and reaction windows).
- With open deck lists a card whose every copy is in a public zone is no reason to ask.
- The reduction never takes away a legal play: a seat that holds a card it could use, in play or in
  hand, is asked (L87, L91-L95).
- Each player's setting `action_windows` (throneteki's "Action windows"): an action window the seat
  turned off passes for that seat only, whatever it holds; a seat with the window on is asked as
  before; the setting is public, so the decision still never depends on hidden information; a game
  without the option (every game started before it) asks in every action window.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import get_ruleset
from games.engine.lcg import abilities as A
from games.engine.lcg import actions, data, prompts
from games.engine.lcg import table as T

R = get_ruleset("lcg")
DECKS = ["the_old_ways", "secrets_and_schemes"]  # learn-to-play decks: their lists are always open
# the ready-made constructed decks the engine plays (closed lists unless the game opens them)
CONSTRUCTED = [d for d in data.deck_ids() if d not in prompts.learn_to_play_ids()] or DECKS


def _decks(n: int, open_lists: bool) -> list[str]:
    if open_lists:
        return DECKS if n % 2 else DECKS[::-1]
    return [CONSTRUCTED[n % len(CONSTRUCTED)], CONSTRUCTED[(n // len(CONSTRUCTED) + 1) % len(CONSTRUCTED)]]
WINDOWS = ("action", "interrupt", "reaction")


def _window(state: dict[str, Any]) -> tuple[str, dict[str, Any] | None] | None:
    """(timing, event) of the window the game is in, if it waits on a window decision."""
    d = state["decision"]
    if not d or d["kind"] not in WINDOWS:
        return None
    if d["kind"] == "action":
        return "action", None
    return d["kind"], A.top_window(state)["ev"]


def _really_can(state: dict[str, Any], seat: str, timing: str, ev: dict[str, Any] | None) -> bool:
    """Whether the seat has a legal option in the window with its real hand."""
    if timing == "action":
        return bool(actions.window_actions(state, seat, first_only=True))
    return bool(A.options(state, seat, timing, ev, first_only=True))


def _draw_cards(faction: str | None, agenda: str | None) -> list[str]:
    return [c for c, _n in prompts._pool(faction, agenda)]


def other_hidden(state: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The same public state with other hands and draw decks: with closed lists any cards (another
    deck of the same faction and agenda, or of none), with open lists the same remaining cards in
    other places."""
    s = copy.deepcopy(state)
    facedown = set(s.get("facedown", ()))  # Arya Stark's facedown duplicates are hidden too (L55)
    for seat in s["seats"]:
        p = s["players"][seat]
        hidden = p["hand"] + p["deck"] + [u for u in facedown if s["uids"][u][1] == seat]
        if prompts.is_open(s, seat):
            ids = [s["uids"][u][0] for u in hidden]
            rnd.shuffle(ids)
        else:
            pool = _draw_cards(p["faction"], p["agenda"]) if rnd.random() < 0.7 else list(data.cards())
            pool = [c for c in pool if data.cards()[c]["type"] in prompts.DRAW_TYPES and c != "blank"]
            ids = [rnd.choice(pool) for _ in hidden]
        for u, c in zip(hidden, ids, strict=True):
            s["uids"][u][0] = c
    return s


def _asked_now(state: dict[str, Any]) -> dict[str, bool] | None:
    w = _window(state)
    if w is None:
        return None
    return {seat: A.asked(state, seat, *w) for seat in state["seats"]}


def _pass_forward(state: dict[str, Any], steps: int) -> list[Any]:
    """Who is asked, step by step, while every window decision is passed (a window decision is
    the only one whose answer reads nothing hidden)."""
    seen = []
    for _ in range(steps):
        if R.is_over(state) or _window(state) is None:
            break
        seen.append((dict(R.pending(state)), _asked_now(state)))
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, {"pass": True})
    seen.append(dict(R.pending(state)) if _window(state) is None else None)
    return seen


def _advance(seed: int, steps: int, open_lists: bool, decks: list[str],
             windows: dict[str, list[str]] | None = None) -> dict[str, Any]:
    rnd = random.Random(seed)
    options = {"decks": decks, "open_decklists": open_lists}
    if windows is not None:
        options["action_windows"] = windows
    state = R.new_game(["p1", "p2"], options, seed)
    assert state["options"]["every_window"]
    for _ in range(steps):
        if R.is_over(state):
            break
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400), open_lists=st.booleans(),
       swap=st.booleans(), scramble=st.integers(0, 1_000),
       windows=st.none() | st.lists(st.sampled_from(prompts.ACTION_WINDOWS), unique=True))
def test_asking_never_depends_on_hands_or_decks(seed, steps, open_lists, swap, scramble, windows):
    """L90, L91-L98: the same public state with other hands and other (closed) decks, or the same
    open lists in other places, asks the same seats now and at every window passed after; with or
    without p1's setting of the action windows it is asked in (p2 names none: every window)."""
    chosen = None if windows is None else {"p1": windows}
    state = _advance(seed, steps, open_lists, _decks(seed + swap, open_lists), chosen)
    other = other_hidden(state, random.Random(scramble))
    assert _asked_now(state) == _asked_now(other)
    assert _pass_forward(state, 40) == _pass_forward(other, 40)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), open_lists=st.booleans())
def test_a_seat_that_can_use_a_card_is_always_asked(seed, open_lists):
    """L87, L91-L95: at every window of a whole game, a seat with a legal option (its real hand
    and its cards in play) is a seat the public judgement asks: the fewer prompts never take away
    a legal play, with open or closed lists."""
    rnd = random.Random(seed)
    state = R.new_game(["p1", "p2"], {"decks": _decks(seed, open_lists), "open_decklists": open_lists}, seed)
    checked = 0
    while not R.is_over(state):
        w = _window(state)
        if w is not None:
            for seat in state["seats"]:
                if _really_can(state, seat, *w):
                    assert A.asked(state, seat, *w), (seat, w[0], state["phase"], state["step"])
                    checked += 1
            d = state["decision"]
            asked_seat = d["seats"][0]
            assert A.asked(state, asked_seat, *w)
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    assert checked > 0


def test_closed_lists_judge_from_faction_and_agenda_not_the_list():
    """With a closed list what a seat might hold is what its faction and agenda allow, not its list:
    two decks of one faction and agenda give the same cards to consider."""
    s = R.new_game(["p1", "p2"], {"decks": [CONSTRUCTED[0], CONSTRUCTED[0]], "open_decklists": False}, 4)
    if CONSTRUCTED == DECKS:
        return
    p = s["players"]["p1"]
    listed = set(data.all_decks()[p["deck_id"]]["draw"])
    might = set(prompts.possible(s, "p1"))
    assert listed <= might and might - listed  # more than its list: the list is not read


def test_a_seat_is_never_left_holding_a_playable_event_unasked_closed_lists():
    """Closed lists (L91-L95): p1 holds Winter Is Coming with gold during a challenge; the window
    after attackers asks it, although whether it is asked was judged without its hand."""
    players = {"p1": {"decklist": None, "faction": "stark", "plot": "the_winds_of_winter", "gold": 2,
                      "hand": ["winter_is_coming"], "characters": ["eddard_stark"]},
               "p2": {"decklist": None, "faction": "lannister", "plot": "the_winds_of_winter",
                      "characters": [{"card": "tyrion_lannister", "kneeling": True}]}}
    s = R.scenario_game(["p1", "p2"], {"every_window": True, "open_decklists": False}, 3,
                        {"first_player": "p1", "players": players}, "challenges", None)
    s, _ = R.apply(s, "p1", {"challenge": {"type": "power", "attackers": ["eddard_stark"]}})
    assert R.pending(s) == {"p1": "action"}
    assert {"play": {"card": "winter_is_coming"}} in R.legal_actions(s, "p1")
    s, _ = R.apply(s, "p1", {"play": "winter_is_coming"})
    assert T.cid(s, s["players"]["p1"]["discard"][0]) == "winter_is_coming"


def _open_game(p2: dict[str, Any]) -> dict[str, Any]:
    players = {"p1": {"decklist": "the_old_ways", "plot": "the_winds_of_winter", "hand": []},
               "p2": {"decklist": "secrets_and_schemes", "plot": "taxation", **p2}}
    return R.scenario_game(["p1", "p2"], {"every_window": True, "open_decklists": True}, 3,
                           {"first_player": "p1", "players": players}, "challenges", None)


def test_open_lists_a_card_no_longer_available_is_no_reason_to_ask():
    """With open lists (L90): p2 has no gold, so of its list only the 0-cost "The Bear and the
    Maiden Fair" (one copy, an action at any time) could be used in the action window before a
    challenge. While that copy may still be in its hand it is asked; once the copy is in its
    discard pile it is not, whatever its hand holds."""
    bear = "the_bear_and_the_maiden_fair"
    assert data.all_decks()["secrets_and_schemes"]["draw"].count(bear) == 1
    s = _open_game({"hand": ["hear_me_roar"], "gold": 0})
    assert R.pending(s) == {"p2": "action"}  # p1's hand is empty: only p2 is asked
    assert bear in prompts.possible(s, "p2")
    assert A.asked(s, "p2", "action", None)
    assert R.legal_actions(s, "p2") == [{"pass": True}]  # asked, it holds nothing usable: pass only

    gone = _open_game({"hand": ["hear_me_roar"], "gold": 0, "discard": [bear]})
    assert bear not in prompts.possible(gone, "p2")
    assert not A.asked(gone, "p2", "action", None)
    assert R.pending(gone) != {"p2": "action"}  # the window passed it by

    # whatever p2 holds, the answer is the same: its hand is never read
    other = _open_game({"hand": [bear], "gold": 0})
    assert A.asked(other, "p2", "action", None) == A.asked(s, "p2", "action", None)


def test_open_lists_default_for_learn_to_play_decks_and_lobby_choice():
    """The learn-to-play decks are always open; other decks are closed unless the game says so."""
    assert R.new_game(["p1", "p2"], {"decks": DECKS}, 1)["options"]["open_decklists"] is True
    s = R.new_game(["p1", "p2"], {"decks": DECKS, "open_decklists": False}, 1)
    assert all(prompts.is_open(s, seat) for seat in s["seats"])
    if CONSTRUCTED != DECKS:
        mixed = R.new_game(["p1", "p2"], {"decks": [DECKS[0], CONSTRUCTED[0]]}, 1)
        assert mixed["options"]["open_decklists"] is False
        assert prompts.is_open(mixed, "p1") and not prompts.is_open(mixed, "p2")
        chosen = R.new_game(["p1", "p2"], {"decks": [DECKS[0], CONSTRUCTED[0]], "open_decklists": True}, 1)
        assert prompts.is_open(chosen, "p2")
    assert prompts.default_open(["the_old_ways", "secrets_and_schemes"])
    assert not prompts.default_open(["the_old_ways", "tyrell_stag_the_rose_and_the_crown"])


def test_open_decklists_option_is_checked():
    import pytest

    from games.engine.base import EngineError

    with pytest.raises(EngineError):
        R.new_game(["p1", "p2"], {"decks": DECKS, "open_decklists": "yes"}, 1)


def test_a_facedown_duplicate_is_not_a_public_copy():
    """L55: Arya Stark's facedown duplicate is known to its controller only, so it does not make a
    card of the open list unavailable."""
    char = next(c for c in data.all_decks()["secrets_and_schemes"]["draw"] if data.cards()[c]["type"] == "character")
    s = _open_game({"hand": ["hear_me_roar"], "gold": 0, "characters": [char]})
    bear = "the_bear_and_the_maiden_fair"
    p2 = s["players"]["p2"]
    u = next(u for u in p2["deck"] if s["uids"][u][0] == bear)
    host = T.in_play(s, "p2", "character")[0]
    p2["deck"].remove(u)
    s["inplay"][host]["duplicates"].append(u)
    assert bear not in prompts.possible(s, "p2")  # face up: a public copy
    s.setdefault("facedown", []).append(u)
    assert bear in prompts.possible(s, "p2")  # facedown: nobody else knows it


def test_the_public_view_puts_everything_back():
    """The public judgement swaps hands and decks for a moment only: the state is unchanged after."""
    state = _advance(7, 120, False, DECKS)
    before = copy.deepcopy(state)
    for seat in state["seats"]:
        for timing in WINDOWS:
            prompts.might_act(state, seat, timing, {"t": "challenge_won"} if timing != "action" else None)
    assert state == before


def test_a_seat_with_an_empty_hand_and_nothing_in_play_is_never_asked():
    """Nothing it might hold and nothing it controls: no window asks it (L90)."""
    s = _open_game({"hand": [], "gold": 5})
    assert prompts.possible(s, "p2") == []
    assert not A.asked(s, "p2", "action", None)


# ------------------------------------------------------------------ each player's action windows


def _bear_game(windows: dict[str, list[str]] | None, p1_hand: list[str] | None = None) -> dict[str, Any]:
    """The window before a challenge (4.1) with open lists: p2, without gold, might hold The Bear and
    the Maiden Fair (a 0-cost action event of any phase, L90)."""
    players = {"p1": {"decklist": "secrets_and_schemes", "plot": "taxation", "hand": p1_hand or []},
               "p2": {"decklist": "secrets_and_schemes", "plot": "taxation", "hand": ["hear_me_roar"], "gold": 0}}
    options = {"every_window": True, "open_decklists": True}
    if windows is not None:
        options["action_windows"] = windows
    return R.scenario_game(["p1", "p2"], options, 3, {"first_player": "p1", "players": players}, "challenges", None)


def test_an_action_window_turned_off_passes_for_that_seat_only():
    """L90 with the player's setting: p2 turned the window before a challenge off, so it is not
    asked there even holding a card it could play; p1, with the window on, is asked as before."""
    bear = "the_bear_and_the_maiden_fair"
    on = _bear_game({"p2": ["before_challenge"]}, p1_hand=[bear])
    assert on["window"]["name"] == "before_challenge"
    assert A.asked(on, "p1", "action", None) and A.asked(on, "p2", "action", None)
    off = _bear_game({"p2": ["after_attackers", "after_defenders"]}, p1_hand=[bear])
    assert A.asked(off, "p1", "action", None)  # p1's own window is on: unchanged
    assert not A.asked(off, "p2", "action", None)
    # whatever p2 really holds: a playable Bear in hand changes nothing
    holding = _bear_game({"p2": []}, p1_hand=[bear])
    holding_bear = _bear_game({"p2": []}, p1_hand=[bear])
    p2 = holding_bear["players"]["p2"]
    copy_of_bear = next(u for u in p2["deck"] if holding_bear["uids"][u][0] == bear)
    p2["deck"].remove(copy_of_bear)
    p2["hand"] = [copy_of_bear]
    assert {"play": {"card": bear}} in actions.window_actions(holding_bear, "p2")
    assert not A.asked(holding, "p2", "action", None) and not A.asked(holding_bear, "p2", "action", None)
    assert A.asked(holding_bear, "p1", "action", None)


def test_a_seat_the_option_does_not_name_and_a_game_without_it_are_asked_in_every_window():
    """The games started before the setting have no `action_windows`: every action window asks as
    it did (their logs replay); a seat the option does not name is the same."""
    assert "action_windows" not in R.new_game(["p1", "p2"], {}, 1)["options"]
    for windows in (None, {"p1": []}):
        s = _bear_game(windows)
        assert A.asked(s, "p2", "action", None)
        assert R.pending(s) == {"p2": "action"}


def test_the_window_off_is_passed_by_the_engine_and_the_next_one_on_asks():
    """The seat's windows before a challenge pass by themselves; its reactions, interrupts and the
    windows it kept on still ask it (L90, L91-L98)."""
    s = _bear_game({"p2": ["after_attackers"]}, p1_hand=[])
    assert R.pending(s) != {"p2": "action"}  # p1's empty hand and p2's setting: the window closed
    assert s["window"] is None or s["window"]["name"] != "before_challenge"


def test_every_action_window_off_never_asks_an_action_decision_in_those_windows():
    """A whole game where p2 turned every action window off: p2 is never asked an action decision
    outside the marshaling phase, and p1 (every window) still is."""
    rnd = random.Random(5)
    state = R.new_game(["p1", "p2"], {"decks": DECKS, "action_windows": {"p2": []}}, 5)
    asked = {"p1": 0, "p2": 0}
    while not R.is_over(state):
        d = state["decision"]
        if d and d["kind"] == "action" and state["window"]["name"] != "marshaling":
            for seat in d["seats"]:
                asked[seat] += 1
        seat = sorted(R.pending(state))[0]
        state, _ = R.apply(state, seat, R.random_action(state, seat, rnd))
    assert asked["p2"] == 0 and asked["p1"] > 0


def test_the_action_windows_option_is_checked():
    import pytest

    from games.engine.base import EngineError

    for bad in ([], {"p3": []}, {"p1": "plot"}, {"p1": ["marshaling"]}, {"p1": [1]}):
        with pytest.raises(EngineError, match="action_windows"):
            R.new_game(["p1", "p2"], {"action_windows": bad}, 1)
    s = R.new_game(["p1", "p2"], {"action_windows": {"p1": ["taxation", "plot"]}}, 1)
    assert s["options"]["action_windows"] == {"p1": ["plot", "taxation"]}


def test_the_public_view_is_taken_down_when_putting_it_up_fails(monkeypatch):
    """If working out what a seat might hold fails while the view goes up, the real hands, decks and
    uids are put back before the error goes on (the view never outlives the judgement)."""
    import pytest

    state = _advance(7, 120, False, DECKS)
    before = copy.deepcopy(state)

    def broken(state, seat):
        raise RuntimeError("broken")

    monkeypatch.setattr(prompts, "possible", broken)
    with pytest.raises(RuntimeError, match="broken"), prompts.public_view(state, "p2"):
        pass
    assert state == before


def test_a_replaced_ability_is_read_afresh_by_the_windows(monkeypatch):
    """The windows skip a card none of whose abilities answers them (abilities.answers, kept per
    card): when a card's abilities are replaced (as the cards' modules and tests may do), the new
    ones are read, so a new action is offered at once (L87)."""
    from games.engine.lcg import cards

    s = _open_game({"hand": [], "gold": 0, "characters": ["littlefinger"]})
    assert not any("trigger" in o for o in A.options(s, "p2", "action", None))  # a reaction, no action
    assert ("action", None) not in A.answers("littlefinger")  # what was kept for it
    spec = {"kind": "action", "effect": [["faction_power", 1]]}
    monkeypatch.setitem(cards.ABILITIES, "littlefinger", [spec])
    assert {"trigger": {"card": "littlefinger#1"}} in A.options(s, "p2", "action", None)
