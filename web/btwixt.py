"""The B'Twixt card set as the pages need it (public data: names, kinds, values, texts), built once per
process for the set in play. games/engine/btwixt/data.py's `catalogue()` re-reads the set's YAML file
on every call (0.3-0.5 s); the pages, the lobby form and every B'Twixt seat name shown
(ratings/templatetags/site_words.py) read it from here instead (issue 27)."""
from __future__ import annotations

from typing import Any

from games.engine.btwixt import data

_built: list[Any] = [None, None]  # [the CardSet it was built from, the catalogue]


def catalogue() -> dict[str, Any]:
    """data.catalogue() of the set in play, built again only when another set is played
    (data.use_cardset): the same dict for every caller, which must not change it."""
    cardset = data.cardset()
    if _built[0] is not cardset:
        _built[:] = [cardset, data.catalogue()]
    return _built[1]


def leaders() -> dict[str, str]:
    """Each leader's id and name ("cersei": "Cersei Lannister")."""
    return catalogue()["leaders"]
