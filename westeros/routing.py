"""Websocket routes. Every consumer is wrapped so that Redis being down closes the socket with 4503
instead of failing the handshake with a 500 (westeros/outages.py)."""
from __future__ import annotations

from django.urls import URLPattern, path

from games.consumers import GameConsumer
from tournaments.routing import websocket_urlpatterns as tournament_routes
from westeros.consumers import PingConsumer
from westeros.outages import CloseWhenLayerDown


def _closing_when_layer_down(route: URLPattern) -> URLPattern:
    return URLPattern(route.pattern, CloseWhenLayerDown(route.callback), route.default_args, route.name)


websocket_urlpatterns = [
    _closing_when_layer_down(route)
    for route in (
        path("ws/ping/", PingConsumer.as_asgi()),
        path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
        *tournament_routes,
    )
]
