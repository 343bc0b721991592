"""Pages of the site's lists (issue 27: a list grows only with pagination). `page_of` cuts a
queryset (or a list) into pages of Django's Paginator; templates/_pager.html draws the links in
words ("Newer", "Older", "Page 2 of 7"), keeping the list's filters. A page number that is not a
whole number, or is out of range, shows the first page (never a 404 or a 500)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

PER_PAGE = 50
# the pager's words, in one place (translation): newest-first lists and ranked lists
WORDS = {
    "time": {"previous": "Newer", "next": "Older"},
    "rank": {"previous": "Previous page", "next": "Next page"},
    "where": "Page {number} of {pages}",
    "label": "More pages",
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
                 previous_word=words["previous"], next_word=words["next"],
                 where=WORDS["where"].format(number=number, pages=paginator.num_pages), label=WORDS["label"])
