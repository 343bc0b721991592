"""What a serving process loads before it takes requests (westeros/heap.py calls `warm_up` before it
freezes the objects alive): the rulesets and the data every page and action reads, which were
otherwise built by the first request that needed them (the B'Twixt catalogue, the board's geometry,
the card and army catalogues). Loaded now, they cost no visitor a slow first page, and they are
frozen with the rest of what the process loaded, so full collections no longer walk them (issue 27)."""
from __future__ import annotations


def warm_up() -> bool:
    """Load them, once Django is set up (returns whether it could)."""
    from django.apps import apps

    if not apps.ready:
        return False
    from django.conf import settings
    from django.utils import translation

    from games.runner import warm_up as import_rulesets
    from web import board, btwixt, lcg, minis

    import_rulesets()
    lcg.catalogue()
    for language, _ in settings.LANGUAGES:  # the pages' data in each language the site speaks (issue 29)
        with translation.override(language):
            board.agot_board_json()
            btwixt.catalogue()
            minis.page_catalogue()
            lcg.page_catalogue()
    return True
