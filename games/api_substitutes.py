"""REST endpoints for substitutes (games/services/substitutes.py): the public "needs a player" list
and taking over an abandoned seat."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import queries, rulesets
from games.models import Game
from games.services import substitutes
from ratings.templatetags.site_words import seat_name
from westeros.pagination import PAGE_PARAMETERS, page_response, paged


def open_seat_row(row: substitutes.OpenSeat) -> dict:
    game = row.game
    return {
        "game": game.pk, "ruleset": game.ruleset, "ruleset_name": rulesets.name(game.ruleset),
        "seat": row.seat.seat, "seat_name": seat_name(row.seat.seat, game.ruleset),
        "round": row.round, "version": row.moves, "ranked": game.ranked, "time_limit": game.time_limit,
        "clock": {"bank": game.clock_bank, "increment": game.clock_increment} if game.has_clock() else None,
        "left_at": row.seat.left_at, "min_rating": row.min_rating, "min_reliability": row.min_reliability,
        # whether you may take it (logged in, meeting the requirements, not in the game) and why not
        "can_take": row.allowed, "reason": row.reason,
    }


class ClockSerializer(serializers.Serializer):
    bank = serializers.IntegerField(help_text="each seat's time bank at the start, in seconds")
    increment = serializers.IntegerField(help_text="seconds added per decision")


class OpenSeatSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="the game's id")
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField(help_text="the game in words")
    seat = serializers.CharField()
    seat_name = serializers.CharField(help_text="the seat in words: a house, a leader, an army, 'Player 2'")
    round = serializers.IntegerField(allow_null=True, help_text="the game's round, where the ruleset has rounds")
    version = serializers.IntegerField(help_text="how many moves were played")
    ranked = serializers.BooleanField()
    time_limit = serializers.IntegerField(help_text="seconds per decision")
    clock = ClockSerializer(allow_null=True)
    left_at = serializers.DateTimeField(help_text="when the player left")
    min_rating = serializers.IntegerField(allow_null=True)
    min_reliability = serializers.FloatField(allow_null=True)
    can_take = serializers.BooleanField(help_text="whether you may take it over")
    reason = serializers.CharField(allow_null=True, help_text="why not, in words")


class NeedsPlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=paged("OpenSeat", OpenSeatSerializer), parameters=PAGE_PARAMETERS,
                   summary="Games where the engine plays a seat its player left, a page at a time: a substitute "
                           "may take it over")
    def get(self, request: Request) -> Response:
        return page_response(request, self, substitutes.listing(request.user),
                             lambda rows: [open_seat_row(row) for row in rows])


class TakeSeatView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=OpenApiTypes.OBJECT,
                   summary="Take over a seat the engine plays since its player left (unrated for you)")
    def post(self, request: Request, game_id: int, seat: str) -> Response:
        game = substitutes.do_take_seat(game_id, seat, request.user)
        payload = queries.game_payload(Game.objects.prefetch_related("seats__user").get(pk=game.pk), request.user)
        return Response({**payload, "rated_for_you": False, "detail": substitutes.UNRATED_NOTE})
