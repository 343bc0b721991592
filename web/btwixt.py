"""The B'Twixt card set as the pages need it (public data: names, kinds, values, texts), built once per
process for the set in play and each language. games/engine/btwixt/data.py's `catalogue()` re-reads the
set's YAML file on every call (0.3-0.5 s); the pages, the lobby form and every B'Twixt seat name shown
(ratings/templatetags/site_words.py) read it from here instead (issue 27). In Spanish (issue 29) the
leaders and cards the Spanish rules name carry their Spanish names (the glossary, games/i18n/glossary:
"Jon Nieve", "Traición"); the others, the project's own reference cards, keep their English names, and
the cards' texts are said in Spanish (web/btwixt_texts.py)."""
from __future__ import annotations

import copy
from typing import Any

from django.utils.translation import get_language

from games.engine.btwixt import data

_built: list[Any] = [None, None]  # [the CardSet it was built from, {language: the catalogue}]


def _spanish(catalogue: dict[str, Any]) -> dict[str, Any]:
    """The catalogue with the Spanish names the glossary gives and the cards' texts in Spanish (built
    while Spanish is the active language; the texts are marked in web/btwixt_texts.py)."""
    from django.utils.translation import gettext

    from games.i18n import glossary

    def named(english: str) -> str:
        try:
            return glossary.term("btwixt", english)
        except LookupError:  # a card the glossary lacks keeps its English name
            return english

    out = copy.deepcopy(catalogue)
    out["leaders"] = {k: named(v) for k, v in out["leaders"].items()}
    for card in out["cards"].values():
        card["name"] = named(card["name"])
        card["texts"] = [{**t, "text": gettext(t["text"])} if t.get("text") else t for t in card["texts"]]
    return out


def catalogue() -> dict[str, Any]:
    """data.catalogue() of the set in play in the active language, built again only when another set is
    played (data.use_cardset): the same dict for every caller of a language, which must not change it."""
    cardset = data.cardset()
    if _built[0] is not cardset:
        _built[:] = [cardset, {"en": data.catalogue()}]
    language = "es" if (get_language() or "").startswith("es") else "en"
    found = _built[1].get(language)
    if found is None:
        found = _built[1][language] = _spanish(_built[1]["en"])
    return found


def leaders() -> dict[str, str]:
    """Each leader's id and name ("cersei": "Cersei Lannister")."""
    return catalogue()["leaders"]
