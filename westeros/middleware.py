"""A database that cannot be reached (pool exhausted, server restarting) is a temporary outage,
not a bug: answer 503 with Retry-After, in the API's error format under /api/."""
from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse

from westeros.api_errors import error_body, is_api_request

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.warning("database unavailable for %s: %s", request.path, exception)
        message = "The database is busy or unavailable; nothing was changed. Retry shortly."
        if is_api_request(request):
            response = JsonResponse(error_body("unavailable", message), status=503)
        else:
            response = HttpResponse(message, status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
