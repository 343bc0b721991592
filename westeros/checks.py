"""System checks for a public deployment, run by `manage.py check --deploy` (deploy/deploy.sh runs it
before migrating and restarting, and stops on any of them). Tagged `deploy` so that the test suite,
which runs with DEBUG off but is no public site, is not refused."""
from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import Error, Tags, register

from westeros.mail import NOT_CONFIGURED_BACKEND

LOOPBACK = {"127.0.0.1", "localhost", "::1", "0.0.0.0", ""}


@register(Tags.security, deploy=True)
def public_site_settings(app_configs=None, **kwargs) -> list[Error]:
    if settings.DEBUG:
        return []
    errors = []
    if settings.EMAIL_BACKEND == NOT_CONFIGURED_BACKEND:
        errors.append(Error(
            "E-mail is not configured: DEBUG is off and EMAIL_HOST is not set, so password-reset and "
            "notification e-mails are refused (never printed into the server log).",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS), or choose "
                 "EMAIL_BACKEND explicitly.",
            id="westeros.E001",
        ))
    if (urlsplit(settings.SITE_URL).hostname or "") in LOOPBACK:
        errors.append(Error(
            f"SITE_URL is {settings.SITE_URL!r}: the links in e-mails and webhooks would point at this machine's "
            "loopback address.",
            hint="Set SITE_URL to the address players use, e.g. https://westeros.example.",
            id="westeros.E002",
        ))
    return errors
