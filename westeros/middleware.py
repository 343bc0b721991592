"""Middleware that turns what is not a bug into a clear answer, in the API's error format under /api/.

RequestLimitsMiddleware (first in MIDDLEWARE): a body larger than DATA_UPLOAD_MAX_MEMORY_SIZE is a
413 before anything reads it, and a NUL character in the path (404), a query parameter or a header
(400) is refused before it can reach PostgreSQL, which refuses NUL in text ("A string literal cannot
contain NUL (0x00) characters": a 500 otherwise).

DatabaseUnavailableMiddleware: a database or Redis that cannot be reached (pool exhausted, server
restarting) is a temporary outage, not a bug: answer 503 with Retry-After.

The answer says only what is known. A read changed nothing; a write may have committed before the
failure (views that commit and then re-read answer with what they committed themselves, see
games/api.py), so it is told to re-fetch before retrying."""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse

from westeros.api_errors import error_body, is_api_request, too_large_response
from westeros.outages import DATABASE_ERRORS, REDIS_ERRORS, RETRY_AFTER_SECONDS
from westeros.outages import unavailable_message as outage_words

log = logging.getLogger(__name__)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def unavailable_message(service: str, method: str) -> str:
    """The 503's sentence, in the request's language (westeros/outages.py holds the words)."""
    return outage_words(service, method in SAFE_METHODS)


NUL_MESSAGE = "NUL characters are not allowed."


def _header_name(meta_key: str) -> str:
    name = meta_key.removeprefix("HTTP_")
    return "-".join(part.capitalize() for part in name.split("_"))


class RequestLimitsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.refusal(request) or self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, RequestDataTooBig):  # a body without Content-Length that grew too big
            return too_large_response(request)
        return None

    @staticmethod
    def refusal(request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if limit is not None and length > limit:
            return too_large_response(request)
        if "\x00" in request.path:
            if is_api_request(request):
                return JsonResponse(error_body("not_found", "No API endpoint at this path (it holds a NUL)."),
                                    status=404)
            return HttpResponse("Not found: the path holds a NUL character.", status=404, content_type="text/plain")
        fields: dict[str, list[str]] = {}
        for key, values in request.GET.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                fields[key.replace("\x00", "\\u0000")] = [NUL_MESSAGE]
        for key, value in request.META.items():
            if (key.startswith("HTTP_") or key in {"CONTENT_TYPE"}) and isinstance(value, str) and "\x00" in value:
                fields[_header_name(key)] = [NUL_MESSAGE]
        if not fields:
            return None
        detail = "Some parameters hold NUL characters."
        if is_api_request(request):
            return JsonResponse(error_body("invalid", detail, fields), status=400)
        return HttpResponse(detail, status=400, content_type="text/plain")


class DatabaseUnavailableMiddleware:
    """The database, and Redis (the cache behind log-in throttling and chat limits)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_ERRORS):
            service = "database"
        elif isinstance(exception, REDIS_ERRORS):
            service = "cache (Redis)"
        else:
            return None
        log.warning("%s unavailable for %s %s: %s", service, request.method, request.path, exception)
        message = unavailable_message(service, request.method)
        if is_api_request(request):
            response = JsonResponse(error_body("unavailable", message), status=503)
        else:
            response = HttpResponse(message, status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
