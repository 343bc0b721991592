from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from chat.models import ChatMessage
from chat.services import to_html
from games.anonymity import faceless, hides_names


class ChatMessageSerializer(serializers.ModelSerializer):
    """A message: `text` is raw (render it as text), `html` is the same text escaped for HTML."""

    sender = serializers.SerializerMethodField(help_text="the sender's username (null once the account is deleted; "
                                                         "\"a faceless player\" while a game with anonymous players runs)")
    seat = serializers.CharField(source="sender_seat", read_only=True)
    html = serializers.SerializerMethodField(help_text="the text HTML-escaped, newlines as <br>")

    class Meta:
        model = ChatMessage
        fields = ("id", "channel", "sender", "seat", "text", "html", "created_at")

    @extend_schema_field(OpenApiTypes.STR)
    def get_sender(self, message: ChatMessage) -> str | None:
        if message.sender is None:
            return None
        return faceless() if hides_names(message.game) else message.sender.username

    def get_html(self, message: ChatMessage) -> str:
        return to_html(message.text)


_WHEN = serializers.DateTimeField()  # a datetime as DRF writes it (the current time zone, ISO 8601, "Z")


def message_rows(rows, game) -> list[dict]:
    """ChatMessageSerializer(messages, many=True).data for a page of one game's messages read as values
    (chat.services.HISTORY_COLUMNS), the same keys in the same order and the same values, written out:
    DRF's fields were most of the chat history's CPU for a page of messages (issue 27). The serializer
    stays the schema and the shape of a message sent; a test compares the two."""
    when = _WHEN.to_representation
    hidden = faceless() if hides_names(game) else None
    return [{"id": row["id"], "channel": row["channel"],
             "sender": None if row["sender_id"] is None else hidden or row["sender__username"],
             "seat": row["sender_seat"], "text": row["text"], "html": to_html(row["text"]),
             "created_at": when(row["created_at"])}
            for row in rows]


class ChatPostSerializer(serializers.Serializer):
    channel = serializers.CharField(max_length=80, default="table",
                                    help_text='"table" or two seats, e.g. "lannister-stark"')
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text="the message, at most CHAT_MAX_LENGTH (1000) characters")


class ChatChannelSerializer(serializers.Serializer):
    channel = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField())
    can_write = serializers.BooleanField()


class ChatChannelsSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    your_seat = serializers.CharField(allow_null=True)
    private_chat = serializers.BooleanField()
    spectator_chat = serializers.BooleanField()
    channels = ChatChannelSerializer(many=True)
