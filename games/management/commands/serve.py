"""`manage.py serve [ADDRESS]`: the server `python3 dev.py start` runs. It is Daphne's runserver
(HTTP and websockets, static files while DEBUG is on, a reload on code changes) with one change: it
listens with a backlog of LISTEN_BACKLOG connections instead of Twisted's 50, so a burst of
simultaneous requests waits to be accepted instead of being reset. Production runs Daphne itself
with the same backlog (README, "Production")."""
from __future__ import annotations

from daphne.management.commands.runserver import Command as DaphneRunserver
from daphne.server import Server
from django.conf import settings


def with_backlog(endpoint: str, backlog: int) -> str:
    """A Twisted TCP endpoint description with a listen backlog (unless it sets one)."""
    if not endpoint.startswith("tcp:") or ":backlog=" in endpoint:
        return endpoint
    return f"{endpoint}:backlog={backlog}"


class BacklogServer(Server):
    def __init__(self, *args, endpoints, **kwargs):
        super().__init__(*args, endpoints=[with_backlog(e, settings.LISTEN_BACKLOG) for e in endpoints], **kwargs)


class Command(DaphneRunserver):
    help = "Daphne's development server (HTTP and websockets) with a listen backlog of LISTEN_BACKLOG."
    server_cls = BacklogServer
