"""Bad input at the edges gets a clear 4xx in the API's error shape, never a 500 (issue 14):
JSON nested thousands deep, integers beyond the database's range, NUL characters, huge bodies,
numbers sent as strings, and an Idempotency-Key reused with another body. Each runs on SQLite and
on PostgreSQL (which refuses NUL in text and checks integer ranges)."""
from __future__ import annotations

import json

import pytest
import yaml
from django.test import Client
from django.urls import reverse

from games.models import Game, GameAction, Lobby
from tests.factories import api_client_for, make_game, make_lobby, make_user
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DEPTH = 2000
DEEP_LIST = "[" * DEPTH + "]" * DEPTH
DEEP_OBJECT = '{"a":' * DEPTH + "1" + "}" * DEPTH
INT_OVER = 2**31  # 2147483648: one past PositiveIntegerField's (PostgreSQL integer's) maximum
SMALL_OVER = 2**15  # 32768: one past PositiveSmallIntegerField's


def assert_error_shape(response, label, status: int | tuple[int, ...] | None = None):
    assert response.status_code < 500, (label, response.status_code, response.content[:300])
    if status is not None:
        expected = status if isinstance(status, tuple) else (status,)
        assert response.status_code in expected, (label, response.status_code, response.content[:300])
    assert response.status_code >= 400, (label, response.status_code)
    assert response["Content-Type"].startswith("application/json"), (label, response["Content-Type"])
    body = response.json()
    assert {"error", "detail", "fields"} <= set(body), (label, body)
    return body


def schema_operations() -> list[tuple[str, str]]:
    schema = yaml.safe_load(Client().get(reverse("api-schema")).content)
    return [(path, method) for path, item in schema["paths"].items() for method in item
            if method in {"post", "put", "patch"}]


def world():
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    lobby = make_lobby(creator=user)
    return user, game, lobby


def fill(path: str, game: Game, lobby: Lobby, user) -> str:
    return (path.replace("{game_id}", str(game.pk)).replace("{lobby_id}", str(lobby.pk))
            .replace("{ruleset}", "agot").replace("{username}", user.username)
            .replace("{tournament_id}", "1").replace("{table_id}", "1").replace("{token_id}", "1"))


# --- 1. JSON nested 2,000 deep ---------------------------------------------------------------------

def test_json_nested_thousands_deep_is_a_400_on_every_json_endpoint_anonymous_ones_included():
    user, game, lobby = world()
    authed = api_client_for(user)
    anonymous = Client()
    operations = schema_operations()
    assert len(operations) > 20
    for path, method in operations:
        url = fill(path, game, lobby, user)
        for body in (DEEP_LIST, DEEP_OBJECT):
            for who, client in (("user", authed), ("anonymous", anonymous)):
                response = getattr(client, method)(url, data=body, content_type="application/json")
                label = f"{who} {method.upper()} {url} {body[:8]}"
                if response.status_code < 400:
                    continue  # an endpoint that reads no body (leave, cancel...) may answer 2xx
                assert_error_shape(response, label)
    # endpoints that read a body refuse it with 400, whoever asks
    for url in (reverse("api-lobbies"), reverse("api-game-actions", args=[game.pk]),
                reverse("api-tournaments"), reverse("api-my-notifications")):
        assert_error_shape(authed.post(url, data=DEEP_OBJECT, content_type="application/json")
                           if "notifications" not in url else
                           authed.put(url, data=DEEP_OBJECT, content_type="application/json"), url, 400)
    anon = anonymous.post(reverse("api-password-token"), data=DEEP_LIST, content_type="application/json")
    assert assert_error_shape(anon, "anonymous auth/token", 400)["error"] == "parse_error"


def test_json_just_within_the_depth_limit_is_parsed():
    user, game, _ = world()
    nested: dict = {}
    node = nested
    for _ in range(40):
        node["x"] = {}
        node = node["x"]
    response = api_client_for(user).post(reverse("api-game-actions", args=[game.pk]),
                                         {"version": game.version, "action": {"bid": nested}}, format="json")
    body = assert_error_shape(response, "40 deep", (400, 409))
    assert body["error"] != "parse_error", body  # the engine's refusal, not the parser's


# --- 2. integers beyond the database's range -------------------------------------------------------

LOBBY = {"ruleset": "agot", "seats": 3, "time_limit": 3600}
TOURNAMENT = {"name": "Cup", "ruleset": "agot"}


@pytest.mark.parametrize(("field", "value"), [
    ("min_rating", INT_OVER), ("min_rating", 10**30), ("seats", 10**30), ("time_limit", 10**30),
    ("max_consecutive_timeouts", SMALL_OVER),
])
def test_lobby_integers_beyond_the_database_range_are_field_errors(field, value):
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {**LOBBY, field: value}, format="json")
    body = assert_error_shape(response, field, 400)
    assert field in body["fields"], body
    assert not Lobby.objects.exists()


def test_lobby_min_rating_at_the_database_maximum_is_accepted():
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {**LOBBY, "min_rating": INT_OVER - 1}, format="json")
    assert response.status_code == 201, response.content
    assert Lobby.objects.get().min_rating == INT_OVER - 1


@pytest.mark.parametrize(("field", "value"), [
    ("min_rating", INT_OVER), ("capacity", INT_OVER), ("capacity", 10**30), ("seed", 2**63),
    ("rounds", 10**30), ("time_limit", 10**30), ("win_bonus", SMALL_OVER),
])
def test_tournament_integers_beyond_the_database_range_are_field_errors(field, value):
    client = api_client_for(make_user())
    response = client.post(reverse("api-tournaments"), {**TOURNAMENT, field: value}, format="json")
    body = assert_error_shape(response, field, 400)
    assert field in body["fields"], body
    assert not Tournament.objects.exists()


def test_tournament_integers_at_the_database_maximum_are_accepted():
    client = api_client_for(make_user())
    response = client.post(reverse("api-tournaments"),
                           {**TOURNAMENT, "min_rating": INT_OVER - 1, "capacity": INT_OVER - 1}, format="json")
    assert response.status_code == 201, response.content
    t = Tournament.objects.get()
    assert (t.min_rating, t.capacity) == (INT_OVER - 1, INT_OVER - 1)


def test_placement_points_beyond_any_number_are_field_errors():
    client = api_client_for(make_user())
    response = client.post(reverse("api-tournaments"), {**TOURNAMENT, "placement_points": [1e308, 1e308]},
                           format="json")
    assert response.status_code < 500, response.content[:300]


@pytest.mark.parametrize("param", ["seats_free", "max_time_limit", "min_time_limit"])
@pytest.mark.parametrize("value", [str(INT_OVER), str(10**30), str(-(10**30)), "9" * 5000])
def test_integer_query_parameters_beyond_the_database_range_are_field_errors(param, value):
    make_lobby()
    response = Client().get(reverse("api-lobbies"), {param: value})
    body = assert_error_shape(response, f"{param}={value[:20]}", 400)
    assert param in body["fields"], body


@pytest.mark.parametrize("params", [{"limit": "null"}, {"limit": "0"}, {"limit": "undefined"}, {"after": "null"}])
def test_the_game_log_refuses_a_null_limit_or_after(params):
    """Issue 28: `limit=null` is a 400 naming the parameter, not the default page."""
    game = make_game()
    response = Client().get(reverse("api-game-log", args=[game.pk]), params)
    body = assert_error_shape(response, str(params), 400)
    assert next(iter(params)) in body["fields"], body


def test_integer_query_parameters_within_range_still_filter():
    make_lobby(time_limit=3600)
    client = Client()
    assert len(client.get(reverse("api-lobbies"), {"max_time_limit": "3600"}).json()["results"]) == 1
    assert len(client.get(reverse("api-lobbies"), {"max_time_limit": "3599"}).json()["results"]) == 0
    assert len(client.get(reverse("api-lobbies"), {"seats_free": "0"}).json()["results"]) == 1


@pytest.mark.parametrize("path", ["/api/v1/games/{big}", "/api/v1/games/{big}/log", "/api/v1/lobbies/{big}",
                                  "/api/v1/tournaments/{big}", "/api/v1/games/{big}/chat"])
def test_ids_beyond_the_database_range_in_paths_are_404(path):
    response = api_client_for(make_user()).get(path.format(big=10**30))
    assert_error_shape(response, path, 404)


def test_huge_version_is_a_field_error():
    user, game, _ = world()
    response = api_client_for(user).post(reverse("api-game-actions", args=[game.pk]),
                                         {"version": INT_OVER, "action": {"bid": 1}}, format="json")
    body = assert_error_shape(response, "version", 400)
    assert "version" in body["fields"], body


def test_chat_page_size_beyond_any_range_is_not_a_500():
    """Not a 500, and (issue 28) not a silent default page either: a 400 naming `limit`."""
    user, game, _ = world()
    response = api_client_for(user).get(reverse("api-game-chat", args=[game.pk]), {"limit": str(10**30)})
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"] == "invalid" and "limit" in response.json()["fields"]


# --- 3. NUL characters ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/api/v1/users/%00", "/api/v1/users/a%00b", "/api/v1/ratings/%00",
                                  "/api/v1/lobbies/%00", "/api/v1/games/1%00"])
def test_a_nul_in_an_api_path_is_a_404_in_the_error_shape(path):
    for client in (Client(), api_client_for(make_user())):
        assert_error_shape(client.get(path), path, (400, 404))


@pytest.mark.parametrize("path", ["/users/%00/", "/users/a%00/", "/tournaments/%00/"])
def test_a_nul_in_a_page_path_is_not_a_500(path):
    response = Client().get(path)
    assert response.status_code in (400, 404), (path, response.status_code)


@pytest.mark.parametrize(("path", "param"), [
    ("/api/v1/lobbies", "ruleset"), ("/api/v1/tournaments", "ruleset"), ("/api/v1/tournaments", "status"),
    ("/api/v1/lobbies/{lobby}", "invite"), ("/api/v1/games/{game}", "invite"), ("/api/v1/games/{game}/chat", "channel"),
    ("/api/v1/games/{game}/chat", "invite"), ("/api/v1/games/{game}/chat/channels", "invite"),
])
def test_a_nul_in_a_query_parameter_is_a_400_field_error(path, param):
    user, game, lobby = world()
    url = path.format(game=game.pk, lobby=lobby.pk)
    for client in (Client(), api_client_for(user)):
        body = assert_error_shape(client.get(url, {param: "a\x00b"}), f"{url}?{param}", 400)
        assert param in body["fields"], body


@pytest.mark.parametrize(("url_name", "payload", "field"), [
    ("api-lobbies", {**LOBBY, "name": "a\x00b"}, "name"),
    ("api-lobbies", {**LOBBY, "options": {"x\x00": True}}, "options"),
    ("api-lobbies", {**LOBBY, "options": {"tides_of_battle": "\x00"}}, "options"),
    ("api-lobbies", {**LOBBY, "password": "\x00"}, "password"),
    ("api-tournaments", {**TOURNAMENT, "description": "\x00"}, "description"),
    ("api-tokens", {"name": "t\x00"}, "name"),
    ("api-password-token", {"username": "a\x00", "password": "b"}, "username"),
])
def test_a_nul_in_a_json_string_is_a_400_field_error(url_name, payload, field):
    client = api_client_for(make_user())
    body = assert_error_shape(client.post(reverse(url_name), payload, format="json"), url_name, 400)
    assert field in body["fields"], body


def test_a_nul_in_an_action_or_a_chat_message_is_a_400_field_error():
    user, game, _ = world()
    client = api_client_for(user)
    url = reverse("api-game-actions", args=[game.pk])
    for action in ({"bid": 1, "note\x00": 1}, {"raven": "\x00"}, {"place_orders": {"winterfell": "raid\x00"}}):
        body = assert_error_shape(client.post(url, {"version": game.version, "action": action}, format="json"),
                                  repr(action), 400)
        assert "action" in body["fields"], body
    chat = reverse("api-game-chat", args=[game.pk])
    for payload, field in (({"text": "hi\x00"}, "text"), ({"text": "hi", "channel": "table\x00"}, "channel")):
        body = assert_error_shape(client.post(chat, payload, format="json"), repr(payload), 400)
        assert field in body["fields"], body
    assert GameAction.objects.filter(game=game, source="player").count() == 0


def test_a_nul_in_headers_is_refused_not_a_500():
    user, game, _ = world()
    client = api_client_for(user)
    response = client.post(reverse("api-game-actions", args=[game.pk]), {"version": game.version, "action": {"x": 1}},
                           format="json", HTTP_IDEMPOTENCY_KEY="k\x00")
    body = assert_error_shape(response, "Idempotency-Key", 400)
    assert "Idempotency-Key" in body["fields"], body
    for header in ("Token abc\x00def", "Bearer \x00"):
        response = Client().get(reverse("api-me"), HTTP_AUTHORIZATION=header)
        assert_error_shape(response, header, (400, 401))


# --- 4. huge bodies ------------------------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024


@pytest.mark.parametrize("url_name", ["api-lobbies", "api-password-token", "api-tokens", "api-tournaments"])
def test_a_10_mb_body_is_a_413_in_the_error_shape(url_name):
    body = json.dumps({"name": "x" * TEN_MB})
    for client in (Client(), api_client_for(make_user())):
        response = client.post(reverse(url_name), data=body, content_type="application/json")
        assert assert_error_shape(response, url_name, 413)["error"] == "too_large"


def test_a_10_mb_body_elsewhere_under_api_is_a_413_in_the_error_shape():
    user, game, _ = world()
    client = api_client_for(user)
    for url in ("/api/v1/nowhere", reverse("api-game-actions", args=[game.pk]), reverse("api-schema")):
        response = client.post(url, data=b"{" + b" " * TEN_MB + b"}", content_type="application/json")
        assert_error_shape(response, url, 413)
    form = Client().post("/api/v1/lobbies", data="a=" + "x" * TEN_MB, content_type="application/x-www-form-urlencoded")
    assert_error_shape(form, "form", 413)


def test_a_10_mb_body_on_a_page_is_a_plain_413():
    response = Client().post(reverse("login"), data="username=" + "x" * TEN_MB,
                             content_type="application/x-www-form-urlencoded")
    assert response.status_code == 413


# --- 5. strings where the schema says integer ----------------------------------------------------

def test_version_as_a_string_is_refused():
    user, game, _ = world()
    client = api_client_for(user)
    url = reverse("api-game-actions", args=[game.pk])
    for version in ("0", "1", "0.0", 1.5, True, "", None, [0], {"v": 0}):
        body = assert_error_shape(client.post(url, {"version": version, "action": {"bid": 1}}, format="json"),
                                  repr(version), 400)
        assert "version" in body["fields"], (version, body)
    assert GameAction.objects.filter(game=game, source="player").count() == 0


@pytest.mark.parametrize(("url_name", "payload", "field"), [
    ("api-lobbies", {**LOBBY, "seats": "3"}, "seats"),
    ("api-lobbies", {**LOBBY, "time_limit": "3600"}, "time_limit"),
    ("api-lobbies", {**LOBBY, "min_rating": "1500"}, "min_rating"),
    ("api-lobbies", {**LOBBY, "min_reliability": "0.5"}, "min_reliability"),
    ("api-lobbies", {**LOBBY, "max_consecutive_timeouts": "3"}, "max_consecutive_timeouts"),
    ("api-tournaments", {**TOURNAMENT, "rounds": "3"}, "rounds"),
    ("api-tournaments", {**TOURNAMENT, "capacity": "8"}, "capacity"),
    ("api-tournaments", {**TOURNAMENT, "seed": "1"}, "seed"),
    ("api-tournaments", {**TOURNAMENT, "placement_points": ["3", 1]}, "placement_points"),
])
def test_numbers_as_strings_in_json_are_refused(url_name, payload, field):
    client = api_client_for(make_user())
    body = assert_error_shape(client.post(reverse(url_name), payload, format="json"), field, 400)
    assert field in body["fields"], body


def test_integral_floats_and_form_posts_are_still_numbers():
    """3.0 is the integer 3 in JSON (many encoders write it so); a form post has only strings."""
    client = api_client_for(make_user())
    response = client.post(reverse("api-lobbies"), {**LOBBY, "seats": 3.0}, format="json")
    assert response.status_code == 201, response.content
    response = client.post(reverse("api-lobbies"), {"ruleset": "agot", "seats": "3", "time_limit": "3600"})
    assert response.status_code == 201, response.content


# --- 6. Idempotency-Key reused with another body --------------------------------------------------

def _first_move(game: Game):
    from games.engine import get_ruleset

    engine = get_ruleset(game.ruleset)
    for user_seat in game.seats.all():
        if user_seat.seat in engine.pending(game.state):
            return user_seat.user, user_seat.seat, engine.default_action(game.state, user_seat.seat)
    raise AssertionError("no seat pending")


def test_the_same_key_and_body_is_a_retry_and_another_body_is_a_422():
    game = make_game()
    user, seat, action = _first_move(game)
    client = api_client_for(user)
    url = reverse("api-game-actions", args=[game.pk])
    body = {"version": game.version, "action": action}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 200, first.content
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and again.json()["repeated"] is True, again.content
    assert again.json()["applied_version"] == first.json()["applied_version"]
    # the same action as a differently ordered object is the same body
    reordered = client.post(url, data=json.dumps({"action": action, "version": game.version}),
                            content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reordered.status_code == 200 and reordered.json()["repeated"] is True
    for other in ({"version": game.version, "action": {**action, "extra": 1}},
                  {"version": game.version + 1, "action": action}):
        response = client.post(url, other, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
        body422 = assert_error_shape(response, repr(other), 422)
        assert body422["error"] == "idempotency_key_reused", body422
    assert GameAction.objects.filter(game=game, seat=seat, source="player").count() == 1
    # and the first result is still what the key answers
    last = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert last.status_code == 200 and last.json()["applied_version"] == first.json()["applied_version"]


def test_an_overlong_idempotency_key_is_refused():
    game = make_game()
    user, _, action = _first_move(game)
    response = api_client_for(user).post(reverse("api-game-actions", args=[game.pk]),
                                         {"version": game.version, "action": action}, format="json",
                                         HTTP_IDEMPOTENCY_KEY="k" * 129)
    body = assert_error_shape(response, "long key", 400)
    assert "Idempotency-Key" in body["fields"]


# --- 1 (websockets). Frames that are not JSON, or nest thousands deep ------------------------------

WS_HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
BAD_FRAMES = [DEEP_LIST, DEEP_OBJECT, "not json", "{", '{"type": "chat", "text": "a\\u0000"}', '"\\ud800"']


async def _assert_frames_answered(communicator, *, reply_to_ping: str):
    for frame in BAD_FRAMES:
        await communicator.send_to(text_data=frame)
        answer = await communicator.receive_json_from(timeout=20)
        assert answer["type"] == "error" and answer["error"] == "bad_message", (frame[:20], answer)
        assert "detail" in answer and "fields" in answer
    await communicator.send_to(bytes_data=b"\x00\x01")
    assert (await communicator.receive_json_from(timeout=20))["error"] == "bad_message"
    # still open: a good frame gets its usual answer
    await communicator.send_json_to({"type": "ping"})
    answer = await communicator.receive_json_from(timeout=20)
    assert answer["type"] == reply_to_ping, answer
    assert await communicator.receive_nothing(timeout=0.1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_game_socket_answers_bad_frames_and_stays_open(settings):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from westeros.asgi import websocket_application

    settings.ALLOWED_HOSTS = ["testserver"]
    game = await sync_to_async(make_game)()
    user = await sync_to_async(lambda: game.seats.get(seat="stark").user)()
    communicator = WebsocketCommunicator(websocket_application(), f"/ws/games/{game.id}/", headers=WS_HEADERS)
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "hello"
    while (await communicator.receive_json_from())["type"] != "presence":
        pass
    await _assert_frames_answered(communicator, reply_to_ping="pong")
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_tournament_socket_answers_bad_frames_and_stays_open(settings):
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from tournaments.services import TournamentSettings, do_create_tournament
    from westeros.asgi import websocket_application

    settings.ALLOWED_HOSTS = ["testserver"]
    t = await sync_to_async(lambda: do_create_tournament(make_user(), TournamentSettings(name="Cup")))()
    communicator = WebsocketCommunicator(websocket_application(), f"/ws/tournaments/{t.id}/", headers=WS_HEADERS)
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from())["type"] == "hello"
    await _assert_frames_answered(communicator, reply_to_ping="error")  # read-only: any JSON is "read_only"
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_the_ping_socket_answers_bad_frames_and_stays_open(settings):
    from channels.testing import WebsocketCommunicator

    from westeros.asgi import websocket_application

    settings.ALLOWED_HOSTS = ["testserver"]
    communicator = WebsocketCommunicator(websocket_application(), "/ws/ping/", headers=WS_HEADERS)
    connected, _ = await communicator.connect()
    assert connected
    await _assert_frames_answered(communicator, reply_to_ping="pong")
    await communicator.disconnect()


@pytest.mark.parametrize("raw", ["p=abc", "r=1&p=1.5", "p=\x00", "p=-5", "p=99999999999999999999999", "p=1e3"])
def test_a_crafted_chat_cursor_is_a_404_not_a_500(raw):
    import base64

    user, game, _ = world()
    cursor = base64.b64encode(raw.encode()).decode()
    response = api_client_for(user).get(reverse("api-game-chat", args=[game.pk]), {"cursor": cursor})
    assert_error_shape(response, raw, 404)


def test_a_real_chat_cursor_still_pages():
    user, game, _ = world()
    client = api_client_for(user)
    url = reverse("api-game-chat", args=[game.pk])
    for n in range(3):
        assert client.post(url, {"text": f"m{n}"}, format="json").status_code == 201
    first = client.get(url, {"limit": 2}).json()
    assert [m["text"] for m in first["results"]] == ["m2", "m1"] and first["next"]
    second = client.get(first["next"]).json()
    assert [m["text"] for m in second["results"]] == ["m0"]
