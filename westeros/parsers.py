"""JSON from clients, parsed with limits: the API's parser (REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"])
and the websockets (SafeJsonFrames) share them.

- Nesting: Python's json module recurses, so a body nested a few thousand levels deep raises
  RecursionError (a 500 before this parser). Anything deeper than MAX_JSON_DEPTH is refused; no
  request of the API comes near it (an action is a few levels deep).
- NUL characters: PostgreSQL refuses "\\u0000" in text and JSONB ("A string literal cannot contain
  NUL (0x00) characters"), so a NUL in any string or key of a body is refused with a field error
  naming the top-level field, before it can reach the database. So is an unpaired surrogate
  ("\\ud800"), which is valid JSON but no valid UTF-8.
- Numbers: NaN and Infinity are refused by the strict parser, and so is a number too large for a
  double (1e999, which Python's json reads as inf): no engine or database column takes them.
"""
from __future__ import annotations

import json
import math
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

MAX_JSON_DEPTH = 64
# The messages are in the request's (or the socket's) language; the codes stay English.
NUL_MESSAGE = gettext_lazy("NUL characters (\\u0000) are not allowed.")
SURROGATE_MESSAGE = gettext_lazy("Unpaired surrogates (\\ud800 to \\udfff) are not allowed.")
NOT_FINITE_MESSAGE = gettext_lazy("Numbers must be finite (no NaN or Infinity, nor one too large for a double such as "
                                  "1e999).")


def too_deep(max_depth: int) -> str:
    return gettext("JSON nested deeper than %(depth)s levels.") % {"depth": max_depth}


class JsonRefused(ValueError):
    """A JSON document that parses (or not) but is refused: too deep, or invalid."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def check_json(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Raise JsonRefused if `value` nests deeper than `max_depth` or holds a NUL in a string or key.
    Iterative, so it never recurses itself."""
    stack: list[tuple[Any, int, str | None]] = [(value, 1, None)]
    while stack:
        node, depth, top = stack.pop()
        if isinstance(node, str):
            _check_text(node, top)
            continue
        if isinstance(node, float) and not math.isfinite(node):  # 1e999 parses to inf
            raise JsonRefused(NOT_FINITE_MESSAGE, top)
        if not isinstance(node, dict | list):
            continue
        if depth > max_depth:
            raise JsonRefused(too_deep(max_depth))
        if isinstance(node, dict):
            for key, item in node.items():
                field = top if top is not None else str(key)
                _check_text(key, _printable(field))
                stack.append((item, depth + 1, field))
        else:
            stack.extend((item, depth + 1, top) for item in node)


def _check_text(text: str, field: str | None) -> None:
    if "\x00" in text:
        raise JsonRefused(NUL_MESSAGE, field)
    try:
        text.encode()
    except UnicodeEncodeError:  # a lone surrogate ("\ud800"): no database can store it as text
        raise JsonRefused(SURROGATE_MESSAGE, field) from None


def _printable(field: str) -> str:
    return field.encode("unicode_escape").decode("ascii") if not field.isprintable() else field


def loads(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """json.loads that raises JsonRefused (a ValueError) for anything it refuses, never RecursionError."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonRefused(too_deep(max_depth)) from None
    except json.JSONDecodeError as error:
        raise JsonRefused(gettext("Not valid JSON (line %(line)s, column %(column)s).") % {
            "line": error.lineno, "column": error.colno}) from None
    except ValueError:  # bytes that are not UTF-8
        raise JsonRefused(gettext("Not valid JSON: the text is not UTF-8.")) from None
    check_json(value, max_depth)
    return value


def refused_as_api_error(error: JsonRefused) -> Exception:
    if error.field is not None:
        return ValidationError({error.field: [str(error)]})
    return ParseError(str(error))


class JSONParser(parsers.JSONParser):
    """DRF's JSONParser (strict: no NaN or Infinity) with the limits above: a 400 in the API's error
    shape instead of a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(too_deep(MAX_JSON_DEPTH)) from None
        try:
            check_json(data)
        except JsonRefused as error:
            raise refused_as_api_error(error) from None
        return data


class SafeJsonFrames:
    """For an AsyncJsonWebsocketConsumer: a frame that is not JSON, is binary, nests too deep or
    holds a NUL gets {"type": "error", "error": "bad_message", "detail", "fields"} and the socket
    stays open (Channels' own decode_json would raise and close it with 1011). Put it before
    AsyncJsonWebsocketConsumer in the bases. The detail is in the socket's language (the account's
    setting, else the handshake's language cookie or Accept-Language: westeros/outages.py)."""

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        from westeros.outages import scope_language

        with translation.override(scope_language(self.scope)):
            if text_data is None:
                await self.send_json(bad_message(gettext("Send JSON text frames, not binary ones.")))
                return
            try:
                content = loads(text_data)
            except JsonRefused as error:
                fields = {error.field: [str(error)]} if error.field else {}
                await self.send_json(bad_message(str(error), fields))
                return
        await self.receive_json(content, **kwargs)


def bad_message(detail: str, fields: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {"type": "error", "error": "bad_message", "detail": detail, "fields": fields or {}}
