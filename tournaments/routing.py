"""Websocket routes of tournaments; westeros/routing.py includes them:
    from tournaments.routing import websocket_urlpatterns as tournament_routes
    websocket_urlpatterns = [..., *tournament_routes]
"""
from __future__ import annotations

from django.urls import path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
