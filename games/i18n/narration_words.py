"""The narrators' words on the site (issue 29): the engines write their log sentences through
`games.engine.narration`'s gettext/ngettext/pgettext/term, which answer English until a host installs
its words. The site installs `SiteWords` once, when the games app is ready: each call then follows
Django's active language, the request's (westeros/i18n.py) or a recipient's (in_language_of), so the
same stored events read in each reader's language. Game terms come from the Spanish glossary
(games/i18n/glossary) when the active language is Spanish; English otherwise, and for a term the
glossary lacks (a narrator never fails for want of a word)."""
from __future__ import annotations

from django.utils import translation

from games.i18n import glossary


class SiteWords:
    def gettext(self, message: str) -> str:
        return translation.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return translation.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return translation.pgettext(context, message)

    def term(self, game: str, english: str, kind: str | None = None, plural: bool = False) -> str:
        if not (translation.get_language() or "").startswith("es"):
            return english
        try:
            return glossary.term(game, english, kind, plural)
        except LookupError:  # KeyError too: a term outside the glossary keeps its English name
            return english
