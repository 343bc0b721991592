"""Queries compiled once per process (issue 27). Django builds and compiles a queryset's SQL on every
request; for a query of joins, subqueries and cases, as a busy player's games on the home page, that
was most of its cost, though only its values change from one request to the next. rows() compiles the
queryset once per process and database, with stand-in values for the ones given per call, and then
runs that SQL with the values of the call: the rows are read afresh every time (nothing is kept but
the text of the SQL), and converted to Python values as the ORM converts them. A per-call value may be
an integer (an id) or a datetime (e.g. `now`): each is a parameter of the SQL, given anew on every call,
never frozen into the compiled text. An integer no 64-bit column can hold (an id from a URL beyond the
database's range) matches no row, as Django's own lookups answer it: nothing is run. models() does the same for a queryset of model instances (its
select_related() included), made as the ORM makes them.

`plan_each_call`: a query whose best plan depends on its values (a player's games: 20 seats for most,
2,000 for a busy one) is planned by PostgreSQL for the values of each call. Prepared, it would be run
after a few calls by PostgreSQL's generic plan, which assumes an average player: a nested loop over the
player's seats that cost a busy player's My games and home page 2-3 ms a query (issue 27, thirteenth
round). Such a query is still compiled once; it is only not prepared."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

_STAND_IN = -1_987_654_321  # no row's id (and within a 32-bit integer): found in the compiled parameters
_STAND_IN_TIME = datetime(1901, 2, 3, 4, 5, 6, tzinfo=UTC)  # no row's time; one microsecond apart per value
_STAND_IN_LIMIT, _STAND_IN_OFFSET = 1_987_654, 1_876_543  # a slice's stand-ins (no page is so long or so far)
_LIMIT, _OFFSET = "\x00limit", "\x00offset"  # their values' names (no keyword argument is named so)
_BIGINT = (-(2**63), 2**63 - 1)  # what a 64-bit integer column holds, on every database we run on
_compiled: dict[tuple[str, str, str], tuple] = {}
_lock = threading.Lock()


def _stand_in(value: Any, i: int) -> Any:
    if isinstance(value, datetime):
        stand_in = _STAND_IN_TIME + timedelta(microseconds=i + 1)
        return stand_in if value.tzinfo is not None else stand_in.replace(tzinfo=None)
    if isinstance(value, int) and not isinstance(value, bool):
        return _STAND_IN - i
    raise TypeError(f"a per-call value is an integer or a datetime, not {type(value).__name__}")


def _beyond_range(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and not _BIGINT[0] <= value <= _BIGINT[1]


def _stand_ins(values: dict[str, Any]) -> dict[str, Any]:
    return {name: _stand_in(values[name], i) for i, name in enumerate(sorted(values))}


def _entry(key: tuple, make: Callable[[], Any]) -> Any:
    """What was compiled under `key` in this process, compiled by `make()` the first time."""
    entry = _compiled.get(key)
    if entry is None:
        with _lock:
            entry = _compiled.get(key) or make()
            _compiled[key] = entry
    return entry


def _compile(build: Callable[..., QuerySet], values: dict[str, Any], window: bool = False):
    stand_ins = _stand_ins(values)
    queryset = build(**stand_ins)
    if window:  # a slice of the rows: its LIMIT and OFFSET made parameters (a slice is in the SQL's text)
        queryset = queryset[_STAND_IN_OFFSET:_STAND_IN_OFFSET + _STAND_IN_LIMIT]
    query = queryset.query
    compiler = query.get_compiler(using=queryset.db)
    sql, params = compiler.as_sql()
    ops = compiler.connection.ops
    if window:
        sliced = ops.limit_offset_sql(_STAND_IN_OFFSET, _STAND_IN_OFFSET + _STAND_IN_LIMIT)
        if not sql.endswith(" " + sliced) or sql.count(sliced) != 1:  # e.g. FOR UPDATE after it: not compiled
            raise ValueError("the query's slice is not the end of its SQL")
        sql = f"{sql[:-len(sliced)]}LIMIT %s OFFSET %s"
        params = (*params, _STAND_IN_LIMIT, _STAND_IN_OFFSET)
    slots = _slots(stand_ins, params, ops, "query")
    if window:
        slots[_LIMIT], slots[_OFFSET] = ([len(params) - 2], None), ([len(params) - 1], None)
    # the columns in the order of the SQL: as values() named them (Django 5.2 keeps that order, an
    # annotation among the fields included), else extras, fields, then annotations
    columns = list(query.selected) if query.selected else [*query.extra_select, *query.values_select,
                                                           *query.annotation_select]
    return queryset, compiler, sql, tuple(params), slots, columns


@contextmanager
def _planned(connection, each_call: bool) -> Iterator[None]:
    """Within it, a query of `connection` (connected) is planned for its values when `each_call`: psycopg does not
    prepare it (its prepare_threshold None for the while; westeros/env.py sets it), so PostgreSQL makes a custom plan."""
    raw = connection.connection if each_call and connection.vendor == "postgresql" else None
    if raw is None:
        yield
        return
    threshold = raw.prepare_threshold
    raw.prepare_threshold = None
    try:
        yield
    finally:
        raw.prepare_threshold = threshold


def _run(label: str, build: Callable[..., QuerySet], values: dict[str, Any], window: tuple[int, int] | None = None,
         plan_each_call: bool = False):
    connection = connections[DEFAULT_DB_ALIAS]
    entry = _entry((label, connection.alias, connection.vendor, window is not None),
                   lambda: _compile(build, values, window is not None))
    if window is not None:
        low, high = window
        if not 0 <= low <= high:
            raise ValueError(f"{label}: a window is [low, high) from 0, not {window}")
        if low == high:
            return entry[0], entry[1], entry[5], iter(())
        values = {**values, _LIMIT: high - low, _OFFSET: low}
    queryset, compiler, sql, params, slots, columns = entry
    call = _parameters(label, params, slots, values)
    if call is None:
        return queryset, compiler, columns, iter(())
    with connection.cursor() as cursor, _planned(connection, plan_each_call):
        cursor.execute(sql, call)
        fetched = cursor.fetchall()
    return queryset, compiler, columns, compiler.results_iter([fetched])


def _slots(stand_ins: dict[str, Any], params, ops, what: str) -> dict[str, tuple[list[int], Any]]:
    """Where each stand-in value sits among a compiled query's parameters: {name: (places, prepare)}, each
    place it is used (a user's id in a query and its subquery), and `prepare` when the ORM passed it on
    changed (a datetime as this database takes it, SQLite a text; the call's value goes the same way)."""
    slots = {}
    for name, stand_in in stand_ins.items():
        prepare = None
        found = [i for i, p in enumerate(params) if p == stand_in]
        if not found and isinstance(stand_in, datetime):
            prepare = ops.adapt_datetimefield_value
            found = [i for i, p in enumerate(params) if p == prepare(stand_in)]
        if not found:  # changed on its way in (e.g. made part of a pattern): compile per call instead
            raise ValueError(f"the value {name} is not a parameter of the {what}")
        slots[name] = (found, prepare)
    return slots


def _parameters(label: str, params: tuple, slots: dict, values: dict[str, Any]) -> list[Any] | None:
    """The parameters of one call of a compiled query: its compiled ones with each value in its places;
    None when a value is an integer no 64-bit column holds (such a query matches no row: nothing is run)."""
    if set(values) != set(slots):
        raise ValueError(f"{label} was compiled with the values {sorted(slots)}, not {sorted(values)}")
    if any(_beyond_range(v) for v in values.values()):
        return None
    call = list(params)
    for name, (places, prepare) in slots.items():
        value = values[name] if prepare is None else prepare(values[name])
        for at in places:
            call[at] = value
    return call


def rows(label: str, build: Callable[..., QuerySet], window: tuple[int, int] | None = None, *,
         plan_each_call: bool = False, **values: Any) -> list[dict[str, Any]]:
    """The rows of `build(**values)` (a values() or values_list() queryset whose `values` are each a
    parameter of its SQL, e.g. a user's id, used once or more), as dicts of its columns; its SQL compiled the first time
    `label` is asked in this process. `window`: (low, high), a slice of them, as models() reads one."""
    _, _, columns, results = _run(label, build, values, window, plan_each_call)
    return [dict(zip(columns, row, strict=True)) for row in results]


def models(label: str, build: Callable[..., QuerySet], window: tuple[int, int] | None = None, *,
           plan_each_call: bool = False, **values: Any) -> list[Any]:
    """The model instances of `build(**values)` (a queryset of models, its select_related() ones and its
    annotations made too, as django.db.models.query.ModelIterable makes them; no prefetch_related), its
    SQL compiled the first time `label` is asked in this process. `window`: (low, high), the rows
    `build(**values)[low:high]` reads, the slice's LIMIT and OFFSET parameters of the compiled SQL, so
    that every page of a list is one compiled query (issue 27, tenth round)."""
    queryset, compiler, _, results = _run(label, build, values, window, plan_each_call)
    if queryset._fields is not None or queryset._prefetch_related_lookups or queryset._known_related_objects:
        raise ValueError(f"{label}: models() reads model rows (no values(), prefetches or related managers)")
    db = queryset.db
    klass_info, select = compiler.klass_info, compiler.select
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    init_list = [f[0].target.attname for f in select[start:end]]
    populators = get_related_populators(klass_info, select, db)
    made = []
    for row in results:
        obj = klass_info["model"].from_db(db, init_list, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        for name, at in compiler.annotation_col_map.items():
            setattr(obj, name, row[at])
        made.append(obj)
    return made


def count(label: str, build: Callable[..., QuerySet], *, plan_each_call: bool = False, **values: Any) -> int:
    """`build(**values).count()`, the count query Django makes of it compiled the first time `label` is
    asked in this process (made by Django's own count, run once with the stand-in values, which match no
    row; the values of each call are its parameters after that)."""
    connection = connections[DEFAULT_DB_ALIAS]
    sql, params, slots = _entry((f"{label}:count", connection.alias, connection.vendor),
                                lambda: _compile_count(build, values, connection))
    call = _parameters(label, params, slots, values)
    if call is None:
        return 0
    with connection.cursor() as cursor, _planned(connection, plan_each_call):
        cursor.execute(sql, call)
        return int(cursor.fetchone()[0])


def _compile_count(build: Callable[..., QuerySet], values: dict[str, Any], connection):
    stand_ins = _stand_ins(values)
    made = []

    def catch(execute, sql, params, many, context):
        made.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(catch):
        build(**stand_ins).count()
    if len(made) != 1:
        raise ValueError(f"a count made {len(made)} queries, not one")
    sql, params = made[0]
    return sql, params, _slots(stand_ins, params, connection.ops, "count")


class Compiled:
    """A part of a paged list read by compiled queries, as web.paging.Concatenated and Django's Paginator
    ask it: `count()` (of `counted`, the same rows plainer, or of `build`) and a slice of its models
    (models() with a window). `label` names the two compiled queries in this process; `plan_each_call`
    as models() and count() take it."""

    def __init__(self, label: str, build: Callable[..., QuerySet], counted: Callable[..., QuerySet] | None = None,
                 *, plan_each_call: bool = False, **values: Any):
        self.label, self.build, self.counted, self.values = label, build, counted or build, values
        self.plan_each_call = plan_each_call

    def count(self) -> int:
        return count(self.label, self.counted, plan_each_call=self.plan_each_call, **self.values)

    def __len__(self) -> int:
        return self.count()

    read = staticmethod(models)  # how a slice is read

    def __getitem__(self, cut: slice) -> list[Any]:
        if not isinstance(cut, slice) or cut.step is not None or cut.stop is None:
            raise TypeError("a compiled list is read a slice at a time, [low:high]")
        return self.read(self.label, self.build, window=(cut.start or 0, cut.stop), plan_each_call=self.plan_each_call,
                         **self.values)


class CompiledRows(Compiled):
    """A Compiled list of rows (rows() with a window): `build` is a values() queryset."""

    read = staticmethod(rows)


def put_prefetched(parent: Any, related_name: str, children: list[Any], back: str) -> None:
    """Give `parent` its related `children` as prefetch_related(related_name) gives them (read by
    `parent.<related_name>.all()` without a query), each child pointing back to `parent` through its
    foreign key `back`: for rows read with models(), which makes no prefetches."""
    field = type(children[0])._meta.get_field(back) if children else None
    shown = getattr(parent, related_name).all()
    shown._result_cache, shown._prefetch_done = children, True
    for child in children:
        field.set_cached_value(child, parent)
    cache = getattr(parent, "_prefetched_objects_cache", None)
    if cache is None:
        cache = parent._prefetched_objects_cache = {}
    cache[related_name] = shown
