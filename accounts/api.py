"""REST endpoints for the caller's account and personal API tokens."""
from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import ApiTokenAuthentication
from accounts.serializers import (
    MeSerializer,
    NewTokenSerializer,
    PasswordTokenSerializer,
    TokenCreateSerializer,
    TokenSerializer,
)
from accounts.services import (
    BotUpgradeRefused,
    LoginLocked,
    do_authenticate,
    do_issue_token,
    do_revoke_token,
    do_set_action_windows,
    do_set_auto_pass,
    do_set_language,
    do_upgrade_to_bot,
)
from accounts.throttle import ThrottleUnavailable
from games.errors import GameError
from westeros.outages import ServiceUnavailable


def _new_token_response(token, key: str) -> Response:
    data = NewTokenSerializer(token).data
    data["key"] = key
    return Response(data, status=status.HTTP_201_CREATED)


class MeView(APIView):
    @extend_schema(responses=MeSerializer, summary="The authenticated user")
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)

    @extend_schema(request=MeSerializer, responses=MeSerializer, summary="Change your account's settings (its language, the card game's automatic pass and action windows)")
    def patch(self, request: Request) -> Response:
        serializer = MeSerializer(request.user, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        if "language" in serializer.validated_data:
            do_set_language(request.user, serializer.validated_data["language"])
        if "auto_pass" in serializer.validated_data:
            do_set_auto_pass(request.user, serializer.validated_data["auto_pass"])
        if "action_windows" in serializer.validated_data:
            do_set_action_windows(request.user, serializer.validated_data["action_windows"])
        return Response(MeSerializer(request.user).data)


class TokenListView(APIView):
    @extend_schema(responses=TokenSerializer(many=True), summary="Your active API tokens (keys are never shown again)")
    def get(self, request: Request) -> Response:
        return Response(TokenSerializer(request.user.active_tokens(), many=True).data)

    @extend_schema(request=TokenCreateSerializer, responses={201: NewTokenSerializer}, summary="Create a token")
    def post(self, request: Request) -> Response:
        serializer = TokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, key = do_issue_token(request.user, serializer.validated_data["name"])
        return _new_token_response(token, key)


class TokenDetailView(APIView):
    @extend_schema(responses={204: None}, summary="Revoke a token; requests using it are refused from now on")
    def delete(self, request: Request, token_id: int) -> Response:
        if do_revoke_token(request.user, token_id) is None:
            raise exceptions.NotFound(gettext("You have no token with this id."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordTokenView(APIView):
    """Exchange a username and password for a new API token (for scripts). Throttled like the log-in page."""

    permission_classes = [AllowAny]
    # No session authentication here (no CSRF needed); the token class only supplies the 401 header.
    authentication_classes = [ApiTokenAuthentication]

    @extend_schema(request=PasswordTokenSerializer, responses={201: NewTokenSerializer}, summary="Log in for a token")
    def post(self, request: Request) -> Response:
        serializer = PasswordTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            user = do_authenticate(request._request, data["username"], data["password"])
        except LoginLocked as locked:
            raise exceptions.Throttled(wait=locked.throttle.retry_after_seconds(), detail=str(locked)) from None
        except ThrottleUnavailable as unavailable:  # fail closed: no unthrottled password guessing
            raise ServiceUnavailable(str(unavailable)) from None
        if user is None or not user.is_active:
            raise exceptions.AuthenticationFailed(gettext("Wrong username or password."))
        token, key = do_issue_token(user, data["name"])
        return _new_token_response(token, key)


class BotUpgradeView(APIView):
    """lichess's POST /api/bot/account/upgrade: the account becomes a bot account, for good."""

    @extend_schema(
        request=None, responses=MeSerializer,
        summary="Turn your account into a bot account (irreversible; only without ranked games)",
        description=(
            "A bot account plays only through the API with a token (a change made with its browser session is "
            "refused 403 `bot_api_only`) and is shown as BOT wherever its name appears (`bot: true` in the API). "
            "Refused with 409 `already_bot`, or `has_rated_games` when the account has played a ranked game. "
            "See docs/bots.md."),
    )
    def post(self, request: Request) -> Response:
        try:
            user = do_upgrade_to_bot(request.user)
        except BotUpgradeRefused as refused:
            raise GameError(refused.code, str(refused), status_code=409) from None
        return Response(MeSerializer(user).data)
