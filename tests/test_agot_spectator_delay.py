"""Issue 34's spectators' delay (`spectator_delay`, games/spectators.py; docs/rules-decisions.md "AGoT
variants", "Spectators with a delay"): with the fog of war and the option, a spectator sees the whole
board, without the fog, as it stood when the round `spectator_delay` rounds before the current one began,
and nothing newer: through the API's game answer and its log, the websocket (no live events: an update
without them) and the game page; replays stay closed while the game runs. The seats keep their fog and
their own views (a seated player is never given the spectators' view). Without the option the spectators
still see nothing hidden. The option is checked: the engine, the API (400 in words) and the form."""
from __future__ import annotations

import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import queries, rulesets
from games.engine import EngineError, get_ruleset
from games.engine.agot import fog
from games.models import Game, Lobby
from games.replay import rebuild
from games.services import play
from games.services.notify import fan_out, seat_group, spectator_group, table_group
from tests.factories import api_client_for, make_game, make_user, whole_log
from tests.sockets import open_game_socket
from tests.test_agot_fog_site import payload_leaks
from tests.test_lobby_agot_variants import FORM, form_errors
from web.forms import option_words
from westeros.asgi import websocket_application

R = get_ruleset("agot")
DELAYED = {"fog_of_war": True, "spectator_delay": 1}
db = pytest.mark.django_db


# ----------------------------------------------------------------------------- the option, checked


@pytest.mark.parametrize(("delay", "ok"), [(0, True), (1, True), (2, True), (3, False), (-1, False), (True, False),
                                           ("1", False), (1.0, False), (None, False)])
def test_the_engine_takes_a_delay_of_0_1_or_2_rounds(delay, ok):
    options = {"fog_of_war": True, "spectator_delay": delay}
    if ok:
        assert R.new_game(R.seat_names(3), options, 1)["options"]["spectator_delay"] == delay
    else:
        with pytest.raises(EngineError):
            R.new_game(R.seat_names(3), options, 1)


def test_the_site_refuses_a_delay_without_the_fog_or_out_of_range_in_words():
    assert rulesets.options_refusal("agot", DELAYED) is None
    assert rulesets.options_refusal("agot", {"fog_of_war": True, "spectator_delay": 0}) is None
    assert "needs fog_of_war" in rulesets.options_refusal("agot", {"spectator_delay": 1})
    assert "needs fog_of_war" in rulesets.options_refusal("agot", {"fog_of_war": False, "spectator_delay": 2})
    for bad in (3, -1, True, "1", 1.5, [1]):
        assert "0 (none), 1 or 2" in rulesets.options_refusal("agot", {"fog_of_war": True, "spectator_delay": bad})


def create_lobby(client, **options):
    return client.post(reverse("api-lobbies"), {"ruleset": "agot", "seats": 3, "time_limit": 3600,
                                                "options": options}, format="json")


@db
def test_the_api_makes_a_lobby_with_the_delay_and_refuses_bad_ones_with_a_400_in_words():
    client = api_client_for(make_user())
    made = create_lobby(client, **DELAYED)
    assert made.status_code == 201, made.json()
    assert made.json()["options"] == DELAYED
    for options, words in (({"spectator_delay": 1}, "needs fog_of_war"),
                           ({"fog_of_war": True, "spectator_delay": 3}, "0 (none), 1 or 2"),
                           ({"fog_of_war": True, "spectator_delay": "2"}, "0 (none), 1 or 2"),
                           ({"fog_of_war": True, "spectator_delay": True}, "0 (none), 1 or 2")):
        refused = create_lobby(client, **options)
        assert refused.status_code == 400, options
        body = refused.json()
        assert words in " ".join(body["fields"]["options"]), body
    assert Lobby.objects.count() == 1
    es = client.post(reverse("api-lobbies"), {"ruleset": "agot", "seats": 3, "time_limit": 3600,
                                              "options": {"spectator_delay": 1}}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert es.status_code == 400 and "fog_of_war" in " ".join(es.json()["fields"]["options"])
    assert "needs" not in " ".join(es.json()["fields"]["options"])  # said in Spanish


@db
def test_the_form_offers_the_delay_next_to_the_fog_and_makes_the_lobby(logged_in):
    page = logged_in.get(reverse("web-lobby-new")).content.decode()
    fog_at, delay_at = page.index('name="fog_of_war"'), page.index('name="spectator_delay"')
    assert fog_at < delay_at < page.index('name="random_starts"')
    for words in ("they see nothing hidden until the game ends", "they see the whole board, 1 round late",
                  "they see the whole board, 2 rounds late"):
        assert words in page
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "fog_of_war": "on", "spectator_delay": "2"})
    assert response.status_code == 302, form_errors(response)
    lobby = Lobby.objects.get()
    assert lobby.options == {"fog_of_war": True, "spectator_delay": 2}
    assert "spectators see the board 2 rounds late" in option_words("agot", lobby.options)
    page = logged_in.get(reverse("web-lobby", args=[lobby.pk])).content.decode()
    assert "spectators see the board 2 rounds late" in page


@db
def test_the_form_refuses_the_delay_without_the_fog_and_an_unknown_choice_in_words(logged_in):
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "spectator_delay": "1"})
    assert response.status_code == 200
    assert "spectator_delay needs fog_of_war" in form_errors(response)
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "fog_of_war": "on", "spectator_delay": "5"})
    assert response.status_code == 200
    assert "Spectators: choose no delay, 1 round or 2 rounds." in form_errors(response)
    response = logged_in.post(reverse("web-lobby-new"), {**FORM, "fog_of_war": "on", "spectator_delay": "0"})
    assert response.status_code == 302
    assert Lobby.objects.get().options == {"fog_of_war": True}
    assert not Game.objects.exists()


# ----------------------------------------------------------------------------- the engine's stamps


def test_the_cut_copies_are_marked_and_never_reach_a_reader_and_the_unfogged_events_are_the_originals():
    rnd = random.Random(5)
    state = R.new_game(R.seat_names(6), {"fog_of_war": True}, 5)
    while state["step"] == "assign":
        seat = rnd.choice(sorted(R.pending(state)))
        state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
    revealed = [e for e in events if e["type"] == "orders_revealed"]
    originals = [e for e in revealed if not e.get("cut")]
    assert len(originals) == 1 and len(revealed) > 1  # the seats that see part of the board get cut copies
    for seat in state["seats"]:
        for e in revealed:
            shown = R.event_view(e, seat)
            assert shown is None or ("seen" not in shown and "cut" not in shown)
    unfogged = [fog.unfogged_event(e) for e in events]
    assert [e for e in unfogged if e is not None and e["type"] == "orders_revealed"] == [
        {k: v for k, v in originals[0].items() if k != "seen"}]
    # every order on the board, as a spectator of a game without the fog reads them
    assert set(originals[0]["orders"]) == set(state["orders"])
    assert fog.unfogged_event({"type": "bid", "only": ["stark"]}) is None


# ----------------------------------------------------------------------------- whole games


class Table:
    """A fogged game played at random through the site's services, with a user in every seat and the
    version at which each round began (read from the states, not from the log)."""

    def __init__(self, options: dict[str, Any], seed: int = 3, players: int = 3):
        self.rng = random.Random(seed)
        self.game = make_game(players, seed=seed, options=options)
        self.users = {s.seat: s.user for s in self.game.seats.select_related("user")}
        self.began = {1: 0}  # round -> version (round 1: the start, without a draft)
        self.log: list[dict[str, Any]] = []

    def step(self) -> None:
        game = self.game
        before = game.state
        seat = self.rng.choice(sorted(R.pending(before)))
        action = R.random_action(before, seat, self.rng)
        result = play.do_submit_action(game.pk, self.users[seat], action=action, version=game.version)
        self.game = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
        records = list(self.game.actions.filter(version__gt=game.version).order_by("version"))
        assert len(records) == 1  # no computer seat: one action a step, so the state is the one after it
        self.log.append({"seat": records[0].seat, "action": records[0].action})
        self.began.setdefault(self.game.state["round"], records[0].version)
        if before["phase"] == "draft" and self.game.state["phase"] != "draft":
            self.began[1] = records[0].version  # with a draft, round 1 begins when the draft ends
        assert result.game.version == self.game.version

    def play_until(self, check) -> None:
        while self.game.is_active() and not check(self.game):
            self.step()

    def expected_spectator_view(self, delay: int) -> tuple[int, dict[str, Any]]:
        """The delayed moment and the view of it, computed from this test's own record."""
        target = self.game.state["round"] - delay
        version = self.began[target] if target >= 1 else 0
        return version, table_view(self, version)


def units_of(view: dict[str, Any]) -> dict[tuple[str, str], int]:
    return {(area, house): len(units) for area, by in view["units"].items() for house, units in by.items() if units}


@db
def test_a_spectator_sees_the_whole_board_one_round_late_and_nothing_newer_seats_keep_their_fog():
    table = Table(DELAYED)
    spectator = api_client_for(make_user())
    logged_out = Client()
    seen_rounds = {}
    while table.game.is_active() and table.game.state["round"] <= 4:
        game = table.game
        payload = spectator.get(reverse("api-game", args=[game.pk])).json()
        version, expected = table.expected_spectator_view(1)
        assert payload["view"] == expected, (game.version, game.state["round"])
        assert payload["spectator_delay"] == {"rounds": 1, "version": version, "round": max(game.state["round"] - 1, 0)}
        assert payload["legal_actions"] is None and payload["version"] == game.version
        assert "fog" not in payload["view"] and "fog" not in payload["summary"]
        assert payload["view"]["options"] == {**payload["view"]["options"], **DELAYED}  # the game's own
        assert version < game.version or game.version == 0  # never the live state past the start
        seen_rounds[game.state["round"]] = units_of(payload["view"])
        if game.version % 7 == 0:  # logged out: the same
            assert logged_out.get(f"/api/v1/games/{game.pk}").json()["view"] == expected
        for seat, user in table.users.items():  # every seat: its own fogged view of the live game, as before
            own = queries.game_payload(game, user)
            assert own["view"] == R.view(game.state, seat) and own["spectator_delay"] is None
            assert own["view"]["fog"]["visible"] == sorted(fog.visible_areas(game.state, seat))
            assert not payload_leaks(own, seat, fog.visible_areas(game.state, seat))
        table.step()
    assert {2, 3, 4} <= set(seen_rounds)
    # in round 2 a spectator sees the start of round 1, in round 3 the start of round 2, in round 4 that
    # of round 3: the moves of round 2 (a house's units in an area where it had none) appear only in round 4
    start = {r: units_of(table_view(table, table.began[r])) for r in (1, 2, 3)}
    assert seen_rounds[2] == start[1] and seen_rounds[3] == start[2] and seen_rounds[4] == start[3]
    moved = set(start[3]) - set(start[2])
    assert moved, "round 2 moved no unit into a new area: choose another seed"
    for key in moved:
        assert key not in seen_rounds[3] and key in seen_rounds[4]


def table_view(table: Table, version: int) -> dict[str, Any]:
    """The view a spectator of the game without the fog had after `version`, with the game's own options."""
    state = rebuild("agot", table.game.seat_names(), table.game.options, table.game.seed, table.log, version)
    return {**R.view(fog.unfogged(state), None), "options": state["options"]}


@db
def test_with_a_draft_round_1_is_shown_from_the_end_of_the_draft():
    table = Table({**DELAYED, "draft_house_cards": True}, seed=8)
    spectator = api_client_for(make_user())
    assert table.game.state["phase"] == "draft"
    checked = set()
    while table.game.is_active() and table.game.state["round"] <= 2:
        payload = spectator.get(reverse("api-game", args=[table.game.pk])).json()
        version, expected = table.expected_spectator_view(1)
        assert payload["view"] == expected and payload["spectator_delay"]["version"] == version
        checked.add((table.game.state["round"], table.game.state["phase"] == "draft"))
        table.step()
    assert {(1, True), (1, False), (2, False)} <= checked
    assert table.began[1] > 0  # the draft took actions: round 2's spectators see the drafted hands' round 1


@db
def test_the_spectators_log_stops_at_the_delay_and_shows_the_whole_board_then_the_whole_log_at_the_end():
    table = Table({"fog_of_war": True, "spectator_delay": 2, "rounds": 4}, seed=4)
    table.play_until(lambda g: g.state["round"] >= 4)
    game = table.game
    limit, _state = table.expected_spectator_view(2)
    assert limit == table.began[2] > 0
    spectator = api_client_for(make_user())
    body = whole_log(lambda path: spectator.get(path).json(), game.pk)
    versions = [e["version"] for e in body["entries"]]
    assert versions and max(versions) <= limit < game.version
    assert body["next"] is None
    records = {r.version: r for r in game.actions.all()}
    named = set()
    for entry in body["entries"]:
        events = [{k: v for k, v in e.items() if k != "version"} for e in entry["events"]]
        expected = [fog.unfogged_event(e) for e in records[entry["version"]].events]
        assert events == [e for e in expected if e is not None]
        assert all("seen" not in e and "cut" not in e and "only" not in e for e in events)
        named |= fog.areas_named(events)
        assert entry["lines"]  # in words
    # the whole board's moves, not only what names no area: every order revealed across the board
    assert len(named) >= 5
    revealed = [e for entry in body["entries"] for e in entry["events"] if e["type"] == "orders_revealed"]
    assert revealed and {h for e in revealed for by in e["orders"].values() for h in by} == set(table.users)
    # a page asked past the delay gives nothing newer
    past = spectator.get(f"/api/v1/games/{game.pk}/log?after={limit}").json()
    assert past["entries"] == [] and past["through"] == limit and past["next"] is None
    # the seats: their own fogged log as before, to the live version
    for seat, user in table.users.items():
        client = api_client_for(user)
        mine = whole_log(lambda path, c=client: c.get(path).json(), game.pk)
        assert max(e["version"] for e in mine["entries"]) > limit
        for entry in mine["entries"]:
            expected = [R.event_view(e, seat) for e in records[entry["version"]].events]
            assert [{k: v for k, v in e.items() if k != "version"} for e in entry["events"]] == [
                e for e in expected if e is not None]
    # replays stay closed while the game runs, for spectators and seats, whatever they ask to be shown
    seat_user = table.users["stark"]
    for client, query in ((spectator, ""), (Client(), "?as=spectator"), (api_client_for(seat_user), "?as=spectator"),
                          (api_client_for(seat_user), "")):
        assert client.get(f"/games/{game.pk}/replay/{limit}.json{query}").status_code == 409
    # to the end: then the whole log, without the fog's cuts
    table.play_until(lambda g: False)
    game = table.game
    assert not game.is_active()
    body = whole_log(lambda path: spectator.get(path).json(), game.pk)
    assert max(e["version"] for e in body["entries"]) == game.version
    assert spectator.get(f"/api/v1/games/{game.pk}").json()["spectator_delay"] is None


@db
def test_the_spectators_websocket_group_gets_no_live_event_and_nothing_goes_to_the_table():
    table = Table(DELAYED, seed=5)
    plain = Table({"fog_of_war": True}, seed=5)
    for _ in range(12):
        before = table.game.version
        table.step()
        plain.step()
        game = table.game
        records = list(game.actions.filter(version__gt=before).order_by("version"))
        seats = game.seat_names()
        sent = dict(fan_out(game.pk, game.ruleset, records, seats, delayed=True))
        assert sent[spectator_group(game.pk)] == []
        assert table_group(game.pk) not in sent
        for seat in seats:  # the seats: as without the delay
            assert sent[seat_group(game.pk, seat)] == [
                {**e, "version": r.version} for r in records for e in (R.event_view(x, seat) for x in r.events)
                if e is not None]
        # the same game without the delay: the public events go to the spectators (or the table)
        plain_records = list(plain.game.actions.filter(version__gt=before).order_by("version"))
        undelayed = dict(fan_out(plain.game.pk, "agot", plain_records, seats))
        public = undelayed.get(spectator_group(plain.game.pk), undelayed.get(table_group(plain.game.pk)))
        assert public == [{**e, "version": r.version} for r in plain_records
                          for e in (R.event_view(x, None) for x in r.events) if e is not None]
    assert any(fan_out(plain.game.pk, "agot", [r], plain.game.seat_names())[-1][1]
               for r in plain.game.actions.all())  # the public events were not all empty


@db
def test_without_the_option_a_spectator_still_sees_nothing_hidden():
    table = Table({"fog_of_war": True}, seed=3)
    spectator = api_client_for(make_user())
    table.play_until(lambda g: g.state["round"] >= 3)
    payload = spectator.get(reverse("api-game", args=[table.game.pk])).json()
    assert payload["spectator_delay"] is None
    assert payload["view"]["fog"]["visible"] == [] and units_of(payload["view"]) == {}
    assert not payload_leaks(payload, None, frozenset())
    body = whole_log(lambda path: spectator.get(path).json(), table.game.pk)
    assert max(e["version"] for e in body["entries"]) == table.game.version
    assert all(not fog.areas_named(e["events"]) for e in body["entries"])


# ----------------------------------------------------------------------------- the page


@db
def test_the_spectators_page_says_it_shows_the_game_with_a_delay_in_english_and_spanish():
    game = make_game(3, seed=2, options={"fog_of_war": True, "spectator_delay": 2})
    watcher = Client()
    watcher.force_login(make_user())
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert "You are watching with a delay of 2 rounds" in page and "without the fog of war" in page
    spanish = watcher.get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert 'id="spectator-delay"' in spanish and "You are watching" not in spanish and "2 rondas" in spanish
    assert "Estás viendo la partida con un retraso" in spanish
    one = make_game(3, seed=2, options=DELAYED)
    assert "You are watching with a delay of 1 round:" in Client().get(f"/games/{one.pk}/").content.decode()
    player = Client()
    player.force_login(game.seats.get(seat="stark").user)
    assert 'id="spectator-delay"' not in player.get(f"/games/{game.pk}/").content.decode()
    plain = make_game(3, seed=2, options={"fog_of_war": True})
    assert 'id="spectator-delay"' not in watcher.get(f"/games/{plain.pk}/").content.decode()


# ----------------------------------------------------------------------------- the socket itself


async def next_update(communicator, timeout: float = 2):
    while True:
        message = await communicator.receive_json_from(timeout=timeout)
        if message["type"] == "update":
            return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_spectators_socket_gets_an_update_without_events_and_the_seat_its_own(settings):
    settings.ALLOWED_HOSTS = ["testserver"]
    app = websocket_application()
    game = await sync_to_async(make_game)(3, seed=6, options=DELAYED)
    users = await sync_to_async(lambda: {s.seat: s.user for s in game.seats.all()})()
    sockets = {}
    for who, user in (("spectator", await sync_to_async(make_user)()), ("stark", users["stark"]), ("anonymous", None)):
        sockets[who] = await open_game_socket(app, game.pk, user)
    rng = random.Random(1)
    for _ in range(4):
        state = await sync_to_async(lambda: Game.objects.get(pk=game.pk).state)()
        seat = sorted(R.pending(state))[0]
        version = await sync_to_async(lambda: Game.objects.get(pk=game.pk).version)()
        result = await sync_to_async(play.do_submit_action)(game.pk, users[seat], action=R.random_action(state, seat, rng),
                                                            version=version)
        events = await sync_to_async(lambda r=result: r.record.events)()
        for who in ("spectator", "anonymous"):
            update = await next_update(sockets[who])
            assert update["events"] == [] and update["version"] == version + 1
        stark = await next_update(sockets["stark"])
        assert [{k: v for k, v in e.items() if k != "version"} for e in stark["events"]] == [
            e for e in (R.event_view(x, "stark") for x in events) if e is not None]
    for communicator in sockets.values():
        await communicator.disconnect()
