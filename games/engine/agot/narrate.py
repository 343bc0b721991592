"""The log in words: one plain English sentence per engine event, for players.

Pure and read-only: `narrate(event)` is the sentence, `parts(event)` the same sentence as a list of
pieces ({"text"} or {"text", "house"}) so a page can colour the house names. Names come from the
board and card data (data.py): area names, house names capitalised, card names as printed. An event
kind this module does not know still gets a readable sentence, never a dump of its fields.

Hidden information: narrate only what `event_view` already let through for the viewer. Events
private to some seats (`only`) are narrated as such ("seen only by ..."); the public events never
carry a secret (a face-down order, a card in hand, a bid before the reveal), so neither do their
sentences.
"""
from __future__ import annotations

from functools import cache
from typing import Any

from games.engine.agot.data import (
    HOUSES,
    _load,
    board,
    house_cards,
    tides_cards,
    token_bonus,
    token_kind,
    token_special,
    westeros_cards,
)
from games.engine.narration import Event, Marked, Part, count_of, join, line, sentence, text

PHASE_NAMES = {"planning": "Planning phase", "action": "Action phase", "westeros": "Westeros phase",
               "over": "End of the game"}
TRACK_NAMES = {"iron_throne": "the Iron Throne track", "fiefdoms": "the Fiefdoms track",
               "kings_court": "the King's Court track", "wildlings": "the Night's Watch (against the wildlings)"}
TOKEN_NAMES = {"iron_throne": "the Iron Throne", "valyrian_steel_blade": "the Valyrian Steel Blade",
               "messenger_raven": "the Messenger Raven"}
UNIT_NAMES = {"footman": ("footman", "footmen"), "knight": ("knight", "knights"), "ship": ("ship", "ships"),
              "siege_engine": ("siege engine", "siege engines")}
DECK_NAMES = {"westeros_1": "Westeros deck I", "westeros_2": "Westeros deck II", "westeros_3": "Westeros deck III"}
# Events that matter in a digest ("since your last move"): the others are bookkeeping.
KEY_KINDS = frozenset({
    "orders_revealed", "march", "raid", "raided", "pillage", "combat_started", "combat_won", "casualties",
    "retreat", "units_destroyed", "neutral_force_destroyed", "power_token_placed", "power_token_removed",
    "muster", "westeros_revealed", "westeros_option", "wildling_result", "wildling_card", "track",
    "dominance", "victory", "game_over", "consolidate", "power_gained", "bids_revealed", "card_ability",
    "house_cards_revealed", "order_removed", "ships_destroyed", "supply", "round",
    "winter_is_coming", "restriction", "power_income", "wildling_attack", "neutral_force_holds", "garrison_removed",
    "units_replaced", "ships_replaced", "raven_replace", "raid_removed", "march_removed", "wildling_threat",
})
# The lines a phase's summary leads with (a subset of KEY_KINDS): the Westeros cards drawn, tracks and
# dominance tokens, battles and their winners, musters, the wildlings, supply and what they cost.
HEADLINE_KINDS = frozenset({
    "orders_revealed", "raven_replace", "combat_won", "neutral_force_destroyed", "neutral_force_holds", "muster",
    "westeros_revealed", "winter_is_coming", "westeros_option", "restriction", "track", "dominance",
    "wildling_threat", "wildling_attack", "wildling_result", "wildling_card", "supply", "power_income",
    "units_replaced", "ships_destroyed", "ships_replaced", "victory", "game_over",
})
# Where each kind of event changes the board (units, orders, power tokens, control): the fields that
# name areas (a dict field: its keys). Only these public fields are read, so an area list tells no
# more than the sentence; kinds not listed touch no area (a reveal, a bid, a card chosen).
AREA_FIELDS: dict[str, tuple[str, ...]] = {
    "raven_replace": ("area",), "raid": ("area",), "raided": ("area",), "raid_removed": ("area",),
    "march_removed": ("area",), "order_removed": ("area",), "order_lost": ("area",), "march": ("from", "moves"),
    "power_token_placed": ("area",), "power_token_removed": ("area",), "consolidate": ("area",),
    "power_gained": ("area",), "ships_destroyed": ("area",), "ships_replaced": ("area",),
    "combat_started": ("area", "origin"), "neutral_force_destroyed": ("area",), "combat_won": ("area",),
    "casualties": ("area",), "retreat": ("from", "to"), "garrison_removed": ("area",),
    "units_destroyed": ("area", "units"), "units_replaced": ("units", "destroyed"),
    "card_ability": ("area", "from", "to"), "muster": ("recruited", "upgraded"),
}


# Why the engine removed a Raid or March order it could not carry out (action.py `reason`, R139).
REMOVED_WHY = {
    "no_target": "no adjacent enemy order it could raid",
    "only_defense": "the only enemy orders it could reach are Defense orders, which only a special Raid removes",
    "routed": "its units are routed and cannot march",
    "no_move": "none of its units can march anywhere",
}
# Which rule decided a battle (combat.py `decided_by`, R229).
DECIDED_WHY = {
    "fiefdoms_tie": "a tie, won by the house higher on the Fiefdoms track",
}


class _House(Marked):
    """A house id inside a sentence: rendered as the house name, coloured by a page."""

    def part(self) -> Part:
        return {"text": self.capitalize(), "house": str(self)}


def house(h: Any) -> _House | str:
    return _House(h) if h in HOUSES else words(h)


# ------------------------------------------------------------------ names


def words(x: Any) -> str:
    """Any id as words: 'the_shivering_sea' -> 'the shivering sea' (never underscores or braces)."""
    if x is None:
        return "nobody"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (list, tuple)):
        return join([words(v) for v in x])
    if isinstance(x, dict):
        return join([f"{words(k)} {words(v)}" for k, v in x.items()])
    return str(x).replace("_", " ").replace("{", "").replace("}", "")


def area(a: Any) -> str:
    info = board().areas.get(a) if isinstance(a, str) else None
    return info["name"] if info else words(a)


@cache
def _wildling_names() -> dict[str, str]:
    return {c["id"]: c["name"] for c in _load("wildling_cards.yaml")["cards"]}


def card(c: Any) -> str:
    """A house, Westeros or wildling card's printed name, in quotes-free title form."""
    if not isinstance(c, str):
        return words(c)
    for table in (house_cards(), westeros_cards()):
        if c in table and table[c].get("name"):
            return table[c]["name"]
    return _wildling_names().get(c) or words(c).capitalize()


def tides(t: Any) -> str:
    info = tides_cards().get(t) if isinstance(t, str) else None
    if not info:
        return "a Tides of Battle card"
    extra = [f"{info[k]} {k[:-1] if info[k] == 1 else k}" for k in ("swords", "fortifications", "skulls") if info[k]]
    return f"a Tides of Battle card worth {info['value']}" + (f" with {join(extra)}" if extra else "")


def token(t: Any) -> str:
    """'march+1*' -> 'a special March +1 order'; a face-down order stays face down."""
    if not isinstance(t, str) or t == "hidden":
        return "a face-down order"
    try:
        kind, bonus, special = token_kind(t), token_bonus(t), token_special(t)
    except (KeyError, ValueError, StopIteration):
        return words(t)
    name = {"consolidate": "Consolidate Power"}.get(kind, kind.capitalize())
    if kind in ("march", "defense") or (kind == "support" and bonus):
        name += f" {bonus:+d}"
    return ("a special " if special else "a ") + name + " order"


def units(us: Any) -> str:
    if isinstance(us, dict):
        return join([f"{units(v)} in {area(a)}" for a, v in us.items() if v]) or "no units"
    if not us:
        return "no units"
    counts: dict[str, int] = {}
    for u in us:
        counts[u] = counts.get(u, 0) + 1
    return join([count_of(n, *UNIT_NAMES.get(u, (words(u), words(u) + "s"))) for u, n in counts.items()])


def power(n: int) -> str:
    return count_of(int(n), "Power token", "Power tokens")


# ------------------------------------------------------------------ sentences

Piece = Any  # str or _House, or a list of them (flattened)


def houses(hs: Any) -> list[Piece]:
    """'Stark, Lannister and Greyjoy' with each name a house piece."""
    hs = list(hs or [])
    out: list[Piece] = []
    for i, h in enumerate(hs):
        if i:
            out.append(" and " if i == len(hs) - 1 else ", ")
        out.append(house(h))
    return out


def per_house(mapping: dict[str, Any], fmt) -> list[Piece]:
    out: list[Piece] = []
    items = list((mapping or {}).items())
    for i, (h, v) in enumerate(items):
        if i:
            out.append("; " if i < len(items) else "")
        out += [house(h), " ", fmt(v)]
    return out


def _forced(ev: Event) -> str:
    return " (time ran out or there was no choice)" if ev.get("forced") else ""


def _e(ev: Event) -> list[Piece] | None:
    t = ev.get("type")
    h = house(ev.get("house"))
    g = ev.get
    if t == "round":
        return [f"Round {g('round')} begins."]
    if t == "planning":
        return ["The Planning phase begins: every house places its orders face down."]
    if t == "action_phase":
        return ["The Action phase begins: raids first, then marches, then consolidations."]
    if t == "orders_placed":
        if g("forced") and not g("count"):
            return [h, " has no order to place."]
        return [h, f" places {count_of(int(g('count') or 0), 'order', 'orders')} face down."]
    if t == "orders_placed_detail":
        listed = join([f"{token(o)[2:] if token(o).startswith('a ') else token(o)} in {area(a)}"
                       for a, o in (g("orders") or {}).items()])
        return [h, "'s orders, seen only by ", h, f": {listed or 'none'}."]
    if t == "orders_revealed":
        per: dict[str, list[str]] = {}
        for a, by in (g("orders") or {}).items():
            for hh, o in by.items():
                per.setdefault(hh, []).append(f"{token(o)[2:] if token(o).startswith('a ') else token(o)} in {area(a)}")
        out: list[Piece] = ["The orders are revealed."]
        for hh, items in per.items():
            out += [" ", house(hh), f": {join(items)}."]
        return out
    if t == "raven_skip":
        return [h, " does not use the Messenger Raven."]
    if t == "raven_peek":
        return [h, " uses the Messenger Raven to look at the top wildling card."]
    if t == "raven_peeked":
        return [h, " sees the top wildling card (seen only by ", h, f"): {card(g('card'))}."]
    if t == "raven_peek_keep":
        return [h, " leaves the wildling card on top of the deck."]
    if t == "raven_peek_bottom":
        return [h, " puts the wildling card at the bottom of the deck."]
    if t == "raven_replace":
        return [h, f" uses the Messenger Raven to swap {token(g('old'))} in {area(g('area'))} for {token(g('new'))}."]
    if t == "raid":
        return [h, f" raids from {area(g('area'))} with {token(g('token'))}."]
    if t == "raided":
        return [h, f" loses {token(g('token'))} in {area(g('area'))} to the raid."]
    if t == "pillage":
        if not g("lost"):
            return [h, " pillages, but ", house(g("victim")), " has no Power token to lose."]
        return [h, " pillages a Power token from ", house(g("victim")), f" and gains {power(g('gained') or 0)}."]
    if t in ("raid_removed", "march_removed") and g("reason") in REMOVED_WHY:
        kind = "raid" if t == "raid_removed" else "march"
        special = "special " if isinstance(g("token"), str) and token_special(g("token")) else ""
        return [h, f"'s {special}{kind} in {area(g('area'))} is removed: {REMOVED_WHY[g('reason')]}."]
    if t in ("raid_removed", "march_removed", "order_removed", "order_lost", "march_done"):
        what = {"raid_removed": "removes", "march_removed": "removes", "order_removed": "loses",
                "order_lost": "loses", "march_done": "has resolved"}[t]
        by = f" ({card(g('by'))})" if g("by") else ""
        why = " because it cannot be carried out" if t in ("raid_removed", "march_removed") and g("forced") else ""
        return [h, f" {what} {token(g('token'))} in {area(g('area'))}{by}{why}."]
    if t == "march":
        moves = g("moves") or {}
        if not moves:
            return [h, f" resolves {token(g('token'))} in {area(g('from'))} without moving."]
        went = join([f"{units(us)} to {area(a)}" for a, us in moves.items()])
        return [h, f" marches from {area(g('from'))}: {went}."]  # a Power token left behind: its own event
    if t == "power_token_placed":
        return [h, f" leaves a Power token in {area(g('area'))} to keep control of it."]
    if t == "power_token_removed":
        return [h, f"'s Power token in {area(g('area'))} is removed."]
    if t == "consolidate":
        return [h, f" consolidates power in {area(g('area'))}{_forced(ev)}."]
    if t == "power_gained":
        where = f" in {area(g('area'))}" if g("area") else ""
        why = f" ({card(g('card'))})" if g("card") else ""
        return [h, f" gains {power(g('gained') or 0)}{where}{why}."]
    if t == "power_lost":
        why = f" ({card(g('card'))})" if g("card") else ""
        return [h, f" loses {power(g('lost') or 0)}{why}."]
    if t == "power_income":
        return ["Power from crowns: "] + per_house(g("gained") or {}, lambda n: f"gains {n}") + ["."]
    if t == "ships_destroyed":
        return [h, f" loses {units(g('units'))} in {area(g('area'))}."]
    if t == "ships_replaced":
        return [h, f" takes {area(g('area'))} with {count_of(int(g('count') or 0), 'new ship', 'new ships')}."]
    if t == "cleanup":
        return [f"Round {g('round')} ends: the orders come off the board and routed units stand up again."]
    # combat
    if t == "combat_started":
        against = ["the neutral force"] if g("neutral") is not None else [house(g("defender"))]
        return ["Battle in ", area(g("area")), ": ", house(g("attacker")), f" attacks from {area(g('origin'))} with "
                f"{units(g('units'))} against "] + against + ["."]
    if t == "support_declared":
        if g("for") is None:
            return [h, f" supports nobody in the battle for {area(g('area'))}."]
        if g("for") == g("house"):
            return [h, f" supports its own side in the battle for {area(g('area'))}."]
        return [h, " supports ", house(g("for")), f" in the battle for {area(g('area'))}."]
    if t == "support_refused":
        return [h, " refuses the support of ", house(g("supporter")), f" in {area(g('area'))}."]
    if t == "neutral_force_destroyed":
        return [h, f" defeats the neutral force in {area(g('area'))} with strength {g('strength')}."]
    if t == "neutral_force_holds":
        return [f"The neutral force in {area(g('area'))} holds: ", h,
                f" has strength {g('strength')} and needed {g('needed')}."]
    if t == "house_card_chosen":
        return [h, " chooses a house card face down."]
    if t == "house_card_chosen_detail":
        return [h, " picks ", card(g("card")), " (seen only by ", h, ")."]
    if t == "house_card_forced":
        return [h, " has only one house card left and must play it."]
    if t == "house_card_replaced":
        return [h, f" plays {card(g('card'))} instead in the battle for {area(g('area'))}."]
    if t == "house_cards_revealed":
        out = [f"House cards in {area(g('area'))}: "]
        items = list((g("cards") or {}).items())
        strength = g("initial_strength") or {}
        for i, (hh, c) in enumerate(items):
            out += ["; " if i else "", house(hh), f" plays {card(c)}"]
            if hh in strength:
                out.append(f" (strength {strength[hh]})")
        return out + ["."]
    if t == "tides_drawn":
        return [h, " draws a Tides of Battle card."]
    if t == "tides_drawn_detail":
        return [h, f" draws {tides(g('card'))} (seen only by ", h, ")."]
    if t == "blade_redraw":
        return [h, " uses the Valyrian Steel Blade to draw another Tides of Battle card."]
    if t == "tides_revealed":
        out = [f"Tides of Battle in {area(g('area'))}: "]
        for i, (hh, c) in enumerate((g("tides") or {}).items()):
            out += ["; " if i else "", house(hh), f" reveals {tides(c)}"]
        return out + ["."]
    if t == "blade_used":
        return [h, f" uses the Valyrian Steel Blade (+1) in {area(g('area'))}."]
    if t == "combat_won":
        s = g("strength") or {}
        tie = f", {DECIDED_WHY[g('decided_by')]}" if g("decided_by") in DECIDED_WHY else ""
        score = f" ({s.get(g('winner'))} to {s.get(g('loser'))}{tie})" if s else ""
        loss = f"; the loser must take {count_of(int(g('casualties') or 0), 'casualty', 'casualties')}" \
            if g("casualties") else ""
        return [house(g("winner")), f" wins the battle for {area(g('area'))}", " against ", house(g("loser")),
                f"{score}{loss}."]
    if t == "casualties":
        return [h, f" loses {units(g('units'))} in {area(g('area'))}{_forced(ev)}."]
    if t == "retreat":
        if not g("units"):
            return [h, f" has no units left to retreat from {area(g('from'))}."]
        return [h, f" retreats {units(g('units'))} from {area(g('from'))} to {area(g('to'))}{_forced(ev)}."]
    if t == "garrison_removed":
        return [h, f"'s garrison in {area(g('area'))} is destroyed."]
    if t == "units_destroyed":
        where = f" in {area(g('area'))}" if g("area") and not isinstance(g("units"), dict) else ""
        return [h, f" loses {units(g('units'))}{where}{_why(g('reason') or g('why'))}."]
    if t == "units_replaced":
        lost = f", losing {units(g('destroyed'))}" if g("destroyed") else ""
        return [h, f" replaces {units(g('units'))} with weaker units{lost}{_forced(ev)}."]
    if t == "hand_refreshed":
        return [h, " takes back every house card of the discard pile."]
    if t == "combat_over":
        return [f"The battle for {area(g('area'))} is over", (": " if g("winner") else ""),
                (house(g("winner")) if g("winner") else ""), (" holds the field." if g("winner") else ".")]
    if t == "card_ability":
        return _ability(ev, h)
    # Westeros phase
    if t == "westeros_revealed":
        return [f"Westeros cards for round {g('round')}: {join([card(c) for c in g('cards') or []])}."]
    if t == "wildling_threat":
        return [f"The wildling threat rises to {g('threat')}."]
    if t == "westeros_card":
        return [f"{card(g('card'))} ({DECK_NAMES.get(g('deck'), words(g('deck')))}) is resolved."]
    if t == "winter_is_coming":
        return [f"Winter is Coming: {DECK_NAMES.get(g('deck'), words(g('deck')))} is shuffled and "
                f"{card(g('card'))} is drawn instead."]
    if t == "westeros_option":
        return [h, f" chooses {card(g('option'))} for {card(g('card'))}."]
    if t == "restriction":
        return [f"{card(g('card'))}: {_restrictions(g('restrictions'))} for this round."]
    if t == "westeros_done":
        return [f"The Westeros phase is over{'; ' + _restrictions(g('restrictions')) if g('restrictions') else ''}."]
    if t == "supply":
        why = f" ({card(g('card'))})" if g("card") else ""
        return ["Supply levels", why, ": "] + per_house(g("supply") or {}, lambda n: f"{n}") + ["."]
    if t == "muster":
        rec, up = g("recruited") or {}, g("upgraded") or {}
        src = "" if g("source") in (None, "mustering") else f" ({card(g('source'))})"
        if not rec and not up:
            return [h, f" musters nothing{src}."]
        bits = [f"{units(us)} in {area(a)}" for a, us in rec.items()]
        bits += [f"upgrades to {units(us)} in {area(a)}" for a, us in up.items()]
        return [h, f" musters{src}: {join(bits)}."]
    if t == "bidding":
        return [f"Bidding for {TRACK_NAMES.get(g('for'), words(g('for')))} begins: ", houses(g("houses")),
                " bid Power tokens in secret."]
    if t == "bid_placed":
        return [h, " places a secret bid" + _forced(ev) + "."]
    if t == "bid_detail":
        return [h, f" bids {power(g('bid') or 0)} (seen only by ", h, ")."]
    if t == "bids_revealed":
        return [f"Bids for {TRACK_NAMES.get(g('for'), words(g('for')))}: "] + \
            per_house(g("bids") or {}, lambda n: f"{n}") + ["."]
    if t == "tie_broken":
        return [h if g("house") else house(g("by")), " breaks the tie: ", houses(g("order")), " in that order."]
    if t == "track":
        name = TRACK_NAMES.get(g("track"), words(g("track")))
        return [name[:1].upper() + name[1:] + ": ", houses(g("order")), " from first to last."]
    if t == "dominance":
        return [house(g("house")), f" takes {TOKEN_NAMES.get(g('token'), words(g('token')))}",
                *([" from ", house(g("from"))] if g("from") and g("from") != g("house") else []), "."]
    if t == "wildling_attack":
        return [f"The wildlings attack with strength {g('strength')}: ", houses(g("houses")),
                " bid Power tokens for the Night's Watch."]
    if t == "wildling_result":
        side = "the Night's Watch holds" if g("nights_watch") else "the wildlings win"
        return [f"Against the wildlings' {g('strength')}, the houses bid {g('total')}: {side}. "
                f"The threat is now {g('threat')}."]
    if t == "wildling_card":
        who = g("highest") if g("nights_watch") else g("lowest")
        role = "the highest bidder" if g("nights_watch") else "the lowest bidder"
        return [f"Wildling card {card(g('card'))}: ", house(who), f" is {role}."]
    if t == "cards_returned":
        return [h, f" takes back {join([card(c) for c in g('cards') or []]) or 'no cards'}."]
    if t == "cards_discarded":
        return [h, f" discards {join([card(c) for c in g('cards') or []]) or 'no cards'}."]
    if t == "reward_declined":
        return [h, " declines the reward."]
    if t == "victory":
        return ["Castles and strongholds held: "] + per_house(g("victory") or {}, lambda n: f"{n}") + ["."]
    if t == "game_over":
        how = " with seven castles and strongholds" if g("instant") else " at the end of round 10"
        return ["The game is over: ", house(g("winner")), f" wins{how}. Final ranking: ", houses(g("ranking")), "."]
    return None


def _why(reason: Any) -> str:
    if not reason:
        return ""
    r = str(reason)
    if r.startswith("supply"):
        return " to stay within its supply limit"
    if r == "mace_tyrell":
        return f" to {card('mace_tyrell')}"
    if "retreat" in r:
        return " with nowhere to retreat"
    if r == "wildlings":
        return " to the wildlings"
    if r in _wildling_names():
        return f" to the wildlings ({card(r)})"
    return f" ({words(r)})"


def _restrictions(rs: Any) -> str:
    if not rs:
        return "no orders are restricted"
    names = {"march+1*": "special March +1 orders", "defense": "Defense orders", "raid": "Raid orders",
             "consolidate": "Consolidate Power orders", "support": "Support orders"}
    return join([names.get(r, words(r)) for r in rs]) + " may not be played"


def _ability(ev: Event, h: Any) -> list[Piece]:
    g = ev.get
    name = card(g("card"))
    if g("declined"):
        return [h, f" does not use the ability of {name}."]
    if g("cancelled"):
        return [h, f"'s {name} cancels ", house(g("opponent")), f"'s {card(g('cancelled'))}."]
    if g("discarded"):
        return [h, f"'s {name} makes ", house(g("opponent")), f" discard {card(g('discarded'))}."]
    if g("prevented_by"):
        return [h, f"'s {name} is stopped by {card(g('prevented_by'))}."]
    if g("upgraded"):
        return [h, f"'s {name} turns a footman into a knight in {area(g('area'))}."]
    if g("track"):
        return [h, f"'s {name} moves ", house(g("moved")), f" to the bottom of {TRACK_NAMES.get(g('track'), words(g('track')))}."]
    if g("power") is not None:
        return [h, f"'s {name} gains {power(g('power'))}."]
    if g("paid") is not None:
        return [h, f" pays {power(g('paid'))} for {name}."]
    if g("hand_returned"):
        return [h, f"'s {name} takes every discarded house card back."]
    if g("returned") is not None:
        return [h, f"'s {name} sends the attackers back to {area(g('to'))}: {units(g('returned'))}."]
    if g("to"):
        return [h, f"'s {name} carries the march order from {area(g('from'))} to {area(g('to'))}."]
    return [h, f" uses the ability of {name}."]


def _fallback(ev: Event) -> list[Piece]:
    """An event this module does not know: its kind in words, the house and area it names."""
    kind = words(ev.get("type") or "something").capitalize()
    out: list[Piece] = [kind]
    if ev.get("house") in HOUSES:
        out += [": ", house(ev["house"])]
    if isinstance(ev.get("area"), str):
        out.append(f" in {area(ev['area'])}")
    return out + ["."]


def parts(event: Event) -> list[Part]:
    """The event's sentence in pieces: {"text"} and, for a house name, {"text", "house"}."""
    return sentence(_e, event, _fallback, errors=(KeyError, TypeError, ValueError, AttributeError))


def narrate(event: Event) -> str:
    return text(parts(event))


def moment(event: Event) -> dict[str, Any]:
    """The round and phase an event starts ({} when it starts none)."""
    t = event.get("type")
    if t == "round":
        return {"round": event.get("round"), "phase": "westeros" if (event.get("round") or 1) > 1 else "planning"}
    if t == "planning":
        return {"round": event.get("round"), "phase": "planning"}
    if t == "action_phase":
        return {"phase": "action"}
    if t == "game_over":
        return {"phase": "over"}
    return {}


def headline(event: Event) -> bool:
    """Whether a phase summary leads with this event (units lost in the Westeros phase, to supply or
    the wildlings, do; casualties of a battle are told by its winner's line)."""
    t = event.get("type")
    return t in HEADLINE_KINDS or (t == "units_destroyed" and bool(event.get("why")))


def areas(event: Event) -> list[str]:
    """The areas an event changed (units, orders, power tokens, control), in the order it names them:
    read only from the public fields of AREA_FIELDS, never from a private event's."""
    if event.get("only"):
        return []
    known = board().areas
    out: list[str] = []
    for field in AREA_FIELDS.get(event.get("type"), ()):
        value = event.get(field)
        for a in (value if isinstance(value, dict) else [value]):
            if isinstance(a, str) and a in known and a not in out:
                out.append(a)
    return out


def describe(event: Event) -> dict[str, Any]:
    """What the ruleset's describe_event returns: the sentence, its pieces, whether it belongs in a
    digest (`key`) and leads a phase summary (`headline`), the areas it changed (`areas`, when any),
    and the round/phase it starts (when it starts one)."""
    return line(parts(event), key=event.get("type") in KEY_KINDS or headline(event), headline=headline(event),
                areas=areas(event), private=bool(event.get("only")), moment=moment(event))
