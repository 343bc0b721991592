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

Every sentence a player reads is in WORDS (one place, for translation): each a whole sentence with named
placeholders, said in the active language when it is built (the home page keeps its rendered results
per language: web.views.recent_results_html)."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.engine import get_ruleset
from games.models import Game, GameSeat, SeatSubstitution
from westeros import compiled

WORDS = {
    # who played a seat
    "computer": _("The computer"),
    "left": _("%(name)s (left %(when)s; the computer played on)"),
    "left_no_round": _("%(name)s (left; the computer played on)"),
    "left_taken": _("%(name)s (left %(when)s; %(substitute)s took over)"),
    "left_taken_no_round": _("%(name)s (left; %(substitute)s took over)"),
    "took_over": _("%(name)s (took over from %(leaver)s %(when)s)"),
    "took_over_no_round": _("%(name)s (took over from %(leaver)s)"),
    "took_over_and_left": _("%(name)s (took over from %(leaver)s %(when)s; left %(left)s; "
                          "the computer played on)"),
    "a_player": _("a player"),
    "in_round": _("in round %(round)s"),
    "before_round_1": _("before round 1"),
    # headlines
    "abandoned_everyone": _("Everyone left: the game was abandoned."),
    "abandoned_one": _("%(name)s left %(when)s: the game was abandoned."),
    "abandoned_one_no_round": _("%(name)s left: the game was abandoned."),
    "won": _("%(name)s won."),
    "shared": _("%(names)s shared the victory."),
    "and": _("%(first)s and %(last)s"),
    "agot_instant": _("%(name)s won with %(castles)s in round %(round)s."),
    "agot_end": _("%(name)s won with %(castles)s after round %(round)s."),
    "agot_end_tie": _("%(name)s won with %(castles)s after round %(round)s, ahead of %(other)s on %(measure)s (%(a)s to %(b)s)."),
    "agot_end_throne": _("%(name)s won with %(castles)s after round %(round)s, ahead of %(other)s on the Iron Throne track."),
    "strongholds": _("strongholds"),
    "supply": _("the Supply track"),
    "power": _("available power"),
    "btwixt_won": _("%(name)s won with %(score)s."),
    "btwixt_tie": _("%(name)s won with %(score)s, ahead of %(other)s on %(measure)s (%(a)s to %(b)s)."),
    "btwixt_shared": _("%(names)s shared the victory with %(score)s each."),
    "btwixt_score": _("%(n)s power in the weaker council"),
    "btwixt_other": _("the other council"),
    "btwixt_allies": _("allies"),
    "lcg_power": _("%(name)s won with %(power)s."),
    "lcg_decked": _("%(name)s won: %(others)s ran out of cards to draw."),
    "lcg_deck_of": _("%(name)s's draw deck"),
    "power_score": _("%(n)s power"),
    "minis_vp": _("%(name)s won on victory points, %(a)s to %(b)s."),
    "minis_points": _("%(name)s won on army points left on the battlefield, %(a)s to %(b)s, after a tie at %(vp)s."),
    "minis_draw": _("A draw: %(vp)s each and the same army points left on the battlefield."),
    "minis_draw_elimination": _("A draw: both armies were destroyed."),
    "minis_elimination": _("%(name)s won: %(other)s has no combat unit left on the battlefield."),
}
# counted words (Spanish has its own plural forms)
PLURALS = {
    "castles": ngettext_lazy("%(n)s castle", "%(n)s castles", "n"),
    "vp": ngettext_lazy("%(n)s victory point", "%(n)s victory points", "n"),
}


def _say(key: str, **values: Any) -> str:
    """WORDS[key] in the active language with its values (a sentence is one template: issue 29)."""
    return str(WORDS[key]) % values if values else str(WORDS[key])

ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)


# --------------------------------------------------------------------------- who played a seat


def who_played(seat: GameSeat, substitutions: list[SeatSubstitution] = ()) -> str:
    """The seat's player in words (module docstring). `substitutions`: the game's take-overs (any
    seat's; this one's are picked out), with their leaver and substitute loaded."""
    if seat.is_computer():
        return _say("computer")
    name = seat.user.username if seat.user is not None else _say("a_player")
    subs = [s for s in substitutions if s.seat == seat.seat]
    left = seat.left_at is not None
    if subs:
        last = subs[-1]
        leaver = last.leaver.username if last.leaver is not None else _say("a_player")
        if left and last.left_round is not None and seat.left_round is not None:
            return _say("took_over_and_left", name=name, leaver=leaver, when=_when(last.left_round),
                        left=_when(seat.left_round))
        if left:
            return _left(name, seat.left_round)
        if last.left_round is not None:
            return _say("took_over", name=name, leaver=leaver, when=_when(last.left_round))
        return _say("took_over_no_round", name=name, leaver=leaver)
    if left:
        return _left(name, seat.left_round)
    return name


def _left(name: str, round_: int | None) -> str:
    if round_ is None:
        return _say("left_no_round", name=name)
    return _say("left", name=name, when=_when(round_))


def _when(round_: int) -> str:
    """"in round 3"; "before round 1" for round 0 (the miniatures' deployment, a setup)."""
    return _say("in_round", round=round_) if round_ >= 1 else _say("before_round_1")


def leaver_words(substitution: SeatSubstitution) -> str:
    """A player who left a seat someone took over later, as their own results say it:
    "Alys (left in round 3; Bran took over)"."""
    name = substitution.leaver.username if substitution.leaver is not None else _say("a_player")
    substitute = substitution.substitute.username if substitution.substitute is not None else _say("a_player")
    if substitution.left_round is None:
        return _say("left_taken_no_round", name=name, substitute=substitute)
    return _say("left_taken", name=name, when=_when(substitution.left_round), substitute=substitute)


def seat_players(game: Game) -> dict[str, str]:
    """{seat: who played it} for a game whose `seats__user` and `substitutions__leaver` /
    `substitutions__substitute` may be prefetched (then no query)."""
    subs = list(game.substitutions.all())
    return {s.seat: who_played(s, subs) for s in game.seats.all()}


def places_in_words(game: Game, players: dict | None = None) -> list[dict[str, Any]]:
    """A finished game's seats in place order, each {"place", "seat", "seat_name", "who"}, for a list of
    results (the home page): the stored ranking, seats missing from it last. Uses the game's
    prefetched `seats__user` when there; one query for its take-overs. `players`: a card game's
    `players` of its state (seat_display_names), when the caller read them without the whole state."""
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    subs = list(game.substitutions.all())
    who = {s.seat: who_played(s, subs) for s in seats}
    names = seat_display_names(game, [s.seat for s in seats], players=players)
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
    # both queries compiled once per process (westeros/compiled.py): every finished game's page and API
    # read makes them (issue 27)
    subs = take_overs(game)
    # as ratings.services.is_rated and players_of: a ranked game with a ranking and two players at least
    rated = bool(game.ranked and game.ranking) and sum(1 for s in seats if not s.is_computer()) >= 2
    changes = {}
    if rated:
        changes = {c.seat: c for c in compiled.models("games:result-rating-changes", _rating_changes_query,
                                                      game_id=game.pk)}
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


def take_overs(game: Game) -> list[SeatSubstitution]:
    """The game's take-overs (SeatSubstitution) with their leavers and substitutes, by a query compiled
    once per process: a finished game's result and every page of its log read them."""
    return compiled.models("games:take-overs", _take_overs_query, game_id=game.pk)


def _take_overs_query(game_id: int):
    return SeatSubstitution.objects.filter(game_id=game_id).select_related("leaver", "substitute")


def _rating_changes_query(game_id: int):
    # the ratings app's model through the reverse relation: games/ does not import ratings
    return Game._meta.get_field("rating_changes").related_model.objects.filter(game_id=game_id)


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
    return PLURALS[key] % {"n": n}


def _join(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _say("and", first=", ".join(names[:-1]), last=names[-1])


def _scores(ruleset: str, state: dict) -> dict[str, str]:
    """{seat: the measure that decided, in words}."""
    try:
        if ruleset == "agot":
            return {s: _plural("castles", int(n)) for s, n in state["victory"].items()}
        if ruleset == "btwixt":
            return {s: _say("btwixt_score", n=v["lesser"]) for s, v in state["score"].items()}
        if ruleset == "lcg":
            from games.engine.lcg import table

            return {s: _say("power_score", n=table.power_total(state, s)) for s in state["seats"]}
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
        return _say("shared", names=_join([label[s] for s in winners]))
    return _say("won", name=label[order[0]])


def _agot(state, order, winners, label, names, scores) -> str:
    """R37: seven castles win at once; R40: after round 10 the Victory track, then its tie-breakers
    (strongholds, Supply, available power, the Iron Throne track)."""
    from games.engine.agot import rounds

    first = order[0]
    castles, round_ = scores[first], state["round"]
    if state["victory"][first] >= rounds.INSTANT_WIN:
        return _say("agot_instant", name=label[first], castles=castles, round=round_)
    if len(order) > 1:
        second = order[1]
        mine, theirs = rounds.ranking_key(state, first), rounds.ranking_key(state, second)
        if mine[0] == theirs[0]:
            for index, measure in ((1, "strongholds"), (2, "supply"), (3, "power")):
                if mine[index] != theirs[index]:
                    return _say("agot_end_tie", name=label[first], castles=castles, round=round_,
                                other=label[second], measure=_say(measure), a=-mine[index], b=-theirs[index])
            return _say("agot_end_throne", name=label[first], castles=castles, round=round_, other=label[second])
    return _say("agot_end", name=label[first], castles=castles, round=round_)


def _btwixt(state, order, winners, label, names, scores) -> str:
    """B53-B56: the weaker council, then the other council, then allies; else a shared victory."""
    score = state["score"]
    if len(winners) > 1:
        return _say("btwixt_shared", names=_join([label[s] for s in winners]), score=scores[winners[0]])
    first = order[0]
    if len(order) > 1:
        second = order[1]
        if score[first]["lesser"] == score[second]["lesser"]:
            for key, measure in (("other", "btwixt_other"), ("allies", "btwixt_allies")):
                if score[first][key] != score[second][key]:
                    return _say("btwixt_tie", name=label[first], score=scores[first], other=label[second],
                                measure=_say(measure), a=score[first][key], b=score[second][key])
    return _say("btwixt_won", name=label[first], score=scores[first])


def _lcg(state, order, winners, label, names, scores) -> str:
    """L229: 15 power wins; L231, L232: a player whose draw deck is empty is eliminated, and the last
    one left wins."""
    from games.engine.lcg import table

    first = state["winner"] or order[0]
    if table.power_total(state, first) >= 15:
        return _say("lcg_power", name=label[first], power=scores[first])
    decked = [s for s in state["seats"] if s != first and not state["players"][s]["deck"]]
    if decked:
        return _say("lcg_decked", name=label[first],
                    others=_join([_say("lcg_deck_of", name=label[s]) for s in decked]))
    return _say("won", name=label[first])


def _minis(state, order, winners, label, names, scores) -> str:
    """M125-M127: victory points, then army points left, else a draw; M128: no combat unit left."""
    from games.engine.minis import table

    result, winner, vp = state["result"], state["winner"], state["vp"]
    if winner is None:
        if result == "elimination":
            return _say("minis_draw_elimination")
        return _say("minis_draw", vp=scores[order[0]])
    other = next(s for s in state["seats"] if s != winner)
    if result == "elimination":
        return _say("minis_elimination", name=label[winner], other=label[other])
    if result == "points":
        return _say("minis_points", name=label[winner], a=table.army_points(state, winner),
                            b=table.army_points(state, other), vp=scores[winner])
    return _say("minis_vp", name=label[winner], a=vp[winner], b=vp[other])


HEADLINES = {"agot": _agot, "btwixt": _btwixt, "lcg": _lcg, "minis": _minis}


def _abandoned_headline(seats: list[GameSeat]) -> str:
    """Every player left. With one player (the others the computer's from the start), name them."""
    people = [s for s in seats if not s.is_computer()]
    if len(people) == 1:
        seat = people[0]
        name = seat.user.username if seat.user is not None else _say("a_player")
        if seat.left_round is None:
            return _say("abandoned_one_no_round", name=name)
        return _say("abandoned_one", name=name, when=_when(seat.left_round))
    return _say("abandoned_everyone")
