"""Pages of the API's lists (issue 27: a list grows only with pagination). The leaderboard's style,
for every list: {"count", "next", "previous", "results"}, `?page=N` (from 1) and `?page_size=N`
(at most MAX_PAGE_SIZE). A page that is not a whole number from 1 to the last page, or a page size
out of range, is a 400 in the API's error shape (games.errors.GameError), never a 404 or a 500."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext, gettext_noop
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.errors import GameError

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
# the sentences of this module, in one place (translation)
# the refusals' words, in the request's language (the same sentences as games/api.py's query parameters)
WORDS = {
    "page_not_number": gettext_noop("'%(name)s' must be a whole number."),
    "out_of_range": gettext_noop("'%(name)s' is out of range."),
    "range": gettext_noop("A whole number from %(low)d to %(high)d."),
}


def _whole(raw: str, name: str, low: int, high: int) -> int:
    message = gettext(WORDS["range"]) % {"low": low, "high": high}
    if len(raw) > 20 or not raw.isascii() or not raw.lstrip("-").isdigit():
        raise GameError("invalid", gettext(WORDS["page_not_number"]) % {"name": name}, fields={name: [message]})
    value = int(raw)
    if not low <= value <= high:
        raise GameError("invalid", gettext(WORDS["out_of_range"]) % {"name": name}, fields={name: [message]})
    return value


class ListPagination(PageNumberPagination):
    page_size = PAGE_SIZE
    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param, "")
        if raw == "":
            return self.page_size
        return _whole(raw, self.page_size_query_param, 1, self.max_page_size)

    def paginate_queryset(self, queryset, request: Request, view=None):
        size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, size)
        raw = request.query_params.get(self.page_query_param, "")
        number = 1 if raw == "" else _whole(raw, self.page_query_param, 1, max(1, paginator.num_pages))
        self.page = paginator.page(number)
        self.request = request
        return list(self.page)


def paged(name: str, item: serializers.Serializer | type[serializers.Serializer]):
    """The schema of a page of `item`s (for an APIView's extend_schema)."""
    many = item(many=True) if isinstance(item, type) else item
    return inline_serializer(f"{name}Page", {
        "count": serializers.IntegerField(help_text="how many there are in all"),
        "next": serializers.URLField(allow_null=True, help_text="the next page, null on the last"),
        "previous": serializers.URLField(allow_null=True, help_text="the previous page, null on the first"),
        "results": many,
    })


PAGE_PARAMETERS = [
    OpenApiParameter("page", {"type": "integer", "minimum": 1},
                     description="the page, from 1 (a page past the last is a 400)"),
    OpenApiParameter("page_size", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
                     description=f"items a page (default {PAGE_SIZE}, at most {MAX_PAGE_SIZE})"),
]


class CountedApart:
    """A queryset's rows paged with their count taken from another queryset of the same rows, plainer (the
    same filters, without the annotations a row shows): the database counts the rows without computing
    what each shows (issue 27, ninth round). Paginator asks count() and a slice."""

    def __init__(self, rows: Any, counted: Any):
        self.rows = rows
        self.counted = counted

    def count(self) -> int:
        return self.counted.count()

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, cut: slice) -> list[Any]:
        return list(self.rows[cut])


def page_response(request: Request, view, items: Iterable[Any] | Any,
                  serialize: Callable[[list[Any]], list[Any]]) -> Response:
    """One page of `items` (a queryset or a list), its rows made by `serialize`, in the page shape."""
    paginator = ListPagination()
    rows = paginator.paginate_queryset(items, request, view=view)
    return paginator.get_paginated_response(serialize(rows))


def choice_param(request: Request, name: str, choices) -> str | None:
    """A query parameter that names one of `choices` (an enum of the schema), None when absent: an
    unknown value is a 400 naming the parameter and its choices, in the request's language (issue 28:
    it answered an empty list, as if the value existed)."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    allowed = list(choices)
    if value not in allowed:
        raise serializers.ValidationError({name: [gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(allowed)}]})
    return value
