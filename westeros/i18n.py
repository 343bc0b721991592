"""The site's two languages (issue 29): which one a request is answered in, the switch that
changes it, and the pages' scripts' catalogue.

A request's language is the account's setting (`User.language`, when the user chose one), else the
language cookie (a visitor's choice, Django's `django_language`), else the browser's
Accept-Language, else English (settings.LANGUAGE_CODE). The API follows the same rule; a client
with a token is known only inside the API view, so its account's setting is applied there
(use_account_language, called by accounts.authentication).
"""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST
from django.views.i18n import JavaScriptCatalog, set_language

SUPPORTED = {code for code, _name in settings.LANGUAGES}
CATALOG_CACHE_SECONDS = 24 * 3600


TOKEN_KEYWORDS = ("token", "bearer")  # accounts.authentication's (not imported: it imports this module)


def carries_api_token(request: HttpRequest) -> bool:
    """An API request with a token (`Authorization: Token <key>` or `Bearer <key>`): the token decides
    who asks (accounts.authentication, tried before the session), and applies its account's language."""
    if not request.path.startswith("/api/"):
        return False
    words = request.META.get("HTTP_AUTHORIZATION", "").split(None, 1)
    return bool(words) and words[0].lower() in TOKEN_KEYWORDS


def account_language(request: HttpRequest) -> str:
    """The language the logged-in account chose, or "" (none chosen, or a visitor). Not read for an API
    request with a token: the session's account is not the one asking (its token's is, whose language
    use_account_language applies), and reading it cost a token request that also sent a session cookie
    two queries, the session and its user (issue 27)."""
    if carries_api_token(request):
        return ""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "")
    return language if language in SUPPORTED else ""


def in_language_of(user):
    """Words for `user` where no request tells the language (e-mails, webhooks): their account's
    setting, else English. A context manager (Django's translation.override)."""
    return translation.override(getattr(user, "language", "") or settings.LANGUAGE_CODE)


def use_account_language(user) -> None:
    """The account's language from here on, for a client known only once the API view authenticated
    it (a token); nothing when the account follows its browser. The middleware gives the thread its
    language back after the response."""
    if getattr(user, "language", "") in SUPPORTED:
        translation.activate(user.language)


class SiteLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware with the account's setting first. It runs after
    AuthenticationMiddleware (so the user is known); the site has no language prefix in its URLs,
    so nothing before it needs the language."""

    def process_request(self, request: HttpRequest) -> None:
        # the thread's language before this request, given back after it: a Spanish request must
        # not leave Spanish behind for whatever the thread runs next outside a request (Django's
        # LocaleMiddleware leaves it; a test calling a function after a Spanish page saw Spanish)
        request._language_before = translation.get_language()
        language = account_language(request) or translation.get_language_from_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)
        before = getattr(request, "_language_before", None)
        if before is None:
            translation.deactivate()
        else:
            translation.activate(before)
        return response


@require_POST
def switch_language(request: HttpRequest) -> HttpResponse:
    """The footer's "English · Español" form: Django's set_language (the cookie, then back to the
    page), and the account's setting when someone is logged in, so it follows them to other
    browsers. An unknown language changes nothing (set_language ignores it)."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if language in SUPPORTED and request.user.is_authenticated and request.user.language != language:
        from accounts.services import do_set_language

        do_set_language(request.user, language)
    return response


# Each language's catalogue, built once per process (the translations do not change while it runs;
# with DEBUG on, every time, so a recompiled catalogue shows at once). Not in the shared cache: the
# pages' scripts must get their words even while Redis is down.
_CATALOGUES: dict[str, bytes] = {}


def javascript_catalog(request: HttpRequest, language: str) -> HttpResponse:
    """The catalogue of static/js/*.js's strings (djangojs.po; Django's JavaScriptCatalog) for the
    language in the URL (/jsi18n/es/): each language has its own address, so browsers keep one copy
    per language (a day) and a switch never serves the other language's copy."""
    language = language if language in SUPPORTED else settings.LANGUAGE_CODE
    body = _CATALOGUES.get(language)
    if body is None:
        with translation.override(language):
            body = JavaScriptCatalog.as_view()(request).content
        if not settings.DEBUG:
            _CATALOGUES[language] = body
    response = HttpResponse(body, content_type='text/javascript; charset="utf-8"')
    patch_cache_control(response, public=True, max_age=CATALOG_CACHE_SECONDS)
    return response
