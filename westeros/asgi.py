"""ASGI entry point (Daphne): HTTP through Django, websockets through Channels."""
from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")
# Django must be set up before anything imports models (consumers, middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from accounts.ws_auth import TokenAuthMiddleware  # noqa: E402
from westeros.heap import CollectBetweenRequests, tune_when_serving  # noqa: E402
from westeros.routing import websocket_urlpatterns  # noqa: E402
from westeros.socket_db import HandshakeGate, PooledAuthMiddlewareStack  # noqa: E402


def websocket_application():
    """Websockets: origin checked against ALLOWED_HOSTS (read now), then the session user, replaced by
    the token's user when the client authenticates with an API token. Both read the database on the
    sockets' own threads (westeros/socket_db.py), a few handshakes at a time in the order they came
    (HandshakeGate)."""
    return AllowedHostsOriginValidator(
        HandshakeGate(PooledAuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))))


http_application = CollectBetweenRequests(django_asgi_app)  # garbage collected between requests (westeros/heap.py)
application = ProtocolTypeRouter({"http": http_application, "websocket": websocket_application()})

# Embedded mode (no Redis, so no Celery): this process sweeps deadlines itself, so its timeouts
# reach the websockets through the in-memory channel layer (games/runner.py). With Celery it sweeps
# only the deadlines the workers left overdue for more than DEADLINE_FALLBACK_GRACE_SECONDS (all
# workers down), through the shared channel layer.
from django.conf import settings  # noqa: E402

from games.runner import start_in_server, warm_up  # noqa: E402

warm_up()  # the rulesets imported now, not by the first action or timeout
if settings.DEADLINE_RUNNER_IN_SERVER:
    start_in_server()
elif settings.DEADLINE_FALLBACK_IN_SERVER:
    start_in_server(fallback=True)
tune_when_serving(http_application)  # the garbage collector set for a server (westeros/heap.py)
