"""Last Stand (40213, the Greatjon's Tactics card): "when a friendly unit is destroyed: before it is
removed it makes one Melee Attack action with its highest attack-dice value; a House Umber unit may
re-roll any attack dice for it" (M57, M83, M92, M100, M104-M105, M110-M112, M128) (issue 18)."""
from __future__ import annotations

from games.engine import get_ruleset
from games.engine.minis import table as T

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
# the Greatjon commands, so Last Stand is in Stark's deck (M16)
GREATJON = {"commander": "20202", "units": [{"unit": "10203", "attachment": "20202"}, {"unit": "10201"}],
            "ncus": []}
# the Guardsmen's 6 dice: two natural 6 -> 2 hits; the Berserkers' Defense [1, 1]: 2 wounds, destroyed
KILL = [6, 6, 1, 1, 1, 1, 1, 1]


def game(hand, dice, guards_wounds=12, swords=True, options=None):
    units = {"berserkers": {"card": "10203", "at": [24, 20], "facing": 0, "wounds": 2},
             "guards": {"card": "10101", "at": [24, 20], "facing": 180, "wounds": guards_wounds,
                        "order_used": True}}
    if swords:
        units["swords"] = {"card": "10201", "at": [6, 6], "facing": 0, "activated": True}
        units["guards_b"] = {"card": "10101", "at": [42, 42], "facing": 180, "order_used": True}
    setup = {"armies": {"stark": GREATJON}, "first_player": "lannister", "units": units,
             "hands": {"stark": hand, "lannister": []}, "dice": dice}
    return R.scenario_game(SEATS, options or {}, 1, setup, "activation")


def pass_other_windows(s):
    """Pass the reaction windows other than `unit_destroyed` (reaction_prompts: all asks at each)."""
    while s["decision"] and s["decision"]["kind"] == "react" and s["decision"]["window"] != "unit_destroyed":
        s, _ = R.apply(s, s["decision"]["seats"][0], {"pass": True})
    return s


def guards_attack(s):
    s, _ = R.apply(pass_other_windows(s), "lannister", {"activate": "guards"})
    s, ev = R.apply(pass_other_windows(s), "lannister", {"attack": {"target": "berserkers"}})
    return pass_other_windows(s), ev


def test_last_stand_the_destroyed_unit_attacks_with_its_highest_dice_and_umber_rerolls():
    # Last Stand: 9 dice (Berserker Axes 7/8/9: the highest value, M100) at 3+: [3, 3, 3, 3, 1 x 5]
    # -> 4 hits; House Umber re-rolls die 4 -> 3: 5 hits; Defense 3+ [1 x 5]: 5 wounds; Panic 6 + 6
    # passes. Then the Berserkers are removed and the Guardsmen's attack ends: they may Surge.
    s, _ = guards_attack(game(["40213"], KILL + [3, 3, 3, 3, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 6, 6, 1]))
    assert s["units"]["berserkers"]["destroyed"] and "berserkers" not in T.live(s)
    assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "unit_destroyed"
    assert {"play": {"card": "40213", "mode": 0, "target": "guards"}} in R.legal_actions(s, "stark")
    s, ev = R.apply(s, "stark", {"play": {"card": "40213"}})
    assert {"type": "last_stand", "unit": "berserkers", "target": "guards"} in ev
    assert "berserkers" in T.live(s) and T.engaged_with(s, "berserkers") == ["guards"]
    la = s["last_attack"]
    assert la["attacker"] == "berserkers" and la["dice_count"] == 9 and la["kind"] == "melee"
    assert R.pending(s) == {"stark": "reroll"}
    s, ev = R.apply(s, "stark", {"reroll": [4]})
    assert s["units"]["guards"]["wounds"] == 7
    assert {"type": "removed", "unit": "berserkers"} in ev
    assert "berserkers" not in T.live(s)
    assert s["players"]["stark"]["discards"] == ["40213"] and s["players"]["stark"]["hand"] == []
    # the Guardsmen's own attack is the last attack again, and ends with its Surge (M71)
    assert s["last_attack"]["attacker"] == "guards" and s["last_attack"]["destroyed"]
    assert R.pending(s) == {"lannister": "surge"}
    assert s["vp"] == {"stark": 0, "lannister": 1}


def test_last_stand_not_held_the_unit_is_removed_at_once():
    s, _ = guards_attack(game([], KILL))
    assert "berserkers" not in T.live(s)
    assert R.pending(s) == {"lannister": "surge"}
    assert not s["units"]["berserkers"].get("standing")


def test_last_stand_that_destroys_the_attacker_leaves_it_no_surge():
    # Guardsmen at 3 wounds: the Last Stand's 9 hits at 3+ ([3] x 9), Defense [1, 1, 1]... 3 wounds
    # are enough: the Guardsmen are destroyed by the dying unit; each side scores 1 VP (M129)
    dice = KILL + [3] * 9 + [1] * 9
    s, _ = guards_attack(game(["40213"], dice, guards_wounds=3))
    s, _ = R.apply(s, "stark", {"play": {"card": "40213", "target": "guards"}})
    assert R.pending(s) == {"stark": "reroll"}
    s, _ = R.apply(s, "stark", {"reroll": []})
    assert s["units"]["guards"]["destroyed"] and s["units"]["berserkers"]["destroyed"]
    assert s["vp"] == {"stark": 1, "lannister": 1}
    assert "surge" not in R.pending(s).values()
    assert not s["over"]  # Stark still has its Sworn Swords


def test_last_stand_of_a_last_unit_taking_the_last_enemy_wins_by_elimination():
    # M128 waits for the removal: the last unit may still make its Last Stand; the Guardsmen, the last
    # Lannister unit, fall while the Berserkers still stand: Lannister has no unit left first
    dice = KILL + [3] * 9 + [1] * 9
    s, _ = guards_attack(game(["40213"], dice, guards_wounds=3, swords=False))
    assert not s["over"]
    s, _ = R.apply(s, "stark", {"play": {"card": "40213"}})
    s, _ = R.apply(s, "stark", {"reroll": []})
    assert s["over"] and s["result"] == "elimination" and s["winner"] == "stark"


def test_last_stand_declined_by_the_last_unit_loses_by_elimination():
    s, _ = guards_attack(game(["40213"], KILL, swords=False))
    assert R.pending(s) == {"stark": "react"}
    s, _ = R.apply(s, "stark", {"pass": True})
    assert s["over"] and s["result"] == "elimination" and s["winner"] == "lannister"


def test_last_stand_needs_an_engaged_enemy():
    # destroyed by a Panic test with no enemy in contact: Last Stand has no target, nobody is asked
    units = {"berserkers": {"card": "10203", "at": [12, 10], "facing": 0, "wounds": 1},
             "swords": {"card": "10201", "at": [6, 30], "facing": 0, "activated": True},
             "guards": {"card": "10101", "at": [36, 40], "facing": 180, "activated": True}}
    setup = {"armies": {"stark": GREATJON}, "first_player": "lannister", "units": units,
             "hands": {"stark": ["40213"], "lannister": []}, "ncus": {"30104": {"activated": False}},
             "dice": [1, 1, 1]}
    s = R.scenario_game(SEATS, {}, 1, setup, "activation")
    s, _ = R.apply(s, "lannister", {"activate": "30104"})
    s, _ = R.apply(s, "lannister", {"claim": {"zone": "crown", "target": "berserkers"}})
    assert s["units"]["berserkers"]["destroyed"] and "berserkers" not in T.live(s)
    assert "react" not in R.pending(s).values()
    assert s["players"]["stark"]["hand"] == ["40213"]


def test_last_stand_prompt_under_reaction_prompts_all_does_not_depend_on_the_hand():
    # with the Greatjon's deck, Stark is asked at every friendly destruction, holding the card or not
    for hand in (["40213"], ["40201"]):
        s, _ = guards_attack(game(hand, KILL, options={"reaction_prompts": "all"}))
        assert R.pending(s) == {"stark": "react"} and s["decision"]["window"] == "unit_destroyed"
        plays = [a for a in R.legal_actions(s, "stark") if "play" in a]
        assert bool(plays) == (hand == ["40213"])


def test_last_stand_in_random_play_keeps_the_invariants():
    """Seeded random play from a table where units are about to fall, both Last Stands in hand: the
    invariants hold after every action (trays, wounds, VP from their sources) and the card is played."""
    import random

    from games.engine import rng
    from games.engine.minis import bot

    played = 0
    for seed in range(12):
        s = game(["40213", "40213"], [])
        s["dice"], s["rng"] = None, rng.seed_state(seed)
        s["units"]["swords"].update(at=[21, 24.8], facing=90, activated=False, wounds=3)  # on the Guardsmen's flank
        s["units"]["guards"]["wounds"] = 4
        rnd = random.Random(seed)
        for _ in range(400):
            if R.is_over(s):
                break
            seat = rnd.choice(sorted(R.pending(s)))
            s, ev = R.apply(s, seat, R.random_action(s, seat, rnd))
            bot.check_invariants(s, ev)
            played += sum(1 for e in ev if e["type"] == "last_stand")
    assert played >= 1, played  # seeded: the same games every run
