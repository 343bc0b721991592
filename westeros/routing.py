"""Websocket routes."""
from __future__ import annotations

from django.urls import path

from games.consumers import GameConsumer
from tournaments.routing import websocket_urlpatterns as tournament_routes
from westeros.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    *tournament_routes,
]
