"""The board game's card texts shown on its page (web/board.py): the house cards' abilities
(games/engine/agot/data/house_cards.yaml) and what the wildling cards do (wildling_cards.yaml), marked for
translation. The seeds print no Spanish text of these cards (the Westeros cards' effects come from the
rulebook: web/data/westeros_cards_es.yaml), so the catalogue says them with the rulebook's words (issue 29);
tests/test_agot_in_spanish.py checks that every text of the data is here."""
from __future__ import annotations

from django.utils.translation import gettext_noop

TEXTS = (
    gettext_noop("If you win this combat, you (not the loser) choose the area the defeated units retreat to. It must be a legal retreat area, and it must be one where the loser loses the fewest units."),
    gettext_noop("If you lose this combat, take your whole House card discard pile back into your hand, this card included."),
    gettext_noop("In this combat you suffer no casualties caused by House card text, by sword icons, or by Tides of Battle cards."),
    gettext_noop("If you have a Defense order in the embattled area, its bonus counts double."),
    gettext_noop("If you win this combat, take two Power tokens from the Power Pool."),
    gettext_noop("If you are the attacker, each of your Footmen in this combat (attacking ones, and Lannister Footmen supporting you) adds 2 to your combat strength instead of 1."),
    gettext_noop("You may cancel the House card your opponent revealed; it goes back to their hand and they must reveal a different House card instead. If they have no other card in hand, they fight this combat without a House card."),
    gettext_noop("If you win this combat, you may remove one Order token of the defeated opponent from any area of the board."),
    gettext_noop("If you are the attacker, each of your Ships in this combat (attacking ones, and Greyjoy Ships supporting you) adds 2 to your combat strength instead of 1."),
    gettext_noop("The printed combat strength of your opponent's House card counts as 0 (its icons and text still apply)."),
    gettext_noop("If you are defending an area that has a Castle or a Stronghold, this card gets +1 combat strength and one sword icon."),
    gettext_noop("If no one is supporting you in this combat, this card gets two sword icons and one fortification icon."),
    gettext_noop("You may discard two of your available Power tokens to discard this card and use a different House card from your hand instead (if you have one)."),
    gettext_noop("Destroy one of your opponent's Footmen that is attacking or defending in this combat (not a supporting one)."),
    gettext_noop("If you are the attacker and win, move the March order you used into the conquered area instead of removing it; it may be resolved again later this round."),
    gettext_noop("Remove one of your opponent's Order tokens from any single area adjacent to the embattled area. The March order that started this combat cannot be chosen."),
    gettext_noop("If your opponent is placed higher than you on the Iron Throne track, this card gets +1 combat strength."),
    gettext_noop("If you win this combat, you may upgrade one of your Footmen that took part in the combat, or one supporting Baratheon Footman, to a Knight."),
    gettext_noop("If your \"Stannis Baratheon\" card is in your discard pile, this card gets +1 combat strength and one sword icon."),
    gettext_noop("If you are being supported in this combat, every non-Baratheon Ship involved (attacking, defending or supporting) contributes 0 combat strength."),
    gettext_noop("After combat, you may look at your opponent's hand of House cards and discard one card of your choice from it."),
    gettext_noop("If you are defending, this card gets one fortification icon; if you are attacking, it gets one sword icon."),
    gettext_noop("If you are defending and lose this combat, the attacker may not move into the embattled area: the attacking units go back to the area they marched from. Your own units still have to retreat."),
    gettext_noop("Move your opponent to the last position of one Influence track of your choice; the houses that were below them move up one place."),
    gettext_noop("Nothing happens."),
    gettext_noop("The wildlings attack again at once with strength 6. The highest bidder of this attack does not bid against the new attack and gets no reward or penalty from it."),
    gettext_noop("Chooses one: destroy 2 of their units anywhere on the board, or drop 2 positions on whichever Influence track they currently stand highest."),
    gettext_noop("May immediately swap up to 2 of their Footmen, anywhere on the board, for available Knights."),
    gettext_noop("Every one of their Knights on the board is replaced by an available Footman; a Knight that cannot be replaced is destroyed."),
    gettext_noop("Replace 2 of their Knights with available Footmen; a Knight that cannot be replaced is destroyed."),
    gettext_noop("Moves up 1 position on the Supply track (6 at most)."),
    gettext_noop("Moves down 2 positions on the Supply track (0 at least), then reconciles armies."),
    gettext_noop("Move down 1 position on the Supply track (0 at least), then reconcile armies."),
    gettext_noop("Takes every card in their House card discard pile back into their hand."),
    gettext_noop("If they hold more than one House card, they discard every card in hand that has the highest combat strength among their cards in hand."),
    gettext_noop("If they hold more than one House card, they choose one card in hand and discard it."),
    gettext_noop("Moves to position 1 of one Influence track of their choice and takes that track's Dominance token."),
    gettext_noop("Moves to the last position of all three Influence tracks."),
    gettext_noop("In turn order, each chooses the Fiefdoms track or the King's Court track and moves to the last position of that track."),
    gettext_noop("May take one House card of their choice from their discard pile back into their hand."),
    gettext_noop("Destroys 3 of their units anywhere on the board."),
    gettext_noop("Destroy 2 of their units anywhere on the board."),
    gettext_noop("May muster, under the normal mustering rules, in one Castle or Stronghold area they control."),
    gettext_noop("Destroys 2 of their units in one Castle or Stronghold area they control; if they cannot, destroys 2 of their units anywhere."),
    gettext_noop("Destroy 1 of their units anywhere on the board."),
    gettext_noop("Gets back all the Power tokens they bid on this attack (returned to their available Power)."),
    gettext_noop("Discards all of their available Power tokens."),
    gettext_noop("Discard 2 available Power tokens, or as many as they have if fewer."),
)
