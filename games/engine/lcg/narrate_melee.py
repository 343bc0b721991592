"""The log in words for the melee's own events (melee.py; issue 31): title selection (L203), the
titles returned (L209), Crown Regent's redirect (L208). Registered into narrate.NARRATORS."""
from __future__ import annotations

from typing import Any

from games.engine.lcg.narrate import REASONS, card, say, seat
from games.engine.narration import gettext, gettext_noop, ngettext

Event = dict[str, Any]


def _titles_selection(ev: Event) -> list[Any]:
    removed = int(ev.get("removed") or 0)
    return say(ngettext("The titles are shuffled face down: %(removed)s is set aside at random, %(offered)s are "
                        "offered.",
                        "The titles are shuffled face down: %(removed)s are set aside at random, %(offered)s are "
                        "offered.", removed), removed=str(removed), offered=str(ev.get("offered")))


def _title_chosen(ev: Event) -> list[Any]:
    return say(gettext("%(seat)s chooses a title in secret."), seat=seat(ev["seat"]))


def _titles_revealed(ev: Event) -> list[Any]:
    held: list[Any] = []
    for i, (s, t) in enumerate((ev.get("titles") or {}).items()):
        piece = (say(gettext("%(seat)s holds %(card)s"), seat=seat(s), card=card(t)) if t
                 else say(gettext("%(seat)s holds no title"), seat=seat(s)))
        held += ["; " if i else "", piece]
    return say(gettext("The titles are revealed: %(titles)s."), titles=held)


def _titles_returned(ev: Event) -> list[Any]:
    return say(gettext("The titles return to the pool."))


def _redirect(ev: Event) -> list[Any]:
    return say(gettext("%(seat)s uses Crown Regent to redirect the challenge."), seat=seat(ev["seat"]))


def _redirected(ev: Event) -> list[Any]:
    return say(gettext("%(seat)s redirects the challenge from %(old)s to %(new)s."), seat=seat(ev["seat"]),
               old=seat(ev.get("from")), new=seat(ev.get("to")))


NARRATORS = {"titles_selection": _titles_selection, "title_chosen": _title_chosen,
             "titles_revealed": _titles_revealed, "titles_returned": _titles_returned, "redirect": _redirect,
             "redirected": _redirected}
REASONS.update({"rivals": gettext_noop("a rival title"), "eliminated": gettext_noop("a player out of the game")})
