"""One error format for every API 4xx/5xx: {"error": code, "detail": message, "fields": {...}}.

"detail" is in the request's language (westeros/i18n.py: the account's, else Accept-Language), "error"
is a code and stays English; DRF's own messages come translated by DRF."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def error_body(code: str, detail: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"error": code, "detail": detail, "fields": fields or {}}


def _flatten(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten(item) for item in detail]
    return str(detail)


class PayloadTooLarge(exceptions.APIException):
    status_code = 413
    default_code = "too_large"
    default_detail = gettext_lazy("The request body is too large.")


def too_large_detail() -> str:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if not limit:
        return str(PayloadTooLarge.default_detail)
    return gettext("The request body is too large (at most %(limit)d bytes).") % {"limit": limit}


def too_large_response(request) -> HttpResponse:
    """413 for a body over DATA_UPLOAD_MAX_MEMORY_SIZE: the error shape under /api/, text elsewhere."""
    if is_api_request(request):
        return JsonResponse(error_body("too_large", too_large_detail()), status=413)
    return HttpResponse(too_large_detail(), status=413, content_type="text/plain")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(too_large_detail())
    elif isinstance(exc, TooManyFieldsSent):
        exc = exceptions.ParseError(str(exc))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real server error: Django's handler500 answers (JSON under /api/)
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        if isinstance(detail, dict):
            fields = _flatten(detail)
            non_field = fields.pop("non_field_errors", None)
            message = "; ".join(non_field) if non_field else gettext("Some fields are not valid.")
            response.data = error_body("invalid", message, fields)
        else:
            messages = _flatten(detail if isinstance(detail, list) else [detail])
            response.data = error_body("invalid", "; ".join(messages))
        return response
    fields = getattr(exc, "fields", None)
    if fields is not None:  # games.errors.GameError: its own code, fields and extra keys (version)
        response.data = {**error_body(exc.detail.code, str(exc.detail), fields), **exc.extra}
        return response
    code = getattr(exc, "default_code", "error")
    detail = getattr(exc, "detail", str(exc))
    if isinstance(detail, dict | list):
        response.data = error_body(code, gettext("Request refused."), {"detail": _flatten(detail)})
    else:
        response.data = error_body(getattr(detail, "code", None) or code, str(detail))
    return response


@csrf_exempt  # a POST to no endpoint is a JSON 404, not Django's HTML CSRF page
def api_not_found(request, *args, **kwargs) -> JsonResponse:
    return JsonResponse(error_body("not_found", gettext("No API endpoint at %(path)s.") % {"path": request.path}),
                        status=404)


def is_api_request(request) -> bool:
    return request.path.startswith("/api/")


def handler404(request, exception=None):
    if is_api_request(request):
        return api_not_found(request)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def handler500(request):
    if is_api_request(request):
        return JsonResponse(error_body("server_error", gettext("The server failed; the error was logged.")), status=500)
    from django.views.defaults import server_error

    return server_error(request)
