"""Queries compiled once per process (issue 27). Django builds and compiles a queryset's SQL on every
request; for a query of joins, subqueries and cases, as a busy player's games on the home page, that
was most of its cost, though only its values change from one request to the next. rows() compiles the
queryset once per process and database, with stand-in values for the ones given per call, and then
runs that SQL with the values of the call: the rows are read afresh every time (nothing is kept but
the text of the SQL), and converted to Python values as the ORM converts them."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

_STAND_IN = -1_987_654_321  # no row's id (and within a 32-bit integer): found in the compiled parameters
_compiled: dict[tuple[str, str, str], tuple[Any, str, tuple, dict[str, int], list[str]]] = {}
_lock = threading.Lock()


def _compile(build: Callable[..., QuerySet], names: list[str]):
    stand_ins = {name: _STAND_IN - i for i, name in enumerate(names)}
    queryset = build(**stand_ins)
    query = queryset.query
    compiler = query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    slots = {}
    for name, stand_in in stand_ins.items():
        found = [i for i, p in enumerate(params) if p == stand_in]
        if len(found) != 1:  # a value used twice, or changed on its way in: compile per call instead
            raise ValueError(f"the value {name} is not one parameter of the query")
        slots[name] = found[0]
    columns = [*query.extra_select, *query.values_select, *query.annotation_select]
    return compiler, sql, tuple(params), slots, columns


def rows(label: str, build: Callable[..., QuerySet], **values: Any) -> list[dict[str, Any]]:
    """The rows of `build(**values)` (a values() or values_list() queryset whose `values` are each one
    parameter of its SQL, e.g. a user's id), as dicts of its columns; its SQL compiled the first time
    `label` is asked in this process."""
    connection = connections[DEFAULT_DB_ALIAS]
    key = (label, connection.alias, connection.vendor)
    entry = _compiled.get(key)
    if entry is None:
        with _lock:
            entry = _compiled.get(key) or _compile(build, sorted(values))
            _compiled[key] = entry
    compiler, sql, params, slots, columns = entry
    call = list(params)
    for name, at in slots.items():
        call[at] = values[name]
    with connection.cursor() as cursor:
        cursor.execute(sql, call)
        fetched = cursor.fetchall()
    return [dict(zip(columns, row, strict=True)) for row in compiler.results_iter([fetched])]
