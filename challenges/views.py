"""The challenge pages (issue 26): challenge a player or a bot account from their profile or from the
list of bots, with the ruleset and its options; answer challenges (accept, decline with lichess's
reasons, cancel your own) from the challenges page and the home page (challenges/templatetags).

Thin: the form is the lobby form's (web/forms.py: the same fields, options and checks for each
ruleset) cut down to what a challenge has, and everything is done by challenges/services.py, so the
pages have the API's validation and rate limit; a refusal is a form error or a message in words.
The page's sentences are in WORDS."""
from __future__ import annotations

import hashlib
import re
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count, OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.template.context_processors import csrf
from django.template.defaultfilters import timeuntil_filter
from django.template.loader import render_to_string
from django.utils.functional import lazy
from django.utils.html import conditional_escape, escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from rest_framework.exceptions import Throttled

from accounts.models import User
from accounts.templatetags.bots import player
from challenges import services
from challenges.models import Challenge, Invite
from games import rulesets
from games.engine import get_ruleset
from games.errors import GameError
from games.models import GameSeat
from ratings.models import STANDARD_FORMAT, Rating
from ratings.services import is_provisional
from ratings.templatetags.site_words import duration_words, ruleset_name
from web import forms as lobby_form
from web.paging import page_of
from westeros import kept
from westeros.templatetags import select_options

WORDS = {
    "others_label": gettext_lazy("Also challenge (names, separated by commas)"),
    "others_help": gettext_lazy("%(game)s needs %(low)d to %(high)d players: you, %(name)s and the players "
                                "you name here."),
    "count_mismatch": gettext_lazy("Players: you chose %(seats)d players, so name %(wanted)s to challenge "
                                   "besides you; you named %(named)s."),
    "rate": gettext_lazy("You have sent %(limit)d challenges in the last hour, the most allowed: "
                         "you can send the next one in %(wait)s."),
    "sent": gettext_lazy("Challenge sent to %(names)s. This page takes you to the game once everyone has accepted."),
    "accepted_started": gettext_lazy("Everyone accepted: the game has started."),
    "declined": gettext_lazy("You declined %(challenger)s's challenge."),
    "canceled": gettext_lazy("Your challenge is canceled."),
    "no_such_verb": gettext_lazy("No such answer to a challenge."),
    "self": gettext_lazy("You cannot challenge yourself."),
    "closed": gettext_lazy("The challenges of %(game)s are not open on the site yet."),
}


def _join(names: list[str]) -> str:
    """"arya", "arya and brienne", "arya, brienne and cersei" (in the active language)."""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _join_html(names: list[str]) -> str:
    """_join for names already made safe HTML (the |player filter's, with the BOT badge)."""
    return mark_safe(_join([conditional_escape(n) for n in names]))  # each name escaped; "and" is ours


# --- the form -----------------------------------------------------------------------------------------

# The miniatures game's challenges are duels (issue 33: its three- and four-player tables are played in lobbies)
TWO_PLAYER_CHALLENGES = ("minis",)


class ChallengeForm(lobby_form.LobbyForm):
    """The lobby form's fields for a challenge: the game, the players (3 to 6 where the game allows
    several: the opponent and the others named), the time per decision, the game's options and
    ranked. Seats are the players: houses, leaders and armies are drawn at random (as a challenge
    made with the API); in the card game the challenger may choose their deck (a ready-made one or a saved one,
    issue 30), the others' are drawn at random."""

    KEPT = ("ruleset", "seats", "time_limit", "tides_of_battle", "minis_mode", "random_terrain", "ranked", "my_deck", "lcg_seats",
            "game_size", "my_army",
            *(f"btwixt_{key}" for key in lobby_form.BTWIXT_OPTIONS))

    def __init__(self, *args: Any, opponent: User, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.opponent = opponent
        for name in [n for n in self.fields if n not in self.KEPT]:
            del self.fields[name]
        self.fields["others"] = forms.CharField(label=WORDS["others_label"], required=False, max_length=600)

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        ruleset = d.get("ruleset")
        if ruleset not in dict(lobby_form.RULESETS) or d.get("seats") is None:
            return d
        engine = get_ruleset(ruleset)
        names = [n for n in re.split(r"[\s,;]+", d.get("others") or "") if n]
        if engine.min_seats == engine.max_seats or ruleset in TWO_PLAYER_CHALLENGES or d["seats"] == 2:
            names = []  # a two-player game (the card game's joust too): the opponent alone (the field is hidden for it)
        d["users"] = [self.opponent.username, *names]
        if engine.min_seats != engine.max_seats and engine.min_seats <= d["seats"] <= engine.max_seats \
                and len(d["users"]) + 1 != d["seats"]:
            self.add_error("others", WORDS["count_mismatch"] % {
                "seats": d["seats"], "wanted": _players(d["seats"] - 1), "named": _join(d["users"])})
        return d

    def request(self) -> services.ChallengeRequest:
        d = self.cleaned_data
        return services.ChallengeRequest(ruleset=d["ruleset"], users=d["users"], time_limit=d["time_limit"],
                                         ranked=d["ranked"], options=self.options(),
                                         deck={"lcg": d.get("my_deck"), "minis": d.get("my_army")}.get(d["ruleset"]) or "")

    def add_challenge_error(self, error: GameError) -> None:
        """The service refused: its words beside the field they are about."""
        fields = dict(getattr(error, "fields", None) or {})
        if "users" in fields:
            self.add_error("others" if len(self.cleaned_data.get("users", [])) > 1 else None,
                           " ".join(map(str, fields.pop("users"))))
        if fields or not getattr(error, "fields", None):
            self.add_service_error(GameError(error.default_code, str(error.detail), fields=fields))


def _players(n: int) -> str:
    return ngettext("%(count)d player", "%(count)d players", n) % {"count": n}


def _form_context(form: ChallengeForm, opponent_name: str, chosen: str) -> dict[str, Any]:
    lf = lobby_form
    seat_ranges = {r: (get_ruleset(r).min_seats, 2 if r in TWO_PLAYER_CHALLENGES else get_ruleset(r).max_seats)
                   for r, _ in lf.RULESETS}
    data = form.data if form.is_bound else {"seats": "3", "time_limit": "86400"}
    return {
        "form": form, "data": data, "rulesets": lf.RULESETS, "chosen": chosen,
        "time_limits": lf.TIME_LIMITS, "cardset_name": lf.cardset_name(), "game_sizes": lf.MINIS_SIZES,
        "btwixt_options": lf.btwixt_option_rows(),
        "army_lists": lf.army_lists(),
        "minis_modes": [(key, name, key in rulesets.MINIS_PLAYABLE_MODES) for key, name in rulesets.MINIS_MODES.items()],
        "checked": {name for name in form.data if str(form.data.get(name)).lower() in lf.CHECKED},
        "several": [(r, WORDS["others_help"] % {"game": ruleset_name(r), "low": low, "high": high,
                                                 "name": opponent_name})
                    for r, (low, high) in seat_ranges.items() if low != high],
        "two_player": " ".join(r for r, (low, high) in seat_ranges.items() if low == high),
    }


def _default_ruleset(opponent: User) -> str:
    """What the form offers first: the game the opponent has played most, else the card game (a joust of two
    players: just you and them)."""
    known = played_rulesets([opponent.pk]).get(opponent.pk, [])
    return known[0] if known else "lcg"


@login_required
def challenge_new(request: HttpRequest, username: str) -> HttpResponse:
    """The challenge form for `username` (a person or a bot account)."""
    opponent = get_object_or_404(User, username=username, is_active=True)
    if opponent.pk == request.user.pk:
        messages.error(request, WORDS["self"])
        return redirect("public-profile", username=username)
    form = ChallengeForm(request.POST if request.method == "POST" else None, opponent=opponent, user=request.user)
    if form.is_bound and form.is_valid():
        try:
            challenge = services.do_create_challenge(request.user, form.request())
        except Throttled as refused:
            form.add_error(None, forms.ValidationError(WORDS["rate"] % {
                "limit": services.conf("CHALLENGES_PER_HOUR"), "wait": duration_words(refused.wait or 1)}, code="throttled"))
        except GameError as error:
            form.add_challenge_error(error)
        else:
            names = [i.user.username for i in challenge.invites.all()]
            messages.success(request, WORDS["sent"] % {"names": _join(names)})
            return redirect("challenges")
    chosen = (form.data.get("ruleset") or "agot") if form.is_bound else _default_ruleset(opponent)
    status = 400 if form.errors else 200
    if any(e.code == "throttled" for e in form.non_field_errors().as_data()):
        status = 429
    data = form.data if form.is_bound else {}
    decks = form.fields["my_deck"].choices if "my_deck" in form.fields else []  # a form sent back reads its game's
    mine = {"my_deck_options": select_options.options(decks, data.get("my_deck")),
            "my_army_options": select_options.options(form.my_armies, data.get("my_army"))}
    if form.is_bound:
        form_html = render_to_string("challenges/_form.html", {**_form_context(form, opponent.username, chosen), **mine},
                                     request=request)
    else:  # the blank form: the same for everyone but the opponent's name, your decks and armies, the CSRF token
        html = _BLANK_FORMS.get((get_language(), chosen), lambda: render_to_string("challenges/_form.html", {
            **_form_context(form, OPPONENT_MARK, chosen), "csrf_token": kept.CSRF_MARK,
            "my_deck_options": lobby_form.MY_DECKS_MARK, "my_army_options": lobby_form.MY_ARMIES_MARK}))
        form_html = kept.filled(html, get_token(request), {
            OPPONENT_MARK: conditional_escape(opponent.username), lobby_form.MY_DECKS_MARK: mine["my_deck_options"],
            lobby_form.MY_ARMIES_MARK: mine["my_army_options"]})
    return render(request, "challenges/new.html", {"form": form, "opponent": opponent, "form_html": mark_safe(form_html)},
                  status=status)


# The blank challenge form rendered once per process, language and game offered first (issue 27, thirteenth round),
# as the blank lobby form is (web/views.py): the opponent's name, the reader's decks and armies and CSRF token are
# written in at its marks (kept.filled).
_BLANK_FORMS = kept.InProcess(limit=64)
OPPONENT_MARK = kept.mark("opponent")


# --- the challenges page ------------------------------------------------------------------------------

timeuntil_words = timeuntil_filter  # "23 hours, 59 minutes" as |timeuntil writes it


def _time_left(challenge: Challenge) -> Any:
    """How long the challenge still waits for answers, in words: computed only where a page writes it."""
    return lazy(lambda: timeuntil_words(challenge.expires_at), str)()


def army_choices(user: User) -> list[tuple[str, str, int]]:
    """The user's saved miniatures armies a game may take, with their sizes (one query)."""
    from games.models import Army
    from games.services import armies as saved

    return [(saved.saved_ref(a), a.name, a.game_size) for a in Army.objects.filter(owner=user)
            if not saved.refusal(a.army())]


def challenge_rows(challenges: list[Challenge], user: User,
                   decks: list[tuple[str, str]] | None = None,
                   armies: list[tuple[str, str, int]] | None = None) -> list[dict[str, Any]]:
    """Each challenge as the pages show it: in words, with the user's own invite (if any), and for a card-game
    challenge waiting for the user's answer the decks they may bring on accepting (`decks`: their saved legal
    decks, then the ready-made ones; read once per page, issue 30, or given)."""
    rows = []
    deck_choices: list[tuple[str, str]] | None = decks
    known_armies = armies
    for c in challenges:
        invites = list(c.invites.all())
        mine = next((i for i in invites if i.user_id == user.pk), None)
        decks: list[tuple[str, str]] = []
        if c.ruleset == "lcg" and mine is not None and mine.status == Invite.Status.PENDING:
            if deck_choices is None:
                deck_choices = lobby_form.my_deck_list(user)
            decks = deck_choices
        mine_armies: list[tuple[str, str]] = []
        if c.ruleset == "minis" and mine is not None and mine.status == Invite.Status.PENDING:  # issue 33
            if known_armies is None:
                known_armies = army_choices(user)
            size = (c.options or {}).get("game_size", 30)
            mine_armies = [(ref, name) for ref, name, points in known_armies if points == size]
        rows.append({
            "challenge": c, "game_name": ruleset_name(c.ruleset), "time": duration_words(c.time_limit),
            "options": lobby_form.option_words(c.ruleset, c.options or {}), "status": services.shown_status(c),
            "status_words": gettext(Challenge.Status(services.shown_status(c)).label),
            "invites": [{"user": i.user, "status": i.status, "reason": services.decline_reason_words(i.reason)}
                        for i in invites],
            "others": [i.user for i in invites if i.user_id != user.pk],
            "others_words": _join_html([player(i.user) for i in invites if i.user_id != user.pk]) if len(invites) > 1 else "",
            "players_words": _join_html([gettext("you") if i.user_id == user.pk else player(i.user) for i in invites]),
            "mine": mine, "accepted": mine is not None and mine.status == Invite.Status.ACCEPTED, "decks": decks,
            "armies": mine_armies,
            "left": _time_left(c),  # how long it waits for answers, in words (written only where shown)
        })
    return rows


INCOMING_ROW_SECONDS = 600  # how long a rendered challenge waiting for an answer is kept (its key is its values)
# What differs from one request to the next in a kept row, written into it as it is served (kept.filled): the
# time left to answer (it changes every minute) and the forms' CSRF token (the request's).
LEFT_MARK = kept.mark("left")


def incoming_rows_html(challenges: list[Challenge], user: User, next_url: str, csrf_token: Any) -> list[str]:
    """Each challenge waiting for the user's answer rendered as templates/challenges/_incoming.html renders
    it (with Accept, Decline and their forms), each kept in the cache under the values it shows: the
    challenge, its challenger, its game, time, options and ranking, every invite's player and answer, the
    decks the user may bring, the page it returns to and the language, so a changed row is a new key at
    once (never stale). Only the time left and the CSRF token are written in per request. A page with ten
    such rows rendered twenty forms and their menus (issue 27: 4x the bare endpoint on the busy player's
    home). Rows not kept (or the cache down) are rendered afresh."""
    if not challenges:
        return []
    decks = None
    if any(c.ruleset == "lcg" for c in challenges):  # the decks a card-game challenge may be accepted with
        decks = lobby_form.my_deck_list(user)
    armies = army_choices(user) if any(c.ruleset == "minis" for c in challenges) else None  # the armies (issue 33)
    language = get_language()
    keys = {}
    for c in challenges:
        values = (user.pk, next_url, c.pk, c.challenger.username, c.challenger.is_bot, c.ruleset, c.time_limit,
                  c.ranked, c.status, c.options,
                  [(i.user_id, i.user.username, i.user.is_bot, i.status) for i in c.invites.all()],
                  decks if c.ruleset == "lcg" else None,
                  armies if c.ruleset == "minis" else None)
        digest = hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()
        keys[c.pk] = f"challenges:incoming:{language}:{c.pk}:{digest}"
    found = kept.get_many(list(keys.values()))
    missing = [c for c in challenges if keys[c.pk] not in found]
    if missing:
        rows = challenge_rows(missing, user, decks=decks, armies=armies)
        reasons = services.decline_reason_choices()
        fresh = {}
        for row in rows:
            row["left"] = LEFT_MARK
            fresh[keys[row["challenge"].pk]] = render_to_string(
                "challenges/_incoming.html", {"row": row, "reasons": reasons, "next": next_url,
                                              "csrf_token": kept.CSRF_MARK})
        kept.keep_many(fresh, INCOMING_ROW_SECONDS)
        found.update(fresh)
    return [kept.filled(found[keys[c.pk]], csrf_token, {LEFT_MARK: escape(timeuntil_words(c.expires_at))})
            for c in challenges]


LISTED_ROW_SECONDS = 600  # how long a rendered challenge of the page's other lists is kept (its key is its values)


def kept_rows_html(kind: str, challenges: list[Challenge], user: User, csrf_token: Any) -> list[str]:
    """Each challenge of the challenges page's list `kind` (accepted, outgoing, past) rendered as
    templates/challenges/_<kind>.html renders it, each kept in the cache under the values it shows (as
    incoming_rows_html keeps the challenges waiting for an answer): the challenge, its challenger, game,
    time, options, ranking, status and game, every invite's player, answer and reason, the reader and
    the language, so a changed row is a new key at once. The time left and the CSRF token are written
    in per request (issue 27: the lists' rows were rendered on every visit)."""
    if not challenges:
        return []
    language = get_language()
    keys = {}
    for c in challenges:
        values = (kind, user.pk, c.pk, c.challenger_id, c.challenger.username, c.challenger.is_bot, c.ruleset,
                  c.time_limit, c.ranked, services.shown_status(c), c.game_id, c.options,
                  [(i.user_id, i.user.username, i.user.is_bot, i.status, i.reason) for i in c.invites.all()])
        digest = hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()
        keys[c.pk] = f"challenges:{kind}:{language}:{c.pk}:{digest}"
    found = kept.get_many(list(keys.values()))
    missing = [c for c in challenges if keys[c.pk] not in found]
    if missing:
        fresh = {}
        for row in challenge_rows(missing, user):
            row["left"] = LEFT_MARK
            fresh[keys[row["challenge"].pk]] = render_to_string(
                f"challenges/_{kind}.html", {"row": row, "user": user, "csrf_token": kept.CSRF_MARK})
        kept.keep_many(fresh, LISTED_ROW_SECONDS)
        found.update(fresh)
    return [kept.filled(found[keys[c.pk]], csrf_token,
                        {LEFT_MARK: escape(timeuntil_words(c.expires_at))} if LEFT_MARK in found[keys[c.pk]] else None)
            for c in challenges]


@login_required
def challenge_list(request: HttpRequest) -> HttpResponse:
    """Challenges waiting for your answer, yours waiting for answers, and your last answered ones."""
    mine = services.challenges_of(request.user, answered=10)  # the invites of all four lists in one query
    past = mine["past"]
    return render(request, "challenges/list.html", {
        # rendered as challenges/_incoming.html does, kept per row
        "incoming": incoming_rows_html(mine["in"], request.user, request.path, csrf(request)["csrf_token"]),
        # the other lists as challenges/_accepted.html, _outgoing.html and _past.html render them, kept per row
        **{kind: kept_rows_html(kind, challenges, request.user, csrf(request)["csrf_token"])
           for kind, challenges in (("accepted", mine["accepted"]), ("outgoing", mine["out"]), ("past", past))},
        # the navigation's count of challenges waiting for your answer, known here (challenge_tags)
        "challenges_waiting_known": len(mine["in"]) if len(mine["in"]) < services.LISTED else None,
    })


@require_POST
@login_required
def challenge_answer(request: HttpRequest, challenge_id: int, verb: str) -> HttpResponse:
    """Accept, decline (with a reason) or cancel; then to the game if it started, else back."""
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back = ""
    try:
        if verb == "accept":
            # the card game: the deck the player brings (a ready-made one or deck:<id> of theirs; '' drawn at random)
            brought = request.POST.get("deck") or request.POST.get("army") or ""  # the miniatures game: an army
            challenge = services.do_accept(challenge_id, request.user, brought.strip()[:40])
            if challenge.game_id:
                messages.success(request, WORDS["accepted_started"])
                return redirect("web-game", game_id=challenge.game_id)
            waiting = [i.user.username for i in challenge.invites.all() if i.status == Invite.Status.PENDING]
            messages.success(request, ngettext(
                "You accepted. The game starts when %(names)s has accepted too.",
                "You accepted. The game starts when %(names)s have accepted too.", len(waiting)) % {"names": _join(waiting)})
            return redirect("challenges")  # its page follows the challenge to its game
        if verb == "decline":
            challenge = services.do_decline(challenge_id, request.user, request.POST.get("reason") or "generic")
            messages.success(request, WORDS["declined"] % {"challenger": challenge.challenger.username})
        elif verb == "cancel":
            services.do_cancel(challenge_id, request.user)
            messages.success(request, WORDS["canceled"])
        else:
            raise Http404(WORDS["no_such_verb"])
    except GameError as error:
        if error.status_code == 404:
            raise Http404(str(error.detail)) from None
        fields = getattr(error, "fields", None) or {}
        messages.error(request, " ".join([str(error.detail) if not fields else "",
                                          *(" ".join(map(str, v)) for v in fields.values())]).strip())
    return redirect(back or "challenges")


# --- the bots -----------------------------------------------------------------------------------------

def played_rulesets(user_ids: list[int]) -> dict[int, list[str]]:
    """{user: the rulesets they have played, most played first} (their seats in games)."""
    rows = (GameSeat.objects.filter(user_id__in=user_ids).values("user_id", "game__ruleset")
            .annotate(n=Count("id")).order_by("user_id", "-n", "game__ruleset"))
    out: dict[int, list[str]] = {}
    for row in rows:
        if row["game__ruleset"] in dict(lobby_form.RULESETS):
            out.setdefault(row["user_id"], []).append(row["game__ruleset"])
    return out


PLAYED_KEY = "bots-played:{user}:{game}"
PLAYED_KEPT = 3600  # seconds; see played_rulesets_kept


def played_rulesets_kept(bots: list[User]) -> dict[int, list[str]]:
    """played_rulesets for the bots of a page, kept in the cache under each bot's newest game
    (`newest_game`, read with the page): counting a busy bot's games by ruleset reads every seat it
    ever had and its game, so it is done once per bot and newest game, and again when a new game of
    theirs makes a new key. A seat taken in an older game (a substitute, a tournament's
    replacement) shows within PLAYED_KEPT."""
    keys = {b.pk: PLAYED_KEY.format(user=b.pk, game=b.newest_game) for b in bots}
    kept = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in kept]
    fresh = played_rulesets(missing) if missing else {}
    if missing:
        cache.set_many({keys[pk]: fresh.get(pk, []) for pk in missing}, PLAYED_KEPT)
    return {pk: kept[key] if key in kept else fresh.get(pk, []) for pk, key in keys.items()}


def bot_list(request: HttpRequest) -> HttpResponse:
    """The bot accounts: their names, the games they have played, their ratings, a Challenge button."""
    newest = GameSeat.objects.filter(user=OuterRef("pk")).order_by("-game_id").values("game_id")[:1]
    bots = User.objects.filter(is_bot=True, is_active=True).annotate(newest_game=Subquery(newest))
    pager = page_of(request, bots.order_by("username", "id"), order="rank")
    bots = pager.rows
    ids = [b.pk for b in bots]
    played = played_rulesets_kept(bots)
    ratings: dict[int, list[dict[str, Any]]] = {}
    for r in Rating.objects.filter(user_id__in=ids, format=STANDARD_FORMAT).order_by("-games", "ruleset"):
        ratings.setdefault(r.user_id, []).append({"game": ruleset_name(r.ruleset), "rating": round(r.rating),
                                                  "games": r.games, "provisional": is_provisional(r)})
    rows = [{"bot": b, "games": [ruleset_name(r) for r in played.get(b.pk, [])], "ratings": ratings.get(b.pk, [])}
            for b in bots]
    return render(request, "challenges/bots.html", {"rows": rows, "pager": pager})
