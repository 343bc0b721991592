"""Issue 34's hidden-information test with fog of war on, over whole games, through the site: no seat,
spectator, API answer (GET /games/<id>: view, summary, legal actions and the rest), websocket message
(what games.services.notify.fan_out sends each group), log page (events and lines in words, read over
HTTP) or notification (its stored data and its words) names an area the reader may not see at that
moment (fog.visible_areas, before or after the action: the rule of docs/rules-decisions.md "AGoT
variants"), beyond what the fog itself lets through: a combat's area and the attacker's origin to a
house that sees the combat, all of a combat to the houses that take part in it, a seat's own decision.
The scanner is proved on planted leaks first. Engine-level: tests/engine/test_agot_fog.py."""
from __future__ import annotations

import os
import random
import re
from typing import Any

import pytest
from django.urls import reverse

from games import queries
from games.engine import get_ruleset
from games.engine.agot import fog
from games.engine.agot.data import board
from games.services import play
from games.services.notify import fan_out, seat_group
from notifications.models import Notification
from notifications.services import compose
from tests.factories import api_client_for, make_game, make_user, whole_log

pytestmark = pytest.mark.django_db

R = get_ruleset("agot")
ALL = frozenset(board().ids)
# area names in words, longest first ("Blackwater Bay" before "Blackwater")
NAMES = sorted(((a["name"], a["id"]) for a in board().areas.values()), key=lambda x: -len(x[0]))
NAME_RE = re.compile("|".join(re.escape(n) for n, _ in NAMES))
BY_NAME = dict(NAMES)


def named_in_words(text: str) -> set[str]:
    return {BY_NAME[m.group(0)] for m in NAME_RE.finditer(text or "")}


def payload_leaks(payload: dict[str, Any], seat: str | None, vis: frozenset[str]) -> set[str]:
    """The areas an API answer names that `seat` does not see."""
    out = fog.leaked_areas(payload["view"], seat, vis) | fog.leaked_areas(payload["summary"], seat, vis)
    # the legal actions are the seat's own decision (where its beaten army may retreat, say): they may
    # name what the decision and a combat the seat takes part in name
    own = set(vis)
    decision = payload["view"].get("decision") or {}
    if seat is not None and seat in decision.get("seats", ()):
        own |= fog.areas_named(decision)
    current = (payload["view"].get("combat") or {}).get("_current")
    if current and seat in fog.participants(current):
        own |= fog.areas_named(current)
    out |= fog.areas_named(payload["legal_actions"] or []) - own
    rest = {k: v for k, v in payload.items() if k not in ("view", "summary", "legal_actions")}
    return out | (fog.areas_named(rest) - vis)


class Combat:
    """The combat under way as a reader follows it through the events (its participants see all of it;
    a house that sees it sees its area and the attacker's origin)."""

    def __init__(self, current: dict[str, Any] | None):
        self.c = dict(current) if current else None

    def allowed(self, ev: dict[str, Any], seat: str | None, vis: frozenset[str]) -> frozenset[str]:
        t = ev.get("type")
        if t == "combat_started":
            self.c = {"attacker": ev.get("attacker"), "defender": ev.get("defender"), "area": ev.get("area"),
                      "origin": ev.get("origin"), "supports": {}}
        if self.c is not None and t == "support_declared" and ev.get("for") is not None:
            self.c.setdefault("supports", {})[ev.get("house")] = ev.get("for")
        out = vis
        if self.c is not None and t in fog.COMBAT_EVENTS:
            if seat is not None and seat in fog.participants(self.c):
                out = ALL
            else:
                out = vis | {a for a in (self.c.get("area"), self.c.get("origin")) if a}
        if t == "combat_over":
            self.c = None
        return out


def event_leaks(events: list[dict[str, Any]], seat: str | None, vis: frozenset[str],
                combat: dict[str, Any] | None) -> set[str]:
    follow, out = Combat(combat), set()
    for ev in events:
        out |= fog.areas_named(ev) - follow.allowed(ev, seat, vis)
    return out


def line_leaks(lines: list[dict[str, Any]], allowed: frozenset[str]) -> set[str]:
    out: set[str] = set()
    for line in lines:
        out |= (fog.areas_named(line.get("areas") or []) | named_in_words(line.get("text", ""))) - allowed
    return out


class Watch:
    """One game's outputs, scanned as they happen (API answers, websocket messages) and at its end
    (the log, the notifications)."""

    def __init__(self, game, users: dict[str, Any], spectator):
        self.game, self.users, self.spectator = game, users, spectator
        self.seen: dict[int, dict[str | None, frozenset[str]]] = {}  # version -> reader -> areas seen
        self.combat: dict[int, dict[str, Any] | None] = {}  # version -> the combat under way before it
        self.leaks: list[tuple] = []

    def readers(self):
        return [*self.users.items(), (None, self.spectator)]

    def api(self, game, http: bool) -> None:
        for seat, user in self.readers():
            if http:
                payload = api_client_for(user).get(reverse("api-game", args=[game.pk])).json()
            else:
                payload = queries.game_payload(game, user)
            vis = fog.visible_areas(game.state, seat)
            if leak := payload_leaks(payload, seat, vis):
                self.leaks.append(("api", game.version, seat, sorted(leak)))

    def action(self, before: dict, game, records) -> None:
        after = game.state
        seats = list(self.users)
        vis = {s: fog.visible_areas(before, s) | fog.visible_areas(after, s) for s in [*seats, None]}
        current = (before.get("combat") or {}).get("_current")
        for record in records:
            self.seen[record.version] = vis
            self.combat[record.version] = current
        for group, events in fan_out(game.pk, game.ruleset, list(records), seats):
            readers = [s for s in seats if group == seat_group(game.pk, s)] or [None, *seats]
            for seat in readers:  # the table's message reaches everyone: each must be allowed it
                if leak := event_leaks(events, seat, vis[seat], current):
                    self.leaks.append(("websocket", records[-1].version, seat, sorted(leak)))

    def log(self) -> None:
        for seat, user in self.readers():
            client = api_client_for(user)
            for entry in whole_log(lambda path, c=client: c.get(path).json(), self.game.pk)["entries"]:
                v = entry["version"]
                if v not in self.seen:
                    continue
                vis = self.seen[v][seat]
                events = [{k: x for k, x in e.items() if k != "version"} for e in entry["events"]]
                if leak := event_leaks(events, seat, vis, self.combat[v]):
                    self.leaks.append(("log events", v, seat, sorted(leak)))
                allowed = vis | fog.areas_named(events)  # the events shown were checked just above
                if leak := line_leaks(entry.get("lines") or [], frozenset(allowed)):
                    self.leaks.append(("log lines", v, seat, sorted(leak)))

    def notifications(self) -> None:
        seat_of = {u.pk: s for s, u in self.users.items()}
        for note in Notification.objects.filter(game=self.game):
            seat = seat_of[note.user_id]
            v = note.data.get("version")
            vis = self.seen[v][seat] if v in self.seen else fog.visible_areas(self.game.state, seat)
            subject, text = compose(note)
            named = fog.areas_named(note.data) | named_in_words(subject) | named_in_words(text)
            if note.kind != "turn" and (leak := named - vis):  # a turn's words are the seat's own decision
                self.leaks.append(("notification", v, seat, sorted(leak)))


def play_whole_game(players: int, seed: int, options: dict[str, Any], http_every: int = 0, api_every: int = 1) -> Watch:
    rng = random.Random(seed)
    users = [make_user() for _ in range(players)]
    game = make_game(players, seed=seed, users=users, options=options)
    watch = Watch(game, {s.seat: s.user for s in game.seats.select_related("user")}, make_user())
    watch.api(game, http=True)
    step = 0
    while game.is_active():
        before = game.state
        seat = rng.choice(sorted(R.pending(before)))
        version = game.version
        result = play.do_submit_action(game.pk, watch.users[seat], action=R.random_action(before, seat, rng),
                                       version=version)
        game = result.game
        game.refresh_from_db()
        records = list(game.actions.filter(version__gt=version).order_by("version"))
        watch.action(before, game, records)
        step += 1
        if step % api_every == 0 or not game.is_active():
            watch.api(game, http=bool(http_every) and step % http_every == 0)
    watch.game = game
    watch.log()
    watch.notifications()
    return watch


FOG = {"fog_of_war": True}


def test_the_scanners_catch_planted_leaks():
    users = [make_user() for _ in range(3)]
    game = make_game(3, seed=5, users=users, options=FOG)
    stark_sees = fog.visible_areas(game.state, "stark")
    unseen = sorted(ALL - stark_sees - {a for a, v in game.state["neutral_forces"].items() if v == "impassable"})[0]
    seat_user = game.seats.get(seat="stark").user
    payload = queries.game_payload(game, seat_user)
    assert not payload_leaks(payload, "stark", stark_sees)
    payload["view"]["units"][unseen] = {"lannister": [{"type": "footman"}]}
    assert payload_leaks(payload, "stark", stark_sees) == {unseen}
    spectator = queries.game_payload(game, make_user())
    assert not payload_leaks(spectator, None, frozenset())
    spectator["summary"]["orders"] = {unseen: {"house": "stark"}}
    assert payload_leaks(spectator, None, frozenset()) == {unseen}
    event = {"type": "units_moved", "house": "lannister", "from": unseen, "to": unseen}
    assert event_leaks([event], "stark", stark_sees, None) == {unseen}
    assert event_leaks([{"type": "round_started", "round": 2}], None, frozenset(), None) == set()
    name = board().areas[unseen]["name"]
    assert line_leaks([{"text": f"Lannister marches to {name}."}], stark_sees) == {unseen}
    assert line_leaks([{"text": "Lannister marches.", "areas": [unseen]}], stark_sees) == {unseen}
    assert named_in_words("Blackwater Bay") == {"blackwater_bay"}
    # a game the scanner watches with a leak planted in what the spectators are sent
    watch = Watch(game, {s.seat: s.user for s in game.seats.select_related("user")}, make_user())
    records = [type("Record", (), {"version": 1, "events": [event]})()]
    watch.action(game.state, game, records)
    assert ("websocket", 1, None, [unseen]) in watch.leaks


@pytest.mark.slow_once  # whole games: long; the shorter tests here cover their database paths on both CI passes
@pytest.mark.parametrize(("players", "seed", "options"), [
    (3, 1, FOG), (6, 2, {**FOG, "random_starts": True, "draft_house_cards": True})])
def test_whole_fogged_games_through_the_site_leak_nothing(players, seed, options):
    watch = play_whole_game(players, seed, options, http_every=10)
    assert watch.game.state["phase"] == "over"
    assert not watch.leaks, watch.leaks[:10]


# Issue 34's proof is 100 whole games (about 26 minutes on 2 cores: more than the suite's whole budget),
# run with FOG_LEAK_GAMES=100 (docs/rules-decisions.md, "AGoT variants", gives the command and its last
# result); the suite plays the first FOG_LEAK_GAMES_CI of the same games, every player count and variant.
FOG_LEAK_GAMES_CI = 8


@pytest.mark.slow_once
def test_a_hundred_whole_fogged_games_through_the_site_leak_nothing():
    variants = [FOG, {**FOG, "random_starts": True}, {**FOG, "draft_house_cards": True},
                {**FOG, "gift_power_tokens": True, "draft_tracks": True}]
    games = int(os.environ.get("FOG_LEAK_GAMES", FOG_LEAK_GAMES_CI))
    for n in range(games):
        watch = play_whole_game(3 + n % 4, 1000 + n, variants[n % len(variants)], http_every=50, api_every=3)
        assert watch.game.state["phase"] == "over"
        assert not watch.leaks, (n, watch.leaks[:10])
        print(f"game {n + 1} of {games}: {3 + n % 4} houses, {watch.game.version} actions, no leak", flush=True)
