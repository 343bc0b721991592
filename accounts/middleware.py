"""Bot accounts act only through the API with a token (docs/bots.md).

A bot account may still log in to the site's pages (to manage its tokens, read its games), but a
change made with its browser session is refused: 403 `bot_api_only`, in the API's error shape under
/api/, a sentence elsewhere. Account management (/accounts/: tokens, password, notifications) stays
open, and a request carrying an `Authorization` header is the token's business (DRF checks it)."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy

from westeros.api_errors import error_body, is_api_request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# lazy: said in the request's language (the code bot_api_only stays English)
BOT_SESSION_MESSAGE = gettext_lazy("This is a bot account: it plays only through the API with a token "
                                   "(Authorization: Token <key>), not with the site's pages or a browser session.")
ACCOUNT_PATHS = ("/accounts/", "/admin/", "/api/v1/auth/", "/api/v1/me/tokens", "/api/v1/me/notifications")


class BotSessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (request.method not in SAFE_METHODS and "HTTP_AUTHORIZATION" not in request.META
                and not request.path.startswith(ACCOUNT_PATHS) and settings.SESSION_COOKIE_NAME in request.COOKIES):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and getattr(user, "is_bot", False):
                if is_api_request(request):
                    return JsonResponse(error_body("bot_api_only", str(BOT_SESSION_MESSAGE)), status=403)
                return HttpResponse(str(BOT_SESSION_MESSAGE), status=403, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
