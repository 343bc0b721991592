"""The OpenAPI schema documents the error answers too: one reusable `Error` component (the API's error
shape, westeros/api_errors.py) and, on every operation, the error statuses it can answer. A
drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

Which statuses, and why (tests/test_api_schemathesis.py checks that every answer is documented):
- 400 everywhere: a NUL in a query parameter or a header is refused before any view (plus the
  field errors of operations that take input);
- 401 everywhere: a wrong or revoked token is refused even where no log-in is needed;
- 403 on writes: CSRF with a session, and the services' "forbidden" refusals;
- 404 where the path names something (an id, a ruleset, a user);
- 409 on writes: a state that does not allow it (stale version, not open, already registered...);
- 413 where a body is read (larger than DATA_UPLOAD_MAX_MEMORY_SIZE);
- 422 on game actions: an Idempotency-Key reused with another request;
- 429 where requests are rate-limited (log-in for a token, chat, challenges, open event streams);
- 503 everywhere: the database or Redis is unavailable (with Retry-After).
"""
from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "Error"
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every API error: a code, a message, field errors (field name to messages); some errors add "
                   "keys of their own (e.g. `version` on game conflicts, `retry_after`).",
    "properties": {
        "error": {"type": "string", "description": "a stable code, e.g. invalid, not_found, stale_version"},
        "detail": {"type": "string", "description": "a message for people"},
        "fields": {"type": "object", "additionalProperties": True,
                   "description": "field errors: a field (or header or parameter) name to its messages"},
    },
    "required": ["error", "detail", "fields"],
    "additionalProperties": True,
}
DESCRIPTIONS = {
    "400": "Invalid input: field errors in `fields` (a body, a query parameter or a header).",
    "401": "Not authenticated, or a wrong or revoked token.",
    "403": "Not allowed (or a missing CSRF token with a session).",
    "404": "Not found, or not visible to you.",
    "409": "Conflict with the current state (e.g. `stale_version`: re-fetch).",
    "413": "The request body is too large.",
    "422": "`idempotency_key_reused`: the Idempotency-Key was used with another request.",
    "429": "Too many requests: wait `Retry-After` seconds.",
    "503": "A service (database, Redis) is unavailable: retry after `Retry-After` seconds.",
}
WRITES = {"post", "put", "patch", "delete"}
RATE_LIMITED = {("/api/v1/auth/token", "post"), ("/api/v1/games/{game_id}/chat", "post"),
                ("/api/v1/challenges", "post"), ("/api/v1/stream/events", "get")}
IDEMPOTENT_ACTIONS = {("/api/v1/games/{game_id}/actions", "post")}


def error_statuses(path: str, method: str, operation: dict[str, Any]) -> list[str]:
    statuses = ["400", "401"]
    if method in WRITES:
        statuses += ["403"]
    if "{" in path:
        statuses += ["404"]
    if method in WRITES:
        statuses += ["409", "413"]
    if (path, method) in IDEMPOTENT_ACTIONS:
        statuses += ["422"]
    if (path, method) in RATE_LIMITED:
        statuses += ["429"]
    statuses += ["503"]
    return statuses


def add_error_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components[ERROR_COMPONENT] = ERROR_SCHEMA
    reference = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, item in result.get("paths", {}).items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete", "head", "options"}:
                continue
            responses = operation.setdefault("responses", {})
            for status in error_statuses(path, method, operation):
                if status not in responses:
                    responses[status] = {"content": {"application/json": {"schema": reference}},
                                         "description": DESCRIPTIONS[status]}
    return result
