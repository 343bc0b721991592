"""Serializer fields for numbers as the OpenAPI schema documents them, and the API's way of writing a time
for rows written without serializers (`time_writer`).

DRF's IntegerField and FloatField accept "0" for 0; the schema says integer (or number), so a JSON
body must send a number. A form post (application/x-www-form-urlencoded or multipart, e.g. the
browsable API) has only strings, so there a numeric string is still read as a number.

The bounds are the database's: a value the column cannot hold is a field error (400), never a
database error (500). PostgreSQL's integer is what Django's PositiveIntegerField and IntegerField
use, smallint its PositiveSmallIntegerField, bigint its BigIntegerField."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.http import QueryDict
from django.utils import timezone
from rest_framework import serializers

INTEGER_MAX = 2**31 - 1  # PositiveIntegerField / IntegerField (PostgreSQL integer)
SMALL_INTEGER_MAX = 2**15 - 1  # PositiveSmallIntegerField (smallint)
BIG_INTEGER_MAX = 2**63 - 1  # BigIntegerField (bigint)


def time_writer() -> Callable[[datetime | None], str | None]:
    """How the API writes a time, as DRF's DateTimeField writes it (ISO 8601, "Z" for UTC; None stays None),
    the time zone looked up once: for rows written without serializers, where a lookup per time written (a
    context-local one) was 150 a page (issue 27)."""
    return serializers.DateTimeField(default_timezone=timezone.get_current_timezone()).to_representation


def _from_a_form(field: serializers.Field) -> bool:
    return isinstance(getattr(field.root, "initial_data", None), QueryDict)


class StrictIntegerField(serializers.IntegerField):
    """An integer sent as a JSON number (3 or 3.0, not "3" or 3.5), within the column's range: pass
    max_value (the default is INTEGER_MAX, PostgreSQL's integer)."""

    default_error_messages = {"not_a_number": "A whole number is required, not a string."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_value", INTEGER_MAX)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, str) and not _from_a_form(self):
            self.fail("not_a_number")
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, float) and not data.is_integer():
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictFloatField(serializers.FloatField):
    """A number sent as a JSON number, not a string."""

    default_error_messages = {"not_a_number": "A number is required, not a string."}

    def to_internal_value(self, data):
        if isinstance(data, str) and not _from_a_form(self):
            self.fail("not_a_number")
        if isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)
