"""The card game's log in words (games/engine/lcg/narrate.py, issue 17 "the log in words"): every event
kind the lcg engine emits in 100 seeded random games reads as a plain sentence, with card names as
printed, seats as the `{p1}` / `{p2}` placeholders a page replaces by the players' names (and as
pieces of their own), and no ids; the narrator runs after event_view and never tells another seat or
a spectator a card of p1's hand or deck (rules/lcg.md §5.2; L55 for a facedown duplicate)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine.lcg import data, narrate
from games.engine.lcg import table as T
from tests.engine.lcg_helpers import R, act, game, uid

NAMES = {cid: narrate.card(cid) for cid in data.cards()}
# what a sentence never holds: underscores, brackets, quotes, uids (c12), raw values, braces other
# than a seat placeholder, a seat id outside its placeholder
RAW = re.compile(r"[_\[\]\"]|\bc\d+\b|\bNone\b|\bTrue\b|\bFalse\b|\bhidden\b")
PLACEHOLDER = re.compile(r"\{p[12]\}")
# card ids of one word ("varys", "summer") never appear as such
ONE_WORD_IDS = re.compile(r"\b(" + "|".join(c for c in data.cards() if "_" not in c) + r")\b")


def _strings(x):
    """Every string of a (filtered) event, keys included."""
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def _secret_names(state):
    return {NAMES[T.cid(state, u)] for key in ("hand", "deck") for u in state["players"]["p1"][key]
            if T.cid(state, u) in NAMES}


def _leaks(text, event, secrets):
    """The names of p1's hand and deck in `text` that the filtered event does not name itself."""
    allowed = sorted({NAMES[s] for s in _strings(event) if s in NAMES}, key=len, reverse=True)
    for name in allowed:
        text = text.replace(name, "")
    return sorted(n for n in secrets - set(allowed) if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text))


@pytest.fixture(scope="module")
def played():
    """100 seeded random games, every deck pairing, half with every window: one sample event per
    (kind, keys), and every sentence p2 or a spectator read that named a secret of p1's."""
    decks = data.deck_ids()
    samples: dict[tuple, dict] = {}
    leaks: list = []
    draws = {"p2": [], None: []}
    for seed in range(100):
        pair = [decks[seed % 2], decks[(seed // 2) % 2]]
        state = R.new_game(["p1", "p2"], {"decks": pair, "every_window": bool(seed % 2)}, seed)
        rnd = random.Random(seed)
        while not state["over"]:
            seat = sorted(R.pending(state))[0]
            before = _secret_names(state)
            state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            secrets = before | _secret_names(state)
            for ev in events:
                samples.setdefault((ev["type"], tuple(sorted(ev))), ev)
                for viewer in ("p2", None):
                    seen = R.event_view(ev, viewer)
                    text = R.describe_event(seen)["text"]
                    found = _leaks(text, seen, secrets)
                    if found:
                        leaks.append((seed, viewer, text, found))
                    if ev["type"] == "draw" and ev["seat"] == "p1":
                        draws[viewer].append(text)
    return {"samples": samples, "leaks": leaks, "draws": draws}


def test_random_games_emit_the_main_kinds(played):
    kinds = {k for k, _ in played["samples"]}
    for kind in ("round", "phase", "mulligan", "setup_revealed", "draw", "plots_revealed", "initiative",
                 "first_player", "income", "marshal", "challenge", "defenders", "challenge_result", "claim",
                 "leaves_play", "power", "dominance", "stand", "game_over"):
        assert kind in kinds, kind


def test_every_event_kind_of_100_random_games_reads_as_a_sentence_without_ids(played):
    for (kind, _), ev in played["samples"].items():
        assert kind in narrate.NARRATORS, kind  # its own sentence, not the fallback
        for viewer in ("p1", "p2", None):
            said = R.describe_event(R.event_view(ev, viewer))
            text = said["text"]
            assert text and (text[0].isupper() or text.startswith("{")) and text.endswith("."), (kind, text)
            bare = PLACEHOLDER.sub("", text)
            assert not RAW.search(text) and "{" not in bare and "}" not in bare, (kind, text)
            assert not re.search(r"\bp[12]\b", bare), (kind, text)
            assert not ONE_WORD_IDS.search(text), (kind, text)
            assert "".join(p["text"] for p in said["parts"]) == text
            seats = [p["seat"] for p in said["parts"] if "seat" in p]
            assert all(p["text"] == "{" + p["seat"] + "}" for p in said["parts"] if "seat" in p)
            assert len(seats) == len(PLACEHOLDER.findall(text)) and said.get("seats", []) == list(dict.fromkeys(seats))


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
        assert "burned_men" not in list(_strings(seen))
        assert R.describe_event(seen)["text"] == \
            "{p1} places the top card of their deck facedown on Arya Stark as a duplicate."
        assert dup not in R.view(s, viewer)["cards"] and "burned_men" not in str(R.view(s, viewer))


def test_unknown_kinds_fall_back_to_words_not_a_dump():
    text = narrate.narrate({"type": "some_new_thing", "seat": "p1", "card": "robb_stark", "detail": {"x": [1]}})
    assert text == "Some new thing: {p1} (Robb Stark)."
    assert not RAW.search(narrate.narrate({"type": "marshal", "seat": "p1"}))
