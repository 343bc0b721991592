"""House card texts (games/engine/agot/cards.py, R218-R227, house_cards.yaml): every card's timing is
handled, D21 defaults, and the edge cases the scenarios (tests/scenarios/agot/card-*.yaml) do not pin."""
from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.agot import bot, cards, combat
from games.engine.agot.data import house_cards
from games.engine.base import get_ruleset

RS = get_ruleset("agot")
SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
PASSIVE = {"robb_stark", "roose_bolton", "ser_loras_tyrell", "arianne_martell"}  # acted on in combat.py
MODIFIERS = {"the_blackfish", "catelyn_stark", "ser_kevan_lannister", "victarion_greyjoy", "balon_greyjoy",
             "theon_greyjoy", "asha_greyjoy", "stannis_baratheon", "ser_davos_seaworth", "salladhor_saan",
             "nymeria_sand"}


def test_every_card_text_is_implemented_with_its_timing() -> None:
    with_text = {cid for cid, c in house_cards().items() if c.get("ability")}
    assert len(house_cards()) == 42
    assert with_text == set(cards.ABILITIES) | PASSIVE | MODIFIERS
    for cid, ability in cards.ABILITIES.items():
        assert ability.timing == house_cards()[cid]["timing"], cid
    for cid in MODIFIERS:
        assert house_cards()[cid]["timing"] == "combat", cid


def battle(att: str, dfn: str, *, hands: dict | None = None, discards: dict | None = None, power: dict | None = None,
           att_units: tuple[str, ...] = ("knight", "footman"), units: dict | None = None, fief: list[str] | None = None) -> dict:
    """att marches from Stoney Sept into Blackwater held by dfn; Iron Throne: att, dfn, the rest."""
    rest = [h for h in SIX if h not in (att, dfn)]
    all_units = {"stoney_sept": {att: list(att_units)}, "blackwater": {dfn: ["footman", "knight"]},
                 "the_eyrie": {rest[0]: ["footman"]}, **(units or {})}
    setup: dict[str, Any] = {"units": all_units, "garrisons": {}, "neutral_forces": {},
                             "tracks": {"iron_throne": [att, dfn, *rest], "fiefdoms": fief or [*rest, att, dfn],
                                        "kings_court": [att, dfn, *rest]},
                             "orders": {"stoney_sept": {att: "march+0"}, "the_eyrie": {rest[0]: "march-1"}}}
    for key, value in (("hands", hands), ("discards", discards), ("power", power)):
        if value:
            setup[key] = value
    state = RS.scenario_game(SIX, {}, 3, setup, "action")
    state, _ = RS.apply(state, att, {"march": {"from": "stoney_sept", "moves": {"blackwater": list(att_units)}}})
    return state


def play(state: dict, *acts: tuple[str, dict]) -> dict:
    for seat, a in acts:
        state, _ = RS.apply(state, seat, a)
    return state


def test_d21_may_abilities_default_to_decline_and_are_listed() -> None:
    state = play(battle("lannister", "stark"), ("lannister", {"house_card": "tyrion_lannister"}),
                 ("stark", {"house_card": "eddard_stark"}))
    assert RS.pending(state) == {"lannister": "choose"}
    assert state["decision"]["owner"] == "combat" and state["decision"]["ability"] == "tyrion_lannister"
    assert RS.legal_actions(state, "lannister") == [{"choose": True}, {"choose": False}]
    assert RS.default_action(state, "lannister") == {"choose": False}
    state = play(state, ("lannister", {"choose": False}))
    assert state["combat"]["cards"] == {"lannister": "tyrion_lannister", "stark": "eddard_stark"}
    assert RS.pending(state) != {"stark": "house_card"}


def test_d21_mandatory_choice_takes_the_first_option_doran_skips_a_track_where_the_opponent_is_last() -> None:
    state = play(battle("lannister", "martell", fief=["stark", "greyjoy", "tyrell", "baratheon", "martell", "lannister"]),
                 ("lannister", {"house_card": "cersei_lannister"}), ("martell", {"house_card": "doran_martell"}))
    legal = RS.legal_actions(state, "martell")
    assert legal[-1] == {"choose": "fiefdoms"}  # Lannister is already last there
    assert RS.default_action(state, "martell") == {"choose": "iron_throne"} == legal[0]
    state = play(state, ("martell", RS.default_action(state, "martell")))
    assert state["tracks"]["iron_throne"][-1] == "lannister"


def test_aeron_is_not_asked_without_two_power() -> None:
    state = play(battle("greyjoy", "stark", power={"greyjoy": 1}), ("greyjoy", {"house_card": "aeron_damphair"}),
                 ("stark", {"house_card": "eddard_stark"}))
    assert state["decision"]["kind"] != "choose"
    assert state["power"]["greyjoy"] == 1


def test_renly_needs_a_knight_in_the_house_supply() -> None:
    five = {"kings_landing": {"baratheon": ["knight", "knight"]}, "kingswood": {"baratheon": ["knight", "knight"]}}
    state = play(battle("baratheon", "stark", units=five), ("baratheon", {"house_card": "renly_baratheon"}),
                 ("stark", {"house_card": "catelyn_stark"}))
    assert state["combat"]["winner"] == "baratheon"
    assert RS.pending(state) == {"stark": "retreat"}  # 5 knights on the board: no upgrade offered


def test_patchface_emptying_the_last_card_refreshes_the_hand() -> None:
    state = play(battle("baratheon", "stark", hands={"stark": ["eddard_stark", "robb_stark"]},
                        discards={"stark": ["roose_bolton", "greatjon_umber", "ser_rodrik_cassel", "the_blackfish",
                                            "catelyn_stark"]}),
                 ("baratheon", {"house_card": "patchface"}), ("stark", {"house_card": "eddard_stark"}))
    assert RS.legal_actions(state, "baratheon") == [{"choose": "robb_stark"}, {"choose": False}]
    state = play(state, ("baratheon", {"choose": "robb_stark"}))
    assert state["discards"]["stark"] == ["robb_stark"]
    assert sorted(state["hands"]["stark"]) == sorted(c for c in house_cards() if house_cards()[c]["house"] == "stark"
                                                      and c != "robb_stark")


def test_tyrion_replacement_lists_only_other_cards_and_defaults_to_one_of_them() -> None:
    state = play(battle("greyjoy", "lannister"), ("greyjoy", {"house_card": "euron_crows_eye"}),
                 ("lannister", {"house_card": "tyrion_lannister"}), ("lannister", {"choose": True}))
    legal = RS.legal_actions(state, "greyjoy")
    assert {"house_card": "euron_crows_eye"} not in legal and len(legal) == 6
    assert RS.default_action(state, "greyjoy") in legal
    # the view of the others during the new choice shows no secret
    view = RS.view(state, "lannister")
    assert "greyjoy" not in view["secret"]


@pytest.mark.parametrize("tides", [False, True])
def test_random_games_every_card_decision_default_is_legal(tides: bool) -> None:
    """Random 6-player games: at every card ability choice and replacement, the default is listed and
    accepted; invariants hold throughout."""
    rand = random.Random(tides)
    seen: set[str] = set()
    for seed in range(3):
        state = RS.new_game(SIX, {"tides_of_battle": tides}, seed)
        while not RS.is_over(state):
            pending = RS.pending(state)
            seat = rand.choice(sorted(pending))
            d = state["decision"]
            if d.get("owner") == "combat" or (combat.in_progress(state) and d["kind"] == "house_card"):
                seen.add(d.get("ability") or "house_card")
                default = RS.default_action(state, seat)
                assert default in RS.legal_actions(state, seat), (d, default)
                RS.apply(state, seat, default)
            state, _ = RS.apply(state, seat, RS.random_action(state, seat, rand))
            bot.check_invariants(state)
    assert "house_card" in seen and seen - {"house_card"}  # some text choice was met (the pairs test has all)
