"""The site's header (templates/_site_header.html: the navigation) on every page: `{% site_header %}`
in base.html; and its footer (templates/_site_footer.html: the language switch), `{% site_footer %}`.
The header was rendered afresh on every page (fifteen links reversed, twenty translations: a
third of base.html's cost; issue 27), though it says only who reads it: it is kept per process,
rendered once for each set of what it shows (the language, the script prefix and URLconf its links
are made with, whether someone is signed in, their name, their challenges' count), so a new name or
count is a new key at once; the CSRF token of its Log out form is written in per request. The footer
says the same to everyone reading a language (issue 27, tenth round: its language list, link and
translations were rendered afresh on every page): kept per language, script prefix and URLconf, the
page's address (where the switch returns) and the CSRF token written in per request."""
from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from westeros import kept

register = template.Library()

PATH_MARK = kept.mark("path")  # (an address's nul character is %00: never this mark)
_HEADERS = kept.InProcess()
_FOOTERS = kept.InProcess()


@register.simple_tag(takes_context=True)
def site_header(context) -> str:
    from challenges.templatetags.challenge_tags import waiting_challenges

    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated)
    count = waiting_challenges(context) if signed_in else 0
    key = (get_language(), get_script_prefix(), get_urlconf(), signed_in, user.username if signed_in else None, count)
    html = _HEADERS.get(key, lambda: render_to_string("_site_header.html", {
        "user": user, "challenges_waiting": count, "csrf_token": kept.CSRF_MARK}).strip())
    return kept.filled(html, context.get("csrf_token")) if signed_in else mark_safe(html)


@register.simple_tag(takes_context=True)
def site_footer(context) -> str:
    key = (get_language(), get_script_prefix(), get_urlconf())
    html = _FOOTERS.get(key, lambda: render_to_string("_site_footer.html", {"csrf_token": kept.CSRF_MARK,
                                                                           "request_path": PATH_MARK}))
    request = context.get("request")
    path = request.get_full_path() if request is not None else ""
    return kept.filled(html, context.get("csrf_token"), {PATH_MARK: conditional_escape(path)})


@register.simple_tag(takes_context=True)
def with_csrf_token(context, html: str) -> str:
    """HTML kept with CSRF_MARK for its forms' token (rendered with {"csrf_token": kept.CSRF_MARK}), with the
    page's own token written in, as {% csrf_token %} writes it (web/views.py play_now_html)."""
    return kept.filled(str(html), context.get("csrf_token"))
