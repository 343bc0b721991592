"""Challenges on every page: {% load challenge_tags %}, then `{% incoming_challenges %}` (the home
page's section: the challenges waiting for your answer, each with Accept and Decline, rendered by
templates/challenges/_home.html; nothing when there are none) and `{% waiting_challenges as n %}`
(how many wait for your answer: the navigation's count)."""
from __future__ import annotations

from django import template

from challenges import services

register = template.Library()
HOME_CHALLENGES = 10  # the newest challenges waiting for your answer that the home page lists


@register.inclusion_tag("challenges/_home.html", takes_context=True)
def incoming_challenges(context) -> dict:
    from challenges.views import incoming_rows_html

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"rows": []}
    waiting = context.get("challenges_waiting_list")  # read by the page's view (the home page), or here
    if waiting is None:
        waiting = services.waiting_for(user, HOME_CHALLENGES)
    # each row rendered as challenges/_incoming.html does, kept per row (challenges/views.py)
    return {"rows": incoming_rows_html(waiting, user, "/", context.get("csrf_token"))}


@register.simple_tag(takes_context=True)
def waiting_challenges(context) -> int:
    """How many challenges wait for the signed-in user's answer (0 for a visitor): one COUNT query, or
    none on a page that knows it (`challenges_waiting_known`: the challenges page lists them)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    if context.get("challenges_waiting_known") is not None:
        return context["challenges_waiting_known"]
    return services.waiting_count(user)
