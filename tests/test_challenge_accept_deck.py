"""The challenges page (issue 30): the person accepting a card-game challenge chooses the deck they bring, a
ready-made one or one of their saved legal decks (the API's accept takes the same); a deck that is not theirs
or not legal is refused in words and the challenge stays waiting; other games' challenges offer no deck."""
from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from challenges.models import Challenge, Invite
from challenges.services import ChallengeRequest, do_create_challenge
from games.models import Game
from tests.factories import make_user
from tests.test_lcg_saved_decks_play import playable_legal, save

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def challenge(challenger, opponent, ruleset="lcg", deck=""):
    return do_create_challenge(challenger, ChallengeRequest(ruleset=ruleset, users=[opponent.username],
                                                            time_limit=3600, deck=deck))


def accept_form(html: str, challenge_id: int) -> str:
    start = html.index(f'action="/challenges/{challenge_id}/accept/"')
    return html[start:html.index("</form>", start)]


def test_the_page_offers_the_accepting_player_their_saved_decks_and_the_ready_made_ones():
    alys, bran = make_user(username="alys"), make_user(username="bran")
    roses = save(bran, "Roses", **playable_legal("tyrell"))
    thin = save(bran, "Thin", **{**playable_legal(), "plots": playable_legal()["plots"][:6]})
    c = challenge(alys, bran)
    for path in ("/challenges/", "/"):
        form = accept_form(client_for(bran).get(path).content.decode(), c.pk)
        assert 'name="deck"' in form
        assert f'value="deck:{roses.pk}"' in form and "Roses (your deck)" in form
        assert f'value="deck:{thin.pk}"' not in form  # an illegal deck is not offered
        assert 'value="secrets_and_schemes"' in form and "drawn at random" in form
    # the challenger's own view of it has no accept form
    assert f'action="/challenges/{c.pk}/accept/"' not in client_for(alys).get("/challenges/").content.decode()


def test_accepting_with_a_saved_deck_starts_the_game_with_a_copy_of_it():
    alys, bran = make_user(username="alys"), make_user(username="bran")
    roses = save(bran, "Roses", **playable_legal("tyrell"))
    c = challenge(alys, bran, deck="secrets_and_schemes")
    answer = client_for(bran).post(f"/challenges/{c.pk}/accept/", {"deck": f"deck:{roses.pk}"})
    game = Game.objects.get(pk=Challenge.objects.get(pk=c.pk).game_id)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    seat = game.seat_for(bran).seat
    assert game.state["players"][seat]["faction"] == "tyrell"
    assert game.options["decks"][seat]["draw"] == roses.draw


def test_accepting_with_a_ready_made_deck():
    alys, bran = make_user(username="alys"), make_user(username="bran")
    c = challenge(alys, bran)
    client_for(bran).post(f"/challenges/{c.pk}/accept/", {"deck": "secrets_and_schemes"})
    game = Game.objects.get(pk=Challenge.objects.get(pk=c.pk).game_id)
    assert game.options["decks"][game.seat_for(bran).seat] == "secrets_and_schemes"


def page_text(response) -> str:
    text = re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
    return text


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_deck_that_is_not_yours_or_not_legal_is_refused_in_words(language):
    alys, bran = make_user(username="alys"), make_user(username="bran")
    hers = save(alys, "Gold")
    thin = save(bran, "Thin", **{**playable_legal(), "plots": playable_legal()["plots"][:6]})
    c = challenge(alys, bran)
    client = client_for(bran)
    client.cookies["django_language"] = language
    expected = {
        "en": ["That deck is not one of your saved decks.",
               "Thin cannot be played: The plot deck has 6 plots; it needs exactly seven."],
        "es": ["Ese mazo no es uno de tus mazos guardados.", "No se puede jugar con Thin:"],
    }[language]
    for deck, words in ((f"deck:{hers.pk}", expected[0]), (f"deck:{thin.pk}", expected[1])):
        answer = client.post(f"/challenges/{c.pk}/accept/", {"deck": deck}, follow=True)
        assert words in page_text(answer)
        assert Invite.objects.get(challenge=c, user=bran).status == Invite.Status.PENDING
    assert Challenge.objects.get(pk=c.pk).game_id is None


def test_other_games_challenges_offer_no_deck():
    alys, bran, _ = make_user(username="alys"), make_user(username="bran"), make_user(username="cersei")
    c = do_create_challenge(alys, ChallengeRequest(ruleset="agot", users=["bran", "cersei"], time_limit=3600))
    assert 'name="deck"' not in accept_form(client_for(bran).get("/challenges/").content.decode(), c.pk)


def test_the_blank_challenge_form_names_each_opponent_and_offers_each_reader_their_own_decks():
    """The blank challenge form is rendered once per process, language and game offered first (issue 27,
    thirteenth round); the opponent's name, the reader's saved decks and CSRF token are written into it: each
    reader sees their own decks and the opponent they challenge, and the form posted with the token given
    (CSRF checked) sends the challenge."""
    for language in ("en", "es"):
        readers = [make_user(), make_user()]
        opponents = [make_user(username=f"ygritte{language}"), make_user(username=f"tormund{language}")]
        roses = {user.pk: save(user, f"Roses of {user.username}", **playable_legal("tyrell")) for user in readers}
        for reader, opponent, other in ((readers[0], opponents[0], opponents[1]), (readers[1], opponents[1], opponents[0])):
            client = Client(enforce_csrf_checks=True)
            client.force_login(reader)
            page = client.get(f"/challenges/new/{opponent.username}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
            form = page[page.index('<form method="post" class="card lobby-form"'):]
            assert opponent.username in form and other.username not in page and "\x00" not in page
            theirs = roses[readers[1].pk if reader == readers[0] else readers[0].pk]
            assert f'value="deck:{roses[reader.pk].pk}"' in form and f'value="deck:{theirs.pk}"' not in form
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
            sent = client.post(f"/challenges/new/{opponent.username}/", {
                "ruleset": "lcg", "time_limit": "86400", "lcg_seats": "2", "my_deck": f"deck:{roses[reader.pk].pk}",
                "csrfmiddlewaretoken": token})
            assert sent.status_code == 302, sent.content[:400]
            assert Challenge.objects.filter(challenger=reader, invites__user=opponent).exists()
