"""The shape of an action's fields, checked before an engine uses them (issue 28).

An action comes from a player as JSON; whatever it holds, an engine answers EngineError, never a
Python error. Two layers, both raising EngineError("bad_action") with a sentence that says what is
wrong (never a rule id, never the Python form of what was sent):

- `guard(action)`, called first by every ruleset's `apply` (and by the miniatures' `check`, so the
  move check and the action read an action the same way): what no action of any ruleset ever
  holds is refused whatever the field: a number that is not finite or beyond +-1,000,000 (10**400,
  1e308, NaN, Infinity), a text (or a key) longer than 64 characters (the longest id of the four
  games is 26, "Order: Tactical Reposition"; so no sentence repeats a long text it was sent), more
  than 200 items in a list or an object, nesting deeper than 8, a value that JSON cannot carry.
- the field readers (`name`, `whole`, `number`, `flag`, `mapping`, `items`), used where an engine
  reads a field: the type the field takes and its range, in the field's own words ("at: x must be
  a number of inches from -100 to 100").

`shown(value)` puts a sent value in a sentence: a short text as it is, anything else by its kind
("a list", "a number"...).

The sentences are in the reader's language (issue 29): one translatable template each, through
games.engine.narration's gettext (English until the site installs its words); the field names
(`deploy.at`) and JSON's literals (true, null) are the action's own and stay as sent.
"""
from __future__ import annotations

import math
from typing import Any

from games.engine.base import EngineError
from games.engine.narration import gettext, gettext_noop, pgettext

MAX_NUMBER = 1_000_000
MAX_TEXT = 64
MAX_ITEMS = 200
MAX_DEPTH = 8
SHOWN_TEXT = 40
# What a list holds, in `items`' sentence (said in the reader's language where used).
LIST_OF = (gettext_noop("names"), gettext_noop("cards"))


def bad(reason: str) -> EngineError:
    return EngineError("bad_action", reason)


def kind_of(value: Any) -> str:
    """What a value is, in words: "null", "true", "a number", "a text", "a list", "an object"..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return gettext("a number")
    if isinstance(value, str):
        return gettext("a text")
    if isinstance(value, (list, tuple)):
        return gettext("a list")
    if isinstance(value, dict):
        return gettext("an object")
    return gettext("a value JSON cannot carry")


def shown(value: Any) -> str:
    """A sent value as a sentence may quote it: a short text as it is (a long one cut), a whole
    number of a few digits, anything else by its kind."""
    if isinstance(value, str):
        return value if len(value) <= SHOWN_TEXT else value[:SHOWN_TEXT] + "..."
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9:
        return str(value)
    return kind_of(value)


def _where(path: str) -> str:
    return f"{path}: " if path else ""


def _thousands(n: int) -> str:
    """A big number with the reader's thousands separator (1,000,000 / 1.000.000)."""
    return f"{n:,}".replace(",", pgettext("thousands separator", ","))


def _key(k: Any) -> str:
    return k if isinstance(k, str) and len(k) <= SHOWN_TEXT else "..."


def guard(action: Any, path: str = "", depth: int = 0) -> None:
    """Refuse what no action of any ruleset holds (the module's docstring); `path` names the field in
    the sentence (`deploy.at[0]`)."""
    if depth > MAX_DEPTH:
        raise bad(_where(path) + gettext("an action nests at most %(depth)s lists or objects deep") % {"depth": MAX_DEPTH})
    if action is None or isinstance(action, bool):
        return
    if isinstance(action, int):
        if abs(action) > MAX_NUMBER:
            raise bad(_where(path) + gettext("numbers in an action are from -%(max)s to %(max)s") % {
                "max": _thousands(MAX_NUMBER)})
        return
    if isinstance(action, float):
        if not math.isfinite(action) or abs(action) > MAX_NUMBER:
            raise bad(_where(path) + gettext("numbers in an action are finite, from -%(max)s to %(max)s") % {
                "max": _thousands(MAX_NUMBER)})
        return
    if isinstance(action, str):
        if len(action) > MAX_TEXT:
            raise bad(_where(path) + gettext("texts in an action are at most %(count)s characters long") % {"count": MAX_TEXT})
        return
    if isinstance(action, list):
        if len(action) > MAX_ITEMS:
            raise bad(_where(path) + gettext("lists in an action hold at most %(count)s items") % {"count": MAX_ITEMS})
        for i, item in enumerate(action):
            guard(item, f"{path}[{i}]", depth + 1)
        return
    if isinstance(action, dict):
        if len(action) > MAX_ITEMS:
            raise bad(_where(path) + gettext("objects in an action hold at most %(count)s keys") % {"count": MAX_ITEMS})
        for k, item in action.items():
            if not isinstance(k, str):
                raise bad(_where(path) + gettext("the keys of an object are texts"))
            if len(k) > MAX_TEXT:
                raise bad(_where(path) + gettext("keys in an action are at most %(count)s characters long") % {"count": MAX_TEXT})
            guard(item, f"{path}.{_key(k)}" if path else _key(k), depth + 1)
        return
    raise bad(_where(path) + gettext("an action holds only JSON values (objects, lists, texts, numbers, true, false, null)"))


def name(value: Any, what: str, *, optional: bool = False) -> str | None:
    """A field holding an id (a unit, a card, an area, a seat): a text."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise bad((gettext("%(what)s must be a name (a text) or null, not %(kind)s") if optional else
                   gettext("%(what)s must be a name (a text), not %(kind)s")) % {"what": what, "kind": kind_of(value)})
    return value


def whole(value: Any, what: str, low: int, high: int, *, optional: bool = False) -> int | None:
    """A whole number from `low` to `high` (true and false are not numbers)."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise bad(gettext("%(what)s must be a whole number from %(low)s to %(high)s") % {"what": what, "low": low, "high": high})
    return value


def number(value: Any, what: str, low: float, high: float, unit: str = "") -> float:
    """A finite number from `low` to `high`, as a float; `unit` is said in the sentence ("inches",
    "degrees")."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(value, float) and not (
            math.isfinite(value)) or not low <= value <= high:
        values = {"what": what, "low": f"{low:g}", "high": f"{high:g}"}
        if unit == "inches":
            raise bad(gettext("%(what)s must be a number of inches from %(low)s to %(high)s") % values)
        if unit == "degrees":
            raise bad(gettext("%(what)s must be a number of degrees from %(low)s to %(high)s") % values)
        raise bad(gettext("%(what)s must be a number from %(low)s to %(high)s") % values)
    return float(value)


def flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise bad(gettext("%(what)s must be true or false, not %(kind)s") % {"what": what, "kind": kind_of(value)})
    return value


def mapping(value: Any, what: str, allowed: set[str] | frozenset[str] | tuple[str, ...] | None = None,
            required: tuple[str, ...] = ()) -> dict[str, Any]:
    """An object; `allowed` keys only (None: any text keys), every `required` key present."""
    if not isinstance(value, dict):
        raise bad(gettext("%(what)s must be an object, not %(kind)s") % {"what": what, "kind": kind_of(value)})
    if allowed is not None:
        extra = sorted(k for k in value if k not in allowed)
        if extra:
            raise bad(gettext("%(what)s takes only %(keys)s; %(key)s is not one of them") % {
                "what": what, "keys": ", ".join(sorted(allowed)), "key": shown(extra[0])})
    missing = [k for k in required if k not in value]
    if missing:
        raise bad(gettext("%(what)s needs %(keys)s") % {"what": what, "keys": ", ".join(missing)})
    return value


def items(value: Any, what: str, of: str = "") -> list[Any]:
    """A list (`of`: what its items are, for the sentence)."""
    if not isinstance(value, list):
        raise bad(gettext("%(what)s must be a list of %(of)s, not %(kind)s") % {"what": what, "of": gettext(of), "kind": kind_of(value)}
                  if of else gettext("%(what)s must be a list, not %(kind)s") % {"what": what, "kind": kind_of(value)})
    return value


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: true is not 1, 1.0 is not 1 (Python's == says they are); a tuple is a list."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def among(value: Any, options: list[Any]) -> bool:
    """`value in options`, comparing as JSON (`same`)."""
    return any(same(value, o) for o in options)


def names(value: Any, what: str) -> list[str]:
    """A list of names (texts)."""
    items(value, what, "names")
    for v in value:
        if not isinstance(v, str) or not v:
            raise bad(gettext("%(what)s must be a list of names (texts)") % {"what": what})
    return value
