"""REST endpoints for challenges (lichess's /api/challenge...). Thin: parse, call a service, answer."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from challenges import services
from challenges.serializers import AcceptSerializer, ChallengeCreateSerializer, ChallengeSerializer, DeclineSerializer
from westeros.fields import time_writer

LIST_SHAPE = inline_serializer("ChallengeList", {
    "in": ChallengeSerializer(many=True, help_text="challenges waiting for your answer"),
    "out": ChallengeSerializer(many=True, help_text="your challenges waiting for answers"),
})


def _valid(serializer_class, request: Request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _rows(challenges) -> list[dict]:
    """What ChallengeSerializer(many=True) gives of the challenges' payloads (the schema is the serializer's),
    written without its per-field machinery: the payload is the JSON but for its two times, which are written
    as DRF writes a time (issue 27, thirteenth round: a quarter of the list's time).
    tests/test_challenges.py holds the two equal field by field."""
    write = time_writer()
    rows = []
    for challenge in challenges:
        row = services.payload(challenge)
        row["created_at"], row["expires_at"] = write(row["created_at"]), write(row["expires_at"])
        rows.append(row)
    return rows


def _answer(challenge, code: int = status.HTTP_200_OK) -> Response:
    return Response(_rows([challenge])[0], status=code)


class ChallengeListView(APIView):
    @extend_schema(responses=LIST_SHAPE, operation_id="v1_challenges_list",
                   summary="Your pending challenges: in (to answer) and out (sent)")
    def get(self, request: Request) -> Response:
        mine = services.challenges_of(request.user)
        return Response({key: _rows(mine[key]) for key in ("in", "out")})

    @extend_schema(
        request=ChallengeCreateSerializer, responses={201: ChallengeSerializer},
        summary="Challenge named players (people or bots) to a game with these options",
        description=("Each player challenged hears of it on their event stream (`challenge`) and accepts or "
                     "declines. The game starts when everyone accepted, with one seat for you and one for each "
                     "of them (seats at random), like a lobby with these settings: the ruleset's seat counts, "
                     "the time limit and the options are checked as for a lobby (400 with field errors). "
                     "A challenge expires unanswered after CHALLENGE_EXPIRY_SECONDS (a day). Rate-limited: 429 "
                     "with Retry-After beyond CHALLENGES_PER_HOUR challenges an hour."),
    )
    def post(self, request: Request) -> Response:
        data = _valid(ChallengeCreateSerializer, request)
        challenge = services.do_create_challenge(request.user, services.ChallengeRequest(**data))
        return _answer(challenge, status.HTTP_201_CREATED)


class ChallengeDetailView(APIView):
    @extend_schema(responses=ChallengeSerializer, summary="A challenge you take part in")
    def get(self, request: Request, challenge_id: int) -> Response:
        return _answer(services.visible_challenge(request.user, challenge_id))


class ChallengeAcceptView(APIView):
    @extend_schema(request=AcceptSerializer, responses=ChallengeSerializer,
                   summary="Accept a challenge (the game starts once everyone accepted: `game`); the card game: "
                           "with the deck you bring")
    def post(self, request: Request, challenge_id: int) -> Response:
        deck = _valid(AcceptSerializer, request)["deck"] if request.data else ""
        return _answer(services.do_accept(challenge_id, request.user, deck))


class ChallengeDeclineView(APIView):
    @extend_schema(request=DeclineSerializer, responses=ChallengeSerializer,
                   summary="Decline a challenge, with a reason (the challenge ends)")
    def post(self, request: Request, challenge_id: int) -> Response:
        return _answer(services.do_decline(challenge_id, request.user, _valid(DeclineSerializer, request)["reason"]))


class ChallengeCancelView(APIView):
    @extend_schema(request=None, responses=ChallengeSerializer, summary="Challenger: cancel your challenge")
    def post(self, request: Request, challenge_id: int) -> Response:
        return _answer(services.do_cancel(challenge_id, request.user))
