"""The event stream in the OpenAPI schema. It is an async Django view (a long-lived NDJSON response),
not a DRF view, so drf-spectacular cannot see it: this postprocessing hook
(SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"], before the error responses are added) documents it."""
from __future__ import annotations

from typing import Any

PATH = "/api/v1/stream/events"

GAME_REF = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "description": "the game's id: GET /api/v1/games/{id}"},
        "ruleset": {"type": "string"},
        "seat": {"type": "string", "description": "your seat"},
        "version": {"type": "integer", "description": "the game's version when the event was decided"},
        "decision": {"type": "string", "nullable": True,
                     "description": "the kind of decision pending for your seat (yourTurn, gameStart)"},
        "deadline_at": {"type": "string", "format": "date-time", "nullable": True},
        "status": {"type": "string", "description": "active, finished or abandoned"},
        "ranked": {"type": "boolean"},
        "ranking": {"type": "array", "items": {"type": "string"}, "nullable": True,
                    "description": "gameFinish: the seats, best first"},
    },
    "required": ["id", "ruleset", "seat", "version"],
}
EVENT = {
    "type": "object",
    "description": (
        "One line of the event stream. `gameStart`: a game of yours started; `yourTurn`: a decision of yours is "
        "pending (the game's id, version and decision kind); `gameFinish`: a game of yours ended; `challenge`: "
        "you are challenged (accept or decline it); `challengeAccepted`, `challengeDeclined`, "
        "`challengeCanceled`: an answer to (or the end of) a challenge you take part in."),
    "properties": {
        "type": {"type": "string", "enum": ["gameStart", "yourTurn", "gameFinish", "challenge",
                                             "challengeAccepted", "challengeDeclined", "challengeCanceled"]},
        "game": GAME_REF,
        "challenge": {"type": "object", "additionalProperties": True,
                      "description": "the challenge, as GET /api/v1/challenges lists it"},
    },
    "required": ["type"],
}
DESCRIPTION = """A long-lived stream of your events as NDJSON (`application/x-ndjson`): one JSON object a line,
lichess's `/api/stream/event`. Authenticate with your token (`Authorization: Token <key>`).

On every connection the stream first sends, from the database, a `yourTurn` line for every game where a decision
of yours is pending now and a `challenge` line for every challenge waiting for your answer; then the live events
as they happen. So reconnecting after a disconnect loses no "your turn": reconnect (with a backoff) whenever the
stream ends. An empty line comes whenever nothing else was sent for 7 seconds (keep-alive: treat a silence of
more than 10 seconds as a dead connection). A line may repeat an event you already know (a connection counts
from when it opened): act on the game's current state (`GET /api/v1/games/{id}`), not on the count of events.

A user may hold 8 streams open at once (EVENT_STREAMS_PER_USER): one more is refused 429 with Retry-After.

Served asynchronously (no thread per open stream). See docs/bots.md and examples/bot.py."""


def add_event_stream(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["StreamEvent"] = EVENT
    security = [{name: []} for name in result.get("components", {}).get("securitySchemes", {})]
    result.setdefault("paths", {})[PATH] = {"get": {
        "operationId": "stream_events",
        "summary": "Your event stream (NDJSON): game started, your turn, game finished, challenges",
        "description": DESCRIPTION,
        "tags": ["stream"],
        "security": security,
        "responses": {"200": {
            "description": "NDJSON: one StreamEvent a line, empty lines as keep-alives; the response does not end "
                           "until you disconnect.",
            "content": {"application/x-ndjson": {"schema": {"$ref": "#/components/schemas/StreamEvent"}}},
        }},
    }}
    return result
