"""Pages of the site's lists (issue 27: a list grows only with pagination). `page_of` cuts a
queryset (or a list) into pages of Django's Paginator; templates/_pager.html draws the links in
words ("Newer", "Older", "Page 2 of 7"), keeping the list's filters. A page number that is not a
whole number, or is out of range, shows the first page (never a 404 or a 500)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_lazy

PER_PAGE = 50
# the pager's words, in one place (translation): newest-first lists and ranked lists
WORDS = {
    "time": {"previous": gettext_lazy("Newer"), "next": gettext_lazy("Older")},
    "rank": {"previous": gettext_lazy("Previous page"), "next": gettext_lazy("Next page")},
    "where": gettext_lazy("Page %(number)s of %(pages)s"),
    "label": gettext_lazy("More pages"),
}


@dataclass
class Pager:
    page: Page
    previous_url: str
    next_url: str
    previous_word: str
    next_word: str
    where: str
    label: str

    @property
    def rows(self) -> list[Any]:
        return list(self.page.object_list)

    @property
    def first_index(self) -> int:
        """The 1-based position of the page's first row (a leaderboard's rank)."""
        return self.page.start_index()


class Concatenated:
    """Querysets one after the other, paged as one list (Paginator asks count() and a slice): each
    part is counted and sliced by the database, so a page reads at most a page of rows however long
    the list, and each part can keep an order its index serves. `total`: the count of all parts
    together when it is cheaper to count than the last part alone (the last part is then counted as
    the rest)."""

    def __init__(self, *parts: Any, total: Any = None):
        self.parts = parts
        self.total = total
        self._counts: list[int] | None = None

    def counts(self) -> list[int]:
        if self._counts is None:
            first = [part.count() for part in self.parts[:-1]]
            last = (self.total.count() - sum(first)) if self.total is not None else self.parts[-1].count()
            self._counts = [*first, max(0, last)]
        return self._counts

    def count(self) -> int:
        return sum(self.counts())

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, cut: slice) -> list[Any]:
        start, stop = cut.start or 0, cut.stop if cut.stop is not None else self.count()
        rows, offset = [], 0
        for part, size in zip(self.parts, self.counts(), strict=True):
            low, high = max(start - offset, 0), min(stop - offset, size)
            if low < high:
                rows.extend(part[low:high])
            offset += size
        return rows


def _url(request: HttpRequest, number: int) -> str:
    query = request.GET.copy()
    if number == 1:
        query.pop("page", None)
    else:
        query["page"] = str(number)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else request.path


def page_of(request: HttpRequest, items: Any, per_page: int | None = None, order: str = "time") -> Pager:
    paginator = Paginator(items, per_page or PER_PAGE)
    raw = request.GET.get("page", "")
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 1
    if not 1 <= number <= paginator.num_pages:
        number = 1
    page = paginator.page(number)
    words = WORDS[order]
    return Pager(page=page,
                 previous_url=_url(request, number - 1) if page.has_previous() else "",
                 next_url=_url(request, number + 1) if page.has_next() else "",
                 previous_word=str(words["previous"]), next_word=str(words["next"]),
                 where=gettext("Page %(number)s of %(pages)s") % {"number": number, "pages": paginator.num_pages},
                 label=str(WORDS["label"]))
