"""The new-lobby form (templates/web/lobby_new.html): every field checked here, so a bad value is a
form error in words (listed above the form, its field marked), never a 500; the settings then go to the lobby service,
whose own refusals (the engine judges its options for the table's size) come back as form errors
too. Only the chosen game's options are read: A Game of Thrones' house and Tides of Battle,
B'Twixt's leader and modes (docs/engine-btwixt.md, rules B13-B14 and B75-B82), the card game's decks,
or the miniatures game's army, mode and terrain (docs/engine-minis.md "Options")."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games import rulesets
from games.engine import get_ruleset
from games.errors import GameError
from games.models import Lobby
from games.services import lobbies
from westeros import kept

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
# the labels are lazy: each form, page and notification says them in its reader's language
RULESETS = [("agot", _("A Game of Thrones (board game)")), ("btwixt", _("B'Twixt (card game, 3-6 leaders)")),
            ("lcg", _("A Game of Thrones: The Card Game (2 players, or 3-6 in a melee)")),
            ("minis", _("A Song of Ice and Fire: Tabletop Miniatures (2-4 players)"))]
ARMIES = [("stark", "Stark"), ("lannister", "Lannister")]
# M1: the suggested sizes, and quick games of 20 (the starter armies cut down for those who bring none)
MINIS_SIZES = [(20, _("20 points (quick: the starter armies cut down)")), (30, _("30 points")), (40, _("40 points")),
               (50, _("50 points"))]
# The miniatures game's tables (issue 33): two players, a free-for-all of three or four (M131), teams of two (M130)
MINIS_TABLES = {"2": (2, None, _("2 players: Stark against Lannister")),
                "3": (3, "ffa", _("3 players, each against all (free-for-all)")),
                "4": (4, "ffa", _("4 players, each against all (free-for-all)")),
                "teams": (4, "teams", _("4 players, two against two (teams)"))}
# where a kept blank form (the lobby's, the challenge's) takes the reader's saved decks' and armies' options
MY_DECKS_MARK, MY_ARMIES_MARK = kept.mark("my-decks"), kept.mark("my-armies")
DECK_CHOICES = [("pick", _("each player picks their own")), ("assign", _("I assign both"))]
# the card game: a joust of two, or a melee of three to six with the titles (issue 31)
# (said in words by the forms' templates: "2 players (a joust)", "4 players (a melee with titles)")
LCG_SEATS = [(n, str(n)) for n in range(2, 7)]
TIME_LIMITS = [(120, _("2 minutes")), (600, _("10 minutes")), (3600, _("1 hour")), (86400, _("1 day")),
               (259200, _("3 days"))]
# Clocks for live play (games/services/clocks.py): "bank+increment" in seconds; none by default
CLOCKS = [("", _("none: only the time per decision")), ("300+5", _("5 minutes + 5 seconds a decision")),
          ("1200+10", _("20 minutes + 10 seconds a decision")), ("3600+30", _("1 hour + 30 seconds a decision"))]
# The spectators of a game with fog of war (issue 34, games/spectators.py): no delay (they see nothing
# hidden until the game ends), or the whole board without the fog as it stood 1 or 2 rounds earlier
SPECTATOR_DELAYS = [(0, _("they see nothing hidden until the game ends")),
                    (1, _("they see the whole board, 1 round late")),
                    (2, _("they see the whole board, 2 rounds late"))]
HOUSE_CHOICES = [(Lobby.HouseChoice.RANDOM, _("drawn at random")), (Lobby.HouseChoice.PICK, _("each player picks")),
                 (Lobby.HouseChoice.ASSIGN, _("the creator assigns them"))]
# B'Twixt's modes (games/engine/btwixt/setup.py OPTION_KEYS), each with its label and what it does
# (the Spanish rules' names of the modes: docs/glossary-es.md, seed 001:236-290)
BTWIXT_OPTIONS = {
    "advanced": (_("Advanced game"), _("each leader's own influence cards and event cards join the game")),
    "draft": (_("Draft the hands"), _("each season the dealt cards are passed round, each leader keeping one at a time")),
    "succession": (_("Succession Assembly"), _("every leader and event card is shuffled into the influence deck "
                                               "and anyone may play them; the hands are drafted")),
    "allies_in_sight": (_("Allies in Sight"),
                        _("each season a row of allies is laid face up, so you see which ally comes next")),
    "short": (_("Short game"), _("one season less: 3-4 leaders start in Autumn, 5-6 in Winter")),
}
CHECKED = {"on", "true", "1", "yes"}
UNCHECKED = {"", "off", "false", "0", "no"}


class RawCheckbox(forms.CheckboxInput):
    """Hands the posted text to the field as it came, so Tick can refuse what is not a tick."""

    def value_from_datadict(self, data, files, name):
        return data.get(name)


class Tick(forms.Field):
    """A checkbox: ticked ("on"), or not (absent); any other value is an error, not a guess."""

    def __init__(self, label: str):
        super().__init__(label=label, required=False, widget=RawCheckbox)

    def to_python(self, value):
        if value is None or isinstance(value, bool):
            return bool(value)
        text = str(value).strip().lower()
        if text in CHECKED:
            return True
        if text in UNCHECKED:
            return False
        raise forms.ValidationError(gettext("%(label)s: tick the box or leave it empty.") % {"label": self.label},
                                    code="invalid")


def _leaders() -> list[tuple[str, str]]:
    from web import btwixt as btwixt_data  # built once per process (issue 27)

    return list(btwixt_data.catalogue()["leaders"].items())


def btwixt_option_rows() -> list[tuple[str, Any, Any]]:
    """B'Twixt's options as the forms list them (templates/web/_btwixt_options.html): (field, label, help)."""
    return [(f"btwixt_{key}", label, help) for key, (label, help) in BTWIXT_OPTIONS.items()]


def deck_list() -> list[tuple[str, str]]:
    """The card game's decks, each in words ("The Old Ways (Stark, with Banner of the Kraken)")."""
    return list(lobbies.deck_choices("lcg").items())


def my_deck_list(user) -> list[tuple[str, str]]:
    """The person's saved decks a game may take (legal, every card played: issue 30), then the ready-made ones."""
    from games.services import decks as saved

    mine = [(ref, gettext("%(name)s (your deck)") % {"name": name}) for ref, name in saved.my_usable_decks(user).items()]
    return mine + deck_list()


def army_lists() -> list[tuple[str, str]]:
    """The miniatures game's fixed starter lists in words: [("Stark", "Stark Sworn Swords with Robb
    Stark, The Wolf Lord (commander), ...; Catelyn Stark, Lady of Winterfell")]."""
    from games.engine.minis import data as minis_data
    from games.engine.narration import term

    def name_of(card_id: str) -> str:  # the Spanish edition's name where the glossary has it
        return term("minis", minis_data.card(card_id)["name"])

    out = []
    for lst in rulesets.minis_lists().values():
        units = []
        for u in lst["combat_units"]:
            name = name_of(u["unit"])
            if u.get("attachment"):
                said = (gettext("%(unit)s with %(attachment)s (commander)") if u["attachment"] == lst["commander_id"]
                        else gettext("%(unit)s with %(attachment)s"))
                name = said % {"unit": name, "attachment": name_of(u["attachment"])}
            units.append(name)
        ncus = [name_of(n) for n in lst["ncus"]]
        out.append((lst["faction"].title(), gettext("%(units)s; %(ncus)s (%(points)s points)") % {
            "units": ", ".join(units), "ncus": ", ".join(ncus), "points": lst["total_points"]}))
    return out


def minis_seat_choices() -> list[tuple[str, str]]:
    """The miniatures game's seats in words: Stark, Lannister, and each house's second army (three or four players)."""
    from ratings.templatetags.site_words import seat_name

    return [(seat, seat_name(seat, "minis")) for seat in ("stark", "lannister", "stark_2", "lannister_2")]


def my_army_list(user) -> list[tuple[str, str]]:
    """The person's saved miniatures armies a game may take (legal, fielded by the engine), each with its size (one
    query)."""
    from games.models import Army
    from games.services import armies as saved

    if user is None or not user.is_authenticated:
        return []
    return [(saved.saved_ref(a), gettext("%(name)s (%(points)s points)") % {"name": a.name, "points": a.game_size})
            for a in Army.objects.filter(owner=user) if not saved.refusal(a.army())]


def cardset_name() -> str:
    from web import btwixt as btwixt_data  # built once per process (issue 27)

    return btwixt_data.catalogue().get("name", "")


class LobbyForm(forms.Form):
    ruleset = forms.ChoiceField(label=pgettext_lazy("which of the four games", "Game"), choices=RULESETS, required=False,  # none posted: A Game of Thrones
                                error_messages={"invalid_choice": _("Choose one of the games in the list.")})
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    seats = forms.IntegerField(label=_("Players"), required=False, error_messages={  # the game's range: clean()
        "invalid": _("Players: a whole number from 3 to 6.")})
    time_limit = forms.TypedChoiceField(label=_("Time per decision"), choices=TIME_LIMITS, coerce=int, error_messages={
        "invalid_choice": _("Time per decision: choose one of the times in the list.")})
    clock = forms.ChoiceField(label=_("Clock"), choices=CLOCKS, required=False, error_messages={
        "invalid_choice": _("Clock: choose none or one of the clocks in the list.")})
    house_choice = forms.ChoiceField(label=_("Seats"), choices=HOUSE_CHOICES, required=False, error_messages={
        "invalid_choice": _("Seats: choose random, each player picks, or the creator assigns.")})
    # A Game of Thrones
    seat = forms.ChoiceField(label=_("Your house"), required=False, choices=[("", "—")] + [(h, h.title()) for h in HOUSES],
                             error_messages={"invalid_choice": _("Your house: choose one of the six houses.")})
    tides_of_battle = Tick(_("Tides of Battle"))
    # the variants of issue 34 (docs/rules-decisions.md, "AGoT variants"); the engine judges the values
    fog_of_war = Tick(_("Fog of war"))
    # with the fog: spectators see the whole board some rounds late (games/spectators.py)
    spectator_delay = forms.TypedChoiceField(label=_("Spectators"), choices=SPECTATOR_DELAYS, coerce=int, required=False,
                                             empty_value=0, error_messages={
                                                 "invalid_choice": _("Spectators: choose no delay, 1 round or 2 rounds.")})
    random_starts = Tick(_("Random start positions"))
    gift_power_tokens = Tick(_("Gifting power tokens"))
    draft_house_cards = Tick(_("House-card draft"))
    draft_tracks = Tick(_("Influence-track draft"))
    anonymous = Tick(_("Anonymous players"))
    castles_to_win = forms.IntegerField(label=_("Castles needed to win"), required=False, min_value=3, max_value=20,
                                        error_messages={"invalid": _("Castles needed to win: a whole number from 3 to 20."),
                                                        "min_value": _("Castles needed to win: a whole number from 3 to 20."),
                                                        "max_value": _("Castles needed to win: a whole number from 3 to 20.")})
    rounds = forms.IntegerField(label=_("Rounds"), required=False, min_value=1, max_value=10,
                                error_messages={"invalid": _("Rounds: a whole number from 1 to 10."),
                                                "min_value": _("Rounds: a whole number from 1 to 10."),
                                                "max_value": _("Rounds: a whole number from 1 to 10.")})
    # B'Twixt
    leader = forms.ChoiceField(label=_("Your leader"), required=False, error_messages={
        "invalid_choice": _("Your leader: choose one of the leaders in the list.")})
    # The card game: the decks (games/services/lobbies.py)
    deck_choice = forms.ChoiceField(label=_("Decks"), choices=DECK_CHOICES, required=False, error_messages={
        "invalid_choice": _("Decks: choose “each player picks” or “I assign both”.")})
    my_deck = forms.ChoiceField(label=_("Your deck"), required=False, error_messages={
        "invalid_choice": _("Your deck: choose one of the decks in the list.")})
    their_deck = forms.ChoiceField(label=_("Your opponent's deck"), required=False, error_messages={
        "invalid_choice": _("Your opponent's deck: choose one of the decks in the list.")})
    open_decklists = Tick(_("Open deck lists"))
    lcg_seats = forms.TypedChoiceField(label=_("Players"), choices=LCG_SEATS, coerce=int, required=False, empty_value=2,
                                       error_messages={"invalid_choice": _("Players: from 2 (a joust) to 6 (a melee).")})
    # The miniatures game: the army (seat) when each player picks, the mode, random terrain; the
    # armies are the fixed 30-point starter lists (games/rulesets.py options_refusal)
    army = forms.ChoiceField(label=_("Your army"), required=False, choices=[("", "—")] + ARMIES, error_messages={
        "invalid_choice": _("Your army: choose Stark or Lannister.")})
    minis_mode = forms.ChoiceField(label=_("Mode"), required=False, choices=list(rulesets.MINIS_MODES.items()),
                                   error_messages={"invalid_choice": _("Mode: choose one of the modes in the list.")})
    random_terrain = Tick(_("Random terrain"))
    minis_table = forms.ChoiceField(label=_("Players"), required=False,
                                    choices=[(k, label) for k, (_n, _m, label) in MINIS_TABLES.items()],
                                    error_messages={"invalid_choice": _("Players: choose one of the tables in the list.")})
    game_size = forms.TypedChoiceField(label=_("Game size"), required=False, coerce=int, empty_value=30,
                                       choices=MINIS_SIZES,
                                       error_messages={"invalid_choice": _("Game size: choose 20, 30, 40 or 50 points.")})
    my_army = forms.ChoiceField(label=_("Your army"), required=False, error_messages={
        "invalid_choice": _("Your army: choose one of your saved armies in the list.")})
    # the engine's players: seats given to the computer now, and empty seats given to it when the creator starts early
    computer_seats = forms.IntegerField(label=_("Computer players"), required=False, min_value=0, error_messages={
        "invalid": _("Computer players: a whole number (0 for none)."),
        "min_value": _("Computer players: 0 or more.")})
    fill_with_computer = Tick(_("Start before the lobby is full"))
    no_private_chat = Tick(_("No private chat"))
    ranked = Tick(_("Ranked"))
    private = Tick(_("Private"))
    password = forms.CharField(label=_("Password"), required=False, max_length=128)

    AGOT_SWITCHES = ("tides_of_battle", "fog_of_war", "random_starts", "gift_power_tokens", "draft_house_cards",
                     "draft_tracks", "anonymous")
    AGOT_FIELDS = ("seat", *AGOT_SWITCHES, "spectator_delay", "castles_to_win", "rounds")
    LCG_FIELDS = ("deck_choice", "my_deck", "their_deck", "open_decklists", "lcg_seats")
    MINIS_FIELDS = ("army", "minis_mode", "random_terrain", "minis_table", "game_size", "my_army")

    def clean_ruleset(self) -> str:
        return self.cleaned_data["ruleset"] or "agot"

    def clean_minis_mode(self) -> str:
        mode = self.cleaned_data["minis_mode"] or "here_we_stand"
        if mode not in rulesets.MINIS_PLAYABLE_MODES:
            raise forms.ValidationError(gettext("Mode: %(mode)s is not available yet; Here We Stand is the mode "
                                                "played on the site.") % {"mode": gettext(str(rulesets.MINIS_MODES[mode]))},
                                        code="invalid")
        return mode

    def __init__(self, *args: Any, user=None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["leader"].choices = [("", "—")] + _leaders()
        self.my_decks = my_deck_list(user)  # read once: the page lists them too (web/views.py lobby_new)
        self.fields["my_deck"].choices = [("", _("drawn at random"))] + self.my_decks
        self.fields["their_deck"].choices = [("", "—")] + deck_list()
        self.fields["army"].choices = [("", "—")] + minis_seat_choices()
        reads_armies = not self.is_bound or self.data.get("ruleset") == "minis"  # the page lists them too
        self.my_armies = my_army_list(user) if reads_armies else []
        self.fields["my_army"].choices = [("", _("the starter army of your seat"))] + self.my_armies
        for key, (label, _help) in BTWIXT_OPTIONS.items():
            self.fields[f"btwixt_{key}"] = Tick(label)
        # only the chosen game's own fields are read (and checked)
        chosen = (self.data.get("ruleset") or "agot") if self.is_bound else None
        btwixt_fields = ["leader", *(f"btwixt_{k}" for k in BTWIXT_OPTIONS)]
        unread = {"agot": [*btwixt_fields, *self.LCG_FIELDS, *self.MINIS_FIELDS],
                  "btwixt": [*self.AGOT_FIELDS, *self.LCG_FIELDS, *self.MINIS_FIELDS],
                  "lcg": [*self.AGOT_FIELDS, *btwixt_fields, *self.MINIS_FIELDS, "house_choice"],
                  "minis": [*self.AGOT_FIELDS, *btwixt_fields, *self.LCG_FIELDS]}.get(chosen, [])
        for name in unread:
            del self.fields[name]

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        ruleset = d.get("ruleset")
        if ruleset not in dict(RULESETS):
            return d
        engine = get_ruleset(ruleset)
        low, high = engine.min_seats, engine.max_seats
        if low == high:  # a game of two (the hidden Players field is not read)
            self.errors.pop("seats", None)
            d["seats"] = low
        elif ruleset == "lcg":  # its own Players field: a joust unless a melee is chosen (the hidden one is not read)
            self.errors.pop("seats", None)
            d["seats"] = d.get("lcg_seats") or 2
        elif ruleset == "minis":  # its own Players field: the table (the hidden one is not read)
            self.errors.pop("seats", None)
            d["seats"] = MINIS_TABLES[d.get("minis_table") or "2"][0]
        elif d.get("seats") is None and "seats" not in self.errors:
            self.add_error("seats", gettext("Players: say how many (%(low)s to %(high)s).") % {"low": low, "high": high})
        elif d.get("seats") is not None and not low <= d["seats"] <= high:
            self.add_error("seats", rulesets.players_words(ruleset, low, high))
        if ruleset == "lcg" and d.get("deck_choice") == "assign" and d["seats"] > 2:
            self.add_error("deck_choice", gettext("In a melee each player picks their own deck (or gets one at random)."))
        elif ruleset == "lcg" and d.get("deck_choice") == "assign" and not (d.get("my_deck") and d.get("their_deck")):
            self.add_error("their_deck" if d.get("my_deck") else "my_deck",
                           gettext("Assigning the decks: choose your deck and your opponent's."))
        return d

    def btwixt_fields(self) -> list[tuple[forms.BoundField, str]]:
        return [(self[f"btwixt_{k}"], help) for k, (_label, help) in BTWIXT_OPTIONS.items() if f"btwixt_{k}" in self.fields]

    def options(self) -> dict[str, bool]:
        d = self.cleaned_data
        if d["ruleset"] == "btwixt":
            return {k: True for k in BTWIXT_OPTIONS if d.get(f"btwixt_{k}")}
        if d["ruleset"] == "lcg":  # open deck lists (issue 30): the learn-to-play decks are always open
            return {"open_decklists": True} if d.get("open_decklists") else {}
        if d["ruleset"] == "minis":
            multiplayer = MINIS_TABLES[d.get("minis_table") or "2"][1]
            return {"mode": d["minis_mode"], **({"terrain": "random"} if d.get("random_terrain") else {}),
                    **({"game_size": d["game_size"]} if d.get("game_size", 30) != 30 else {}),
                    **({"multiplayer": multiplayer} if multiplayer else {})}
        options: dict[str, Any] = {k: True for k in self.AGOT_SWITCHES if d.get(k)}
        if d.get("spectator_delay"):
            options["spectator_delay"] = d["spectator_delay"]  # the service refuses it without the fog
        for key, default in (("castles_to_win", 7), ("rounds", 10)):
            if d.get(key) is not None and d[key] != default:
                options[key] = d[key]
        return options

    def settings(self) -> lobbies.LobbySettings:
        d = self.cleaned_data
        return lobbies.LobbySettings(
            ruleset=d["ruleset"], name=d["name"], seat_count=d["seats"], time_limit=d["time_limit"],
            ranked=d["ranked"], private=d["private"], password=d["password"],
            house_choice=d.get("house_choice") or Lobby.HouseChoice.RANDOM, options=self.options(),
            private_chat=not d["no_private_chat"], decks=self.assigned_decks(),
            computer_seats=d.get("computer_seats") or 0, fill_with_computer=d["fill_with_computer"],
            **self.clock_settings())

    def clock_settings(self) -> dict[str, int | None]:
        """The chosen clock as the lobby's clock_bank and clock_increment (none: no clock)."""
        chosen = self.cleaned_data.get("clock") or ""
        if not chosen:
            return {"clock_bank": None, "clock_increment": 0}
        bank, increment = (int(part) for part in chosen.split("+"))
        return {"clock_bank": bank, "clock_increment": increment}

    def assigned_decks(self) -> list[str]:
        d = self.cleaned_data
        return [d["my_deck"], d["their_deck"]] if d["ruleset"] == "lcg" and d.get("deck_choice") == "assign" else []

    def creator_deck(self) -> str:
        d = self.cleaned_data
        if d["ruleset"] == "minis":  # your saved army (issue 33): it takes a seat of its house
            return d.get("my_army") or ""
        return d.get("my_deck") or "" if d["ruleset"] == "lcg" and d.get("deck_choice") != "assign" else ""

    def creator_seat(self) -> str:
        d = self.cleaned_data
        return d.get({"agot": "seat", "btwixt": "leader", "minis": "army"}.get(d["ruleset"], "")) or ""

    def add_service_error(self, error: GameError) -> None:
        """The lobby service refused: its message beside the field it names, in words."""
        fields = getattr(error, "fields", None) or {}
        if not fields:
            self.add_error(None, error.detail)
            return
        seat_field = {"btwixt": "leader", "minis": "army"}.get(self.cleaned_data.get("ruleset"), "seat")
        for name, messages in fields.items():
            text = " ".join(map(str, messages))
            if name == "options":
                self.add_error(None, gettext("These options cannot be played together: %(why)s.") % {"why": text})
            elif name == "seat" and seat_field in self.fields:
                self.add_error(seat_field, _seat_words(text, seat_field))
            elif name in ("deck", "decks") and "my_deck" in self.fields:
                self.add_error("my_deck", text)
            elif name == "army" and "my_army" in self.fields:
                self.add_error("my_army", text)
            elif name in self.fields:
                self.add_error(name, text)
            else:
                self.add_error(None, text)


# field -> (the service asked for a seat, the service refused a seat: whole sentences, for translation)
SEAT_WORDS = {
    "leader": (_("Your leader: pick the leader you play (players pick their seats in this lobby)."),
               _("Your leader: leave it empty, or choose “each player picks” for the seats.")),
    "army": (_("Your army: pick the army you play (players pick their armies in this lobby)."),
             _("Your army: leave it empty, or choose “each player picks” for the armies.")),
    "seat": (_("Your house: pick the house you play (players pick their houses in this lobby)."),
             _("Your house: leave it empty, or choose “each player picks” for the seats.")),
}


def _seat_words(text: str, field: str) -> str:
    """The service names seats by id ("Pick a seat: stark, lannister"); say it with names (the service's
    refusals are in the reader's language: compared in it)."""
    pick, not_picked = SEAT_WORDS.get(field, SEAT_WORDS["seat"])
    if "Pick a seat" in text or gettext("Pick a seat: %(seats)s.").split("%(")[0] in text:
        return str(pick)
    if "not picked by the players" in text or gettext("In this lobby seats are not picked by the players.") in text:
        return str(not_picked)
    return text


def option_words(ruleset: str, options: dict[str, Any]) -> list[str]:
    """A lobby's or game's options as the form names them ("Tides of Battle", "Short game")."""
    if ruleset == "btwixt":
        return [str(label) for key, (label, _help) in BTWIXT_OPTIONS.items() if options.get(key)]
    if ruleset == "minis":
        mode = options.get("mode", "here_we_stand")
        size = options.get("game_size", 30)
        table = {"ffa": gettext("each against all"), "teams": gettext("two against two")}.get(options.get("multiplayer"))
        return [gettext(str(rulesets.MINIS_MODES.get(mode, str(mode)))), *([table] if table else []),
                gettext("armies of %(points)s points (saved armies or the starter ones)") % {"points": size},
                gettext("random terrain") if options.get("terrain") == "random" else gettext("no terrain")]
    if ruleset == "lcg":
        return [gettext("open deck lists")] if options.get("open_decklists") else []
    words = [gettext("Tides of Battle")] if options.get("tides_of_battle") else []
    if options.get("fog_of_war"):
        words.append(gettext("fog of war"))
    if options.get("random_starts"):
        words.append(gettext("random start positions"))
    if options.get("gift_power_tokens"):
        words.append(gettext("gifting power tokens"))
    if options.get("draft_house_cards"):
        words.append(gettext("house-card draft"))
    if options.get("draft_tracks"):
        words.append(gettext("Influence-track draft"))
    if options.get("spectator_delay") in (1, 2):
        words.append(ngettext("spectators see the board %(count)s round late",
                              "spectators see the board %(count)s rounds late",
                              options["spectator_delay"]) % {"count": options["spectator_delay"]})
    if options.get("anonymous"):
        words.append(gettext("anonymous players"))
    if options.get("castles_to_win") not in (None, 7):
        words.append(gettext("%(count)s castles to win") % {"count": options["castles_to_win"]})
    if options.get("rounds") not in (None, 10):
        words.append(ngettext("%(count)s round", "%(count)s rounds", options["rounds"]) % {"count": options["rounds"]})
    return words
