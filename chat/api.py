"""REST endpoints for game chat: history (paginated, newest first) and posting. Thin: the rules
live in chat.services."""
from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.generics import ListAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chat import conf, services
from chat.models import ChatMessage
from chat.serializers import ChatChannelsSerializer, ChatMessageSerializer, ChatPostSerializer, message_rows
from westeros.fields import BIG_INTEGER_MAX
from westeros.pagination import _whole as whole_number

INVITE = OpenApiParameter("invite", str, description="a private game's invite token (spectators)")


class ChatPagination(CursorPagination):
    ordering = "-id"
    page_size_query_param = "limit"

    def get_page_size(self, request: Request) -> int:
        """`limit` from 1 to CHAT_MAX_PAGE_SIZE; anything else (`limit=null`, `limit=abc`, 0, too many)
        is a 400 in the API's error shape naming `limit`, not silently the default page."""
        self.max_page_size = conf.get("CHAT_MAX_PAGE_SIZE")
        self.page_size = conf.get("CHAT_PAGE_SIZE")
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            return self.page_size
        return whole_number(raw, self.page_size_query_param, 1, self.max_page_size)

    def decode_cursor(self, request: Request):
        """DRF trusts the cursor's position (a message id): a crafted one ("p=abc") was a 500."""
        cursor = super().decode_cursor(request)
        if cursor is not None and cursor.position is not None:
            position = cursor.position
            if not (position.isascii() and position.isdigit() and len(position) <= 19
                    and int(position) <= BIG_INTEGER_MAX):
                raise NotFound(self.invalid_cursor_message)
        return cursor


class GameChatView(ListAPIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = ChatMessageSerializer
    pagination_class = ChatPagination

    def get_queryset(self):  # the schema's (the messages are read by list())
        return ChatMessage.objects.none()

    def list(self, request: Request, *args, **kwargs) -> Response:
        """A page of the channel's messages, written from their values (chat.serializers.message_rows: what
        ChatMessageSerializer writes, without its fields' cost for each of a page's 50 messages; issue 27)."""
        game, messages = services.history_rows(self.kwargs["game_id"], request.user,
                                               request.query_params.get("channel", "table"),
                                               request.query_params.get("invite"))
        page = self.paginate_queryset(messages)
        return self.get_paginated_response(message_rows(page, game))

    @extend_schema(
        summary="A chat channel's messages, newest first (members only; spectators read the table if allowed)",
        parameters=[
            OpenApiParameter("channel", str, description='"table" (default) or two seats, e.g. "lannister-stark"'),
            OpenApiParameter("limit", {"type": "integer", "minimum": 1, "maximum": 200},
                             description="messages per page (default 50, at most 200; anything else is a 400)"),
            INVITE,
        ],
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=ChatPostSerializer, responses={201: ChatMessageSerializer},
                   summary="Send a chat message from your seat (the websocket accepts the same)")
    def post(self, request: Request, game_id: int) -> Response:
        serializer = ChatPostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        message = services.do_send_message(game_id, request.user, data["channel"], data["text"])
        payload = dict(ChatMessageSerializer(message).data)
        if message.live_delivery_failed:  # Redis down: stored, but nobody's socket got it
            payload["notice"] = gettext("Your message was stored, but live delivery is unavailable right now: "
                                        "the others see it when they reload the chat.")
        return Response(payload, status=status.HTTP_201_CREATED)


class GameChatChannelsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=ChatChannelsSerializer, parameters=[INVITE],
                   summary="The chat channels you may read in a game, and where you may write")
    def get(self, request: Request, game_id: int) -> Response:
        payload = services.channels_for(game_id, request.user, request.query_params.get("invite"))
        return Response(ChatChannelsSerializer(payload).data)
