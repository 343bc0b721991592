"""Every card that changes the other card, the board or the tracks (the "changers") against every
card of the other houses, both as attacker and as defender: the combat ends, the texts' choices are
listed and accepted, and the invariants hold (R222: cards that change other cards work against all)."""
from __future__ import annotations

from typing import Any

import pytest

from games.engine.agot import bot, combat
from games.engine.agot.data import house_cards
from games.engine.base import get_ruleset

RS = get_ruleset("agot")
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
CHANGERS = ["tyrion_lannister", "aeron_damphair", "mace_tyrell", "queen_of_thorns", "doran_martell", "balon_greyjoy",
            "patchface", "cersei_lannister", "salladhor_saan", "robb_stark", "arianne_martell", "ser_loras_tyrell",
            "roose_bolton", "renly_baratheon", "the_blackfish", "ser_kevan_lannister"]


def _battle(att: str, dfn: str) -> dict[str, Any]:
    rest = [h for h in SIX if h not in (att, dfn)]
    setup = {
        "units": {"stoney_sept": {att: ["knight", "footman"]}, "harrenhal": {att: ["footman"]},
                  "crackclaw_point": {dfn: ["footman"]}, "blackwater": {dfn: ["footman", "knight"]},
                  "the_eyrie": {rest[0]: ["footman"]}, "winterfell" if "stark" not in (att, dfn) else "pyke": {rest[1]: ["footman"]}},
        "garrisons": {}, "neutral_forces": {}, "power": {att: 5, dfn: 5},
        "tracks": {"iron_throne": [dfn, att, *rest], "fiefdoms": [att, *rest, dfn], "kings_court": [att, dfn, *rest]},
        "orders": {"stoney_sept": {att: "march+0"}, "harrenhal": {att: "support+0"}, "crackclaw_point": {dfn: "consolidate"},
                   "blackwater": {dfn: "defense+1"}, "the_eyrie": {rest[0]: "march-1"}},
    }
    state = RS.scenario_game(SIX, {"tides_of_battle": True}, 3, setup, "action")
    state, _ = RS.apply(state, att, {"march": {"from": "stoney_sept", "moves": {"blackwater": ["knight", "footman"]}}})
    return state


def _fight(att: str, acard: str, dfn: str, dcard: str) -> dict[str, Any]:
    state = _battle(att, dfn)
    played = {att: acard, dfn: dcard}
    for _ in range(40):
        if not combat.in_progress(state):
            break
        seat = sorted(RS.pending(state))[0]
        d = state["decision"]
        if d["kind"] == "house_card" and not (state["combat"].get("_current") or {}).get("replace"):
            act: dict[str, Any] = {"house_card": played[seat]}
        else:
            legal = RS.legal_actions(state, seat)
            assert legal, d
            assert RS.default_action(state, seat) in legal
            # use the text (the first option that is not a refusal) to exercise it
            act = next((a for a in legal if a.get("choose") is not False), legal[0])
        state, _ = RS.apply(state, seat, act)
        bot.check_invariants(state)
    assert not combat.in_progress(state)
    assert state["combat"]["winner"] in (att, dfn)
    return state


def _houses_cards(house: str) -> list[str]:
    return sorted(c for c, d in house_cards().items() if d["house"] == house)


@pytest.mark.parametrize("changer", CHANGERS)
def test_changer_against_every_card_of_another_house(changer: str) -> None:
    mine = house_cards()[changer]["house"]
    others = [h for h in SIX if h != mine]
    for i, other in enumerate(others):
        for card in _houses_cards(other):
            if i % 2 == 0:
                _fight(mine, changer, other, card)
            else:
                _fight(other, card, mine, changer)
