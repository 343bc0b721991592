"""The record of a battle (games/engine/agot/combat.py, docs/engine-agot-state.md "The combat
breakdown"): each side's strength line by line, frozen when the victor is decided (R229), so
casualties (R230-R235, R302) and the texts resolved after them (R222.3: Tywin, Cersei, Renly,
Patchface) never rewrite it; the Tides of Battle values are in it once revealed (R300); nothing
chosen or drawn in secret (R219, R298) reaches another seat's view before its reveal. Also the
reason a Raid order is removed by the engine (R139), in the event and in the log's sentence."""
from __future__ import annotations

import json
import random
from typing import Any

from games.engine.agot import narrate
from games.engine.agot.summary import view
from tests.engine.agot_helpers import R, act, game

SIX = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
LANNISTER_HOLDS = ["lannister", "stark", "greyjoy", "tyrell", "baratheon", "martell"]  # blade holder first


def battle(att_units: list[str], dfn_units: list[str], fief: list[str], tides: list[str] | None = None,
           dfn_order: str | None = None) -> dict[str, Any]:
    """Lannister marches from Stoney Sept into the Blackwater, held by Stark."""
    setup: dict[str, Any] = {
        "units": {"stoney_sept": {"lannister": list(att_units)}, "blackwater": {"stark": list(dfn_units)}},
        "garrisons": {}, "neutral_forces": {},
        "tracks": {"iron_throne": SIX, "fiefdoms": fief, "kings_court": SIX},
        "orders": {"stoney_sept": {"lannister": "march+0"},
                   **({"blackwater": {"stark": dfn_order}} if dfn_order else {})},
    }
    if tides:
        setup["decks"] = {"tides": tides}
    state = game(setup, seats=SIX, seed=3, options={"tides_of_battle": tides is not None})
    state, _ = act(state, "lannister", {"march": {"from": "stoney_sept", "moves": {"blackwater": list(att_units)}}})
    return state


def play(state: dict[str, Any], *acts: tuple[str, dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for seat, a in acts:
        state, evs = act(state, seat, a)
        events += evs
    return state, events


def won(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "combat_won")


def test_r229_r230_a_destroyed_attacker_keeps_its_strength_as_it_stood_when_it_lost():
    """Lannister (knight + footman, Tywin) loses 7 to 9 to Stark (Eddard, two swords): both its
    units die as casualties (R231, R235) and Tywin's "if you win" text is resolved after them
    (R222.3). The record still shows the knight and the footman: 3 from units, 7 in all."""
    fief = ["tyrell", "stark", "lannister", "greyjoy", "baratheon", "martell"]  # Tyrell holds the blade
    state = battle(["knight", "footman"], ["footman", "knight", "knight"], fief)
    state, events = play(state, ("lannister", {"house_card": "tywin_lannister"}), ("stark", {"house_card": "eddard_stark"}))
    assert {"type": "casualties", "house": "lannister", "area": "blackwater", "units": ["footman", "knight"],
            "forced": True} in events
    record = state["combat"]
    assert record["winner"] == "stark" and record["decided_by"] == "higher_strength"
    assert record["initial_strength"] == {"lannister": 3, "stark": 5}
    assert record["strength"] == {"lannister": 7, "stark": 9}
    lan, stk = record["breakdown"]["lannister"], record["breakdown"]["stark"]
    assert lan == {"unit_list": ["footman", "knight"], "units": 3, "order": 0, "order_token": "march+0", "garrison": 0,
                   "supporters": {}, "support": 0, "initial": 3, "card_id": "tywin_lannister", "card": 4,
                   "tides_card": None, "tides": 0, "blade": 0, "total": 7}
    assert stk["unit_list"] == ["footman", "knight", "knight"] and stk["units"] == 5 and stk["total"] == 9
    assert won(events)["breakdown"] == record["breakdown"] and won(events)["decided_by"] == "higher_strength"


def test_r302_a_skull_on_the_winner_does_not_lower_its_recorded_units_and_tides_values_are_kept_r300():
    """Tides of Battle: Lannister draws a Two, Stark a Skull. Lannister wins 3+2+2 = 7 to
    3+2+0 = 5 with Jaime, then loses a unit to Stark's skull (R302). The record keeps both units and both Tides values."""
    fief = ["tyrell", "stark", "lannister", "greyjoy", "baratheon", "martell"]  # nobody in the battle holds the blade
    state = battle(["knight", "footman"], ["footman", "knight"], fief, tides=["two", "skull"])
    state, events = play(state, ("lannister", {"house_card": "ser_jaime_lannister"}),
                         ("stark", {"house_card": "greatjon_umber"}))
    record = state["combat"]
    assert record["tides"] == {"lannister": "two", "stark": "skull"}
    lan, stk = record["breakdown"]["lannister"], record["breakdown"]["stark"]
    assert (lan["tides_card"], lan["tides"], stk["tides_card"], stk["tides"]) == ("two", 2, "skull", 0)
    assert record["winner"] == "lannister" and record["strength"] == {"lannister": 3 + 2 + 2, "stark": 3 + 2}
    assert R.pending(state) == {"stark": "casualties"}  # Jaime's sword (R231)
    state, more = play(state, ("stark", {"casualties": ["footman"]}))
    assert R.pending(state) == {"lannister": "casualties"}  # Stark's skull: the winner loses one too (R302)
    state, more2 = play(state, ("lannister", {"casualties": ["knight"]}))
    events += more + more2
    assert {"type": "casualties", "house": "lannister", "area": "blackwater", "units": ["knight"]} in events
    record = state["combat"]
    lan, stk = record["breakdown"]["lannister"], record["breakdown"]["stark"]
    assert lan["unit_list"] == ["footman", "knight"] and lan["units"] == 3 and lan["total"] == 7
    # the log says the values too (R300)
    reveal = next(e for e in events if e["type"] == "tides_revealed")
    assert "worth 2" in narrate.narrate(reveal)


def test_r229_the_record_says_when_a_tie_was_won_on_the_fiefdoms_track():
    """Jaime (2) against the Greatjon (2), equal units, Tides Zero and Zero, no redraw, no blade:
    5 to 5, and Lannister, higher on Fiefdoms, wins (R229)."""
    state = battle(["knight", "footman"], ["footman", "knight"], LANNISTER_HOLDS, tides=["zero", "zero"])
    state, events = play(state, ("lannister", {"house_card": "ser_jaime_lannister"}),
                         ("stark", {"house_card": "greatjon_umber"}), ("lannister", {"blade": False}),
                         ("lannister", {"blade": False}))
    record = state["combat"]
    assert record["strength"] == {"lannister": 5, "stark": 5}
    assert record["winner"] == "lannister" and record["decided_by"] == "fiefdoms_tie"
    assert "a tie, won by the house higher on the Fiefdoms track" in narrate.narrate(won(events))


def test_r215_r216_the_defense_order_and_the_blade_are_separate_lines():
    """Stark defends with a Defense +1 (R196) and, holding the blade, uses it (R228)."""
    fief = ["stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell"]
    state = battle(["knight", "footman"], ["footman", "knight"], fief, dfn_order="defense+1")
    state, _ = play(state, ("lannister", {"house_card": "ser_gregor_clegane"}), ("stark", {"house_card": "eddard_stark"}))
    assert R.pending(state) == {"stark": "blade"}
    assert state["combat"]["_current"]["breakdown"]["stark"]["blade"] == 0  # live, before the choice
    state, _ = play(state, ("stark", {"blade": True}))
    stk = state["combat"]["breakdown"]["stark"]
    assert (stk["units"], stk["order"], stk["order_token"], stk["card"], stk["blade"]) == (3, 1, "defense+1", 4, 1)
    assert stk["total"] == 3 + 1 + 4 + 1 == state["combat"]["strength"]["stark"]


def test_r219_r298_nothing_chosen_or_drawn_in_secret_reaches_the_other_seat_before_the_reveal():
    """Stark's view is the same whichever card Lannister chose (R219), and, with Tides of Battle,
    whichever Tides card Lannister drew while Lannister decides on its blade redraw (R298, R299)."""
    fief = LANNISTER_HOLDS
    base = battle(["knight", "footman"], ["footman", "knight"], fief)
    a, _ = play(base, ("lannister", {"house_card": "tywin_lannister"}))
    b, _ = play(base, ("lannister", {"house_card": "the_hound"}))
    assert R.pending(a) == {"stark": "house_card"}
    for seat in ("stark", "greyjoy", None):
        assert json.dumps(view(a, seat), sort_keys=True) == json.dumps(view(b, seat), sort_keys=True)
    assert view(a, "lannister")["secret"]["lannister"]["house_card"] == "tywin_lannister"
    live = view(a, "stark")["combat"]["_current"]["breakdown"]  # the announced initial strengths only (R215)
    assert [p["card_id"] for p in live.values()] == [None, None] and live["lannister"]["total"] == 3

    views = []
    for deck in (["three", "zero"], ["skull", "zero"]):
        s = battle(["knight", "footman"], ["footman", "knight"], fief, tides=deck)
        s, _ = play(s, ("lannister", {"house_card": "the_hound"}), ("stark", {"house_card": "eddard_stark"}))
        assert R.pending(s) == {"lannister": "blade_redraw"}
        assert s["combat"]["breakdown"]["lannister"]["tides"] == 0 and s["combat"]["breakdown"]["lannister"]["tides_card"] is None
        views.append({seat: json.dumps(view(s, seat), sort_keys=True) for seat in ("stark", "greyjoy", None)})
    assert views[0] == views[1]


def _parts_add_up(record: dict[str, Any]) -> None:
    for house, p in record["breakdown"].items():
        assert p["support"] == sum(p["supporters"].values()), (house, p)
        assert p["initial"] == p["units"] + p["order"] + p["garrison"] + p["support"], (house, p)
        assert p["total"] == p["initial"] + p["card"] + p["tides"] + p["blade"], (house, p)
        assert record["strength"][house] == p["total"] and record["initial_strength"][house] == p["initial"]


def test_r215_r216_in_random_games_every_battle_record_adds_up_to_the_strength_that_decided_it():
    battles = 0
    for seed in range(4):
        rnd = random.Random(seed)
        state = R.new_game(R.seat_names(6), {"tides_of_battle": bool(seed % 2)}, seed)
        for _ in range(1500):
            if R.is_over(state):
                break
            seat = rnd.choice(sorted(R.pending(state)))
            state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            for ev in events:
                if ev["type"] == "combat_won":
                    battles += 1
                    _parts_add_up({"breakdown": ev["breakdown"], "strength": ev["strength"],
                                   "initial_strength": {h: p["initial"] for h, p in ev["breakdown"].items()}})
                    rule = "higher_strength" if len(set(ev["strength"].values())) == 2 else "fiefdoms_tie"
                    assert ev["decided_by"] == rule
            record = state.get("combat") or {}
            if record.get("winner") and record.get("breakdown") and record.get("decided_by") != "neutral_force":
                _parts_add_up(record)
    assert battles >= 5


# ------------------------------------------------------------------ a Raid removed by the engine (R139)


def _raid_game(orders: dict[str, dict[str, str]], units: dict[str, dict[str, list[str]]]) -> dict[str, Any]:
    return game({"units": units, "orders": orders, "neutral_forces": {},
                 "tracks": {"iron_throne": ["lannister", "baratheon", "stark"]}})


def test_r139_a_raid_with_no_target_is_removed_and_the_log_says_why():
    units = {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
             "winterfell": {"stark": ["footman"]}}
    state = _raid_game({"lannisport": {"lannister": "raid"}, "stoney_sept": {"baratheon": "consolidate"},
                        "winterfell": {"stark": "raid"}}, units)
    assert R.pending(state) == {"lannister": "raid"}
    state, events = act(state, "lannister", {"raid": {"from": "lannisport", "target": "stoney_sept"}})
    removed = next(e for e in events if e["type"] == "raid_removed")
    assert removed == {"type": "raid_removed", "house": "stark", "area": "winterfell", "token": "raid",
                       "forced": True, "reason": "no_target"}
    assert narrate.narrate(removed) == "Stark's raid in Winterfell is removed: no adjacent enemy order it could raid."


def test_r139_r141_a_normal_raid_next_to_a_defense_order_is_removed_and_the_log_says_only_a_special_raid_could():
    units = {"lannisport": {"lannister": ["footman"]}, "stoney_sept": {"baratheon": ["footman"]},
             "winterfell": {"stark": ["footman"]}, "castle_black": {"baratheon": ["footman"]}}
    state = _raid_game({"lannisport": {"lannister": "raid"}, "stoney_sept": {"baratheon": "consolidate"},
                        "winterfell": {"stark": "raid"}, "castle_black": {"baratheon": "defense+1"}}, units)
    state, events = act(state, "lannister", {"raid": {"from": "lannisport", "target": "stoney_sept"}})
    removed = next(e for e in events if e["type"] == "raid_removed")
    assert removed["reason"] == "only_defense"
    assert narrate.narrate(removed) == ("Stark's raid in Winterfell is removed: the only enemy orders it could reach "
                                        "are Defense orders, which only a special Raid removes.")
