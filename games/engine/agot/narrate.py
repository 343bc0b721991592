"""The log in words: one plain sentence per engine event, for players, in the reader's language.

Each sentence is one translatable template (games.engine.narration: `say(gettext("%(house)s raids from
%(area)s with %(order)s."), ...)`), game names (areas, cards, orders, decks) come through `term`, the
Spanish rulebook's words on the site (games/i18n/glossary/agot.yaml); without a host's words, as in the
engine's own tests and tools, everything is English as it always was.

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
from games.engine.narration import (
    Event,
    Marked,
    Part,
    count_of,
    counted,
    gettext,
    gettext_noop,
    join,
    line,
    ngettext,
    say,
    sentence,
    term,
    text,
)

# Names shown by pages and tools (English ids to words): marked for translation, said where used.
PHASE_NAMES = {"planning": gettext_noop("Planning phase"), "action": gettext_noop("Action phase"),
               "westeros": gettext_noop("Westeros phase"), "over": gettext_noop("End of the game")}
TRACK_NAMES = {"iron_throne": gettext_noop("the Iron Throne track"), "fiefdoms": gettext_noop("the Fiefdoms track"),
               "kings_court": gettext_noop("the King's Court track"),
               "wildlings": gettext_noop("the Night's Watch (against the wildlings)")}
TOKEN_NAMES = {"iron_throne": gettext_noop("the Iron Throne"),
               "valyrian_steel_blade": gettext_noop("the Valyrian Steel Blade"),
               "messenger_raven": gettext_noop("the Messenger Raven")}
UNIT_NAMES = {"footman": ("footman", "footmen"), "knight": ("knight", "knights"), "ship": ("ship", "ships"),
              "siege_engine": ("siege engine", "siege engines")}
DECK_NAMES = {"westeros_1": "Westeros deck I", "westeros_2": "Westeros deck II", "westeros_3": "Westeros deck III"}
# Events that matter in a digest ("since your last move"): the others are bookkeeping.
KEY_KINDS = frozenset({
    "orders_revealed", "march", "raid", "raided", "pillage", "combat_started", "combat_won", "casualties",
    "retreat", "units_destroyed", "neutral_force_destroyed", "power_token_placed", "power_token_removed",
    "muster", "westeros_revealed", "westeros_option", "wildling_result", "wildling_card", "track",
    "dominance", "victory", "game_over", "consolidate", "power_gained", "power_gifted", "bids_revealed", "card_ability",
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
    "no_target": gettext_noop("no adjacent enemy order it could raid"),
    "only_defense": gettext_noop("the only enemy orders it could reach are Defense orders, which only a special "
                                 "Raid removes"),
    "routed": gettext_noop("its units are routed and cannot march"),
    "no_move": gettext_noop("none of its units can march anywhere"),
}
# Which rule decided a battle (combat.py `decided_by`, R229).
DECIDED_WHY = {
    "fiefdoms_tie": gettext_noop("a tie, won by the house higher on the Fiefdoms track"),
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
        return gettext("nobody")
    if isinstance(x, bool):
        return gettext("yes") if x else gettext("no")
    if isinstance(x, (list, tuple)):
        return join([words(v) for v in x])
    if isinstance(x, dict):
        return join([f"{words(k)} {words(v)}" for k, v in x.items()])
    return str(x).replace("_", " ").replace("{", "").replace("}", "")


def area(a: Any) -> str:
    """An area's name, as the Spanish rulebook writes it when the reader's language is Spanish."""
    info = board().areas.get(a) if isinstance(a, str) else None
    return term("agot", info["name"], "area") if info else words(a)


@cache
def _wildling_names() -> dict[str, str]:
    return {c["id"]: c["name"] for c in _load("wildling_cards.yaml")["cards"]}


def card(c: Any) -> str:
    """A house, Westeros or wildling card's printed name, in quotes-free title form."""
    if not isinstance(c, str):
        return words(c)
    for table, kind in ((house_cards(), "house_card"), (westeros_cards(), "westeros_card")):
        if c in table and table[c].get("name"):
            return term("agot", table[c]["name"], kind)
    name = _wildling_names().get(c)
    return term("agot", name, "wildling_card") if name else words(c).capitalize()


def deck(d: Any) -> str:
    return term("agot", DECK_NAMES[d], "card") if d in DECK_NAMES else words(d)


def track(t: Any) -> str:
    return gettext(TRACK_NAMES[t]) if t in TRACK_NAMES else words(t)


def tides(t: Any) -> str:
    info = tides_cards().get(t) if isinstance(t, str) else None
    if not info:
        return gettext("a Tides of Battle card")
    icons = {"swords": ngettext("%(count)s sword", "%(count)s swords", info["swords"]),
             "fortifications": ngettext("%(count)s fortification", "%(count)s fortifications",
                                        info["fortifications"]),
             "skulls": ngettext("%(count)s skull", "%(count)s skulls", info["skulls"])}
    extra = [icons[k] % {"count": info[k]} for k in ("swords", "fortifications", "skulls") if info[k]]
    if extra:
        return gettext("a Tides of Battle card worth %(value)s with %(icons)s") % {
            "value": info["value"], "icons": join(extra)}
    return gettext("a Tides of Battle card worth %(value)s") % {"value": info["value"]}


def _order_name(t: str) -> tuple[str, bool] | None:
    """('March +1', True) for 'march+1*': the order's printed name (the rulebook's, in Spanish) and
    whether it is special; None for a token that is no order."""
    try:
        kind, bonus, special = token_kind(t), token_bonus(t), token_special(t)
    except (KeyError, ValueError, StopIteration):
        return None
    name = term("agot", {"consolidate": "Consolidate Power"}.get(kind, kind.capitalize()), "order")
    if kind in ("march", "defense") or (kind == "support" and bonus):
        name += f" {bonus:+d}"
    return name, bool(special)


def token(t: Any) -> str:
    """'march+1*' -> 'a special March +1 order'; a face-down order stays face down."""
    if not isinstance(t, str) or t == "hidden":
        return gettext("a face-down order")
    named = _order_name(t)
    if named is None:
        return words(t)
    name, special = named
    return (gettext("a special %(name)s order") if special else gettext("a %(name)s order")) % {"name": name}


def order(t: Any) -> str:
    """The order without its article ('special March +1 order'), as a list of orders names it."""
    if not isinstance(t, str) or t == "hidden":
        return gettext("face-down order")
    named = _order_name(t)
    if named is None:
        return words(t)
    name, special = named
    return (gettext("special %(name)s order") if special else gettext("%(name)s order")) % {"name": name}


def _unit_count(u: str, n: int) -> str:
    if u == "footman":
        return counted(n, ngettext("one footman", "%(count)s footmen", n))
    if u == "knight":
        return counted(n, ngettext("one knight", "%(count)s knights", n))
    if u == "ship":
        return counted(n, ngettext("one ship", "%(count)s ships", n))
    if u == "siege_engine":
        return counted(n, ngettext("one siege engine", "%(count)s siege engines", n))
    return count_of(n, words(u), words(u) + "s")


def units(us: Any) -> str:
    if isinstance(us, dict):
        return join([in_area(units(v), a) for a, v in us.items() if v]) or gettext("no units")
    if not us:
        return gettext("no units")
    counts: dict[str, int] = {}
    for u in us:
        counts[u] = counts.get(u, 0) + 1
    return join([_unit_count(u, n) for u, n in counts.items()])


def in_area(what: str, a: Any) -> str:
    """'one knight in Winterfell', 'Raid order in Pyke'."""
    return gettext("%(what)s in %(area)s") % {"what": what, "area": area(a)}


def power(n: Any) -> str:
    n = int(n)
    if n == 0:
        return gettext("no Power tokens")
    return counted(n, ngettext("one Power token", "%(count)s Power tokens", n))


def _num(x: Any) -> str:
    """A number inside a sentence, as the engine gave it ('None' when missing: the fallback tells it)."""
    return str(x)


# ------------------------------------------------------------------ sentences

Piece = Any  # str or _House, or a list of them (flattened)


def houses(hs: Any) -> list[Piece]:
    """'Stark, Lannister and Greyjoy' with each name a house piece."""
    hs = [house(h) for h in (hs or [])]
    if len(hs) <= 1:
        return hs
    items: list[Piece] = []
    for i, h in enumerate(hs[:-1]):
        items += [", " if i else "", h]
    return say(gettext("%(items)s and %(last)s"), items=items, last=hs[-1])


def per_house(mapping: dict[str, Any], fmt) -> list[Piece]:
    """One piece per house, '; ' between them: fmt(house piece, value) -> pieces."""
    out: list[Piece] = []
    for i, (h, v) in enumerate(list((mapping or {}).items())):
        if i:
            out.append("; ")
        out += fmt(house(h), v)
    return out


def _plain(hp: Piece, v: Any) -> list[Piece]:
    """'Stark 3'."""
    return [hp, " ", f"{v}"]


def _forced(ev: Event) -> str:
    return gettext(" (time ran out or there was no choice)") if ev.get("forced") else ""


def _by(c: Any) -> str:
    return f" ({card(c)})" if c else ""


def _e(ev: Event) -> list[Piece] | None:
    t = ev.get("type")
    h = house(ev.get("house"))
    g = ev.get
    if t == "round":
        return say(gettext("Round %(round)s begins."), round=_num(g("round")))
    if t == "planning":
        return [gettext("The Planning phase begins: every house places its orders face down.")]
    if t == "action_phase":
        return [gettext("The Action phase begins: raids first, then marches, then consolidations.")]
    if t == "orders_placed":
        if g("forced") and not g("count"):
            return say(gettext("%(house)s has no order to place."), house=h)
        n = int(g("count") or 0)
        placed = gettext("no orders") if n == 0 else counted(n, ngettext("one order", "%(count)s orders", n))
        return say(gettext("%(house)s places %(orders)s face down."), house=h, orders=placed)
    if t == "orders_placed_detail":
        listed = join([in_area(order(o), a) for a, o in (g("orders") or {}).items()])
        return say(gettext("%(house)s's orders, seen only by %(seer)s: %(orders)s."), house=h, seer=h,
                   orders=listed or gettext("none"))
    if t == "orders_revealed":
        per: dict[str, list[str]] = {}
        for a, by in (g("orders") or {}).items():
            for hh, o in by.items():
                per.setdefault(hh, []).append(in_area(order(o), a))
        out: list[Piece] = [gettext("The orders are revealed.")]
        for hh, items in per.items():
            out += [" ", house(hh), f": {join(items)}."]
        return out
    if t == "raven_skip":
        return say(gettext("%(house)s does not use the Messenger Raven."), house=h)
    if t == "raven_peek":
        return say(gettext("%(house)s uses the Messenger Raven to look at the top wildling card."), house=h)
    if t == "raven_peeked":
        return say(gettext("%(house)s sees the top wildling card (seen only by %(seer)s): %(card)s."),
                   house=h, seer=h, card=card(g("card")))
    if t == "raven_peek_keep":
        return say(gettext("%(house)s leaves the wildling card on top of the deck."), house=h)
    if t == "raven_peek_bottom":
        return say(gettext("%(house)s puts the wildling card at the bottom of the deck."), house=h)
    if t == "raven_replace":
        return say(gettext("%(house)s uses the Messenger Raven to swap %(old)s in %(area)s for %(new)s."),
                   house=h, old=token(g("old")), area=area(g("area")), new=token(g("new")))
    if t == "raid":
        return say(gettext("%(house)s raids from %(area)s with %(order)s."), house=h, area=area(g("area")),
                   order=token(g("token")))
    if t == "raided":
        return say(gettext("%(house)s loses %(order)s in %(area)s to the raid."), house=h,
                   order=token(g("token")), area=area(g("area")))
    if t == "pillage":
        if not g("lost"):
            return say(gettext("%(house)s pillages, but %(victim)s has no Power token to lose."), house=h,
                       victim=house(g("victim")))
        return say(gettext("%(house)s pillages a Power token from %(victim)s and gains %(power)s."), house=h,
                   victim=house(g("victim")), power=power(g("gained") or 0))
    if t in ("raid_removed", "march_removed") and g("reason") in REMOVED_WHY:
        special = isinstance(g("token"), str) and token_special(g("token"))
        if t == "raid_removed":
            template = gettext("%(house)s's special raid in %(area)s is removed: %(why)s.") if special \
                else gettext("%(house)s's raid in %(area)s is removed: %(why)s.")
        else:
            template = gettext("%(house)s's special march in %(area)s is removed: %(why)s.") if special \
                else gettext("%(house)s's march in %(area)s is removed: %(why)s.")
        return say(template, house=h, area=area(g("area")), why=gettext(REMOVED_WHY[g("reason")]))
    if t in ("raid_removed", "march_removed", "order_removed", "order_lost", "march_done"):
        pieces = {"house": h, "order": token(g("token")), "area": area(g("area")), "by": _by(g("by"))}
        if t in ("raid_removed", "march_removed"):
            if g("forced"):
                return say(gettext("%(house)s removes %(order)s in %(area)s%(by)s because it cannot be carried out."),
                           **pieces)
            return say(gettext("%(house)s removes %(order)s in %(area)s%(by)s."), **pieces)
        if t == "march_done":
            return say(gettext("%(house)s has resolved %(order)s in %(area)s%(by)s."), **pieces)
        return say(gettext("%(house)s loses %(order)s in %(area)s%(by)s."), **pieces)
    if t == "march":
        moves = g("moves") or {}
        if not moves:
            return say(gettext("%(house)s resolves %(order)s in %(area)s without moving."), house=h,
                       order=token(g("token")), area=area(g("from")))
        went = join([gettext("%(units)s to %(area)s") % {"units": units(us), "area": area(a)} for a, us in moves.items()])
        # a Power token left behind: its own event
        return say(gettext("%(house)s marches from %(area)s: %(moves)s."), house=h, area=area(g("from")), moves=went)
    if t == "power_token_placed":
        return say(gettext("%(house)s leaves a Power token in %(area)s to keep control of it."), house=h,
                   area=area(g("area")))
    if t == "power_token_removed":
        return say(gettext("%(house)s's Power token in %(area)s is removed."), house=h, area=area(g("area")))
    if t == "consolidate":
        return say(gettext("%(house)s consolidates power in %(area)s%(forced)s."), house=h, area=area(g("area")),
                   forced=_forced(ev))
    if t == "power_gained":
        if g("area"):
            return say(gettext("%(house)s gains %(power)s in %(area)s%(why)s."), house=h,
                       power=power(g("gained") or 0), area=area(g("area")), why=_by(g("card")))
        return say(gettext("%(house)s gains %(power)s%(why)s."), house=h, power=power(g("gained") or 0),
                   why=_by(g("card")))
    if t == "draft_started":
        what = (gettext("house cards and Influence track positions") if g("cards") and g("tracks")
                else gettext("house cards") if g("cards") else gettext("Influence track positions"))
        return say(gettext("The draft of %(what)s begins, in this order: %(order)s."), what=what,
                   order=houses(g("order")))
    if t == "draft_card":
        return say(gettext("%(house)s drafts %(card)s."), house=h, card=card(g("card")))
    if t == "draft_track":
        return say(gettext("%(house)s drafts position %(position)s on %(track)s."), house=h,
                   position=_num(g("position")), track=track(g("track")))
    if t == "draft_over":
        return say(gettext("The draft is over."))
    if t == "draft_unused":
        return say(gettext("House cards left out of the game: %(cards)s."),
                   cards=", ".join(card(c) for c in g("cards") or []))
    if t == "power_gifted":
        return say(gettext("%(house)s gives %(power)s to %(other)s."), house=h, power=power(g("tokens") or 0),
                   other=house(g("to")))
    if t == "power_lost":
        return say(gettext("%(house)s loses %(power)s%(why)s."), house=h, power=power(g("lost") or 0),
                   why=_by(g("card")))
    if t == "power_income":
        gains = per_house(g("gained") or {},
                          lambda hp, n: say(gettext("%(house)s gains %(count)s"), house=hp, count=f"{n}"))
        return say(gettext("Power from crowns: %(gains)s."), gains=gains)
    if t == "ships_destroyed":
        return say(gettext("%(house)s loses %(units)s in %(area)s%(why)s."), house=h, units=units(g("units")),
                   area=area(g("area")), why="")
    if t == "ships_replaced":
        n = int(g("count") or 0)
        ships = gettext("no new ships") if n == 0 else counted(n, ngettext("one new ship", "%(count)s new ships", n))
        return say(gettext("%(house)s takes %(area)s with %(ships)s."), house=h, area=area(g("area")), ships=ships)
    if t == "cleanup":
        return say(gettext("Round %(round)s ends: the orders come off the board and routed units stand up again."),
                   round=_num(g("round")))
    # combat
    if t == "combat_started":
        pieces = {"area": area(g("area")), "attacker": house(g("attacker")), "origin": area(g("origin")),
                  "units": units(g("units"))}
        if g("neutral") is not None:
            return say(gettext("Battle in %(area)s: %(attacker)s attacks from %(origin)s with %(units)s against "
                               "the neutral force."), **pieces)
        return say(gettext("Battle in %(area)s: %(attacker)s attacks from %(origin)s with %(units)s against "
                           "%(defender)s."), defender=house(g("defender")), **pieces)
    if t == "support_declared":
        if g("for") is None:
            return say(gettext("%(house)s supports nobody in the battle for %(area)s."), house=h, area=area(g("area")))
        if g("for") == g("house"):
            return say(gettext("%(house)s supports its own side in the battle for %(area)s."), house=h,
                       area=area(g("area")))
        return say(gettext("%(house)s supports %(ally)s in the battle for %(area)s."), house=h,
                   ally=house(g("for")), area=area(g("area")))
    if t == "support_refused":
        return say(gettext("%(house)s refuses the support of %(supporter)s in %(area)s."), house=h,
                   supporter=house(g("supporter")), area=area(g("area")))
    if t == "neutral_force_destroyed":
        return say(gettext("%(house)s defeats the neutral force in %(area)s with strength %(strength)s."),
                   house=h, area=area(g("area")), strength=_num(g("strength")))
    if t == "neutral_force_holds":
        return say(gettext("The neutral force in %(area)s holds: %(house)s has strength %(strength)s and needed "
                           "%(needed)s."), area=area(g("area")), house=h, strength=_num(g("strength")),
                   needed=_num(g("needed")))
    if t == "house_card_chosen":
        return say(gettext("%(house)s chooses a house card face down."), house=h)
    if t == "house_card_chosen_detail":
        return say(gettext("%(house)s picks %(card)s (seen only by %(seer)s)."), house=h, card=card(g("card")),
                   seer=h)
    if t == "house_card_forced":
        return say(gettext("%(house)s has only one house card left and must play it."), house=h)
    if t == "house_card_replaced":
        return say(gettext("%(house)s plays %(card)s instead in the battle for %(area)s."), house=h,
                   card=card(g("card")), area=area(g("area")))
    if t == "house_cards_revealed":
        strength = g("initial_strength") or {}
        plays: list[Piece] = []
        for i, (hh, c) in enumerate((g("cards") or {}).items()):
            if i:
                plays.append("; ")
            if hh in strength:
                plays += say(gettext("%(house)s plays %(card)s (strength %(strength)s)"), house=house(hh),
                             card=card(c), strength=_num(strength[hh]))
            else:
                plays += say(gettext("%(house)s plays %(card)s"), house=house(hh), card=card(c))
        return say(gettext("House cards in %(area)s: %(plays)s."), area=area(g("area")), plays=plays)
    if t == "tides_drawn":
        return say(gettext("%(house)s draws a Tides of Battle card."), house=h)
    if t == "tides_drawn_detail":
        return say(gettext("%(house)s draws %(card)s (seen only by %(seer)s)."), house=h, card=tides(g("card")),
                   seer=h)
    if t == "blade_redraw":
        return say(gettext("%(house)s uses the Valyrian Steel Blade to draw another Tides of Battle card."), house=h)
    if t == "tides_revealed":
        reveals: list[Piece] = []
        for i, (hh, c) in enumerate((g("tides") or {}).items()):
            reveals += (["; "] if i else []) + say(gettext("%(house)s reveals %(card)s"), house=house(hh),
                                                   card=tides(c))
        return say(gettext("Tides of Battle in %(area)s: %(reveals)s."), area=area(g("area")), reveals=reveals)
    if t == "blade_used":
        return say(gettext("%(house)s uses the Valyrian Steel Blade (+1) in %(area)s."), house=h, area=area(g("area")))
    if t == "combat_won":
        s = g("strength") or {}
        score = ""
        if s:
            numbers = {"won": s.get(g("winner")), "lost": s.get(g("loser"))}
            if g("decided_by") in DECIDED_WHY:
                score = gettext(" (%(won)s to %(lost)s, %(why)s)") % {**numbers,
                                                                       "why": gettext(DECIDED_WHY[g("decided_by")])}
            else:
                score = gettext(" (%(won)s to %(lost)s)") % numbers
        n = int(g("casualties") or 0)
        loss = gettext("; the loser must take %(casualties)s") % {
            "casualties": counted(n, ngettext("one casualty", "%(count)s casualties", n))} if n else ""
        return say(gettext("%(winner)s wins the battle for %(area)s against %(loser)s%(score)s%(loss)s."),
                   winner=house(g("winner")), area=area(g("area")), loser=house(g("loser")), score=score, loss=loss)
    if t == "casualties":
        return say(gettext("%(house)s loses %(units)s in %(area)s%(why)s."), house=h, units=units(g("units")),
                   area=area(g("area")), why=_forced(ev))
    if t == "retreat":
        if not g("units"):
            return say(gettext("%(house)s has no units left to retreat from %(area)s."), house=h, area=area(g("from")))
        return say(gettext("%(house)s retreats %(units)s from %(from)s to %(to)s%(forced)s."), house=h,
                   units=units(g("units")), **{"from": area(g("from"))}, to=area(g("to")), forced=_forced(ev))
    if t == "garrison_removed":
        return say(gettext("%(house)s's garrison in %(area)s is destroyed."), house=h, area=area(g("area")))
    if t == "units_destroyed":
        why = _why(g("reason") or g("why"))
        if g("area") and not isinstance(g("units"), dict):
            return say(gettext("%(house)s loses %(units)s in %(area)s%(why)s."), house=h, units=units(g("units")),
                       area=area(g("area")), why=why)
        return say(gettext("%(house)s loses %(units)s%(why)s."), house=h, units=units(g("units")), why=why)
    if t == "units_replaced":
        if g("destroyed"):
            return say(gettext("%(house)s replaces %(units)s with weaker units, losing %(lost)s%(forced)s."), house=h,
                       units=units(g("units")), lost=units(g("destroyed")), forced=_forced(ev))
        return say(gettext("%(house)s replaces %(units)s with weaker units%(forced)s."), house=h,
                   units=units(g("units")), forced=_forced(ev))
    if t == "hand_refreshed":
        return say(gettext("%(house)s takes back every house card of the discard pile."), house=h)
    if t == "combat_over":
        if g("winner"):
            return say(gettext("The battle for %(area)s is over: %(winner)s holds the field."), area=area(g("area")),
                       winner=house(g("winner")))
        return say(gettext("The battle for %(area)s is over."), area=area(g("area")))
    if t == "card_ability":
        return _ability(ev, h)
    # Westeros phase
    if t == "westeros_revealed":
        return say(gettext("Westeros cards for round %(round)s: %(cards)s."), round=_num(g("round")),
                   cards=join([card(c) for c in g("cards") or []]))
    if t == "wildling_threat":
        return say(gettext("The wildling threat rises to %(threat)s."), threat=_num(g("threat")))
    if t == "westeros_card":
        return say(gettext("%(card)s (%(deck)s) is resolved."), card=card(g("card")), deck=deck(g("deck")))
    if t == "winter_is_coming":
        return say(gettext("Winter is Coming: %(deck)s is shuffled and %(card)s is drawn instead."),
                   deck=deck(g("deck")), card=card(g("card")))
    if t == "westeros_option":
        return say(gettext("%(house)s chooses %(option)s for %(card)s."), house=h, option=card(g("option")),
                   card=card(g("card")))
    if t == "restriction":
        return say(gettext("%(card)s: %(restrictions)s for this round."), card=card(g("card")),
                   restrictions=_restrictions(g("restrictions")))
    if t == "westeros_done":
        if g("restrictions"):
            return say(gettext("The Westeros phase is over; %(restrictions)s."),
                       restrictions=_restrictions(g("restrictions")))
        return [gettext("The Westeros phase is over.")]
    if t == "supply":
        return say(gettext("Supply levels%(why)s: %(levels)s."), why=_by(g("card")),
                   levels=per_house(g("supply") or {}, _plain))
    if t == "muster":
        rec, up = g("recruited") or {}, g("upgraded") or {}
        src = "" if g("source") in (None, "mustering") else _by(g("source"))
        if not rec and not up:
            return say(gettext("%(house)s musters nothing%(source)s."), house=h, source=src)
        bits = [in_area(units(us), a) for a, us in rec.items()]
        bits += [gettext("upgrades to %(units)s in %(area)s") % {"units": units(us), "area": area(a)}
                 for a, us in up.items()]
        return say(gettext("%(house)s musters%(source)s: %(units)s."), house=h, source=src, units=join(bits))
    if t == "bidding":
        return say(gettext("Bidding for %(track)s begins: %(houses)s bid Power tokens in secret."),
                   track=track(g("for")), houses=houses(g("houses")))
    if t == "bid_placed":
        return say(gettext("%(house)s places a secret bid%(forced)s."), house=h, forced=_forced(ev))
    if t == "bid_detail":
        return say(gettext("%(house)s bids %(power)s (seen only by %(seer)s)."), house=h, power=power(g("bid") or 0),
                   seer=h)
    if t == "bids_revealed":
        return say(gettext("Bids for %(track)s: %(bids)s."), track=track(g("for")),
                   bids=per_house(g("bids") or {}, _plain))
    if t == "tie_broken":
        return say(gettext("%(house)s breaks the tie: %(order)s in that order."),
                   house=h if g("house") else house(g("by")), order=houses(g("order")))
    if t == "track":
        name = track(g("track"))
        return say(gettext("%(track)s: %(houses)s from first to last."), track=name[:1].upper() + name[1:],
                   houses=houses(g("order")))
    if t == "dominance":
        what = gettext(TOKEN_NAMES[g("token")]) if g("token") in TOKEN_NAMES else words(g("token"))
        if g("from") and g("from") != g("house"):
            return say(gettext("%(house)s takes %(token)s from %(from)s."), house=house(g("house")), token=what,
                       **{"from": house(g("from"))})
        return say(gettext("%(house)s takes %(token)s."), house=house(g("house")), token=what)
    if t == "wildling_attack":
        return say(gettext("The wildlings attack with strength %(strength)s: %(houses)s bid Power tokens for the "
                           "Night's Watch."), strength=_num(g("strength")), houses=houses(g("houses")))
    if t == "wildling_result":
        numbers = {"strength": _num(g("strength")), "total": _num(g("total")), "threat": _num(g("threat"))}
        if g("nights_watch"):
            return say(gettext("Against the wildlings' %(strength)s, the houses bid %(total)s: the Night's Watch "
                               "holds. The threat is now %(threat)s."), **numbers)
        return say(gettext("Against the wildlings' %(strength)s, the houses bid %(total)s: the wildlings win. "
                           "The threat is now %(threat)s."), **numbers)
    if t == "wildling_card":
        if g("nights_watch"):
            return say(gettext("Wildling card %(card)s: %(house)s is the highest bidder."), card=card(g("card")),
                       house=house(g("highest")))
        return say(gettext("Wildling card %(card)s: %(house)s is the lowest bidder."), card=card(g("card")),
                   house=house(g("lowest")))
    if t == "cards_returned":
        return say(gettext("%(house)s takes back %(cards)s."), house=h,
                   cards=join([card(c) for c in g("cards") or []]) or gettext("no cards"))
    if t == "cards_discarded":
        return say(gettext("%(house)s discards %(cards)s."), house=h,
                   cards=join([card(c) for c in g("cards") or []]) or gettext("no cards"))
    if t == "reward_declined":
        return say(gettext("%(house)s declines the reward."), house=h)
    if t == "victory":
        return say(gettext("Castles and strongholds held: %(counts)s."),
                   counts=per_house(g("victory") or {}, _plain))
    if t == "game_over" and (g("castles") is not None or g("round") is not None):
        if g("instant"):
            return say(gettext("The game is over: %(winner)s wins with %(castles)s castles and strongholds. Final "
                               "ranking: %(ranking)s."), winner=house(g("winner")), castles=_num(g("castles")),
                       ranking=houses(g("ranking")))
        return say(gettext("The game is over: %(winner)s wins at the end of round %(round)s. Final ranking: "
                           "%(ranking)s."), winner=house(g("winner")), round=_num(g("round")),
                   ranking=houses(g("ranking")))
    if t == "game_over":
        if g("instant"):
            return say(gettext("The game is over: %(winner)s wins with seven castles and strongholds. Final "
                               "ranking: %(ranking)s."), winner=house(g("winner")), ranking=houses(g("ranking")))
        return say(gettext("The game is over: %(winner)s wins at the end of round 10. Final ranking: "
                           "%(ranking)s."), winner=house(g("winner")), ranking=houses(g("ranking")))
    return None


def _why(reason: Any) -> str:
    if not reason:
        return ""
    r = str(reason)
    if r.startswith("supply"):
        return gettext(" to stay within its supply limit")
    if r == "mace_tyrell":
        return gettext(" to %(card)s") % {"card": card("mace_tyrell")}
    if "retreat" in r:
        return gettext(" with nowhere to retreat")
    if r == "wildlings":
        return gettext(" to the wildlings")
    if r in _wildling_names():
        return gettext(" to the wildlings (%(card)s)") % {"card": card(r)}
    return f" ({words(r)})"


RESTRICTED = {"march+1*": gettext_noop("special March +1 orders"), "defense": gettext_noop("Defense orders"),
              "raid": gettext_noop("Raid orders"), "consolidate": gettext_noop("Consolidate Power orders"),
              "support": gettext_noop("Support orders")}


def _restrictions(rs: Any) -> str:
    if not rs:
        return gettext("no orders are restricted")
    names = join([gettext(RESTRICTED[r]) if r in RESTRICTED else words(r) for r in rs])
    return gettext("%(orders)s may not be played") % {"orders": names}


def _ability(ev: Event, h: Any) -> list[Piece]:
    g = ev.get
    name = card(g("card"))
    if g("declined"):
        return say(gettext("%(house)s does not use the ability of %(card)s."), house=h, card=name)
    if g("cancelled"):
        return say(gettext("%(house)s's %(card)s cancels %(opponent)s's %(other)s."), house=h, card=name,
                   opponent=house(g("opponent")), other=card(g("cancelled")))
    if g("discarded"):
        return say(gettext("%(house)s's %(card)s makes %(opponent)s discard %(other)s."), house=h, card=name,
                   opponent=house(g("opponent")), other=card(g("discarded")))
    if g("prevented_by"):
        return say(gettext("%(house)s's %(card)s is stopped by %(other)s."), house=h, card=name,
                   other=card(g("prevented_by")))
    if g("upgraded"):
        return say(gettext("%(house)s's %(card)s turns a footman into a knight in %(area)s."), house=h, card=name,
                   area=area(g("area")))
    if g("track"):
        return say(gettext("%(house)s's %(card)s moves %(moved)s to the bottom of %(track)s."), house=h, card=name,
                   moved=house(g("moved")), track=track(g("track")))
    if g("power") is not None:
        return say(gettext("%(house)s's %(card)s gains %(power)s."), house=h, card=name, power=power(g("power")))
    if g("paid") is not None:
        return say(gettext("%(house)s pays %(power)s for %(card)s."), house=h, power=power(g("paid")), card=name)
    if g("hand_returned"):
        return say(gettext("%(house)s's %(card)s takes every discarded house card back."), house=h, card=name)
    if g("returned") is not None:
        return say(gettext("%(house)s's %(card)s sends the attackers back to %(area)s: %(units)s."), house=h,
                   card=name, area=area(g("to")), units=units(g("returned")))
    if g("to"):
        return say(gettext("%(house)s's %(card)s carries the march order from %(from)s to %(to)s."), house=h,
                   card=name, **{"from": area(g("from"))}, to=area(g("to")))
    return say(gettext("%(house)s uses the ability of %(card)s."), house=h, card=name)


def _fallback(ev: Event) -> list[Piece]:
    """An event this module does not know: its kind in words, the house and area it names."""
    kind = words(ev.get("type") or gettext("something")).capitalize()
    hp = house(ev["house"]) if ev.get("house") in HOUSES else None
    where = area(ev["area"]) if isinstance(ev.get("area"), str) else None
    if hp is not None and where is not None:
        return say(gettext("%(kind)s: %(house)s in %(area)s."), kind=kind, house=hp, area=where)
    if hp is not None:
        return say(gettext("%(kind)s: %(house)s."), kind=kind, house=hp)
    if where is not None:
        return say(gettext("%(kind)s in %(area)s."), kind=kind, area=where)
    return [kind, "."]


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
