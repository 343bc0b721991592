"""The move check over the API (issue 19): POST /api/v1/games/{id}/check with {"version", "action"}
answers, for the requesting player's seat, the engine's `check(state, seat, action)`: the resolved
pose of a maneuver or march (the miniatures game, rules M40-M45, M75), or the reason it is refused.
Nothing is applied, stored or sent: the version, the log, the state, the deadlines stay as they
are and no update goes to the table. Generic: a ruleset without a `check` method answers 400
`no_move_check`. A user who does not play in the game is refused (403), a stale version is a 409
as for actions, and bad input is a 400 in the API's error shape, never a 500. The answer carries
the verdict only: nothing the seat may not see, and nothing that depends on dice not yet rolled."""
from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine import get_ruleset
from games.engine import rng as engine_rng
from games.models import Game, GameAction, GameSeat
from games.services.play import do_submit_action
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db
MINIS = get_ruleset("minis")
VERDICT_KEYS = {"ok", "at", "facing", "error", "reason", "version"}


def user_of(game: Game, seat: str):
    return GameSeat.objects.get(game=game, seat=seat).user


def to_first_action(game: Game) -> str:
    """Answer every decision with its default (as the players) until a unit's action is asked: its seat."""
    for _ in range(200):
        game.refresh_from_db()
        pending = MINIS.pending(game.state)
        acting = [seat for seat, kind in pending.items() if kind == "action"]
        if acting:
            return acting[0]
        seat = sorted(pending)[0]
        do_submit_action(game.pk, user_of(game, seat), action=MINIS.default_action(game.state, seat),
                         version=game.version)
    raise AssertionError("no action decision came")


@pytest.fixture
def at_action():
    """A minis game (seed 7) at Stark's first unit action: (game, seat, the seat's API client)."""
    game = make_game(2, ruleset="minis", seed=7, time_limit=3600)
    seat = to_first_action(game)
    game.refresh_from_db()
    return game, seat, api_client_for(user_of(game, seat))


def check(client, game: Game, action, version=None):
    return client.post(reverse("api-game-check", args=[game.pk]),
                       {"version": game.version if version is None else version, "action": action}, format="json")


def frozen(game: Game) -> tuple:
    game.refresh_from_db()
    deadlines = sorted(GameSeat.objects.filter(game=game).values_list("seat", "deadline_at", "consecutive_timeouts"))
    return game.version, game.state, game.deadline_at, GameAction.objects.filter(game=game).count(), deadlines


def test_a_maneuver_is_answered_with_its_pose_and_nothing_changes(at_action, django_capture_on_commit_callbacks):
    game, seat, client = at_action
    unit = game.state["act"]["unit"]
    before = frozen(game)
    with django_capture_on_commit_callbacks() as sent:
        response = check(client, game, {"maneuver": {"forward": 3}})
        refused = check(client, game, {"maneuver": {"face": 90, "forward": 2}})
        march = check(client, game, {"march": {"forward": 8}})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ok"] is True and body["version"] == game.version and set(body) == {"ok", "at", "facing", "version"}
    start = MINIS.summary(game.state)["units"][unit]["pose"]
    assert body["facing"] == start["facing"] == 0 and body["at"] == [start["at"][0], start["at"][1] + 3]  # M40: 3 in forward
    assert refused.status_code == 200
    assert refused.json() == {"ok": False, "error": "illegal_action", "version": game.version,
                              "reason": "maneuver: the move ends overlapping a tray"}
    assert march.json()["ok"] is True and march.json()["at"] == [start["at"][0], start["at"][1] + 8]  # M44
    assert sent == []  # no update for the table, no notification
    assert frozen(game) == before  # the version, the state, the deadlines, the log: as they were
    # The pose answered is the pose the action then gives.
    applied = client.post(reverse("api-game-actions", args=[game.pk]),
                          {"version": game.version, "action": {"maneuver": {"forward": 3}}}, format="json")
    assert applied.status_code == 200, applied.json()
    game.refresh_from_db()
    assert MINIS.summary(game.state)["units"][unit]["pose"] == {"at": body["at"], "facing": body["facing"]}


def test_other_actions_say_whether_they_would_be_accepted(at_action):
    game, seat, client = at_action
    other = next(s for s in ("stark", "lannister") if s != seat)
    assert check(client, game, {"no_action": True}).json() == {"ok": True, "version": game.version}
    refused = check(client, game, {"charge": {"target": "nobody"}}).json()
    assert refused == {"ok": False, "error": "illegal_action", "reason": "nobody is not an enemy unit on the table",
                       "version": game.version}
    assert check(client, game, {"fly": 3}).json()["error"] == "bad_action"
    assert check(client, game, {"maneuver": "north"}).json()["ok"] is False
    # the other seat has nothing to decide: its check says so (a verdict, nothing else)
    theirs = check(api_client_for(user_of(game, other)), game, {"maneuver": {"forward": 3}})
    assert theirs.status_code == 200
    assert theirs.json() == {"ok": False, "error": "not_your_turn", "reason": "no decision of yours is pending",
                             "version": game.version}
    assert GameAction.objects.filter(game=game, version__gt=game.version).count() == 0


def test_line_of_sight_is_answered_to_either_seat_whatever_is_pending(at_action):
    """A read-only query (positions are public, M81): the seat with nothing to decide may ask it too,
    about its own units or the enemy's; a spectator may not (the check is for players)."""
    game, seat, client = at_action
    other = next(s for s in ("stark", "lannister") if s != seat)
    units = game.state["units"]
    mine = game.state["act"]["unit"]
    enemy = next(n for n, u in units.items() if u["seat"] == other and u["on_table"])
    before = frozen(game)
    for who in (client, api_client_for(user_of(game, other))):
        for a, b in ((mine, enemy), (enemy, mine)):
            response = check(who, game, {"line_of_sight": {"from": a, "to": b}})
            assert response.status_code == 200, response.json()
            body = response.json()
            assert body["ok"] is MINIS.check(game.state, seat, {"line_of_sight": {"from": a, "to": b}})["ok"]
            assert set(body) <= {"ok", "error", "reason", "version"} and body["reason"]
    assert check(client, game, {"line_of_sight": {"from": mine, "to": "nobody"}}).json()["error"] == "bad_action"
    assert check(api_client_for(make_user()), game, {"line_of_sight": {"from": mine, "to": enemy}}).status_code == 403
    assert frozen(game) == before


def test_who_may_check(at_action):
    game, seat, client = at_action
    action = {"maneuver": {"forward": 3}}
    for outsider in (api_client_for(make_user()), ):  # a spectator of a public game
        response = check(outsider, game, action)
        assert response.status_code == 403 and response.json()["error"] == "forbidden"
        assert response.json()["detail"] == "You do not play in this game."
    anonymous = check(APIClient(), game, action)
    assert anonymous.status_code in (401, 403) and "ok" not in anonymous.json()
    missing = api_client_for(user_of(game, seat)).post(reverse("api-game-check", args=[game.pk + 1000]),
                                                       {"version": 0, "action": action}, format="json")
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    # a player who left the game (the engine's player took the seat)
    assert client.post(reverse("api-game-concede", args=[game.pk])).status_code == 200
    game.refresh_from_db()
    left = check(client, game, action)
    assert left.status_code == 409 and left.json()["error"] == "not_your_turn"


def test_a_stale_version_is_a_conflict_as_for_actions(at_action):
    game, seat, client = at_action
    version = game.version
    old = check(client, game, {"maneuver": {"forward": 3}}, version=version - 1)
    # behind, but the seat has not acted since and is still asked: served, as an action would be
    assert old.status_code == 200 and old.json()["ok"] is True
    assert check(client, game, {"no_action": True}, version=version + 1).status_code == 400
    do_submit_action(game.pk, user_of(game, seat), action={"no_action": True}, version=version)
    game.refresh_from_db()
    stale = check(client, game, {"maneuver": {"forward": 3}}, version=version)
    assert stale.status_code == 409
    assert stale.json()["error"] == "stale_version" and stale.json()["version"] == game.version


def test_a_paused_or_finished_game_is_not_checked(at_action):
    game, seat, client = at_action
    Game.objects.filter(pk=game.pk).update(paused_at=game.created_at)
    paused = check(client, game, {"no_action": True})
    assert paused.status_code == 409 and paused.json()["error"] == "game_paused"
    Game.objects.filter(pk=game.pk).update(paused_at=None, status=Game.Status.FINISHED)
    over = check(client, game, {"no_action": True})
    assert over.status_code == 409 and over.json()["error"] == "game_over"


@pytest.mark.parametrize(("ruleset", "players", "name"), [
    ("agot", 3, "A Game of Thrones: The Board Game"), ("btwixt", 3, "B'Twixt"),
    ("lcg", 2, "A Game of Thrones: The Card Game")])
def test_a_ruleset_without_a_move_check_says_so(ruleset, players, name):
    game = make_game(players, ruleset=ruleset)
    seat = sorted(get_ruleset(ruleset).pending(game.state))[0]
    response = check(api_client_for(user_of(game, seat)), game, {"pass": True})
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "no_move_check" and body["detail"] == f"{name} has no move check: send the action itself."
    assert set(body) >= {"error", "detail", "fields"}


@pytest.mark.parametrize(("body", "field"), [
    ({"version": 3, "action": []}, "action"),
    ({"version": 3, "action": "maneuver"}, "action"),
    ({"version": 3, "action": {}}, "action"),
    ({"version": "3", "action": {"no_action": True}}, "version"),
    ({"version": -1, "action": {"no_action": True}}, "version"),
    ({"version": True, "action": {"no_action": True}}, "version"),
    ({"action": {"no_action": True}}, "version"),
    ({"version": 3}, "action"),
])
def test_bad_input_is_a_400_in_the_error_shape(at_action, body, field):
    game, seat, client = at_action
    before = frozen(game)
    response = client.post(reverse("api-game-check", args=[game.pk]), body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["error"] == "invalid" and field in response.json()["fields"]
    assert frozen(game) == before


@pytest.mark.parametrize("raw", [
    '{"version": %d, "action": {"maneuver": {"forward": NaN}}}',
    '{"version": %d, "action": {"maneuver": {"forward": Infinity}}}',
    '{"version": %d, "action": {"maneuver": {"face": 1e999}}}',  # read as inf by Python's json
    '{"version": %d, "action": {"march": {"end_face": -1e999}}}',
    '{"version": %d, "action": ' + "[" * 100 + "]" * 100 + "}",
    '{"version": %d, "action": {"maneuver": {"forward": 3}}',  # cut short
    '{"version": %d, "action": {"maneuver": {"forward": "\\u0000"}}}',
])
def test_json_the_engine_cannot_take_is_refused(at_action, raw):
    game, seat, client = at_action
    before = frozen(game)
    for path in ("api-game-check", "api-game-actions"):
        response = client.post(reverse(path, args=[game.pk]), raw % game.version, content_type="application/json")
        assert response.status_code == 400, (path, response.content)
        assert response.json()["error"] in ("invalid", "parse_error")
    assert frozen(game) == before


def test_a_huge_payload_is_refused(at_action):
    game, seat, client = at_action
    body = json.dumps({"version": game.version, "action": {"maneuver": {"forward": 3, "pad": "x" * 1_100_000}}})
    response = client.post(reverse("api-game-check", args=[game.pk]), body, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"] == "too_large"
    many = {"version": game.version, "action": {"maneuver": {"forward": list(range(50_000))}}}
    response = check(client, game, many["action"])
    assert response.status_code == 200 and response.json()["ok"] is False  # a bad number: refused in words
    assert response.json()["error"] == "bad_action"


def test_the_verdict_never_depends_on_dice_not_yet_rolled():
    """Checked over whole random games: at every decision, the verdicts on the listed actions, the
    default and random proposals are the same whatever the generator would roll next, so a check
    tells nothing of the future dice (and the state is never changed by a check)."""
    for seed in (3,):
        rnd = random.Random(seed)
        state = MINIS.new_game(["stark", "lannister"], {"terrain": "random"}, seed)
        checked = 0
        for _ in range(600):
            if MINIS.is_over(state):
                break
            pending = MINIS.pending(state)
            seat = sorted(pending)[0]
            proposals = [MINIS.default_action(state, seat), MINIS.random_action(state, seat, rnd),
                         *(MINIS.legal_actions(state, seat) or [])[:4]]
            if pending[seat] == "action":
                proposals += [{"maneuver": {"forward": rnd.uniform(0, 6), "face": rnd.choice([0, 90, 180, 270])}},
                              {"march": {"forward": rnd.uniform(0, 12)}}, {"retreat": True},
                              *({"charge": {"target": name}} for name, unit in state["units"].items()
                                if unit["seat"] != seat and unit["on_table"] and not unit["destroyed"])]
            reseeded = json.loads(json.dumps(state))
            reseeded["rng"] = engine_rng.seed_state(seed + 1000)
            snapshot = json.dumps(state, sort_keys=True)
            for action in proposals:
                verdict = MINIS.check(state, seat, action)
                assert set(verdict) <= VERDICT_KEYS
                assert verdict == MINIS.check(reseeded, seat, action), (seed, state["round"], action)
                checked += 1
            assert json.dumps(state, sort_keys=True) == snapshot
            state, _ = MINIS.apply(state, seat, MINIS.random_action(state, seat, rnd))
        assert checked > 300
