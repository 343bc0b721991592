"""Core Set cards beyond the learn-to-play decks: their abilities as data (the shape of cards.py's
ABILITIES), with the conditions, selectors, ops and scripts they need registered in abilities.py's
MORE_CONDS, MORE_SELECTORS, OPS and SCRIPTS. Imported by games/engine/lcg/__init__.py.

This module holds the Martell and Night's Watch cards and the neutral The Iron Throne, Noble Lineage,
Syrio's Training, Put to the Sword, Put to the Torch and Fealty's action (issue 30). Names it registers
start with `mw_`. The few framework rules these cards change are hooked here, as
cards_baratheon_targaryen.py does, rather than in abilities.py/actions.py/flow.py (which others edit):
each hook wraps the framework function by its module attribute and delegates to it, adding only what
its card says:

- `abilities.modified`: constants whose `to` is an `mw_` predicate (Doran Martell, The Wall), whose
  `strength_per` is an `mw_` counter (Doran, Dawn), and the icons a lasting effect gives (`mw_icons`,
  Edric Dayne).
- `abilities.has_icon`: the icons a lasting effect takes away (`mw_lose_icons`: Maester Caleotte,
  Confinement).
- `abilities.plot_value`: Sunspear's +1 claim in challenges of one type.
- `abilities.challenge_allowance`: challenges a lasting effect forbids (Unbowed, Unbent, Unbroken; The
  Sword in the Darkness).
- `abilities.answer`: a named challenge type whose purpose is `mw_...` (Edric Dayne, Maester
  Caleotte, Unbowed, Unbent, Unbroken); card choices whose `then` is `mw_...` (Greenblood Trader).
- `abilities.options`, `abilities.initiate`, `abilities.expire`: Fealty's action, the agenda's (an agenda is
  not a card in play): `{"trigger": "fealty"}` kneels the faction card; `abilities.marshal_cost`,
  `abilities.event_cost`, `abilities._pay`: the next loyal card marshaled or played this phase costs 1 less.
- `abilities.emit`: the seats that lost a challenge as the defending player this round (Old Bear Mormont).
- `flow.eligible_defenders`: Obara Sand defends kneeling in a power challenge; Ghost's bypassed
  character may not defend for the rest of the phase.
- `flow.initiate_challenge`: stealth cannot bypass a Ranger whose controller controls Benjen Stark.
- `bot.random_action`: the random player names no stealth target Benjen Stark protects.
"""
from __future__ import annotations

from typing import Any

from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import bot, data, flow
from games.engine.lcg import table as T
from games.engine.lcg.cards import ABILITIES, _reducer
from games.engine.lcg.hooks import wrap
from games.engine.narration import gettext

Spec = dict[str, Any]
NW = "thenightswatch"


def _kill_or_discard(kind: str, selector: str) -> Spec:
    """Put to the Sword / Put to the Torch: after winning a military challenge as the attacking player
    by 5 or more STR."""
    return {"kind": "reaction", "on": "challenge_won", "if": ["you_won", "you_attack", "ev_type:military", "margin:5"],
            "max": ["challenge", 1], "target": selector, "effect": [[kind]]}


CARDS: dict[str, list[Spec]] = {
    # ---------------------------------------------------------------- neutral
    "the_iron_throne": [{"kind": "constant", "rule": "dominance_str", "amount": 8}],
    "noble_lineage": [{"kind": "constant", "to": "host", "mod": {"icons": ["power"]}}],
    "syrios_training": [{"kind": "constant", "to": "host", "mod": {"icons": ["military"]}}],
    "put_to_the_sword": [_kill_or_discard("kill_target", "loser_character")],
    "put_to_the_torch": [_kill_or_discard("discard_target", "mw_loser_location")],
    # Fealty's action is the agenda's, not a card's in play: offered and resolved by the hooks on
    # abilities.options and abilities.initiate below (its deck-building rule is data.py's)
    "fealty": [],
    # ---------------------------------------------------------------- martell
    "areo_hotah": [{"kind": "reaction", "on": "entered", "if": ["ev_self", "challenge_live"],
                    "target": "mw_participating_character", "effect": [["remove_target_from_challenge"]]}],
    "arianne_martell": [{"kind": "action", "limit": ["phase", 1], "target": "mw_hand_character_5",
                         "effect": [["put_target_into_play"], ["mw_return_self_to_hand"]]}],
    "doran_martell": [{"kind": "constant", "to": "mw_other_martell_lord_or_lady",
                       "mod": {"strength_per": "mw_used_plots"}}],
    "edric_dayne": [{"kind": "action", "cost": ["gold:1"], "effect": [["name_type", "mw_gain_icon"]]}],
    "maester_caleotte": [{"kind": "reaction", "on": "challenge_won", "if": ["you_lost", "self_participating"],
                          "target": "mw_character_with_icon", "effect": [["name_type", "mw_lose_icon"]]}],
    "obara_sand": [{"kind": "constant", "rule": "mw_defends_kneeling_power"}],
    "the_red_viper": [{"kind": "reaction", "on": "challenge_won", "if": ["you_won", "self_attacking", "margin:5"],
                       "effect": [["mw_power_per_5_margin"]]}],
    "desert_scavenger": _reducer("martell", "character"),
    "dornish_paramour": [{"kind": "reaction", "on": "challenge_initiated", "if": ["self_attacking"],
                          "target": "mw_defending_players_character", "effect": [["mw_must_defend"]]}],
    "greenblood_trader": [{"kind": "reaction", "on": "entered", "if": ["ev_self", "own_deck"],
                           "effect": [["script", "mw_greenblood"]]}],
    "house_dayne_knight": [],
    "palace_spearman": [{"kind": "constant", "to": "self", "if": ["mw_not_first_player"],
                         "mod": {"icons": ["intrigue"]}}],
    "ghaston_grey": [{"kind": "reaction", "on": "challenge_won", "if": ["you_lost", "you_defend"],
                      "cost": ["kneel_self", "sacrifice_self"], "target": "attacking_character",
                      "effect": [["return_target_to_hand"]]}],
    "sunspear": [{"kind": "reaction", "on": "challenge_won", "if": ["you_lost", "you_defend"], "cost": ["kneel_self"],
                  "effect": [["mw_claim_in_type"]]}],
    "blood_orange_grove": _reducer("martell", None),
    "dawn": [{"kind": "constant", "to": "host", "mod": {"strength_per": "mw_used_plots"}},
             {"kind": "constant", "to": "host", "if": ["mw_host_house_dayne"], "mod": {"keywords": ["intimidate"]}}],
    "dorans_game": [{"kind": "reaction", "on": "challenge_won", "if": ["you_won", "ev_type:intrigue", "margin:5",
                                                                        "mw_used_plots"],
                     "max": ["challenge", 1], "effect": [["mw_power_per_used_plot"]]}],
    "unbowed_unbent_unbroken": [{"kind": "reaction", "on": "challenge_won",
                                 "if": ["mw_opponent_first_player", "you_lost", "you_defend"],
                                 "max": ["challenge", 1], "effect": [["name_type", "mw_forbid_type"]]}],
    # ---------------------------------------------------------------- the night's watch
    "benjen_stark": [{"kind": "constant", "rule": "mw_rangers_not_bypassed"},
                     {"kind": "interrupt", "on": "would_leave", "if": ["mw_ev_self_killed"],
                      "effect": [["faction_power", 2], ["mw_shuffle_self_into_deck"]]}],
    "jon_snow": [{"kind": "constant", "rule": "mw_jon_snow"}],
    "ghost": [{"kind": "reaction", "on": "challenge_initiated", "if": ["mw_self_bypassed_one"],
               "effect": [["mw_bypassed_cannot_defend"]]}],
    "maester_aemon": [{"kind": "interrupt", "on": "would_leave", "if": ["mw_ev_nw_killed"], "cost": ["kneel_self"],
                       "target": "mw_ev_nw_victim", "effect": [["save_target"]]}],
    "old_bear_mormont": [{"kind": "constant", "rule": "no_kneel_defend", "if": ["controls:the_wall"]},
                         {"kind": "interrupt", "on": "phase_ended", "if": ["phase:challenges", "mw_no_defence_lost"],
                          "target": "mw_hand_nw_card", "effect": [["put_target_into_play"]]}],
    "samwell_tarly": [],
    "ser_waymar_royce": [{"kind": "interrupt", "on": "would_leave", "if": ["mw_ev_self_killed", "mw_opponent_has_hand"],
                          "effect": [["mw_opponents_discard_random"]]}],
    "yoren": [{"kind": "reaction", "on": "marshaled", "if": ["ev_self"], "target": "mw_opponent_discard_character_3",
               "effect": [["put_target_into_play"]]}],
    "messenger_raven": [{"kind": "action", "phase": "dominance", "effect": [["mw_return_self_to_hand"], ["draw", 1]]}],
    "old_forest_hunter": [{"kind": "action", "limit": ["phase", 1], "target": "mw_own_hand_card",
                           "cost": ["mw_discard_target_from_hand"], "effect": [["gold", 1]]}],
    "ranging_party": [],
    "steward_at_the_wall": _reducer(NW, "character"),
    "veteran_builder": [{"kind": "action", "cost": ["sacrifice_self"], "target": "mw_kneeling_location",
                         "effect": [["stand_target"]]}],
    "castle_black": [{"kind": "action", "cost": ["kneel_self"], "target": "mw_defending_nw",
                      "effect": [["mw_stand_and_2_str"]]}],
    "the_wall": [{"kind": "constant", "to": "mw_own_nw_character", "mod": {"strength": 1}},
                 {"kind": "forced_reaction", "on": "challenge_won", "if": ["you_lost", "unopposed", "mw_self_standing"],
                  "effect": [["mw_kneel_self"]]},
                 {"kind": "interrupt", "on": "phase_ended", "if": ["phase:challenges"], "cost": ["kneel_self"],
                  "effect": [["faction_power", 2]]}],
    "longclaw": [{"kind": "constant", "to": "host", "mod": {"strength": 1, "keywords": ["renown"]}}],
    "confinement": [{"kind": "action", "target": "mw_confinement", "effect": [["mw_lose_all_icons"]]}],
    "a_meager_contribution": [{"kind": "reaction", "on": "mw_income", "if": ["mw_ev_opponent_gold"],
                               "max": ["round", 1], "effect": [["mw_take_1_gold"]]}],
    "take_the_black": [{"kind": "action", "phase": "dominance", "max": ["round", 1], "target": "mw_take_the_black",
                        "effect": [["mw_take_control"]]}],
    "the_sword_in_the_darkness": [{"kind": "reaction", "on": "challenge_won",
                                   "if": ["mw_own_nw_participating", "you_won", "you_defend", "margin:5"],
                                   "effect": [["mw_forbid_loser"]]}],
}


# ================================================================== conditions

def _open(state, ev) -> list[str]:
    """The cards of a would-leave event still leaving (not saved yet)."""
    return A._open_uids(state, ev) if ev and ev.get("t") == "would_leave" else []


def _nw_character(state, u) -> bool:
    c = T.card(state, u)
    return c["type"] == "character" and c["faction"] == NW


def _killed(ev) -> bool:
    return bool(ev and ev.get("t") == "would_leave" and ev.get("dest") == "dead")


def _c_not_first_player(state, ctx, arg):
    return state["first_player"] != ctx["seat"]


def _c_opponent_first_player(state, ctx, arg):
    return state["first_player"] != ctx["seat"]


def _c_used_plots(state, ctx, arg):
    return bool(state["players"][ctx["seat"]]["used_plots"])


def _c_ev_self_killed(state, ctx, arg):
    return _killed(ctx.get("ev")) and ctx["src"] in _open(state, ctx.get("ev"))


def _c_ev_nw_killed(state, ctx, arg):
    ev = ctx.get("ev")
    return _killed(ev) and bool(ev.get("savable")) and any(_nw_character(state, u) for u in _open(state, ev))


def _c_opponent_has_hand(state, ctx, arg):
    return any(state["players"][s]["hand"] for s in T.others(state, ctx["seat"]))


def _c_host_house_dayne(state, ctx, arg):
    h = A._host(state, ctx["src"])
    return h is not None and "House Dayne" in T.card(state, h)["traits"]


def _c_self_standing(state, ctx, arg):
    return ctx["src"] in state["inplay"] and not state["inplay"][ctx["src"]]["kneeling"]


def _c_self_bypassed_one(state, ctx, arg):
    ch = state.get("challenge")
    return bool(ch and ch["live"] and ch["stealth"].get(ctx["src"]) in state["inplay"])


def _c_own_nw_participating(state, ctx, arg):
    return any(state["inplay"][u]["participating"] and T.card(state, u)["faction"] == NW
               for u in T.in_play(state, ctx["seat"], "character"))


def _c_no_defence_lost(state, ctx, arg):
    return f"{state['round']}:{ctx['seat']}" not in state.get("mw_lost_defending", ())


def _c_ev_opponent_gold(state, ctx, arg):
    ev = ctx.get("ev") or {}
    return ev.get("seat") not in (None, ctx["seat"]) and state["players"][ev["seat"]]["gold"] > 0


A.MORE_CONDS.update({
    "mw_ev_opponent_gold": _c_ev_opponent_gold,
    "mw_not_first_player": _c_not_first_player, "mw_opponent_first_player": _c_opponent_first_player,
    "mw_used_plots": _c_used_plots, "mw_ev_self_killed": _c_ev_self_killed, "mw_ev_nw_killed": _c_ev_nw_killed,
    "mw_opponent_has_hand": _c_opponent_has_hand, "mw_host_house_dayne": _c_host_house_dayne,
    "mw_self_standing": _c_self_standing, "mw_self_bypassed_one": _c_self_bypassed_one,
    "mw_own_nw_participating": _c_own_nw_participating, "mw_no_defence_lost": _c_no_defence_lost,
})


# ================================================================== selectors (targets, L135-L141)


def _s_loser_location(state, ctx):
    loser = (ctx.get("ev") or {}).get("loser")
    return T.in_play(state, loser, "location") if loser else []


def _s_participating_character(state, ctx):
    return [u for u in A._chars(state) if state["inplay"][u]["participating"]]


def _s_hand_character_5(state, ctx):
    seat = ctx["seat"]
    return [u for u in state["players"][seat]["hand"] if T.card(state, u)["type"] == "character"
            and A._printed(state, u, "cost") <= 5 and A._can_put(state, seat, u)]


def _s_character_with_icon(state, ctx):
    return [u for u in A._chars(state) if any(A.has_icon(state, u, i) for i in flow.CHALLENGE_TYPES)]


def _s_ev_nw_victim(state, ctx):
    return [u for u in _open(state, ctx.get("ev")) if _nw_character(state, u)]


def _s_hand_nw_card(state, ctx):
    seat = ctx["seat"]
    return [u for u in state["players"][seat]["hand"] if T.card(state, u)["faction"] == NW
            and A._can_put(state, seat, u)]


def _s_opponent_discard_character_3(state, ctx):
    seat = ctx["seat"]
    return [u for s in T.others(state, seat) for u in state["players"][s]["discard"]
            if T.card(state, u)["type"] == "character" and A._printed(state, u, "cost") <= 3
            and A._can_put(state, seat, u)]


def _s_own_hand_card(state, ctx):
    return list(state["players"][ctx["seat"]]["hand"])


def _s_kneeling_location(state, ctx):
    return [u for s in state["seats"] for u in T.in_play(state, s, "location") if state["inplay"][u]["kneeling"]]


def _s_defending_nw(state, ctx):
    return [u for u in A._chars(state) if state["inplay"][u]["participating"] == "defending"
            and T.card(state, u)["faction"] == NW]


def _s_confinement(state, ctx):
    return [u for u in _s_character_with_icon(state, ctx) if A.strength(state, u) <= 4]


def _s_take_the_black(state, ctx):
    return [u for s in T.others(state, ctx["seat"]) for u in T.in_play(state, s, "character")
            if not T.card(state, u)["unique"] and A._printed(state, u, "cost") <= 6]


def _s_defending_players_character(state, ctx):
    ch = state.get("challenge")
    return T.in_play(state, ch["defender"], "character") if ch and ch["live"] else []


def _s_deck_top2(state, ctx):
    return list(state["players"][ctx["seat"]]["deck"][:ctx.get("mw_top", 2)])


A.MORE_SELECTORS.update({
    "mw_loser_location": _s_loser_location, "mw_participating_character": _s_participating_character,
    "mw_hand_character_5": _s_hand_character_5, "mw_character_with_icon": _s_character_with_icon,
    "mw_ev_nw_victim": _s_ev_nw_victim, "mw_hand_nw_card": _s_hand_nw_card,
    "mw_opponent_discard_character_3": _s_opponent_discard_character_3, "mw_own_hand_card": _s_own_hand_card,
    "mw_kneeling_location": _s_kneeling_location, "mw_defending_nw": _s_defending_nw,
    "mw_confinement": _s_confinement, "mw_defending_players_character": _s_defending_players_character, "mw_take_the_black": _s_take_the_black, "mw_deck_top2": _s_deck_top2,
})


# ================================================================== constants: whom they modify, by how much

def _to_other_martell_lord_or_lady(state, src, seat, uid):
    c = T.card(state, uid)
    return (uid != src and T.controller(state, uid) == seat and c["type"] == "character" and c["faction"] == "martell"
            and bool({"Lord", "Lady"} & set(c["traits"])))


def _to_own_nw_character(state, src, seat, uid):
    return T.controller(state, uid) == seat and _nw_character(state, uid)


MW_TO = {"mw_other_martell_lord_or_lady": _to_other_martell_lord_or_lady, "mw_own_nw_character": _to_own_nw_character}
MW_COUNTERS = {"mw_used_plots": lambda state, src, seat: len(state["players"][seat]["used_plots"])}


# ================================================================== ops


def op_mw_return_self_to_hand(state, ctx, args, events, rest):
    """Arianne Martell, Messenger Raven: back to the hand (no save: "she cannot be saved")."""
    if ctx["src"] not in state["inplay"]:
        return False
    T.leave_play(state, [ctx["src"]], "hand", events, "returned")
    return True


def op_mw_power_per_5_margin(state, ctx, args, events, rest):
    n = (ctx["ev"] or {}).get("margin", 0) // 5
    return n > 0 and A.op_power_self(state, ctx, [n], events, rest)


def op_mw_power_per_used_plot(state, ctx, args, events, rest):
    n = len(state["players"][ctx["seat"]]["used_plots"])
    return n > 0 and A.op_faction_power(state, ctx, [n], events, rest)


def op_mw_claim_in_type(state, ctx, args, events, rest):
    """Sunspear: +1 claim in the seat's challenges of the lost challenge's type, until the phase ends."""
    state["lasting"].append({"seat": ctx["seat"], "mw_claim": 1, "ctype": ctx["ev"]["type"], "until": "phase",
                             "source": ctx["cid"]})
    return True


def op_mw_shuffle_self_into_deck(state, ctx, args, events, rest):
    """Benjen Stark: shuffled into his owner's deck instead of the dead pile (he leaves play: no save)."""
    u = ctx["src"]
    if u not in state["inplay"]:
        return False
    for fr in state["stack"]:
        if fr["f"] == "leave" and u in fr["uids"]:
            fr["uids"].remove(u)
    o, was = T.owner(state, u), T.controller(state, u)
    T.leave_play(state, [u], "deck", events, ctx["cid"])
    p = state["players"][o]
    rng.shuffle(state, p["deck"], 0)
    p["pinned"] = 0
    # he is still killed (only his pile changes): the reactions to a kill see him
    A.emit(state, {"t": "killed", "uids": [u], "cards": [{"uid": u, "controller": was}]}, events)
    return True


def op_mw_opponents_discard_random(state, ctx, args, events, rest):
    done = False
    for s in T.others(state, ctx["seat"]):
        p = state["players"][s]
        if p["hand"]:
            u = p["hand"].pop(rng.randbelow(state, len(p["hand"])))
            p["discard"].insert(0, u)
            events.append({"type": "discard", "seat": s, "card": T.cid(state, u), "reason": ctx["cid"]})
            done = True
    return done


def op_mw_bypassed_cannot_defend(state, ctx, args, events, rest):
    u = state["challenge"]["stealth"].get(ctx["src"])
    if u not in state["inplay"]:
        return False
    state["lasting"].append({"target": u, "mw_no_defend": True, "until": "phase", "source": ctx["cid"]})
    return True


def op_mw_stand_and_2_str(state, ctx, args, events, rest):
    """Castle Black: "stand it, and it gets +2 STR" (both, not a then-chain)."""
    done = False
    for u in ctx["targets"]:
        if u in state["inplay"]:
            A._stand(state, u, events)
            A._lasting(state, {"target": u, "strength": 2, "until": "challenge", "source": ctx["cid"]}, events)
            done = True
    return done


def op_mw_kneel_self(state, ctx, args, events, rest):
    rec = state["inplay"].get(ctx["src"])
    if rec is None or rec["kneeling"]:
        return False
    rec["kneeling"] = True
    events.append({"type": "kneel", "seat": rec["controller"], "card": ctx["cid"], "reason": ctx["cid"]})
    return True


def op_mw_lose_all_icons(state, ctx, args, events, rest):
    for u in ctx["targets"]:
        if u in state["inplay"]:
            state["lasting"].append({"target": u, "mw_lose_icons": list(flow.CHALLENGE_TYPES), "until": "phase",
                                     "source": ctx["cid"]})
            return True
    return False


def op_mw_take_control(state, ctx, args, events, rest):
    """Take the Black: the character (with what is attached to it) changes controller."""
    seat = ctx["seat"]
    for u in ctx["targets"]:
        rec = state["inplay"].get(u)
        if rec is None or rec["controller"] == seat:
            continue
        was = rec["controller"]
        state["players"][was]["play"].remove(u)
        state["players"][seat]["play"].append(u)
        rec["controller"] = seat
        if rec["participating"] and A.put_right(state):  # L174: a change of control ends its part
            A.remove_from_challenge(state, u)
        events.append({"type": "control", "seat": seat, "card": T.cid(state, u), "from": was, "reason": ctx["cid"]})
        return True
    return False


def op_mw_forbid_loser(state, ctx, args, events, rest):
    """The Sword in the Darkness: the losing opponent initiates no challenge against you this round."""
    loser = ctx["ev"]["loser"]
    state["lasting"].append({"mw_forbid_seat": loser, "mw_against": ctx["seat"], "until": "round",
                             "source": ctx["cid"]})
    return True


def op_mw_take_1_gold(state, ctx, args, events, rest):
    """A Meager Contribution: 1 gold from the opponent's pool to yours."""
    opp = ctx["ev"]["seat"]
    if state["players"][opp]["gold"] <= 0:
        return False
    state["players"][opp]["gold"] -= 1
    state["players"][ctx["seat"]]["gold"] += 1
    events.append({"type": "gold", "seat": opp, "gold": -1, "card": ctx["cid"]})
    events.append({"type": "gold", "seat": ctx["seat"], "gold": 1, "card": ctx["cid"]})
    return True


def op_mw_must_defend(state, ctx, args, events, rest):
    """Dornish Paramour: the character must defend in this challenge if able (flow.declare_defenders)."""
    for u in ctx["targets"]:
        if u in state["inplay"]:
            state["lasting"].append({"target": u, "mw_must_defend": True, "until": "challenge", "source": ctx["cid"]})
            return True
    return False


for _name, _fn in list(globals().items()):
    if _name.startswith("op_mw_"):
        A.OPS[_name[3:]] = _fn


# ================================================================== scripts and choices


def sc_mw_greenblood(state, ctx, events, rest):
    """Greenblood Trader: look at the top 2 (privately), keep at most 1, the rest to the bottom in the
    order the seat chooses."""
    p = state["players"][ctx["seat"]]
    top = p["deck"][:2]
    if not top:
        return False
    ctx["mw_top"] = len(top)
    events.append({"type": "look", "seat": ctx["seat"], "count": len(top),
                   "private": {ctx["seat"]: [T.cid(state, u) for u in top]}})
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="mw_deck_top2", then="mw_greenblood_keep",
                          optional=True)


A.SCRIPTS["mw_greenblood"] = sc_mw_greenblood


def _then_greenblood_keep(state, ctx, seat, u, events, rest):
    p = state["players"][seat]
    top = p["deck"][:ctx["mw_top"]]
    if u is not None:
        p["deck"].remove(u)
        p["hand"].append(u)
        top.remove(u)
        events.append({"type": "draw", "seat": seat, "count": 1, "private": {seat: [T.cid(state, u)]}})
    if len(top) == 2:
        # "in an order you choose": the one picked goes to the very bottom
        ctx["mw_top"] = 2
        A._push_choice(state, seat, "card", ctx, rest, selector="mw_deck_top2", then="mw_greenblood_last")
        return "wait"
    _to_bottom(state, seat, top, events)
    return True


def _then_greenblood_last(state, ctx, seat, u, events, rest):
    p = state["players"][seat]
    top = p["deck"][:2]
    top.remove(u)
    _to_bottom(state, seat, top + [u], events)
    return True


def _to_bottom(state, seat, uids, events):
    p = state["players"][seat]
    for u in uids:
        p["deck"].remove(u)
        p["deck"].append(u)
    p["pinned"] = 0
    if uids:
        events.append({"type": "to_bottom", "seat": seat, "count": len(uids)})


MW_THEN = {"mw_greenblood_keep": _then_greenblood_keep, "mw_greenblood_last": _then_greenblood_last}


def _named(state, ctx, purpose, value, events):
    """A challenge type named for Edric Dayne (he gains that icon), Maester Caleotte (the target loses it)
    or Unbowed, Unbent, Unbroken (the challenge's winner may not initiate that type), until the phase ends."""
    if purpose == "mw_gain_icon":
        if ctx["src"] in state["inplay"]:
            state["lasting"].append({"target": ctx["src"], "mw_icons": [value], "until": "phase", "source": ctx["cid"]})
    elif purpose == "mw_lose_icon":
        for u in ctx["targets"]:
            if u in state["inplay"]:
                state["lasting"].append({"target": u, "mw_lose_icons": [value], "until": "phase", "source": ctx["cid"]})
    elif purpose == "mw_forbid_type":
        state["lasting"].append({"mw_forbid_seat": ctx["ev"]["winner"], "mw_forbid_type": value, "until": "phase",
                                 "source": ctx["cid"]})
    events.append({"type": "named", "seat": ctx["seat"], "card": ctx["cid"], "challenge": value})


# ================================================================== framework hooks


_wrap = wrap  # hooks.py


@_wrap(A, "modified")
def _modified(state, uid):
    delta, icons, kws = _modified.orig(state, uid)
    icons, kws = set(icons), set(kws)
    for src, seat, a in A.constants(state):
        to = a.get("to")
        m = a.get("mod") or {}
        if to in MW_TO:
            if MW_TO[to](state, src, seat, uid) and A.conds_hold(state, {"src": src, "seat": seat, "ev": None},
                                                               a.get("if", ())):
                delta += m.get("strength", 0)
                if m.get("strength_per") in MW_COUNTERS:
                    delta += MW_COUNTERS[m["strength_per"]](state, src, seat)
                icons.update(m.get("icons", ()))
                kws.update(m.get("keywords", ()))
        elif m.get("strength_per") in MW_COUNTERS and A._applies(state, src, seat, dict(a, mod={}), uid):
            delta += MW_COUNTERS[m["strength_per"]](state, src, seat)
    for e in state.get("lasting", ()):
        if e.get("target") == uid and e.get("mw_icons"):
            icons.update(e["mw_icons"])
    return delta, icons, kws


@_wrap(A, "_counter")
def _counter(state, src, seat, name):
    if name in MW_COUNTERS:
        return 0  # counted by _modified above (the original knows only its own counters)
    return _counter.orig(state, src, seat, name)


@_wrap(A, "_applies")
def _applies(state, src, seat, a, uid):
    if a.get("to") in MW_TO:
        return False  # applied by _modified above
    return _applies.orig(state, src, seat, a, uid)


@_wrap(A, "has_icon")
def _has_icon(state, uid, icon):
    if uid in state["inplay"] and any(e.get("target") == uid and icon in e.get("mw_lose_icons", ())
                                      for e in state["lasting"]):
        return False
    return _has_icon.orig(state, uid, icon)


@_wrap(A, "plot_value")
def _plot_value(state, seat, key):
    value = _plot_value.orig(state, seat, key)
    ch = state.get("challenge")
    if key == "claim" and value is not None and ch and ch["live"] and ch["attacker"] == seat:
        value += sum(e["mw_claim"] for e in state["lasting"]
                     if e.get("seat") == seat and e.get("mw_claim") and e.get("ctype") == ch["type"])
    return value


@_wrap(A, "challenge_allowance")
def _challenge_allowance(state, seat, ctype):
    for e in state["lasting"]:
        if e.get("mw_forbid_seat") != seat:
            continue
        if e.get("mw_forbid_type") == ctype:
            return gettext("%(card)s: you may not initiate that challenge type this phase") % {
                "card": data.card(state, e["source"])["name"]}
        if e.get("mw_against") and all(s == e["mw_against"] for s in T.others(state, seat)):
            return gettext("%(card)s: you may not initiate challenges against that player this round") % {
                "card": data.card(state, e["source"])["name"]}
    return _challenge_allowance.orig(state, seat, ctype)


@_wrap(A, "answer")
def _answer(state, seat, value, events):
    fr = state["stack"][-1] if state["stack"] else None
    if fr and fr.get("f") == "choose":
        if fr["what"] == "challenge_type" and str(fr.get("purpose", "")).startswith("mw_"):
            if value not in flow.CHALLENGE_TYPES:
                A.refuse(gettext("name a challenge type: military, intrigue or power"))
            A._done_choice(state, fr)
            _named(state, fr["ctx"], fr["purpose"], value, events)
            A.run_ops(state, fr["ctx"], fr["rest"], events)
            return
        if fr["what"] == "card" and fr.get("then") in MW_THEN:
            opts = A.choice_options(state, fr)
            u = None
            if value is not None:
                u = A.resolve_name(state, seat, value)
                if u not in opts:
                    A.refuse(gettext("%(card)s is not a valid choice") % {"card": A.shown_name(value)})
            elif not fr.get("optional") and opts:
                A.refuse(gettext("this choice is not optional"))
            A._done_choice(state, fr)
            r = MW_THEN[fr["then"]](state, fr["ctx"], seat, u, events, fr["rest"])
            if r is True:
                A.run_ops(state, fr["ctx"], fr["rest"], events)
            return
    return _answer.orig(state, seat, value, events)


# ---------------------------------------------------------------- Fealty (the agenda's action)


def _fealty_open(state, seat) -> bool:
    """Fealty's action can be taken now: the seat's agenda, its faction card standing, an action window."""
    w = state.get("window")
    return (state["players"][seat].get("agenda") == "fealty" and not state["players"][seat]["faction_kneeling"]
            and w is not None and not A._catelyn_blocks(state, seat))


@_wrap(A, "options")
def _options(state, seat, timing, ev, first_only=False):
    out = _options.orig(state, seat, timing, ev, first_only)
    if timing == "action" and not (first_only and out) and _fealty_open(state, seat):
        out = out + [{"trigger": "fealty"}]
    return out


@_wrap(A, "initiate")
def _initiate(state, seat, kind, value, events):
    name = value.get("card") if isinstance(value, dict) else value
    if kind != "trigger" or name != "fealty" or state["players"][seat].get("agenda") != "fealty":
        return _initiate.orig(state, seat, kind, value, events)
    if isinstance(value, dict) and set(value) - {"card"}:
        raise EngineError("bad_action", gettext("Fealty takes no target"))
    if state["decision"]["kind"] != "action" or not _fealty_open(state, seat):
        A.refuse(gettext("Fealty: kneel your standing faction card in an action window (L87)"))
    state["players"][seat]["faction_kneeling"] = True
    state.setdefault("mw_loyal", []).append(seat)
    events.append({"type": "triggered", "seat": seat, "card": "fealty", "targets": []})
    A._after_act(state, seat, "action")


@_wrap(A, "expire")
def _expire(state, period):
    _expire.orig(state, period)
    if period in ("phase", "round"):
        state["mw_loyal"] = []


def _loyal(state, seat, uid) -> bool:
    """Fealty's reduction applies: the card is loyal and the seat used Fealty this phase."""
    return bool(T.card(state, uid).get("loyal")) and seat in state.get("mw_loyal", ())


@_wrap(A, "marshal_cost")
def _marshal_cost(state, seat, uid, *, consume=False):
    cost = _marshal_cost.orig(state, seat, uid, consume=consume)
    if _loyal(state, seat, uid):
        cost = max(0, cost - 1)
        if consume:
            state["mw_loyal"].remove(seat)
    return cost


@_wrap(A, "event_cost")
def _event_cost(state, seat, uid, x=0):
    cost = _event_cost.orig(state, seat, uid, x)
    return max(0, cost - 1) if _loyal(state, seat, uid) else cost


@_wrap(A, "_pay")
def _pay(state, ctx, a, events):
    """Fealty's reduction on a played event; Old Forest Hunter's cost, the card of the hand it names
    discarded (L132: paid with the other costs, so a cancel does not give it back)."""
    loyal = bool(ctx.get("event")) and _loyal(state, ctx["seat"], ctx["src"])
    _pay.orig(state, ctx, a, events)
    if loyal and ctx["seat"] in state.get("mw_loyal", ()):
        state["mw_loyal"].remove(ctx["seat"])
    if "mw_discard_target_from_hand" in a.get("cost", ()):
        p = state["players"][ctx["seat"]]
        for u in ctx["targets"]:
            p["hand"].remove(u)
            p["discard"].insert(0, u)
            events.append({"type": "discard", "seat": ctx["seat"], "card": T.cid(state, u), "reason": ctx["cid"]})
        ctx["targets"] = []


@_wrap(A, "emit")
def _emit(state, ev, events, timing="reaction"):
    if ev.get("t") == "challenge_won" and ev.get("loser") and state.get("challenge") \
            and state["challenge"]["defender"] == ev["loser"]:
        key = f"{state['round']}:{ev['loser']}"
        lost = [k for k in state.get("mw_lost_defending", ()) if k.startswith(f"{state['round']}:")]
        if key not in lost:
            lost.append(key)
        state["mw_lost_defending"] = lost
    return _emit.orig(state, ev, events, timing)




@_wrap(flow, "eligible_defenders")
def _eligible_defenders(state):
    ch = state["challenge"]
    out = _eligible_defenders.orig(state)
    if ch["type"] == "power":
        for src, s in A.rule_sources(state, "mw_defends_kneeling_power"):
            if s == ch["defender"] and src not in out and state["inplay"][src]["kneeling"] \
                    and T.has_icon(state, src, "power") and src not in ch["stealth"].values():
                out.append(src)
    barred = {e["target"] for e in state["lasting"] if e.get("mw_no_defend")}
    return [u for u in out if u not in barred]


@_wrap(flow, "declare_defenders")
def _declare_defenders(state, seat, defenders, events):
    """Dornish Paramour: a character that must defend is declared with the others when it is able to
    (standing, with the icon, not bypassed); with The Knight of Flowers' limit of 1 it is the one."""
    must = [e["target"] for e in state["lasting"] if e.get("mw_must_defend")]
    eligible = flow.eligible_defenders(state)
    defenders = list(defenders)
    for u in must:
        if u in eligible and u not in defenders and T.controller(state, u) == seat:
            most = A.max_defenders(state)
            defenders = [u] if most is not None and len(defenders) >= most else defenders + [u]
    return _declare_defenders.orig(state, seat, defenders, events)


@_wrap(flow, "_side")
def _side(state, seat, role):
    """Jon Snow, standing, counts as attacking while another [thenightswatch] character of his
    controller attacks (added to the challenge by initiate_challenge below)."""
    out = _side.orig(state, seat, role)
    ch = state.get("challenge")
    if role == "attacking" and ch:
        for u in ch.get("mw_jon", ()):
            if u in out and (state["inplay"][u]["kneeling"]
                             or not any(x != u and _nw_character(state, x) for x in out if x not in ch["mw_jon"])):
                out.remove(u)
    return out


@_wrap(flow, "initiate_challenge")
def _initiate_challenge(state, seat, ctype, attackers, stealth, defender, events):
    for _, s in A.rule_sources(state, "mw_rangers_not_bypassed"):
        for t in stealth.values():
            if T.controller(state, t) == s and "Ranger" in T.card(state, t)["traits"]:
                raise EngineError("illegal_action", gettext(
                    "%(card)s is a Ranger and Benjen Stark is in play: stealth cannot bypass it")
                    % {"card": T.card(state, t)["name"]})
    _initiate_challenge.orig(state, seat, ctype, attackers, stealth, defender, events)
    ch = state["challenge"]
    if any(_nw_character(state, u) for u in attackers):
        for src, s in A.rule_sources(state, "mw_jon_snow"):
            rec = state["inplay"][src]
            if s == seat and src not in attackers and not rec["kneeling"] and not rec["participating"]:
                rec["participating"] = "attacking"
                ch["attackers"].append(src)
                ch["names"][src] = T.cid(state, src)
                ch.setdefault("mw_jon", []).append(src)


@_wrap(flow, "marshal_active")
def _marshal_active(state, events):
    """A Meager Contribution: "after an opponent collects income" (L68) is a triggering condition."""
    _marshal_active.orig(state, events)
    A.emit(state, {"t": "mw_income", "seat": state["active"]}, events)


flow.STEPS["marshal_active"] = flow.marshal_active


@_wrap(bot, "random_action")
def _random_action(state, seat, rnd):
    """The random player stays legal by construction: no stealth target Benjen Stark protects."""
    act = _random_action.orig(state, seat, rnd)
    ch = act.get("challenge") if isinstance(act, dict) else None
    if isinstance(ch, dict) and ch.get("stealth"):
        protected = {s for _, s in A.rule_sources(state, "mw_rangers_not_bypassed")}
        for a_name, t_name in list(ch["stealth"].items()):
            t = T.find_in_play(state, t_name, T.others(state, seat))
            if T.controller(state, t) in protected and "Ranger" in T.card(state, t)["traits"]:
                del ch["stealth"][a_name]
        if not ch["stealth"]:
            del ch["stealth"]
    return act


ABILITIES.update(CARDS)
