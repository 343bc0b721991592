"""Game chat over REST: membership (the table for everyone at it, each pair's channel for that pair
only, spectators read the table when the game allows), the private-chat option, cleaning, escaping,
length and rate limits, persistence and paginated history, the one error format."""
from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from chat import services as chat
from chat.models import ChatMessage
from games.errors import GameError
from games.models import Game
from tests.factories import api_client_for, make_game, make_user

pytestmark = pytest.mark.django_db


def chat_url(game: Game) -> str:
    return reverse("api-game-chat", args=[game.pk])


def players(game: Game) -> dict:
    return {s.seat: s.user for s in game.seats.select_related("user")}


def post(user, game: Game, channel: str, text: str):
    return api_client_for(user).post(chat_url(game), {"channel": channel, "text": text}, format="json")


def read(client: APIClient, game: Game, channel: str, **params):
    return client.get(chat_url(game), {"channel": channel, **params})


@pytest.fixture
def game() -> Game:
    return make_game()


@pytest.fixture
def seats(game) -> dict:
    return players(game)


def test_a_table_message_is_stored_and_read_by_every_seat_and_spectators(game, seats):
    first, *others = game.seat_names()
    response = post(seats[first], game, "table", "Winter is coming.")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["channel"] == "table" and body["seat"] == first and body["sender"] == seats[first].username
    message = ChatMessage.objects.get()
    assert (message.game_id, message.channel, message.sender, message.sender_seat, message.text) == (
        game.pk, "table", seats[first], first, "Winter is coming.")
    for reader in [api_client_for(seats[s]) for s in others] + [api_client_for(make_user()), APIClient()]:
        page = read(reader, game, "table")
        assert page.status_code == 200
        assert [m["text"] for m in page.json()["results"]] == ["Winter is coming."]


def test_a_pair_channel_is_read_only_by_its_two_seats_and_named_alphabetically(game, seats):
    a, b, c = game.seat_names()
    response = post(seats[b], game, f"{b}-{a}", "Alliance?")
    assert response.status_code == 201
    channel = "-".join(sorted((a, b)))
    assert response.json()["channel"] == channel
    for member in (a, b):
        page = read(api_client_for(seats[member]), game, f"{a}-{b}")
        assert [m["text"] for m in page.json()["results"]] == ["Alliance?"]
    third = read(api_client_for(seats[c]), game, channel)
    assert third.status_code == 404 and third.json()["error"] == "not_found"
    assert read(api_client_for(make_user()), game, channel).status_code == 404
    assert read(APIClient(), game, channel).status_code == 404
    staff = make_user(is_staff=True)
    assert read(api_client_for(staff), game, channel).status_code == 404
    refused = post(seats[c], game, channel, "let me in")
    assert refused.status_code == 404
    assert ChatMessage.objects.count() == 1


def test_a_seat_cannot_write_in_another_pairs_channel_even_naming_it_the_other_way(game, seats):
    a, b, c = game.seat_names()
    assert post(seats[c], game, f"{b}-{a}", "psst").status_code == 404


def test_spectators_read_the_table_only_when_the_game_allows_and_never_write(game, seats):
    first = game.seat_names()[0]
    post(seats[first], game, "table", "hello")
    spectator = api_client_for(make_user())
    refused = spectator.post(chat_url(game), {"channel": "table", "text": "hi"}, format="json")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    Game.objects.filter(pk=game.pk).update(spectator_chat=False)
    hidden = read(spectator, game, "table")
    assert hidden.status_code == 403
    assert set(hidden.json()) >= {"error", "detail", "fields"}
    assert read(APIClient(), game, "table").status_code == 403
    assert read(api_client_for(seats[first]), game, "table").status_code == 200


def test_private_chat_disabled_refuses_pair_channels_but_not_the_table(game, seats):
    Game.objects.filter(pk=game.pk).update(private_chat=False)
    a, b, _ = game.seat_names()
    refused = post(seats[a], game, f"{a}-{b}", "secret")
    assert refused.status_code == 403
    assert refused.json() == {"error": "forbidden", "detail": "Private chat is disabled in this game.", "fields": {}}
    assert read(api_client_for(seats[a]), game, f"{a}-{b}").status_code == 403
    assert post(seats[a], game, "table", "public").status_code == 201
    channels = api_client_for(seats[a]).get(reverse("api-game-chat-channels", args=[game.pk])).json()
    assert [c["channel"] for c in channels["channels"]] == ["table"] and channels["private_chat"] is False


def test_the_channel_list_shows_what_each_viewer_may_read(game, seats):
    a, b, c = game.seat_names()
    url = reverse("api-game-chat-channels", args=[game.pk])
    mine = api_client_for(seats[a]).get(url).json()
    assert mine["your_seat"] == a
    assert [c_["channel"] for c_ in mine["channels"]] == ["table", "-".join(sorted((a, b))), "-".join(sorted((a, c)))]
    assert all(c_["can_write"] for c_ in mine["channels"])
    spectator = APIClient().get(url).json()
    assert spectator["channels"] == [{"channel": "table", "seats": [a, b, c], "can_write": False}]


def test_private_games_hide_their_chat_from_outsiders_but_not_from_invited_spectators(seats=None):
    from games.services.lobbies import LobbySettings, do_create_lobby, do_join_lobby

    creator = make_user()
    lobby = do_create_lobby(creator, LobbySettings(ruleset="agot", seat_count=3, time_limit=3600, private=True))
    for _ in range(2):
        do_join_lobby(lobby.pk, make_user(), invite=lobby.invite_token)
    game = Game.objects.get(lobby=lobby)
    assert post(creator, game, "table", "welcome").status_code == 201
    outsider = api_client_for(make_user())
    assert read(outsider, game, "table").status_code == 404
    assert outsider.post(chat_url(game), {"channel": "table", "text": "x"}, format="json").status_code == 404
    invited = read(outsider, game, "table", invite=lobby.invite_token)
    assert [m["text"] for m in invited.json()["results"]] == ["welcome"]


def test_html_is_stored_raw_and_escaped_in_the_html_copy_and_in_templates(game, seats):
    first = game.seat_names()[0]
    raw = '<script>alert("x")</script> & <b>bold</b>\nnext line'
    body = post(seats[first], game, "table", raw).json()
    assert body["text"] == raw
    assert body["html"] == ("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;"
                            "<br>next line")
    assert "<script>" not in body["html"]
    assert ChatMessage.objects.get().text == raw
    rendered = Template("{{ message.text }}").render(Context({"message": ChatMessage.objects.get()}))
    assert "<script>" not in rendered and "&lt;script&gt;" in rendered


def test_text_is_cleaned_of_control_and_bidi_characters(game, seats):
    first = game.seat_names()[0]
    body = post(seats[first], game, "table", "  a\x07b\u202ec\r\nd\x1b \t").json()
    assert body["text"] == "abc\nd"
    assert chat.clean_text("a\x00b\u2066") == "ab"  # the socket path (DRF refuses NUL itself)


@pytest.mark.parametrize("text", ["", "   ", "\n\x07\u202e"])
def test_an_empty_message_is_refused(game, seats, text):
    response = post(seats[game.seat_names()[0]], game, "table", text)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid" and "text" in response.json()["fields"]


def test_the_length_is_limited(game, seats, settings):
    first = game.seat_names()[0]
    assert post(seats[first], game, "table", "x" * 1000).status_code == 201
    too_long = post(seats[first], game, "table", "x" * 1001)
    assert too_long.status_code == 400
    assert too_long.json()["fields"]["text"] == ["Ensure this field has no more than 1000 characters."]
    settings.CHAT_MAX_LENGTH = 10
    assert post(seats[first], game, "table", "x" * 11).status_code == 400
    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize("channel", ["", "nobody", "stark-stark", "stark-", "-stark", "stark-martell", "TABLE"])
def test_a_bad_channel_is_refused(game, seats, channel):
    response = post(seats[game.seat_names()[0]], game, channel, "hi")
    assert response.status_code == 400
    assert "channel" in response.json()["fields"]


def test_messages_are_rate_limited_per_user(game, seats, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(chat, "_clock", lambda: now[0])
    a, b, _ = game.seat_names()
    for i in range(5):
        assert post(seats[a], game, "table" if i % 2 else f"{a}-{b}", f"m{i}").status_code == 201
    limited = post(seats[a], game, "table", "one too many")
    assert limited.status_code == 429
    assert limited.json()["error"] == "rate_limited" and limited.json()["retry_after"] == 5
    assert post(seats[b], game, "table", "someone else").status_code == 201  # per user
    now[0] += 5
    assert post(seats[a], game, "table", "later").status_code == 201
    assert ChatMessage.objects.filter(sender=seats[a]).count() == 6


def test_history_is_paginated_newest_first(game, seats, settings):
    settings.CHAT_RATE_MESSAGES = 0
    first = game.seat_names()[0]
    for i in range(7):
        chat.do_send_message(game.pk, seats[first], "table", f"m{i}")
    client = api_client_for(seats[first])
    page = read(client, game, "table", limit=3).json()
    assert [m["text"] for m in page["results"]] == ["m6", "m5", "m4"]
    texts = [m["text"] for m in page["results"]]
    while page["next"]:
        page = client.get(page["next"]).json()
        texts += [m["text"] for m in page["results"]]
    assert texts == [f"m{i}" for i in reversed(range(7))]
    assert read(client, game, "table").json()["results"][0]["html"] == "m6"


def test_history_of_one_game_or_channel_never_shows_another(game, seats, settings):
    other = make_game()
    a, b, _ = game.seat_names()
    chat.do_send_message(game.pk, seats[a], "table", "here")
    chat.do_send_message(game.pk, seats[a], f"{a}-{b}", "private")
    chat.do_send_message(other.pk, players(other)[a], "table", "elsewhere")
    client = api_client_for(seats[a])
    assert [m["text"] for m in read(client, game, "table").json()["results"]] == ["here"]
    assert [m["text"] for m in read(client, other, "table").json()["results"]] == ["elsewhere"]


def test_anonymous_and_unknown_games(game):
    assert APIClient().post(chat_url(game), {"channel": "table", "text": "x"}, format="json").status_code in {401, 403}
    missing = api_client_for(make_user()).get(reverse("api-game-chat", args=[999999]), {"channel": "table"})
    assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    with pytest.raises(GameError) as refused:
        chat.do_send_message(game.pk, None, "table", "x")
    assert refused.value.status_code == 401


def test_the_lobby_options_reach_the_game():
    creator = make_user()
    response = api_client_for(creator).post(
        reverse("api-lobbies"),
        {"seats": 3, "time_limit": 3600, "private_chat": False, "spectator_chat": False}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["private_chat"] is False and response.json()["spectator_chat"] is False
    lobby_id = response.json()["id"]
    for _ in range(2):
        api_client_for(make_user()).post(reverse("api-lobby-join", args=[lobby_id]), {}, format="json")
    game = Game.objects.get(lobby_id=lobby_id)
    assert (game.private_chat, game.spectator_chat) == (False, False)
    default = api_client_for(creator).post(reverse("api-lobbies"), {"seats": 3, "time_limit": 3600}, format="json")
    assert default.json()["private_chat"] is True and default.json()["spectator_chat"] is True


def test_a_deleted_senders_messages_stay_with_no_name(game, seats):
    a, b, _ = game.seat_names()
    post(seats[a], game, "table", "I was here")
    seats[a].delete()
    [message] = read(api_client_for(seats[b]), game, "table").json()["results"]
    assert message["sender"] is None and message["seat"] == a and message["text"] == "I was here"


@pytest.mark.parametrize("text", ["\u200b", "\u200b\u200c\u200d\u2060\ufeff", " \u200e\u200f \u3164\u2800 ",
                                  "\u00a0\u2003\u3000", "\ufe0f\u034f\u115f"])
def test_a_message_of_invisible_characters_only_is_refused(game, seats, text):
    """Zero-width characters, direction marks, fillers and odd spaces show nothing: refused like an
    empty message, and nothing is stored; a visible character among them is a message."""
    response = post(seats[game.seat_names()[0]], game, "table", text)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert response.json()["fields"]["text"][0] in ("Write something.", "Write something visible: this message "
                                                    "is only invisible characters.")
    assert not ChatMessage.objects.exists()
    assert post(seats[game.seat_names()[0]], game, "table", "\u200bhi\u200b").status_code == 201
    assert post(seats[game.seat_names()[0]], game, "table", "\U0001f468\u200d\U0001f469").status_code == 201


@pytest.mark.parametrize("limit", ["null", "abc", "0", "-1", "201", "1.5", "1e3"])
def test_history_refuses_a_limit_that_is_not_a_whole_number_in_range(game, seats, limit):
    response = read(api_client_for(seats[game.seat_names()[0]]), game, "table", limit=limit)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "invalid" and "limit" in body["fields"]


@pytest.mark.parametrize("anonymous", [False, True], ids=["names", "anonymous"])
def test_the_history_page_is_what_the_message_serializer_writes(game, seats, settings, anonymous):
    """The history is written from the messages' values (chat.serializers.message_rows, issue 27): each
    page the same keys, order and values as ChatMessageSerializer writes of its messages, in both
    languages: a name, a deleted sender (null), a faceless player while an anonymous game runs, the
    escaped copy of a text with markup and newlines, the time in the current time zone."""
    from chat.serializers import ChatMessageSerializer

    settings.CHAT_RATE_MESSAGES = 0
    a, b, _ = game.seat_names()
    game.options = {**(game.options or {}), "anonymous": anonymous}
    game.save(update_fields=["options"])
    chat.do_send_message(game.pk, seats[a], "table", "<b>Winter</b>\nis coming & going")
    chat.do_send_message(game.pk, seats[b], "table", "gone soon")
    chat.do_send_message(game.pk, seats[a], f"{a}-{b}", "between us")
    seats[b].delete()
    chat.do_send_message(game.pk, seats[a], "table", "last")
    client = api_client_for(seats[a])
    for language in ("en", "es"):
        for channel in ("table", "-".join(sorted((a, b)))):
            body = client.get(chat_url(game), {"channel": channel, "limit": 2}, HTTP_ACCEPT_LANGUAGE=language).json()
            pages = [body["results"]]
            while body["next"]:
                body = client.get(body["next"], HTTP_ACCEPT_LANGUAGE=language).json()
                pages.append(body["results"])
            with translation.override(language):
                wanted = ChatMessageSerializer(ChatMessage.objects.filter(game=game, channel=channel)
                                               .select_related("sender", "game").order_by("-id"), many=True).data
            assert [m for page in pages for m in page] == [dict(m) for m in wanted]
            assert [list(m) for page in pages for m in page] == [list(m) for m in wanted]
    shown = {m["text"]: m["sender"] for m in read(client, game, "table").json()["results"]}
    assert shown["gone soon"] is None
    assert shown["last"] == ("a faceless player" if anonymous else seats[a].username)
