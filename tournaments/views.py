"""Pages: the event list and the event page (registration, rounds, tables, standings). Thin: the
services do the work; errors come back as messages."""
from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.templatetags.bots import player
from games.errors import GameError
from games.models import GameSeat
from ratings.templatetags.site_words import seat_name
from tournaments import services
from tournaments.forms import TIEBREAKER_FIELDS, TIEBREAKER_NAMES, TournamentForm, ruleset_choices, tiebreakers_of
from tournaments.models import Registration, TableSeat, Tournament
from web.paging import page_of
from westeros import kept

# What the event page says of the statuses and settings, in words (gettext_lazy: said in the reader's
# language; pgettext_lazy where Spanish says it in the gender of what it is said of)
STATUS_WORDS = services.STATUS_WORDS
ROUND_WORDS = {"active": gettext_lazy("being played"), "finished": pgettext_lazy("a round", "finished")}
TABLE_WORDS = {"playing": gettext_lazy("playing"), "finished": pgettext_lazy("a table", "finished"),
               "adjudicated": gettext_lazy("decided by the organizers")}
REGISTRATION_WORDS = {"registered": gettext_lazy("registered"), "checked_in": gettext_lazy("checked in"),
                      "withdrawn": gettext_lazy("withdrawn"),
                      "dropped": gettext_lazy("dropped (no-shows or by the organizers)"),
                      "replaced": gettext_lazy("replaced"), "eliminated": gettext_lazy("eliminated")}
PAGE_WORDS = {
    "ranking": gettext_lazy("Choose each seat once, from first place to last."),
    "places": [gettext_lazy("First place"), gettext_lazy("Second place"), gettext_lazy("Third place"),
               gettext_lazy("Fourth place"), gettext_lazy("Fifth place"), gettext_lazy("Sixth place")],
}


def _join_html(names: list[str]) -> str:
    """The organizers: "arya", "arya, brienne" (each escaped; the separator is ours)."""
    return mark_safe(", ".join(conditional_escape(name) for name in names))


def _error_text(error: GameError) -> str:
    fields = getattr(error, "fields", None) or {}
    extra = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in fields.items())
    return f"{error.detail} {extra}".strip()


def tournament_list(request: HttpRequest) -> HttpResponse:
    qs = Tournament.objects.filter(bots_only=False).select_related("organizer")
    status = request.GET.get("status", "")
    if status in Tournament.Status.values:
        qs = qs.filter(status=status)
    # a page at a time, newest first (issue 27), with what a row says alone
    pager = page_of(request, qs.only("name", "format", "ruleset", "seats_per_table", "status", "current_round",
                                     "created_at", "organizer__username", "organizer__is_bot"))
    rows = pager.rows
    return render(request, "tournaments/list.html", {"tournaments": rows, "pager": pager, "status": status,
                                                     "rows_html": _list_rows_html(rows),
                                                     "statuses": [(value, STATUS_WORDS[value]) for value in Tournament.Status.values]})


LIST_ROWS_SECONDS = 600  # how long a rendering of a page of the list is kept (its key is the rows' values)


def _list_rows_html(rows: list[Tournament]) -> str:
    """A page of the list's rows (tournaments/_list_rows.html), rendered once for the rows as they are
    and kept, per language: their values are the key, so an event that starts, advances a round or
    ends is a new key at once (never a stale row); only the rendering of an unchanged page is saved
    (issue 27: 50 rows of links, filters and translations a request)."""
    values = [(t.pk, t.name, t.format, t.ruleset, t.seats_per_table, t.status, t.current_round,
               t.organizer.username, t.organizer.is_bot) for t in rows]
    key = f"tournaments:list:{get_language()}:{hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()}"
    html = kept.get(key)
    if html is None:
        for t in rows:
            t.status_words = STATUS_WORDS.get(t.status, t.status)
        html = render_to_string("tournaments/_list_rows.html", {"tournaments": rows})
        kept.keep(key, html, LIST_ROWS_SECONDS)
    return mark_safe(html)


# The blank form's fields rendered once per process and language (issue 27, thirteenth round): its 27 widgets were
# most of the page, and a blank TournamentForm takes nothing from its reader but the CSRF token, written in at
# each request (westeros/kept.py with_csrf). A form sent back with errors is rendered afresh.
_BLANK_FORMS = kept.InProcess(limit=16)


def _form_html(request: HttpRequest, form: TournamentForm) -> str:
    if form.is_bound:
        return mark_safe(render_to_string("form.html", {"form": form}, request=request))
    html = _BLANK_FORMS.get(get_language(), lambda: render_to_string("form.html", {"form": form,
                                                                                  "csrf_token": kept.CSRF_MARK}))
    return kept.filled(html, get_token(request))


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.do_create_tournament(request.user, services.TournamentSettings(**form.settings_values()))
        except GameError as exc:
            for name, errors in (getattr(exc, "fields", None) or {}).items():
                name = TIEBREAKER_FIELDS[0] if name == "tiebreakers" else name
                form.add_error(name if name in form.fields else None, errors)
            if not getattr(exc, "fields", None):
                form.add_error(None, str(exc.detail))
        else:
            return redirect("tournament", tournament_id=t.pk)
    return render(request, "tournaments/new.html", {
        "form_html": _form_html(request, form),
        # which tie-breakers each game has, for the page's script (the form refuses the others too)
        "ruleset_tiebreakers": {ruleset: list(tiebreakers_of(ruleset)) for ruleset, _ in ruleset_choices()},
    })


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    # The registrations are read once, with their players: the list, yours, and the standings'; the
    # co-organizers once too. The standings are computed from the rounds the page already read (no query).
    # For everyone but the organizers (whose page has the ranking forms), the standings, rounds and
    # players are the same page in one language: rendered once per change of the event and kept
    # (services.page_version: every change of the event makes a new one; issue 27).
    me = request.user.pk if request.user.is_authenticated else None
    t = get_object_or_404(Tournament.objects.select_related("organizer").prefetch_related("co_organizers"),
                          pk=tournament_id)
    is_organizer = me is not None and (me == t.organizer_id or any(co.pk == me for co in t.co_organizers.all()))
    shared_key = None if is_organizer else (
        f"tournament:page:{t.pk}:{services.page_version(t.pk)}:{get_language()}")
    body_html = kept.get(shared_key) if shared_key else None
    if body_html is not None:
        mine = Registration.objects.filter(tournament=t, user_id=me).first() if me is not None else None
        registrations, rounds, standings = [], [], []
    else:
        registrations = list(Registration.objects.filter(tournament=t).select_related("user", "partner"))
        mine = next((r for r in registrations if me is not None and r.user_id == me), None)
        rounds = services.played_rounds(t)
        _with_players(rounds, registrations)
        _with_games_left(rounds)
        standings = services.standings(t, rounds, registrations) if t.status != Tournament.Status.REGISTRATION else []
    _in_words(t, mine, registrations, rounds, standings,
              ranking_forms=is_organizer and t.status == Tournament.Status.RUNNING)
    _decks_in_words(t, registrations)
    _armies_in_words(t, registrations, rounds)
    context = {
        "t": t,
        "mine": mine,
        "is_organizer": is_organizer,
        "registrations": registrations,
        "rounds": rounds,
        "standings": standings,
        "registration_open": t.registration_open(),
        # castles and supply are the board game's measures; other games' tables have neither
        "board_game": t.ruleset == "agot",
        **_registration_decks(t, request.user, mine),
        **_registration_armies(t, request.user, mine),
        "team_event": services.team_event(t),
        "army_size_words": (gettext("armies of %(points)s points") % {"points": services.game_size(t)}
                            if t.ruleset == "minis" else ""),
    }
    if shared_key and body_html is None:
        body_html = render_to_string("tournaments/_body.html", context, request=request)
        kept.keep(shared_key, body_html, SHARED_BODY_SECONDS)
    return render(request, "tournaments/detail.html", {**context, "body_html": mark_safe(body_html or "")})


def _registration_decks(t: Tournament, user, mine) -> dict:
    """The card game's registration form (issue 30): the decks the player may bring (their saved legal decks, then
    the ready-made ones), and the one they registered with in words."""
    if t.ruleset != "lcg" or not user.is_authenticated:
        return {}
    from web.forms import deck_list, my_deck_list

    words = ""
    if mine is not None and mine.deck is not None:
        deck = mine.deck
        words = deck.get("name", "") if isinstance(deck, dict) else dict(deck_list()).get(deck, "")
    open_now = t.registration_open() and (mine is None or mine.status == Registration.Status.WITHDRAWN)
    return {"deck_choices": my_deck_list(user) if open_now else [], "my_deck_words": words}


def _registration_armies(t: Tournament, user, mine) -> dict:
    """The miniatures game's registration form (issue 33): the armies the player may bring (their saved armies legal
    at the event's size, then the starter armies; none: each table gives a house and its starter army), the one
    they registered with in words, and at two against two their partner."""
    if t.ruleset != "minis" or not user.is_authenticated:
        return {}
    from games.engine.minis import armies as rules
    from games.services import armies as saved

    size = services.game_size(t)
    words = ""
    if mine is not None and mine.army is not None:
        army = mine.army
        words = (saved.starter_name(army["ref"]) if army.get("starter") else
                 gettext("%(name)s (%(house)s, %(points)s points)") % {
                     "name": army.get("name", ""), "house": rules.house(army.get("faction", "")),
                     "points": army.get("points")})
    open_now = t.registration_open() and (mine is None or mine.status == Registration.Status.WITHDRAWN)
    choices = []
    if open_now:  # Swiss, league and elimination alike (issue 33: a mirror match seats two armies of one house)
        choices = [("", gettext("the starter army of the house each table gives me"))]
        choices += [(ref, gettext("%(name)s (your army)") % {"name": name})
                    for ref, name in saved.my_usable_armies(user, size).items()]
        choices += [(key, saved.starter_name(key)) for key in saved.starter_armies()]
    partner = mine.partner.username if mine is not None and mine.partner_id else ""
    return {"army_choices": choices, "my_army_words": words, "army_size": size, "my_partner": partner}


def _armies_in_words(t: Tournament, registrations, rounds) -> None:
    """The miniatures game: each player's army on the list of players, as the API shows it to anyone (its house and
    points, or which starter army), and at two against two their team and partner; the tables' seats their team.
    Sets `army_said` and `team_said` on the registrations, `team_said` on the seats."""
    if t.ruleset != "minis":
        return
    from games.engine.minis import armies as rules
    from games.services import armies as saved

    counted = services.houses_brought(registrations)
    if counted["stark"] or counted["lannister"]:  # say the houses brought (two of one house: a mirror match)
        t.armies_said = gettext("Armies: %(stark)d Stark, %(lannister)d Lannister and %(none)d without an army (their "
                                "table gives them a house).") % {"stark": counted["stark"], "lannister": counted["lannister"],
                                                               "none": counted[""]}
    teams: dict[int, list[str]] = {}
    for r in registrations:
        if r.team and r.status != Registration.Status.REPLACED:
            teams.setdefault(r.team, []).append(r.user.username)
    for r in registrations:
        shown = services.army_words(t, r, None)
        r.army_said = ""
        if shown is not None and shown.get("starter"):
            r.army_said = gettext("Army: %(army)s.") % {"army": saved.starter_name(shown["starter"])}
        elif shown is not None:
            r.army_said = gettext("Army: %(house)s, %(points)s points.") % {
                "house": rules.house(shown.get("faction", "")), "points": shown.get("points")}
        r.team_said = ""
        if r.team:
            r.team_said = gettext("Team %(number)d: %(players)s.") % {
                "number": r.team, "players": " & ".join(teams.get(r.team) or [r.user.username])}
        elif services.team_event(t) and r.partner_id:
            r.team_said = gettext("Partner named: %(name)s.") % {"name": r.partner.username}
    by_pk = {r.pk: r for r in registrations}
    for rnd in rounds:
        for table in rnd.tables.all():
            for seat in table.seats.all():
                r = by_pk.get(seat.registration_id)
                seat.team_said = str(r.team) if r is not None and r.team else ""  # under the column "Team"


def _decks_in_words(t: Tournament, registrations) -> None:
    """The card game: each player's deck on the list of players, as the API shows it to anyone (services.deck_words
    with no viewer, the same page for everyone): its House and agenda always, its cards only when the tournament
    chose open deck lists (a ready-made deck's name says its House and agenda; its list is public, shown with the
    others' when the lists are open). Sets `deck_said` (a sentence) and `deck_lists` ([(heading, cards)])."""
    if t.ruleset != "lcg":
        return
    from games.engine.lcg import data
    from games.engine.lcg import decks as rules
    from web.forms import deck_list
    from web.lcg import page_catalogue

    names = dict(deck_list())
    cards = page_catalogue()["cards"]
    every = data.all_decks()

    def card_name(cid: str) -> str:
        return cards[cid]["name"] if cid in cards else cid

    for r in registrations:
        shown = services.deck_words(t, r, None)
        r.deck_said, r.deck_lists = "", []
        if shown is None:
            continue
        if "deck" in shown:  # a ready-made deck: its name says its House and agenda
            r.deck_said = gettext("Deck: %(deck)s.") % {"deck": names.get(shown["deck"], shown["deck"])}
            if (t.options or {}).get("open_decklists") and shown["deck"] in every:
                shown = {**shown, **every[shown["deck"]]}
        else:
            house = rules.house(shown.get("faction") or "neutral")
            agenda = shown.get("agenda")
            r.deck_said = (gettext("Deck: %(house)s, with %(agenda)s.") % {"house": house, "agenda": card_name(agenda)}
                           if agenda else gettext("Deck: %(house)s, with no agenda.") % {"house": house})
        if "draw" in shown:
            r.deck_lists = _deck_lists(shown, cards, card_name)


DECK_SECTIONS = (("plot", gettext_lazy("Plots")), ("character", gettext_lazy("Characters")),
                 ("location", gettext_lazy("Locations")), ("attachment", gettext_lazy("Attachments")),
                 ("event", gettext_lazy("Events")))


def _deck_lists(deck: dict, cards: dict, card_name) -> list[tuple[str, str]]:
    """A deck list by type, each line "Characters (30)" and "3× Drogon, 2× Viserys Targaryen, ..." (by name)."""
    from collections import Counter

    counted = Counter([*(deck.get("plots") or []), *(deck.get("draw") or [])])
    out = []
    for ctype, heading in DECK_SECTIONS:
        ids = sorted((c for c in counted if cards.get(c, {}).get("type") == ctype), key=card_name)
        if ids:
            out.append((f"{heading} ({sum(counted[c] for c in ids)})",
                        ", ".join(f"{counted[c]}× {card_name(c)}" for c in ids)))
    return out


# how long the rendered standings, rounds and players are kept at most (a new version of the event is
# a new key at once; this bounds what no version follows, such as a player's account becoming a bot)
SHARED_BODY_SECONDS = 300


def _with_players(rounds, registrations) -> None:
    """The seats' and byes' registrations are the page's own, read once with their players: the rounds
    come without them (services.played_rounds), rather than with a copy of each player per seat."""
    by_pk = {r.pk: r for r in registrations}
    for rnd in rounds:
        rnd.bye_registrations = [by_pk.get(r.pk, r) for r in rnd.byes.all()]
        for table in rnd.tables.all():
            for seat in table.seats.all():
                if seat.registration_id in by_pk:
                    seat.registration = by_pk[seat.registration_id]


def _with_games_left(rounds) -> None:
    """The game seats of the players who left a table's game, read in one query for the page's
    `table_seat_player` (ratings/templatetags/site_words.py), which would read one per seat."""
    left = [(table, seat) for rnd in rounds for table in rnd.tables.all() for seat in table.seats.all()
            if seat.abandoned and table.game_id is not None]
    if not left:
        return
    game_seats = {(s.game_id, s.seat): s for s in
                  GameSeat.objects.filter(game_id__in={table.game_id for table, _ in left}).select_related("user")}
    for table, seat in left:
        seat.game_seat = game_seats.get((table.game_id, seat.seat))


def _in_words(t: Tournament, mine, registrations, rounds, standings, *, ranking_forms: bool = False) -> None:
    """Each status, tie-breaker and seat of the page in words, set on the objects the page shows, and
    the choices of the organizers' ranking forms when the page shows them (`ranking_forms`)."""
    t.status_words = STATUS_WORDS.get(t.status, t.status)
    t.tiebreaker_words = [gettext(TIEBREAKER_NAMES.get(x, x)) for x in t.tiebreakers or []]
    t.tiebreaker_words_joined = gettext(", then ").join(t.tiebreaker_words)
    t.organizers_words = _join_html([player(t.organizer), *(co.username for co in t.co_organizers.all())])
    for r in [mine, *registrations, *(s.registration for s in standings)]:
        if r is not None:
            r.status_words = REGISTRATION_WORDS.get(r.status, r.status)
    for rnd in rounds:
        rnd.status_words = ROUND_WORDS.get(rnd.status, rnd.status)
        for table in rnd.tables.all():
            table.status_words = TABLE_WORDS.get(table.status, table.status)
            seats = list(table.seats.all())
            for seat in seats:
                seat.name = seat_name(seat.seat, t.ruleset)
            if not ranking_forms:
                continue
            if t.ruleset == "minis" and services.team_event(t):
                table.winning_team = _winning_team_choices(seats)
                continue
            # the organizer's ranking form: one choice per place, in the current order; each choice's
            # options (seat, its words, whether chosen) made here once rather than looked up per option
            ordered = sorted(seats, key=lambda s: (s.place or 99, s.position))
            choices = [(seat.seat, f"{seat.name} ({seat.registration.user.username})") for seat in seats]
            table.places = [{"label": PAGE_WORDS["places"][i] if i < len(PAGE_WORDS["places"])
                             else gettext("Place %(number)d") % {"number": i + 1},
                             "current": seat.seat,
                             "options": [(value, words, value == seat.seat) for value, words in choices]}
                            for i, seat in enumerate(ordered)]


def _winning_team_choices(seats) -> list[tuple[str, str, bool]]:
    """Two against two: the organizer decides which team won (M130: the team's players share its place); each
    choice is the ranking it stands for (the winners' seats first, comma-separated), its words, whether it is the
    current result."""
    teams: dict[int, list] = {}
    for seat in seats:
        teams.setdefault(seat.registration.team or 0, []).append(seat)
    out = []
    for number, members in teams.items():
        others = [s for s in seats if s not in members]
        words = gettext("Team %(number)d (%(players)s) won") % {
            "number": number, "players": " & ".join(s.registration.user.username for s in members)}
        out.append((",".join(s.seat for s in [*members, *others]), words, all(s.place == 1 for s in members)))
    return out


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
        if verb == "register":  # with the deck (the card game, issue 30) or army and partner (minis, issue 33)
            services.do_register(tournament_id, request.user, deck=(request.POST.get("deck") or "").strip()[:40],
                                 army=(request.POST.get("army") or "").strip()[:40],
                                 partner=(request.POST.get("partner") or "").strip()[:150])
        elif verb in actions:
            actions[verb](tournament_id, request.user)
        elif verb == "replace":
            services.do_replace_player(tournament_id, request.user, _named(request.POST.get("old", "")),
                                       _named(request.POST.get("new", "")))
        elif verb == "drop":
            services.do_drop_player(tournament_id, request.user, _named(request.POST.get("user", "")))
        elif verb == "adjudicate":
            table_id = request.POST.get("table", "")
            # one choice per place (the page), or the seats first to last separated by commas
            ranking = [x.strip() for value in request.POST.getlist("ranking") for x in value.split(",") if x.strip()]
            if not table_id.isdigit():
                raise Http404(gettext("No such table."))
            seats = TableSeat.objects.filter(table_id=int(table_id), table__round__tournament_id=tournament_id)
            if sorted(ranking) != sorted(seats.values_list("seat", flat=True)):
                raise GameError("invalid", PAGE_WORDS["ranking"])
            services.do_adjudicate(tournament_id, request.user, int(table_id), ranking)
        else:
            raise Http404(gettext("No such action."))
    except GameError as exc:
        messages.error(request, _error_text(exc))
    return redirect("tournament", tournament_id=tournament_id)


def _named(username: str) -> User:
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise GameError("not_found", gettext("No user named %(name)r.") % {"name": username}, status_code=404)
    return user
