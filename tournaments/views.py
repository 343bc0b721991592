"""Pages: the event list and the event page (registration, rounds, tables, standings). Thin: the
services do the work; errors come back as messages."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from games.errors import GameError
from tournaments import services
from tournaments.api import rounds_of
from tournaments.forms import TournamentForm
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


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.do_create_tournament(request.user, services.TournamentSettings(**form.cleaned_data))
        except GameError as exc:
            for name, errors in (getattr(exc, "fields", None) or {}).items():
                form.add_error(name if name in form.fields else None, errors)
            if not getattr(exc, "fields", None):
                form.add_error(None, str(exc.detail))
        else:
            return redirect("tournament", tournament_id=t.pk)
    return render(request, "tournaments/new.html", {"form": form})


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
        # castles and supply are the board game's measures; other games' tables have neither
        "board_game": t.ruleset == "agot",
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
    try:
        if verb in actions:
            actions[verb](tournament_id, request.user)
        elif verb == "replace":
            services.do_replace_player(tournament_id, request.user, _named(request.POST.get("old", "")),
                                       _named(request.POST.get("new", "")))
        elif verb == "drop":
            services.do_drop_player(tournament_id, request.user, _named(request.POST.get("user", "")))
        elif verb == "adjudicate":
            table_id = request.POST.get("table", "")
            ranking = [x.strip() for x in request.POST.get("ranking", "").split(",") if x.strip()]
            if not table_id.isdigit():
                raise Http404("No such table.")
            services.do_adjudicate(tournament_id, request.user, int(table_id), ranking)
        else:
            raise Http404("No such action.")
    except GameError as exc:
        messages.error(request, _error_text(exc))
    return redirect("tournament", tournament_id=tournament_id)


def _named(username: str) -> User:
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise GameError("not_found", f"No user named {username!r}.", status_code=404)
    return user
