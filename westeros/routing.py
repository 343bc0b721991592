"""Websocket routes. Each app adds its consumers here (games: /ws/games/<id>/, issue 6)."""
from __future__ import annotations

from django.urls import path

from westeros.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
