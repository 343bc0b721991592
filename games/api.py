"""REST endpoints for lobbies and games. Thin: parse, call a service or a query, answer."""
from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

from django.db.models import BooleanField, Count, ExpressionWrapper, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from accounts.throttle import client_ip
from games import queries
from games.engine import ruleset_ids
from games.errors import GameError, not_found
from games.models import Game, Lobby, LobbyMember
from games.serializers import (
    LOBBY_MEMBER_VALUES,
    LOBBY_ROW_VALUES,
    ActionSerializer,
    AssignSerializer,
    ComputerGameSerializer,
    JoinSerializer,
    LobbyCreateSerializer,
    LobbySerializer,
    MoveCheckSerializer,
    PauseSerializer,
    UserRefSerializer,
    lobby_rows,
)
from games.services import check, computer, deadlines, lobbies, pause, play
from westeros import compiled
from westeros.fields import INTEGER_MAX
from westeros.outages import DATABASE_ERRORS
from westeros.pagination import MAX_PAGE_SIZE, PAGE_PARAMETERS, CountedApart, choice_param, page_response, paged

log = logging.getLogger(__name__)
REREAD_FAILED = gettext_lazy("Your change was saved, but the database became unavailable before it could be read "
                             "back: re-fetch before acting again.")


def _valid(serializer_class, request: Request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _bool_param(request: Request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if raw.lower() in {"true", "1", "yes"}:
        return True
    if raw.lower() in {"false", "0", "no"}:
        return False
    raise GameError("invalid", gettext("'%(name)s' must be true or false.") % {"name": name},
                    fields={name: [gettext("Must be true or false.")]})


def _int_param(request: Request, name: str, low: int = 0, high: int = INTEGER_MAX) -> int | None:
    """A whole-number query parameter within [low, high] (by default what an integer column holds:
    a larger number would be a database error, not an empty answer)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    message = gettext("A whole number from %(low)d to %(high)d.") % {"low": low, "high": high}
    if len(raw) > 20:
        raise GameError("invalid", gettext("'%(name)s' must be a whole number.") % {"name": name}, fields={name: [message]})
    try:
        value = int(raw)
    except ValueError:
        raise GameError("invalid", gettext("'%(name)s' must be a whole number.") % {"name": name}, fields={name: [message]}) from None
    if not low <= value <= high:
        raise GameError("invalid", gettext("'%(name)s' is out of range.") % {"name": name}, fields={name: [message]})
    return value


def _int_query(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, {"type": "integer", "minimum": 0, "maximum": INTEGER_MAX},
                            description=description)


IDEMPOTENCY_KEY_MAX = 128


def _idempotency_key(request: Request) -> str:
    """The Idempotency-Key header: at most 128 printable ASCII characters (it is stored)."""
    key = request.headers.get("Idempotency-Key", "")
    if len(key) > IDEMPOTENCY_KEY_MAX or any(not " " <= char <= "~" for char in key):
        raise GameError("invalid", gettext("The Idempotency-Key header is not valid."), fields={"Idempotency-Key": [
            gettext("At most %(count)d printable ASCII characters.") % {"count": IDEMPOTENCY_KEY_MAX}]})
    return key


def _after_commit(read: Callable[[], dict[str, Any]], known: dict[str, Any], extra: dict[str, Any] | None = None,
                  code: int = status.HTTP_200_OK) -> Response:
    """The answer to a change that is already committed: `read()` re-reads the result, `extra` is
    added to it. If the database goes away in between, the change still stands: answer `code` with
    what is known (`known`, from memory) and `partial: true`, never a 503 that would make the client
    believe nothing changed and send it again."""
    try:
        return Response({**read(), **(extra or {})}, status=code)
    except DATABASE_ERRORS as error:
        log.warning("committed, but the result could not be re-read: %s", error)
        return Response({**known, **(extra or {}), "partial": True, "detail": str(REREAD_FAILED)}, status=code)


def _read_lobby(lobby_id: int) -> dict[str, Any]:
    """The lobby as LobbySerializer writes it, read as the list's rows are (lobby_rows: values, its members
    in one query): the serializer's model instances and per-field machinery were most of the lobby's CPU
    (issue 27, twelfth round)."""
    rows = lobby_rows(list(_lobby_row_values(Lobby.objects.filter(pk=lobby_id))))
    if not rows:
        raise Lobby.DoesNotExist(f"lobby {lobby_id}")
    return rows[0]


def _lobby_response(lobby: Lobby, code: int = status.HTTP_200_OK) -> Response:
    """A lobby after a committed change."""
    return _after_commit(lambda: _read_lobby(lobby.pk), {"id": lobby.pk, "status": lobby.status}, code=code)


def _game_response(game: Game, user, seats: list | None = None, *, code: int = status.HTTP_200_OK,
                   **extra: Any) -> Response:
    """A game after a committed change (`game` as the service left it), as the user sees it. With
    `seats` (the service's, with their users, as the change left them) the answer is built from
    them and `game` without reading them again (an action: 1 query instead of 4); else re-read."""

    def read() -> dict[str, Any]:
        if seats is not None:
            return queries.game_payload(game, user, seats)
        return queries.game_payload(Game.objects.prefetch_related("seats__user").get(pk=game.pk), user)

    known = {"id": game.pk, "version": game.version, "status": game.status, "deadline_at": game.deadline_at,
             "paused_at": game.paused_at, "pause_votes": game.pause_votes}
    return _after_commit(read, known, extra, code)


class ComputerGameView(APIView):
    @extend_schema(
        request=ComputerGameSerializer, responses={201: OpenApiTypes.OBJECT},
        summary="Play now against the computer",
        description=(
            "Starts a game at once with you in one seat and the engine's players in all the others (the same "
            "as the site's Play now). Such a game is unrated. Refusals are those of a lobby: 400 with the field "
            "that is wrong (`ruleset`, `seats`, `seat`, `options`, `deck`, `decks`...)."),
    )
    def post(self, request: Request) -> Response:
        data = _valid(ComputerGameSerializer, request)
        game = computer.do_play_computer(request.user, computer.ComputerGame(**data))
        return _game_response(game, request.user, code=status.HTTP_201_CREATED)


def _open_lobbies():
    return Lobby.objects.filter(status=Lobby.Status.OPEN, private=False)


def _lobby_row_values(lobbies):
    """The lobbies newest first as the list's rows read them (LOBBY_ROW_VALUES): each one's game (if any)
    annotated, so the rows need no query per lobby, and whether it has a password, not its hash."""
    game = Game.objects.filter(lobby=OuterRef("pk")).values("pk")[:1]
    return (lobbies.annotate(game_pk=Subquery(game),
                             has_password=ExpressionWrapper(~Q(password_hash=""), output_field=BooleanField()))
            .order_by("-created_at", "-id").values(*LOBBY_ROW_VALUES))


class UnfilteredLobbies:
    """The open public lobbies, unfiltered, as the paginator asks them (count() and a slice): the count and a
    first page (of any page size) read by queries compiled once per process (westeros/compiled.py), and
    the page's members with it (`member_rows`). Building these queries
    was a third of the list's CPU (issue 27, ninth round). A later page is read by the ORM."""

    def __init__(self):
        self.member_rows: list[tuple] | None = None

    def count(self) -> int:
        found = compiled.rows("api:lobbies:count", lambda: _open_lobbies().order_by().values("status")
                              .annotate(n=Count("pk")).values("n"))
        return found[0]["n"] if found else 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, cut: slice) -> list[dict]:
        start, stop = cut.start or 0, cut.stop
        if start != 0 or stop is None or stop > MAX_PAGE_SIZE:
            self.member_rows = None
            return list(_lobby_row_values(_open_lobbies())[cut])
        if stop <= 0:  # no lobby open: nothing to read (a query of no rows is not compiled)
            self.member_rows = []
            return []
        # the first `stop` lobbies (the paginator asks fewer than a page when there are fewer): one compiled
        # query per page size, at most MAX_PAGE_SIZE of them
        rows = compiled.rows(f"api:lobbies:first:{stop}", lambda: _lobby_row_values(_open_lobbies())[:stop])
        # their members: the page's ids as the values of a query compiled per page size (padded with 0, no
        # lobby's id), so exactly the page's lobbies' members are read
        ids = [row["id"] for row in rows] + [0] * (stop - len(rows))
        members = compiled.rows(f"api:lobbies:first-members:{stop}", partial(_members_of, size=stop),
                                **{f"lobby{i}": lobby_id for i, lobby_id in enumerate(ids)})
        self.member_rows = [tuple(m[name] for name in LOBBY_MEMBER_VALUES) for m in members]
        return rows


def _members_of(size: int, **lobbies: int):
    ids = [lobbies[f"lobby{i}"] for i in range(size)]
    return LobbyMember.objects.filter(lobby_id__in=ids).order_by("joined_at", "id").values(*LOBBY_MEMBER_VALUES)


class LobbyListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses=paged("Lobby", LobbySerializer), operation_id="v1_lobbies_list",
        summary="Open public lobbies, newest first, a page at a time",
        parameters=[*PAGE_PARAMETERS,
            OpenApiParameter("ruleset", str, enum=ruleset_ids()), OpenApiParameter("ranked", bool),
            _int_query("seats_free", "at least this many free seats"),
            _int_query("max_time_limit", "seconds"),
            _int_query("min_time_limit", "seconds"),
        ],
    )
    def get(self, request: Request) -> Response:
        qs = _open_lobbies()
        if ruleset := choice_param(request, "ruleset", ruleset_ids()):
            qs = qs.filter(ruleset=ruleset)
        if (ranked := _bool_param(request, "ranked")) is not None:
            qs = qs.filter(ranked=ranked)
        if (free := _int_param(request, "seats_free")) is not None:
            qs = with_members_taken(qs).filter(seat_count__gte=F("taken") + F("computer_seats") + free)
        if (longest := _int_param(request, "max_time_limit")) is not None:
            qs = qs.filter(time_limit__lte=longest)
        if (shortest := _int_param(request, "min_time_limit")) is not None:
            qs = qs.filter(time_limit__gte=shortest)
        if (ruleset, ranked, free, longest, shortest) == (None,) * 5:  # the whole list, as most readers ask it
            listed = UnfilteredLobbies()
            return page_response(request, self, listed, lambda page: lobby_rows(page, listed.member_rows))
        # each row read as values (games.serializers.lobby_rows reads the page's members): no model instance
        # made per lobby; the lobbies counted without the annotations the rows need (CountedApart)
        return page_response(request, self, CountedApart(_lobby_row_values(qs), qs), lobby_rows)

    @extend_schema(request=LobbyCreateSerializer, responses={201: LobbySerializer}, summary="Create a lobby")
    def post(self, request: Request) -> Response:
        data = _valid(LobbyCreateSerializer, request)
        join, seat, deck = data.pop("join"), data.pop("seat"), data.pop("deck")
        deck = data.pop("army") or deck  # minis: the saved army brought, kept as the member's deck (issue 33)
        data["seat_count"] = data.pop("seats")
        lobby = lobbies.do_create_lobby(request.user, lobbies.LobbySettings(**data), join=join, seat=seat, deck=deck)
        response = _lobby_response(lobby, status.HTTP_201_CREATED)
        if lobby.private:
            response.data["invite_token"] = lobby.invite_token
        return response


class LobbyDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=LobbySerializer, parameters=[OpenApiParameter("invite", str)], summary="A lobby")
    def get(self, request: Request, lobby_id: int) -> Response:
        lobby = Lobby.objects.filter(pk=lobby_id).first()
        if lobby is None or not lobbies.can_see(lobby, request.user, request.query_params.get("invite")):
            raise not_found("lobby")
        response = Response(_read_lobby(lobby.pk))
        if lobby.creator_id == request.user.pk:
            response.data["invite_token"] = lobby.invite_token
        return response


class LobbyJoinView(APIView):
    @extend_schema(request=JoinSerializer, responses=LobbySerializer, summary="Take a seat (starts the game when full)")
    def post(self, request: Request, lobby_id: int) -> Response:
        data = _valid(JoinSerializer, request)
        data["deck"] = data.pop("army") or data["deck"]  # minis: the saved army brought (issue 33)
        return _lobby_response(lobbies.do_join_lobby(lobby_id, request.user, address=client_ip(request), **data))


class LobbyLeaveView(APIView):
    @extend_schema(request=None, responses=LobbySerializer, summary="Leave a lobby before it starts")
    def post(self, request: Request, lobby_id: int) -> Response:
        return _lobby_response(lobbies.do_leave_lobby(lobby_id, request.user))


class LobbyKickView(APIView):
    @extend_schema(request=UserRefSerializer, responses=LobbySerializer, summary="Creator: remove a player")
    def post(self, request: Request, lobby_id: int) -> Response:
        return _lobby_response(lobbies.do_kick(lobby_id, request.user, _valid(UserRefSerializer, request)["user"]))


class LobbyAssignView(APIView):
    @extend_schema(request=AssignSerializer, responses=LobbySerializer, summary="Creator: assign a seat")
    def post(self, request: Request, lobby_id: int) -> Response:
        data = _valid(AssignSerializer, request)
        return _lobby_response(lobbies.do_assign_seat(lobby_id, request.user, data["user"], data["seat"]))


class LobbyCancelView(APIView):
    @extend_schema(request=None, responses=LobbySerializer, summary="Creator: cancel the lobby")
    def post(self, request: Request, lobby_id: int) -> Response:
        return _lobby_response(lobbies.do_cancel(lobby_id, request.user))


class LobbyStartView(APIView):
    @extend_schema(request=None, responses=LobbySerializer, summary="Creator: start now (every seat taken)")
    def post(self, request: Request, lobby_id: int) -> Response:
        return _lobby_response(lobbies.do_start(lobby_id, request.user))


class GameDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, parameters=[OpenApiParameter("invite", str)],
                   summary="The game as you may see it: your seat's view, or the spectator view")
    def get(self, request: Request, game_id: int) -> Response:
        game = queries.get_visible_game(request.user, game_id, request.query_params.get("invite"))
        return Response(queries.game_payload(game, request.user))


class GameActionView(APIView):
    @extend_schema(
        request=ActionSerializer,
        responses={200: OpenApiTypes.OBJECT},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER,
                                     description="a retried submission with the same key is applied once")],
        summary="Submit an action for your seat",
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(ActionSerializer, request)
        key = _idempotency_key(request)
        result = play.do_submit_action(game_id, request.user, action=data["action"], version=data["version"],
                                       idempotency_key=key)
        return _game_response(result.game, request.user, result.seats, applied_version=result.record.version,
                              repeated=result.repeated)


class GameCheckView(APIView):
    @extend_schema(
        request=ActionSerializer,
        responses={200: MoveCheckSerializer},
        summary="Check a proposed move for your seat without applying it (rulesets with a move check)",
        description=(
            "The miniatures game (minis): a `maneuver`, `march`, `retreat_move` or `surge` answers the resolved "
            "pose `{\"ok\": true, \"at\": [x, y], \"facing\": degrees}` or `{\"ok\": false, \"error\", "
            "\"reason\"}`; any other action says whether it would be accepted. Nothing is applied, stored or "
            "sent (the version, the log and the deadlines stay as they are). The refusals of an action come "
            "first: 403 if you do not play in the game, 409 `stale_version` / `game_over` / `game_paused`; a "
            "ruleset without a move check is 400 `no_move_check`."
        ),
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = _valid(ActionSerializer, request)
        return Response(check.do_check_action(game_id, request.user, action=data["action"], version=data["version"]))


class GameExtendView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT,
                   summary="Use your one extension in this game: your current deadline moves by one time limit")
    def post(self, request: Request, game_id: int) -> Response:
        game = deadlines.do_extend(game_id, request.user)
        return _game_response(game, request.user)


class GamePauseView(APIView):
    @extend_schema(request=PauseSerializer, responses=OpenApiTypes.OBJECT,
                   summary="Vote to pause (every player must) or resume (any player) the game")
    def post(self, request: Request, game_id: int) -> Response:
        game = pause.do_vote_pause(game_id, request.user, pause=_valid(PauseSerializer, request)["pause"])
        return _game_response(game, request.user)


class GameLogView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        parameters=[
            OpenApiParameter("after", {"type": "integer", "minimum": 0},
                             description="the version the page starts after (default 0: from the start)"),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": queries.LOG_PAGE_MAX},
                             description=f"versions a page covers (default {queries.LOG_PAGE}, "
                                         f"at most {queries.LOG_PAGE_MAX})"),
        ],
        summary="The public event log, a page at a time (your secrets only to you): the entries after "
                "version `after`, `through` the last version the page covers, `next` the next page (null "
                "once the page reaches the game's version; ask again with after=through for what comes later)")
    def get(self, request: Request, game_id: int) -> Response:
        after = _int_param(request, "after") or 0
        limit = _int_param(request, "limit", 1, queries.LOG_PAGE_MAX) or queries.LOG_PAGE
        game = queries.get_visible_game(request.user, game_id, request.query_params.get("invite"), state=False)
        page = queries.log_page(game, request.user, after, limit)
        following = None
        if page.pop("more"):
            following = request.build_absolute_uri(replace_query_param(request.get_full_path(), "after", page["through"]))
        return Response({"id": game.pk, "version": game.version, **page, "next": following})


class GameConcedeView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, summary="Leave the game: the computer takes your seat")
    def post(self, request: Request, game_id: int) -> Response:
        return _game_response(play.do_concede(game_id, request.user), request.user)


class GameFairnessView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT,
                   summary="Provably fair seed: its SHA-256 from the start; seed and actions once the game ends")
    def get(self, request: Request, game_id: int) -> Response:
        game = queries.get_visible_game(request.user, game_id, request.query_params.get("invite"))
        return Response(queries.fairness_payload(game))


class MyGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField()
    seat = serializers.CharField(help_text="your seat")


class MyGamesView(APIView):
    @extend_schema(responses=paged("MyGame", MyGameSerializer),
                   parameters=[OpenApiParameter("awaiting", bool), *PAGE_PARAMETERS],
                   summary="Your games, newest first, a page at a time; awaiting=true: only those where a "
                           "decision of yours is pending")
    def get(self, request: Request) -> Response:
        seats = request.user.game_seats.filter(left_at__isnull=True)
        if _bool_param(request, "awaiting"):
            rows = [(s.game.pk, s.game.ruleset, s.game.status, s.game.version, s.seat)
                    for s in queries.awaiting_seats(seats.filter(game__status=Game.Status.ACTIVE))]
        else:
            # newest first by number (games are numbered as they are created): the index seat_user_newest_game
            # serves it a page at a time, where ordering by the games' dates joined and sorted them all; the
            # five values each row shows, not every column of each game and seat (issue 27, twelfth round)
            # (counted apart: the count of a list naming its games' columns joined every seat to its game, 1.3-1.9
            # ms for a busy player's 2,000; the seats alone are counted from an index, 0.2 ms)
            rows = CountedApart(seats.order_by("-game_id").values_list("game_id", "game__ruleset", "game__status",
                                                                       "game__version", "seat"), seats)
        return page_response(request, self, rows, lambda page: [
            {"id": game, "ruleset": ruleset, "status": game_status, "version": version, "seat": seat}
            for game, ruleset, game_status, version, seat in page])


HOME_LOBBIES = 20  # the newest open lobbies the home page lists; the lobby list has them all, with filters


def with_members_taken(lobbies):
    """The lobbies with their members counted (`taken`) by a subquery per lobby: counted by a GROUP BY,
    the lobbies were joined to their creators after a scan of every user (10 ms at 10,000 users)."""
    taken = LobbyMember.objects.filter(lobby=OuterRef("pk")).order_by().values("lobby").annotate(n=Count("pk"))
    return lobbies.annotate(taken=Coalesce(Subquery(taken.values("n")), 0))


def active_lobbies_for_home():
    return (with_members_taken(Lobby.objects.filter(status=Lobby.Status.OPEN, private=False))
            .filter(taken__lt=F("seat_count") - F("computer_seats"))
            .select_related("creator").order_by("-created_at", "-id")[:HOME_LOBBIES])


