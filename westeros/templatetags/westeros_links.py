"""Absolute links in what the site sends (e-mails), built from SITE_URL, never from the request's
Host header: one canonical address whichever host name or proxy a request came through."""
from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def site_url() -> str:
    """SITE_URL without a trailing slash: `{% site_url %}{% url 'name' %}` is an absolute link."""
    return settings.SITE_URL.rstrip("/")
