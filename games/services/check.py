"""The move check: a proposed action tried for the requesting player's seat without applying it
(POST /api/v1/games/{id}/check). For rulesets with a `check(state, seat, action)` method (the
miniatures game: a maneuver, march, retreat move or surge answers the resolved pose or the reason it
is refused, docs/engine-minis.md "Decisions"); any other ruleset has no move check.

Nothing is applied, stored or sent: the game is read without a lock, no action row, no version, no
event, no deadline changes. The same refusals as an action come first (not your game, left, over,
paused, a stale version), so a check that says ok is an action the server would take at that
version. The answer is the engine's verdict only (`ok`, and `at`/`facing` or `error`/`reason`),
never a view of the state: nothing the seat may not see.

A malformed action is refused here as it is by POST /actions (games/services/play.py): both hand
it to the engine, whose own reading of every field (games/engine/fields.py, issue 28) answers
EngineError(bad_action) with a sentence. The check used to also turn any other exception into
"The action could not be read", which hid what the action path then answered with a 500; an
exception other than EngineError is an engine bug, and both paths let it through alike."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from accounts.models import User
from games import rulesets
from games.engine import EngineError, get_ruleset
from games.errors import GameError, forbidden, not_found
from games.models import Game
from games.services.play import check_request, require_seat_may_act

VERDICT_KEYS = ("ok", "at", "facing", "error", "reason")


def has_check(ruleset: str) -> bool:
    return callable(getattr(get_ruleset(ruleset), "check", None))


def do_check_action(game_id: int, user: User, *, action: Any, version: Any) -> dict[str, Any]:
    """{"ok": true, "at", "facing", "version"} or {"ok": false, "error", "reason", "version"}."""
    check_request(action, version)
    if not action:
        raise GameError("invalid", gettext("Some fields are not valid."),
                        fields={"action": [gettext("A non-empty object is required.")]})
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise not_found()
    seat = game.seats.filter(user_id=user.pk).first() if user.is_authenticated else None
    if seat is None:
        raise forbidden(gettext("You do not play in this game."))
    if not has_check(game.ruleset):
        raise GameError("no_move_check", gettext("%(game)s has no move check: send the action itself.") % {
            "game": gettext(rulesets.name(game.ruleset))},
                        status_code=400)
    engine = require_seat_may_act(game, seat, version)  # the refusals of an action, in the same order
    try:
        verdict = engine.check(game.state, seat.seat, action)
    except EngineError as error:
        verdict = {"ok": False, "error": error.code, "reason": error.reason}
    if not isinstance(verdict, dict):
        verdict = {"ok": bool(verdict)}
    return {**{k: verdict[k] for k in VERDICT_KEYS if k in verdict}, "version": game.version}
