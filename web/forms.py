"""The new-lobby form (templates/web/lobby_new.html): every field checked here, so a bad value is a
form error in words (listed above the form, its field marked), never a 500; the settings then go to the lobby service,
whose own refusals (the engine judges its options for the table's size) come back as form errors
too. Only the chosen game's options are read: A Game of Thrones' house and Tides of Battle, or
B'Twixt's leader and modes (docs/engine-btwixt.md, rules B13-B14 and B75-B82)."""
from __future__ import annotations

from typing import Any

from django import forms

from games.errors import GameError
from games.models import Lobby
from games.services import lobbies

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
RULESETS = [("agot", "A Game of Thrones (board game)"), ("btwixt", "B'Twixt (card game, 3-6 leaders)")]
TIME_LIMITS = [(120, "2 minutes"), (600, "10 minutes"), (3600, "1 hour"), (86400, "1 day"), (259200, "3 days")]
HOUSE_CHOICES = [(Lobby.HouseChoice.RANDOM, "drawn at random"), (Lobby.HouseChoice.PICK, "each player picks"),
                 (Lobby.HouseChoice.ASSIGN, "the creator assigns them")]
# B'Twixt's modes (games/engine/btwixt/setup.py OPTION_KEYS), each with its label and what it does
BTWIXT_OPTIONS = {
    "advanced": ("Advanced game", "each leader's own influence cards and event cards join the game"),
    "draft": ("Draft the hands", "each season the dealt cards are passed round, each leader keeping one at a time"),
    "succession": ("Succession Assembly", "every leader and event card is shuffled into the influence deck "
                                          "and anyone may play them; the hands are drafted"),
    "allies_in_sight": ("Allies in Sight", "each season a row of allies is laid face up, so you see which ally comes next"),
    "short": ("Short game", "one season less: 3-4 leaders start in Autumn, 5-6 in Winter"),
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
        raise forms.ValidationError(f"{self.label}: tick the box or leave it empty.", code="invalid")


def _leaders() -> list[tuple[str, str]]:
    from games.engine.btwixt import data as btwixt_data

    return list(btwixt_data.catalogue()["leaders"].items())


def cardset_name() -> str:
    from games.engine.btwixt import data as btwixt_data

    return btwixt_data.catalogue().get("name", "")


class LobbyForm(forms.Form):
    ruleset = forms.ChoiceField(label="Game", choices=RULESETS, required=False,  # none posted: A Game of Thrones
                                error_messages={"invalid_choice": "Choose one of the games in the list."})
    name = forms.CharField(label="Name", max_length=80, required=False)
    seats = forms.IntegerField(label="Players", min_value=3, max_value=6, error_messages={
        "invalid": "Players: a whole number from 3 to 6.", "required": "Players: say how many (3 to 6).",
        "min_value": "Both games are played by 3 to 6 players.", "max_value": "Both games are played by 3 to 6 players."})
    time_limit = forms.TypedChoiceField(label="Time per decision", choices=TIME_LIMITS, coerce=int, error_messages={
        "invalid_choice": "Time per decision: choose one of the times in the list."})
    house_choice = forms.ChoiceField(label="Seats", choices=HOUSE_CHOICES, required=False, error_messages={
        "invalid_choice": "Seats: choose random, each player picks, or the creator assigns."})
    # A Game of Thrones
    seat = forms.ChoiceField(label="Your house", required=False, choices=[("", "—")] + [(h, h.title()) for h in HOUSES],
                             error_messages={"invalid_choice": "Your house: choose one of the six houses."})
    tides_of_battle = Tick("Tides of Battle")
    # B'Twixt
    leader = forms.ChoiceField(label="Your leader", required=False, error_messages={
        "invalid_choice": "Your leader: choose one of the leaders in the list."})
    no_private_chat = Tick("No private chat")
    ranked = Tick("Ranked")
    private = Tick("Private")
    password = forms.CharField(label="Password", required=False, max_length=128)

    AGOT_FIELDS = ("seat", "tides_of_battle")

    def clean_ruleset(self) -> str:
        return self.cleaned_data["ruleset"] or "agot"

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["leader"].choices = [("", "—")] + _leaders()
        for key, (label, _) in BTWIXT_OPTIONS.items():
            self.fields[f"btwixt_{key}"] = Tick(label)
        # only the chosen game's own fields are read (and checked)
        chosen = (self.data.get("ruleset") or "agot") if self.is_bound else None
        if chosen == "btwixt":
            for name in self.AGOT_FIELDS:
                del self.fields[name]
        elif chosen == "agot":
            for name in ["leader", *(f"btwixt_{k}" for k in BTWIXT_OPTIONS)]:
                del self.fields[name]

    def btwixt_fields(self) -> list[tuple[forms.BoundField, str]]:
        return [(self[f"btwixt_{k}"], help) for k, (_, help) in BTWIXT_OPTIONS.items() if f"btwixt_{k}" in self.fields]

    def options(self) -> dict[str, bool]:
        d = self.cleaned_data
        if d["ruleset"] == "btwixt":
            return {k: True for k in BTWIXT_OPTIONS if d.get(f"btwixt_{k}")}
        return {"tides_of_battle": True} if d.get("tides_of_battle") else {}

    def settings(self) -> lobbies.LobbySettings:
        d = self.cleaned_data
        return lobbies.LobbySettings(
            ruleset=d["ruleset"], name=d["name"], seat_count=d["seats"], time_limit=d["time_limit"],
            ranked=d["ranked"], private=d["private"], password=d["password"],
            house_choice=d["house_choice"] or Lobby.HouseChoice.RANDOM, options=self.options(),
            private_chat=not d["no_private_chat"])

    def creator_seat(self) -> str:
        d = self.cleaned_data
        return (d.get("seat") if d["ruleset"] == "agot" else d.get("leader")) or ""

    def add_service_error(self, error: GameError) -> None:
        """The lobby service refused: its message beside the field it names, in words."""
        fields = getattr(error, "fields", None) or {}
        if not fields:
            self.add_error(None, error.detail)
            return
        seat_field = "leader" if self.cleaned_data.get("ruleset") == "btwixt" else "seat"
        for name, messages in fields.items():
            text = " ".join(map(str, messages))
            if name == "options":
                self.add_error(None, f"These options cannot be played together: {text}.")
            elif name == "seat" and seat_field in self.fields:
                self.add_error(seat_field, _seat_words(text, seat_field))
            elif name in self.fields:
                self.add_error(name, text)
            else:
                self.add_error(None, text)


def _seat_words(text: str, field: str) -> str:
    """The service names seats by id ("Pick a seat: stark, lannister"); say it with names."""
    if "Pick a seat" in text:
        return ("Your leader: pick the leader you play (players pick their seats in this lobby)." if field == "leader"
                else "Your house: pick the house you play (players pick their houses in this lobby).")
    if "not picked by the players" in text:
        return ("Your leader: leave it empty, or choose “each player picks” for the seats." if field == "leader"
                else "Your house: leave it empty, or choose “each player picks” for the seats.")
    return text


def option_words(ruleset: str, options: dict[str, Any]) -> list[str]:
    """A lobby's or game's options as the form names them ("Tides of Battle", "Short game")."""
    if ruleset == "btwixt":
        return [label for key, (label, _) in BTWIXT_OPTIONS.items() if options.get(key)]
    return ["Tides of Battle"] if options.get("tides_of_battle") else []
