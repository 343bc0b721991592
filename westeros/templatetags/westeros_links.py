"""Absolute links in what the site sends (e-mails), built from SITE_URL, never from the request's
Host header: one canonical address whichever host name or proxy a request came through. And the
pages' link to their scripts' translations, versioned by what they say."""
from __future__ import annotations

import hashlib
from pathlib import Path

from django import template
from django.conf import settings
from django.urls import reverse

register = template.Library()


@register.simple_tag
def site_url() -> str:
    """SITE_URL without a trailing slash: `{% site_url %}{% url 'name' %}` is an absolute link."""
    return settings.SITE_URL.rstrip("/")


@register.simple_tag
def script_catalog_url(language: str) -> str:
    """The address of the scripts' translations for `language`, versioned by the catalogue's
    content (catalog_version): after a release with new words, pages load the new one."""
    language = language if language in {code for code, _name in settings.LANGUAGES} else settings.LANGUAGE_CODE
    return f"{reverse('javascript-catalog', args=[language])}?v={catalog_version(language)}"


_CATALOGUE_VERSIONS: dict[str, str] = {}


def catalog_version(language: str) -> str:
    """A short digest of the language's compiled script catalogue (djangojs.mo in LOCALE_PATHS): it
    changes whenever the translations do, so a browser never keeps last release's words for a day
    (westeros/i18n.py serves it). Read once per process (with DEBUG on, every time), as the
    catalogue itself is."""
    version = _CATALOGUE_VERSIONS.get(language)
    if version is None:
        digest = hashlib.sha256()
        for folder in settings.LOCALE_PATHS:
            path = Path(folder) / language / "LC_MESSAGES" / "djangojs.mo"
            digest.update(path.read_bytes() if path.exists() else b"-")
        version = digest.hexdigest()[:12]
        if not settings.DEBUG:
            _CATALOGUE_VERSIONS[language] = version
    return version
