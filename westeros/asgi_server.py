"""The site's Daphne: Daphne's own command line and server, with request bodies bounded (issue 28).

    .venv/bin/python -m westeros.asgi_server [daphne's options] westeros.asgi:application

takes exactly Daphne's options (`--help`). What differs from `.venv/bin/daphne`:

- A body larger than REQUEST_BODY_MAX_SIZE (settings; nginx's client_max_body_size is the same) is
  answered 413 and the connection closed: as soon as Content-Length announces it, before one byte of
  it is read, and for a chunked body as soon as what came passes the limit. The answer is the API's
  error shape under /api/ (as Django's own 413), plain text elsewhere. The connection then reads and
  discards what the client is still sending for at most LINGER_SECONDS (nginx's lingering close), so
  that the client reads the answer instead of a reset.
- Twisted never parses a form body (urlencoded or multipart) itself: by default its Request does,
  in the event loop, before Daphne hands the body to Django, which parses it again in a thread. A
  16 MB urlencoded body froze the process for 15.7 s that way.
- Websocket messages are limited to WEBSOCKET_MAX_MESSAGE_SIZE bytes unless
  --websocket-max-message-size says otherwise, and a larger one closes the socket with a close frame
  1009 ("message too big") before it is read whole; Daphne's default drops the connection instead
  (the client sees 1006, no reason).

`manage.py serve` (Daphne's runserver, what `python3 dev.py start` runs) uses BoundedServer too.
The hook: Server.run() makes Daphne's HTTPFactory, whose connections make WebRequests; BoundedServer
swaps in a factory whose connections make BoundedRequests (Daphne's WebRequest with the limits
above), and turns autobahn's failByDrop off on the websocket factory run() makes.
tests/test_body_limits.py runs this module as a server process."""
from __future__ import annotations

import inspect
import json
import logging
import os

# (daphne, imported first, installs Twisted's asyncio reactor before twisted.internet.reactor is.)
from daphne.cli import CommandLineInterface
from daphne.http_protocol import HTTPFactory, WebRequest
from daphne.server import Server
from daphne.utils import parse_x_forwarded_for
from twisted.internet import reactor
from twisted.web import http

logger = logging.getLogger(__name__)

if "parsePOSTFormSubmission" not in inspect.signature(http.Request.__init__).parameters:
    raise ImportError("westeros.asgi_server needs a Twisted whose Request takes parsePOSTFormSubmission "
                      "(pip install --upgrade twisted)")

# How long a refused connection goes on reading (and discarding) the body it is still being sent.
LINGER_SECONDS = 5


def _settings():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "westeros.settings")
    from django.conf import settings

    return settings


class BoundedRequest(WebRequest):
    """Daphne's WebRequest that refuses a body over the server's request_body_max_size, and leaves
    form bodies to Django (no parsing by Twisted in the event loop)."""

    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)
        self.body_limit = self.server.request_body_max_size
        self.body_received = 0
        self.refused = False
        self.lingering = None

    def gotLength(self, length):
        if length is not None and length > self.body_limit:
            # No "100 Continue" after the answer (Twisted sends it right after this, when asked).
            self.requestHeaders.removeHeader(b"Expect")
            self.refuse(f"Content-Length {length}")
            return
        super().gotLength(length)

    def handleContentChunk(self, data):
        if self.refused:
            return
        self.body_received += len(data)
        if self.body_received > self.body_limit:
            self.content.close()
            self.refuse(f"more than {self.body_limit} bytes of a body without Content-Length")
            return
        super().handleContentChunk(data)

    def requestReceived(self, command, path, version):
        if not self.refused:
            super().requestReceived(command, path, version)

    def connectionLost(self, reason):
        if self.lingering is not None and self.lingering.active():
            self.lingering.cancel()
        super().connectionLost(reason)

    def refuse(self, why: str) -> None:
        """Answer 413 on the connection now, then read nothing more of it."""
        self.refused = True
        channel = self.channel
        # The request line is the channel's until the whole request is read (which it never will be).
        method = getattr(channel, "_command", b"").decode("ascii", "replace")
        path = getattr(channel, "_path", b"").split(b"?", 1)[0].decode("ascii", "replace")
        body, content_type = too_large_body(path)
        channel.transport.write(b"HTTP/1.1 413 Content Too Large\r\nContent-Type: %s\r\nContent-Length: %d\r\n"
                                b"Connection: close\r\n\r\n%s" % (content_type, len(body), body))
        client = self.client_address()
        logger.warning("413 for %s %s from %s: %s (the limit is %d bytes)", method, path, client, why,
                       self.body_limit)
        self.server.log_action("http", "complete", {"path": path, "status": 413, "method": method, "client": client,
                                                    "time_taken": 0, "size": len(body)})
        self.linger(channel)

    def linger(self, channel) -> None:
        """Half-close: the answer and a FIN go out; what the client still sends is read and dropped
        (up to another limit's worth, for at most LINGER_SECONDS), then the connection is aborted."""
        transport = channel.transport
        discarded = 0

        def discard(data: bytes) -> None:
            nonlocal discarded
            discarded += len(data)
            if discarded > self.body_limit:
                transport.abortConnection()

        # As Twisted's own websocket upgrade does: the channel's bytes go elsewhere from now on.
        channel.dataReceived = discard
        channel.setTimeout(None)
        try:
            transport.loseWriteConnection()
        except (AttributeError, NotImplementedError):  # a transport that cannot half-close (TLS)
            transport.loseConnection()
        self.lingering = reactor.callLater(LINGER_SECONDS, transport.abortConnection)

    def client_address(self) -> str | None:
        address = [str(self.client.host), self.client.port] if hasattr(self.client, "host") else None
        if self.server.proxy_forwarded_address_header:
            address, _ = parse_x_forwarded_for(self.requestHeaders, self.server.proxy_forwarded_address_header,
                                               self.server.proxy_forwarded_port_header, None, address, None)
        return f"{address[0]}:{address[1]}" if address else None


def too_large_body(path: str) -> tuple[bytes, bytes]:
    """The 413's body and content type: Django's own (westeros/api_errors.py) for the same path."""
    from westeros.api_errors import error_body, too_large_detail

    if path.startswith("/api/"):
        return json.dumps(error_body("too_large", too_large_detail())).encode(), b"application/json"
    return too_large_detail().encode(), b"text/plain; charset=utf-8"


class BoundedHTTPFactory(HTTPFactory):
    def buildProtocol(self, addr):
        protocol = super().buildProtocol(addr)
        protocol.requestFactory = BoundedRequest
        return protocol


class BoundedServer(Server):
    """Daphne's Server whose HTTP requests are BoundedRequests; the limit is REQUEST_BODY_MAX_SIZE
    unless request_body_max_size is given."""

    def __init__(self, *args, request_body_max_size: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if request_body_max_size is None:
            request_body_max_size = _settings().REQUEST_BODY_MAX_SIZE
        self.request_body_max_size = request_body_max_size

    @property
    def http_factory(self):
        return self._http_factory

    @http_factory.setter
    def http_factory(self, factory):
        # Server.run() sets Daphne's own factory here: its bounded subclass instead.
        if type(factory) is HTTPFactory:
            factory = BoundedHTTPFactory(self)
        self._http_factory = factory

    @property
    def ws_factory(self):
        return self._ws_factory

    @ws_factory.setter
    def ws_factory(self, factory):
        # A message over the size limit (or a protocol error) is answered with a close frame and its
        # code (1009 "message too big", 1002...) instead of autobahn's default, a dropped connection
        # that the client can only read as 1006.
        factory.setProtocolOptions(failByDrop=False)
        self._ws_factory = factory


class BoundedCommandLine(CommandLineInterface):
    """Daphne's command line, running a BoundedServer, with the site's websocket message limit as the
    default of --websocket-max-message-size and --websocket-max-frame-size."""

    server_class = BoundedServer

    def __init__(self):
        super().__init__()
        limit = _settings().WEBSOCKET_MAX_MESSAGE_SIZE
        self.parser.set_defaults(websocket_max_message_size=limit, websocket_max_frame_size=limit)
        self.parser.prog = "python -m westeros.asgi_server"
        self.parser.description = ("Daphne (HTTP and websockets) with the site's limits: a request body over "
                                   "REQUEST_BODY_MAX_SIZE is refused with 413 before it is read.")


def main() -> None:
    BoundedCommandLine.entrypoint()


if __name__ == "__main__":
    main()
