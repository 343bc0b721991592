"""Core Set cards beyond the learn-to-play decks: their abilities as data (the shape of cards.py's
ABILITIES), with the conditions, selectors, ops and scripts they need registered in abilities.py's
MORE_CONDS, MORE_SELECTORS, OPS and SCRIPTS. Imported by games/engine/lcg/__init__.py.

This module holds the Baratheon and Targaryen cards and thirteen neutral plots (issue 30). A few
framework rules they change are hooked here rather than in abilities.py/actions.py/flow.py (which
others edit at the same time): each hook wraps the framework function by its module attribute and
delegates to it, adding only what its card says:

- `abilities.modified`: STR, icons and keywords of constants with a `bt` key (BT_MODS: Robert
  Baratheon, Daenerys Targaryen, Unsullied, King's Hunting Party) and the icons of lasting effects
  (Selyse Baratheon).
- `abilities.blanked`: Fortified Position blanks every character's printed text box (L158).
- `abilities.challenge_allowance`: rule `extra_military` (A Storm of Swords, Khal Drogo).
- `abilities.no_kneel`: Drogo's Arakh on Khal Drogo in the seat's first military challenge.
- `abilities.marshal_cost`: A Noble Cause (the round's first Lord or Lady character costs 2 less).
- `actions.entry_problem`, `abilities._sources`, `abilities.initiate`: Marching Orders; a seat's
  revealed plot as a source of its own actions and reactions (Power Behind the Throne, A Clash of
  Kings, A Feast for Crows), triggered by the plot's id.
- `flow.standing_stand` (and its step): Stannis Baratheon's limit of 2 characters.
- `flow.challenge_strength` (and its step): The Red Keep's +2 STR to a side; lost power challenges.
- `abilities.emit`: Plaza of Punishment's and Dracarys's kill at STR 0.
- `abilities.max_defenders`, actions.HANDLERS["challenge"/"defenders"]: Jousting Contest (and
  `max_attackers`, which the engine's players read).
- `flow.resolve_keyword`, OPS["power_self"]: a character gaining power is told (Lightbringer).
- `abilities.answer`: choices whose `then` is "bt:<name>" are answered by BT_THEN[name].
- `flow.dominance_begin` (and its step in flow.STEPS): the phase's beginning is emitted (Fiery
  Followers).
- `abilities._delayed_on`: delayed effects with a `bt` key (return to hand when the phase ends,
  stand if you win the challenge).
"""
from __future__ import annotations

from typing import Any

from games.engine import rng
from games.engine.base import EngineError
from games.engine.lcg import abilities as A
from games.engine.lcg import actions, flow
from games.engine.lcg import table as T
from games.engine.lcg.cards import ABILITIES, _reducer
from games.engine.lcg.hooks import wrap
from games.engine.narration import gettext, gettext_noop

Spec = dict[str, Any]

# ================================================================== the cards

CARDS: dict[str, list[Spec]] = {
    # ---------------------------------------------------------------- neutral plots and character
    "a_clash_of_kings": [{"kind": "reaction", "on": "challenge_won",
                          "if": ["you_won", "ev_type:power", "bt_loser_faction_power"],
                          "effect": [["bt_take_faction_power", "loser"]]}],
    "a_feast_for_crows": [{"kind": "reaction", "on": "dominance_won", "if": ["you_won"],
                           "effect": [["faction_power", 2]]}],
    "a_noble_cause": [{"kind": "constant", "rule": "noble_cause"}],
    "a_storm_of_swords": [{"kind": "constant", "rule": "extra_military"}],
    "building_orders": [{"kind": "when_revealed", "effect": [["script", "bt_building_orders"]]}],
    "counting_coppers": [{"kind": "when_revealed", "effect": [["draw", 3]]}],
    "filthy_accusations": [{"kind": "when_revealed", "effect": [["pick", "bt_standing_character", "bt:kneel"]]}],
    "fortified_position": [{"kind": "constant", "rule": "fortified_position"}],
    "marched_to_the_wall": [{"kind": "when_revealed", "effect": [["script", "bt_marched_to_the_wall"]]}],
    "marching_orders": [{"kind": "constant", "rule": "marching_orders"}],
    "jousting_contest": [{"kind": "constant", "rule": "jousting"}],
    "power_behind_the_throne": [{"kind": "when_revealed", "effect": [["bt_stand_token"]]},
                                {"kind": "action", "if": ["bt_has_stand_token"], "target": "bt_kneeling_character",
                                 "effect": [["bt_discard_stand_token"], ["stand_target"]]}],
    "wildling_horde": [{"kind": "action", "phase": "challenges", "cost": ["kneel_faction"],
                        "target": "bt_own_participating_wildling", "effect": [["strength_target", 2, "challenge"]]}],
    # ---------------------------------------------------------------- baratheon
    "maester_cressen": [{"kind": "action", "phase": "marshaling", "cost": ["kneel_self"],
                         "target": "bt_condition_attachment", "effect": [["discard_target"]]}],
    "melisandre": [{"kind": "reaction", "on": ["marshaled", "bt_played"], "if": ["bt_ev_own_rhllor"],
                    "limit": ["round", 1], "target": "bt_standing_character", "effect": [["kneel_target"]]}],
    "robert_baratheon": [{"kind": "constant", "bt": "robert"}],
    "selyse_baratheon": [{"kind": "action", "phase": "challenges", "cost": ["gold:1"],
                          "target": "bt_baratheon_without_intrigue", "effect": [["bt_icon_target", "intrigue", "phase"]]}],
    "ser_davos_seaworth": [{"kind": "interrupt", "on": "would_leave", "if": ["bt_ev_self_killed"],
                            "effect": [["bt_to_hand_instead"]]}],
    "shireen_baratheon": [{"kind": "interrupt", "on": "would_leave", "if": ["bt_ev_self_killed"],
                           "target": "bt_standing_character", "effect": [["kneel_target"]]}],
    "bastard_in_hiding": [],
    "fiery_followers": [{"kind": "reaction", "on": "phase_began", "if": ["phase:dominance", "self_kneeling"],
                         "effect": [["stand_self"]]}],
    "kings_hunting_party": [{"kind": "constant", "bt": "kings_hunting_party"}],
    "dragonstone_faithful": _reducer("baratheon", "character"),
    "vanguard_lancer": [{"kind": "reaction", "on": "entered", "if": ["ev_self", "bt_opponent_has_power"],
                         "effect": [["script", "bt_vanguard_lancer"]]}],
    "dragonstone_port": _reducer("baratheon", None),
    "chamber_of_the_painted_table": [{"kind": "reaction", "on": "dominance_won",
                                      "if": ["you_won", "bt_opponent_faction_power"], "cost": ["kneel_self"],
                                      "effect": [["bt_take_faction_power", "opponent"]]}],
    "stannis_baratheon": [{"kind": "constant", "rule": "stannis"}],
    "the_red_keep": [{"kind": "constant", "rule": "red_keep"},
                     {"kind": "interrupt", "on": "phase_ended", "if": ["phase:challenges", "bt_lost_no_power_challenge",
                                                                      "own_deck"],
                      "cost": ["kneel_self"], "effect": [["draw", 2]]}],
    "lightbringer": [{"kind": "constant", "to": "host", "if": ["host_is:stannis_baratheon"], "mod": {"keywords": ["renown"]}},
                     {"kind": "reaction", "on": "bt_power_gained", "if": ["bt_ev_host", "host_kneeling"],
                      "limit": ["phase", 1], "effect": [["stand_host"]]}],
    "consolidation_of_power": [{"kind": "action", "phase": "marshaling", "if": ["bt_consolidation_possible"],
                                "effect": [["script", "bt_consolidation_of_power"]]}],
    "seen_in_flames": [{"kind": "action", "phase": "challenges", "if": ["bt_controls_rhllor", "bt_opponent_has_hand"],
                        "effect": [["script", "bt_seen_in_flames"], ["bt_played"]]}],
    "ours_is_the_fury": [{"kind": "action", "if": ["you_defend"], "target": "bt_own_kneeling_baratheon",
                          "effect": [["bt_join_as_defender"]]}],
    # ---------------------------------------------------------------- targaryen
    "daenerys_targaryen": [{"kind": "constant", "bt": "daenerys"}],
    "drogon": [{"kind": "constant", "to": "daenerys_targaryen", "mod": {"keywords": ["renown"]}}],
    "viserion": [{"kind": "constant", "to": "daenerys_targaryen", "mod": {"keywords": ["stealth"]}}],
    "khal_drogo": [{"kind": "constant", "rule": "extra_military"}],
    "magister_illyrio": [{"kind": "action", "cost": ["gold:2"], "target": "bt_kneeling_character",
                         "limit": ["phase", 1], "effect": [["stand_target"]]}],
    "rhaegal": [{"kind": "reaction", "on": "challenge_won", "if": ["you_won", "bt_own_stormborn_participating"],
                 "target": "bt_kneeling_stormborn", "limit": ["phase", 1], "effect": [["stand_target"]]}],
    "ser_jorah_mormont": [{"kind": "forced_reaction", "on": "challenge_won", "if": ["you_won", "self_participating"],
                           "effect": [["bt_betrayal"]]}],
    "viserys_targaryen": [{"kind": "interrupt", "on": "would_leave", "if": ["bt_ev_self_leaving"],
                           "target": "any_attachment", "effect": [["discard_target"]]}],
    "braided_warrior": [],
    "handmaiden": [{"kind": "action", "cost": ["sacrifice_self"], "target": "bt_kneeling_lady",
                    "effect": [["stand_target"]]}],
    "targaryen_loyalist": _reducer("targaryen", "character"),
    "unsullied": [{"kind": "constant", "bt": "unsullied"}],
    "illyrios_estate": _reducer("targaryen", None),
    "dothraki_sea": [{"kind": "reaction", "on": "challenge_won", "if": ["you_won", "ev_type:power"],
                      "cost": ["sacrifice_self"], "target": "bt_hand_dothraki",
                      "effect": [["put_target_into_play"], ["bt_return_at_phase_end", "put"]]}],
    "drogos_arakh": [{"kind": "constant", "to": "host", "mod": {"strength": 2}}],
    "plaza_of_punishment": [{"kind": "reaction", "on": "challenge_won", "if": ["you_won", "ev_type:power"],
                             "cost": ["kneel_self"], "target": "bt_character_without_attachments",
                             "effect": [["bt_weaken_target", 2]]}],
    "dracarys": [{"kind": "action", "cost": ["kneel:bt_own_standing_dragon_or_daenerys"],
                  "target": "bt_participating_character", "effect": [["bt_weaken_target", 4]]}],
    "fire_and_blood": [{"kind": "action", "phase": "challenges", "target": "bt_dead_unique_targaryen",
                        "effect": [["script", "bt_fire_and_blood"]]}],
    "waking_the_dragon": [{"kind": "action", "target": "bt_own_kneeling_unique_targaryen",
                           "effect": [["stand_target"], ["bt_return_at_phase_end", "target"]]}],
}

TOKENS = {"betrayal": gettext_noop("betrayal"), "stand": gettext_noop("stand")}


# ================================================================== conditions


def _chars(state, seats=None):
    return [u for s in (seats or state["seats"]) for u in T.in_play(state, s, "character")]


def _traits(state, uid):
    return T.card(state, uid)["traits"]


def _c_ev_own_rhllor(state, ctx, arg):
    ev = ctx.get("ev") or {}
    u = ev.get("uid")
    return bool(u) and ev.get("seat") == ctx["seat"] and "R'hllor" in _traits(state, u)


def _c_ev_self_killed(state, ctx, arg):
    ev = ctx.get("ev") or {}
    return ev.get("dest") == "dead" and ctx["src"] in A._open_uids(state, ev)


def _c_ev_self_leaving(state, ctx, arg):
    ev = ctx.get("ev") or {}
    return ctx["src"] in A._open_uids(state, ev)


def _power_chars(state, opp):
    return [u for u in _chars(state, [opp]) if state["inplay"][u]["power"] > 0]


def _has_power(state, opp):
    return state["players"][opp]["faction_power"] > 0 or bool(_power_chars(state, opp))


def _has_faction_power(state, opp):
    return state["players"][opp]["faction_power"] > 0


def _the_opponent(state, ctx):
    """The opponent the card's player chose (A.ask_opponent), else the usual reading."""
    o = ctx.get("opp")
    return o if o in T.others(state, ctx["seat"]) else T.opponent(state, ctx["seat"])


def _c_opponent_has_power(state, ctx, arg):
    return bool(A.opponents_where(state, ctx["seat"], lambda o: _has_power(state, o)))


def _c_opponent_faction_power(state, ctx, arg):
    return bool(A.opponents_where(state, ctx["seat"], lambda o: _has_faction_power(state, o)))


def _c_loser_faction_power(state, ctx, arg):
    loser = (ctx.get("ev") or {}).get("loser")
    return bool(loser) and state["players"][loser]["faction_power"] > 0


def _c_controls_rhllor(state, ctx, arg):
    return any("R'hllor" in _traits(state, u) for u in _chars(state, [ctx["seat"]]))


def _c_opponent_has_hand(state, ctx, arg):
    return bool(A.opponents_where(state, ctx["seat"], lambda o: bool(state["players"][o]["hand"])))


def _c_own_stormborn_participating(state, ctx, arg):
    return any(state["inplay"][u]["participating"] and "Stormborn" in _traits(state, u)
               for u in _chars(state, [ctx["seat"]]))


def _c_lost_no_power_challenge(state, ctx, arg):
    return state["players"][ctx["seat"]].get("bt_lost_power") != state["round"]


def _c_ev_host(state, ctx, arg):
    h = A._host(state, ctx["src"])
    return h is not None and (ctx.get("ev") or {}).get("uid") == h


def _consolidation_firsts(state, ctx):
    return [u for u in _chars(state) if not state["inplay"][u]["kneeling"] and A.strength(state, u) <= 4]


def _c_consolidation_possible(state, ctx, arg):
    return bool(_consolidation_firsts(state, ctx))


def _stand_tokens(state, seat):
    """Stand tokens on the seat's revealed plot (Power Behind the Throne): {"plot": uid, "n": count}."""
    t = state["players"][seat].get("bt_stand_tokens")
    return t["n"] if t and t["plot"] == state["players"][seat]["plot"] else 0


A.MORE_CONDS.update({
    "bt_has_stand_token": lambda state, ctx, arg: _stand_tokens(state, ctx["seat"]) > 0,
    "bt_lost_no_power_challenge": _c_lost_no_power_challenge,
    "bt_ev_host": _c_ev_host,
    "bt_consolidation_possible": _c_consolidation_possible,
    "bt_ev_own_rhllor": _c_ev_own_rhllor,
    "bt_ev_self_killed": _c_ev_self_killed,
    "bt_ev_self_leaving": _c_ev_self_leaving,
    "bt_opponent_has_power": _c_opponent_has_power,
    "bt_opponent_faction_power": _c_opponent_faction_power,
    "bt_loser_faction_power": _c_loser_faction_power,
    "bt_controls_rhllor": _c_controls_rhllor,
    "bt_opponent_has_hand": _c_opponent_has_hand,
    "bt_own_stormborn_participating": _c_own_stormborn_participating,
})


# ================================================================== selectors (targets that the effect can change, L136)


def _kneeling(state, uid):
    return state["inplay"][uid]["kneeling"]


A.MORE_SELECTORS.update({
    "bt_standing_character": lambda s, ctx: [u for u in _chars(s) if not _kneeling(s, u)],
    "bt_kneeling_character": lambda s, ctx: [u for u in _chars(s) if _kneeling(s, u)],
    "bt_kneeling_lady": lambda s, ctx: [u for u in _chars(s) if _kneeling(s, u) and "Lady" in _traits(s, u)],
    "bt_kneeling_stormborn": lambda s, ctx: [u for u in _chars(s) if _kneeling(s, u) and "Stormborn" in _traits(s, u)],
    "bt_condition_attachment": lambda s, ctx: [u for x in s["seats"] for u in T.in_play(s, x, "attachment")
                                               if "Condition" in _traits(s, u)],
    "bt_baratheon_without_intrigue": lambda s, ctx: [u for u in _chars(s) if T.card(s, u)["faction"] == "baratheon"
                                                     and not A.has_icon(s, u, "intrigue")],
    "bt_own_participating_wildling": lambda s, ctx: [u for u in _chars(s, [ctx["seat"]])
                                                     if s["inplay"][u]["participating"] and "Wildling" in _traits(s, u)],
    "bt_own_kneeling_baratheon": lambda s, ctx: [u for u in _chars(s, [ctx["seat"]]) if _kneeling(s, u)
                                                 and not s["inplay"][u]["participating"]
                                                 and T.card(s, u)["faction"] == "baratheon"],
    "bt_own_kneeling_unique_targaryen": lambda s, ctx: [u for u in _chars(s, [ctx["seat"]]) if _kneeling(s, u)
                                                        and T.card(s, u)["unique"]
                                                        and T.card(s, u)["faction"] == "targaryen"],
    "bt_hand_dothraki": lambda s, ctx: [u for u in s["players"][ctx["seat"]]["hand"]
                                        if T.card(s, u)["type"] == "character" and "Dothraki" in _traits(s, u)
                                        and A._can_put(s, ctx["seat"], u)],
    "bt_dead_unique_targaryen": lambda s, ctx: [u for u in s["players"][ctx["seat"]]["dead"]
                                                if T.card(s, u)["type"] == "character" and T.card(s, u)["unique"]
                                                and T.card(s, u)["faction"] == "targaryen"],
    "bt_top10_location_or_attachment": lambda s, ctx: [u for u in s["players"][ctx["seat"]]["deck"][:10]
                                                       if T.card(s, u)["type"] in ("location", "attachment")],
    "bt_opponent_power_character": lambda s, ctx: _power_chars(s, _the_opponent(s, ctx)),
    "bt_opponent_hand": lambda s, ctx: list(s["players"][_the_opponent(s, ctx)]["hand"]),
    "bt_own_characters": lambda s, ctx: _chars(s, [ctx["seat"]]),
    "bt_own_kneeling_characters": lambda s, ctx: [u for u in _chars(s, [ctx["seat"]]) if _kneeling(s, u)],
    "bt_character_without_attachments": lambda s, ctx: [u for u in _chars(s) if not T.attachments_on(s, u)],
    "bt_participating_character": lambda s, ctx: [u for u in _chars(s) if s["inplay"][u]["participating"]],
    "bt_own_standing_dragon_or_daenerys": lambda s, ctx: [
        u for u in _chars(s, [ctx["seat"]]) if not _kneeling(s, u)
        and ("Dragon" in _traits(s, u) or T.cid(s, u) == "daenerys_targaryen")],
    "bt_consolidation_first": _consolidation_firsts,
    "bt_consolidation_more": lambda s, ctx: [
        u for u in _chars(s, [T.controller(s, ctx["consolidated"][0])]) if not _kneeling(s, u)
        and u not in ctx["consolidated"]
        and A.strength(s, u) + sum(A.strength(s, x) for x in ctx["consolidated"]) <= 4],
    "bt_consolidated": lambda s, ctx: [u for u in ctx["consolidated"] if u in s["inplay"]],
})


# ================================================================== ops


def op_bt_take_faction_power(state, ctx, args, events, rest):
    """1 power moves from an opponent's faction card (the losing one, or the only opponent) onto yours."""
    if args[0] == "loser":
        frm = ctx["ev"]["loser"]
    else:  # Chamber of the Painted Table: an opponent with power on the faction card, chosen in a melee
        if A.ask_opponent(state, ctx, ["bt_take_faction_power", *args], rest, lambda o: _has_faction_power(state, o)):
            return "wait"
        frm = ctx["opp"]
    p = state["players"][frm]
    if p["faction_power"] <= 0:
        return False
    p["faction_power"] -= 1
    state["players"][ctx["seat"]]["faction_power"] += 1
    events.append({"type": "power_moved", "from": frm, "to": ctx["seat"], "amount": 1})
    return True


def op_bt_icon_target(state, ctx, args, events, rest):
    done = False
    for u in ctx["targets"]:
        if u in state["inplay"]:
            state["lasting"].append({"target": u, "icons": [args[0]], "until": args[1], "source": ctx["cid"]})
            done = True
    return done


def op_bt_to_hand_instead(state, ctx, args, events, rest):
    """Ser Davos Seaworth: killed, he goes to his owner's hand instead of the dead pile."""
    src = ctx["src"]
    fr = A._frame(state, ctx["ev"].get("leave"))
    if fr is None or src not in fr["uids"] or src not in state["inplay"]:
        return False
    fr["uids"].remove(src)
    cards = [{"uid": src, "controller": T.controller(state, src)}]
    T.leave_play(state, [src], "hand", events, ctx["cid"])
    A.emit(state, {"t": "killed", "uids": [src], "cards": cards}, events)
    return True


def op_bt_played(state, ctx, args, events, rest):
    """The event has been played (Melisandre answers a R'hllor event)."""
    A.emit(state, {"t": "bt_played", "uid": ctx["src"], "seat": ctx["seat"]}, events)
    return True


def op_bt_betrayal(state, ctx, args, events, rest):
    """Ser Jorah Mormont: a betrayal token; with 3 or more he is sacrificed at once."""
    src = ctx["src"]
    if src not in state["inplay"]:
        return False
    tok = state["inplay"][src]["tokens"]
    tok["betrayal"] = tok.get("betrayal", 0) + 1
    events.append({"type": "token", "card": ctx["cid"], "token": "betrayal"})
    if tok["betrayal"] >= 3:
        A.leave_now(state, [src], "discard", "sacrifice", events)
    return True


def op_bt_join_as_defender(state, ctx, args, events, rest):
    """Ours Is the Fury: the character joins the challenge as a defender; it stands if you win."""
    ch = state.get("challenge")
    u = ctx["targets"][0] if ctx["targets"] else None
    if not ch or not ch["live"] or u not in state["inplay"] or state["inplay"][u]["participating"]:
        return False
    state["inplay"][u]["participating"] = "defending"
    ch["defenders"].append(u)
    ch.setdefault("names", {})[u] = T.cid(state, u)
    events.append({"type": "defenders", "seat": ctx["seat"], "defenders": [T.cid(state, u)]})
    state["delayed"].append({"at": "challenge_won", "bt": "stand_if_won", "uid": u, "seat": ctx["seat"],
                             "until": "challenge"})
    return True


def op_bt_return_at_phase_end(state, ctx, args, events, rest):
    """"When the phase ends, if it is still in play, it goes back to your hand (it cannot be saved)"."""
    u = ctx.get("put") if args[0] == "put" else (ctx["targets"][0] if ctx["targets"] else None)
    if u is None or u not in state["inplay"]:
        return False
    state["delayed"].append({"at": "phase_ended", "bt": "return_to_hand", "uid": u, "card": ctx["cid"]})
    return True


def op_bt_stand_token(state, ctx, args, events, rest):
    state["players"][ctx["seat"]]["bt_stand_tokens"] = {"plot": ctx["src"], "n": 1}
    events.append({"type": "token", "card": ctx["cid"], "token": "stand"})
    return True


def op_bt_discard_stand_token(state, ctx, args, events, rest):
    if _stand_tokens(state, ctx["seat"]) <= 0:
        return False
    state["players"][ctx["seat"]]["bt_stand_tokens"]["n"] -= 1
    return True


def op_bt_weaken_target(state, ctx, args, events, rest):
    """Plaza of Punishment, Dracarys: -N STR until the phase ends, killed whenever its STR is 0 then."""
    done = False
    for u in ctx["targets"]:
        if u in state["inplay"]:
            state["lasting"].append({"target": u, "strength": -args[0], "until": "phase", "source": ctx["cid"],
                                     "bt_kill_at_0": True})
            done = True
    _kill_at_0(state, events)
    return done


def _leaving(state, u):
    return any(f.get("f") == "leave" and u in f["uids"] for f in state["stack"] + state["queue"])


def _kill_at_0(state, events):
    """"Whenever its STR is 0 during that time it is killed": checked as the effect lands and at every
    triggering condition after it (abilities.emit)."""
    for e in list(state["lasting"]):
        u = e.get("target")
        if e.get("bt_kill_at_0") and u in state["inplay"] and A.strength(state, u) == 0 and not _leaving(state, u):
            A.request_leave(state, [u], "dead", e["source"], events)


for _name, _fn in list(globals().items()):
    if _name.startswith("op_bt_"):
        A.OPS[_name[3:]] = _fn


# ================================================================== scripts


def sc_bt_building_orders(state, ctx, events, rest):
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="bt_top10_location_or_attachment",
                          then="to_hand_shuffle", optional=True)


def sc_bt_marched_to_the_wall(state, ctx, events, rest):
    """Every player with a character picks one; then all the picked ones are discarded at once,
    unsavable. A player with one character has no choice to make."""
    ctx["marched"] = []
    ctx["marching"] = [s for s in T.player_order(state) if T.in_play(state, s, "character")]
    return _marched_next(state, ctx, events, rest)


def _marched_next(state, ctx, events, rest):
    while ctx["marching"]:
        s = ctx["marching"].pop(0)
        chars = T.in_play(state, s, "character")
        if len(chars) == 1:
            ctx["marched"].append(chars[0])
            continue
        return A._push_choice(state, s, "card", ctx, rest, selector="bt_own_characters", then="bt:marched",
                              optional=False)
    A.request_leave(state, ctx["marched"], "discard", ctx["cid"], events, savable=False)
    return True


def sc_bt_vanguard_lancer(state, ctx, events, rest):
    if A.ask_opponent(state, ctx, ["script", "bt_vanguard_lancer"], rest, lambda o: _has_power(state, o)):
        return "wait"
    opp = ctx["opp"]
    faction = state["players"][opp]["faction_power"] > 0
    chars = _power_chars(state, opp)
    if faction and chars:
        return A._push_choice(state, ctx["seat"], "mode", ctx, rest, modes=2, then="bt:lancer")
    if faction:
        return _discard_faction_power(state, ctx, opp, events)
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="bt_opponent_power_character",
                          then="bt:discard_power", optional=False)


def _discard_faction_power(state, ctx, opp, events):
    state["players"][opp]["faction_power"] -= 1
    events.append({"type": "power", "seat": opp, "card": "faction", "amount": -1, "reason": ctx["cid"]})
    return True


def sc_bt_seen_in_flames(state, ctx, events, rest):
    if A.ask_opponent(state, ctx, ["script", "bt_seen_in_flames"], rest, lambda o: bool(state["players"][o]["hand"])):
        return "wait"
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="bt_opponent_hand",
                          then="bt:discard_from_hand", optional=False)


def sc_bt_fire_and_blood(state, ctx, events, rest):
    u = ctx["targets"][0] if ctx["targets"] else None
    if u is None or u not in state["players"][ctx["seat"]]["dead"]:
        return False
    if "Hatchling" in _traits(state, u) and A._can_put(state, ctx["seat"], u, from_dead=True):
        # 0: shuffle it into the deck, 1: put it into play
        return A._push_choice(state, ctx["seat"], "mode", ctx, rest, modes=2, then="bt:fire_and_blood")
    _shuffle_from_dead(state, ctx["seat"], u, events)
    return True


def sc_bt_consolidation_of_power(state, ctx, events, rest):
    """Pick characters of one player, one by one, while their STR adds up to 4 or less (the first is
    required, the others may be declined); kneel them; then one of them gains 1 power."""
    ctx["consolidated"] = []
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="bt_consolidation_first",
                          then="bt:consolidate", optional=False)


def _consolidation_done(state, ctx, events, rest):
    for u in ctx["consolidated"]:
        if u in state["inplay"] and not state["inplay"][u]["kneeling"]:
            state["inplay"][u]["kneeling"] = True
            events.append({"type": "kneel", "seat": T.controller(state, u), "card": T.cid(state, u),
                           "reason": ctx["cid"]})
    if len(ctx["consolidated"]) == 1:
        _gain_power(state, ctx, ctx["consolidated"][0], events)
        return None
    return A._push_choice(state, ctx["seat"], "card", ctx, rest, selector="bt_consolidated",
                          then="bt:consolidated_power", optional=False)


def _gain_power(state, ctx, u, events):
    if u in state["inplay"]:
        state["inplay"][u]["power"] += 1
        events.append({"type": "power", "seat": T.controller(state, u), "card": T.cid(state, u), "amount": 1,
                       "reason": ctx["cid"]})
        A.emit(state, {"t": "bt_power_gained", "uid": u}, events)


def _shuffle_from_dead(state, seat, u, events):
    p = state["players"][seat]
    p["dead"].remove(u)
    p["deck"].append(u)
    rng.shuffle(state, p["deck"], 0)
    p["pinned"] = 0
    events.append({"type": "shuffled_into_deck", "seat": seat, "cards": [T.cid(state, u)]})


for _name, _fn in list(globals().items()):
    if _name.startswith("sc_bt_"):
        A.SCRIPTS[_name[3:]] = _fn


# ================================================================== answers of the choices above ("bt:<name>")


def _then_kneel(state, fr, u, events):
    if u is not None and u in state["inplay"] and not state["inplay"][u]["kneeling"]:
        state["inplay"][u]["kneeling"] = True
        events.append({"type": "kneel", "seat": T.controller(state, u), "card": T.cid(state, u),
                       "reason": fr["ctx"]["cid"]})


def _then_marched(state, fr, u, events):
    ctx = fr["ctx"]
    ctx["marched"].append(u)
    return _marched_next(state, ctx, events, fr["rest"])


def _then_discard_power(state, fr, u, events):
    if u is not None and u in state["inplay"] and state["inplay"][u]["power"] > 0:
        state["inplay"][u]["power"] -= 1
        events.append({"type": "power", "seat": T.controller(state, u), "card": T.cid(state, u), "amount": -1,
                       "reason": fr["ctx"]["cid"]})


def _then_lancer(state, fr, mode, events):
    ctx = fr["ctx"]
    if mode == 1:  # the options in the order the text gives them (SCENARIOS.md): a character, then a faction card
        _discard_faction_power(state, ctx, _the_opponent(state, ctx), events)
        return None
    return A._push_choice(state, ctx["seat"], "card", ctx, fr["rest"], selector="bt_opponent_power_character",
                          then="bt:discard_power", optional=False)


def _then_discard_from_hand(state, fr, u, events):
    if u is None:
        return
    o = T.owner(state, u)
    p = state["players"][o]
    if u in p["hand"]:
        p["hand"].remove(u)
        p["discard"].insert(0, u)
        events.append({"type": "discard", "seat": o, "card": T.cid(state, u), "reason": fr["ctx"]["cid"]})


def _then_fire_and_blood(state, fr, mode, events):
    ctx = fr["ctx"]
    u = ctx["targets"][0]
    if mode == 1 and A._can_put(state, ctx["seat"], u, from_dead=True):
        A._put_into_play(state, ctx["seat"], u, events)
    else:
        _shuffle_from_dead(state, ctx["seat"], u, events)


def _then_consolidate(state, fr, u, events):
    ctx = fr["ctx"]
    if u is not None:
        ctx["consolidated"].append(u)
        if A.candidates(state, ctx, "bt_consolidation_more"):
            return A._push_choice(state, ctx["seat"], "card", ctx, fr["rest"], selector="bt_consolidation_more",
                                  then="bt:consolidate", optional=True)
    return _consolidation_done(state, ctx, events, fr["rest"])


def _then_consolidated_power(state, fr, u, events):
    _gain_power(state, fr["ctx"], u, events)


def _then_stannis(state, fr, u, events):
    ctx = fr["ctx"]
    if u is not None:
        A._stand(state, u, events)
    ctx["left"] -= 1
    if ctx["left"] > 0 and A.candidates(state, ctx, "bt_own_kneeling_characters"):
        return A._push_choice(state, ctx["seat"], "card", ctx, [], selector="bt_own_kneeling_characters",
                              then="bt:stannis", optional=False)
    return None


BT_THEN = {"kneel": _then_kneel, "consolidate": _then_consolidate, "consolidated_power": _then_consolidated_power,
           "stannis": _then_stannis, "marched": _then_marched, "discard_power": _then_discard_power,
           "lancer": _then_lancer, "discard_from_hand": _then_discard_from_hand,
           "fire_and_blood": _then_fire_and_blood}


def _bt_answer(state, fr, seat, value, events):
    ctx, w = fr["ctx"], fr["what"]
    if w == "mode":
        if isinstance(value, bool) or not isinstance(value, int) or value not in range(fr["modes"]):
            A.refuse(gettext("choose a mode, 0 to %(n)s") % {"n": fr["modes"] - 1})
        got = value
    elif w == "card":
        opts = A.choice_options(state, fr)
        if value is None:
            if not fr.get("optional") and opts:
                A.refuse(gettext("this choice is not optional"))
            got = None
        else:
            got = A.resolve_name(state, seat, value)
            if got not in opts:
                A.refuse(gettext("%(card)s is not a valid choice") % {"card": A.shown_name(value)})
    else:
        raise EngineError("bad_action", gettext("nothing to choose"))
    A._done_choice(state, fr)
    if BT_THEN[fr["then"][3:]](state, fr, got, events) == "wait":
        return
    A.run_ops(state, ctx, fr["rest"], events)


# ================================================================== the modifier layer's additions


def _mod_robert(state, src, seat, uid, out):
    if uid == src:
        out[0] += sum(1 for u in _chars(state) if u != src and state["inplay"][u]["kneeling"])


def _mod_daenerys(state, src, seat, uid, out):
    ch = state.get("challenge")
    if (not state["inplay"][src]["kneeling"] and ch and ch["live"] and seat in (ch["attacker"], ch["defender"])
            and T.controller(state, uid) != seat and state["inplay"][uid]["participating"]
            and T.type_in_play(state, uid) == "character"):
        out[0] -= 1


def _mod_unsullied(state, src, seat, uid, out):
    if state["inplay"][src]["participating"] == "attacking" and state["inplay"][uid]["participating"] == "defending":
        out[0] -= 1


def _mod_kings_hunting_party(state, src, seat, uid, out):
    if uid == src and any("King" in _traits(state, u) for u in _chars(state, T.others(state, seat))):
        out[1].add("intrigue")


BT_MODS = {"robert": _mod_robert, "daenerys": _mod_daenerys, "unsullied": _mod_unsullied,
           "kings_hunting_party": _mod_kings_hunting_party}


# ================================================================== hooks into the framework


_wrap = wrap  # hooks.py


@_wrap(A, "modified")
def _modified(state, uid):
    delta, icons, kws = _modified.orig(state, uid)
    out = [delta, set(icons), set(kws)]
    for e in state.get("lasting", ()):
        if e.get("target") == uid and e.get("icons"):
            out[1].update(e["icons"])
    for src, seat, a in A.constants(state):
        if "bt" in a:
            BT_MODS[a["bt"]](state, src, seat, uid, out)
    return out[0], out[1], out[2]


def _fortified(state):
    return any(state["players"][s]["plot"] is not None
               and T.cid(state, state["players"][s]["plot"]) == "fortified_position" for s in state["seats"])


@_wrap(A, "blanked")
def _blanked(state, uid):
    """L158: Fortified Position treats every character's printed text box as blank (keywords too)."""
    if _blanked.orig(state, uid):
        return True
    return T.card(state, uid)["type"] == "character" and _fortified(state)


@_wrap(A, "challenge_allowance")
def _challenge_allowance(state, seat, ctype):
    """A Storm of Swords, Khal Drogo: 1 extra military challenge each (L72)."""
    why = _challenge_allowance.orig(state, seat, ctype)
    if why is None or ctype != "military":
        return why
    extra = sum(1 for _, s in A.rule_sources(state, "extra_military") if s == seat)
    p = state["players"][seat]
    if not extra or (A.rule_for(state, "one_challenge", seat) and p["challenges"]):
        return why
    saved = p["challenges"]
    trimmed = list(saved)
    for _ in range(extra):
        if "military" in trimmed:
            trimmed.remove("military")
    p["challenges"] = trimmed
    try:
        return _challenge_allowance.orig(state, seat, ctype)
    finally:
        p["challenges"] = saved


@_wrap(A, "no_kneel")
def _no_kneel(state, uid, role, ctype):
    """Drogo's Arakh: Khal Drogo does not kneel attacking in his seat's first military challenge."""
    if _no_kneel.orig(state, uid, role, ctype):
        return True
    if role != "attacking" or ctype != "military" or T.cid(state, uid) != "khal_drogo":
        return False
    seat = T.controller(state, uid)
    return "military" not in state["players"][seat]["challenges"] and any(
        T.cid(state, a) == "drogos_arakh" for a in T.attachments_on(state, uid))


@_wrap(A, "marshal_cost")
def _marshal_cost(state, seat, uid, *, consume=False):
    """A Noble Cause: the first Lord or Lady character the seat marshals this round costs 2 less."""
    cost = _marshal_cost.orig(state, seat, uid, consume=consume)
    c = T.card(state, uid)
    p = state["players"][seat]
    if (c["type"] == "character" and {"Lord", "Lady"} & set(c["traits"]) and A.rule_for(state, "noble_cause", seat)
            and p.get("bt_noble_cause") != state["round"]):
        cost = max(0, cost - 2)
        if consume:
            p["bt_noble_cause"] = state["round"]  # the round it was used in
    return cost


@_wrap(actions, "entry_problem")
def _entry_problem(state, seat, uid, host, *, marshal):
    """Marching Orders: no attachment or location is marshaled."""
    if marshal and T.card(state, uid)["type"] in ("attachment", "location") and A.rule_for(state, "marching_orders", seat):
        return gettext("Marching Orders: you may not marshal attachments or locations"), False
    return _entry_problem.orig(state, seat, uid, host, marshal=marshal)


@_wrap(A, "_sources")
def _sources(state, seat, timing):
    """Marching Orders: no event is played. The seat's revealed plot is a source of its own
    triggered abilities (L87, L91)."""
    out = _sources.orig(state, seat, timing)
    if A.rule_for(state, "marching_orders", seat):
        out = [(u, ev) for u, ev in out if not ev]
    pu = state["players"][seat]["plot"]
    if pu is not None and any(a["kind"] in A.TRIGGERED for a in ABILITIES.get(T.cid(state, pu), ())):
        out.append((pu, False))
    return out


@_wrap(A, "initiate")
def _initiate(state, seat, kind, value, events):
    """Marching Orders: no event is played. A revealed plot's own action or reaction (Power Behind
    the Throne, A Clash of Kings, A Feast for Crows) is triggered by the plot's id."""
    if kind == "play" and A.rule_for(state, "marching_orders", seat):
        A.refuse(gettext("Marching Orders: you may not play events"))
    pu = state["players"][seat]["plot"]
    name = value.get("card") if isinstance(value, dict) else value
    if kind != "trigger" or pu is None or name != T.cid(state, pu) or any(
            T.cid(state, u) == name for u in state["players"][seat]["play"]):
        return _initiate.orig(state, seat, kind, value, events)
    find = T.find_in_play
    T.find_in_play = lambda st, nm, seats, ctype=None: pu if (nm == name and seats == [seat]) else find(
        st, nm, seats, ctype)
    try:
        return _initiate.orig(state, seat, kind, value, events)
    finally:
        T.find_in_play = find


@_wrap(A, "answer")
def _answer(state, seat, value, events):
    fr = state["stack"][-1] if state["stack"] else None
    if fr is not None and fr.get("f") == "choose" and str(fr.get("then") or "").startswith("bt:"):
        _bt_answer(state, fr, seat, value, events)
        return
    _answer.orig(state, seat, value, events)


@_wrap(A, "_delayed_on")
def _delayed_on(state, ev, events):
    """L108: this module's delayed effects (return to hand when the phase ends; stand if you win)."""
    mine = [d for d in state["delayed"] if d.get("bt") and d["at"] == ev["t"]]
    if mine:
        state["delayed"] = [d for d in state["delayed"] if d not in mine]
    _delayed_on.orig(state, ev, events)
    for d in mine:
        u = d["uid"]
        if d["bt"] == "return_to_hand" and u in state["inplay"]:
            if A.put_right(state):
                # unsavable, but it leaves play: Viserys's interrupt answers it (L91, L218)
                A.request_leave(state, [u], "hand", d["card"], events, savable=False)
            else:
                T.leave_play(state, [u], "hand", events, d["card"])
        elif d["bt"] == "stand_if_won" and ev.get("winner") == d["seat"]:
            A._stand(state, u, events)


@_wrap(flow, "dominance_begin")
def _dominance_begin(state, events):
    """L91: "after the dominance phase has begun" is a triggering condition (Fiery Followers), as
    the challenges phase's beginning is."""
    _dominance_begin.orig(state, events)
    A.phase_began(state, "dominance", events)


flow.STEPS["dominance_begin"] = flow.dominance_begin


@_wrap(flow, "standing_stand")
def _standing_stand(state, events):
    """Stannis Baratheon: in the standing phase no player stands more than 2 characters (L80); a
    player with more kneeling picks 2, one at a time. Other cards stand as usual."""
    stannis = [src for src, _ in A.rule_sources(state, "stannis")]
    if not stannis:
        return _standing_stand.orig(state, events)
    flow.set_step(state, "standing", "6.2", events)
    stood, choosers = [], []
    for s in state["seats"]:
        state["players"][s]["faction_kneeling"] = False
    for u, rec in state["inplay"].items():
        if rec["kneeling"] and T.type_in_play(state, u) != "character":
            stood.append(u)
    for s in T.player_order(state):
        kneel = [u for u in T.in_play(state, s, "character") if state["inplay"][u]["kneeling"]]
        if len(kneel) <= 2:
            stood.extend(kneel)
        else:
            choosers.append(s)
    for u in stood:
        state["inplay"][u]["kneeling"] = False
        events.append({"type": "stand", "seat": T.controller(state, u), "card": T.cid(state, u)})
    flow.open_window(state, "standing", "standing_end")
    if stood:
        A.emit(state, {"t": "stood", "uids": stood}, events)
    for s in choosers:
        ctx = {"src": stannis[0], "cid": "stannis_baratheon", "i": 0, "seat": s, "ev": None, "targets": [], "left": 2}
        A._push_choice(state, s, "card", ctx, [], selector="bt_own_kneeling_characters", then="bt:stannis",
                       optional=False)


flow.STEPS["standing_stand"] = flow.standing_stand


@_wrap(flow, "challenge_strength")
def _challenge_strength(state, events):
    """The Red Keep adds 2 STR to its controller's side in a power challenge where a character the
    controller controls participates (the side's total, not a character's STR); a seat that loses a
    power challenge is remembered for the Red Keep's interrupt."""
    ch = state["challenge"]
    bonus = {}
    if ch["type"] == "power":
        for _, s in A.rule_sources(state, "red_keep"):
            if any(state["inplay"][u]["participating"] for u in T.in_play(state, s, "character")):
                bonus[s] = bonus.get(s, 0) + 2
    if not bonus:
        _challenge_strength.orig(state, events)
    else:
        # the framework sums T.strength of the side's contributing characters: the side's first one
        # carries the bonus for the time of that sum
        carriers = {}
        for s, n in bonus.items():
            side = [u for u in T.in_play(state, s, "character") if state["inplay"][u]["participating"]
                    and A.contributes(state, u)]
            if side:
                carriers[side[0]] = n
        orig_strength = T.strength
        T.strength = lambda st, u: orig_strength(st, u) + (carriers.get(u, 0) if st is state else 0)
        try:
            _challenge_strength.orig(state, events)
        finally:
            T.strength = orig_strength
    if ch["type"] == "power" and ch.get("loser"):
        state["players"][ch["loser"]]["bt_lost_power"] = state["round"]


flow.STEPS["challenge_strength"] = flow.challenge_strength


@_wrap(A, "emit")
def _emit(state, ev, events, timing="reaction"):
    _kill_at_0(state, events)
    _emit.orig(state, ev, events, timing)


def _powers(state):
    return {u: rec["power"] for u, rec in state["inplay"].items()}


def _emit_power_gains(state, before, events):
    for u, rec in state["inplay"].items():
        if rec["power"] > before.get(u, rec["power"]):
            A.emit(state, {"t": "bt_power_gained", "uid": u}, events)


@_wrap(flow, "resolve_keyword")
def _resolve_keyword(state, seat, kw, uids, events):
    """Lightbringer answers a character gaining power: renown's gains are told (bt_power_gained)."""
    before = _powers(state)
    _resolve_keyword.orig(state, seat, kw, uids, events)
    _emit_power_gains(state, before, events)


_power_self = A.OPS["power_self"]


def _op_power_self(state, ctx, args, events, rest):
    before = _powers(state)
    r = _power_self(state, ctx, args, events, rest)
    _emit_power_gains(state, before, events)
    return r


A.OPS["power_self"] = _op_power_self


def max_attackers(state) -> int | None:
    """Jousting Contest: in any challenge each player declares at most 1 character (the engine's
    players read this, as they read abilities.max_defenders)."""
    return 1 if A.rule_sources(state, "jousting") else None


@_wrap(A, "max_defenders")
def _max_defenders(state):
    most = _max_defenders.orig(state)
    if A.rule_sources(state, "jousting"):
        return 1 if most is None else min(most, 1)
    return most


def _jousting_handler(kind, handler, words):
    def checked(state, seat, value, events):
        names = value.get("attackers") if kind == "challenge" and isinstance(value, dict) else value
        if isinstance(names, list) and len(names) > 1 and A.rule_sources(state, "jousting"):
            A.refuse(words())
        handler(state, seat, value, events)
    return checked


actions.HANDLERS["challenge"] = _jousting_handler(
    "challenge", actions.HANDLERS["challenge"], lambda: gettext("Jousting Contest: at most 1 attacker in a challenge"))
actions.HANDLERS["defenders"] = _jousting_handler(
    "defenders", actions.HANDLERS["defenders"], lambda: gettext("Jousting Contest: at most 1 defender in a challenge"))


def _register_tokens():
    from games.engine.lcg import narrate

    narrate.TOKENS.update(TOKENS)


_register_tokens()

ABILITIES.update(CARDS)
