"""Read-side helpers: what a user may see of a game, in the shape the API returns."""
from __future__ import annotations

import re
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games import spectators
from games.anonymity import faceless, hides_names
from games.engine import get_ruleset
from games.errors import not_found
from games.models import Game, GameSeat, Presence
from games.replay import state_digest
from games.results import game_result
from games.services import clocks
from games.services.decks import public_options
from games.services.notify import events_for
from westeros import compiled


def visible_games(user) -> QuerySet[Game]:
    """Public games, and private ones the user plays in (a seat of theirs found by EXISTS: a join with every
    game's seats had to be made DISTINCT again, a sort of all the games in progress's seats; issue 27)."""
    public = Game.objects.filter(private=False)
    if user is None or not user.is_authenticated or user.is_staff:
        return Game.objects.all() if user is not None and user.is_staff else public
    theirs = GameSeat.objects.filter(game_id=OuterRef("pk"), user=user)
    return Game.objects.filter(Q(private=False) | Exists(theirs))


def get_visible_game(user, game_id: int, invite: str | None = None, *, state: bool = True) -> Game:
    """The game if `user` may view it, else 404. `state`: False for a reader that needs no state (the
    log: a card game's state is tens of kilobytes of JSON; read on first use where one is needed)."""
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        raise not_found()
    # every game page and API read starts here: its two queries compiled once per process (issue 27)
    found = (compiled.models("games:visible-game", _game_query, game_id=game_id) if state
             else compiled.models("games:visible-game-stateless", _stateless_game_query, game_id=game_id))
    game = found[0] if found else None
    if game is None:
        raise not_found()
    # its seats with their players, as prefetch_related("seats__user") gives them
    seats = compiled.models("games:seats-with-players", _seats_query, game_id=game_id)
    compiled.put_prefetched(game, "seats", seats, "game")
    if not can_view(game, user, invite):
        raise not_found()
    return game


def _game_query(game_id: int):
    return Game.objects.filter(pk=game_id)


def _stateless_game_query(game_id: int):
    return Game.objects.filter(pk=game_id).defer("state")


def _seats_query(game_id: int):
    return GameSeat.objects.filter(game_id=game_id).select_related("user")


def can_view(game: Game, user, invite: str | None = None) -> bool:
    if not game.private:
        return True
    if user is not None and user.is_authenticated and (user.is_staff or game.seat_for(user) is not None):
        return True
    return bool(invite) and game.lobby is not None and invite == game.lobby.invite_token


def viewer_seat(game: Game, user, seats: list[GameSeat] | None = None) -> str | None:
    """The seat `user` plays (`seats`: the game's seats when the caller has them)."""
    if seats is None:
        seat = game.seat_for(user)
    else:
        seat = next((s for s in seats if s.user_id == user.pk), None) if user is not None and user.is_authenticated else None
    return seat.seat if seat is not None else None


def seat_rows(game: Game, seats: list[GameSeat] | None = None, viewer=None) -> list[dict[str, Any]]:
    """The seats as `viewer` is shown them (anonymous players: another seat's player is faceless)."""
    connected = {row["user_id"] for row in compiled.rows("games:connected-players", _connected_query, game_id=game.pk)}
    now = timezone.now()
    hidden = hides_names(game)
    viewer_id = viewer.pk if viewer is not None and viewer.is_authenticated else None
    return [
        {
            "seat": s.seat,
            "user": (faceless() if hidden and s.user_id != viewer_id else s.user.username) if s.user else None,
            # a bot account (a program playing through the API, docs/bots.md); `is_bot` is the engine's player
            "bot_account": bool(s.user and s.user.is_bot),
            "is_bot": s.is_bot,
            # played by the engine from the start (a computer opponent), not since its player left
            "computer": s.is_computer(),
            "left": s.has_left(),
            "left_round": s.left_round,
            "connected": s.user_id in connected,
            "deadline_at": s.deadline_at,
            "extension_used": s.extension_used,
            "abandoned": s.abandoned,
            "paused_remaining": s.paused_remaining,
            # a clocked game: {remaining (seconds), running, runs_out_at}; null without a clock
            "clock": clocks.seat_clock(game, s, now),
        }
        for s in (game.seats.all() if seats is None else seats)
    ]


def _connected_query(game_id: int):
    return Presence.objects.filter(game_id=game_id, user__isnull=False).values("user_id")


def game_payload(game: Game, user, seats: list[GameSeat] | None = None) -> dict[str, Any]:
    """The game as `user` sees it. `seats`: its seats with their users, when the caller already holds
    them as they are now (an action's answer: games/api.py), so they are not read again."""
    engine = get_ruleset(game.ruleset)
    seat = viewer_seat(game, user, seats)
    pending = engine.pending(game.state) if game.is_active() else {}
    legal = None
    if seat is not None and seat in pending:
        legal = engine.legal_actions(game.state, seat)
    payload = {
        "id": game.pk,
        "ruleset": game.ruleset,
        "status": game.status,
        "version": game.version,
        "your_seat": seat,
        "seats": seat_rows(game, seats, user),
        "pending": pending,
        "legal_actions": legal,
        "view": engine.view(game.state, seat),
        # The referee summary of SCENARIOS.md as this viewer is shown it: a stable shape per game.
        "summary": engine.summary(game.state, seat),
        "ranked": game.ranked,
        # the game started with computer players in some seats (such games are unrated for everyone)
        "vs_computer": any(s.is_computer() for s in (game.seats.all() if seats is None else seats)),
        "private": game.private,
        "time_limit": game.time_limit,
        "clock": {"bank": game.clock_bank, "increment": game.clock_increment} if game.has_clock() else None,
        "deadline_at": game.deadline_at,
        "paused_at": game.paused_at,
        "pause_votes": game.pause_votes,
        "options": public_options(game.options),  # a saved deck's lists stay its owner's (issue 30)
        "ranking": game.ranking,
        "seed_hash": game.seed_hash,
        "created_at": game.created_at,
        "finished_at": game.finished_at,
        # null while active; who won and why, each seat's place and player, ratings (games/results.py)
        "result": game_result(game, list(game.seats.all()) if seats is None else seats, user),
        "spectator_delay": None,
    }
    # a spectator of a fogged game with the spectators' delay (games/spectators.py): the whole board as
    # it stood some rounds ago in place of the live view, summary and pending decisions; a seat: its own
    if seat is None and spectators.delayed(game):
        payload.update(spectators.spectator_parts(game))
    return payload


LOG_PAGE = 50  # versions a page of the log covers by default (GET /log?after=V&limit=N)
LOG_PAGE_MAX = 500
MOMENT_EVERY = 100  # the narration's round and phase are kept in the cache at every such version
MOMENT_TIMEOUT = 7 * 24 * 3600


def log_page(game: Game, user, after: int = 0, limit: int = LOG_PAGE) -> dict[str, Any]:
    """A page of the log as this user may see it: the actions of versions after `after`, up to `limit`
    of them (issue 27: a long game's whole log was 600 KB and 130 ms), `through` being the last version
    the page covers and `more` whether later versions exist. Per action its events (filtered by the
    ruleset's event_view) and, where the ruleset narrates (describe_event), the same events in words:
    `lines` (a sentence each, with its pieces for colouring house names, its round and phase), `text`
    (the sentences joined), and the `round` and `phase` the action was taken in. Only filtered events
    are narrated, so a sentence never tells more than the event it stems from. A page that starts
    later than version 0 takes its round and phase from the narration before it (narration_moment)."""
    seat = viewer_seat(game, user)
    engine = get_ruleset(game.ruleset)
    describe = getattr(engine, "describe_event", None)
    # a spectator of a game with the spectators' delay reads the log up to the delayed moment, its
    # events without the fog (games/spectators.py)
    limited = spectators.log_limit(game, seat)
    last, shown = limited if limited is not None else (game.version, None)
    reader = "delayed" if limited is not None else seat
    through = max(after, min(last, after + limit))
    names = seat_player_names(game) if describe else {}
    # the page as narrated before: the log is append-only, so the entries of these versions for this
    # reader, in this language, never change (only the players' names, put in below, may)
    key = _page_key(game, reader, after, through)
    entries = cache.get(key)
    if entries is None:
        entries = _log_entries(game, engine, seat, reader, shown, after, through)
        cache.set(key, entries, LOG_PAGE_TIMEOUT)
    if describe:
        entries = [_named(entry, names) for entry in entries]
    return {"after": after, "through": through, "more": through < last,
            "entries": _with_take_overs(game, entries, after, through)}


LOG_PAGE_TIMEOUT = 3600  # how long a page of the log, narrated, is kept (issue 27)
_code_marks: dict[str, str] = {}


def _code_mark(ruleset: str) -> str:
    """A digest of what a log's narration is made of (the ruleset's engine, the narrator, its words and
    the compiled catalogues), read once per process: a page narrated by other code is never read."""
    if ruleset not in _code_marks:
        import hashlib
        from pathlib import Path

        from django.conf import settings

        root = Path(__file__).resolve().parent
        files = [*sorted((root / "engine" / ruleset).rglob("*")), root / "engine" / "narration.py",
                 *sorted((root / "i18n").rglob("*")), *sorted(Path(settings.BASE_DIR, "locale").rglob("*.mo"))]
        digest = hashlib.blake2b(digest_size=8)
        for path in files:
            if path.is_file() and path.suffix != ".pyc":
                digest.update(path.name.encode() + path.read_bytes())
        _code_marks[ruleset] = digest.hexdigest()
    return _code_marks[ruleset]


def _page_key(game: Game, reader: str | None, after: int, through: int) -> str:
    from django.utils.translation import get_language

    return (f"log-page:{game.pk}:{game.seed_hash[:16]}:{reader or '-'}:{get_language()}:{after}:{through}:"
            f"{_code_mark(game.ruleset)}")


def _named(entry: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    lines = [{**with_player_names(said, names), **moment} for said, moment in entry["lines"]]
    return {**entry, "lines": lines, "text": " ".join(line["text"] for line in lines)}


def _log_entries(game: Game, engine, seat: str | None, reader: str | None, shown, after: int,
                 through: int) -> list[dict[str, Any]]:
    """The entries of versions after..through as log_page shows them, each line a pair (the sentence
    without the players' names, the round and phase it was said in): _named puts the names in."""
    describe = getattr(engine, "describe_event", None)
    moment = narration_moment(game, reader, after, shown) if describe else {}
    entries = []
    for record in game.actions.filter(version__gt=after, version__lte=through).order_by("version"):
        events = events_for(game.ruleset, [record], seat, shown)
        if not events:
            continue
        entry: dict[str, Any] = {"version": record.version, "seat": record.seat, "source": record.source,
                                 "at": record.created_at, "events": events}
        if describe:
            entry.update({k: v for k, v in moment.items() if v is not None})
            lines = []
            for event in events:
                said = describe({k: v for k, v in event.items() if k != "version"})
                if not said:
                    continue
                _advance(moment, said)
                lines.append((said, {k: v for k, v in moment.items() if v is not None}))
            entry["lines"] = lines
        entries.append(entry)
    if describe and through > after:
        cache.set(_moment_key(game, reader, through), dict(moment), MOMENT_TIMEOUT)
    return entries


def _advance(moment: dict[str, Any], said: dict[str, Any]) -> None:
    moment.update({k: said[k] for k in ("round", "phase") if said.get(k) is not None})


def _moment_key(game: Game, seat: str | None, version: int) -> str:
    return f"log-moment:{game.pk}:{game.seed_hash[:16]}:{seat or '-'}:{version}"


def narration_moment(game: Game, seat: str | None, version: int, shown=None) -> dict[str, Any]:
    """The round and phase the log's narration, as `seat` reads it, has reached after `version`: those
    of the game's setup, moved on by every narrated event up to it. The log is append-only, so this
    never changes once the version exists: it is kept in the cache at the end of every page read and
    at every MOMENT_EVERY-th version, and a page starting there costs no more than the first one.
    Without a kept moment (a cold cache), the events up to `version` are narrated once. `shown`: the
    reader's own event filter (a delayed spectator's, with `seat` "delayed": games/spectators.py)."""
    engine = get_ruleset(game.ruleset)
    if version <= 0:
        return _log_start(engine, game)
    kept = cache.get(_moment_key(game, seat, version))
    if kept is not None:
        return kept
    marks = list(range(version - version % MOMENT_EVERY, 0, -MOMENT_EVERY))
    found = cache.get_many([_moment_key(game, seat, v) for v in marks]) if marks else {}
    start = next((v for v in marks if _moment_key(game, seat, v) in found), 0)
    moment = dict(found[_moment_key(game, seat, start)]) if start else _log_start(engine, game)
    fresh = {}
    records = game.actions.filter(version__gt=start, version__lte=version).order_by("version").only("version", "events")
    for record in records.iterator(chunk_size=500):
        for event in events_for(game.ruleset, [record], None if seat == "delayed" else seat, shown):
            said = engine.describe_event({k: v for k, v in event.items() if k != "version"})
            if said:
                _advance(moment, said)
        if record.version % MOMENT_EVERY == 0 or record.version == version:
            fresh[_moment_key(game, seat, record.version)] = dict(moment)
    cache.set_many(fresh, MOMENT_TIMEOUT)
    return moment


def _with_take_overs(game: Game, entries: list[dict[str, Any]], after: int, through: int) -> list[dict[str, Any]]:
    """The log with a line where a substitute took over an abandoned seat ("X takes over Y's seat."),
    after the action of the version they took over at (games/services/substitutes.py). A page carries
    the take-overs at its versions, `after` included: one that came after a reader's last page is
    then read with the next page (a reader keeps each once: version, source and seat name it)."""
    from games.services.substitutes import log_entries

    taken = [e for e in log_entries(game) if after <= e["version"] <= through]
    if not taken:
        return entries
    return sorted([*entries, *taken], key=lambda e: (e["version"], e["source"] == "substitute"))


def seat_player_names(game: Game) -> dict[str, str]:
    """{seat: the name the table knows its player by}: the username, or "the computer" (in the reader's
    language: the names are put into the kept narration per request) for a seat the
    engine's player holds from the start; "the computer (Player 3)" when it holds several."""
    hidden = hides_names(game)  # anonymous players: faceless to every reader while the game runs
    seats = list(game.seats.all())  # read with their players by get_visible_game
    computers = [s.seat for s in seats if not s.user_id]
    if len(computers) > 1:  # a melee or a 2v2 with several: each says which ("the computer (Player 3)")
        from ratings.templatetags.site_words import seat_name

        machine = {seat: gettext("the computer (%(seat)s)") % {"seat": seat_name(seat, game.ruleset)}
                   for seat in computers}
    else:
        machine = {seat: gettext("the computer") for seat in computers}
    return {s.seat: ((faceless() if hidden else s.user.username) if s.user_id else machine[s.seat]) for s in seats}


def with_player_names(line: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A narrated line whose seats are placeholders ("{p1} marshals Robb Stark.", the card game's
    narrator: a seat is not a house there) with the players' names put in; a part naming a seat
    keeps its `seat` so a page can still mark it. Lines without placeholders are returned as they are."""
    if "{" not in line.get("text", ""):
        return line
    def fill(text: str) -> str:
        return PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(0)), text)
    return {**line, "text": fill(line["text"]),
            "parts": [{**part, "text": fill(part.get("text", ""))} for part in line.get("parts") or []]}


PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _log_start(engine, game: Game) -> dict[str, Any]:
    """The round and phase before the first action: those of the game's setup (rebuilt from its seed;
    only these two public values are kept)."""
    try:
        state = engine.new_game(game.seat_names(), dict(game.options or {}), game.seed)
    except Exception:  # a log without rounds is still a log
        return {"round": None, "phase": None}
    return {"round": state.get("round"), "phase": state.get("phase")}


def fairness_payload(game: Game) -> dict[str, Any]:
    """The commitment always; once the game is over, the seed, its salt, every action, the final
    version and the SHA-256 of the final state (games.replay.state_digest of the stored snapshot, which
    no longer changes), so anyone can replay it and check it ends there (`manage.py verify_replay FILE`)."""
    payload: dict[str, Any] = {
        "id": game.pk,
        "ruleset": game.ruleset,
        "seed_hash": game.seed_hash,
        "commitment": "sha256(f'{salt}:{seed}')",
        "status": game.status,
    }
    if not game.is_active():
        payload.update(
            seed=game.seed,
            salt=game.seed_salt,
            seats=game.seat_names(),
            options=game.options,
            # the two columns it needs, not the events (most of a log's bytes)
            actions=[{"seat": seat, "action": action}
                     for seat, action in game.actions.order_by("version").values_list("seat", "action")],
            final_version=game.version,
            final_state_sha256=state_digest(game.state),
        )
    return payload


def awaiting_seats(seats: QuerySet[GameSeat]) -> list[GameSeat]:
    """Those of `seats` (with their game, one query, without its state) whose game waits on a decision
    of theirs (GameSeat.awaits_decision, in SQL)."""
    return list(seats.filter(GameSeat.AWAITING_DECISION, game__status=Game.Status.ACTIVE)
                .select_related("game").defer("game__state"))
