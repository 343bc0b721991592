"""What the busiest pages keep rendered in the cache (issue 27), and that none of it is ever stale
where a person must see it fresh:
- a tournament's standings, rounds and players, kept per event version and language for everyone but
  its organizers (tournaments/views.py): every change of the event (it locks the event) is a new
  version, so a result recorded by a game's end, a registration or an adjudication shows at once;
- the home page's open lobbies, kept until a lobby or a member is saved or deleted (web/views.py,
  home_lobbies_html; games/kept_versions.py): a lobby that fills or opens shows once that commits;
- a row of My games that does not await you, kept under its values (web/views.py, _rendered_rows):
  a game that ends shows as finished at once; a row awaiting you is rendered afresh;
- a profile's rating charts, kept per history stamp and language (ratings_tags.charts_html);
- a challenge waiting for your answer, with its Accept and Decline forms, kept under its values (the
  home page and the challenges page: challenges/views.py, incoming_rows_html): an answer, a renamed
  player or a new deck shows at once; the time left and the forms' CSRF token are written per visit;
- a row of the tokens page, kept in the process under all it shows (accounts/views.py, token_rows_html):
  a token used or renamed shows at once; its revoke form's CSRF token is written per visit."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from challenges.models import Invite
from challenges.services import ChallengeRequest, do_create_challenge, do_decline
from games.models import Game, GameSeat, LobbyMember
from games.services.play import do_concede
from tests.factories import make_game, make_lobby, make_user
from tournaments import services
from tournaments.models import Round, Table
from tournaments.services import TournamentSettings

pytestmark = pytest.mark.django_db


def running_cup():
    organizer = make_user()
    t = services.do_create_tournament(organizer, TournamentSettings(name="Cup", time_limit=3600, seats_per_table=3,
                                                                    rounds=2))
    players = [make_user() for _ in range(6)]
    for user in players:
        services.do_register(t.pk, user)
    services.do_start(t.pk, organizer)
    return t, organizer, players


def page(client, t, **headers) -> str:
    response = client.get(reverse("tournament", args=[t.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_a_tournament_page_is_kept_for_visitors_and_shows_each_change_at_once():
    t, organizer, players = running_cup()
    visitor = Client()
    first, second = Round.objects.get(tournament=t, number=1).tables.order_by("number")
    before = page(visitor, t)
    assert before.count("watch Game") == 2 and "decided by the organizers" not in before
    url = reverse("tournament", args=[t.pk])
    afresh = queries(Client(), url)  # this client's first visit renders it if nobody has (it was)
    assert queries(visitor, url) == afresh <= 2  # kept: the event and its co-organizers
    # a table decided by the organizers: a visitor sees it at once, not the kept copy
    services.do_adjudicate(t.pk, organizer, first.pk, list(reversed(first.game.seat_names())))
    assert "decided by the organizers" in page(visitor, t)
    # a table whose players all left: recorded by the game's end (no organizer), shown at once
    for seat in GameSeat.objects.filter(game=second.game):
        do_concede(second.game_id, seat.user)
    shown = page(visitor, t)
    assert Table.objects.get(pk=second.pk).status == Table.Status.FINISHED
    assert "Round 2" in shown and shown.count("watch Game") == 4


def test_the_organizers_page_is_never_the_kept_one_and_languages_are_kept_apart():
    t, organizer, players = running_cup()
    page(Client(), t)  # kept for visitors
    as_organizer = Client()
    as_organizer.force_login(organizer)
    assert "Decide the result of table 1" in page(as_organizer, t)
    assert "Decide the result of table 1" not in page(Client(), t)
    as_player = Client()
    as_player.force_login(players[0])
    mine = page(as_player, t)
    assert "Decide the result" not in mine and "You are" in mine  # the player's own status, read for them
    english, spanish = page(Client(), t, HTTP_ACCEPT_LANGUAGE="en"), page(Client(), t, HTTP_ACCEPT_LANGUAGE="es")
    assert "Standings" in english and "Clasificación" in spanish and "Standings" not in spanish


def test_a_registration_shows_at_once():
    organizer = make_user()
    t = services.do_create_tournament(organizer, TournamentSettings(name="Open cup", time_limit=3600))
    first = make_user()
    services.do_register(t.pk, first)
    assert first.username in page(Client(), t)
    late = make_user()
    services.do_register(t.pk, late)
    assert late.username in page(Client(), t)


def test_the_home_pages_lobbies_show_a_change_once_it_commits(django_capture_on_commit_callbacks,
                                                                django_assert_max_num_queries):
    from web.views import home_lobbies_html

    lobby = make_lobby(name="Come in")
    visitor = Client()
    assert "Come in" in visitor.get("/").content.decode()
    seats = f"{lobby.members.count() + lobby.computer_seats}/{lobby.seat_count}"
    assert seats in visitor.get("/").content.decode()
    with django_assert_max_num_queries(0):  # kept: no lobby read until one changes
        home_lobbies_html()
    with django_capture_on_commit_callbacks() as on_commit:
        LobbyMember.objects.create(lobby=lobby, user=make_user())  # someone joined
    now = f"{lobby.members.count() + lobby.computer_seats}/{lobby.seat_count}"
    assert now != seats and seats in visitor.get("/").content.decode()  # not committed yet: the kept copy
    for callback in on_commit:  # the commit
        callback()
    assert now in visitor.get("/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        other = make_lobby(name="Another table")
    assert "Another table" in visitor.get("/").content.decode()
    assert "Come in" in Client().get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        other.delete()
    assert "Another table" not in visitor.get("/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        LobbyMember.objects.filter(lobby=lobby).last().delete()  # someone left
    assert seats in visitor.get("/").content.decode()


def test_the_lobby_lists_rows_show_a_change_at_once():
    """A page of the lobby list is kept rendered under its rows (web/views.py, lobby_list_html): a lobby
    that fills, opens or changes shows at the next visit, in each language its own words."""
    lobby = make_lobby(name="Come in")
    visitor = Client()
    url = reverse("web-lobbies")
    taken = lobby.members.count() + lobby.computer_seats
    assert f"{taken} of {lobby.seat_count} taken" in visitor.get(url).content.decode()
    LobbyMember.objects.create(lobby=lobby, user=make_user())  # someone joined
    assert f"{taken + 1} of {lobby.seat_count} taken" in visitor.get(url).content.decode()
    make_lobby(name="Another table")
    assert "Another table" in visitor.get(url).content.decode()
    type(lobby).objects.filter(pk=lobby.pk).update(name="Renamed table")
    shown = visitor.get(url).content.decode()
    assert "Renamed table" in shown and "Come in" not in shown
    spanish = Client().get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"{taken + 1} de {lobby.seat_count} ocupados" in spanish and "taken" not in spanish


def test_a_leaderboards_rows_show_a_change_at_once():
    """A page of a leaderboard is kept rendered under its rows (web/views.py, leaderboard_html): a rating
    that changes, a rating settled, a new player or a rename shows at the next visit, in each language."""
    from ratings.models import Rating

    first, second = make_user(), make_user()
    mine = Rating.objects.create(user=first, ruleset="agot", rating=1620, games=3, last_played=timezone.now())
    Rating.objects.create(user=second, ruleset="agot", rating=1580, games=30, last_played=timezone.now())
    url = reverse("web-leaderboard", args=["agot"])
    shown = Client().get(url).content.decode()
    assert shown.index(first.username) < shown.index(second.username) and "<td>1620" in shown
    assert "(provisional)" in shown.split(first.username, 1)[1].split("</tr>", 1)[0]
    Rating.objects.filter(pk=mine.pk).update(rating=1550, games=40)  # a game rated: below, and settled
    shown = Client().get(url).content.decode()
    assert shown.index(second.username) < shown.index(first.username) and "<td>1550" in shown
    assert "(provisional)" not in shown
    type(first).objects.filter(pk=first.pk).update(username="renamed_player")
    assert "renamed_player" in Client().get(url).content.decode()
    third = make_user()
    Rating.objects.create(user=third, ruleset="agot", rating=1700, games=30, last_played=timezone.now())
    assert third.username in Client().get(url).content.decode()
    spanish = Client().get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "renamed_player" in spanish and "Ranked games" not in spanish


def test_a_profiles_recent_games_show_a_change_at_once():
    """A profile's recent games are kept rendered under their rows (ratings_tags.recent_games_html): a
    new game, a game that ends and its place show at the next visit, in each language its own words."""
    me = make_user()
    game = make_game(3, users=[me, make_user(), make_user()])
    url = reverse("public-profile", args=[me.username])

    def recent(**headers) -> str:
        return Client().get(url, **headers).content.decode().split('<table class="recent-games', 1)[1]

    assert f"game #{game.pk}" in recent() and ">active<" in recent()
    seat = game.seats.get(user=me).seat
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now(),
                                           ranking=[seat, *[s for s in game.seat_names() if s != seat]])
    shown = recent()
    assert ">finished<" in shown and ">1</td>" in shown
    second = make_game(3, users=[me, make_user(), make_user()])
    assert f"game #{second.pk}" in recent()
    spanish = recent(HTTP_ACCEPT_LANGUAGE="es")
    assert f"partida n.º {second.pk}" in spanish and ">finished<" not in spanish


def test_my_games_shows_a_game_that_ended_at_once():
    me, others = make_user(), [make_user(), make_user()]
    game = make_game(3, users=[me, *others])
    client = Client()
    client.force_login(me)
    url = reverse("web-my-games")
    row = client.get(url).content.decode()
    assert reverse("web-replay", args=[game.pk]) not in row  # in progress: no replay yet
    client.get(url)
    # the game ends (its status is what a row's key holds): the row says so at the next visit
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    GameSeat.objects.filter(game=game).update(deadline_at=None)
    shown = client.get(url).content.decode()
    assert reverse("web-replay", args=[game.pk]) in shown and "finished" in shown


def test_a_profiles_charts_show_a_game_rated_after_they_were_kept():
    users = [make_user() for _ in range(3)]

    def rated_game(seed):
        game = make_game(3, users=users, ranked=True, seed=seed)
        for seat in game.seats.filter(user__isnull=False).order_by("position"):
            do_concede(game.pk, seat.user)

    rated_game(1)
    url = reverse("public-profile", args=[users[0].username])
    assert "over 1 ranked game" in Client().get(url).content.decode()
    rated_game(2)
    assert "over 2 ranked games" in Client().get(url).content.decode()


def test_my_games_writes_the_time_left_at_each_visit_and_a_new_decision_at_once(monkeypatch):
    me = make_user()
    game = make_game(3, users=[me, make_user(), make_user()])
    GameSeat.objects.filter(game=game).update(deadline_at=None)
    client = Client()
    client.force_login(me)
    url = reverse("web-my-games")
    assert "awaiting you" not in client.get(url).content.decode()
    # a decision of yours comes: the row awaits you at once, with its deadline
    GameSeat.objects.filter(game=game, user=me).update(deadline_at=timezone.now() + timedelta(hours=3))
    shown = client.get(url).content.decode()
    assert "awaiting you" in shown and "2\xa0hours" in shown
    # the kept row is the same; the time left is written at each visit
    monkeypatch.setattr("web.views.timeuntil_filter", lambda deadline: "a moment")
    assert "awaiting you · <span" in client.get(url).content.decode()
    assert ">a moment</span>" in client.get(url).content.decode()


def home_games(html: str) -> str:
    """The home page's games in progress (its table)."""
    return html.split('<table class="my-games">', 1)[1].split("</table>", 1)[0]


def test_the_home_pages_games_in_progress_show_each_change_at_once(monkeypatch):
    """The home page's games in progress are kept rendered under their rows (web/views.py, my_games_html):
    a decision that comes, a game that ends or starts shows at the next visit, the time left is written
    at each visit, and each language reads its own words."""
    me = make_user()
    game = make_game(3, users=[me, make_user(), make_user()])
    GameSeat.objects.filter(game=game).update(deadline_at=None)
    client = Client()
    client.force_login(me)
    shown = home_games(client.get("/").content.decode())
    assert f"Game {game.pk}" in shown and "waiting for others" in shown
    # a decision of yours comes: the row awaits you at once, with the time left
    GameSeat.objects.filter(game=game, user=me).update(deadline_at=timezone.now() + timedelta(hours=3))
    shown = home_games(client.get("/").content.decode())
    assert "your move" in shown and "2\xa0hours" in shown
    monkeypatch.setattr("web.views.timeuntil_filter", lambda deadline: "a moment")
    assert ">a moment</span>" in home_games(client.get("/").content.decode())
    spanish = home_games(client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert f"Partida {game.pk}" in spanish and "your move" not in spanish
    # another game starts, and the first ends: both show at once
    second = make_game(3, users=[me, make_user(), make_user()])
    assert f"Game {second.pk}" in home_games(client.get("/").content.decode())
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    shown = home_games(client.get("/").content.decode())
    assert f"Game {game.pk}<" not in shown and f"Game {second.pk}" in shown
    # the query is compiled once per process (westeros/compiled.py): another player reads their own games
    someone = Client()
    someone.force_login(make_user())
    assert "No game in progress." in someone.get("/").content.decode()


class Unreachable:
    """A cache whose server is down (Redis refused the connection)."""

    def __getattr__(self, name):
        def refuse(*args, **kwargs):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        return refuse


def test_without_the_cache_the_pages_are_rendered_afresh(monkeypatch):
    """A kept fragment is a saving, never a need (westeros/kept.py): with the cache unreachable the
    pages that keep fragments still answer, rendered afresh."""
    from tournaments import services as tournament_services
    from westeros import kept

    t, organizer, players = running_cup()
    monkeypatch.setattr(kept, "cache", Unreachable())
    monkeypatch.setattr(tournament_services, "cache", Unreachable())
    assert "watch Game" in page(Client(), t)
    assert t.name in Client().get(reverse("tournaments")).content.decode()
    make_lobby(name="Come in")
    assert "Come in" in Client().get("/").content.decode()
    me = players[0]
    client = Client()
    client.force_login(me)
    assert "awaiting you" in client.get(reverse("web-my-games")).content.decode()
    assert "Rating history" in client.get(reverse("public-profile", args=[me.username])).content.decode()


def incoming_section(html: str) -> str:
    """The home page's challenges waiting for an answer (its section), or the challenges page's list."""
    start = html.find('<section class="home-challenges">')
    start = start if start >= 0 else html.find('<ul class="challenges" id="incoming">')
    assert start >= 0, "no challenge listed"
    return html[start:html.find("</ul>", start)]


def test_a_challenge_row_is_the_template_rendered_afresh_and_shows_each_change_at_once(monkeypatch):
    """The kept rows read as _incoming.html renders each row (the same bytes but for the CSRF token's mask),
    their forms post with the page's token, and a challenge answered by another player, a renamed
    challenger or another time left shows at the next visit, in the reader's language."""
    from challenges import views as challenge_views
    from westeros import kept

    me, challenger, third = make_user(), make_user(), make_user()
    do_create_challenge(challenger, ChallengeRequest(ruleset="agot", users=[me.username, third.username],
                                                     time_limit=3600, ranked=True))
    card_game = do_create_challenge(challenger, ChallengeRequest(ruleset="lcg", users=[me.username],
                                                                 time_limit=86400))
    client = Client(enforce_csrf_checks=True)
    client.force_login(me)
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    for url in ("/", reverse("challenges")):
        kept_rows = incoming_section(client.get(url).content.decode())
        kept_again = incoming_section(client.get(url).content.decode())  # read from the cache
        monkeypatch.setattr(kept, "cache", Unreachable())  # rendered afresh by the template, row by row
        afresh = incoming_section(client.get(url).content.decode())
        monkeypatch.undo()
        assert token.sub("", kept_rows) == token.sub("", kept_again) == token.sub("", afresh)
        assert len(token.findall(kept_rows)) == 4 and "\x00" not in kept_rows
        # a challenge waits a day for its answers whatever its game's time limit (CHALLENGE_EXPIRY_SECONDS)
        assert kept_rows.count("Answer within 23\xa0hours") == 2
        assert "ranked game of" in kept_rows and third.username in kept_rows and "Your deck" in kept_rows
    # the other player declined: the challenge no longer waits for anyone, gone at once
    agot = Invite.objects.get(user=third, challenge__ruleset="agot").challenge
    do_decline(agot.pk, third)
    assert "ranked game of" not in incoming_section(client.get("/").content.decode())
    # the challenger renamed: the row says the new name at once
    challenger.username = "renamed_challenger"
    challenger.save()
    assert "renamed_challenger" in incoming_section(client.get("/").content.decode())
    # the time left is written at each visit, into the kept row
    monkeypatch.setattr(challenge_views, "timeuntil_words", lambda when: "a moment")
    assert "Answer within a moment." in incoming_section(client.get("/").content.decode())
    monkeypatch.undo()
    # in the other language, the row in its words
    spanish = incoming_section(client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert "Rechazar" in spanish and "para responder" in spanish and "Decline" not in spanish
    # a kept row's form posts with the page's CSRF token: declining works (a wrong token is refused)
    html = client.get("/").content.decode()
    form = html[html.index(f'action="/challenges/{card_game.pk}/decline/"'):]
    assert client.post(f"/challenges/{card_game.pk}/decline/", {"reason": "generic", "next": "/"}).status_code == 403
    answer = client.post(f"/challenges/{card_game.pk}/decline/",
                         {"reason": "generic", "next": "/", "csrfmiddlewaretoken": token.search(form).group(1)})
    assert answer.status_code == 302
    assert Invite.objects.get(challenge=card_game, user=me).status == Invite.Status.DECLINED


def test_the_challenges_pages_other_lists_are_kept_and_show_each_change_at_once(monkeypatch):
    """Your challenges, the accepted ones and those answered lately are kept rendered per row
    (challenges/views.py, kept_rows_html), the same bytes as the templates render afresh (but for the
    CSRF token); an answer, a rename or the time left shows at the next visit, in the reader's language,
    and the Cancel form posts with the page's token."""
    from challenges import views as challenge_views
    from westeros import kept

    me, first, second = make_user(), make_user(), make_user()
    mine = do_create_challenge(me, ChallengeRequest(ruleset="agot", users=[first.username, second.username],
                                                    time_limit=3600, ranked=True))
    client = Client(enforce_csrf_checks=True)
    client.force_login(me)
    url = reverse("challenges")
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

    def lists(**headers) -> str:
        html = client.get(url, **headers).content.decode()
        return html[html.index('<h2>', html.index('id="incoming"') if 'id="incoming"' in html else 0):]

    kept_rows, kept_again = lists(), lists()
    monkeypatch.setattr(kept, "cache", Unreachable())
    afresh = lists()
    monkeypatch.undo()
    assert token.sub("", kept_rows) == token.sub("", kept_again) == token.sub("", afresh)
    assert "A ranked game of" in kept_rows and "It expires in 23\xa0hours" in kept_rows and "\x00" not in kept_rows
    assert kept_rows.count(f"{first.username}: not answered yet") == 1
    # an answer shows at once; a rename too
    do_decline(mine.pk, first, "generic")
    shown = lists()
    assert "A ranked game of" not in shown and "Answered lately" in shown and first.username in shown
    second.username = "renamed_invitee"
    second.save()
    assert "renamed_invitee" in lists()
    # a new challenge of yours, its time left written at each visit
    another = do_create_challenge(me, ChallengeRequest(ruleset="lcg", users=[first.username], time_limit=86400))
    monkeypatch.setattr(challenge_views, "timeuntil_words", lambda when: "a moment")
    assert "It expires in a moment." in lists()
    monkeypatch.undo()
    spanish = lists(HTTP_ACCEPT_LANGUAGE="es")
    assert "Cancel this challenge" not in spanish and "renamed_invitee" in spanish
    # the kept row's Cancel form posts with the page's token
    html = client.get(url).content.decode()
    form = html[html.index(f'action="/challenges/{another.pk}/cancel/"'):]
    assert client.post(f"/challenges/{another.pk}/cancel/", {}).status_code == 403
    assert client.post(f"/challenges/{another.pk}/cancel/",
                       {"csrfmiddlewaretoken": token.search(form).group(1)}).status_code == 302


def test_the_tokens_pages_rows_are_kept_and_show_each_change_at_once():
    """Each row as the template renders it, rendered once for its values: a token used since shows when,
    in the reader's language, and its revoke form posts with the page's CSRF token."""
    from accounts.models import ApiToken

    me = make_user()
    used, _ = ApiToken.issue(me, "nightly script")
    ApiToken.issue(me, "bot")
    client = Client(enforce_csrf_checks=True)
    client.force_login(me)
    first = client.get(reverse("tokens"))
    assert "accounts/_token_row.html" in [t.name for t in first.templates]
    again = client.get(reverse("tokens"))
    assert "accounts/_token_row.html" not in [t.name for t in again.templates]  # kept
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    html = again.content.decode()
    assert '"token-name">nightly script<' in html and html.count(">Revoke</button>") == 2 and "\x00" not in html
    assert token.sub("", first.content.decode()) == token.sub("", html)  # the same rows but for the token's mask
    # used since: the row says when, at once
    ApiToken.objects.filter(pk=used.pk).update(last_used_at=timezone.now().replace(year=2030, month=3, day=4))
    html = client.get(reverse("tokens")).content.decode()
    assert "4 Mar 2030" in html and html.count(">never<") == 1
    assert "4 Mar 2030" in client.get(reverse("tokens"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Revocar" in client.get(reverse("tokens"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    # the kept row's form posts with the page's token (a wrong one is refused)
    form = html[html.index(f'action="{reverse("revoke-token", args=[used.pk])}"'):]
    assert client.post(reverse("revoke-token", args=[used.pk])).status_code == 403
    done = client.post(reverse("revoke-token", args=[used.pk]), {"csrfmiddlewaretoken": token.search(form).group(1)})
    assert done.status_code == 302 and ApiToken.objects.get(pk=used.pk).revoked_at is not None
    html = client.get(reverse("tokens")).content.decode()
    assert '"token-name">nightly script<' not in html and '"token-name">bot<' in html
