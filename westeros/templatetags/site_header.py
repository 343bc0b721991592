"""The site's header (templates/_site_header.html: the navigation) on every page: `{% site_header %}`
in base.html. It was rendered afresh on every page (fifteen links reversed, twenty translations: a
third of base.html's cost; issue 27), though it says only who reads it: it is kept per process,
rendered once for each set of what it shows (the language, the script prefix and URLconf its links
are made with, whether someone is signed in, their name, their challenges' count), so a new name or
count is a new key at once; the CSRF token of its Log out form is written in per request."""
from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()

CSRF_MARK = "\x00csrf\x00"  # the nul character never comes in a value shown
_KEPT: dict[tuple, str] = {}
KEPT_HEADERS = 10_000  # renderings kept per process (all forgotten at once past that)


@register.simple_tag(takes_context=True)
def site_header(context) -> str:
    from challenges.templatetags.challenge_tags import waiting_challenges

    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated)
    count = waiting_challenges(context) if signed_in else 0
    key = (get_language(), get_script_prefix(), get_urlconf(), signed_in, user.username if signed_in else None, count)
    html = _KEPT.get(key)
    if html is None:
        html = render_to_string("_site_header.html", {"user": user, "challenges_waiting": count,
                                                     "csrf_token": CSRF_MARK}).strip()
        if len(_KEPT) >= KEPT_HEADERS:
            _KEPT.clear()
        _KEPT[key] = html
    if signed_in:  # the token as {% csrf_token %} writes it (nothing without one, or with Django's NOTPROVIDED)
        token = context.get("csrf_token")
        token = str(token) if token else ""
        field = format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', CSRF_MARK)
        html = (html.replace(CSRF_MARK, format_html("{}", token)) if token and token != "NOTPROVIDED"
                else html.replace(field, ""))
    return mark_safe(html)
