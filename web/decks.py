"""The card game's deck builder page (issue 30): the Core Set's cards, filterable, a deck built with the server's
validation as you go (/api/v1/decks/validate), saved, renamed, copied, deleted, imported and exported in
ThronesDB's plain text; the ready-made decks offered to everyone. The page's script (static/js/deck_builder.js)
talks to /api/v1/decks; the cards come in the reader's language (web/lcg.py page_catalogue)."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.lcg import data
from games.engine.lcg import decks as rules
from games.engine.narration import term
from web.lcg import page_catalogue

TYPE_TERMS = {"character": "Character", "location": "Location", "attachment": "Attachment", "event": "Event",
              "plot": "Plot", "agenda": "Agenda"}


def builder_words() -> dict:
    """The game's words the page shows, in the reader's language (the rulebooks' terms)."""
    return {
        "types": {t: term("lcg", english) for t, english in TYPE_TERMS.items()},
        "factions": {f: rules.house(f) for f in (*data.FACTIONS, "neutral")},
        "icons": {i: term("lcg", i.title()) for i in data.ICONS},
    }


def deck_builder(request: HttpRequest) -> HttpResponse:
    catalogue = page_catalogue()
    cards = {cid: c for cid, c in catalogue["cards"].items() if c["type"] in TYPE_TERMS and cid != "blank"}
    return render(request, "web/deck_builder.html", {
        "cards": cards, "words": builder_words(),
        "factions": [(f, rules.house(f)) for f in data.FACTIONS],
        "types": [(t, term("lcg", english)) for t, english in TYPE_TERMS.items() if t != "agenda"],
    })
