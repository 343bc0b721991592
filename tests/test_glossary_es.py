"""The Spanish glossaries (games/i18n/glossary/*.yaml, issue 29): every Spanish term is on the seed
line it cites, the terms are consistent, every area, house and the other ids the engines show have an
entry, the loader answers what the files say, and docs/glossary-es.md is generated from them."""
from __future__ import annotations

import copy
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from games.engine import yamlfile
from games.i18n import glossary, glossary_doc

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"   # present in CI and in the shared checkout; the quotes stand in
CITE = re.compile(r"(\d{3}):(\d+)(?:-(\d+))?")


def norm(text: str) -> str:
    """Seed text as words: the PDF's split ligatures ("fi chas") and end-of-line hyphens joined back,
    spaces collapsed, case folded (headings are in capitals)."""
    text = re.sub(r"(fi|fl|ff) (?=[a-záéíóúñü])", r"\1", text)
    text = re.sub(r"(\w)-\n(\w)", r"\1\2", text)
    return re.sub(r"\s+", " ", text).casefold()


def holds(term: str, text: str) -> bool:
    """`term` is in `text` as whole words ("Soldado" is not in "Soldados")."""
    return re.search(r"(?<!\w)" + re.escape(norm(term)) + r"(?!\w)", norm(text)) is not None


def holds_garbled(term: str, text: str) -> bool:
    """The term's letters appear in order in a garbled heading ("PUNTA ZUNTA ZUNTA ARPA R...")."""
    letters = iter(re.sub(r"\W", "", norm(text)))
    return all(ch in letters for ch in re.sub(r"\W", "", norm(term)))


def quote_holds(entry: dict[str, Any], term: str, quote: str) -> bool:
    if entry.get("garbled"):
        return holds_garbled(term, quote)
    if entry.get("assembled"):
        return all(holds(part, quote) for part in term.split(", "))
    return holds(term, quote)


def evidence_problems(game: str, data: dict[str, Any]) -> list[str]:
    """What is wrong with the entries' evidence: a Spanish term (or plural) on none of its quotes, a
    malformed citation, a null term without a note or with citations."""
    problems = []
    for e in data["terms"]:
        name = f"{game}: {e['english']!r}"
        if e["spanish"] is None:
            if not e.get("note") or e.get("seed") or e.get("plural"):
                problems.append(f"{name}: a null term needs a note and no seed or plural")
            continue
        cites = e.get("seed") or []
        if not cites:
            problems.append(f"{name}: no seed line")
        for c in cites:
            m = CITE.fullmatch(str(c.get("line")))
            if not m or m.group(1) not in data["seeds"] or not isinstance(c.get("quote"), str):
                problems.append(f"{name}: bad citation {c!r}")
        if e.get("plural") and norm(e["plural"]) == norm(e["spanish"]):
            problems.append(f"{name}: the plural is the singular")
        quotes = [c.get("quote") or "" for c in cites]
        for form in filter(None, (e["spanish"], e.get("plural"))):
            if not any(quote_holds(e, form, q) for q in quotes):
                problems.append(f"{name}: {form!r} is on none of its quoted seed lines")
    return problems


def consistency_problems(game: str, data: dict[str, Any]) -> list[str]:
    """An English term twice in one kind, one English term with two Spanish terms, or two English
    terms of one kind sharing a Spanish term (a player would read one word for two things)."""
    problems = []
    seen: dict[tuple[str, str], int] = defaultdict(int)
    spanish_of: dict[str, set] = defaultdict(set)
    english_of: dict[tuple[str, str], set] = defaultdict(set)
    for e in data["terms"]:
        key = e["english"].casefold()
        seen[(key, e["kind"])] += 1
        spanish_of[key].add(e["spanish"])
        if e["spanish"] is not None:
            english_of[(e["kind"], e["spanish"].casefold())].add(key)
    problems += [f"{game}: {k!r} ({kind}) listed {n} times" for (k, kind), n in seen.items() if n > 1]
    problems += [f"{game}: {k!r} has several Spanish terms {sorted(map(str, v))}"
                 for k, v in spanish_of.items() if len(v) > 1]
    problems += [f"{game}: {sorted(v)} ({kind}) all map to {sp!r}"
                 for (kind, sp), v in english_of.items() if len(v) > 1]
    return problems


def ids_of(game: str, *kinds: str) -> set[str]:
    return {str(e["id"]) for e in glossary.entries(game) if e["kind"] in kinds and "id" in e}


@pytest.mark.parametrize("game", glossary.GAMES)
def test_every_spanish_term_is_on_its_quoted_seed_line(game):
    data = glossary.load(game)
    assert data["game"] == game
    assert evidence_problems(game, data) == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is not here; the quotes were checked")
@pytest.mark.parametrize("game", glossary.GAMES)
def test_the_quotes_are_the_seed_lines(game):
    data = glossary.load(game)
    lines = {}
    for short, name in data["seeds"].items():
        assert name.startswith(short + "_")
        lines[short] = (SEEDS / name).read_text(encoding="utf-8").split("\n")
    wrong = []
    for e in data["terms"]:
        for c in e.get("seed", []):
            f, a, b = CITE.fullmatch(c["line"]).groups()
            text = "\n".join(lines[f][int(a) - 1:int(b or a)])
            if text != c["quote"]:
                wrong.append(f"{e['english']!r} {c['line']}: {c['quote']!r} != {text!r}")
    assert wrong == []


def test_the_checks_catch_a_wrong_term():
    """The evidence check can fail: a term the seed line does not hold, a singular standing for the
    plural, a term without citation, a null term without a note."""
    data = copy.deepcopy(glossary.load("agot"))
    by_english = {e["english"]: e for e in data["terms"]}
    by_english["Siege Engine"]["spanish"] = "Máquina de asedio"
    by_english["Footman"]["plural"] = "Soldado"
    by_english["Knight"]["seed"] = []
    by_english["Castle Black"].pop("note")
    problems = evidence_problems("agot", data)
    assert len(problems) == 6   # Knight: no seed line, so neither Caballero nor Caballeros is quoted
    assert {p.split(":")[1].strip() for p in problems} == {
        "'Siege Engine'", "'Footman'", "'Knight'", "'Castle Black'"}
    assert any("'Máquina de asedio' is on none" in p for p in problems)
    garbled = by_english["Crackclaw Point"]
    assert quote_holds(garbled, "Punta Zarpa Rota", garbled["seed"][0]["quote"])
    assert not quote_holds(garbled, "Punta Zarpa Negra", garbled["seed"][0]["quote"])


@pytest.mark.parametrize("game", glossary.GAMES)
def test_terms_are_consistent(game):
    assert consistency_problems(game, glossary.load(game)) == []


def test_the_consistency_check_can_fail():
    data = copy.deepcopy(glossary.load("agot"))
    by_english = {e["english"]: e for e in data["terms"]}
    by_english["Knight"]["spanish"] = "Soldado"          # two units, one word
    twice = copy.deepcopy(by_english["Footman"])
    twice["spanish"] = "Lacayo"                          # one English term, two Spanish terms
    data["terms"].append(twice)
    problems = consistency_problems("agot", data)
    assert any("all map to 'soldado'" in p for p in problems)
    assert any("'footman' (unit) listed 2 times" in p for p in problems)
    assert any("'footman' has several Spanish terms" in p for p in problems)


def test_every_agot_area_house_and_card_has_an_entry():
    data_dir = ROOT / "games" / "engine" / "agot" / "data"
    board = yamlfile.load(data_dir / "map.yaml")
    assert {a["id"] for a in board["areas"]} == ids_of("agot", "area")
    assert len(ids_of("agot", "area")) == 58
    houses = yamlfile.load(data_dir / "house_cards.yaml")["houses"]
    assert set(houses) == ids_of("agot", "house")
    assert {c["id"] for cards in houses.values() for c in cards} == ids_of("agot", "house_card")
    westeros = yamlfile.load(data_dir / "westeros_cards.yaml")["decks"]
    assert {c["id"] for deck in westeros.values() for c in deck} == ids_of("agot", "westeros_card")
    wildlings = yamlfile.load(data_dir / "wildling_cards.yaml")["cards"]
    assert {c["id"] for c in wildlings} == ids_of("agot", "wildling_card")
    names = {e["id"]: e["english"] for e in glossary.entries("agot") if "id" in e}
    assert all(names[a["id"]] == a["name"] for a in board["areas"])


def names_of(game: str, *kinds: str) -> set[str]:
    return {e["english"] for e in glossary.entries(game) if e["kind"] in kinds}


def test_the_other_games_names_and_ids_have_entries():
    from games.engine.minis import data as minis_data

    lcg = yamlfile.load(ROOT / "games" / "engine" / "lcg" / "data" / "core_set.yaml")
    assert {c["name"] for c in lcg["cards"]} == names_of("lcg", "card")
    assert {c["faction"] for c in lcg["cards"]} - {"neutral"} <= ids_of("lcg", "faction")
    keywords = {k for c in lcg["cards"] for k in (c.get("keywords") or {})}
    assert keywords <= ids_of("lcg", "keyword")

    assert set(minis_data.ZONES) == ids_of("minis", "zone")
    assert set(minis_data.CONDITIONS) == ids_of("minis", "condition")
    assert set(minis_data.KEYWORDS) == ids_of("minis", "terrain_keyword")
    assert set(minis_data.TERRAIN_TYPES) == ids_of("minis", "terrain")
    cards = minis_data.content()["cards"].values()
    assert {c["name"] for c in cards} <= names_of(
        "minis", "unit", "attachment", "commander", "ncu", "tactics_card")
    abilities = {a if isinstance(a, str) else a["name"] for c in cards for a in c.get("abilities") or []}
    assert abilities <= {e["english"] for e in glossary.entries("minis")}

    btwixt = yamlfile.load(ROOT / "games" / "engine" / "btwixt" / "data" / "reference_set.yaml")
    for section, kind in (("leaders", "leader"), ("influence", "influence_card"),
                          ("events", "event_card"), ("leader_cards", "leader_influence_card"),
                          ("allies", "ally")):
        assert {c["id"] for c in btwixt[section]} == ids_of("btwixt", kind), section


@pytest.mark.parametrize("game", glossary.GAMES)
def test_the_loader_returns_what_the_file_says(game):
    text = (glossary.GLOSSARY_DIR / f"{game}.yaml").read_text(encoding="utf-8")
    for e in yamlfile.loads(text)["terms"]:
        expected = e["spanish"] if e["spanish"] is not None else e["english"]
        assert glossary.term(game, e["english"], kind=e["kind"]) == expected
        assert glossary.term(game, e["english"].upper(), kind=e["kind"]) == expected
        if e.get("plural"):
            assert glossary.term(game, e["english"], kind=e["kind"], plural=True) == e["plural"]


def test_the_loader_by_example():
    assert glossary.term("agot", "Siege Engine") == "Torre de asedio"
    assert glossary.term("agot", "footman", plural=True) == "Soldados"
    assert glossary.term("agot", "March order") == "orden de Avance"
    assert glossary.term("agot", "Westeros phase") == "fase de Poniente"
    assert glossary.term("agot", "Winterfell") == "Invernalia"
    assert glossary.term("agot", "Castle Black") == "Castle Black"   # not in the seeds: English kept
    assert glossary.term("agot", "Supply", kind="westeros_card") == "Suministro"
    assert glossary.term("lcg", "Intrigue challenge") == "reto de Intriga"
    assert glossary.term("minis", "Activation") == "Activación"
    assert glossary.term("btwixt", "Jon Snow") == "Jon Nieve"
    with pytest.raises(KeyError):
        glossary.term("agot", "Dragon")
    with pytest.raises(KeyError):
        glossary.term("chess", "Knight")
    with pytest.raises(KeyError):
        glossary.term("agot", "Footman", kind="card")
    with pytest.raises(LookupError):
        glossary.term("agot", "Power Pool", plural=True)


def test_each_file_is_read_once():
    glossary.load.cache_clear()
    glossary._index.cache_clear()
    for _ in range(3):
        glossary.term("agot", "Knight")
        glossary.term("lcg", "Plot")
    assert glossary.load.cache_info().misses == 2


def test_the_doc_is_generated_from_the_files():
    doc = (ROOT / "docs" / "glossary-es.md").read_text(encoding="utf-8")
    assert doc == glossary_doc.render(), "run .venv/bin/python -m games.i18n.glossary_doc"
    assert "| Siege Engine | Torre de asedio / Torres de asedio | unit | 000:413, 000:35 |" in doc
