"""A select's options written in one call (issue 27, thirteenth round): the forms' option lists (the
games, the times, the decks, the armies...) were template loops resolving each option's value, label and
comparison again, most of the lobby and challenge forms' rendering."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def options(choices: Iterable[tuple[Any, Any]], selected: Any = None, default: Any = None) -> SafeString:
    """`<option value="v" selected>label</option>` for each (value, label) of `choices`, the one whose value is
    `selected` marked (compared as text, as a form's data is), or `default`'s when `selected` is empty. Written
    as the loops wrote them: `<option value="v" >label</option>` when not selected."""
    chosen = default if selected is None or selected == "" else selected
    chosen = None if chosen is None else str(chosen)
    return mark_safe("".join(
        f'<option value="{conditional_escape(value)}" {"selected" if str(value) == chosen else ""}>'
        f"{conditional_escape(label)}</option>" for value, label in choices))
