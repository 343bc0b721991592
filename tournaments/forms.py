"""The form of the page that creates a tournament; the service validates the rest."""
from __future__ import annotations

from django import forms

from games.models import MAX_TIME_LIMIT, MIN_TIME_LIMIT
from tournaments.models import Tournament
from tournaments.pairing import TIEBREAKERS


def ruleset_choices() -> list[tuple[str, str]]:
    """The games open on the site, named in words (the card game plays at tables of two)."""
    from games.rulesets import open_ruleset_ids
    from ratings.templatetags.site_words import ruleset_name

    return [(ruleset, ruleset_name(ruleset)) for ruleset in open_ruleset_ids()]


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=5000)
    ruleset = forms.ChoiceField(label="Game", choices=ruleset_choices, initial="agot", required=False)
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial=Tournament.Format.SWISS)
    rounds = forms.IntegerField(min_value=1, max_value=30, initial=3, help_text="Swiss: number of rounds")
    seats_per_table = forms.IntegerField(min_value=2, max_value=6, initial=6,
                                         help_text="2 for A Game of Thrones: The Card Game, 3 to 6 for the others")
    min_seats_per_table = forms.IntegerField(
        min_value=2, max_value=6, required=False,
        help_text="short tables may have this many seats (blank: the fewest the game allows); "
                  "equal to the seats per table: byes instead")
    advance_per_table = forms.IntegerField(min_value=1, max_value=5, initial=2, help_text="elimination: top N advance")
    division_size = forms.IntegerField(min_value=3, max_value=30, initial=10, help_text="league: players per division")
    scoring = forms.ChoiceField(choices=Tournament.Scoring.choices, initial=Tournament.Scoring.PLACEMENT)
    win_bonus = forms.IntegerField(min_value=0, max_value=1000, initial=10, help_text="league points")
    tiebreakers = forms.CharField(initial="wins,castles", required=False,
                                  help_text="in order, comma-separated, from: " + ", ".join(TIEBREAKERS))
    time_limit = forms.IntegerField(min_value=MIN_TIME_LIMIT, max_value=MAX_TIME_LIMIT, initial=24 * 60 * 60,
                                    help_text="seconds per decision")
    ranked = forms.BooleanField(required=False)
    capacity = forms.IntegerField(min_value=2, required=False)
    check_in_required = forms.BooleanField(required=False)
    registration_closes = forms.DateTimeField(required=False, help_text="YYYY-MM-DD HH:MM (UTC)")
    min_rating = forms.IntegerField(min_value=0, required=False)
    min_reliability = forms.FloatField(min_value=0, max_value=1, required=False)
    auto_advance = forms.BooleanField(required=False, initial=True,
                                      help_text="start the next round when the last game ends")

    def clean_ruleset(self) -> str:
        return self.cleaned_data.get("ruleset") or "agot"

    def clean_tiebreakers(self) -> list[str]:
        raw = self.cleaned_data.get("tiebreakers") or ""
        return [x.strip() for x in raw.split(",") if x.strip()]
