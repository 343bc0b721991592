"""Challenges (issue 21): POST /api/v1/challenges invites named players (people or bot accounts) to a
game with given options; they accept or decline (with a reason); the game starts when everyone
accepted, every seat taken by the challenger and the invitees; listing (in and out), cancelling,
expiry after a day (checked lazily), a rate limit (429 with Retry-After); bad input is a 4xx in
the API's error shape and changes nothing."""
from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from challenges.models import Challenge
from games.models import Game, Lobby
from tests.factories import make_user

pytestmark = pytest.mark.django_db
URL = "/api/v1/challenges"


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def challenge(client, users, **extra):
    body = {"ruleset": "lcg", "users": users, "time_limit": 3600, **extra}
    return client.post(URL, body, format="json")


def assert_error(response, status: int, code: str, field: str | None = None):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= {"error", "detail", "fields"} and body["error"] == code, body
    if field:
        assert field in body["fields"], body
    return body


@pytest.fixture
def people():
    return make_user(username="arya"), make_user(username="brienne"), make_user(username="cersei")


def test_a_challenge_accepted_by_everyone_starts_the_game_with_them_all(people):
    arya, brienne, cersei = people
    created = challenge(client_for(arya), ["brienne", "cersei"], ruleset="btwixt", ranked=True)
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["status"] == "pending" and body["seats"] == 3 and body["game"] is None
    assert body["challenger"] == "arya" and body["challenger_bot"] is False
    assert [(i["user"], i["status"]) for i in body["invites"]] == [("brienne", "pending"), ("cersei", "pending")]
    first = client_for(brienne).post(f"{URL}/{body['id']}/accept")
    assert first.status_code == 200 and first.json()["status"] == "pending" and first.json()["game"] is None
    assert not Game.objects.exists()
    last = client_for(cersei).post(f"{URL}/{body['id']}/accept")
    assert last.status_code == 200, last.content
    started = last.json()
    assert started["status"] == "started" and started["game"]
    game = Game.objects.get(pk=started["game"])
    assert game.ruleset == "btwixt" and game.ranked and game.time_limit == 3600 and game.is_active()
    assert {s.user.username for s in game.seats.all()} == {"arya", "brienne", "cersei"}
    assert not any(s.is_bot for s in game.seats.all())
    assert game.lobby.status == Lobby.Status.STARTED and not game.private
    # each of them can play it
    assert client_for(brienne).get(f"/api/v1/games/{game.pk}").json()["your_seat"]


def test_the_options_reach_the_game(people):
    arya, brienne, _ = people
    options = {"every_window": True}
    body = challenge(client_for(arya), ["brienne"], options=options).json()
    game_id = client_for(brienne).post(f"{URL}/{body['id']}/accept").json()["game"]
    assert Game.objects.get(pk=game_id).options.items() >= options.items()


def test_a_decline_ends_the_challenge_with_its_reason(people):
    arya, brienne, cersei = people
    body = challenge(client_for(arya), ["brienne", "cersei"], ruleset="btwixt").json()
    client_for(brienne).post(f"{URL}/{body['id']}/accept")
    declined = client_for(cersei).post(f"{URL}/{body['id']}/decline", {"reason": "too_slow"}, format="json")
    assert declined.status_code == 200
    data = declined.json()
    assert data["status"] == "declined"
    cersei_invite = next(i for i in data["invites"] if i["user"] == "cersei")
    assert cersei_invite["reason"] == "too_slow" and "too slow" in cersei_invite["reason_text"]
    assert_error(client_for(brienne).post(f"{URL}/{body['id']}/accept"), 409, "challenge_declined")
    assert not Game.objects.exists()


def test_decline_reasons_are_checked(people):
    arya, brienne, _ = people
    body = challenge(client_for(arya), ["brienne"]).json()
    assert_error(client_for(brienne).post(f"{URL}/{body['id']}/decline", {"reason": "smelly"}, format="json"),
                 400, "invalid", "reason")
    assert Challenge.objects.get(pk=body["id"]).status == "pending"
    plain = client_for(brienne).post(f"{URL}/{body['id']}/decline")  # reason defaults to generic
    assert plain.status_code == 200 and plain.json()["invites"][0]["reason"] == "generic"


def test_listing_shows_challenges_in_and_out(people):
    arya, brienne, cersei = people
    to_brienne = challenge(client_for(arya), ["brienne"]).json()
    from_brienne = challenge(client_for(brienne), ["cersei"]).json()
    mine = client_for(brienne).get(URL).json()
    assert [c["id"] for c in mine["in"]] == [to_brienne["id"]]
    assert [c["id"] for c in mine["out"]] == [from_brienne["id"]]
    assert client_for(arya).get(URL).json() == {"in": [], "out": [to_brienne]}
    client_for(brienne).post(f"{URL}/{to_brienne['id']}/accept")  # answered: started, no longer listed
    assert client_for(brienne).get(URL).json()["in"] == []


def test_only_the_people_of_a_challenge_see_it(people):
    arya, brienne, cersei = people
    body = challenge(client_for(arya), ["brienne"]).json()
    assert client_for(brienne).get(f"{URL}/{body['id']}").status_code == 200
    assert_error(client_for(cersei).get(f"{URL}/{body['id']}"), 404, "not_found")
    assert_error(client_for(cersei).post(f"{URL}/{body['id']}/accept"), 404, "not_found")
    assert_error(client_for(arya).get(f"{URL}/999999"), 404, "not_found")


def test_the_challenger_cancels_and_cannot_answer_their_own_challenge(people):
    arya, brienne, _ = people
    body = challenge(client_for(arya), ["brienne"]).json()
    assert_error(client_for(arya).post(f"{URL}/{body['id']}/accept"), 403, "forbidden")
    assert_error(client_for(brienne).post(f"{URL}/{body['id']}/cancel"), 403, "forbidden")
    cancelled = client_for(arya).post(f"{URL}/{body['id']}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "canceled"
    assert_error(client_for(brienne).post(f"{URL}/{body['id']}/accept"), 409, "challenge_canceled")


def test_answering_twice_is_a_conflict(people):
    arya, brienne, cersei = people
    body = challenge(client_for(arya), ["brienne", "cersei"], ruleset="btwixt").json()
    client_for(brienne).post(f"{URL}/{body['id']}/accept")
    assert_error(client_for(brienne).post(f"{URL}/{body['id']}/accept"), 409, "already_answered")


def test_a_challenge_expires_after_a_day_unanswered(people):
    arya, brienne, _ = people
    body = challenge(client_for(arya), ["brienne"]).json()
    assert body["expires_at"]
    later = timezone.now() + timedelta(days=1, seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert client_for(brienne).get(URL).json()["in"] == []
        assert client_for(brienne).get(f"{URL}/{body['id']}").json()["status"] == "expired"
        assert_error(client_for(brienne).post(f"{URL}/{body['id']}/accept"), 409, "challenge_expired")
    assert not Game.objects.exists()


def test_challenges_are_rate_limited_per_hour(people, settings):
    arya, brienne, cersei = people
    settings.CHALLENGES_PER_HOUR = 3
    for _ in range(3):
        assert challenge(client_for(arya), ["brienne"]).status_code == 201
    refused = challenge(client_for(arya), ["cersei"])
    body = assert_error(refused, 429, "throttled")
    assert "3 challenges an hour" in body["detail"]
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    assert Challenge.objects.filter(challenger=arya).count() == 3
    assert challenge(client_for(brienne), ["arya"]).status_code == 201  # per challenger
    an_hour_later = timezone.now() + timedelta(hours=1, seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=an_hour_later):
        assert challenge(client_for(arya), ["cersei"]).status_code == 201


@pytest.mark.parametrize(("body", "field"), [
    ({"users": []}, "users"),
    ({"users": ["arya"]}, "users"),  # yourself
    ({"users": ["brienne", "brienne"]}, "users"),
    ({"users": ["nobody-here"]}, "users"),
    ({"users": "brienne"}, "users"),
    ({"users": ["brienne"], "ruleset": "chess"}, "ruleset"),
    ({"users": ["brienne", "cersei", "dany", "edd", "frey", "gendry"]}, "users"),  # the card game: 2 to 6
    ({"users": ["brienne"], "time_limit": 5}, "time_limit"),
    ({"users": ["brienne"], "time_limit": "3600"}, "time_limit"),
    ({"users": ["brienne"], "options": {"every_window": False}}, "options"),
    ({"users": ["brienne"], "options": []}, "options"),
])
def test_bad_challenges_are_refused_in_the_error_shape(people, body, field):
    arya = people[0]
    response = client_for(arya).post(URL, {"ruleset": "lcg", "time_limit": 3600, **body}, format="json")
    assert_error(response, 400, "invalid", field)
    assert not Challenge.objects.exists()


def test_a_bot_account_can_be_challenged_and_challenge(people):
    arya = people[0]
    bot = make_user(username="ironbot")
    bot.is_bot = True
    bot.save()
    body = challenge(client_for(arya), ["ironbot"]).json()
    assert body["invites"][0]["bot"] is True
    back = challenge(client_for(bot), ["arya"]).json()
    assert back["challenger_bot"] is True


def test_a_challenge_needs_an_account():
    assert_error(APIClient().post(URL, {}, format="json"), 401, "not_authenticated")
    assert_error(APIClient().get(URL), 401, "not_authenticated")


def test_the_home_page_reads_the_newest_ten_waiting_for_you_as_the_list_has_them(people):
    """challenges.services.waiting_for (the home page's, issue 27) reads only those waiting for your
    answer: the same, in the same order, as the first ten of the list's `in`."""
    from challenges import services

    arya, brienne, cersei = people
    for n in range(12):
        challenge(client_for(make_user(username=f"rival{n}")), ["brienne"])
    accepted = challenge(client_for(arya), ["brienne", "cersei"], ruleset="agot", seats=3).json()
    client_for(brienne).post(f"{URL}/{accepted['id']}/accept")  # waits for cersei: not for brienne
    challenge(client_for(brienne), ["arya"])  # sent by her
    listed = services.challenges_of(brienne)
    assert len(listed["in"]) == 12 and len(listed["accepted"]) == 1 and len(listed["out"]) == 1
    assert [c.pk for c in services.waiting_for(brienne, 10)] == [c.pk for c in listed["in"][:10]]
    assert [c.pk for c in services.waiting_for(cersei, 10)] == [accepted["id"]]


def test_the_api_writes_challenges_as_the_serializer_documents(people):
    """The list, one challenge and the answer to a change are written from the payload (challenges/api.py
    _rows, issue 27, thirteenth round): the same JSON as ChallengeSerializer's, field by field and in order,
    for a challenge of several players, one with a bot, one declined with its reason and one expired."""
    import json

    from challenges import services
    from challenges.serializers import ChallengeSerializer

    arya, brienne, cersei = people
    bot = make_user(username="ravenbot", is_bot=True)
    several = challenge(client_for(arya), ["brienne", "cersei"], ruleset="agot", options={"tides_of_battle": True})
    with_bot = challenge(client_for(brienne), ["ravenbot"])
    declined = challenge(client_for(cersei), ["brienne"]).json()
    client_for(brienne).post(f"{URL}/{declined['id']}/decline", {"reason": "later"}, format="json")
    expired = challenge(client_for(bot), ["arya"]).json()
    Challenge.objects.filter(pk=expired["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))

    def documented(challenge_id):
        found = services.with_people(Challenge.objects.filter(pk=challenge_id)).get()
        return json.loads(json.dumps(ChallengeSerializer(services.payload(found)).data))

    for made in (several, with_bot):
        assert made.json() == documented(made.json()["id"]) and list(made.json()) == list(documented(made.json()["id"]))
    for reader, challenge_id in ((brienne, declined["id"]), (arya, expired["id"]), (cersei, several.json()["id"])):
        answer = client_for(reader).get(f"{URL}/{challenge_id}").json()
        assert answer == documented(challenge_id) and list(answer) == list(documented(challenge_id))
    assert client_for(brienne).get(f"{URL}/{declined['id']}").json()["invites"][0]["reason_text"]
    listed = client_for(brienne).get(URL).json()
    assert [c["id"] for c in listed["in"]] == [several.json()["id"]]
    assert listed["in"] == [documented(c["id"]) for c in listed["in"]]
    assert listed["out"] == [documented(c["id"]) for c in listed["out"]] and listed["out"]
