"""The result of a finished or abandoned game in words (issue 26): who won and why, each seat's
place, who played it, and the rated players' ratings before and after. `game_result` is the
payload's `result` (games/queries.py game_payload); `seat_players` and `who_played` say who played
a seat the same way on every page that lists results (the profile, the home page's recent results,
tournament tables: ratings/templatetags/site_words.py).

Who played a seat:
- "Alys": she played it to the end;
- "The computer": the engine played it from the start (GameSeat.is_computer());
- "Alys (left in round 3; the computer played on)": she conceded or timed out too often
  (games/services/play.py hand_to_bot keeps the round in GameSeat.left_round);
- "Bran (took over from Alys in round 4)": a substitute (SeatSubstitution; the round is the one
  the leaver left in, when the seat was offered).

Why a seat won, per ruleset, from the engine's final state (only what every seat may see: castles,
power on cards in play, victory points, the councils turned over at the end, the size of a deck):
- agot: 7 castles and strongholds win at once (R37b); otherwise after round 10 the most, then
  strongholds, Supply, available power, the Iron Throne track (R40, R41);
- btwixt: the highest weaker ("lesser") council, then the other council, then allies, else a shared
  victory (B50-B56);
- lcg: 15 power on cards you control (L229), or the opponents' draw decks ran out (L231, L232);
- minis: victory points (M125-M127: the threshold and more than the opponent, or the most after
  round 6, then army points left, else a draw), or the opponent has no combat unit left (M128).

Ratings come from the ratings app's history rows (RatingChange, written by the game_finished
signal in the transaction that ends the game), read through the reverse relation so that games/
does not import ratings; a game whose rows are not there (yet) shows null.

Every sentence a player reads is in WORDS (one place, for translation)."""
from __future__ import annotations

from typing import Any

from games.engine import get_ruleset
from games.models import Game, GameSeat, SeatSubstitution

WORDS = {
    # who played a seat
    "computer": "The computer",
    "left": "{name} (left {when}; the computer played on)",
    "left_no_round": "{name} (left; the computer played on)",
    "left_taken": "{name} (left {when}; {substitute} took over)",
    "left_taken_no_round": "{name} (left; {substitute} took over)",
    "took_over": "{name} (took over from {leaver} {when})",
    "took_over_no_round": "{name} (took over from {leaver})",
    "took_over_and_left": "{name} (took over from {leaver} {when}; left {left}; "
                          "the computer played on)",
    "a_player": "a player",
    "in_round": "in round {round}",
    "before_round_1": "before round 1",
    # headlines
    "abandoned_everyone": "Everyone left: the game was abandoned.",
    "abandoned_one": "{name} left {when}: the game was abandoned.",
    "abandoned_one_no_round": "{name} left: the game was abandoned.",
    "won": "{name} won.",
    "shared": "{names} shared the victory.",
    "and": "{first} and {last}",
    "agot_instant": "{name} won with {castles} in round {round}.",
    "agot_end": "{name} won with {castles} after round {round}.",
    "agot_end_tie": "{name} won with {castles} after round {round}, ahead of {other} on {measure} ({a} to {b}).",
    "agot_end_throne": "{name} won with {castles} after round {round}, ahead of {other} on the Iron Throne track.",
    "castles": "{n} castle",
    "castles_plural": "{n} castles",
    "strongholds": "strongholds",
    "supply": "the Supply track",
    "power": "available power",
    "btwixt_won": "{name} won with {score}.",
    "btwixt_tie": "{name} won with {score}, ahead of {other} on {measure} ({a} to {b}).",
    "btwixt_shared": "{names} shared the victory with {score} each.",
    "btwixt_score": "{n} power in the weaker council",
    "btwixt_other": "the other council",
    "btwixt_allies": "allies",
    "lcg_power": "{name} won with {power}.",
    "lcg_decked": "{name} won: {others} ran out of cards to draw.",
    "lcg_deck_of": "{name}'s draw deck",
    "power_score": "{n} power",
    "minis_vp": "{name} won on victory points, {a} to {b}.",
    "minis_points": "{name} won on army points left on the battlefield, {a} to {b}, after a tie at {vp}.",
    "minis_draw": "A draw: {vp} each and the same army points left on the battlefield.",
    "minis_draw_elimination": "A draw: both armies were destroyed.",
    "minis_elimination": "{name} won: {other} has no combat unit left on the battlefield.",
    "vp": "{n} victory point",
    "vp_plural": "{n} victory points",
}

ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)


# --------------------------------------------------------------------------- who played a seat


def who_played(seat: GameSeat, substitutions: list[SeatSubstitution] = ()) -> str:
    """The seat's player in words (module docstring). `substitutions`: the game's take-overs (any
    seat's; this one's are picked out), with their leaver and substitute loaded."""
    if seat.is_computer():
        return WORDS["computer"]
    name = seat.user.username if seat.user is not None else WORDS["a_player"]
    subs = [s for s in substitutions if s.seat == seat.seat]
    left = seat.left_at is not None
    if subs:
        last = subs[-1]
        leaver = last.leaver.username if last.leaver is not None else WORDS["a_player"]
        if left and last.left_round is not None and seat.left_round is not None:
            return WORDS["took_over_and_left"].format(name=name, leaver=leaver, when=_when(last.left_round),
                                                      left=_when(seat.left_round))
        if left:
            return _left(name, seat.left_round)
        if last.left_round is not None:
            return WORDS["took_over"].format(name=name, leaver=leaver, when=_when(last.left_round))
        return WORDS["took_over_no_round"].format(name=name, leaver=leaver)
    if left:
        return _left(name, seat.left_round)
    return name


def _left(name: str, round_: int | None) -> str:
    if round_ is None:
        return WORDS["left_no_round"].format(name=name)
    return WORDS["left"].format(name=name, when=_when(round_))


def _when(round_: int) -> str:
    """"in round 3"; "before round 1" for round 0 (the miniatures' deployment, a setup)."""
    return WORDS["in_round"].format(round=round_) if round_ >= 1 else WORDS["before_round_1"]


def leaver_words(substitution: SeatSubstitution) -> str:
    """A player who left a seat someone took over later, as their own results say it:
    "Alys (left in round 3; Bran took over)"."""
    name = substitution.leaver.username if substitution.leaver is not None else WORDS["a_player"]
    substitute = substitution.substitute.username if substitution.substitute is not None else WORDS["a_player"]
    if substitution.left_round is None:
        return WORDS["left_taken_no_round"].format(name=name, substitute=substitute)
    return WORDS["left_taken"].format(name=name, when=_when(substitution.left_round), substitute=substitute)


def seat_players(game: Game) -> dict[str, str]:
    """{seat: who played it} for a game whose `seats__user` and `substitutions__leaver` /
    `substitutions__substitute` may be prefetched (then no query)."""
    subs = list(game.substitutions.all())
    return {s.seat: who_played(s, subs) for s in game.seats.all()}


def places_in_words(game: Game) -> list[dict[str, Any]]:
    """A finished game's seats in place order, each {"place", "seat", "seat_name", "who"}, for a list of
    results (the home page): the stored ranking, seats missing from it last. Uses the game's
    prefetched `seats__user` when there; one query for its take-overs."""
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    subs = list(game.substitutions.all())
    who = {s.seat: who_played(s, subs) for s in seats}
    names = seat_display_names(game, [s.seat for s in seats])
    order = [s for s in (game.ranking or []) if s in who] + [s.seat for s in seats if s.seat not in (game.ranking or [])]
    return [{"place": i + 1, "seat": seat, "seat_name": names[seat], "who": who[seat]} for i, seat in enumerate(order)]


def seat_display_names(game: Game, seats: list[str] | None = None, players: dict | None = None) -> dict[str, str]:
    """{seat: the seat in words}: the house, the B'Twixt leader, the card game's faction (Player 1,
    Player 2 when both play the same faction), the miniatures army's faction. `players`: the card
    game's `players` of its state, when the caller read them without the whole state."""
    from ratings.templatetags.site_words import seat_name

    seats = list(seats if seats is not None else game.seat_names())
    if game.ruleset == "lcg":
        from games.engine.lcg.data import FACTION_NAMES

        if players is None:
            players = (game.state or {}).get("players") or {}
        factions = {s: (players.get(s) or {}).get("faction") for s in seats}
        if all(factions.values()) and len(set(factions.values())) == len(seats):
            return {s: FACTION_NAMES.get(factions[s], seat_name(factions[s])) for s in seats}
    return {s: seat_name(s, game.ruleset) for s in seats}


# --------------------------------------------------------------------------- the result


def game_result(game: Game, seats: list[GameSeat], viewer) -> dict[str, Any] | None:
    """The payload's `result`: null while the game is active; otherwise the headline, each seat's
    place and who played it, ratings before and after, the replay and rematch links.
    `seats`: the game's seats with their users. Two queries at most (take-overs; rating changes of
    a ranked game), whatever the number of seats."""
    if game.status not in ENDED:
        return None
    seats = sorted(seats, key=lambda s: s.position)
    subs = list(game.substitutions.select_related("leaver", "substitute"))
    # as ratings.services.is_rated and players_of: a ranked game with a ranking and two players at least
    rated = bool(game.ranked and game.ranking) and sum(1 for s in seats if not s.is_computer()) >= 2
    changes = {}
    if rated:
        changes = {c.seat: c for c in game.rating_changes.all()}
    names = seat_display_names(game, [s.seat for s in seats])
    by_seat = {s.seat: s for s in seats}
    state = game.state if isinstance(game.state, dict) else {}
    finished = game.status == Game.Status.FINISHED
    places = _places(game, state, [s.seat for s in seats], finished)
    label = {s.seat: _label(s, names[s.seat]) for s in seats}
    scores = _scores(game.ruleset, state) if finished else {}
    if finished:
        headline = _headline(game.ruleset, state, places, label, names, scores)
    else:
        headline = _abandoned_headline(seats)
    rows = []
    for seat_id, place in sorted(places.items(), key=lambda item: (item[1], _order(game, seat_id=item[0]))):
        seat = by_seat[seat_id]
        change = changes.get(seat_id)
        rows.append({
            "place": place, "seat": seat_id, "seat_name": names[seat_id],
            "player": seat.user.username if seat.user is not None else None,
            "who": who_played(seat, subs),
            "computer": seat.is_computer(),
            "winner": finished and place == 1,
            "score": scores.get(seat_id),
            "rating_before": round(change.before) if change is not None else None,
            "rating_after": round(change.after) if change is not None else None,
        })
    played = {s.user_id for s in seats if s.user_id is not None} | {s.leaver_id for s in subs if s.leaver_id}
    viewer_id = viewer.pk if viewer is not None and getattr(viewer, "is_authenticated", False) else None
    return {
        "headline": headline,
        "status": game.status,
        "rated": rated,
        "places": rows,
        "replay_url": f"/games/{game.pk}/replay",
        "rematch_url": f"/games/{game.pk}/rematch" if viewer_id is not None and viewer_id in played else None,
    }


def _order(game: Game, seat_id: str) -> int:
    ranking = list(game.ranking or [])
    return ranking.index(seat_id) if seat_id in ranking else len(ranking)


def _places(game: Game, state: dict, seats: list[str], finished: bool) -> dict[str, int]:
    """{seat: place}: the ruleset's shared places where it has them (B56, M127's draw), else the
    stored ranking; seats missing from it come last."""
    ranking = [s for s in (game.ranking or []) if s in seats]
    ranking += [s for s in seats if s not in ranking]
    shared = None
    if finished:
        placements = getattr(get_ruleset(game.ruleset), "placements", None)
        try:
            shared = placements(state) if placements is not None else None
        except (KeyError, TypeError):
            shared = None
    if shared and all(s in shared for s in seats):
        return {s: shared[s] for s in seats}
    return {s: i + 1 for i, s in enumerate(ranking)}


def _label(seat: GameSeat, seat_name: str) -> str:
    """A seat in a headline: its player's name when a person played it to the end, else the seat."""
    if seat.user is not None and seat.left_at is None:
        return seat.user.username
    return seat_name


def _plural(key: str, n: int) -> str:
    return WORDS[key if n == 1 else key + "_plural"].format(n=n)


def _join(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return WORDS["and"].format(first=", ".join(names[:-1]), last=names[-1])


def _scores(ruleset: str, state: dict) -> dict[str, str]:
    """{seat: the measure that decided, in words}."""
    try:
        if ruleset == "agot":
            return {s: _plural("castles", int(n)) for s, n in state["victory"].items()}
        if ruleset == "btwixt":
            return {s: WORDS["btwixt_score"].format(n=v["lesser"]) for s, v in state["score"].items()}
        if ruleset == "lcg":
            from games.engine.lcg import table

            return {s: WORDS["power_score"].format(n=table.power_total(state, s)) for s in state["seats"]}
        if ruleset == "minis":
            return {s: _plural("vp", int(n)) for s, n in state["vp"].items()}
    except (KeyError, TypeError, ValueError):
        pass
    return {}


def _headline(ruleset: str, state: dict, places: dict[str, int], label: dict[str, str],
              names: dict[str, str], scores: dict[str, str]) -> str:
    order = sorted(places, key=lambda s: places[s])
    winners = [s for s in order if places[s] == 1]
    try:
        said = HEADLINES[ruleset](state, order, winners, label, names, scores) if ruleset in HEADLINES else None
    except (KeyError, TypeError, ValueError, IndexError):
        said = None
    if said:
        return said
    if len(winners) > 1:
        return WORDS["shared"].format(names=_join([label[s] for s in winners]))
    return WORDS["won"].format(name=label[order[0]])


def _agot(state, order, winners, label, names, scores) -> str:
    """R37: seven castles win at once; R40: after round 10 the Victory track, then its tie-breakers
    (strongholds, Supply, available power, the Iron Throne track)."""
    from games.engine.agot import rounds

    first = order[0]
    castles, round_ = scores[first], state["round"]
    if state["victory"][first] >= rounds.INSTANT_WIN:
        return WORDS["agot_instant"].format(name=label[first], castles=castles, round=round_)
    if len(order) > 1:
        second = order[1]
        mine, theirs = rounds.ranking_key(state, first), rounds.ranking_key(state, second)
        if mine[0] == theirs[0]:
            for index, measure in ((1, "strongholds"), (2, "supply"), (3, "power")):
                if mine[index] != theirs[index]:
                    return WORDS["agot_end_tie"].format(
                        name=label[first], castles=castles, round=round_, other=label[second],
                        measure=WORDS[measure], a=-mine[index], b=-theirs[index])
            return WORDS["agot_end_throne"].format(name=label[first], castles=castles, round=round_,
                                                   other=label[second])
    return WORDS["agot_end"].format(name=label[first], castles=castles, round=round_)


def _btwixt(state, order, winners, label, names, scores) -> str:
    """B53-B56: the weaker council, then the other council, then allies; else a shared victory."""
    score = state["score"]
    if len(winners) > 1:
        return WORDS["btwixt_shared"].format(names=_join([label[s] for s in winners]), score=scores[winners[0]])
    first = order[0]
    if len(order) > 1:
        second = order[1]
        if score[first]["lesser"] == score[second]["lesser"]:
            for key, measure in (("other", "btwixt_other"), ("allies", "btwixt_allies")):
                if score[first][key] != score[second][key]:
                    return WORDS["btwixt_tie"].format(name=label[first], score=scores[first], other=label[second],
                                                      measure=WORDS[measure], a=score[first][key],
                                                      b=score[second][key])
    return WORDS["btwixt_won"].format(name=label[first], score=scores[first])


def _lcg(state, order, winners, label, names, scores) -> str:
    """L229: 15 power wins; L231, L232: a player whose draw deck is empty is eliminated, and the last
    one left wins."""
    from games.engine.lcg import table

    first = state["winner"] or order[0]
    if table.power_total(state, first) >= 15:
        return WORDS["lcg_power"].format(name=label[first], power=scores[first])
    decked = [s for s in state["seats"] if s != first and not state["players"][s]["deck"]]
    if decked:
        return WORDS["lcg_decked"].format(
            name=label[first], others=_join([WORDS["lcg_deck_of"].format(name=label[s]) for s in decked]))
    return WORDS["won"].format(name=label[first])


def _minis(state, order, winners, label, names, scores) -> str:
    """M125-M127: victory points, then army points left, else a draw; M128: no combat unit left."""
    from games.engine.minis import table

    result, winner, vp = state["result"], state["winner"], state["vp"]
    if winner is None:
        if result == "elimination":
            return WORDS["minis_draw_elimination"]
        return WORDS["minis_draw"].format(vp=scores[order[0]])
    other = next(s for s in state["seats"] if s != winner)
    if result == "elimination":
        return WORDS["minis_elimination"].format(name=label[winner], other=label[other])
    if result == "points":
        return WORDS["minis_points"].format(name=label[winner], a=table.army_points(state, winner),
                                            b=table.army_points(state, other), vp=scores[winner])
    return WORDS["minis_vp"].format(name=label[winner], a=vp[winner], b=vp[other])


HEADLINES = {"agot": _agot, "btwixt": _btwixt, "lcg": _lcg, "minis": _minis}


def _abandoned_headline(seats: list[GameSeat]) -> str:
    """Every player left. With one player (the others the computer's from the start), name them."""
    people = [s for s in seats if not s.is_computer()]
    if len(people) == 1:
        seat = people[0]
        name = seat.user.username if seat.user is not None else WORDS["a_player"]
        if seat.left_round is None:
            return WORDS["abandoned_one_no_round"].format(name=name)
        return WORDS["abandoned_one"].format(name=name, when=_when(seat.left_round))
    return WORDS["abandoned_everyone"]
