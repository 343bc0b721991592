from __future__ import annotations

from django.utils.translation import gettext
from rest_framework import serializers

from games.lobby_names import lobby_title
from games.models import (
    MAX_CLOCK_BANK,
    MAX_CLOCK_INCREMENT,
    MAX_TIME_LIMIT,
    MIN_CLOCK_BANK,
    MIN_TIME_LIMIT,
    Game,
    Lobby,
    LobbyMember,
)
from westeros.fields import StrictFloatField, StrictIntegerField, time_writer


class LobbyCreateSerializer(serializers.Serializer):
    ruleset = serializers.CharField(max_length=32, default="agot")
    name = serializers.CharField(max_length=80, required=False, default="", allow_blank=True)
    seats = StrictIntegerField(min_value=1, max_value=16)
    ranked = serializers.BooleanField(default=False)
    private = serializers.BooleanField(default=False)
    password = serializers.CharField(max_length=128, required=False, default="", allow_blank=True, trim_whitespace=False)
    time_limit = StrictIntegerField(min_value=MIN_TIME_LIMIT, max_value=MAX_TIME_LIMIT,
                                          help_text="seconds per decision, 120 (2 minutes) to 604800 (7 days)")
    clock_bank = StrictIntegerField(
        required=False, allow_null=True, default=None, min_value=MIN_CLOCK_BANK, max_value=MAX_CLOCK_BANK,
        help_text="live play: each player's time bank in seconds, 60 to 86400 (null: no clock, only time_limit); "
                  "a seat's deadline is the earlier of time_limit and its bank running out (docs/clocks.md)")
    clock_increment = StrictIntegerField(
        min_value=0, max_value=MAX_CLOCK_INCREMENT, default=0,
        help_text="seconds added to a player's bank per decision, 0 to 600 (with clock_bank only)")
    house_choice = serializers.ChoiceField(choices=Lobby.HouseChoice.choices, default=Lobby.HouseChoice.RANDOM)
    options = serializers.DictField(
        required=False, default=dict,
        help_text="the game's options (the engine's, docs/engine-*.md); lcg: {\"open_decklists\": true} for open deck "
                  "lists, as tournaments with open lists do (the learn-to-play decks are always open)")
    auto_start = serializers.BooleanField(default=True)
    max_consecutive_timeouts = StrictIntegerField(
        min_value=0, max_value=20, default=3,
        help_text="a seat timing out this many times in a row is handed to the bot and recorded as abandoned (0: never)")
    # PositiveIntegerField: at most 2147483647 (westeros/fields.py)
    min_rating = StrictIntegerField(required=False, allow_null=True, default=None, min_value=0)
    min_reliability = StrictFloatField(required=False, allow_null=True, default=None, min_value=0, max_value=1)
    private_chat = serializers.BooleanField(default=True, help_text="players may chat privately, two seats at a time")
    spectator_chat = serializers.BooleanField(default=True, help_text="spectators may read the table chat")
    computer_seats = StrictIntegerField(
        min_value=0, max_value=15, default=0,
        help_text="seats the engine's players take from the start (fewer than seats); a game that starts with "
                  "computer players is unrated for everyone, so such a lobby may not be ranked")
    fill_with_computer = serializers.BooleanField(
        default=False, help_text="the creator may start before every seat is taken: the engine's players take the "
                                 "empty seats (and the game is unrated)")
    join = serializers.BooleanField(default=True, help_text="take a seat yourself (default)")
    seat = serializers.CharField(max_length=32, required=False, default="", allow_blank=True,
                                 help_text="your seat, when players pick theirs")
    decks = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=16,
        help_text="games played with decks (lcg): the creator assigns one deck per player, in join order "
                  "(yours first); leave empty to let each player pick with `deck`")
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="games played with decks (lcg): the deck you bring, when players pick "
                                           "(empty: drawn at random when the game starts)")
    army = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="minis: one of your saved armies (army:<id>, legal, of the game_size), which "
                                           "takes a seat of its house (empty: the starter army of your seat)")


class ComputerGameSerializer(serializers.Serializer):
    """A game against the computer (games/services/computer.py): every field but the ruleset optional."""

    ruleset = serializers.CharField(max_length=32)
    seats = StrictIntegerField(required=False, allow_null=True, default=None, min_value=1, max_value=16,
                               help_text="how many seats in all, yours included (the game's default: agot 6, btwixt 4)")
    seat = serializers.CharField(max_length=32, required=False, default="", allow_blank=True,
                                 help_text="your house, leader or army (empty: drawn at random)")
    options = serializers.DictField(required=False, default=dict)
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="lcg: your deck (empty: drawn at random)")
    their_deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                       help_text="lcg: the computer's deck (empty: drawn at random)")
    time_limit = StrictIntegerField(min_value=MIN_TIME_LIMIT, max_value=MAX_TIME_LIMIT, default=24 * 60 * 60,
                                    help_text="seconds per decision (default a day)")
    clock_bank = StrictIntegerField(required=False, allow_null=True, default=None, min_value=MIN_CLOCK_BANK,
                                    max_value=MAX_CLOCK_BANK, help_text="your time bank in seconds (null: no clock)")
    clock_increment = StrictIntegerField(min_value=0, max_value=MAX_CLOCK_INCREMENT, default=0)


class LobbyMemberSerializer(serializers.Serializer):
    user = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="user.is_bot", help_text="a bot account (docs/bots.md)")
    seat = serializers.CharField()
    deck = serializers.CharField(help_text="the deck this player brings (lcg; empty: none yet, drawn at random at the start)")
    joined_at = serializers.DateTimeField()


class LobbySerializer(serializers.ModelSerializer):
    creator = serializers.CharField(source="creator.username")
    creator_bot = serializers.BooleanField(source="creator.is_bot", help_text="the creator is a bot account")
    seats = serializers.IntegerField(source="seat_count")
    seats_free = serializers.SerializerMethodField()
    members = LobbyMemberSerializer(many=True)
    has_password = serializers.SerializerMethodField()
    game = serializers.SerializerMethodField()
    title = serializers.SerializerMethodField(
        help_text="the name to show, in the request's language: the lobby's own name, else what it is "
                  "(\"Rematch of game 12\", \"tyrion against the computer\", \"tyrion's lobby\")")

    class Meta:
        model = Lobby
        fields = ("id", "name", "title", "ruleset", "creator", "creator_bot", "seats", "seats_free", "members", "ranked", "private",
                  "has_password", "time_limit", "clock_bank", "clock_increment", "house_choice", "options", "decks", "auto_start", "computer_seats", "fill_with_computer", "rematch_of", "max_consecutive_timeouts", "min_rating",
                  "min_reliability", "private_chat", "spectator_chat", "status", "created_at", "game")

    def get_seats_free(self, lobby: Lobby) -> int:
        return lobby.seats_free()

    def get_title(self, lobby: Lobby) -> str:
        return lobby.display_name

    def get_has_password(self, lobby: Lobby) -> bool:
        return lobby.has_password()

    def get_game(self, lobby: Lobby) -> int | None:
        if hasattr(lobby, "game_pk"):  # annotated by a list of lobbies (games/api.py): no query per lobby
            return lobby.game_pk
        game = Game.objects.filter(lobby=lobby).only("pk").first()
        return game.pk if game else None


# What a row of the lobby list reads of each lobby (games/api.py LobbyListView), as values: no model
# instance is made for a lobby, its creator, its members or their users (issue 27, ninth round).
# `has_password` is worked out by the database: the password's hash is not read.
LOBBY_ROW_VALUES = (
    "id", "name", "ruleset", "creator__username", "creator__is_bot", "seat_count", "ranked", "private",
    "has_password", "time_limit", "clock_bank", "clock_increment", "house_choice", "options", "decks", "auto_start",
    "computer_seats", "fill_with_computer", "rematch_of", "max_consecutive_timeouts", "min_rating",
    "min_reliability", "private_chat", "spectator_chat", "status", "created_at", "game_pk")


# what lobby_rows reads of each member of a page's lobbies, in this order
LOBBY_MEMBER_VALUES = ("lobby_id", "user__username", "user__is_bot", "seat", "deck", "joined_at")


def lobby_rows(lobbies: list[dict], member_rows: list[tuple] | None = None) -> list[dict]:
    """What LobbySerializer(lobbies, many=True).data gives (the schema is the serializer's), written
    without DRF's per-field machinery: a page of 50 lobbies spent 20 of its 35 ms in it (issue 27).
    The lobbies come as dicts of LOBBY_ROW_VALUES (their game annotated as `game_pk`, `has_password`
    by the database); their members are read here, in one query, as values too (or given, as
    `member_rows` of LOBBY_MEMBER_VALUES, in the order they joined) (making 50 lobbies,
    their creators, members and users as model instances was most of the page's CPU: issue 27, ninth
    round). tests/test_api_lobby_rows.py holds the two equal field by field."""
    when = time_writer()  # the API's way of writing a time, the time zone looked up once for the page
    members: dict[int, list[dict]] = {lobby["id"]: [] for lobby in lobbies}
    if members and member_rows is None:
        member_rows = (LobbyMember.objects.filter(lobby_id__in=list(members)).order_by("joined_at", "id")
                       .values_list(*LOBBY_MEMBER_VALUES))
    for lobby_id, user, bot, seat, deck, joined_at in member_rows or ():
        if lobby_id in members:
            members[lobby_id].append({"user": user, "bot": bot, "seat": seat, "deck": deck, "joined_at": when(joined_at)})
    rows = []
    for lobby in lobbies:
        listed = members[lobby["id"]]
        creator = lobby["creator__username"]
        rows.append({
            "id": lobby["id"], "name": lobby["name"],
            "title": lobby_title(lobby["name"], creator, computer_seats=lobby["computer_seats"],
                                 seat_count=lobby["seat_count"], rematch_of=lobby["rematch_of"]),
            "ruleset": lobby["ruleset"], "creator": creator, "creator_bot": lobby["creator__is_bot"],
            "seats": lobby["seat_count"],
            "seats_free": max(0, lobby["seat_count"] - lobby["computer_seats"] - len(listed)),
            "members": listed,
            "ranked": lobby["ranked"], "private": lobby["private"], "has_password": bool(lobby["has_password"]),
            "time_limit": lobby["time_limit"], "clock_bank": lobby["clock_bank"],
            "clock_increment": lobby["clock_increment"], "house_choice": lobby["house_choice"],
            "options": lobby["options"], "decks": lobby["decks"], "auto_start": lobby["auto_start"],
            "computer_seats": lobby["computer_seats"], "fill_with_computer": lobby["fill_with_computer"],
            "rematch_of": lobby["rematch_of"], "max_consecutive_timeouts": lobby["max_consecutive_timeouts"],
            "min_rating": lobby["min_rating"], "min_reliability": lobby["min_reliability"],
            "private_chat": lobby["private_chat"], "spectator_chat": lobby["spectator_chat"],
            "status": lobby["status"], "created_at": when(lobby["created_at"]), "game": lobby["game_pk"],
        })
    return rows


class JoinSerializer(serializers.Serializer):
    seat = serializers.CharField(max_length=32, required=False, default="", allow_blank=True)
    deck = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="games played with decks (lcg): the deck you bring, when players pick")
    army = serializers.CharField(max_length=40, required=False, default="", allow_blank=True,
                                 help_text="minis: one of your saved armies (army:<id>), which takes a seat of its house")
    password = serializers.CharField(max_length=128, required=False, allow_null=True, default=None, trim_whitespace=False)
    invite = serializers.CharField(max_length=64, required=False, allow_null=True, default=None)


class UserRefSerializer(serializers.Serializer):
    user = serializers.CharField(max_length=150)


class AssignSerializer(UserRefSerializer):
    seat = serializers.CharField(max_length=32)


class ActionSerializer(serializers.Serializer):
    version = StrictIntegerField(min_value=0, help_text="the game version the action was chosen at (a number, not a string)")
    action = serializers.JSONField(help_text="the action, as the ruleset's notation defines it")

    def validate_action(self, value):
        if not isinstance(value, dict) or not value:
            raise serializers.ValidationError(gettext("An action is a non-empty object, e.g. {\"bid\": 3}."))
        return value


class MoveCheckSerializer(serializers.Serializer):
    """The answer of POST /api/v1/games/{id}/check: the engine's verdict, nothing of the state."""
    ok = serializers.BooleanField(help_text="whether the action would be accepted at this version")
    at = serializers.ListField(child=serializers.FloatField(), required=False, min_length=2, max_length=2,
                               help_text="a move's resolved position [x, y] in inches (when ok)")
    facing = serializers.FloatField(required=False, help_text="a move's resolved facing in degrees (when ok)")
    error = serializers.CharField(required=False, help_text="bad_action, illegal_action or not_your_turn (when not ok)")
    reason = serializers.CharField(required=False, help_text="why the engine refuses it, in words (when not ok)")
    version = serializers.IntegerField(help_text="the game version the action was checked at")


class PauseSerializer(serializers.Serializer):
    pause = serializers.BooleanField(help_text="true: vote to pause; false: resume (or withdraw your vote)")
