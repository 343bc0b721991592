"""The rules put right (issue 30): timing points (rules/lcg.md L85, L103, L128, L149). Lasting
effects "until the end of the phase" expire before the "when the phase ends" abilities; a played
event is in its owner's discard pile from the moment its cost is paid, its cancel window
included."""
from __future__ import annotations

from games.engine.lcg import abilities as A
from tests.engine.lcg_rules_helpers import R, act, asked, game, uid, until


def _red_keep_at_phase_end(options=None):
    s = game({"faction": "baratheon", "locations": ["the_red_keep"], "characters": ["garden_caretaker"],
              "hand": ["growing_strong"], "gold": 1}, {"characters": []}, options=options)
    s = until(s, lambda s: asked(s, "p1", "action"))
    s = act(s, "p1", {"play": {"card": "growing_strong", "targets": ["garden_caretaker"]}})
    s = until(s, lambda s: not s["stack"] and not s["queue"])
    assert A.strength(s, uid(s, "p1", "garden_caretaker")) == 3  # +2 until the end of the phase
    # The Red Keep: "when the challenges phase ends, if you lost no power challenge this round"
    return until(s, lambda s: asked(s, "p1", "interrupt"))


def test_until_the_end_of_the_phase_expires_before_when_the_phase_ends_L85_L149():
    s = _red_keep_at_phase_end()
    assert s["phase"] == "challenges" and s["step"] == "4.4"
    assert A.strength(s, uid(s, "p1", "garden_caretaker")) == 1


def test_revision_2_also_opened_the_phase_end_window_after_the_expiry():
    """The "when the phase ends" window is queued and runs once `phase_ended` has expired the
    phase's lasting effects, under every revision: what revision 3 moved before them is only what
    resolves inside the triggering condition itself (the delayed effects, L108)."""
    s = _red_keep_at_phase_end({"revision": 2})
    assert s["phase"] == "challenges" and s["step"] == "4.4"
    assert A.strength(s, uid(s, "p1", "garden_caretaker")) == 1


def test_a_played_event_is_in_the_discard_pile_once_its_cost_is_paid_L103_L128():
    """The Hand's Judgment's window (an opponent's event about to initiate): the event is already
    in its owner's discard pile, and stays there when cancelled."""
    s = game({"faction": "tyrell", "characters": ["garden_caretaker"], "hand": ["growing_strong"], "gold": 1},
             {"hand": ["the_hands_judgment"], "gold": 1})
    s = until(s, lambda s: asked(s, "p1", "action"))
    s = act(s, "p1", {"play": {"card": "growing_strong", "targets": ["garden_caretaker"]}})
    assert asked(s, "p2", "interrupt")
    assert R.summary(s)["discard"]["p1"] == ["growing_strong"] and s["players"]["p1"]["gold"] == 0
    s = act(s, "p2", {"play": {"card": "the_hands_judgment"}})
    s = until(s, lambda s: not s["stack"] and not s["queue"])
    assert R.summary(s)["discard"]["p1"] == ["growing_strong"]
    assert A.strength(s, uid(s, "p1", "garden_caretaker")) == 1
