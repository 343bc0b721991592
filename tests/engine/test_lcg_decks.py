"""Deck building (games/engine/lcg/decks.py): the seed's deck rules (rules/lcg.md §2.2, L16-L26) and each
agenda's own rule, every refusal in words; ThronesDB's plain-text format, both ways."""
from __future__ import annotations

from collections import Counter

import pytest

from games.engine.lcg import data, decks

READY = [k for k in data.all_decks() if k not in ("the_old_ways", "at_the_wall", "from_east_to_west",
                                                  "secrets_and_schemes")]


def _deck(key: str = "targaryen_lion_fire_and_gold") -> dict:
    d = data.all_decks()[key]
    return {"faction": d["faction"], "agenda": d["agenda"], "plots": list(d["plots"]), "draw": list(d["draw"])}


def _rules(deck) -> list[str]:
    return [p.rule for p in decks.problems(deck)]


def _texts(deck) -> str:
    return " ".join(p.text for p in decks.problems(deck))


def _cards(**where) -> list[str]:
    return [cid for cid, c in data.cards().items() if not c.get("synthetic")
            and all(c.get(k) == v for k, v in where.items())]


def test_there_are_eight_ready_made_decks_one_per_house():
    assert len(READY) == 8
    assert sorted(data.all_decks()[k]["faction"] for k in READY) == sorted(data.FACTIONS)


@pytest.mark.parametrize("key", READY)
def test_every_ready_made_deck_is_legal(key):
    """L17-L25 and the agenda's rule: the data's eight constructed decks are legal as they are."""
    assert decks.problems(data.all_decks()[key]) == []
    assert decks.is_legal(data.all_decks()[key])


def test_the_learn_to_play_decks_are_not_legal_and_say_why():
    """They are 45-card decks holding loyal cards of their Banner's House (the data says: play them as they are)."""
    said = decks.problems(data.all_decks()["the_old_ways"])
    assert {"L19", "L24"} <= {p.rule for p in said}
    assert "The draw deck has 45 cards; it needs at least 60." in [p.text for p in said]


def test_L18_exactly_seven_plots():
    d = _deck()
    d["plots"] = d["plots"][:6]
    assert _rules(d) == ["L18"]
    assert "The plot deck has 6 plots; it needs exactly seven." in _texts(d)
    d["plots"] = _deck()["plots"] + ["a_noble_cause" if "a_noble_cause" not in _deck()["plots"] else "taxation"]
    assert "L18" in _rules(d)


def test_L18_one_plot_may_appear_twice_but_only_one():
    d = _deck()
    twice = [p for p in _cards(type="plot") if data.cards()[p].get("deck_limit") == 2]
    assert len(twice) >= 2
    base = [p for p in d["plots"] if data.cards()[p].get("deck_limit") == 2][:1]
    others = [p for p in twice if p not in d["plots"]]
    d["plots"] = base * 2 + others[:5]
    assert decks.problems(d) == []  # one duplicate: legal
    d["plots"] = base * 2 + others[:1] * 2 + others[1:4]
    assert _rules(d) == ["L18"]
    assert "Only one plot may appear twice in the plot deck" in _texts(d)
    d["plots"] = base * 3 + others[:4]
    assert "appears 3 times in the plot deck; a plot may appear at most 2 times" in _texts(d)


def test_L22_a_plot_with_plot_deck_limit_1_is_never_doubled():
    once = [p for p in _cards(type="plot") if data.cards()[p].get("deck_limit") == 1]
    assert once
    d = _deck()
    others = [p for p in _cards(type="plot") if p not in once][:5]
    d["plots"] = [once[0], once[0], *others]
    assert _rules(d) == ["L22"]
    assert f"{data.cards()[once[0]]['name']} may appear only once in a plot deck." in _texts(d)


def test_L19_at_least_sixty_draw_cards_and_no_maximum():
    d = _deck()
    d["draw"] = d["draw"][:59]
    assert _rules(d) == ["L19"]
    assert "The draw deck has 59 cards; it needs at least 60." in _texts(d)
    neutral = [c for c in _cards(faction="neutral") if data.cards()[c]["type"] in decks.DRAW_TYPES]
    more = _deck("stark_fealty_wardens_of_the_north")
    more["draw"] += [c for c in _cards(faction="stark") if data.cards()[c]["type"] in decks.DRAW_TYPES
                     and Counter(more["draw"])[c] < 3][:5]
    assert len(more["draw"]) > 60 and decks.problems(more) == []  # no maximum
    assert neutral


def test_L20_at_most_three_copies_by_title():
    d = _deck()
    card = Counter(d["draw"]).most_common(1)[0][0]
    d["draw"] += [card] * (4 - Counter(d["draw"])[card])
    assert _rules(d) == ["L20"]
    assert f"{data.cards()[card]['name']} appears 4 times; a deck may hold 3 copies of it at most." in _texts(d)


def test_L21_a_deck_limit_below_three_is_a_restriction(monkeypatch):
    """No Core Set draw card prints "Deck Limit" (the data writes none): a card given one is held to it."""
    d = _deck()
    card = Counter(d["draw"]).most_common(1)[0][0]
    assert Counter(d["draw"])[card] >= 2
    patched = dict(data.cards()[card], deck_limit=1)
    monkeypatch.setitem(data.cards(), card, patched)
    assert _rules(d) == ["L21"]
    assert "a deck may hold one copy of it" in _texts(d)


def test_L23_an_out_of_faction_card_needs_the_banner_of_its_house():
    d = _deck("stark_fealty_wardens_of_the_north")
    foreign = [c for c in _cards(faction="tyrell") if not data.cards()[c]["loyal"]
               and data.cards()[c]["type"] in decks.DRAW_TYPES][:2]
    d["draw"] += foreign
    assert _rules(d) == ["L23"]
    assert "belong to House Tyrell: a deck of House Stark may hold them only with Banner of the Rose as its agenda." in _texts(d)


def test_L24_a_loyal_card_only_in_its_own_house_even_with_its_banner():
    d = _deck("greyjoy_wolf_reavers_of_the_north")  # Greyjoy with Banner of the Wolf
    loyal = [c for c in _cards(faction="stark", loyal=True) if data.cards()[c]["type"] in decks.DRAW_TYPES][:1]
    d["draw"] += loyal
    assert _rules(d) == ["L24"]
    assert f"{data.cards()[loyal[0]]['name']} is loyal to House Stark: only a deck of House Stark may hold it." == _texts(d)


def test_L25_neutral_cards_go_in_any_deck():
    for key in READY:
        d = _deck(key)
        assert any(data.cards()[c]["faction"] == "neutral" for c in d["draw"] + d["plots"])
        assert decks.problems(d) == []


def test_a_banner_needs_twelve_cards_of_its_house():
    """Banner agendas: non-loyal cards of the Banner's House allowed, at least 12 of them (L24, the card's text;
    counted over the draw deck, L26)."""
    d = _deck("greyjoy_wolf_reavers_of_the_north")
    stark = [c for c in d["draw"] if data.cards()[c]["faction"] == "stark"]
    assert len(stark) >= 12
    greyjoy = [c for c in _cards(faction="greyjoy") if data.cards()[c]["type"] in decks.DRAW_TYPES]
    for c in stark[: len(stark) - 11]:
        d["draw"].remove(c)
    while len(d["draw"]) < 60:
        d["draw"].append(next(g for g in greyjoy if Counter(d["draw"])[g] < 3))
    assert _rules(d) == ["L24"]
    assert "Banner of the Wolf needs at least 12 cards of House Stark in the draw deck; it has 11." in _texts(d)


def test_fealty_allows_fifteen_neutral_cards_at_most():
    d = _deck("lannister_fealty_gold_and_guile")
    own = [c for c in d["draw"] if data.cards()[c]["faction"] == "lannister"]
    neutral = [c for c in _cards(faction="neutral") if data.cards()[c]["type"] in decks.DRAW_TYPES]
    while sum(data.cards()[c]["faction"] == "neutral" for c in d["draw"]) <= 15:
        d["draw"].remove(own.pop())
        d["draw"].append(next(n for n in neutral if Counter(d["draw"])[n] < 3))
    assert _rules(d) == ["L17"]
    assert "Fealty allows at most 15 neutral cards in the draw deck; it has 16." in _texts(d)
    d["agenda"] = None  # without an agenda (L17: 0 or 1), no such limit
    assert decks.problems(d) == []


def test_L16_L17_faction_and_agenda_must_be_what_they_say():
    d = _deck()
    d["faction"] = "dornish"
    assert "Choose the deck's faction: one of the eight Houses." in _texts(d)
    d = _deck()
    d["agenda"] = "a_noble_cause"
    assert "A Noble Cause is not an agenda." in _texts(d)
    d = _deck()
    d["draw"][0] = "nobody_at_all"
    assert "nobody_at_all is not a card of the Core Set." in _texts(d)


def test_cards_in_the_wrong_pile_are_refused_in_words():
    d = _deck()
    d["plots"][0] = d["draw"][0]
    assert "is not a plot: only plots go in the plot deck." in _texts(d)
    d = _deck()
    d["draw"][0] = d["plots"][0]
    assert "cannot go in the draw deck" in _texts(d)


def test_a_deck_that_is_not_a_deck_is_refused_in_words():
    for bad in (None, [], {"faction": 3}, {"faction": "stark", "plots": "x"}, {"faction": "stark", "draw": [1]}):
        with pytest.raises(decks.DeckFormatError) as told:
            decks.problems(bad)
        assert told.value.reason.endswith(".")
        assert not decks.is_legal(bad)


def test_the_refusals_have_no_ids():
    """Names, never ids: a refusal says "Daenerys Targaryen", not "daenerys_targaryen"."""
    d = _deck("stark_fealty_wardens_of_the_north")
    d["draw"] += [c for c in _cards(faction="targaryen", loyal=True)][:2]
    d["plots"] = d["plots"][:5]
    for p in decks.problems(d):
        assert "_" not in p.text, p


@pytest.mark.parametrize("key", list(data.all_decks()))
def test_thronesdb_text_both_ways(key):
    d = data.all_decks()[key]
    text = decks.format_text(d, d["name"])
    assert text.startswith(d["name"] + "\n")
    assert "Plots (7):" in text
    back, unread = decks.parse_text(text)
    assert unread == []
    assert back["name"] == d["name"] and back["faction"] == d["faction"] and back["agenda"] == d["agenda"]
    assert Counter(back["plots"]) == Counter(d["plots"]) and Counter(back["draw"]) == Counter(d["draw"])


def test_thronesdb_text_as_people_paste_it():
    """ThronesDB's export as typed by hand: curly quotes, no "x", no pack, headings with counts, a "Packs" line;
    an unknown card is told in words and the rest is read."""
    text = """Fire Test

House Targaryen
Banner of the Lion

Packs: From Core Set to Core Set

Plots (2):
2x A Noble Cause (Core Set)

Characters (4):
3 Daenerys Targaryen
1x Illyrio’s Estate (Core)
1x Nobody Special (Core Set)
"""
    deck, unread = decks.parse_text(text)
    assert deck["name"] == "Fire Test" and deck["faction"] == "targaryen" and deck["agenda"] == "banner_of_the_lion"
    assert deck["plots"] == ["a_noble_cause"] * 2
    assert deck["draw"] == ["daenerys_targaryen"] * 3 + ["illyrios_estate"]
    assert unread == ["No card of the Core Set is called “Nobody Special”."]


def test_counts_by_type_and_cost():
    d = _deck()
    told = decks.counts(d)
    assert told["plots"] == 7 and told["draw"] == 60
    assert sum(told["by_type"].values()) == 60
    assert sum(told["by_cost"].values()) == 60
    assert list(told["by_cost"]) == sorted(told["by_cost"], key=lambda k: int(k) if k.isdigit() else 99)


def test_unplayable_names_the_cards_the_engine_does_not_play():
    d = _deck()
    assert decks.unplayable(d, implemented=set()) == list(dict.fromkeys([d["agenda"], *d["plots"], *d["draw"]]))
    assert decks.unplayable(d, implemented=set(data.cards())) == []
    said = decks.unplayable_sentence(["daenerys_targaryen", "drogon"])
    assert said == "These cards cannot be played on the site yet: Daenerys Targaryen and Drogon."


@pytest.mark.parametrize("line, faction", [("House Stark", "stark"), ("Stark", "stark"), ("Casa Stark", "stark"),
                                           ("The Night's Watch", "thenightswatch"),
                                           ("Guardia de la Noche", "thenightswatch"), ("Faction: House Tyrell", "tyrell")])
def test_the_faction_line_as_people_write_it(line, faction):
    deck, unread = decks.parse_text(f"My deck\n\n{line}\n3x Summer (Core Set)\n")
    assert deck["faction"] == faction and deck["draw"] == ["summer"] * 3 and unread == []
