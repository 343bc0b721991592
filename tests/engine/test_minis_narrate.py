"""The miniatures game's log in words (games/engine/minis/narrate.py, "the log in words"): every event
kind the minis engine emits in 10 seeded random games reads as a plain sentence, with unit, NCU and
Tactics card names as printed, distances in inches, dice in words, seats as the `{stark}` /
`{lannister}` placeholders a page replaces by the players' names (and as pieces of their own), and
no ids; the narrator runs after event_view and never tells the other seat or a spectator a Tactics
card of a seat's hand (rules/minis.md §5: the hand is hidden, M112: played and discarded cards are
public). The facts the sentences need (distance moved, hits, ranks left, quadrant VP at Cleanup,
M84, M91, M123) are added to the events as they are emitted."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine import get_ruleset
from games.engine.minis import data, narrate
from tests.engine.narrate_helpers import assert_every_sample_reads_as_a_sentence, strings

R = get_ruleset("minis")
SEATS = ["stark", "lannister"]
CARDS = data.content()["cards"]
TACTICS = {cid: c["name"] for cid, c in CARDS.items() if c["kind"] == "tactics"}
# what a sentence never holds: underscores, brackets, quotes, card ids (five digits), raw values,
# braces other than a seat placeholder
RAW = re.compile(r"[_\[\]\"]|\b\d{5}\b|\bNone\b|\bTrue\b|\bFalse\b|\bhidden\b")
PLACEHOLDER = re.compile(r"\{(stark|lannister)\}")
# ids written in lower case: seats, one-word unit names, zones, quadrants, conditions, arcs, results
LOWER_IDS = re.compile(r"\b(stark|lannister|guardsmen|halberdiers|outriders|crown|money|letter|horse|sw|se|nw|ne|"
                       r"panicked|vulnerable|weakened|front|flank|rear|vp|maneuver|march|push|pivot)\b")


def _leaks(text, event, secrets):
    """The names of a hidden hand's cards in `text` that the filtered event does not name itself."""
    if not any(n in text for n in secrets):
        return []
    told = set(strings(event)) | {event["type"].replace("_", " ").title()}  # counterplot: the card's own event
    allowed = sorted({TACTICS[s] for s in told if s in TACTICS} | {s for s in told if len(s) > 3}, key=len,
                     reverse=True)
    for name in allowed:
        text = text.replace(name, "")
    return sorted(n for n in secrets if re.search(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text))


def _hand(state, seat):
    return {TACTICS[c] for c in state["players"][seat]["hand"]}


@pytest.fixture(scope="module")
def played():
    """10 seeded random games (random terrain in every other): one sample event per (kind, keys), every
    sentence the other seat or a spectator read that named a card of a hidden hand, the draws of
    Stark as Lannister and a spectator read them, and the final states with their events."""
    samples: dict[tuple, dict] = {}
    leaks: list = []
    draws = {"lannister": [], None: []}
    games = []
    for seed in range(10):
        state = R.new_game(SEATS, {"terrain": "random"} if seed % 2 else {}, seed)
        rnd = random.Random(seed)
        every: list[dict] = []
        while not state["over"]:
            seat = rnd.choice(sorted(R.pending(state)))
            before = {s: _hand(state, s) for s in SEATS}
            state, events = R.apply(state, seat, R.random_action(state, seat, rnd))
            every += events
            for ev in events:
                samples.setdefault((ev["type"], tuple(sorted(ev))), ev)
                for viewer in ("stark", "lannister", None):
                    secrets = set().union(*(before[s] | _hand(state, s) for s in SEATS if s != viewer))
                    seen = R.event_view(ev, viewer)
                    text = R.describe_event(seen)["text"]
                    found = _leaks(text, seen, secrets)
                    if found:
                        leaks.append((seed, viewer, text, found))
                    if ev["type"] == "draw" and ev["seat"] == "stark" and viewer != "stark":
                        draws[viewer].append(text)
        games.append((state, every))
    return {"samples": samples, "leaks": leaks, "draws": draws, "games": games}


def test_random_games_emit_the_main_kinds(played):
    kinds = {k for k, _ in played["samples"]}
    for kind in ("first_player", "deploy", "draw", "round", "activate", "move", "charge", "attack", "attack_dice",
                 "defense_dice", "wounds", "test", "destroyed", "claim", "place", "play", "order", "react_pass",
                 "cleanup", "discard", "vp", "game_over"):
        assert kind in kinds, kind


def test_every_event_kind_of_10_random_games_reads_as_a_sentence_without_ids(played):
    assert_every_sample_reads_as_a_sentence(R, narrate.NARRATORS, played["samples"], ("stark", "lannister", None),
                                            placeholder=PLACEHOLDER, raw=RAW, in_text=[re.compile(r"\b[a-z]+_[a-z]+")],
                                            in_bare=[LOWER_IDS])


def test_every_kind_written_in_the_engine_has_its_own_sentence():
    """Kinds random games rarely reach (Last Stand, Reckless Heroism, a redeployment) still have a
    sentence of their own: every kind the engine's modules write."""
    source = "\n".join(p.read_text() for p in Path(narrate.__file__).parent.glob("*.py")
                       if p.name not in ("narrate.py", "setup.py"))
    kinds = set(re.findall(r'\{"type": "(\w+)"', source))
    assert {"move", "charge", "attack", "last_stand", "reckless_heroism", "redeploy", "game_over"} <= kinds
    assert kinds | {"vp"} <= set(narrate.NARRATORS), kinds - set(narrate.NARRATORS)


def said(ev):
    return R.describe_event(ev)["text"]


def test_key_sentences():
    activate = R.describe_event({"type": "activate", "seat": "stark", "unit": "sworn_swords_2"})
    assert activate["text"] == "{stark} activates Stark Sworn Swords 2."
    assert activate["parts"] == [{"text": "{stark}", "seat": "stark"}, {"text": " activates Stark Sworn Swords 2."}]
    assert activate["key"] and activate["seats"] == ["stark"]
    assert said({"type": "activate", "seat": "lannister", "unit": "30104"}) == \
        "{lannister} activates Tyrion Lannister, The Imp."
    assert said({"type": "move", "unit": "outriders", "kind": "march", "at": [10, 20], "facing": 0,
                 "distance": 9.96}) == "Stark Outriders marches 10 in, facing north."
    assert said({"type": "move", "unit": "guardsmen_2", "kind": "pivot", "at": [10, 20], "facing": 135,
                 "distance": 0}) == "Lannister Guardsmen 2 pivots to face south-east."
    assert said({"type": "move", "unit": "sworn_swords", "kind": "retreat", "at": [24, 20], "facing": 0,
                 "stays": True}) == "Stark Sworn Swords has nowhere to retreat and stays where it is."
    assert said({"type": "charge", "unit": "umber_berserkers", "target": "clegane_mountain_s_men", "roll": 4,
                 "distance": 10, "moved": 7.36, "result": "success", "disorderly": False, "arc": "flank"}) == \
        "House Umber Berserkers charges House Clegane Mountain's Men in the Flank: it rolls 4 for a charge of " \
        "10 in and makes contact after 7.4 in."
    assert said({"type": "charge", "unit": "grey_wind", "target": "halberdiers", "roll": 1, "distance": 9,
                 "moved": 8, "result": "failed", "disorderly": True, "arc": "front"}) == \
        "Grey Wind charges Lannister Halberdiers: it rolls 1 for a charge of 9 in and falls short after 8 in: " \
        "the charge fails."
    assert said({"type": "claim", "ncu": "30201", "zone": "money", "seat": "stark"}) == \
        "{stark}'s Catelyn Stark, Lady of Winterfell claims the Wealth zone of the Tactics Board."
    assert said({"type": "place", "ncu": "30104", "quadrant": "ne", "seat": "lannister"}) == \
        "{lannister} places Tyrion Lannister, The Imp in the north-east quadrant."
    assert said({"type": "influence", "ncu": "30201", "unit": "guardsmen", "removed": "panicked"}) == \
        "Catelyn Stark, Lady of Winterfell's Influence falls on Lannister Guardsmen, removing its Panicked token."
    assert said({"type": "condition", "unit": "guardsmen", "condition": "vulnerable"}) == \
        "Lannister Guardsmen gains a Vulnerable token."
    assert said({"type": "play", "seat": "stark", "card": "40201", "mode": 0, "window": "melee_before"}) == \
        "{stark} plays Winter's Might."
    assert said({"type": "order", "seat": "stark", "unit": "outriders", "ability": "Order: Tactical Reposition"}) \
        == "{stark} gives Stark Outriders its Order: Tactical Reposition."
    assert said({"type": "react_pass", "seat": "lannister", "window": "charge_declared"}) == \
        "{lannister} plays no card at a charge declared."
    assert said({"type": "counterplot", "seat": "lannister", "roll": 2, "cancelled": False}) == \
        "Counterplot: {lannister} rolls 2: the card is not cancelled and resolves."
    assert said({"type": "destroyed", "unit": "grey_wind", "seat": "stark", "vp": {"stark": 1, "lannister": 4}}) == \
        "Grey Wind is destroyed: {lannister} scores 1 victory point (4 in all)."
    vp = R.describe_event({"type": "vp", "seat": "stark", "points": 1, "quadrant": "sw", "vp": {"stark": 3}})
    assert vp["text"] == "{stark} holds the south-west quadrant and scores 1 victory point (3 in all)."
    assert vp["headline"]
    over = R.describe_event({"type": "game_over", "winner": "lannister", "result": "vp",
                             "vp": {"stark": 5, "lannister": 8}})
    assert over["text"] == "The battle is over: {lannister} wins on victory points, 8 to 5."
    assert over["phase"] == "game_over"
    assert narrate.fill(over["text"], {"lannister": "Cersei"}) == "The battle is over: Cersei wins on victory points, 8 to 5."
    assert said({"type": "game_over", "winner": None, "result": "draw", "vp": {"stark": 6, "lannister": 6}}) == \
        "The battle is over: a draw (6 to 6 victory points, army points tied)."


def test_rounds_and_phases():
    round2 = R.describe_event({"type": "round", "round": 2})
    assert round2["text"] == "Round 2 begins." and (round2["round"], round2["phase"]) == (2, "activation")
    cleanup = R.describe_event({"type": "cleanup", "round": 2})
    assert cleanup["text"] == "Round 2 ends: the Cleanup phase." and cleanup["phase"] == "cleanup"
    assert "phase" not in R.describe_event({"type": "activate", "seat": "stark", "unit": "grey_wind"})


def staged(dice):
    """Stark's Sworn Swords front to front with Lannister's Guardsmen, Stark's Outriders free; no
    cards in hand, the Guardsmen's Order spent (M103), the dice scripted."""
    units = {"sworn_swords": {"card": "10201", "at": [24, 20], "facing": 0},
             "guardsmen": {"card": "10101", "at": [24, 20], "facing": 180, "order_used": True},
             "outriders": {"card": "10202", "at": [10, 12], "facing": 0}}
    setup = {"units": units, "hands": {"stark": [], "lannister": []}, "dice": dice}
    return R.scenario_game(SEATS, {}, 1, setup, "activation")


def test_a_melee_attack_in_words_dice_hits_wounds_ranks_and_panic_M84_M91_M95():
    # 7 dice (Winter's Bite 7/5/4 at full ranks), 4+ to hit, a 6 hits twice (Critical Blow): 5 hits;
    # Guardsmen save on 3+ in their Front: 1 of 5 blocked, 4 wounds: 12 -> 8, a rank of 4 lost (M91);
    # Panic Test 3 + 2 = 5 against Morale 7: failed, D3 = 1 more wound
    s = staged([6, 5, 4, 3, 2, 1, 4, 1, 2, 1, 2, 3, 3, 2, 1])
    s, _ = R.apply(s, "stark", {"activate": "sworn_swords"})
    s, events = R.apply(s, "stark", {"attack": {"target": "guardsmen"}})
    assert [said(e) for e in events] == [
        "Stark Sworn Swords attacks Lannister Guardsmen with Winter's Bite, a melee attack in the Front.",
        "Stark Sworn Swords rolls 7 attack dice (6, 5, 4, 3, 2, 1 and 4): 5 hits on 4+, one of them from "
        "Critical Blow.",
        "Lannister Guardsmen rolls 5 defense dice (1, 2, 1, 2 and 3): 1 blocked on 3+.",
        "Lannister Guardsmen suffers 4 wounds and loses a rank: two ranks left.",
        "Lannister Guardsmen fails a Panic Test: 3 + 2 = 5, needing 7; it suffers 1 more wound (D3: 1).",
        "Lannister Guardsmen suffers 1 wound: two ranks left.",
        "Stark Sworn Swords' activation ends.",
    ]
    assert s["units"]["guardsmen"]["wounds"] == 7


def test_a_maneuver_reads_its_distance_in_inches_M43():
    # Outriders pivot to 90, move 5 in, pivot to 135: the tray's centre moved 5 in (a pivot turns
    # about the centre), whatever the front-centre did
    s = staged([6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6])
    s["units"]["sworn_swords"]["activated"] = True
    s["turn"] = "stark"
    s, _ = R.apply(s, "stark", {"activate": "outriders"})
    s, events = R.apply(s, "stark", {"maneuver": {"face": 90, "forward": 5, "end_face": 135}})
    move = next(e for e in events if e["type"] == "move")
    assert move["distance"] == 5.0
    assert said(move) == "Stark Outriders maneuvers 5 in, facing south-east."


def test_quadrant_victory_points_at_cleanup_are_told_M123(played):
    """Every VP a quadrant scored (the state's vp_log) has its line, in order, with the running total."""
    for state, events in played["games"]:
        scored = [(x["seat"], x["source"].split(":")[1]) for x in state["vp_log"] if x["source"].startswith("quadrant:")]
        told = [(e["seat"], e["quadrant"]) for e in events if e["type"] == "vp"]
        assert told == scored
        last = {}
        for e in events:
            if e["type"] in ("vp", "destroyed"):
                last.update(e["vp"])
        assert all(last.get(s, 0) == state["vp"][s] for s in SEATS if state["vp"][s])
    assert any(e["type"] == "vp" for _, events in played["games"] for e in events)


def test_every_move_of_the_random_games_reads_a_distance_within_its_allowance(played):
    for state, events in played["games"]:
        for e in events:
            if e["type"] == "move" and e["kind"] in ("maneuver", "march", "retreat", "surge", "shift"):
                speed = int(CARDS[state["units"][e["unit"]]["card"]]["speed"])
                assert 0 <= e["distance"] <= 2 * speed + 1 + 6 + 0.02, e  # a march: 2 x Speed; a retreat: Speed + D6
                if e.get("stays"):  # M49: a Retreat whose die gave too little room to leave stays where it is
                    assert e["distance"] == 0 and "nowhere to retreat" in said(e), said(e)
                    continue
                assert re.search(r" \d+(\.\d)? in", said(e)), said(e)


def test_a_draw_names_its_cards_to_the_drawer_only(played):
    ev = {"type": "draw", "seat": "stark", "cards": ["40201", "40213"], "count": 2}
    own = R.describe_event(R.event_view(ev, "stark"))
    assert own["text"] == "{stark} draws two Tactics cards: Winter's Might and Last Stand." and own["private"]
    for viewer in ("lannister", None):
        other = R.describe_event(R.event_view(ev, viewer))
        assert other["text"] == "{stark} draws two Tactics cards." and "private" not in other
    for viewer in ("lannister", None):
        assert played["draws"][viewer]
        assert all(re.fullmatch(r"\{stark\} draws (\w+ Tactics cards?)\.", t) for t in played["draws"][viewer])


def test_no_sentence_tells_the_other_seat_or_a_spectator_a_card_of_a_hidden_hand(played):
    assert played["leaks"] == []


def test_unknown_kinds_fall_back_to_words_not_a_dump():
    text = narrate.narrate({"type": "some_new_thing", "seat": "stark", "unit": "sworn_swords", "detail": {"x": [1]}})
    assert text == "Some new thing: {stark} (Stark Sworn Swords)."
    assert not RAW.search(narrate.narrate({"type": "activate", "seat": "stark"}))
    assert narrate.unit("10201") == "Stark Sworn Swords" and narrate.card("99999") == "a card"
