"""Each game's page (/play/<ruleset>/) with "Play now against the computer", and the rematch of a
finished game (issue 26). The games themselves are made by games/services/computer.py; this module
reads the form (every field checked here, a bad value a form error in words) and says what each
game is in words."""
from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from games import rulesets
from games.engine import get_ruleset
from games.errors import GameError
from games.services import computer
from web import forms as lobby_form

# Each game in a sentence, for the home page and the game's page
ABOUT = {
    "agot": gettext_lazy("Conquer Westeros on the board: orders, bids for influence, battles with house cards, the wildlings."),
    "btwixt": gettext_lazy("Leaders bid with influence cards for the allies of the realm, season after season."),
    "lcg": gettext_lazy("A duel of decks: marshal characters, win challenges of military, intrigue and power, reach 15 power."),
    "minis": gettext_lazy("Stark against Lannister, or three and four armies: move, charge, shoot and hold the objectives."),
}
# The seat's word on the form ("Your house"), per game
SEAT_LABEL = {"agot": gettext_lazy("Your house"), "btwixt": gettext_lazy("Your leader"), "minis": gettext_lazy("Your army")}


def seat_options(ruleset: str) -> list[tuple[str, str]]:
    """Every seat a person may ask for, in words: houses (with the table sizes they play at), leaders, armies."""
    if ruleset == "agot":
        engine = get_ruleset("agot")
        out = []
        for house in engine.seat_choices(engine.max_seats):
            smallest = next(n for n in range(engine.min_seats, engine.max_seats + 1) if house in engine.seat_choices(n))
            if smallest == engine.min_seats:
                said = gettext("%(house)s (any table)")
            elif smallest < engine.max_seats:
                said = gettext("%(house)s (%(count)s players or more)")
            else:
                said = gettext("%(house)s (%(count)s players)")
            out.append((house, said % {"house": house.title(), "count": smallest}))
        return out
    if ruleset == "btwixt":
        return lobby_form._leaders()
    if ruleset == "minis":
        return list(lobby_form.ARMIES)
    return []


class PlayForm(forms.Form):
    """The options of a game against the computer: all optional, the defaults make a good first game."""

    seats = forms.IntegerField(label=gettext_lazy("Players"), required=False,
                               error_messages={"invalid": gettext_lazy("Players: a whole number.")})
    seat = forms.ChoiceField(label=gettext_lazy("Your seat"), required=False)
    tides_of_battle = lobby_form.Tick(gettext_lazy("Tides of Battle"))
    my_deck = forms.ChoiceField(label=gettext_lazy("Your deck"), required=False, error_messages={
        "invalid_choice": gettext_lazy("Your deck: choose one of the decks in the list.")})
    their_deck = forms.ChoiceField(label=gettext_lazy("The computer's deck"), required=False, error_messages={
        "invalid_choice": gettext_lazy("The computer's deck: choose one of the decks in the list.")})
    random_terrain = lobby_form.Tick(gettext_lazy("Random terrain"))
    # the miniatures game (issue 33): one of your saved armies (its faction is your seat, its size the game's)
    my_army = forms.ChoiceField(label=gettext_lazy("Your saved army"), required=False, error_messages={
        "invalid_choice": gettext_lazy("Your saved army: choose one of your saved armies in the list.")})
    # two players (issue 33): the computer's army, a house's starter army; of your army's house it is a mirror match
    their_army = forms.ChoiceField(label=gettext_lazy("The computer's army"), required=False, error_messages={
        "invalid_choice": gettext_lazy("The computer's army: choose one of the armies in the list.")})
    # three or four players (issue 33): each against all (M131), or four in two teams of two (M130)
    teams = lobby_form.Tick(gettext_lazy("Two against two"))
    time_limit = forms.TypedChoiceField(label=gettext_lazy("Time per decision"), choices=lobby_form.TIME_LIMITS, coerce=int,
                                        required=False, empty_value=computer.DEFAULT_TIME_LIMIT, error_messages={
                                            "invalid_choice": gettext_lazy(
                                                "Time per decision: choose one of the times in the list.")})
    clock = forms.ChoiceField(label=gettext_lazy("Clock"), choices=lobby_form.CLOCKS, required=False, error_messages={
        "invalid_choice": gettext_lazy("Clock: choose none or one of the clocks in the list.")})

    def __init__(self, ruleset: str, *args: Any, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        self.fields["seat"].label = SEAT_LABEL.get(ruleset, gettext_lazy("Your seat"))
        self.fields["seat"].choices = [("", gettext("drawn at random"))] + seat_options(ruleset)
        self.fields["seat"].error_messages["invalid_choice"] = gettext("%(label)s: choose one in the list.") % {
            "label": self.fields["seat"].label}
        decks = lobby_form.deck_list()
        self.user = user
        # a player's saved armies and decks are read only for the game that plays them (one query each)
        armies = my_army_choices(user) if ruleset == "minis" else []
        self.fields["my_army"].choices = [("", gettext("the starter army of your seat"))] + armies
        self.fields["their_army"].choices = [("", gettext("the starter army of the other house"))] + (
            computer_army_choices() if ruleset == "minis" else [])
        my_decks = lobby_form.my_deck_list(user) if ruleset == "lcg" else []
        self.fields["my_deck"].choices = [("", gettext("drawn at random"))] + my_decks
        self.fields["their_deck"].choices = [("", gettext("drawn at random"))] + decks
        for key, (label, _help) in lobby_form.BTWIXT_OPTIONS.items():
            self.fields[f"btwixt_{key}"] = lobby_form.Tick(label)

    def btwixt_fields(self) -> list[tuple[forms.BoundField, str]]:
        return [(self[f"btwixt_{k}"], help) for k, (_label, help) in lobby_form.BTWIXT_OPTIONS.items()]

    def clean_seats(self) -> int | None:
        seats = self.cleaned_data.get("seats")
        engine = get_ruleset(self.ruleset)
        if seats is not None and not engine.min_seats <= seats <= engine.max_seats:
            raise forms.ValidationError(rulesets.players_words(self.ruleset, engine.min_seats, engine.max_seats))
        return seats

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        if self.ruleset == "minis" and d.get("teams"):  # two against two is four players, whatever Players says
            self.errors.pop("seats", None)
            d["seats"] = 4
        if self.ruleset == "minis" and d.get("their_army") and (d.get("seats") or 2) != 2:
            self.add_error("their_army", gettext("The computer's army is chosen in a game of two players; with three "
                                                 "or four, each computer plays its seat's starter army."))
        if self.ruleset == "agot" and d.get("seat") and "seats" not in self.errors:
            engine = get_ruleset("agot")
            count = computer.seat_count("agot", d.get("seats"))
            if d["seat"] not in engine.seat_choices(count):
                self.add_error("seat", gettext("%(house)s does not play at a table of %(count)s: choose more players "
                                               "or another house.") % {"house": d["seat"].title(), "count": count})
        return d

    def request(self) -> computer.ComputerGame:
        d = self.cleaned_data
        options: dict[str, Any] = {}
        if self.ruleset == "agot" and d.get("tides_of_battle"):
            options["tides_of_battle"] = True
        if self.ruleset == "btwixt":
            options = {k: True for k in lobby_form.BTWIXT_OPTIONS if d.get(f"btwixt_{k}")}
        seat = d.get("seat") or ""
        if self.ruleset == "minis":
            options = {"mode": "here_we_stand", **({"terrain": "random"} if d.get("random_terrain") else {})}
            if (d.get("seats") or 2) > 2:  # M131 each against all, M130 two against two (you and a computer together)
                options["multiplayer"] = "teams" if d.get("teams") else "ffa"
            army = saved_army(d.get("my_army"), self.user)
            if army is not None:  # the army's faction is your seat; its size, the game's (M126: the VP to win)
                seat = army.faction
                options.update(game_size=army.game_size, armies={army.faction: d["my_army"]})
            if d.get("their_army"):  # the computer's starter army; of your house: a mirror match (stark + stark_2)
                seat, their_seat, their = computer_army(d["their_army"], seat, options.get("game_size", 30))
                options["armies"] = {**options.get("armies", {}), their_seat: their}
        chosen = d.get("clock") or ""
        bank, increment = (int(part) for part in chosen.split("+")) if chosen else (None, 0)
        return computer.ComputerGame(
            ruleset=self.ruleset, seats=d.get("seats") if get_ruleset(self.ruleset).max_seats > 2 else None,
            seat=seat, options=options, deck=d.get("my_deck") or "",
            their_deck=d.get("their_deck") or "" if self.ruleset == "lcg" else "",
            time_limit=d.get("time_limit") or computer.DEFAULT_TIME_LIMIT, clock_bank=bank, clock_increment=increment)

    def add_service_error(self, error: GameError) -> None:
        fields = getattr(error, "fields", None) or {}
        for name, said in fields.items():
            text = " ".join(map(str, said))
            target = {"seat": "seat", "deck": "my_deck", "decks": "my_deck", "time_limit": "time_limit",
                      **({"army": "my_army", "options": "my_army"} if self.ruleset == "minis" else {})}.get(name)
            self.add_error(target, text)
        if not fields:
            self.add_error(None, error.detail)


def my_army_choices(user) -> list[tuple[str, str]]:
    """The person's saved miniatures armies a game may take (legal, fielded by the engine), in words."""
    from games.engine.minis import armies as army_rules
    from games.models import Army
    from games.services import armies as saved

    refs = saved.my_usable_armies(user)
    found = {saved.saved_ref(a): a for a in Army.objects.filter(pk__in=[saved.saved_id(r) for r in refs])}
    return [(ref, f"{name} ({army_rules.summary(found[ref].army())})") for ref, name in refs.items() if ref in found]


def computer_army_choices() -> list[tuple[str, str]]:
    """The armies the computer may play against you (two players): each house's starter army, in words."""
    from games.engine.minis import armies as army_rules
    from games.services import armies as saved

    return [(key, gettext("the %(house)s starter army") % {"house": army_rules.house(army["faction"])})
            for key, army in saved.starter_armies().items() if int(army.get("game_size", 30)) == 30]


def computer_army(key: str, seat: str, size: int) -> tuple[str, str, Any]:
    """(your seat, the computer's seat, its army) for the computer's starter army `key`: of your house (your seat or
    your saved army's), it takes the house's second seat (a mirror match, issue 33); of the other house, that house's
    seat; with your seat drawn at random, you play the other house. Under 30 points the starter army is cut down to
    the size, as for the seats no one brings an army to."""
    from games.services import armies as saved

    house = saved.starter_armies()[key]["faction"]
    mine = seat or saved.other_house(house)
    army: Any = key if size >= 30 else saved.fitted_starter(house, size)
    return mine, (f"{house}_2" if mine == house else house), army


def saved_army(ref: Any, user):
    from games.models import Army
    from games.services import armies as saved

    army_id = saved.saved_id(ref)
    if army_id is None or user is None or not user.is_authenticated:
        return None
    return Army.objects.filter(pk=army_id, owner=user).first()


def games_offered() -> list[dict[str, Any]]:
    """The four games as the home page and the game pages list them."""
    out = []
    for ruleset in rulesets.open_ruleset_ids():
        engine = get_ruleset(ruleset)
        players = (ngettext("%(count)d player", "%(count)d players", engine.min_seats) % {"count": engine.min_seats}
                   if engine.min_seats == engine.max_seats
                   else gettext("%(low)d to %(high)d players") % {"low": engine.min_seats, "high": engine.max_seats})
        seats = computer.seat_count(ruleset, None)
        against = (gettext("the computer") if seats == 2
                   else ngettext("%(count)d computer player", "%(count)d computer players", seats - 1) % {"count": seats - 1})
        out.append({"ruleset": ruleset, "name": gettext(rulesets.name(ruleset)), "about": ABOUT.get(ruleset, ""),
                    "players": players, "against": against})
    return out


def _offered(ruleset: str) -> dict[str, Any]:
    game = next((g for g in games_offered() if g["ruleset"] == ruleset), None)
    if game is None:
        raise Http404("No such game.")
    return game


def play_page(request: HttpRequest, ruleset: str) -> HttpResponse:
    """The game's page: what it is, "Play now against the computer" with its options, and where to find people."""
    game = _offered(ruleset)
    form = PlayForm(ruleset, request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={reverse('web-play', args=[ruleset])}")
        if form.is_valid():
            try:
                started = computer.do_play_computer(request.user, form.request())
            except GameError as exc:
                form.add_service_error(exc)
            else:
                return redirect("web-game", game_id=started.pk)
    engine = get_ruleset(ruleset)
    return render(request, "web/play.html", {
        "game": game, "form": form, "ruleset": ruleset, "data": form.data if form.is_bound else {},
        "min_seats": engine.min_seats, "max_seats": engine.max_seats,
        "default_seats": computer.seat_count(ruleset, None), "seat_label": SEAT_LABEL.get(ruleset, ""),
        "time_limits": lobby_form.TIME_LIMITS, "clocks": lobby_form.CLOCKS,
        "default_time": computer.DEFAULT_TIME_LIMIT, "unrated": gettext(computer.lobbies.COMPUTER_UNRATED),
        "army_lists": lobby_form.army_lists() if ruleset == "minis" else [],
        "cardset_name": lobby_form.cardset_name() if ruleset == "btwixt" else "",
    })


@require_POST
@login_required
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The same game again (games/services/computer.py do_rematch): to the new game when it starts,
    else to the lobby where the other players are awaited."""
    try:
        done = computer.do_rematch(game_id, request.user)
    except GameError as exc:
        if exc.status_code == 404:
            raise Http404("No such game.") from None
        messages.error(request, gettext("No rematch: %(why)s") % {"why": exc.detail})
        return redirect("web-game", game_id=game_id)
    if done.game is not None:
        return redirect("web-game", game_id=done.game.pk)
    messages.info(request, gettext("Your seat is kept in the rematch: the game starts when the other players ask for it "
                                   "too (their game page offers it), or when you start it with the computer in the "
                                   "empty seats."))
    url = reverse("web-lobby", args=[done.lobby.pk])
    return redirect(f"{url}?invite={done.lobby.invite_token}" if done.lobby.private else url)
