"""Miniatures armies a person builds (issue 33): save, rename, copy, delete, import and export the builders' plain
text, and judge them. The rules are the engine's (games/engine/minis/armies.py); this module stores armies and
answers in the API's shape. An army may be saved while it is not legal yet (a builder saves work in progress); only
a legal army the engine fields can be brought to a game (`game_army`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine.minis import armies as rules
from games.engine.minis import data as minis_data
from games.errors import GameError
from games.models import Army

# what a lobby's army field holds for a saved army: "army:<id>" (the starter armies are their data key)
SAVED_PREFIX = "army:"
MAX_TEXT = 10000


def invalid(field: str, message: str) -> GameError:
    return GameError("invalid", message, fields={field: [message]})


@dataclass(frozen=True)
class ArmyInput:
    name: str | None = None
    faction: str | None = None
    game_size: int | None = None
    commander: str | None = None
    units: list[dict[str, Any]] | None = None
    ncus: list[str] | None = None


def starter_armies() -> dict[str, dict[str, Any]]:
    """The fixed starter lists, offered to everyone."""
    return rules.starter_armies()


def report(army: dict[str, Any]) -> dict[str, Any]:
    return rules.report(army)


def _checked(army: dict[str, Any]) -> dict[str, Any]:
    """The army's shape and card ids checked (400 in words otherwise); its legality is `report`'s."""
    try:
        return rules.normalise(army)
    except rules.ArmyFormatError as error:
        raise invalid("army", error.reason) from None


def _name(raw: Any) -> str:
    name = raw.strip() if isinstance(raw, str) else ""
    if not name:
        raise invalid("name", gettext("Give the army a name."))
    if len(name) > 80:
        raise invalid("name", gettext("An army's name has at most 80 characters."))
    return name


def own(army_id: int, user) -> Army:
    army = Army.objects.filter(pk=army_id, owner=user).first() if user.is_authenticated else None
    if army is None:
        raise GameError("not_found", gettext("No such army, or you may not see it."), status_code=404)
    return army


def _room(user) -> None:
    if Army.objects.filter(owner=user).count() >= Army.MAX_PER_OWNER:
        raise GameError("too_many", gettext("You have %(count)d armies, the most one may keep: delete one first.")
                        % {"count": Army.MAX_PER_OWNER}, status_code=409)


def _store(army: Army, checked: dict[str, Any]) -> None:
    army.faction, army.game_size = checked["faction"], checked["game_size"]
    army.commander = checked["commander"] or ""
    army.units, army.ncus = checked["units"], checked["ncus"]


@transaction.atomic
def do_create_army(user, given: ArmyInput) -> Army:
    _room(user)
    checked = _checked({"faction": given.faction, "game_size": given.game_size or rules.GAME_SIZES[0],
                        "commander": given.commander, "units": given.units or [], "ncus": given.ncus or []})
    army = Army(owner=user, name=_name(given.name))
    _store(army, checked)
    army.save()
    return army


@transaction.atomic
def do_update_army(army_id: int, user, given: ArmyInput) -> Army:
    """Rename and/or change the army; what is not given stays."""
    army = Army.objects.select_for_update().filter(pk=own(army_id, user).pk).get()
    if given.name is not None:
        army.name = _name(given.name)
    current = army.army()
    fields = {"faction": given.faction, "game_size": given.game_size, "commander": given.commander,
              "units": given.units, "ncus": given.ncus}
    if any(v is not None for v in fields.values()):
        _store(army, _checked({k: (v if v is not None else current[k]) for k, v in fields.items()}))
    army.updated_at = timezone.now()
    army.save()
    return army


def do_delete_army(army_id: int, user) -> None:
    own(army_id, user).delete()


def copy_name(name: str) -> str:
    return (gettext("Copy of %(name)s") % {"name": name})[:80]


def starter_name(key: str) -> str:
    army = starter_armies()[key]
    return gettext("%(house)s starter army") % {"house": rules.house(army["faction"])}


@transaction.atomic
def do_copy_army(user, *, army_id: int | None = None, starter: str | None = None) -> Army:
    """A copy of one of your armies, or of a starter army, saved as yours."""
    _room(user)
    if starter is not None:
        source = starter_armies().get(starter)
        if source is None:
            raise GameError("not_found", gettext("No such starter army."), status_code=404)
        name, army = starter_name(starter), rules.normalise(source)
    else:
        mine = own(int(army_id or 0), user)
        name, army = copy_name(mine.name), mine.army()
    saved = Army(owner=user, name=name)
    _store(saved, army)
    saved.save()
    return saved


def parse(text: Any) -> tuple[dict[str, Any], str, list[str]]:
    """An army read from a builder's plain text (400 in words when nothing of an army is in it)."""
    if not isinstance(text, str) or not text.strip():
        raise invalid("text", gettext("Paste an army list: one unit, attachment or NCU a line, with its points."))
    if len(text) > MAX_TEXT:
        raise invalid("text", gettext("An army list has at most %(most)d characters.") % {"most": MAX_TEXT})
    try:
        army, name, unread = rules.parse_text(text)
    except rules.ArmyFormatError as error:
        raise invalid("text", error.reason) from None
    if army["faction"] is None or not (army["units"] or army["ncus"]):
        raise invalid("text", gettext("No unit of the starter boxes was found in the list."))
    return army, name, unread


@transaction.atomic
def do_import_army(user, text: Any, name: str | None = None) -> tuple[Army, list[str]]:
    army, title, unread = parse(text)
    _room(user)
    checked = _checked(army)
    saved = Army(owner=user, name=_name(name or title or gettext("Imported army")))
    _store(saved, checked)
    saved.save()
    return saved, unread


def validate(army: dict[str, Any]) -> dict[str, Any]:
    return report(_checked(army))


def export_text(army: Army | dict[str, Any], name: str = "") -> str:
    if isinstance(army, Army):
        return rules.format_text(army.army(), army.name)
    return rules.format_text(_checked(army), name)


# ------------------------------------------------------------------ bringing an army to a game


def saved_ref(army: Army) -> str:
    return f"{SAVED_PREFIX}{army.pk}"


def saved_id(ref: Any) -> int | None:
    if isinstance(ref, str) and ref.startswith(SAVED_PREFIX) and ref[len(SAVED_PREFIX):].isdigit():
        return int(ref[len(SAVED_PREFIX):])
    return None


def refusal(army: dict[str, Any], game_size: int | None = None) -> str:
    """Why an army cannot be brought to a game of `game_size`, in words ('' if it can)."""
    try:
        found = rules.report(army)
    except rules.ArmyFormatError as error:
        return error.reason
    if found["problems"]:
        return " ".join(p["text"] for p in found["problems"])
    if found["unplayable"]:
        return " ".join(found["unplayable"])
    if game_size is not None and army["game_size"] != game_size:
        return gettext("It is an army of %(size)s points; this game is of %(game)s.") % {
            "size": army["game_size"], "game": game_size}
    return ""


def usable(ref: str, user, game_size: int | None = None) -> Army:
    """The saved army `ref` names, if it is `user`'s, legal, of the game's size and fielded by the engine; else 400
    in words."""
    army_id = saved_id(ref)
    army = Army.objects.filter(pk=army_id, owner=user).first() if army_id and user is not None else None
    if army is None:
        raise invalid("army", gettext("That army is not one of your saved armies."))
    why = refusal(army.army(), game_size)
    if why:
        raise invalid("army", gettext("%(army)s cannot be played: %(why)s") % {"army": army.name, "why": why})
    return army


def game_army(ref: str, user, game_size: int | None = None) -> dict[str, Any]:
    """What a game's options get for a seat: the saved army's list as the engine reads it (a copy, so that the game
    keeps it as it was when the game started)."""
    army = usable(ref, user, game_size)
    return rules.engine_list(army.army())


def my_usable_armies(user, game_size: int | None = None, faction: str | None = None) -> dict[str, str]:
    """{ref: name} of the user's saved armies a game may take (legal, fielded, of the size and faction asked)."""
    if user is None or not user.is_authenticated:
        return {}
    found = Army.objects.filter(owner=user)
    if faction:
        found = found.filter(faction=faction)
    return {saved_ref(a): a.name for a in found if not refusal(a.army(), game_size)}


# ------------------------------------------------------------------ a person's army in a lobby


def seat_house(seat: str) -> str:
    """A seat's house: stark_2 is Stark's second army (M131)."""
    return seat.split("_")[0]


def brought_house(ref: str) -> str | None:
    """The house of the saved army a lobby member brought (`ref`), None if they brought none (or it was deleted
    since: its seat then plays the starter army)."""
    army_id = saved_id(ref)
    return Army.objects.filter(pk=army_id).values_list("faction", flat=True).first() if army_id is not None else None


DUEL_HOUSES = minis_data.FACTIONS  # the engine's two houses, in the order of a duel's seats


def other_house(house: str) -> str:
    """The duel's other house: Lannister for Stark, Stark for Lannister."""
    return next(h for h in DUEL_HOUSES if h != house)


def duel_seats(options: Any, held: Any = ()) -> list[str]:
    """A two-player game's seats (issue 33): Stark and Lannister, or one house's two armies (a mirror match: `stark`
    and `stark_2`) when the options give the house's second army (`armies: {stark_2: ...}`) or a seat of `held` is
    it (a person whose army is of the house the other already brought took it)."""
    armies = options.get("armies") if isinstance(options, dict) else None
    named = set(armies) if isinstance(armies, dict) else set()
    for house in DUEL_HOUSES:
        if f"{house}_2" in named or f"{house}_2" in held:
            return [house, f"{house}_2"]
    return list(DUEL_HOUSES)


def duel_armies_refusal(options: Any) -> str:
    """Why a two-player game's armies cannot be seated ('' if they can): an army given for a seat the game does not
    have (a second army of each house, or a Lannister army next to Stark's two)."""
    armies = options.get("armies") if isinstance(options, dict) else None
    if not isinstance(armies, dict):
        return ""
    seats = duel_seats(options)
    extra = [seat for seat in armies if seat not in seats]
    if not extra:
        return ""
    return gettext("Two players sit at Stark and Lannister, or at one house's two armies (Stark and Stark's second "
                   "army, or Lannister and Lannister's second army): this game has no %(seat)s seat.") % {
        "seat": _seat_words(extra[0]) if extra[0] in TEAM_SEATS else extra[0]}


def mirror_seat(lobby, house: str) -> str:
    """The seat of the second army of `house` in a two-player lobby whose other member brought an army of that house
    or holds its seat (a mirror match, issue 33), '' when there is none: the lobby must still seat Stark and
    Lannister, its house seat taken, no one at the other house's seat, and no army given for that seat."""
    if lobby.seat_count != 2 or lobby.ruleset != "minis":
        return ""
    taken = set(lobby.members.exclude(seat="").values_list("seat", flat=True))
    seats = duel_seats(lobby.options or {}, taken)
    other = other_house(house)
    if seats != list(DUEL_HOUSES) or house not in taken or other in taken:
        return ""
    if other in ((lobby.options or {}).get("armies") or {}):
        return ""
    return f"{house}_2"


def lobby_seat(lobby, ref: str, user, seat: str, free: list[str]) -> str:
    """The seat a person bringing their saved army `ref` to `lobby` takes: the seat they ask for if it is free and of
    their army's house, else the first free seat of that house (the army's house is the seat's); the army must be
    theirs, legal and of the lobby's game size (400 or 409 in words)."""
    from games.errors import conflict

    army = usable(ref, user, (lobby.options or {}).get("game_size", rules.GAME_SIZES[0]))
    others = lobby_brought(lobby, exclude_user=user) if lobby_teams(lobby) else {}
    if second := mirror_seat(lobby, army.faction):  # two armies of one house: the house's two seats (issue 33)
        free = [*free, second]

    def team_refusal(at: str) -> str:  # M130: a character once per team, told as the person joins
        return lobby_team_refusal(lobby, {**others, at: (ref, user)}, user, at) if lobby_teams(lobby) else ""

    if seat:
        if seat_house(seat) != army.faction:
            raise invalid("army", gettext("%(army)s is an army of %(house)s: it cannot take the %(seat)s seat.") % {
                "army": army.name, "house": rules.house(army.faction), "seat": rules.house(seat_house(seat))})
        if seat not in free:
            raise conflict("seat_taken", gettext("That seat is already taken."))
        if why := team_refusal(seat):
            raise conflict("team_characters", why)
        return seat
    else:
        mine = [s for s in free if seat_house(s) == army.faction]
        if not mine:
            raise conflict("seat_taken", gettext("Every %(house)s seat is taken: bring an army of another house.") % {
                "house": rules.house(army.faction)})
        refusals = {s: team_refusal(s) for s in mine} if lobby_teams(lobby) else {}
        seat = next((s for s in mine if not refusals.get(s)), mine[0])  # a seat whose teammate it suits first
        if refusals.get(seat):
            raise conflict("team_characters", refusals[seat])
    fits_its_corner(lobby.seat_count, lobby.options or {}, army, seat)
    return seat


# ------------------------------------------------------------------ two against two: a character once per team


TEAM_SEATS = ("stark", "lannister", "stark_2", "lannister_2")  # the engine's seats of four (setup.MULTI_SEATS)


def lobby_teams(lobby) -> dict[str, str] | None:
    """A lobby's teams, {seat: team}, when it plays two against two (M130): its options' `teams`, else the engine's
    default (the first two seats against the last two: each team a Stark and a Lannister army); else None."""
    options = lobby.options or {}
    if lobby.seat_count != 4 or options.get("multiplayer") != "teams":
        return None
    teams = options.get("teams")
    if isinstance(teams, dict) and set(teams) == set(TEAM_SEATS):
        return {seat: str(teams[seat]) for seat in TEAM_SEATS}
    return {seat: "a" if i < 2 else "b" for i, seat in enumerate(TEAM_SEATS)}


def _seat_words(seat: str) -> str:
    """A seat as the pages name it: "Stark", "Stark (second army)" (ratings/templatetags/site_words.seat_name)."""
    house = rules.house(seat_house(seat))
    return gettext("%(house)s (second army)") % {"house": house} if seat != seat_house(seat) else house


def lobby_team_refusal(lobby, brought: dict[str, tuple[str, Any]], viewer=None, mine: str = "") -> str:
    """M130: why the armies of a two-against-two lobby cannot play ('' if they can): two teammates' armies share a
    character (M7's reading: any version of one character). `brought` is {seat: (saved army ref, its owner)}, the
    lobby's members' armies as they would stand (a change being checked included); the other seats play the army
    the lobby's options give them, else their house's starter army (cut down under 30 points), as the game would.
    The sentence names the character and the two armies: `viewer`'s own by its name, another person's by its owner,
    a seat's starter army by its seat; the seat `mine` (the person's asking) first."""
    from games.engine import EngineError
    from games.engine.minis import data as engine_data

    teams = lobby_teams(lobby)
    if teams is None:
        return ""
    options = lobby.options or {}
    size = options.get("game_size", rules.GAME_SIZES[0])
    given = with_fitted_armies(options, list(TEAM_SEATS)).get("armies") or {}
    starters = with_fitted_armies({**options, "armies": {}}, list(TEAM_SEATS)).get("armies") or {}
    lists: dict[str, tuple[dict[str, Any], str]] = {}
    for seat in TEAM_SEATS:
        house = seat_house(seat)
        if seat in brought:
            ref, owner = brought[seat]
            army = Army.objects.filter(pk=saved_id(ref), owner=owner).first() if saved_id(ref) else None
            if army is not None and not refusal(army.army(), size):
                mine_too = viewer is not None and getattr(viewer, "pk", None) == army.owner_id
                words = (gettext("your army %(name)s") % {"name": army.name} if mine_too else
                         gettext("the army of %(user)s") % {"user": owner.username})
                lists[seat] = (rules.engine_list(army.army()), words)
                continue
            given = {**given, seat: starters[seat]} if seat in starters else {k: v for k, v in given.items()
                                                                             if k != seat}  # lobby_armies' fallback
        try:
            lst = engine_data.read_list(house, given[seat]) if seat in given else engine_data.default_list(house, size)
        except EngineError:
            continue  # the options' army is the engine's to refuse (the lobby's creation asked it)
        chosen = seat in (options.get("armies") or {}) and seat not in brought  # the lobby's own, else a starter
        words = (gettext("the army of the %(seat)s seat") if chosen else
                 gettext("the starter army of the %(seat)s seat")) % {"seat": _seat_words(seat)}
        lists[seat] = (lst, words)
    for team in sorted(set(teams.values())):
        pair = sorted((s for s in TEAM_SEATS if teams[s] == team), key=lambda s: s != mine)
        if len(pair) != 2 or not all(s in lists for s in pair):
            continue
        (first, first_words), (second, second_words) = lists[pair[0]], lists[pair[1]]
        shared = rules.shared_characters(first, second)
        if shared:
            return rules.team_clash_words(shared, first_words, second_words)
    return ""


def lobby_brought(lobby, exclude_user=None) -> dict[str, tuple[str, Any]]:
    """{seat: (saved army ref, owner)} of a lobby's members who brought an army and hold a seat."""
    return {m.seat: (m.deck, m.user) for m in lobby.members.select_related("user")
            if m.deck and m.seat and (exclude_user is None or m.user_id != exclude_user.pk)}


def fits_its_corner(seat_count: int, options: dict[str, Any], army: Army, seat: str) -> None:
    """A free-for-all (M131) deploys each army in a 12 in square corner: an army whose trays do not fit is refused
    when it is brought (in words), not when the game would start."""
    from games.engine import EngineError, get_ruleset

    if seat_count not in (3, 4) or options.get("multiplayer") == "teams":
        return
    engine = get_ruleset("minis")
    others = [s for s in ("stark", "lannister", "stark_2", "lannister_2") if s != seat]
    seats = [seat, *others][:seat_count]
    probe = {k: v for k, v in options.items() if k != "armies"}
    try:
        engine.new_game(seats, {**probe, "armies": {seat: rules.engine_list(army.army())}}, 0)
    except EngineError:
        raise invalid("army", gettext("%(army)s does not fit a free-for-all's deployment corner (a 12 inch square): "
                                      "bring a smaller army, or play it with two players or two against two.")
                      % {"army": army.name}) from None


def lobby_armies(options: dict[str, Any], brought: dict[str, tuple[str, Any]]) -> dict[str, Any]:
    """A starting lobby game's options with each person's saved army copied in ({seat: (ref, user)}): the game keeps
    the list as it was. An army deleted or changed since it was brought (no longer legal at the size) leaves its seat
    the starter army of its house."""
    if not brought:
        return options
    size = options.get("game_size", rules.GAME_SIZES[0])
    armies = dict(options.get("armies") or {})
    for seat, (ref, user) in brought.items():
        try:
            armies[seat] = game_army(ref, user, size)
        except GameError:
            armies.pop(seat, None)
    return with_fitted_armies({**options, "armies": armies}, list(brought))


def lobby_army_words(ref: str, viewer) -> str:
    """A member's army on a lobby's page: its name and summary to its owner, its house and size to everyone else."""
    army_id = saved_id(ref)
    army = Army.objects.filter(pk=army_id).first() if army_id is not None else None
    if army is None:
        return ""
    if viewer is not None and viewer.is_authenticated and army.owner_id == viewer.pk:
        return gettext("%(name)s (your army)") % {"name": army.name}
    return gettext("an army of %(house)s (%(points)s points)") % {"house": rules.house(army.faction),
                                                                     "points": rules.points(army.army())}


def fitted_starter(faction: str, size: int) -> dict[str, Any] | None:
    """The starter army of `faction` cut down to a legal army of `size` points, for the seats that bring none when
    the starter army is over the size (quick games of 20 points a player, issue 33): the dearest unit, attachment or
    NCU that can go goes first (never the Commander's unit); None if none fits."""
    source = next((a for a in starter_armies().values() if a["faction"] == faction), None)
    if source is None:
        return None
    army = {**rules.normalise(source), "game_size": size}

    def without(kind: str, i: int) -> dict[str, Any]:
        units, ncus = [dict(u) for u in army["units"]], list(army["ncus"])
        if kind == "ncu":
            ncus.pop(i)
        elif kind == "unit":
            units.pop(i)
        else:
            units[i].pop("attachment")
        return {**army, "units": units, "ncus": ncus}

    while rules.points(army) > size:
        options = [("ncu", i, rules.points_of(n)) for i, n in enumerate(army["ncus"])]
        for i, u in enumerate(army["units"]):
            if u.get("attachment") == army["commander"]:
                continue
            options.append(("unit", i, rules.points_of(u["unit"]) + (rules.points_of(u["attachment"]) if u.get("attachment") else 0)))
            if u.get("attachment"):
                options.append(("attachment", i, rules.points_of(u["attachment"])))
        options.sort(key=lambda o: -o[2])
        for kind, i, _points in options:
            smaller = without(kind, i)
            if all(p.rule == "M1" for p in rules.problems(smaller)):  # only the size may still be exceeded
                army = smaller
                break
        else:
            return None
    return rules.engine_list(army) if not refusal(army) else None


def with_fitted_armies(options: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    """A game under the starter armies' size (20 points a player, say): each seat given no army plays its house's
    starter army cut down to the size (`fitted_starter`)."""
    size = options.get("game_size", rules.GAME_SIZES[0])
    if not isinstance(size, int) or isinstance(size, bool) or size >= rules.GAME_SIZES[0]:
        return options
    given = options.get("armies", {})
    if not isinstance(given, dict):
        return options
    armies = dict(given)
    for seat in seats:
        if seat not in armies and (fitted := fitted_starter(seat_house(seat), size)) is not None:
            armies[seat] = fitted
    return {**options, "armies": armies}
