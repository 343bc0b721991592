"""Server-rendered pages: lobbies, your games, the game page (a shell; static/js/game.js draws the
board and talks to the REST API and the websocket) and the replay of finished games."""
from __future__ import annotations

import hashlib
import json
import logging
from functools import partial
from types import SimpleNamespace

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Case, Exists, F, OuterRef, Prefetch, TextField, Value, When
from django.db.models.fields.json import KeyTextTransform
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.defaultfilters import timeuntil_filter
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from accounts.throttle import client_ip
from games import queries, rulesets, spectators
from games.anonymity import hides_names
from games.engine import EngineError, get_ruleset
from games.errors import GameError
from games.models import Game, GameSeat, Lobby, LobbyMember
from games.services import armies as saved_armies
from games.services import decks as saved_decks
from games.services import lobbies
from ratings.templatetags import site_words
from web import forms as lobby_form
from web.board import agot_board_json
from web.paging import Concatenated, page_of
from westeros import kept
from westeros.templatetags import select_options

logger = logging.getLogger(__name__)


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    try:
        return queries.get_visible_game(request.user, game_id, request.GET.get("invite"))
    except GameError:
        raise Http404("No such game, or you may not see it.") from None


def _error_text(error: GameError) -> str:
    """A refusal in the reader's words: its detail, then each field's messages (whole sentences in the
    reader's language; the fields' names are the API's, English, and are not said)."""
    fields = getattr(error, "fields", None) or {}
    extra = " ".join(" ".join(map(str, v)) for v in fields.values())
    return f"{error.detail} {extra}".strip()


@cache_control(max_age=3600, public=True)
def board_data(request: HttpRequest) -> HttpResponse:
    return HttpResponse(agot_board_json(), content_type="application/json")


@ensure_csrf_cookie
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    context = {"game": game, "seat": queries.viewer_seat(game, request.user), "invite": request.GET.get("invite", "")}
    # a spectator of a fogged game with the spectators' delay is told so in words (games/spectators.py)
    context["spectator_delay"] = spectators.delay_rounds(game) if context["seat"] is None and game.is_active() else 0
    if game.ruleset == "btwixt":
        # its own page (static/js/btwixt.js); the card catalogue is public data of the loaded set,
        # the same for every viewer: no hand, pile or token value is in the HTML
        from web import btwixt as btwixt_data  # built once per process (issue 27)

        cards = btwixt_data.catalogue()
        context.update(cards=cards, leader=cards["leaders"].get(context["seat"] or "", ""))
        return render(request, "web/btwixt_game.html", context)
    if game.ruleset == "lcg":
        # its own page (static/js/lcg.js); the catalogue is the printed cards (public data, the same for
        # every viewer): hands, decks and piles come from the API as this seat may see them
        from web import lcg

        context.update(cards=lcg.page_catalogue(), deck=_lcg_deck_name(game, context["seat"]))
        return render(request, "web/lcg_game.html", context)
    if game.ruleset == "minis":
        # the battlefield page (static/js/minis.js); the catalogue is the printed cards and the table's
        # public data (web/minis.py), the same for every viewer: hands come from the API as this seat may see them
        from web import minis

        context.update(cards=minis.page_catalogue(), seat_names=_seat_names(game))
        return render(request, "web/minis_game.html", context)
    return render(request, "web/game.html", context)


def _seat_names(game: Game) -> dict[str, str]:
    """Each seat by its player's name (a seat without a player by its faction)."""
    users = {s.seat: (s.user.username if s.user else None) for s in game.seats.all()}
    return {seat: users.get(seat) or seat.replace("_", " ").title() for seat in game.seat_names()}


def _lcg_deck_name(game: Game, seat: str | None) -> str:
    """The viewer's deck in words ("The Old Ways (Stark)"): public, both decks are shown at the table."""
    from web import lcg

    player = (game.state.get("players") or {}).get(seat or "")
    if not player:
        return ""
    deck = lcg.catalogue()["decks"].get(player.get("deck_id"))
    faction = lcg.FACTION_NAMES.get(player.get("faction"), "")
    return f"{deck['name']} ({faction})" if deck else faction


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id)
    context = {"game": game, "steps": game.version, "finished": not game.is_active(),
               "seat": queries.viewer_seat(game, request.user)}
    if game.ruleset == "btwixt":
        # the table is drawn by static/js/btwixt.js from each step's summary and the set's public catalogue
        from web import btwixt as btwixt_data  # built once per process (issue 27)

        context["cards"] = btwixt_data.catalogue()
        names = context["cards"]["leaders"]
        context["seats"] = [(seat, names.get(seat, seat.replace("_", " ").title())) for seat in game.seat_names()]
    elif game.ruleset == "lcg":
        # drawn by static/js/lcg.js (LcgTable) from each step's view and summary; seats by their players
        from web import lcg

        context["cards"] = lcg.page_catalogue()
        users = {s.seat: (s.user.username if s.user else None) for s in game.seats.all()}
        factions = {s: lcg.FACTION_NAMES.get(p.get("faction"), s) for s, p in (game.state.get("players") or {}).items()}
        # a melee's computer players sharing a faction: each with its seat's number (as the table page names them)
        shared = [factions.get(s) for s in game.seat_names() if not users.get(s)]
        context["seats"] = [(seat, users.get(seat) or (gettext("%(faction)s (player %(number)s)") % {
            "faction": factions.get(seat, seat), "number": seat[1:]} if shared.count(factions.get(seat)) > 1
            else factions.get(seat, seat))) for seat in game.seat_names()]
        context["seat_names"] = dict(context["seats"])
    elif game.ruleset == "minis":
        # drawn by static/js/minis.js (MinisTable) from each step's view and summary; seats by their players
        from web import minis

        context["cards"] = minis.page_catalogue()
        context["seat_names"] = _seat_names(game)
        context["seats"] = list(context["seat_names"].items())
    else:
        context["seats"] = [(seat, seat.replace("_", " ").title()) for seat in game.seat_names()]
    return render(request, "web/replay.html", context)


def replay_step(request: HttpRequest, game_id: int, step: int) -> JsonResponse:
    """The view after the first `step` actions of a finished game, as the viewer's seat (or a
    spectator) would have seen it then, with that step's public log entry. Only for finished games:
    their seed and actions are public (the fairness endpoint), so nothing here is a secret. The state
    comes from the nearest kept checkpoint (games/checkpoints.py): a step costs the same early or late
    in a long game."""
    from games.checkpoints import state_after

    game = _visible_game(request, game_id)
    if game.is_active():
        return JsonResponse({"error": "not_finished", "detail": gettext("Replays open when the game is over.")}, status=409)
    if step < 0 or step > game.version:  # one version per action
        raise Http404("No such step.")
    seat = queries.viewer_seat(game, request.user)
    # once the game is over every seat's view is derivable from the published seed and actions
    if request.GET.get("as") in game.seat_names():
        seat = request.GET["as"]
    elif request.GET.get("as") == "spectator":
        seat = None
    engine = get_ruleset(game.ruleset)
    try:
        state = state_after(game, step)
    except EngineError:  # a log the engine of today no longer replays: said, never a server error
        logger.exception("game %s does not replay to step %s", game.pk, step)
        return JsonResponse({"error": "not_replayable", "detail": gettext(
            "This game can no longer be replayed step by step: the rules engine changed since it was played.")},
            status=409)
    record = game.actions.filter(version=step).first() if step > 0 else None
    entry = None
    if record is not None:
        entry = {"version": record.version, "seat": record.seat, "source": record.source,
                 "events": [e for e in (engine.event_view(ev, seat) for ev in record.events) if e is not None]}
        describe = getattr(engine, "describe_event", None)
        if describe:  # the step in words, narrated after filtering (as the game's log)
            names = queries.seat_player_names(game)  # the card game's "{p1}" placeholders in names
            entry["lines"] = [queries.with_player_names(said, names) for said in map(describe, entry["events"]) if said]
    return JsonResponse({"step": step, "steps": game.version, "seat": seat, "view": engine.view(state, seat),
                         "summary": engine.summary(state, seat), "entry": entry,
                         "clocks": _replay_clocks(game, record, step, engine.pending(state))})


def _replay_clocks(game: Game, record, step: int, pending: dict) -> list[dict] | None:
    """A clocked game's clocks as they were after `step` actions (each action row keeps them, `record`
    being the step's; at the start every player has the whole bank, running for those with a
    decision): a list of {seat, name, remaining, running} in seat order; None in a game without a clock."""
    if not game.has_clock():
        return None
    seats = list(game.seats.all())
    if step == 0:
        state = {s.seat: {"remaining": game.clock_bank, "running": s.seat in pending}
                 for s in seats if s.user_id is not None}
    else:
        state = (record.clocks if record is not None else None) or {}
    names = queries.seat_player_names(game)
    return [{"seat": s.seat, "name": names.get(s.seat, s.seat), **state[s.seat]} for s in seats if s.seat in state]


def lobby_list(request: HttpRequest) -> HttpResponse:
    from games.api import with_members_taken

    # members counted by a subquery per lobby, as the API's list and the home page do, not by a GROUP BY
    # over the lobbies joined to their members and creators (4.3 -> 2.9 ms at 120 open lobbies; issue 27)
    qs = with_members_taken(Lobby.objects.filter(status=Lobby.Status.OPEN, private=False)).order_by("-created_at")
    ranked = request.GET.get("ranked", "")
    if ranked in ("true", "false"):
        qs = qs.filter(ranked=ranked == "true")
    if request.GET.get("free") == "1":
        qs = qs.filter(taken__lt=F("seat_count") - F("computer_seats"))
    pager = page_of(request, qs.values_list(*LOBBY_LIST_COLUMNS))  # a page's values alone, no models
    rows = pager.rows
    return render(request, "web/lobby_list.html", {"lobbies": rows, "lobbies_html": lobby_list_html(rows),
                                                   "pager": pager, "ranked": ranked,
                                                   "free": request.GET.get("free", "")})


LOBBY_LIST_COLUMNS = ("pk", "name", "ruleset", "taken", "computer_seats", "seat_count", "time_limit", "clock_bank",
                      "clock_increment", "ranked", "creator__username", "creator__is_bot", "rematch_of")
LOBBY_LIST_SECONDS = 600  # how long a rendering of a page of the lobby list is kept (its key is its rows)


def lobby_list_html(rows: list[tuple]) -> str:
    """A page of the lobby list's table (templates/web/_lobby_list_rows.html), rendered once for the rows
    as they are and kept, per language: the rows (read on every request, their values alone) are the
    key, so a lobby that fills, opens or closes is a new key at once; only the rendering of an unchanged
    page is saved (issue 27: fifty rows of links, filters and translations on every visit)."""
    from games.lobby_names import lobby_title

    if not rows:
        return ""
    key = f"lobbies:list:{get_language()}:{hashlib.blake2b(repr(rows).encode(), digest_size=16).hexdigest()}"
    html = kept.get(key)
    if html is None:
        shown = []
        for row in rows:
            lobby = SimpleNamespace(**dict(zip(LOBBY_LIST_COLUMNS, row, strict=True)))
            lobby.creator = SimpleNamespace(username=lobby.creator__username, is_bot=lobby.creator__is_bot)
            lobby.display_name = lobby_title(lobby.name, lobby.creator.username, computer_seats=lobby.computer_seats,
                                             seat_count=lobby.seat_count, rematch_of=lobby.rematch_of)
            shown.append(lobby)
        html = render_to_string("web/_lobby_list_rows.html", {"lobbies": shown})
        kept.keep(key, html, LOBBY_LIST_SECONDS)
    return mark_safe(html)


@login_required
def lobby_new(request: HttpRequest) -> HttpResponse:
    """The new-lobby form (web/forms.py): a bad value is a form error in words (its field marked), never a 500."""
    form = lobby_form.LobbyForm(request.POST if request.method == "POST" else None, user=request.user)
    if form.is_bound and form.is_valid():
        try:
            lobby = lobbies.do_create_lobby(request.user, form.settings(), join=True, seat=form.creator_seat(),
                                            deck=form.creator_deck())
        except GameError as exc:
            form.add_service_error(exc)
        else:
            return redirect("web-lobby", lobby_id=lobby.pk)
    lf = lobby_form
    chosen = form.data.get("ruleset") or (request.GET.get("ruleset") if request.GET.get("ruleset") in dict(lf.RULESETS)
                                          else "agot")
    mine = {"my_deck_options": select_options.options(form.my_decks, form.data.get("my_deck")),
            "my_army_options": select_options.options(form.my_armies, form.data.get("my_army"))}
    if form.is_bound:
        form_html = render_to_string("web/_lobby_form.html", {**_lobby_form_context(form, chosen), **mine},
                                     request=request)
    else:  # the blank form: the same for everyone but their decks and armies (and the CSRF token)
        html = _BLANK_LOBBY_FORMS.get((get_language(), chosen), lambda: render_to_string(
            "web/_lobby_form.html", {**_lobby_form_context(form, chosen), "csrf_token": kept.CSRF_MARK,
                                     "my_deck_options": lf.MY_DECKS_MARK, "my_army_options": lf.MY_ARMIES_MARK}))
        form_html = kept.filled(html, get_token(request), {lf.MY_DECKS_MARK: mine["my_deck_options"],
                                                           lf.MY_ARMIES_MARK: mine["my_army_options"]})
    return render(request, "web/lobby_new.html", {"form": form, "form_html": mark_safe(form_html)})


# The blank lobby form rendered once per process, language and game chosen (issue 27, thirteenth round): its
# hundred-odd options and fields were most of the page. A reader's own decks and armies are written in at its
# marks (kept.filled), as is their CSRF token; a form sent back is rendered afresh.
_BLANK_LOBBY_FORMS = kept.InProcess(limit=64)


def _lobby_form_context(form, chosen: str) -> dict:
    lf = lobby_form
    return {
        "form": form, "data": form.data, "houses": [(h, h.title()) for h in lf.HOUSES], "rulesets": lf.RULESETS,
        "time_limits": lf.TIME_LIMITS, "clocks": lf.CLOCKS, "spectator_delays": lf.SPECTATOR_DELAYS,
        "house_choices": lf.HOUSE_CHOICES, "leaders": _btwixt_leaders(), "cardset_name": lf.cardset_name(),
        "btwixt_options": lf.btwixt_option_rows(),
        "deck_choices": lf.DECK_CHOICES, "decks": lf.deck_list(),
        "armies": lf.minis_seat_choices(), "army_lists": lf.army_lists(),
        "minis_tables": [(k, label) for k, (_n, _m, label) in lf.MINIS_TABLES.items()],
        "game_sizes": lf.MINIS_SIZES,
        "minis_modes": [(key, gettext(str(name)), key in rulesets.MINIS_PLAYABLE_MODES)
                        for key, name in rulesets.MINIS_MODES.items()],
        "chosen": chosen,
        "unrated": gettext(lobbies.COMPUTER_UNRATED),
        "checked": {name for name in form.data if str(form.data.get(name)).lower() in lf.CHECKED},
    }


def _btwixt_leaders() -> list[tuple[str, str]]:
    from web import btwixt as btwixt_data  # built once per process (issue 27)

    return list(btwixt_data.catalogue()["leaders"].items())


# what a lobby's seats are called, each a whole label (the Spanish words' genders differ): the joiner's
# choice ("Your army"), the creator's list for a member ("Army for arya"), how the seats are given
SEAT_WORDS = {"agot": gettext_lazy("Your house"), "btwixt": gettext_lazy("Your leader"), "minis": gettext_lazy("Your army")}
SEAT_NOUN = {"agot": pgettext_lazy("a lobby's seat", "House"), "btwixt": pgettext_lazy("a lobby's seat", "Leader"),
             "minis": pgettext_lazy("a lobby's seat", "Army")}
# how a lobby's seats are given (Lobby.HouseChoice's words)
HOUSE_CHOICE_WORDS = {"assign": gettext_lazy("the creator assigns seats"), "pick": gettext_lazy("players pick in join order"),
                      "random": gettext_lazy("random at the start")}
SEATS_GIVEN = gettext_lazy("given by the creator")  # the miniatures game's "seats: …" (SEAT_CHOICE)
SEAT_FOR = {"agot": gettext_lazy("House for %(name)s"), "btwixt": gettext_lazy("Leader for %(name)s"),
            "minis": gettext_lazy("Army for %(name)s")}
# (the miniatures game: how the seats are given, what each seat brings is said on its line)
SEAT_CHOICE = {"agot": gettext_lazy("houses: %(how)s"), "btwixt": gettext_lazy("leaders: %(how)s"),
               "minis": gettext_lazy("seats: %(how)s (a saved army takes a seat of its house)")}
# a game's status in My games
GAME_STATUS = {"active": pgettext_lazy("a game", "active"), "finished": pgettext_lazy("a game", "finished"),
               "abandoned": pgettext_lazy("a game", "abandoned")}


def _lobby_or_404(request: HttpRequest, lobby_id: int) -> Lobby:
    from westeros import compiled

    found = compiled.models("lobby-page:lobby", _lobby_query, lobby_id=lobby_id)
    lobby = found[0] if found else None
    if lobby is None or not lobbies.can_see(lobby, request.user, request.GET.get("invite")):
        raise Http404("No such lobby.")
    return lobby


# the lobby page's three reads, compiled once per process (westeros/compiled.py; issue 27, thirteenth round)
def _lobby_query(lobby_id: int):
    return Lobby.objects.filter(pk=lobby_id).select_related("creator")


def _lobby_members_query(lobby_id: int):
    return LobbyMember.objects.filter(lobby_id=lobby_id).select_related("user")


def _lobby_game_query(lobby_id: int):
    return Game.objects.filter(lobby_id=lobby_id).only("pk", "options", "status").order_by("pk")[:1]


def lobby_page(request: HttpRequest, lobby_id: int) -> HttpResponse:
    from westeros import compiled

    lobby = _lobby_or_404(request, lobby_id)
    members = compiled.models("lobby-page:members", _lobby_members_query, lobby_id=lobby.pk)
    me = next((m for m in members if m.user_id == request.user.pk), None)
    games = compiled.models("lobby-page:game", _lobby_game_query, lobby_id=lobby.pk)
    game = games[0] if games else None
    if game is not None and hides_names(game):  # anonymous players: faceless while the game runs
        for m in members:
            m.faceless = m.user_id != request.user.pk
    taken = {m.seat for m in members if m.seat}
    seats = lobbies.seat_choices(lobby)  # the miniatures game's two: Stark and Lannister, or a house's two armies
    names = dict(_btwixt_leaders()) if lobby.ruleset == "btwixt" else {}
    def seat_name(seat: str) -> str:  # a leader's or house's name, never its id
        return names.get(seat) or site_words.seat_name(seat, lobby.ruleset)
    decks = lobbies.deck_choices(lobby.ruleset)  # the card game: each player's deck, in words
    for m in members:
        m.seat_name = seat_name(m.seat) if m.seat else ""
        m.deck_name = decks.get(m.deck, "") or (saved_armies.lobby_army_words(m.deck, request.user) if lobby.ruleset == "minis"
                                                else saved_decks.lobby_deck_words(m.deck, request.user))
        m.seat_for = str(SEAT_FOR.get(lobby.ruleset, SEAT_FOR["agot"])) % {"name": m.user.username}
        if lobby.ruleset == "minis" and not m.deck_name:  # issue 33: what a seat without a saved army brings
            m.army_words = (gettext("plays the %(house)s starter army") % {"house": seat_name(saved_armies.seat_house(m.seat))}
                            if m.seat else gettext("plays the starter army of the seat they are given"))
    how = ((SEATS_GIVEN if lobby.ruleset == "minis" and lobby.house_choice == "assign" else None)
           or HOUSE_CHOICE_WORDS.get(lobby.house_choice) or lobby.get_house_choice_display())
    return render(request, "web/lobby.html", {
        "lobby": lobby, "members": members, "me": me, "game": game, "free": max(0, lobby.people_seats() - len(members)),
        "people_seats": lobby.people_seats(),
        "is_creator": request.user.pk == lobby.creator_id,
        "open_seats": [(s, seat_name(s)) for s in seats if s not in taken], "all_seats": [(s, seat_name(s)) for s in seats],
        "seat_word": SEAT_WORDS.get(lobby.ruleset, SEAT_WORDS["agot"]),
        "seat_noun": SEAT_NOUN.get(lobby.ruleset, SEAT_NOUN["agot"]),
        "seat_choice": str(SEAT_CHOICE.get(lobby.ruleset, SEAT_CHOICE["agot"])) % {"how": how},
        "unrated": gettext(lobbies.COMPUTER_UNRATED), "invite": request.GET.get("invite", ""),
        "option_words": lobby_form.option_words(lobby.ruleset, lobby.options or {}),
        "decks": list(decks.items()), "pick_deck": bool(decks) and not lobby.decks,
        # the miniatures game (issue 33): the viewer's saved armies of the lobby's size, to bring one when joining
        "my_armies": list(saved_armies.my_usable_armies(request.user, (lobby.options or {}).get("game_size", 30)).items())
        if lobby.ruleset == "minis" and me is None and lobby.is_open() else [],
    })


@require_POST
@login_required
def lobby_action(request: HttpRequest, lobby_id: int, verb: str) -> HttpResponse:
    try:
        if verb == "join":
            lobbies.do_join_lobby(lobby_id, request.user, seat=request.POST.get("seat", ""),
                                  deck=request.POST.get("deck", "") or request.POST.get("army", ""),
                                  password=request.POST.get("password") or None,
                                  invite=request.POST.get("invite") or None, address=client_ip(request))
        elif verb == "leave":
            lobbies.do_leave_lobby(lobby_id, request.user)
        elif verb == "start":
            lobbies.do_start(lobby_id, request.user)
        elif verb == "cancel":
            lobbies.do_cancel(lobby_id, request.user)
        elif verb == "kick":
            lobbies.do_kick(lobby_id, request.user, request.POST.get("user", ""))
        elif verb == "assign":
            lobbies.do_assign_seat(lobby_id, request.user, request.POST.get("user", ""), request.POST.get("seat", ""))
        else:
            raise Http404("No such action.")
    except GameError as exc:
        messages.error(request, _error_text(exc))
    game = Game.objects.filter(lobby_id=lobby_id).only("pk").first()
    if game is not None and verb in ("join", "start", "assign"):
        return redirect("web-game", game_id=game.pk)
    return redirect("web-lobby", lobby_id=lobby_id)


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """Your games a page at a time: games in progress first (those awaiting you first on each page), then
    the finished ones, newest first (by number: games are numbered as they are created). Each part is
    read by the database in its index's order (GameSeat's seat_user_newest_game: a page of a busy
    player's 2,000 games no longer sorts them all; issue 27)."""
    # each part's count and page read by queries compiled once per process (westeros/compiled.py: a page's
    # slice is a parameter of the SQL, so every page is one compiled query): building and compiling the
    # four queries was a quarter of the page's CPU (issue 27, tenth round)
    from westeros import compiled

    me = request.user.pk
    # the games in progress read through the index of held seats (_games_held_in_progress), counted without it
    # (the count reads that index alone already; the subquery only cost compiling it)
    # planned for each player (compiled.py): a busy player's seats are a hundred times an average player's
    in_progress = compiled.Compiled("my-games:in-progress", _my_games_in_progress, _my_games_in_progress_counted,
                                    plan_each_call=True, user_id=me)
    finished = compiled.Compiled("my-games:finished", _my_games_finished, user_id=me)
    total = compiled.Compiled("my-games:all", _my_games_all, user_id=me)
    pager = page_of(request, Concatenated(in_progress, finished, total=total))
    return render(request, "web/my_games.html", {"rows": _rendered_rows(_rows_of(pager.rows, vs_computer=False)),
                                                 "pager": pager})


def _my_seats(user_id: int):
    """My games' seats of the user: each with its game, what a row says alone (50 seats with every column
    of their games were a fifth of the page); the page names no opponent: the games' seats are not read."""
    return (_listed(_my_games_all(user_id), with_seats=False)
            .only("seat", "deadline_at", "paused_remaining", "is_bot", "game_id", "user_id",
                  "game__ruleset", "game__status", "game__time_limit"))


def _my_games_all(user_id: int):
    return GameSeat.objects.filter(user_id=user_id, left_at__isnull=True)


def _my_games_in_progress_counted(user_id: int):
    return _my_seats(user_id).filter(game__status=Game.Status.ACTIVE).order_by("-game_id")


def _my_games_in_progress(user_id: int):
    return _my_games_in_progress_counted(user_id).filter(game_id__in=_games_held_in_progress(user_id))


def _my_games_finished(user_id: int):
    return _my_seats(user_id).exclude(game__status=Game.Status.ACTIVE).order_by("-game_id")


MY_GAMES_ROW_SECONDS = 24 * 3600  # how long a rendered row of My games is kept (its key is its values)
TIME_LEFT = kept.mark("time-left")  # where a kept row awaiting you says the time left, written in at each request


def _rendered_rows(rows: list[dict]) -> list[dict]:
    """Each row of My games with its HTML (`html`, templates/web/_my_games_row.html), rendered once for
    its values and kept: the key holds all a row says (the game, its game and seat, its time per
    decision, its status, whether it awaits you and its deadline, the language), so a game that ends or
    a decision that comes or goes is a new key at once. The time left to decide counts down: it is
    written into the kept row at each request. A busy player's page is the same 50 rows at every visit,
    and writing them was half its time (issue 27)."""
    language = get_language()
    keys = {id(row): f"mygames:row:{language}:{row['game'].pk}:{row['game'].ruleset}:{row['seat']}:"
                     f"{row['game'].time_limit}:{row['game'].status}:"
                     f"{row['deadline'].isoformat() if row['awaiting'] and row['deadline'] else row['awaiting']}"
            for row in rows}
    found = kept.get_many(list(keys.values()))
    fresh = {}
    for row in rows:
        html = found.get(keys[id(row)])
        if html is None:
            html = render_to_string("web/_my_games_row.html", {"row": {**_in_words([row])[0], "deadline_words": TIME_LEFT}})
            fresh[keys[id(row)]] = html
        if row["awaiting"]:
            html = html.replace(TIME_LEFT, conditional_escape(timeuntil_filter(row["deadline"])))
        row["html"] = mark_safe(html)
    kept.keep_many(fresh, MY_GAMES_ROW_SECONDS)
    return rows


def _in_words(rows: list[dict]) -> list[dict]:
    """Each row of My games with what the page writes of it (its links, the game's name, the seat, the
    time per decision and the status in words), made here rather than by the template's filters and
    url tags, which resolve each of their arguments again for each of the page's 50 rows (issue 27)."""
    for row in rows:
        game = row["game"]
        row.update(url=reverse("web-game", args=[game.pk]),
                   replay_url="" if game.is_active() else reverse("web-replay", args=[game.pk]),
                   game_name=site_words.ruleset_name(game.ruleset),
                   seat_name=site_words.seat_name(row["seat"], game.ruleset),
                   time_words=site_words.duration_words(game.time_limit),
                   status_words=str(GAME_STATUS.get(game.status, game.get_status_display())))
    return rows


def _games_in_progress(user, limit: int) -> list[dict]:
    """The user's first `limit` games in progress as the home page lists them: those awaiting a
    decision of theirs first, the nearest deadline first, then the newest (ordered by the database:
    a busy player's fifty games are not all read to show ten). One query: whether the computer plays
    a seat, and a card game's players (their factions name its seats), come with each row, rather
    than every game's seats and the card games' players read after it (three queries; issue 27)."""
    from westeros import compiled

    rows = []
    query = partial(_games_in_progress_query, limit=limit)  # the limit is in the SQL's text: one per limit
    for seat in compiled.rows(f"home:games-in-progress:{limit}", query, plan_each_call=True, user_id=user.pk):
        decision = not seat["is_bot"] and (seat["deadline_at"] is not None or seat["paused_remaining"] is not None)
        rows.append({"game": SimpleNamespace(pk=seat["game_id"], ruleset=seat["game__ruleset"]), "seat": seat["seat"],
                     "awaiting": decision, "vs_computer": seat["vs_computer"],
                     "deadline": seat["deadline_at"] if decision else None,
                     "players": json.loads(seat["lcg_players"]) if seat["lcg_players"] else None})
    rows.sort(key=lambda r: (not r["awaiting"], r["deadline"].timestamp() if r["deadline"] else 0))
    return rows


def _games_in_progress_query(user_id: int, limit: int):
    """The query of _games_in_progress, its values alone (a seat decides when GameSeat.awaits_decision
    says so): compiled once per process and limit (westeros/compiled.py), the user its parameter."""
    awaiting = Case(When(GameSeat.AWAITING_DECISION, then=Value(0)), default=Value(1))
    computer = GameSeat.objects.filter(game_id=OuterRef("game_id"), user__isnull=True, left_at__isnull=True)
    return (GameSeat.objects.filter(user_id=user_id, left_at__isnull=True, game__status=Game.Status.ACTIVE,
                                    game_id__in=_games_held_in_progress(user_id))
            .annotate(vs_computer=Exists(computer),
                      lcg_players=Case(When(game__ruleset="lcg", then=KeyTextTransform("players", "game__state")),
                                       default=None, output_field=TextField()))
            .order_by(awaiting, F("deadline_at").asc(nulls_last=True), "-game__created_at", "-game__id")
            .values("seat", "deadline_at", "paused_remaining", "is_bot", "game_id", "game__ruleset",
                    "vs_computer", "lcg_players")[:limit])


def _games_held_in_progress(user_id: int):
    """The games in progress in which the user holds a seat, as a subquery: read from the index of the seats
    players hold (seat_user_present_game) joined to the games in progress, without a seat row. Given to a
    query of the user's seats in games in progress, it makes the database find those games first and read
    only their seats (about 50 of a busy player's 2,000): 4.3 and 2.7 ms to about 1 ms for My games'
    first page and the home page's games at a real site's size (issue 27, ninth round)."""
    return (GameSeat.objects.filter(user_id=user_id, left_at__isnull=True, game__status=Game.Status.ACTIVE)
            .order_by().values("game_id"))


def _listed(seats, with_seats: bool = True):
    """Seats as the lists of games read them: with their game, without its state (a list needs none),
    and (`with_seats`) the game's seats."""
    seats = seats.select_related("game").defer("game__state")
    return seats.prefetch_related("game__seats") if with_seats else seats


def _rows_of(seats, vs_computer: bool = True) -> list[dict]:
    """The rows of these seats (read with their games, whose states they do not need, and, for
    `vs_computer`, the games' seats): awaiting you first. Whether a decision is yours comes from the
    seat's deadline (GameSeat.awaits_decision), not from the game's state (issue 27: fifty states a page)."""
    rows = []
    for seat in seats:
        game = seat.game
        awaiting = game.is_active() and seat.awaits_decision()
        rows.append({"game": game, "seat": seat.seat, "awaiting": awaiting,
                     "vs_computer": vs_computer and any(s.is_computer() for s in game.seats.all()),
                     "deadline": seat.deadline_at if awaiting else None})
    rows.sort(key=lambda r: (not r["awaiting"], not r["game"].is_active(),
                             r["deadline"].timestamp() if r["deadline"] else 0))
    return rows


def _with_seat_names(rows: list[dict]) -> list[dict]:
    """Each row with the seat its player plays, as they know it: a house, a leader, an army, a card
    game's faction (games.results.seat_display_names). Only the card game's factions come from the state:
    its players, read with the row (`players`)."""
    from games.results import seat_display_names

    for row in rows:
        game, players = row["game"], row.get("players") or {}
        seats = list(dict.fromkeys([*players, row["seat"]])) if game.ruleset == "lcg" else [row["seat"]]
        names = seat_display_names(game, seats, players=players)
        row["seat_name"] = names.get(row["seat"]) or site_words.seat_name(row["seat"], game.ruleset)
    return rows


def home(request: HttpRequest) -> HttpResponse:
    """Open lobbies, your games (awaiting your move first) and recent results."""
    # only games in progress are listed here: read only those (a player's history may be thousands)
    mine = _games_in_progress(request.user, 10) if request.user.is_authenticated else []
    from web.play import games_offered

    mine = _with_seat_names(mine)
    context = {"lobbies_html": home_lobbies_html(), "my_games": mine, "my_games_html": my_games_html(mine),
               "results_html": recent_results_html()}
    if request.user.is_authenticated:
        # the challenges waiting for your answer (the page lists the newest ten): fewer than ten listed
        # are all of them, so the navigation's count is known without counting them again
        from challenges import services as challenges
        from challenges.templatetags.challenge_tags import HOME_CHALLENGES

        waiting = challenges.waiting_for(request.user, HOME_CHALLENGES)
        context.update(challenges_waiting_list=waiting,
                       challenges_waiting_known=len(waiting) if len(waiting) < HOME_CHALLENGES else None)
    context["play_now_html"] = play_now_html(games_offered(), request.user.is_authenticated)
    return render(request, "home.html", context)


_PLAY_NOW = kept.InProcess()


def play_now_html(games: list[dict], signed_in: bool) -> str:
    """The home page's play-now cards (templates/web/_home_play_now.html), kept per process: rendered once
    for what they say (the games offered as web.play.games_offered words them, in the reader's language,
    whether someone is signed in, the script prefix and URLconf their links are made with), their forms'
    CSRF token left as a mark the page writes its own into ({% with_csrf_token %}). Four cards of links,
    forms and translations were a third of the home page's template (issue 27, tenth round)."""

    unrated = gettext(lobbies.COMPUTER_UNRATED)
    key = (get_language(), get_script_prefix(), get_urlconf(), signed_in, repr(games), unrated)
    return _PLAY_NOW.get(key, lambda: render_to_string("web/_home_play_now.html", {
        "games": games, "unrated": unrated, "signed_in": signed_in, "csrf_token": kept.CSRF_MARK}))


MY_GAMES_SECONDS = 600  # how long a rendering of the home page's games in progress is kept (its key is their rows)


def _left_mark(n: int) -> str:
    # the nul character never comes in a value shown (challenges/views.py says why)
    return f"\x00left{n}\x00"


def my_games_html(rows: list[dict]) -> str:
    """The home page's table of the player's games in progress (templates/web/_home_my_games.html),
    rendered once for the rows as they are and kept, per language: the rows (read on every request) are
    the key, so a game that starts, ends or awaits a move is a new key at once; only the time left is
    written in per request (issue 27: ten rows of links and translations on a busy player's home)."""
    if not rows:
        return ""
    values = [(r["game"].pk, r["game"].ruleset, r["seat_name"], r["awaiting"], r["vs_computer"],
               r["deadline"].isoformat() if r["deadline"] else None) for r in rows]
    key = f"home:my-games:{get_language()}:{hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()}"
    html = kept.get(key)
    if html is None:
        shown = [{**r, "left": mark_safe(_left_mark(n))} for n, r in enumerate(rows)]
        html = render_to_string("web/_home_my_games.html", {"my_games": shown})
        kept.keep(key, html, MY_GAMES_SECONDS)
    for n, r in enumerate(rows):
        if r["deadline"] is not None:
            html = html.replace(_left_mark(n), conditional_escape(timeuntil_filter(r["deadline"])))
    return mark_safe(html)


HOME_LOBBIES_SECONDS = 600  # the longest the home page's lobbies are kept (a lobby's change renews them at once)


HOME_LOBBY_COLUMNS = ("pk", "name", "ruleset", "taken", "computer_seats", "seat_count", "time_limit", "ranked",
                      "creator__username", "creator__is_bot", "rematch_of")


def _home_lobbies():
    from games.api import active_lobbies_for_home

    return active_lobbies_for_home().values(*HOME_LOBBY_COLUMNS)


def home_lobbies_html() -> str:
    """The home page's table of open lobbies (templates/web/_home_lobbies.html), read and rendered once
    per change of a lobby and kept, per language: games.kept_versions.LOBBIES_VERSION is renewed once a
    lobby or a member is saved or deleted, so a lobby that opens, fills or closes shows on the next
    request (issue 27: the rows were read on every request, 1-2 ms of the busy player's home page, and
    before that 20 rows of links, filters and translations rendered on every request)."""
    from games.kept_versions import LOBBIES_VERSION

    html = kept.until_renewed(f"home:lobbies:{get_language()}", LOBBIES_VERSION, _render_home_lobbies,
                              HOME_LOBBIES_SECONDS)
    return mark_safe(html)


def _render_home_lobbies() -> str:
    from games.lobby_names import lobby_title
    from westeros import compiled

    # the query compiled once per process (westeros/compiled.py: building its subquery and joins was
    # most of this section's CPU; issue 27, ninth round)
    rows = [tuple(row[column] for column in HOME_LOBBY_COLUMNS) for row in compiled.rows("home:lobbies", _home_lobbies)]
    shown = [{"pk": pk, "ruleset": ruleset, "seats_taken": taken + computer, "seat_count": seats,
              "time_limit": time_limit, "ranked": ranked,
              "creator": SimpleNamespace(username=creator, is_bot=creator_bot),
              # the lobby's name in the reader's language, as Lobby.display_name says it (issue 29)
              "name": lobby_title(name, creator, computer_seats=computer, seat_count=seats, rematch_of=rematch)}
             for pk, name, ruleset, taken, computer, seats, time_limit, ranked, creator, creator_bot, rematch in rows]
    return render_to_string("web/_home_lobbies.html", {"lobbies": shown})


RECENT_RESULTS_SECONDS = 600  # the longest the home page's recent results are kept (a game's end renews them at once)


def recent_results() -> list[dict]:
    """The ten public games that ended last, each {pk, finished_at, places} (games.results.places_in_words:
    who played each seat, in words)."""
    from games.results import places_in_words

    # take-overs prefetched: places_in_words names who played each seat without a query per game. The
    # games' states are not read: only a card game's players (their factions name its seats), read alone
    # by the database. Ten states, a card game's tens of kilobytes of JSON, were most of the 12-14 ms of
    # CPU and 26-64 ms this took every RECENT_RESULTS_SECONDS on a busy home page (issue 27, tenth round).
    recent = (Game.objects.filter(private=False).exclude(status=Game.Status.ACTIVE)
              .exclude(finished_at=None).order_by("-finished_at").defer("state")
              .annotate(lcg_players=Case(When(ruleset="lcg", then=KeyTextTransform("players", "state")),
                                         default=None, output_field=TextField()))
              .prefetch_related(Prefetch("seats", queryset=GameSeat.objects.select_related("user")),
                                "substitutions__leaver", "substitutions__substitute")[:10])
    return [{"pk": g.pk, "finished_at": g.finished_at,
             "places": places_in_words(g, players=json.loads(g.lcg_players) if g.lcg_players else None)}
            for g in recent]


def recent_results_html() -> str:
    """The home page's recent results section, rendered (templates/web/_recent_results.html). The same
    for everyone who reads the page in one language: kept per language until a public game ends
    (games.kept_versions.RESULTS_VERSION, renewed once the game's end commits), so the home page reads and
    renders them once a game's end, not on every request nor on a timer (issue 27: four queries and ten
    games' places, 19-37 ms, were the busy player's home page's slowest requests while rebuilt every 10 s).
    A saving, never a need (westeros/kept.py): with the cache down they are rendered afresh, not a 503."""
    from games.kept_versions import RESULTS_VERSION

    html = kept.until_renewed(f"home:recent-results:{get_language()}", RESULTS_VERSION,
                              lambda: render_to_string("web/_recent_results.html", {"results": recent_results()}),
                              RECENT_RESULTS_SECONDS)
    return mark_safe(html)


def leaderboard(request: HttpRequest, ruleset: str = "agot") -> HttpResponse:
    from games.engine import ruleset_ids
    from ratings import services as ratings

    if ruleset not in ruleset_ids():
        raise Http404("No such game.")

    pager = page_of(request, ratings.leaderboard(ruleset), order="rank")
    rows = [{"rank": rank, "user": r.user.username, "bot": r.user.is_bot,
             "rating": round(r.rating), "games": r.games, "provisional": ratings.is_provisional(r)}
            for rank, r in enumerate(pager.rows, start=pager.first_index)]
    return render(request, "web/leaderboard.html", {"ruleset": ruleset, "rows": rows, "rows_html": leaderboard_html(rows),
                                                    "pager": pager})


LEADERBOARD_SECONDS = 600  # how long a rendering of a page of a leaderboard is kept (its key is its rows)


def leaderboard_html(rows: list[dict]) -> str:
    """A page of a leaderboard's table (templates/web/_leaderboard_rows.html), rendered once for the rows
    as they are and kept, per language: the rows (read on every request) are the key, so a game rated, a
    player renamed or a rating settled is a new key at once; only the rendering of an unchanged page
    is saved (issue 27: fifty rows of links, badges and translations on every visit)."""
    if not rows:
        return ""
    values = [tuple(row.values()) for row in rows]
    key = f"leaderboard:{get_language()}:{hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()}"
    html = kept.get(key)
    if html is None:
        html = render_to_string("web/_leaderboard_rows.html", {"rows": rows})
        kept.keep(key, html, LEADERBOARD_SECONDS)
    return mark_safe(html)


def needs_player(request: HttpRequest) -> HttpResponse:
    """Games where the engine plays a seat its player left: a substitute may take it over (issue 21)."""
    from games.services import substitutes

    pager = page_of(request, substitutes.listing(request.user))
    return render(request, "web/needs_player.html", {"rows": pager.rows, "pager": pager,
                                                     "unrated_note": gettext(str(substitutes.UNRATED_NOTE))})


@require_POST
@login_required
def take_seat(request: HttpRequest, game_id: int, seat: str) -> HttpResponse:
    from games.services import substitutes

    try:
        substitutes.do_take_seat(game_id, seat, request.user)
    except GameError as exc:
        messages.error(request, _error_text(exc))
        return redirect("web-needs-player")
    messages.success(request, gettext("The seat is yours: play on. %(note)s")
                     % {"note": gettext(str(substitutes.UNRATED_NOTE))})
    return redirect("web-game", game_id=game_id)
