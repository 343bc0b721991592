"""Scoring (B50-B56) and end-of-game ally abilities, on states built through scenario setups."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.btwixt import flow

R = get_ruleset("btwixt")
SEATS = ["olenna", "tyrion", "daenerys", "jon_snow"]


def _final(councils, seed=1):
    """Last round of Winter with empty hands: Olenna wins at 0, puts Lancel (2) and a 1 in Olenna-Tyrion."""
    state = R.scenario_game(SEATS, {}, seed, {
        "season": "winter", "round": 5, "first_player": "olenna",
        "hands": {s: [] for s in SEATS}, "councils": councils,
        "decks": {"allies": ["lancel_lannister"], "tokens": [1]},
    }, "round")
    state, _ = R.apply(state, "olenna", {"claim": "olenna-tyrion"})
    state, _ = R.apply(state, "olenna", {"token": "olenna-tyrion"})
    assert R.is_over(state)
    return state


def test_lesser_council_then_other_council_B52_B54():
    st = _final({
        "tyrion-daenerys": {"allies": ["eddard_stark"], "tokens": [3]},            # 8
        "daenerys-jon_snow": {"allies": ["khal_drogo"], "tokens": [2]},            # 8
        "jon_snow-olenna": {"allies": ["oberyn_martell", "asha_greyjoy"], "tokens": [3]},  # 12
    })
    # olenna-tyrion: lancel 2 + 1 = 3
    assert st["score"]["daenerys"] == {"lesser": 8, "other": 8, "allies": 2}
    assert st["score"]["jon_snow"] == {"lesser": 8, "other": 12, "allies": 3}
    assert st["winners"] == ["jon_snow"]
    assert R.ranking(st)[:2] == ["jon_snow", "daenerys"]


def test_tie_on_both_councils_goes_to_more_allies_B55():
    st = _final({
        "tyrion-daenerys": {"allies": ["eddard_stark"], "tokens": [2]},                     # 7
        "daenerys-jon_snow": {"allies": ["khal_drogo"], "tokens": [1]},                     # 7
        "jon_snow-olenna": {"allies": ["ygritte", "osha", "missandei"], "tokens": [1]},     # 7
    })
    assert st["score"]["daenerys"]["lesser"] == st["score"]["jon_snow"]["lesser"] == 7
    assert st["score"]["daenerys"]["other"] == st["score"]["jon_snow"]["other"] == 7
    assert st["winners"] == ["jon_snow"]


def test_full_tie_is_a_shared_victory_B56():
    st = _final({
        "tyrion-daenerys": {"allies": ["eddard_stark"], "tokens": [2]},     # 7
        "daenerys-jon_snow": {"allies": ["khal_drogo"], "tokens": [1]},     # 7
        "jon_snow-olenna": {"allies": ["oberyn_martell"], "tokens": [2]},   # 7
    })
    assert sorted(st["winners"]) == ["daenerys", "jon_snow"]


def test_end_game_ally_bonuses_B51():
    st = _final({
        "tyrion-daenerys": {"allies": ["robb_stark", "eddard_stark", "catelyn_stark"], "tokens": []},
        "daenerys-jon_snow": {"allies": ["maester_aemon"], "tokens": [1, 1, 1, 1]},
        "jon_snow-olenna": {"allies": ["arya_stark"], "tokens": []},
    })
    assert flow.council_power(st, "tyrion-daenerys") == 3 + 5 + 3 + 2  # Robb +1 per other Stark
    assert flow.council_power(st, "daenerys-jon_snow") == 1 + 4 + 3   # Aemon +1 per token, at most 3
    assert flow.council_power(st, "jon_snow-olenna") == 2 + 2         # Arya +2 with 3 or fewer allies


def test_token_values_hidden_until_the_end_B40():
    state = R.scenario_game(SEATS, {}, 1, {"councils": {"olenna-tyrion": {"tokens": [3]}}}, "round")
    for viewer in [*SEATS, None]:
        s = R.summary(state, viewer)
        assert s["councils"]["olenna-tyrion"]["tokens"] == "hidden"
        assert s["councils"]["olenna-tyrion"]["power"] == "hidden"
        assert s["councils"]["olenna-tyrion"]["token_count"] == 1
        assert R.view(state, viewer)["councils"]["olenna-tyrion"]["tokens"] == ["hidden"]
