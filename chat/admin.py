from __future__ import annotations

from django.contrib import admin

from chat.models import ChatMessage


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("game", "channel", "sender", "sender_seat", "created_at")
    list_filter = ("channel",)
    raw_id_fields = ("game", "sender")
