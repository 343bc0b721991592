"""A JSON column that gives back its objects with their keys in the order they were written.

Django's JSONField is `jsonb` on PostgreSQL, which stores an object's keys sorted (shortest first,
then bytewise): a snapshot read back has its keys in another order than the engine wrote them.
The rules engines are deterministic from their state, and some of their choices follow the order
of a mapping (the miniatures engine deploys "the first unit not yet on the table", the card
game's windows go through its cards in play): on PostgreSQL the live game, read back after every
action, then took other decisions than a replay of its log in memory (`verify_replay`,
`check_game`, a replay step). A plain `json` column keeps the text as written, so the order too.
SQLite stores JSON as text already: there this is Django's JSONField unchanged.

The snapshot is never queried by its content (no key lookups), so nothing is lost by not being jsonb."""
from __future__ import annotations

import json
from functools import partial

from django.db import models


class OrderedJSONField(models.JSONField):
    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if value is None:
            return None
        from psycopg.types.json import Json  # the `json` type, as written (Django sends Jsonb)

        return Json(value, dumps=partial(json.dumps, cls=self.encoder))

    def from_db_value(self, value, expression, connection):
        # psycopg decodes a `json` column itself (key order kept); text comes from SQLite
        if value is not None and not isinstance(value, (str, bytes, bytearray)):
            return value
        return super().from_db_value(value, expression, connection)
