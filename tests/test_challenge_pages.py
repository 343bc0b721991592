"""The challenge pages (issue 26): challenge a player or a bot account from their profile or the
list of bots, with the ruleset and its options (the lobby form's, web/forms.py); refusals are form
errors in words (the service's own checks and the rate limit, CHALLENGES_PER_HOUR); accept, decline
with a reason and cancel from the challenges page and from the home page; the game starts when
everyone accepted; the navigation counts the challenges waiting; the player challenged is notified
(e-mail, by their settings) with a link to the challenges page."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.core import mail
from django.test import Client

from challenges.models import Challenge, Invite
from challenges.services import DECLINE_REASONS, ChallengeRequest, do_create_challenge
from games.models import Game
from notifications.models import Kind, Notification
from notifications.services import deliver, do_update_settings
from ratings.models import Rating
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def people():
    return make_user(username="arya"), make_user(username="brienne"), make_user(username="cersei")


def send(client, to: str, **fields):
    body = {"ruleset": "lcg", "time_limit": "3600", **fields}
    return client.post(f"/challenges/new/{to}/", body)


def text_of(response) -> str:
    """The page's text, tags removed and spaces squeezed (what a reader sees)."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()
    return re.sub(r" ([:.,;])", r"\1", text)  # "<strong>B'Twixt</strong>:" reads "B'Twixt:"


def test_the_profile_offers_a_challenge_button_to_others_only(people):
    arya, brienne, _ = people
    page = client_for(arya).get("/users/brienne/")
    assert page.status_code == 200 and 'href="/challenges/new/brienne/"' in page.content.decode()
    assert "Challenge brienne" in text_of(page)
    own = client_for(arya).get("/users/arya/")
    assert "/challenges/new/" not in own.content.decode()
    visitor = Client().get("/users/brienne/")
    assert "/challenges/new/" not in visitor.content.decode()


def test_the_form_offers_every_game_with_its_options_in_words(people):
    arya, _, _ = people
    page = client_for(arya).get("/challenges/new/brienne/")
    assert page.status_code == 200
    html, text = page.content.decode(), text_of(page)
    for value in ("agot", "btwixt", "lcg", "minis"):
        assert f'<option value="{value}"' in html
    assert "Tides of Battle" in text and "Short game" in text and "Random terrain" in text
    assert "1 day" in text and "2 minutes" in text  # the lobby form's time limits, in words
    assert 'name="seats"' in html and 'name="others"' in html
    # a player with no games yet: the card game first (two players: just you and them)
    assert re.search(r'<option value="lcg"\s+selected', html)


def test_a_challenge_from_the_form_reaches_the_service_with_its_options(people):
    arya, brienne, cersei = people
    client = client_for(arya)
    response = send(client, "brienne", ruleset="btwixt", seats="3", others="cersei", btwixt_short="on",
                    btwixt_draft="on", ranked="on", time_limit="86400")
    assert response.status_code == 302 and response["Location"] == "/challenges/"
    challenge = Challenge.objects.get()
    assert challenge.challenger == arya and challenge.ruleset == "btwixt" and challenge.ranked
    assert challenge.options == {"short": True, "draft": True} and challenge.time_limit == 86400
    assert [i.user.username for i in challenge.invites.all()] == ["brienne", "cersei"]
    page = client.get("/challenges/")
    assert "Challenge sent to brienne and cersei." in text_of(page)


def test_agot_and_minis_options_reach_the_challenge(people):
    arya, _, _ = people
    client = client_for(arya)
    assert send(client, "brienne", ruleset="agot", seats="3", others="cersei", tides_of_battle="on").status_code == 302
    assert send(client, "cersei", ruleset="minis", random_terrain="on").status_code == 302
    agot, minis = Challenge.objects.order_by("id")
    assert agot.options == {"tides_of_battle": True}
    assert minis.options == {"mode": "here_we_stand", "terrain": "random"}
    assert [i.user.username for i in minis.invites.all()] == ["cersei"]


def test_a_two_player_game_ignores_the_hidden_names(people):
    arya, _, _ = people
    assert send(client_for(arya), "brienne", ruleset="lcg", others="cersei").status_code == 302
    assert [i.user.username for i in Challenge.objects.get().invites.all()] == ["brienne"]


@pytest.mark.parametrize("fields, words", [
    ({"ruleset": "agot", "seats": "3"}, "you chose 3 players, so name 2 players to challenge besides you; you named brienne"),
    ({"ruleset": "btwixt", "seats": "4", "others": "cersei"}, "so name 3 players"),
    ({"ruleset": "agot", "seats": "3", "others": "nobody_here"}, "No player named 'nobody_here'"),
    ({"ruleset": "agot", "seats": "3", "others": "arya"}, "You cannot challenge yourself"),
    ({"ruleset": "agot", "seats": "9", "others": "cersei"}, "played by 3 to 6 players"),
    ({"ruleset": "chess"}, "Choose one of the games in the list."),
    ({"time_limit": "7"}, "Time per decision: choose one of the times in the list."),
    ({"ranked": "maybe"}, "Ranked: tick the box or leave it empty."),
    ({"ruleset": "minis", "minis_mode": "a_clash_of_kings"}, "A Clash of Kings is not available yet"),
])
def test_refusals_are_form_errors_in_words(people, fields, words):
    arya, _, _ = people
    response = send(client_for(arya), "brienne", **fields)
    assert response.status_code == 400, response.content[:300]
    text = text_of(response)
    assert "The challenge was not sent:" in text and words in text, text[:1500]
    assert not Challenge.objects.exists()


def test_the_rate_limit_is_a_form_error_saying_when_to_try_again(people, settings):
    settings.CHALLENGES_PER_HOUR = 2
    arya, _, _ = people
    client = client_for(arya)
    assert send(client, "brienne").status_code == 302 and send(client, "cersei").status_code == 302
    refused = send(client, "brienne")
    assert refused.status_code == 429
    text = text_of(refused)
    assert "You have sent 2 challenges in the last hour, the most allowed: you can send the next one in" in text
    assert re.search(r"next one in (1 hour|59 minutes)[ .]", text), text
    assert Challenge.objects.count() == 2


def test_unknown_and_own_names(people):
    arya, _, _ = people
    client = client_for(arya)
    assert client.get("/challenges/new/nobody/").status_code == 404
    own = client.get("/challenges/new/arya/")
    assert own.status_code == 302 and own["Location"] == "/users/arya/"
    assert Client().get("/challenges/new/brienne/").status_code == 302  # to the log-in page


def challenge(challenger, *names, ruleset="lcg", **extra) -> Challenge:
    return do_create_challenge(challenger, ChallengeRequest(ruleset=ruleset, users=list(names), time_limit=3600, **extra))


def test_the_challenges_page_lists_incoming_and_outgoing_in_words(people):
    arya, brienne, _ = people
    challenge(arya, "brienne", ruleset="minis", options={"mode": "here_we_stand", "terrain": "random"}, ranked=True)
    incoming = text_of(client_for(brienne).get("/challenges/"))
    assert ("arya challenges you to a ranked game of A Song of Ice and Fire: Tabletop Miniatures: "
            "1 hour per decision. Options: Here We Stand") in incoming, incoming
    assert "Accept" in incoming and "Decline" in incoming and DECLINE_REASONS["later"] in incoming
    outgoing = text_of(client_for(arya).get("/challenges/"))
    assert "brienne: not answered yet" in outgoing and "Cancel this challenge" in outgoing
    assert "No challenge is waiting for your answer." in outgoing
    assert "minis" not in incoming and "here_we_stand" not in incoming  # names, never codes


def test_accepting_from_the_page_starts_the_game_and_goes_there(people):
    arya, brienne, _ = people
    c = challenge(arya, "brienne")
    response = client_for(brienne).post(f"/challenges/{c.pk}/accept/", {"next": "/"})
    c.refresh_from_db()
    assert c.status == Challenge.Status.STARTED and c.game_id
    assert response.status_code == 302 and response["Location"] == f"/games/{c.game_id}/"
    game = Game.objects.get(pk=c.game_id)
    assert game.is_active() and {s.user.username for s in game.seats.all()} == {"arya", "brienne"}
    # the challenger's page now names the game
    assert f'href="/games/{c.game_id}/"' in client_for(arya).get("/challenges/").content.decode()


def test_with_several_players_the_game_waits_for_the_last_accept(people):
    arya, brienne, cersei = people
    c = challenge(arya, "brienne", "cersei", ruleset="btwixt")
    client = client_for(brienne)
    first = client.post(f"/challenges/{c.pk}/accept/")
    assert first.status_code == 302 and first["Location"] == "/challenges/"
    page = text_of(client.get("/challenges/"))
    assert "You accepted. The game starts when cersei has accepted too." in page
    assert "Accepted, waiting for the others" in page and "cersei: not answered yet" in page
    assert not Game.objects.exists()
    last = client_for(cersei).post(f"/challenges/{c.pk}/accept/")
    c.refresh_from_db()
    assert last["Location"] == f"/games/{c.game_id}/" and Game.objects.get(pk=c.game_id).seats.count() == 3


def test_declining_with_a_reason_tells_the_challenger_in_words(people):
    arya, brienne, _ = people
    c = challenge(arya, "brienne")
    response = client_for(brienne).post(f"/challenges/{c.pk}/decline/", {"reason": "too_fast", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    c.refresh_from_db()
    assert c.status == Challenge.Status.DECLINED and c.invites.get().reason == "too_fast"
    page = text_of(client_for(arya).get("/challenges/"))
    assert f"brienne declined: “{DECLINE_REASONS['too_fast']}”" in page and "too_fast" not in page


def test_a_bad_reason_or_a_second_answer_is_a_message_in_words(people):
    arya, brienne, _ = people
    c = challenge(arya, "brienne")
    client = client_for(brienne)
    bad = client.post(f"/challenges/{c.pk}/decline/", {"reason": "bored"}, follow=True)
    assert "Choose one of:" in text_of(bad)
    assert Challenge.objects.get().status == Challenge.Status.PENDING
    client.post(f"/challenges/{c.pk}/decline/", {"reason": "later"})
    again = client.post(f"/challenges/{c.pk}/accept/", follow=True)
    assert again.status_code == 200 and "This challenge is declined." in text_of(again)


def test_only_the_challenger_cancels_and_strangers_get_404(people):
    arya, brienne, cersei = people
    c = challenge(arya, "brienne")
    refused = client_for(brienne).post(f"/challenges/{c.pk}/cancel/", follow=True)
    assert "Only the challenger can cancel a challenge; decline it instead." in text_of(refused)
    assert client_for(cersei).post(f"/challenges/{c.pk}/accept/").status_code == 404
    assert client_for(arya).post(f"/challenges/{c.pk}/shout/").status_code == 404
    assert client_for(arya).get(f"/challenges/{c.pk}/accept/").status_code == 405
    done = client_for(arya).post(f"/challenges/{c.pk}/cancel/", follow=True)
    assert "Your challenge is canceled." in text_of(done)
    assert Challenge.objects.get().status == Challenge.Status.CANCELED


def test_an_outside_next_address_is_not_followed(people):
    arya, brienne, _ = people
    c = challenge(arya, "brienne")
    response = client_for(brienne).post(f"/challenges/{c.pk}/decline/", {"next": "https://evil.example/"})
    assert response["Location"] == "/challenges/"


def test_the_home_page_shows_the_challenges_waiting_with_accept_and_decline(people):
    arya, brienne, _ = people
    empty = client_for(brienne).get("/")
    assert "Challenges for you" not in text_of(empty)
    c = challenge(arya, "brienne", ruleset="lcg")
    home = client_for(brienne).get("/")
    html, text = home.content.decode(), text_of(home)
    assert "Challenges for you" in text
    assert "arya challenges you to a casual game of A Game of Thrones: The Card Game" in text
    assert f'action="/challenges/{c.pk}/accept/"' in html and f'action="/challenges/{c.pk}/decline/"' in html
    assert "Challenges for you" not in text_of(client_for(arya).get("/"))  # the challenger's is not theirs to answer
    # accepted from the home page: to the game
    response = client_for(brienne).post(f"/challenges/{c.pk}/accept/", {"next": "/"})
    c.refresh_from_db()
    assert response["Location"] == f"/games/{c.game_id}/"
    assert "Challenges for you" not in text_of(client_for(brienne).get("/"))


def test_the_navigation_counts_the_challenges_waiting(people):
    arya, brienne, cersei = people
    assert "Challenges" in text_of(client_for(brienne).get("/lobbies/"))
    challenge(arya, "brienne")
    challenge(cersei, "brienne")
    text = text_of(client_for(brienne).get("/lobbies/"))
    assert "Challenges (2)" in text
    assert "Challenges (" not in text_of(client_for(arya).get("/lobbies/"))
    assert "/challenges/" not in Client().get("/lobbies/").content.decode()


def test_the_bot_list_names_the_bots_their_games_and_ratings(people):
    arya, _, _ = people
    bot = make_user(username="maester_bot", is_bot=True)
    make_user(username="quiet_bot", is_bot=True)
    Rating.objects.create(user=bot, ruleset="btwixt", rating=1612.4, games=12)
    from tests.factories import make_game

    make_game(3, ruleset="btwixt", users=[bot, make_user(), make_user()])
    page = client_for(arya).get("/bots/")
    text, html = text_of(page), page.content.decode()
    assert page.status_code == 200
    assert "maester_bot BOT" in text and "quiet_bot BOT" in text and "arya" not in text.split("Bots", 2)[-1]
    assert "B'Twixt: 1612, 12 ranked games" in text and "none yet" in text and "not rated yet" in text
    assert 'href="/challenges/new/maester_bot/"' in html
    # the form for a bot offers the game it plays first
    form = client_for(arya).get("/challenges/new/maester_bot/").content.decode()
    assert re.search(r'<option value="btwixt"\s+selected', form)
    assert "Log in to challenge" in text_of(Client().get("/bots/"))


def test_a_bot_is_challenged_from_the_page_like_a_person(people):
    arya, _, _ = people
    make_user(username="maester_bot", is_bot=True)
    assert send(client_for(arya), "maester_bot").status_code == 302
    assert Invite.objects.get().user.username == "maester_bot"


def test_the_player_challenged_is_notified_with_a_link_to_the_challenges_page(people, settings,
                                                                             django_capture_on_commit_callbacks):
    settings.NOTIFY_OUTBOX_ONLY = True
    arya, brienne, cersei = people
    do_update_settings(cersei, email_challenge=False)
    with django_capture_on_commit_callbacks(execute=True):
        send(client_for(arya), "brienne", ruleset="btwixt", seats="3", others="cersei", ranked="on",
             btwixt_short="on")
    note = Notification.objects.get()  # cersei switched challenge e-mails off (and has no webhook)
    assert note.user == brienne and note.kind == Kind.CHALLENGE and note.game is None
    assert deliver(note.pk).emailed
    message = mail.outbox[-1]
    assert message.to == ["brienne@example.com"]
    assert message.subject == "[Westeros] arya challenges you to B'Twixt"
    assert message.body.startswith("arya challenges you to a ranked game of B'Twixt, 1 hour per decision, with "
                                   "cersei. Options: Short game. Accept or decline on your challenges page before "), \
        message.body
    assert message.body.rstrip().endswith("/challenges/")
    assert "btwixt" not in message.body and "short" not in message.body.split("Options")[0]
    # once per challenge and player: saving the challenge again decides nothing more
    with django_capture_on_commit_callbacks(execute=True):
        Challenge.objects.get().save()
    assert Notification.objects.count() == 1


def test_the_notification_settings_page_offers_the_challenge_switches(people):
    arya, _, _ = people
    text = text_of(client_for(arya).get("/accounts/notifications/"))
    assert "E-mail: someone challenged you" in text and "Webhook: someone challenged you" in text
