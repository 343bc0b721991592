"""`manage.py serve [ADDRESS]`: the server `python3 dev.py start` runs. It is Daphne's runserver
(HTTP and websockets, static files while DEBUG is on, a reload on code changes) with two changes:
- it listens with a backlog of LISTEN_BACKLOG connections instead of Twisted's 50, so a burst of
  simultaneous requests waits to be accepted instead of being reset;
- its server is the site's bounded Daphne (westeros/asgi_server.py): a request body over
  REQUEST_BODY_MAX_SIZE is refused with 413 before it is read, and Twisted parses no form body.
Websocket messages are limited by Daphne's runserver itself, to DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE
(WEBSOCKET_MAX_MESSAGE_SIZE). Production runs the same server with the same backlog
(`python -m westeros.asgi_server`, README, "Production")."""
from __future__ import annotations

from daphne.management.commands.runserver import Command as DaphneRunserver
from django.conf import settings

from westeros.asgi_server import BoundedServer


def with_backlog(endpoint: str, backlog: int) -> str:
    """A Twisted TCP endpoint description with a listen backlog (unless it sets one)."""
    if not endpoint.startswith("tcp:") or ":backlog=" in endpoint:
        return endpoint
    return f"{endpoint}:backlog={backlog}"


class BacklogServer(BoundedServer):
    def __init__(self, *args, endpoints, **kwargs):
        super().__init__(*args, endpoints=[with_backlog(e, settings.LISTEN_BACKLOG) for e in endpoints], **kwargs)


class Command(DaphneRunserver):
    help = ("Daphne's development server (HTTP and websockets) with a listen backlog of LISTEN_BACKLOG and "
            "request bodies bounded by REQUEST_BODY_MAX_SIZE.")
    server_cls = BacklogServer
