"""Ability texts of Core Set cards beyond the learn-to-play decks (games/engine/lcg/data/core_set.yaml's
`ability`): the agendas and the titles, marked for translation as web/lcg_texts.py's are; that module adds them
to its TEXTS. (Fealty's text is marked in web/lcg_texts_martell_watch.py, which marked it first.)"""
from __future__ import annotations

from django.utils.translation import gettext_noop

TEXTS: tuple[str, ...] = (
    gettext_noop("Constant: You may choose any number of opponents and apply your [intrigue] claim against each of them."),
    gettext_noop("Constant: In a [military] challenge in which you attack a player holding a rival title, your revealed plot's claim value is raised by 1."),
    gettext_noop("Constant: During the challenges phase you may initiate 1 extra [power] challenge, provided it is against a different opponent than your other [power] challenge."),
    gettext_noop("Constant: In the draw phase you draw 1 more card than normal."),
    gettext_noop("Constant: Once this round you may redirect a challenge."),
    gettext_noop("Constant (deck building): Your deck may contain [baratheon] cards that are not loyal, and it must contain at least 12 [baratheon] cards."),
    gettext_noop("Constant (deck building): Your deck may contain [lannister] cards that are not loyal, and it must contain at least 12 [lannister] cards."),
    gettext_noop("Constant (deck building): Your deck may contain [martell] cards that are not loyal, and it must contain at least 12 [martell] cards."),
    gettext_noop("Constant (deck building): Your deck may contain [thenightswatch] cards that are not loyal, and it must contain at least 12 [thenightswatch] cards."),
    gettext_noop("Constant (deck building): Your deck may contain [stark] cards that are not loyal, and it must contain at least 12 [stark] cards."),
    gettext_noop("Constant (deck building): Your deck may contain [targaryen] cards that are not loyal, and it must contain at least 12 [targaryen] cards."),
)
