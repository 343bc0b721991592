"""What a request does when a service it needs is down: a temporary outage, never a 500.

- The database (OperationalError, InterfaceError): westeros.middleware answers 503 with Retry-After.
  A view that already committed must not let that happen after the commit (games/api.py answers
  with what it knows instead).
- Redis (the cache and the channel layer; README, "When Redis is down"): log-ins are refused with
  503 (accounts/throttle.py, fail closed), chat counts its rate limit in the process and stores
  the message without live delivery (chat/services.py), and websockets close with 4503 (below).
"""
from __future__ import annotations

import json
import logging
from typing import Any

import redis.exceptions
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException

from westeros.api_errors import error_body

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
# Both the cache (redis-py) and channels-redis (redis.asyncio) raise these when Redis is down or hangs.
REDIS_ERRORS: tuple[type[Exception], ...] = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# A websocket closed because a service is down: try again later (1013 would say it, but Daphne lets
# applications send only 1000 and 3000-4999).
WEBSOCKET_UNAVAILABLE = 4503

# The 503 answers' words (westeros.middleware.DatabaseUnavailableMiddleware), one whole sentence per
# service and per kind of request, in the request's language (the codes stay English).
UNAVAILABLE_WORDS = {
    ("database", True): gettext_lazy("The database is busy or unavailable; nothing was changed. Retry shortly."),
    ("database", False): gettext_lazy("The database is busy or unavailable, so the request may not have been "
                                      "completed: re-fetch before retrying."),
    ("cache (Redis)", True): gettext_lazy("The cache (Redis) is busy or unavailable; nothing was changed. Retry "
                                          "shortly."),
    ("cache (Redis)", False): gettext_lazy("The cache (Redis) is busy or unavailable, so the request may not have "
                                           "been completed: re-fetch before retrying."),
}


def unavailable_message(service: str, safe: bool) -> str:
    """The 503's sentence for `service` ("database", "cache (Redis)"): a safe request (GET) changed
    nothing; any other may have been completed."""
    words = UNAVAILABLE_WORDS.get((service, safe))
    if words is not None:
        return str(words)
    if safe:
        return gettext("The %(service)s is busy or unavailable; nothing was changed. Retry shortly.") % {
            "service": service}
    return gettext("The %(service)s is busy or unavailable, so the request may not have been completed: "
                   "re-fetch before retrying.") % {"service": service}


class ServiceUnavailable(APIException):
    """503 in the API's error format, with Retry-After."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "unavailable"
    default_detail = gettext_lazy("A service the site needs is unavailable. Retry shortly.")
    wait = RETRY_AFTER_SECONDS  # DRF's handler turns it into the Retry-After header


def scope_language(scope: dict) -> str:
    """A websocket's language, by the pages' rule (westeros/i18n.py): the account's setting, else the
    language cookie, else Accept-Language, else English. No request exists for a socket, so the
    handshake's headers stand in for one."""
    from http.cookies import SimpleCookie

    from django.conf import settings
    from django.utils.functional import LazyObject, empty

    user = scope.get("user")
    if isinstance(user, LazyObject) and user._wrapped is empty:  # never resolved: no database here
        user = None
    language = getattr(user, "language", "") if getattr(user, "is_authenticated", False) else ""
    if language in {code for code, _name in settings.LANGUAGES}:
        return language
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except Exception:  # a malformed cookie header: as if there were none
        cookies = SimpleCookie()

    class Handshake:  # what Django's get_language_from_request reads of a request
        COOKIES = {key: morsel.value for key, morsel in cookies.items()}
        META = {"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")}
        path_info = "/"

    return translation.get_language_from_request(Handshake())


class CloseWhenLayerDown:
    """ASGI wrapper for a websocket consumer: when Redis (the channel layer) fails, the socket is
    accepted if it was not yet, told {"type": "error", "error": "unavailable", ...} and closed with
    4503. Without it the consumer's exception reaches Daphne, which answers the handshake with an
    HTTP 500 (or closes an open socket with 1011)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        state = {"accepted": False, "closed": False}

        async def tracked_receive() -> dict:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                state["closed"] = True
            return message

        async def tracked_send(message: dict) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await self.app(scope, tracked_receive, tracked_send)
        except REDIS_ERRORS as error:
            log.warning("websocket %s closed: the channel layer is unavailable: %s", scope.get("path"), error)
            if state["closed"]:
                return
            if not state["accepted"]:
                await send({"type": "websocket.accept"})
            with translation.override(scope_language(scope)):
                detail = gettext("Live updates are unavailable right now; reconnect in a few seconds.")
            await send({"type": "websocket.send", "text": json.dumps({"type": "error", **error_body("unavailable", detail)})})
            await send({"type": "websocket.close", "code": WEBSOCKET_UNAVAILABLE})
