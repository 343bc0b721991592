"""Pages: the event list and the event page (registration, rounds, tables, standings). Thin: the
services do the work; errors come back as messages."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.errors import GameError
from tournaments import services
from tournaments.api import rounds_of
from tournaments.models import Registration, Tournament


def _error_text(error: GameError) -> str:
    fields = getattr(error, "fields", None) or {}
    extra = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in fields.items())
    return f"{error.detail} {extra}".strip()


def tournament_list(request: HttpRequest) -> HttpResponse:
    qs = Tournament.objects.filter(bots_only=False).select_related("organizer")
    status = request.GET.get("status", "")
    if status in Tournament.Status.values:
        qs = qs.filter(status=status)
    return render(request, "tournaments/list.html", {"tournaments": qs[:200], "status": status,
                                                     "statuses": Tournament.Status.values})


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = get_object_or_404(Tournament.objects.select_related("organizer").prefetch_related("co_organizers"),
                          pk=tournament_id)
    mine = None
    if request.user.is_authenticated:
        mine = Registration.objects.filter(tournament=t, user=request.user).first()
    registrations = Registration.objects.filter(tournament=t).select_related("user")
    return render(request, "tournaments/detail.html", {
        "t": t,
        "mine": mine,
        "is_organizer": t.is_organizer(request.user),
        "registrations": registrations,
        "rounds": rounds_of(t),
        "standings": services.standings(t) if t.status != Tournament.Status.REGISTRATION else [],
        "registration_open": t.registration_open(),
    })


@login_required
@require_POST
def tournament_action(request: HttpRequest, tournament_id: int, verb: str) -> HttpResponse:
    actions = {
        "register": services.do_register,
        "withdraw": services.do_withdraw,
        "check-in": services.do_check_in,
        "start": services.do_start,
        "start-round": services.do_start_round,
        "end": services.do_end,
    }
    if verb not in actions:
        raise Http404("No such action.")
    try:
        actions[verb](tournament_id, request.user)
    except GameError as exc:
        messages.error(request, _error_text(exc))
    return redirect("tournament", tournament_id=tournament_id)
