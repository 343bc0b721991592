"""Playing through the REST API: the caller's view, actions applied under a version, 409 for a
stale version, 400 with the engine's reason, idempotent retries, conceding to the bot, the log,
the games awaiting you, and the provably fair seed."""
from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.engine import get_ruleset
from games.models import Game, GameAction
from games.services.replay import snapshot_matches_log
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db
AGOT = get_ruleset("agot")


def seat_client(game: Game, seat: str):
    return api_client_for(game.seats.get(seat=seat).user)


def submit(game: Game, seat: str, action: dict, version: int | None = None, **headers):
    game.refresh_from_db()
    payload = {"version": game.version if version is None else version, "action": action}
    return seat_client(game, seat).post(reverse("api-game-actions", args=[game.id]), payload, format="json", **headers)


def default_for(game: Game, seat: str) -> dict:
    game.refresh_from_db()
    return AGOT.default_action(game.state, seat)


def test_a_player_gets_their_seat_view_with_pending_decisions():
    game = make_game()
    body = seat_client(game, "stark").get(reverse("api-game", args=[game.id])).json()
    assert body["your_seat"] == "stark" and body["version"] == 0 and body["status"] == "active"
    assert body["pending"] == {"stark": "place_orders", "lannister": "place_orders", "baratheon": "place_orders"}
    assert [s["seat"] for s in body["seats"]] == game.seat_names()
    assert body["view"] == AGOT.view(game.state, "stark")
    assert "rng" not in body["view"] and "seed" not in body


def test_a_spectator_gets_the_spectator_view(api):
    game = make_game()
    body = api.get(reverse("api-game", args=[game.id])).json()
    assert body["your_seat"] is None and body["legal_actions"] is None
    assert body["view"] == AGOT.view(game.state, None)


def test_an_action_is_applied_logged_and_versioned():
    game = make_game()
    orders = default_for(game, "stark")
    response = submit(game, "stark", orders)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["version"] == 1 and body["applied_version"] == 1 and not body["repeated"]
    assert "stark" not in body["pending"]
    record = GameAction.objects.get(game=game)
    assert (record.version, record.seat, record.action, record.source) == (1, "stark", orders, "player")
    assert snapshot_matches_log(Game.objects.get(pk=game.pk))


def test_simultaneous_decisions_submitted_at_the_same_version_are_all_applied():
    game = make_game()
    orders = {seat: default_for(game, seat) for seat in game.seat_names()}
    for seat in game.seat_names():
        response = submit(game, seat, orders[seat], version=0)
        assert response.status_code == 200, response.json()
    game.refresh_from_db()
    assert GameAction.objects.filter(game=game, source="player").count() == 3
    assert "place_orders" not in AGOT.pending(game.state).values()


def test_a_stale_version_for_a_decision_no_longer_pending_is_409_with_the_current_version():
    game = make_game()
    submit(game, "stark", default_for(game, "stark"))
    response = submit(game, "stark", default_for(game, "lannister"), version=0)
    assert response.status_code == 409
    body = response.json()
    assert body["error"] == "stale_version" and body["version"] == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_a_version_from_the_future_is_refused():
    game = make_game()
    response = submit(game, "stark", default_for(game, "stark"), version=5)
    assert response.status_code == 400 and response.json()["fields"]["version"]


def test_an_illegal_action_gets_400_with_the_engines_reason_and_changes_nothing():
    game = make_game()
    response = submit(game, "stark", {"place_orders": {"winterfell": "march+0", "sunspear": "raid"}})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] in {"illegal_action", "bad_action"} and body["detail"]
    assert body["version"] == 0
    assert Game.objects.get(pk=game.pk).version == 0 and not GameAction.objects.exists()


def test_a_malformed_action_is_bad_action():
    game = make_game()
    response = submit(game, "stark", {"fly": {"to": "the_moon"}})
    assert response.status_code == 400 and response.json()["error"] == "bad_action"


def test_acting_without_a_pending_decision_is_409_not_your_turn():
    game = make_game()
    submit(game, "stark", default_for(game, "stark"))
    response = submit(game, "stark", {"place_orders": {}})
    assert response.status_code == 409 and response.json()["error"] == "not_your_turn"


def test_only_players_of_the_game_may_act():
    game = make_game()
    outsider = api_client_for(make_user())
    response = outsider.post(reverse("api-game-actions", args=[game.id]), {"version": 0, "action": {"bid": 1}},
                             format="json")
    assert response.status_code == 403


def test_an_idempotency_key_makes_a_retry_apply_once():
    game = make_game()
    orders = default_for(game, "stark")
    first = submit(game, "stark", orders, version=0, HTTP_IDEMPOTENCY_KEY="abc-1")
    again = submit(game, "stark", orders, version=0, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == again.status_code == 200
    assert again.json()["repeated"] and again.json()["applied_version"] == first.json()["applied_version"]
    assert GameAction.objects.filter(game=game).count() == 1


def test_conceding_hands_the_seat_to_the_bot_which_acts_at_once():
    game = make_game()
    response = seat_client(game, "stark").post(reverse("api-game-concede", args=[game.id]))
    assert response.status_code == 200
    seat = game.seats.get(seat="stark")
    assert seat.is_bot and seat.left_at is not None
    bot_moves = GameAction.objects.filter(game=game, seat="stark", source="bot")
    assert bot_moves.count() == 1
    assert "stark" not in response.json()["pending"]
    again = seat_client(game, "stark").post(reverse("api-game-concede", args=[game.id]))
    assert again.status_code == 409


def test_when_every_player_has_left_the_game_is_abandoned():
    game = make_game()
    for seat in game.seat_names():
        seat_client(game, seat).post(reverse("api-game-concede", args=[game.id]))
    game.refresh_from_db()
    assert game.status == "abandoned"
    assert submit(game, "stark", {"bid": 0}).status_code == 409


def test_my_games_awaiting_lists_only_games_where_my_decision_is_pending():
    me = make_user()
    waiting = make_game(users=[me, make_user(), make_user()])
    done = make_game(users=[me, make_user(), make_user()])
    submit(done, "stark", default_for(done, "stark"))
    client = api_client_for(me)
    assert {g["id"] for g in client.get(reverse("api-my-games")).json()["results"]} == {waiting.id, done.id}
    awaiting = client.get(reverse("api-my-games"), {"awaiting": "true"}).json()["results"]
    assert [(g["id"], g["seat"]) for g in awaiting] == [(waiting.id, "stark")]


def test_the_log_shows_public_events_and_private_ones_only_to_their_seat():
    game = make_game()
    for seat in game.seat_names():
        submit(game, seat, default_for(game, seat))
    stark_log = seat_client(game, "stark").get(reverse("api-game-log", args=[game.id])).json()
    spectator_log = api_client_for(make_user()).get(reverse("api-game-log", args=[game.id])).json()
    assert stark_log["version"] == spectator_log["version"] == Game.objects.get(pk=game.pk).version
    for entry in spectator_log["entries"]:
        for event in entry["events"]:
            assert "only" not in event or event["only"] == []
    stark_events = [e for entry in stark_log["entries"] for e in entry["events"]]
    assert all("only" not in e or "stark" in e["only"] for e in stark_events)


def test_private_games_are_seen_only_by_their_players(api):
    game = make_game(private=True)
    assert api.get(reverse("api-game", args=[game.id])).status_code == 404
    assert api_client_for(make_user()).get(reverse("api-game-log", args=[game.id])).status_code == 404
    assert seat_client(game, "stark").get(reverse("api-game", args=[game.id])).status_code == 200


def test_the_seed_is_committed_at_the_start_and_published_at_the_end(tmp_path):
    game = make_game()
    fairness = api_client_for(make_user()).get(reverse("api-game-fairness", args=[game.id])).json()
    assert fairness["seed_hash"] == game.seed_hash and "seed" not in fairness and "actions" not in fairness
    for seat in game.seat_names():
        seat_client(game, seat).post(reverse("api-game-concede", args=[game.id]))
    published = api_client_for(make_user()).get(reverse("api-game-fairness", args=[game.id])).json()
    assert published["seed"] == game.seed and published["seed_hash"] == game.seed_hash
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(published))
    call_command("verify_replay", str(path))
    published["seed"] += 1
    path.write_text(json.dumps(published))
    with pytest.raises(Exception, match="does not match the commitment"):
        call_command("verify_replay", str(path))


def test_a_game_played_to_the_end_by_bots_finishes_with_a_ranking_and_replays(capsys):
    game = make_game(users=[make_user(), None, None])
    seat_client(game, "stark").post(reverse("api-game-concede", args=[game.id]))
    game.refresh_from_db()
    assert game.status == "abandoned"  # the last human left
    finished = make_game(users=[None, None, None])
    finished.refresh_from_db()
    assert finished.status == "finished" and sorted(finished.ranking) == sorted(finished.seat_names())
    call_command("check_game", str(finished.id), str(game.id))
    assert capsys.readouterr().out.count("OK game") == 2


def test_check_game_reports_a_snapshot_that_does_not_match_its_log():
    game = make_game()
    submit(game, "stark", default_for(game, "stark"))
    Game.objects.filter(pk=game.pk).update(state={**game.state, "round": 9})
    with pytest.raises(Exception, match="do not match their log"):
        call_command("check_game", str(game.id))


def test_invited_users_may_watch_a_private_lobbys_game():
    from tests.factories import make_lobby

    lobby = make_lobby(private=True, auto_start=False)
    invite = lobby.invite_token
    for _ in range(2):
        api_client_for(make_user()).post(reverse("api-lobby-join", args=[lobby.id]), {"invite": invite}, format="json")
    game_id = api_client_for(lobby.creator).post(reverse("api-lobby-start", args=[lobby.id])).json()["game"]
    watcher = api_client_for(make_user())
    assert watcher.get(reverse("api-game", args=[game_id])).status_code == 404
    seen = watcher.get(reverse("api-game", args=[game_id]), {"invite": invite})
    assert seen.status_code == 200 and seen.json()["your_seat"] is None
    assert watcher.get(reverse("api-game", args=[game_id]), {"invite": "guess"}).status_code == 404


def test_a_seat_taken_over_by_the_bot_plays_the_engines_player_not_the_timeout_default():
    game = make_game()
    seat_client(game, "stark").post(reverse("api-game-concede", args=[game.id]))
    move = GameAction.objects.get(game=game, seat="stark", source="bot")
    game.refresh_from_db()
    start = AGOT.new_game(game.seat_names(), game.options, game.seed)
    assert move.action == AGOT.bot_action(start, "stark")
    # The smart player does not leave every army on defense like the timeout default (D13).
    assert move.action != AGOT.default_action(start, "stark")
