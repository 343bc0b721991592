"""BOT next to a bot account's name on the pages: {% load bots %}, then `{{ user|player }}` (a User:
its name, with the badge when it is a bot account) or `{% bot_badge user %}` (the badge alone, after
a name written otherwise). See docs/bots.md."""
from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def badge() -> SafeString:
    """The BOT badge, its explanation in the page's language ("BOT" reads the same in both)."""
    return format_html('<span class="bot-badge" title="{}">BOT</span>',
                       gettext("a bot account: a program playing through the API"))


def is_bot_account(user) -> bool:
    """A User with is_bot, or a row (dict) with `bot` as the API writes it."""
    if isinstance(user, dict):
        return bool(user.get("bot"))
    return bool(getattr(user, "is_bot", False))


@register.filter
def player(user) -> SafeString:
    """The user's name, escaped, followed by the BOT badge for a bot account."""
    if user is None:
        return mark_safe("")
    name = getattr(user, "username", user)
    if is_bot_account(user):
        return format_html("{} {}", name, badge())
    return format_html("{}", name)


@register.simple_tag
def bot_badge(user) -> SafeString:
    return format_html(" {}", badge()) if is_bot_account(user) else mark_safe("")
