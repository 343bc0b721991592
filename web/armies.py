"""The miniatures army builder page (issue 33, /armies/): the starter boxes' units, attachments, Commanders and
NCUs (games/engine/minis/data/starter_armies.yaml), an army built with the server's validation as you go
(/api/v1/armies/validate: points, the VP the game size needs, refusals in words), saved, renamed, copied, deleted,
imported and exported as the builders' plain text; the starter armies offered to everyone. The page's script
(static/js/army_builder.js) talks to /api/v1/armies; card names come in the reader's language."""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine.minis import armies as rules
from games.engine.minis import data
from games.engine.narration import term

TYPES = ("infantry", "cavalry", "monster", "war_machine")


def page_cards() -> dict[str, dict]:
    """The cards an army may hold, as the page shows them (names and types in the reader's language)."""
    out = {}
    for cid, c in data.content()["cards"].items():
        if c["kind"] == "tactics":
            continue
        row = {"name": rules.name(cid), "kind": c["kind"], "faction": c["faction"], "cost": c.get("cost", 0),
               "commander": bool(c.get("commander")), "character": rules.character(cid),
               "abilities": [a["name"] for a in c.get("abilities", [])]}
        if c["kind"] == "unit":
            row.update(type=c["type"], type_name=term("minis", c["type"].replace("_", " ").title()),
                       solo=str(c.get("tray", "")).startswith("solo"), speed=c.get("speed"),
                       defense=c.get("defense_save"), morale=c.get("morale"))
        if c["kind"] == "attachment":
            row.update(attaches_to=c.get("attaches_to"), tactics=list(c.get("tactics_cards", [])))
        out[cid] = row
    return out


def tactics_names() -> dict[str, str]:
    return {cid: term("minis", c["name"]) for cid, c in data.content()["cards"].items() if c["kind"] == "tactics"}


def army_builder(request: HttpRequest) -> HttpResponse:
    words = {"factions": {f: rules.house(f) for f in (*data.FACTIONS, "neutral")},
             "types": {t: term("minis", t.replace("_", " ").title()) for t in TYPES}}
    return render(request, "web/army_builder.html", {
        "cards": page_cards(), "tactics": tactics_names(), "words": words,
        "factions": [(f, rules.house(f)) for f in data.FACTIONS], "sizes": rules.GAME_SIZES,
        "min_size": rules.MIN_SIZE, "max_size": rules.MAX_SIZE,
    })
