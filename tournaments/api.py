"""REST endpoints for tournaments. Thin: parse, call a service, answer."""
from __future__ import annotations

from functools import partial
from types import SimpleNamespace

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from games.engine import ruleset_ids
from games.errors import not_found
from games.serializers import UserRefSerializer
from tournaments import services
from tournaments.models import Registration, Table, TableSeat, Tournament
from tournaments.serializers import (
    REGISTRATION_ROW_VALUES,
    TOURNAMENT_ROW_VALUES,
    AdjudicateSerializer,
    RegisterSerializer,
    RegistrationSerializer,
    ReplaceSerializer,
    RoundSerializer,
    StandingSerializer,
    TableSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
    registration_rows,
    round_rows,
    standing_rows,
    tournament_rows,
)
from westeros import compiled, kept
from westeros.pagination import PAGE_PARAMETERS, choice_param, page_response, paged


def _valid(serializer_class, request: Request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _user(username: str) -> User:
    user = User.objects.filter(username=username).first()
    if user is None:
        raise not_found("user")
    return user


def _event(tournament_id: int) -> Tournament:
    """The tournament row alone, for the lists of its registrations, rounds and standings."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        raise not_found("tournament")
    return t


def with_registered_count(tournaments):
    """The events with their count of registrations still in (`registered_count`), a subquery per event: a join
    and GROUP BY counted every event's before a list cut its page."""
    registered = (Registration.objects.filter(tournament=OuterRef("pk"), status__in=Registration.ACTIVE)
                  .order_by().values("tournament").annotate(n=Count("pk")).values("n"))
    return tournaments.annotate(registered_count=Coalesce(Subquery(registered, output_field=IntegerField()), 0))


def _answer(tournament_id: int, code: int = status.HTTP_200_OK) -> Response:
    """The tournament as TournamentSerializer shows it, written from its values as a list's rows are
    (tournament_rows): the serializer built its 38 fields for each read, a third of its time (issue 27)."""
    found = with_registered_count(Tournament.objects.filter(pk=tournament_id)).values(*TOURNAMENT_ROW_VALUES)
    rows = tournament_rows(list(found))
    if not rows:
        raise not_found("tournament")
    return Response(rows[0], status=code)


def _tournament_list(chosen: tuple[tuple[str, str], ...]):
    """The public tournaments, newest first (the index tournament_newest_first), filtered by the chosen
    status, format and game, each with its count of registrations: the values tournament_rows writes."""
    return (with_registered_count(Tournament.objects.filter(bots_only=False, **dict(chosen)))
            .order_by("-created_at", "-id").values(*TOURNAMENT_ROW_VALUES))


def _registrations(tournament_id: int):
    return Registration.objects.filter(tournament_id=tournament_id).values(*REGISTRATION_ROW_VALUES)


class FormatIsAFilter(DefaultContentNegotiation):
    """`?format=` filters tournaments by format here; DRF would read it as the renderer to use (and
    answer 404 for ?format=swiss)."""

    settings = SimpleNamespace(URL_FORMAT_OVERRIDE=None)


class TournamentListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    content_negotiation_class = FormatIsAFilter

    @extend_schema(responses=paged("Tournament", TournamentSerializer), operation_id="v1_tournaments_list",
                   summary="Tournaments, newest first, a page at a time",
                   parameters=[OpenApiParameter("status", str, enum=Tournament.Status.values),
                               OpenApiParameter("format", str, enum=Tournament.Format.values),
                               OpenApiParameter("ruleset", str, enum=ruleset_ids()), *PAGE_PARAMETERS])
    def get(self, request: Request) -> Response:
        # Each row's count of registrations is a subquery, counted for the page's rows alone, and the page is
        # read from the index tournament_newest_first.
        chosen = {name: value for name, choices in (("status", Tournament.Status.values),
                                                    ("format", Tournament.Format.values), ("ruleset", ruleset_ids()))
                  if (value := choice_param(request, name, choices))}
        # rows written from values, without model instances or DRF's per-field machinery (tournament_rows; the
        # schema is the serializer's). The page and its count are queries compiled once per process for each
        # choice of filters (their values are the schema's enums: a few dozen at most), the page's slice their
        # parameter (westeros/compiled.py): building and compiling the query of 39 columns was a fifth of the
        # list's time (issue 27, thirteenth round).
        label = "tournaments:list:" + ":".join(f"{name}={value}" for name, value in sorted(chosen.items()))
        listed = compiled.CompiledRows(label, partial(_tournament_list, chosen=tuple(sorted(chosen.items()))))
        return page_response(request, self, listed, tournament_rows)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer},
                   summary="Create a tournament (you organize it)")
    def post(self, request: Request) -> Response:
        data = _valid(TournamentCreateSerializer, request)
        t = services.do_create_tournament(request.user, services.TournamentSettings(**data))
        return _answer(t.pk, status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TournamentSerializer, summary="A tournament")
    def get(self, request: Request, tournament_id: int) -> Response:
        return _answer(tournament_id)


def _action(summary: str, request_serializer=None, response=TournamentSerializer):
    return extend_schema(request=request_serializer, responses=response, summary=summary)


class RegisterView(APIView):
    @_action("Register for the tournament (the card game: with the deck you bring; the miniatures game: with the "
             "army you bring, and at two against two the partner you name)", RegisterSerializer,
             response={201: RegistrationSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _valid(RegisterSerializer, request) if request.data else {}
        registration = services.do_register(tournament_id, request.user, deck=data.get("deck", ""),
                                            army=data.get("army", ""), partner=data.get("partner", ""))
        return Response(RegistrationSerializer(registration, context={"viewer": request.user}).data,
                        status=status.HTTP_201_CREATED)


class WithdrawView(APIView):
    @_action("Withdraw (while it runs: from the next round on)", response=RegistrationSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        return Response(RegistrationSerializer(services.do_withdraw(tournament_id, request.user)).data)


class CheckInView(APIView):
    @_action("Check in before the start", response=RegistrationSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        return Response(RegistrationSerializer(services.do_check_in(tournament_id, request.user)).data)


class StartView(APIView):
    @_action("Organizer: close registration, seed by rating, start round 1")
    def post(self, request: Request, tournament_id: int) -> Response:
        services.do_start(tournament_id, request.user)
        return _answer(tournament_id)


class StartRoundView(APIView):
    @_action("Organizer: start the next round")
    def post(self, request: Request, tournament_id: int) -> Response:
        services.do_start_round(tournament_id, request.user)
        return _answer(tournament_id)


class EndView(APIView):
    @_action("Organizer: end the event (tables still playing are adjudicated by position)")
    def post(self, request: Request, tournament_id: int) -> Response:
        services.do_end(tournament_id, request.user)
        return _answer(tournament_id)


class NextSeasonView(APIView):
    @_action("Organizer: next league season with promotion and relegation", response={201: TournamentSerializer})
    def post(self, request: Request, tournament_id: int) -> Response:
        t = services.do_next_season(tournament_id, request.user)
        return _answer(t.pk, status.HTTP_201_CREATED)


class CoOrganizerAddView(APIView):
    @_action("Organizer: add a co-organizer", UserRefSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        services.do_add_co_organizer(tournament_id, request.user, _user(_valid(UserRefSerializer, request)["user"]))
        return _answer(tournament_id)


class CoOrganizerRemoveView(APIView):
    @_action("Organizer: remove a co-organizer", UserRefSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        services.do_remove_co_organizer(tournament_id, request.user, _user(_valid(UserRefSerializer, request)["user"]))
        return _answer(tournament_id)


class ReplaceView(APIView):
    @_action("Organizer: replace a player (registration and seats in games in progress)", ReplaceSerializer,
             RegistrationSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = _valid(ReplaceSerializer, request)
        registration = services.do_replace_player(tournament_id, request.user, _user(data["old"]), _user(data["new"]))
        return Response(RegistrationSerializer(registration).data)


class DropView(APIView):
    @_action("Organizer: drop a player from the next round on", UserRefSerializer, RegistrationSerializer)
    def post(self, request: Request, tournament_id: int) -> Response:
        player = _user(_valid(UserRefSerializer, request)["user"])
        return Response(RegistrationSerializer(services.do_drop_player(tournament_id, request.user, player)).data)


class AdjudicateView(APIView):
    @_action("Organizer: end a stuck game with a ranking (or correct a table's ranking)", AdjudicateSerializer,
             TableSerializer)
    def post(self, request: Request, tournament_id: int, table_id: int) -> Response:
        data = _valid(AdjudicateSerializer, request)
        table = services.do_adjudicate(tournament_id, request.user, table_id, list(data["ranking"]))
        seats = TableSeat.objects.select_related("registration__user").order_by("position")
        table = Table.objects.prefetch_related(Prefetch("seats", queryset=seats)).get(pk=table.pk)
        return Response(TableSerializer(table).data)


class RegistrationsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=RegistrationSerializer(many=True), summary="Registrations, by seed")
    def get(self, request: Request, tournament_id: int) -> Response:
        t = _event(tournament_id)
        # rows written from values read by a query compiled once per process (RegistrationSerializer is the schema)
        found = compiled.rows("tournaments:registrations", _registrations, tournament_id=t.pk)
        return Response(registration_rows(t, found, request.user))


# The rounds and the standings, as the API writes them, kept for the event's page version (the same as its
# page's: services.page_version, renewed by every change of the event, which locks it first): the same
# JSON for everyone, read afresh only after a change (issue 27, ninth round). A saving, never a need
# (westeros/kept.py): with the cache down they are read afresh.
KEPT_LIST_SECONDS = 300


def _kept_rows(kind: str, t: Tournament, make) -> list[dict]:
    key = f"tournament:api-{kind}:{t.pk}:{services.page_version(t.pk)}"
    rows = kept.get(key)
    if rows is None:
        rows = make()
        kept.keep(key, rows, KEPT_LIST_SECONDS)
    return rows


class RoundsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=RoundSerializer(many=True), summary="Rounds with their tables, seats, games and results")
    def get(self, request: Request, tournament_id: int) -> Response:
        # rows written from values, without DRF's per-field machinery (round_rows; the schema is the serializer's)
        t = _event(tournament_id)
        return Response(_kept_rows("rounds", t, lambda: round_rows(t.pk)))


class StandingsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=StandingSerializer(many=True),
                   summary="Standings (live: websocket group tournament.<id> announces every change)")
    def get(self, request: Request, tournament_id: int) -> Response:
        t = _event(tournament_id)
        return Response(_kept_rows("standings", t, lambda: standing_rows(services.standings(t))))
