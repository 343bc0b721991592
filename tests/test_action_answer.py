"""The answer to an action (issue 20): built from the game and seats the service left, without
reading them again, and still exactly what a read of the game returns right after it: through bot
replies, a seat the bot took over, a repeated Idempotency-Key, a clock, and the game's end."""
from __future__ import annotations

import pytest

from games.engine import get_ruleset
from games.models import Game
from tests.factories import make_game, seat_client

pytestmark = pytest.mark.django_db
ANSWER_ONLY = ("applied_version", "repeated")


def act(game: Game, headers: dict | None = None) -> tuple[dict, dict]:
    """The first pending seat's default action through the API: (its answer without the fields
    only an answer has, a read of the game by the same player right after)."""
    game.refresh_from_db()
    engine = get_ruleset(game.ruleset)
    seat = next(iter(engine.pending(game.state)))
    client = seat_client(game, seat)
    response = client.post(f"/api/v1/games/{game.pk}/actions",
                           {"version": game.version, "action": engine.default_action(game.state, seat)},
                           format="json", headers=headers or {})
    assert response.status_code == 200, response.json()
    answer = {k: v for k, v in response.json().items() if k not in ANSWER_ONLY}
    return answer, client.get(f"/api/v1/games/{game.pk}").json()


def without_clock_time(payload: dict) -> dict:
    """The payload without what a clock's reading depends on (the moment it is read)."""
    return {**payload, "seats": [{**row, "clock": row["clock"] and {**row["clock"], "remaining": None,
                                                                     "runs_out_at": None}}
                                 for row in payload["seats"]]}


def test_every_answer_of_a_game_with_a_bot_seat_is_what_a_read_returns():
    game = make_game(3, time_limit=3600)
    seat_client(game, "lannister").post(f"/api/v1/games/{game.pk}/concede")  # the bot plays it from now on
    answers = 0
    while answers < 40 and Game.objects.get(pk=game.pk).is_active():
        answer, read = act(game)
        assert answer == read
        answers += 1
    assert answers >= 15
    assert any(row["is_bot"] and row["left"] for row in read["seats"])
    assert read["version"] > answers  # the bot's replies are in the answers too


def test_the_answer_to_the_action_that_ends_a_game_is_what_a_read_returns():
    game = make_game(3, ruleset="btwixt", time_limit=3600)
    for _ in range(2000):
        answer, read = act(game)
        assert answer == read
        if read["status"] != "active":
            break
    assert read["status"] == "finished" and read["ranking"] and read["legal_actions"] is None


def test_a_repeated_idempotency_key_is_answered_with_the_game_as_it_is():
    game = make_game(3, time_limit=3600)
    first, _ = act(game, headers={"Idempotency-Key": "once"})
    game.refresh_from_db()
    action = game.actions.get(idempotency_key="once")
    client = seat_client(game, action.seat)
    again = client.post(f"/api/v1/games/{game.pk}/actions", {"version": action.version - 1, "action": action.action},
                        format="json", headers={"Idempotency-Key": "once"}).json()
    assert again["repeated"] is True and again["applied_version"] == action.version
    assert {k: v for k, v in again.items() if k not in ANSWER_ONLY} == client.get(f"/api/v1/games/{game.pk}").json()


def test_the_answers_of_a_clocked_game_carry_the_clocks_a_read_shows():
    game = make_game(3, time_limit=3600, clock_bank=600, clock_increment=5)
    for _ in range(10):
        if not Game.objects.get(pk=game.pk).is_active():
            break
        answer, read = act(game)
        assert without_clock_time(answer) == without_clock_time(read)
        for said, seen in zip(answer["seats"], read["seats"], strict=True):
            assert said["clock"]["running"] == seen["clock"]["running"]
            assert abs(said["clock"]["remaining"] - seen["clock"]["remaining"]) < 5


def test_an_action_is_answered_with_one_query_after_its_commit(monkeypatch):
    """The answer reads only who is connected (Presence); before issue 20 it read the game, its
    seats and their users again (4 queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import api

    game = make_game(3, time_limit=3600)
    reads = []
    real = api._after_commit

    def counted(read, *args, **kwargs):
        def counted_read():
            with CaptureQueriesContext(connection) as captured:
                payload = read()
            reads.append(len(captured.captured_queries))
            return payload

        return real(counted_read, *args, **kwargs)

    monkeypatch.setattr(api, "_after_commit", counted)
    act(game)
    assert reads == [1]
