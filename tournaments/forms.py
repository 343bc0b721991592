"""The form of the page that creates a tournament (templates/tournaments/new.html); the service
validates the rest. Everything a person reads is in words: the time per decision is a number of
minutes, hours or days, the tie-breakers are chosen by name among those the chosen game has (only
the board game records castles and supply: tournaments/services.py `_record`), and every refusal
is a sentence beside its field. The sentences are in WORDS, in one place, to be translated."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, gettext_noop

from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKERS
from web.forms import MINIS_SIZES

WORDS = {
    "time_amount": gettext_lazy("Time per decision: a whole number of minutes, hours or days."),
    "time_range": gettext_lazy("Time per decision: from 2 minutes to 7 days."),
    "tiebreaker_twice": gettext_lazy("“{name}” is chosen twice: choose each tie-breaker once."),
    "tiebreaker_not_here": gettext_lazy("{game} has no {measure}: choose among {choices}."),
    "tiebreaker_choice": gettext_lazy("Choose one of the tie-breakers in the list."),
    "fewest_too_many": gettext_lazy("The fewest players at a table cannot be more than the players per table ({count})."),
    "fewest_too_few": gettext_lazy("{game} needs at least {count} players at a table."),
    "ruleset_choice": gettext_lazy("Choose one of the games in the list."),
}

UNIT_SECONDS = {"minutes": 60, "hours": 60 * 60, "days": 24 * 60 * 60}
UNITS = [("minutes", gettext_lazy("minutes")), ("hours", gettext_lazy("hours")), ("days", gettext_lazy("days"))]

# Each tie-breaker in words (tournaments/pairing.py TIEBREAKERS), and the measure it needs: English,
# said in the reader's language where shown (gettext)
TIEBREAKER_NAMES = {
    "wins": gettext_noop("most wins"),
    "castles": gettext_noop("most castles and strongholds held at the end of games"),
    "supply": gettext_noop("most supply at the end of games"),
    "time_used": gettext_noop("least time taken to decide"),
    "head_to_head": gettext_noop("results between the tied players"),
}
TIEBREAKER_MEASURES = {"castles": gettext_noop("castles and strongholds"), "supply": gettext_noop("supply track")}
# The tie-breakers each game has: castles and supply are the board game's (tournaments/services.py
# records them from its summary); the other games record neither.
RULESET_TIEBREAKERS = {"agot": TIEBREAKERS}
OTHER_TIEBREAKERS = tuple(t for t in TIEBREAKERS if t not in TIEBREAKER_MEASURES)
TIEBREAKER_FIELDS = [f"tiebreaker_{i}" for i in range(1, len(TIEBREAKERS) + 1)]
TIEBREAKER_LABELS = [gettext_lazy("First tie-breaker"), gettext_lazy("Second tie-breaker"),
                     gettext_lazy("Third tie-breaker"), gettext_lazy("Fourth tie-breaker"),
                     gettext_lazy("Fifth tie-breaker")]


def tiebreakers_of(ruleset: str) -> tuple[str, ...]:
    """The tie-breakers a tournament of `ruleset` may use, in the order the form lists them."""
    return tuple(RULESET_TIEBREAKERS.get(ruleset, OTHER_TIEBREAKERS))


def ruleset_choices() -> list[tuple[str, str]]:
    """The games open on the site, named in words (the card game plays at tables of two, or 3 to 6 in a melee)."""
    from games.rulesets import open_ruleset_ids
    from ratings.templatetags.site_words import ruleset_name

    return [(ruleset, ruleset_name(ruleset)) for ruleset in open_ruleset_ids()]


def duration_parts(seconds: int) -> tuple[int, str]:
    """A number of seconds as the largest unit that divides it: 86400 -> (1, "days")."""
    for unit in ("days", "hours", "minutes"):
        if seconds and seconds % UNIT_SECONDS[unit] == 0:
            return seconds // UNIT_SECONDS[unit], unit
    return max(1, round(seconds / 60)), "minutes"


class DurationWidget(forms.MultiWidget):
    """A number and its unit, side by side."""

    def __init__(self) -> None:
        super().__init__([forms.NumberInput(attrs={"min": 1, "class": "amount", "aria-label": gettext_lazy("number")}),
                          forms.Select(choices=UNITS, attrs={"aria-label": gettext_lazy("unit")})])

    def decompress(self, value: Any) -> list[Any]:
        if value in (None, ""):
            return [None, "days"]
        amount, unit = duration_parts(int(value))
        return [amount, unit]


class DurationField(forms.MultiValueField):
    """A time in minutes, hours or days; cleaned to seconds."""

    widget = DurationWidget

    def __init__(self, **kwargs: Any) -> None:
        amount = forms.IntegerField(min_value=1, error_messages={
            "invalid": WORDS["time_amount"], "min_value": WORDS["time_amount"], "required": WORDS["time_amount"]})
        unit = forms.ChoiceField(choices=UNITS, error_messages={
            "invalid_choice": WORDS["time_amount"], "required": WORDS["time_amount"]})
        super().__init__(fields=(amount, unit), require_all_fields=True,
                         error_messages={"required": WORDS["time_amount"], "incomplete": WORDS["time_amount"]},
                         **kwargs)

    def compress(self, data_list: list[Any]) -> int | None:
        if not data_list:
            return None
        amount, unit = data_list
        return int(amount) * UNIT_SECONDS[unit]


MINIS_TABLES = [("duel", gettext_lazy("one against one (Stark against Lannister)")),
                ("teams", gettext_lazy("two against two (teams of two players, four a table)"))]


class TournamentForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    description = forms.CharField(label=gettext_lazy("Description"), widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=5000)
    ruleset = forms.ChoiceField(label=gettext_lazy("Game"), choices=ruleset_choices, initial="agot", required=False,
                                error_messages={"invalid_choice": WORDS["ruleset_choice"]})
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=30, initial=3, help_text=gettext_lazy("Swiss: number of rounds"))
    seats_per_table = forms.IntegerField(label=gettext_lazy("Players per table"), min_value=2, max_value=6, initial=6,
                                         help_text=gettext_lazy("2 for the miniatures game (two against two: choose it "
                                                                "under Tables); 2 to 6 for A Game of Thrones: The Card "
                                                                "Game (3 or more: a melee with titles); 3 to 6 for the "
                                                                "others"))
    min_seats_per_table = forms.IntegerField(
        label=gettext_lazy("Fewest players at a short table"), min_value=2, max_value=6, required=False,
        help_text=gettext_lazy("blank: the fewest the game allows; the same as the players per table: byes instead"))
    advance_per_table = forms.IntegerField(label=gettext_lazy("Players who go on from each table"), min_value=1, max_value=5,
                                           initial=2, help_text=gettext_lazy("elimination: the top players of each table"))
    division_size = forms.IntegerField(label=gettext_lazy("Players per division"), min_value=3, max_value=30, initial=10,
                                       help_text=gettext_lazy("league"))
    scoring = forms.ChoiceField(label=gettext_lazy("Scoring"), choices=Tournament.Scoring.choices, initial=Tournament.Scoring.PLACEMENT)
    win_bonus = forms.IntegerField(label=gettext_lazy("League points for a win"), min_value=0, max_value=1000, initial=10)
    time_limit = DurationField(label=gettext_lazy("Time per decision"), initial=24 * 60 * 60,
                               help_text=gettext_lazy("from 2 minutes to 7 days; a player who lets it pass gets the usual default"))
    ranked = forms.BooleanField(label=gettext_lazy("Ranked"), required=False)
    open_decklists = forms.BooleanField(
        label=gettext_lazy("Open deck lists"), required=False,
        help_text=gettext_lazy("the card game: every player sees the others' deck lists; else only their House and "
                               "agenda"))
    # the miniatures game (issue 33): the army points of every player, as lobbies offer them, and its tables
    game_size = forms.TypedChoiceField(
        label=gettext_lazy("Army points"), choices=MINIS_SIZES, coerce=int, initial=30, required=False,
        help_text=gettext_lazy("the miniatures game: each player brings a saved army of this size, or a starter army"))
    minis_tables = forms.ChoiceField(
        label=gettext_lazy("Tables"), choices=MINIS_TABLES, initial="duel", required=False,
        help_text=gettext_lazy("the miniatures game: two against two is played by teams of two players who register "
                               "naming each other; players without a partner are teamed at the start"))
    capacity = forms.IntegerField(label=gettext_lazy("Most players"), min_value=2, required=False, help_text=gettext_lazy("blank: no limit"))
    check_in_required = forms.BooleanField(label=gettext_lazy("Players check in before the start"), required=False)
    registration_closes = forms.DateTimeField(label=gettext_lazy("Registration closes"), required=False, help_text=gettext_lazy("YYYY-MM-DD HH:MM (UTC)"))
    min_rating = forms.IntegerField(label=gettext_lazy("Least rating to register"), min_value=0, required=False)
    min_reliability = forms.FloatField(label=gettext_lazy("Least reliability to register"), min_value=0, max_value=1,
                                       required=False, help_text=gettext_lazy("a share from 0 to 1 (0.9: 90%)"))
    auto_advance = forms.BooleanField(label=gettext_lazy("Start the next round when the last game ends"), required=False,
                                      initial=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(t, gettext(TIEBREAKER_NAMES[t])) for t in TIEBREAKERS]
        initial = ["wins", "castles"]
        fields = {}
        for i, (name, label) in enumerate(zip(TIEBREAKER_FIELDS, TIEBREAKER_LABELS, strict=True)):
            fields[name] = forms.ChoiceField(
                label=label, choices=choices, required=False, initial=initial[i] if i < len(initial) else "",
                error_messages={"invalid_choice": WORDS["tiebreaker_choice"]},
                help_text=gettext_lazy("when players have the same points: the first that separates them decides")
                if i == 0 else "")
        # the tie-breakers come after the scoring
        order = list(self.fields)
        at = order.index("win_bonus") + 1
        self.fields = {**{k: self.fields[k] for k in order[:at]}, **fields, **{k: self.fields[k] for k in order[at:]}}

    def clean_ruleset(self) -> str:
        return self.cleaned_data.get("ruleset") or "agot"

    def clean_time_limit(self) -> int:
        seconds = self.cleaned_data.get("time_limit")
        if seconds is None or not MIN_TIME_LIMIT <= seconds <= MAX_TIME_LIMIT:
            raise forms.ValidationError(WORDS["time_range"], code="invalid")
        return seconds

    def clean(self) -> dict[str, Any]:
        d = super().clean()
        ruleset = d.get("ruleset") or "agot"
        from games.engine import get_ruleset
        from ratings.templatetags.site_words import ruleset_name

        game = ruleset_name(ruleset)  # in the reader's language
        allowed = tiebreakers_of(ruleset)
        chosen: list[str] = []
        for name in TIEBREAKER_FIELDS:
            value = d.get(name) or ""
            if not value:
                continue
            if value in chosen:
                self.add_error(name, WORDS["tiebreaker_twice"].format(name=gettext(TIEBREAKER_NAMES[value])))
            elif value not in allowed:
                self.add_error(name, WORDS["tiebreaker_not_here"].format(
                    game=game, measure=gettext(TIEBREAKER_MEASURES.get(value, TIEBREAKER_NAMES[value])),
                    choices=", ".join(f"“{gettext(TIEBREAKER_NAMES[t])}”" for t in allowed)))
            chosen.append(value)
        d["tiebreakers"] = chosen
        engine = get_ruleset(ruleset) if ruleset in dict(ruleset_choices()) else None
        low, per_table = d.get("min_seats_per_table"), d.get("seats_per_table")
        if engine is not None and low is not None and per_table is not None:
            if low > per_table:
                self.add_error("min_seats_per_table", WORDS["fewest_too_many"].format(count=per_table))
            elif low < engine.min_seats:
                self.add_error("min_seats_per_table", WORDS["fewest_too_few"].format(game=game, count=engine.min_seats))
        return d

    def tiebreaker_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in TIEBREAKER_FIELDS]

    def settings_values(self) -> dict[str, Any]:
        """The cleaned values the tournament service takes (tournaments/services.py TournamentSettings)."""
        d = dict(self.cleaned_data)
        for name in TIEBREAKER_FIELDS:
            d.pop(name, None)
        # the card game's open deck lists: the games' option, as a lobby's (issue 30)
        d["options"] = {"open_decklists": True} if d.pop("open_decklists", False) and d.get("ruleset") == "lcg" else {}
        size, tables = d.pop("game_size", None), d.pop("minis_tables", "")
        if d.get("ruleset") == "minis":  # the miniatures game's size and tables: its games' options, as a lobby's
            d["options"] = {"game_size": size or 30}
            if tables == "teams":
                d["options"]["multiplayer"] = "teams"
                d["seats_per_table"], d["min_seats_per_table"] = 4, None
        return d
