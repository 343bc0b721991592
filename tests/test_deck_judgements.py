"""A saved deck's judgement (legal, every card played) is kept per process (games/services/decks.py,
is_usable; issue 27: every form offering decks judged each of them again), under the deck's id, its
updated_at, its cards and the rules' identity: an edit or other rules show at once."""
from __future__ import annotations

import pytest

from games.engine.lcg import cards as lcg_cards
from games.models import Deck
from games.services import decks
from tests.factories import make_user
from tests.test_lcg_saved_decks_play import playable_legal, save

pytestmark = pytest.mark.django_db


def test_a_judgement_is_kept_and_an_edit_or_other_rules_show_at_once(monkeypatch):
    alys = make_user()
    deck = save(alys, "Gold")
    assert decks.my_usable_decks(alys) == {f"deck:{deck.pk}": "Gold"}
    judged = []
    real = decks.refusal
    monkeypatch.setattr(decks, "refusal", lambda cards: judged.append(cards) or real(cards))
    assert decks.my_usable_decks(alys) == {f"deck:{deck.pk}": "Gold"} and judged == []  # kept: not judged again
    # an edit through the site (updated_at renewed): judged again at once
    decks.do_update_deck(deck.pk, alys, decks.DeckInput(draw=deck.draw[:-3]))
    assert decks.my_usable_decks(alys) == {} and len(judged) == 1
    # cards changed behind the site's back (updated_at as it was): the cards are in the key too
    Deck.objects.filter(pk=deck.pk).update(draw=playable_legal()["draw"])
    assert decks.my_usable_decks(alys) == {f"deck:{deck.pk}": "Gold"}
    # other rules (a card the engine no longer plays): judged again at once
    missing = deck.draw[0]
    monkeypatch.setattr(lcg_cards, "ABILITIES", {k: v for k, v in lcg_cards.ABILITIES.items() if k != missing})
    assert decks.my_usable_decks(alys) == {}
    # another player reads their own decks
    assert decks.my_usable_decks(make_user()) == {}
