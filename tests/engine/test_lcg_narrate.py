"""The card game's log in words (games/engine/lcg/narrate.py, issue 17 "the log in words"): every event
kind the lcg engine emits in 20 seeded random games, and in a game where a seat's draw deck runs out
(L231), reads as a plain sentence, with card names as printed, seats as the `{p1}` / `{p2}`
placeholders a page replaces by the players' names (and as pieces of their own), and no ids; the
narrator runs after event_view and never tells another seat or a spectator a card of p1's hand or
deck (rules/lcg.md §5.2; L55 for a facedown duplicate)."""
from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest

from games.engine.lcg import data, narrate
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, game, uid
from tests.engine.narrate_helpers import assert_every_sample_reads_as_a_sentence, strings

NAMES = {cid: narrate.card(cid) for cid in data.cards()}
# what a sentence never holds: underscores, brackets, quotes, uids (c12), raw values, braces other
# than a seat placeholder, a seat id outside its placeholder
RAW = re.compile(r"[_\[\]\"]|\bc\d+\b|\bNone\b|\bTrue\b|\bFalse\b|\bhidden\b")
PLACEHOLDER = re.compile(r"\{p[12]\}")
# card ids of one word ("varys", "summer") never appear as such
ONE_WORD_IDS = re.compile(r"\b(" + "|".join(c for c in data.cards() if "_" not in c) + r")\b")


def _secret_names(state):
    return {NAMES[T.cid(state, u)] for key in ("hand", "deck") for u in state["players"]["p1"][key]
            if T.cid(state, u) in NAMES}


@functools.cache
def _named(name: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


def _leaks(text, event, secrets):
    """The names of p1's hand and deck in `text` that the filtered event does not name itself."""
    if not any(n in text for n in secrets):  # the usual case: no secret's name at all
        return []
    allowed = sorted({NAMES[s] for s in strings(event) if s in NAMES}, key=len, reverse=True)
    for name in allowed:
        text = text.replace(name, "")
    return sorted(n for n in secrets - set(allowed) if _named(n).search(text))


# Seeds 0-19: each setting of every_window ten times, each deck pairing five times. They reach every
# (kind, keys) that 100 games reached but the elimination of a decked seat (seed 49 alone), which
# the decked game below reaches every time; the sample of each is the one 100 games kept (the first).
GAMES = 20


def _decked_game():
    """L231-L232: p1 has two cards left in its draw deck and draws them in the draw phase: it is
    eliminated and p2 wins. Played from the plot phase with the timeout defaults."""
    players = {"p1": {"deck_size": 2}, "p2": {}}
    return R.scenario_game(["p1", "p2"], {}, 3, {"first_player": "p1", "players": players}, "plot", None)


@pytest.fixture(scope="module")
def played():
    """20 seeded random games, every deck pairing, half with every window, then the decked game: one
    sample event per (kind, keys), every sentence p2 or a spectator read that named a secret of
    p1's, and p1's draws as they read them."""
    decks = data.deck_ids()
    samples: dict[tuple, dict] = {}
    leaks: list = []
    draws = {"p2": [], None: []}

    def play(name, state, choose):
        """The game to its end, each seat choosing with `choose`: the final state and every event."""
        before = _secret_names(state)
        every: list[dict] = []
        while not state["over"]:
            seat = sorted(R.pending(state))[0]
            state, events = R.apply(state, seat, choose(state, seat))
            every += events
            after = _secret_names(state)
            secrets = before | after
            before = after
            for ev in events:
                samples.setdefault((ev["type"], tuple(sorted(ev))), ev)
                for viewer in ("p2", None):
                    seen = R.event_view(ev, viewer)
                    text = R.describe_event(seen)["text"]
                    found = _leaks(text, seen, secrets)
                    if found:
                        leaks.append((name, viewer, text, found))
                    if ev["type"] == "draw" and ev["seat"] == "p1":
                        draws[viewer].append(text)
        return state, every

    for seed in range(GAMES):
        pair = [decks[seed % 2], decks[(seed // 2) % 2]]
        rnd = random.Random(seed)
        play(seed, R.new_game(["p1", "p2"], {"decks": pair, "every_window": bool(seed % 2)}, seed),
             lambda state, seat, rnd=rnd: R.random_action(state, seat, rnd))
    random_kinds = {kind for kind, _ in samples}
    decked = play("decked", _decked_game(), R.default_action)
    return {"samples": samples, "random_kinds": random_kinds, "leaks": leaks, "draws": draws, "decked": decked}


def test_random_games_emit_the_main_kinds(played):
    kinds = played["random_kinds"]
    for kind in ("round", "phase", "mulligan", "setup_revealed", "draw", "plots_revealed", "initiative",
                 "first_player", "income", "marshal", "challenge", "defenders", "challenge_result", "claim",
                 "leaves_play", "power", "dominance", "stand", "game_over"):
        assert kind in kinds, kind


def test_a_seat_whose_draw_deck_runs_out_is_eliminated_and_told_L231_L232(played):
    state, events = played["decked"]
    assert state["winner"] == "p2" and state["eliminated"] == ["p1"] and not state["players"]["p1"]["deck"]
    told = [R.describe_event(R.event_view(ev, viewer))["text"] for ev in events if ev["type"] in ("eliminated", "game_over")
            for viewer in ("p1", "p2", None)]
    assert told == ["{p1} has run out of cards in their draw deck and is out of the game."] * 3 + \
        ["The game is over: {p2} wins: their opponent's draw deck ran out."] * 3


def test_every_event_kind_of_the_played_games_reads_as_a_sentence_without_ids(played):
    assert_every_sample_reads_as_a_sentence(R, narrate.NARRATORS, played["samples"], ("p1", "p2", None),
                                            placeholder=PLACEHOLDER, raw=RAW, in_text=[ONE_WORD_IDS],
                                            in_bare=[re.compile(r"\bp[12]\b")])


def test_every_kind_written_in_the_engine_has_its_own_sentence():
    """Kinds random games rarely or never reach (bestow: no card of the two decks has it) still have a
    sentence of their own: every kind the engine's modules append."""
    source = "\n".join(p.read_text() for p in Path(narrate.__file__).parent.glob("*.py") if p.name != "narrate.py")
    kinds = set(re.findall(r'events\.append\(\{"type": "(\w+)"', source))
    kinds |= set(re.findall(r'"type": "\w+" if \w+ else "(\w+)"', source))
    kinds |= set(re.findall(r'_bring_in\([^)]*"(\w+)"\)', source))
    assert {"marshal", "ambush", "triggered", "bestow", "game_over"} <= kinds
    assert kinds <= set(narrate.NARRATORS), kinds - set(narrate.NARRATORS)


def test_key_sentences():
    def said(ev):
        return R.describe_event(ev)

    marshal = said({"type": "marshal", "seat": "p1", "card": "robb_stark", "duplicate": False, "on": None})
    assert marshal["text"] == "{p1} marshals Robb Stark."
    assert marshal["parts"] == [{"text": "{p1}", "seat": "p1"}, {"text": " marshals Robb Stark."}]
    assert marshal["key"] and marshal["seats"] == ["p1"]
    assert said({"type": "marshal", "seat": "p2", "card": "throwing_axe", "duplicate": False,
                 "on": "ser_jaime_lannister"})["text"] == "{p2} marshals Throwing Axe onto Ser Jaime Lannister."
    challenge = said({"type": "challenge", "seat": "p1", "challenge": "military", "defender": "p2",
                      "attackers": ["robb_stark", "grey_wind"], "stealth": {}})
    assert challenge["text"] == "{p1} declares a military challenge against {p2}, attacking with Robb Stark and Grey Wind."
    assert challenge["seats"] == ["p1", "p2"]
    assert said({"type": "challenge", "seat": "p2", "challenge": "intrigue", "defender": "p1",
                 "attackers": ["varys"], "stealth": {"varys": "bran_stark"}})["text"] == \
        "{p2} declares an intrigue challenge against {p1}, attacking with Varys; stealth: Varys bypasses Bran Stark."
    assert said({"type": "defenders", "seat": "p2", "defenders": []})["text"] == "{p2} does not defend."
    assert said({"type": "challenge_result", "challenge": "intrigue", "strength": {"p1": 5, "p2": 3}, "winner": "p1",
                 "unopposed": False})["text"] == "{p1} wins the intrigue challenge, 5 to 3."
    assert said({"type": "claim", "seat": "p1", "challenge": "military", "claim": 1})["text"] == \
        "{p1} claims 1 (military): the defender must kill one character."
    assert said({"type": "claim", "seat": "p2", "challenge": "intrigue", "claim": 2})["text"] == \
        "{p2} claims 2 (intrigue): the defender discards two cards at random from their hand."
    assert said({"type": "leaves_play", "seat": "p2", "card": "tywin_lannister", "to": "dead", "reason": "claim"})[
        "text"] == "{p2}'s Tywin Lannister is killed (claim)."
    assert said({"type": "power", "seat": "p1", "card": "robb_stark", "amount": 1, "reason": "renown"})["text"] == \
        "Renown: {p1}'s Robb Stark gains 1 power."
    assert said({"type": "kneel", "seat": "p2", "card": "summer", "reason": "cost"})["text"] == \
        "{p2} kneels Summer to pay a cost."
    dominance = said({"type": "dominance", "total": {"p1": 7, "p2": 4}, "winner": "p1"})
    assert dominance["text"] == "{p1} wins dominance (7 to 4) and gains 1 power on their faction card."
    assert said({"type": "dominance", "total": {"p1": 3, "p2": 3}, "winner": None})["text"] == \
        "Nobody wins dominance: a tie, 3 to 3."
    assert said({"type": "plots_revealed", "plots": {"p1": "a_game_of_thrones", "p2": "the_bear_and_the_maiden_fair"}})[
        "text"] == "The plots are revealed: {p1} reveals A Game of Thrones; {p2} reveals The Bear and the Maiden Fair."
    over = said({"type": "game_over", "winner": "p2", "reason": "power"})
    assert over["text"] == "The game is over: {p2} wins with 15 power." and over["phase"] == "over"
    assert narrate.fill(over["text"], {"p2": "Olenna"}) == "The game is over: Olenna wins with 15 power."


def test_phase_markers_give_round_and_phase():
    phase = R.describe_event({"type": "phase", "phase": "marshaling", "round": 2})
    assert phase["text"] == "The Marshaling phase begins." and (phase["round"], phase["phase"]) == (2, "marshaling")
    assert R.describe_event({"type": "round", "round": 3})["text"] == "Round 3 begins."
    assert "phase" not in R.describe_event({"type": "income", "seat": "p1", "gold": 5})


def test_a_draw_names_its_cards_to_the_drawer_only(played):
    ev = {"type": "draw", "seat": "p1", "count": 2, "private": {"p1": ["robb_stark", "summer"]}}
    own = R.describe_event(R.event_view(ev, "p1"))
    assert own["text"] == "{p1} draws two cards: Robb Stark and Summer." and own["private"]
    for viewer in ("p2", None):
        other = R.describe_event(R.event_view(ev, viewer))
        assert other["text"] == "{p1} draws two cards." and "private" not in other
    # in the random games too: every draw of p1's reads as a count to p2 and to a spectator
    for viewer in ("p2", None):
        assert played["draws"][viewer]
        assert all(re.fullmatch(r"\{p1\} draws (a card|\w+ cards)\.", t) for t in played["draws"][viewer])


def test_no_sentence_tells_p2_or_a_spectator_a_card_of_p1s_hand_or_deck(played):
    assert played["leaks"] == []


def test_arya_starks_facedown_duplicate_is_seen_by_its_controller_only_L55():
    s = game({"hand": ["arya_stark"], "gold": 3, "deck": ["burned_men"]}, {}, start="marshaling")
    s, _ = act(s, "p1", {"marshal": "arya_stark"})
    s, ev = act(s, "p1", {"trigger": "arya_stark"})
    placed = next(e for e in ev if e["type"] == "duplicate_placed")
    dup = s["inplay"][uid(s, "p1", "arya_stark")]["duplicates"][0]
    assert R.describe_event(R.event_view(placed, "p1"))["text"] == \
        "{p1} places Burned Men facedown on Arya Stark as a duplicate."
    assert R.view(s, "p1")["cards"][dup] == "burned_men"
    for viewer in ("p2", None):
        seen = R.event_view(placed, viewer)
        assert "burned_men" not in list(strings(seen))
        assert R.describe_event(seen)["text"] == \
            "{p1} places the top card of their deck facedown on Arya Stark as a duplicate."
        assert dup not in R.view(s, viewer)["cards"] and "burned_men" not in str(R.view(s, viewer))


def test_unknown_kinds_fall_back_to_words_not_a_dump():
    text = narrate.narrate({"type": "some_new_thing", "seat": "p1", "card": "robb_stark", "detail": {"x": [1]}})
    assert text == "Some new thing: {p1} (Robb Stark)."
    assert not RAW.search(narrate.narrate({"type": "marshal", "seat": "p1"}))
