"""The referee summary (SCENARIOS.md "lcg"), per-seat views and events, with the hidden
information of rules/lcg.md §5.2: hands are their owner's; the draw deck's order and contents are
hidden from everyone; the plot deck is its owner's; a chosen plot and setup cards stay hidden
until revealed; the generator's state is never shown."""
from __future__ import annotations

import copy
from typing import Any

from games.engine.base import HIDDEN, REFEREE
from games.engine.lcg import table as T

State = dict[str, Any]

TOP_KEYS = frozenset({
    "round", "phase", "step", "window", "first_player", "active", "initiative_winner", "hand", "hand_size", "deck",
    "deck_size", "discard", "dead", "plots", "used_plots", "chosen_plot", "plot", "income", "initiative", "claim",
    "reserve", "gold", "power", "faction", "characters", "locations", "attachments", "cards", "limited",
    "challenges", "challenge", "dominance", "setup_cards", "mulligan", "pending", "winner", "eliminated", "seats",
    "titles",
})


def pending(state: State) -> dict[str, str]:
    d = state.get("decision")
    if not d or state["over"]:
        return {}
    return {s: d["kind"] for s in d["seats"]}


def _ids(state: State, uids: list[str]) -> list[str]:
    return [T.cid(state, u) for u in uids]


def _card_summary(state: State, uid: str) -> dict[str, Any]:
    rec = state["inplay"][uid]
    c = T.card(state, uid)
    out: dict[str, Any] = {
        "kneeling": rec["kneeling"], "power": rec["power"], "tokens": dict(rec["tokens"]),
        "duplicates": len(rec["duplicates"]), "attachments": _ids(state, T.attachments_on(state, uid)),
        "on": T.cid(state, rec["on"]) if rec["on"] else None, "participating": rec["participating"],
        "gold": rec["gold"],
    }
    if c["type"] == "character":
        out["strength"] = T.strength(state, uid)
    return out


def summary(state: State, viewer: str | None = REFEREE) -> dict[str, Any]:
    seats = state["seats"]
    P = state["players"]
    d = state.get("decision")
    window = "action" if d and d["kind"] == "action" else None
    out: dict[str, Any] = {
        "seats": list(seats), "round": state["round"], "phase": state["phase"], "step": state["step"],
        "window": window, "first_player": state["first_player"], "active": state["active"],
        "initiative_winner": state["initiative_winner"], "pending": pending(state),
        "winner": state["winner"], "eliminated": list(state["eliminated"]),
        "dominance": copy.deepcopy(state["dominance"]) if state["dominance"] else None,
    }
    if "melee" in state:  # the titles held (revealed at the end of 1.4; a pick is never shown before)
        out["titles"] = {s: state["melee"]["titles"].get(s) for s in seats}
    per: dict[str, dict[str, Any]] = {k: {} for k in (
        "hand", "hand_size", "deck", "deck_size", "discard", "dead", "plots", "used_plots", "chosen_plot", "plot",
        "income", "initiative", "claim", "reserve", "gold", "power", "faction", "characters", "locations",
        "attachments", "cards", "limited", "challenges", "setup_cards", "mulligan")}
    for s in seats:
        p = P[s]
        per["hand"][s] = _ids(state, p["hand"])
        per["hand_size"][s] = len(p["hand"])
        per["deck"][s] = _ids(state, p["deck"])
        per["deck_size"][s] = len(p["deck"])
        per["discard"][s] = _ids(state, p["discard"])
        per["dead"][s] = _ids(state, p["dead"])
        per["plots"][s] = _ids(state, p["plots"])
        per["used_plots"][s] = _ids(state, p["used_plots"])
        per["chosen_plot"][s] = T.cid(state, p["chosen_plot"]) if p["chosen_plot"] else None
        per["plot"][s] = T.cid(state, p["plot"]) if p["plot"] else None
        for key in ("income", "initiative", "claim", "reserve"):
            per[key][s] = T.plot_value(state, s, key)
        per["gold"][s] = p["gold"]
        per["power"][s] = T.power_total(state, s)
        per["faction"][s] = {"card": p["faction"], "power": p["faction_power"], "kneeling": p["faction_kneeling"],
                             "agenda": p["agenda"]}
        for key, ctype in (("characters", "character"), ("locations", "location"), ("attachments", "attachment")):
            per[key][s] = _ids(state, T.in_play(state, s, ctype))
        cards: dict[str, Any] = {}
        names = T.copy_names(state, s)
        for u in p["play"]:
            entry = _card_summary(state, u)
            cards[names[u]] = entry
            base = names[u].rsplit("#", 1)
            if base[1] == "1":
                cards[base[0]] = entry
        per["cards"][s] = cards
        per["limited"][s] = p["limited"]
        per["challenges"][s] = list(p["challenges"])
        per["setup_cards"][s] = [T.cid(state, e["uid"]) for e in p["setup_cards"]] if p["setup_cards"] else []
        per["mulligan"][s] = p["mulligan"]
    out.update(per)
    ch = state["challenge"]
    if ch is None:
        out["challenge"] = None
    else:
        a_names = T.copy_names(state, ch["attacker"])
        d_names = T.copy_names(state, ch["defender"])
        rec = ch.get("names", {})

        def declared(uids):
            return [rec.get(u) or T.cid(state, u) for u in uids]

        def bare(names, u):
            return _bare(names.get(u), state, u) if u in state["inplay"] or u not in rec else rec[u]

        out["challenge"] = {
            "type": ch["type"], "attacker": ch["attacker"], "defender": ch["defender"],
            "attackers": declared(ch["attackers"]), "defenders": declared(ch["defenders"]),
            "stealth": {bare(a_names, a): bare(d_names, t) for a, t in ch["stealth"].items()},
            "strength": dict(ch["strength"]), "winner": ch["winner"], "loser": ch["loser"],
            "unopposed": ch["unopposed"], "claim": ch["claim"],
        }
    if viewer == REFEREE:
        return out
    return mask(state, out, viewer)


def _bare(name: str | None, state: State, uid: str) -> str:
    return T.cid(state, uid) if name is None else name.rsplit("#", 1)[0]


def mask(state: State, out: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    for s in out["seats"]:
        out["deck"][s] = HIDDEN
        if s != viewer:
            out["hand"][s] = HIDDEN
            out["plots"][s] = HIDDEN
            if out["chosen_plot"][s] is not None:
                out["chosen_plot"][s] = HIDDEN
            if out["setup_cards"][s]:
                out["setup_cards"][s] = HIDDEN
    return out


def summary_path_error(path: str) -> str | None:
    head = path.split(".", 1)[0]
    if head not in TOP_KEYS:
        return f"unknown summary key {head!r}"
    return None


# ------------------------------------------------------------------ views and events


def view(state: State, seat: str | None) -> State:
    """The state as `seat` may see it. Cards are shown by card id where the viewer may see them;
    a hidden card is HIDDEN (its instance id is not shown either, so nothing can be tracked from
    the deck to the hand)."""
    P = state["players"]
    visible: set[str] = set(state["inplay"])
    facedown = set(state.get("facedown", ()))
    for rec in state["inplay"].values():
        # a facedown duplicate (Arya Stark's) is seen by its controller only (L55)
        visible.update(d for d in rec["duplicates"] if d not in facedown or rec["controller"] == seat)
    players: dict[str, Any] = {}
    for s in state["seats"]:
        p = P[s]
        mine = s == seat
        pv = {k: copy.deepcopy(v) for k, v in p.items()
              if k not in ("hand", "deck", "plots", "chosen_plot", "setup_cards", "pinned")}
        for key in ("discard", "dead", "used_plots", "removed"):  # piles face up (removed: out of the game)
            visible.update(p.get(key, ()))
        if p["plot"]:
            visible.add(p["plot"])
        pv["deck"] = len(p["deck"])
        pv["hand"] = [T.cid(state, u) for u in p["hand"]] if mine else [HIDDEN] * len(p["hand"])
        pv["plots"] = [T.cid(state, u) for u in p["plots"]] if mine else [HIDDEN] * len(p["plots"])
        pv["chosen_plot"] = None if p["chosen_plot"] is None else (
            T.cid(state, p["chosen_plot"]) if mine else HIDDEN)
        sc = p["setup_cards"]
        if sc is None:
            pv["setup_cards"] = None
        elif mine:
            pv["setup_cards"] = [T.cid(state, e["uid"]) for e in sc]
        else:
            pv["setup_cards"] = [HIDDEN] * len(sc)
        players[s] = pv
    v: dict[str, Any] = {k: copy.deepcopy(val) for k, val in state.items()
                         if k not in ("rng", "uid_rng", "players", "uids", "decision", "facedown", "melee")}
    if "melee" in state:  # melee.py: titles picked in secret; what is offered only to the one choosing
        from games.engine.lcg import melee

        v["melee"] = melee.public(state, seat)
    v["players"] = players
    v["stack"] = [{"f": f["f"], "timing": f.get("timing"), "what": f.get("what")} for f in state.get("stack", ())]
    v.pop("queue", None)
    d = state["decision"]
    v["decision"] = copy.deepcopy(d)
    if d and d["kind"] == "title" and seat not in d["seats"]:
        v["decision"].pop("options", None)
    # no uid of a card the viewer may not identify (a facedown duplicate; a former attacker now in a
    # hand; a plot an ability remembers): it shows as HIDDEN, so no card can be followed by its uid
    # from where it was seen to where it is hidden (issue 30)
    v = _hide_uids(v, state["uids"], visible)
    v["cards"] = {u: T.cid(state, u) for u in sorted(visible, key=lambda x: int(x[1:]))}
    return v


def _hide_uids(value: Any, uids: dict[str, Any], visible: set[str]) -> Any:
    if isinstance(value, str):  # a uid, or a key that begins with one ("c123456:0", a used ability)
        head, sep, rest = value.partition(":")
        return HIDDEN + sep + rest if head in uids and head not in visible else value
    if isinstance(value, dict):
        return {_hide_uids(k, uids, visible): _hide_uids(v, uids, visible) for k, v in value.items()}
    if isinstance(value, list):
        return [_hide_uids(v, uids, visible) for v in value]
    if isinstance(value, tuple):
        return tuple(_hide_uids(v, uids, visible) for v in value)
    return value


def event_view(event: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    e = {k: v for k, v in event.items() if k != "private"}
    private = event.get("private") or {}
    if seat in private:
        e["cards"] = private[seat]
    return e
