"""The e-mail backend of a site with DEBUG off and no EMAIL_HOST: it sends nothing and prints
nothing. (Django's console backend would print every message into the server log, and a
password-reset link there is a key to that account.) `manage.py check --deploy` reports it
(westeros.E001)."""
from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend

NOT_CONFIGURED_BACKEND = "westeros.mail.NotConfiguredEmailBackend"


class EmailNotConfigured(RuntimeError):
    pass


class NotConfiguredEmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        if email_messages and not self.fail_silently:
            recipients = sorted({address for message in email_messages for address in message.recipients()})
            raise EmailNotConfigured(
                f"e-mail is not configured (DEBUG is off and EMAIL_HOST is not set): {len(email_messages)} message(s) "
                f"to {', '.join(recipients)} not sent"
            )
        return 0
