from __future__ import annotations

from django.urls import path

from chat import api

urlpatterns = [
    path("games/<int:game_id>/chat", api.GameChatView.as_view(), name="api-game-chat"),
    path("games/<int:game_id>/chat/channels", api.GameChatChannelsView.as_view(), name="api-game-chat-channels"),
]
