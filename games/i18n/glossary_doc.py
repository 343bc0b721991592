"""Writes docs/glossary-es.md from the glossary files, so the page never drifts from the data
(tests/test_glossary_es.py fails when it does). Run: .venv/bin/python -m games.i18n.glossary_doc"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from games.i18n import glossary

DOC = Path(__file__).resolve().parents[2] / "docs" / "glossary-es.md"

TITLES = {
    "agot": "A Game of Thrones: The Board Game (`agot`)",
    "lcg": "A Game of Thrones: The Card Game (`lcg`)",
    "minis": "A Song of Ice and Fire: Tabletop Miniatures (`minis`)",
    "btwixt": "B'Twixt (`btwixt`)",
}

INTRO = """\
# Spanish glossary of the four games

Issue 29 puts the site in Spanish with the rulebooks' own words. The rulebooks this project follows
are the Spanish editions (the seeds, `../shared/seeds/`), so every game term a player meets has one
Spanish form, the one the seed prints, and everyone translating uses it.

## How it is built

- One data file per game, `games/i18n/glossary/{agot,lcg,minis,btwixt}.yaml`. Each entry gives the
  English term as the project writes it (engine data, narrators, pages), the Spanish term exactly as
  the seed writes it (with its plural when the seed gives one), a kind (house, area, unit, order,
  phase, card, keyword...) and `seed`: the seed file and line(s) that hold the Spanish term, with
  their text as `quote`. The quotes keep the evidence in the project, which runs without
  `../shared`.
- Only what the seeds say. Where the seed has no term for something the project shows, the entry
  says `spanish: null` with a note, and translators keep the English name (issue 29: card and unit
  names as the Spanish editions print them where the seeds give them, otherwise the English name).
  A Spanish name that only looks likely (the map data's `name_es_unverified`) is not used.
- Reading the PDF text: the seeds split ligatures ("fi chas" for "fichas") and hyphenate words at
  line ends; the glossary writes the word whole, and the checks join both back before comparing
  (ignoring case, since headings are in capitals). Two AGoT map names survive only in garbled
  headings (`garbled: true`: the letters are there in order, e.g. "PUNTA ZUNTA ZUNTA ARPA RARPA RARPA
  OTA ROTA R"); some miniatures card names are printed over two lines of a card picture
  (`assembled: true`: each comma-separated part is on the cited lines).
- AGoT follows the full rulebook (seed 000), not the machine-translated web summary (seed 004):
  "orden de Avance", not the summary's "Orden de Marcha".

## How it is used

```python
from games.i18n.glossary import term

term("agot", "Siege Engine")                  # "Torre de asedio"
term("agot", "Footman", plural=True)          # "Soldados"
term("agot", "Supply", kind="westeros_card")  # "Suministro"
term("lcg", "Intrigue challenge")             # "reto de Intriga"
term("agot", "Silence at the Wall")           # no Spanish in the seeds: "Silence at the Wall"
```

English terms match without regard to case. An unknown term raises `KeyError` (add it to the
file, with its seed line, rather than translating it on the spot); `plural=True` raises
`LookupError` when the seed gives no plural. `entry()` returns the whole entry (kind, id, seed
lines, note). Each file is read once per process.

To add or correct a term: edit the YAML (Spanish, seed line, the line's text as `quote`), run
`.venv/bin/python -m games.i18n.glossary_doc` to regenerate this page, and
`.venv/bin/python -m pytest tests/test_glossary_es.py`. The test checks that every cited seed line
holds its Spanish term (against `../shared/seeds` when it is there, and against the stored quote
always), that no English term maps to two Spanish terms and no two English terms of one kind share
a Spanish one, that every AGoT area and house (and the other games' ids the engines show) has an
entry, that the loader returns what the files say, and that this page is up to date.

This page is generated from the YAML files; do not edit the tables by hand.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _spanish(e: dict[str, Any]) -> str:
    if e["spanish"] is None:
        return "*(none: keep the English)*"
    return e["spanish"] + (f" / {e['plural']}" if e.get("plural") else "")


def _seed(e: dict[str, Any]) -> str:
    return ", ".join(c["line"] for c in e.get("seed", []))


def _table(game: str) -> list[str]:
    data = glossary.load(game)
    terms = data["terms"]
    given = sum(1 for e in terms if e["spanish"] is not None)
    files = ", ".join(f"`{k}` = `{v}`" for k, v in data["seeds"].items())
    lines = [f"## {TITLES[game]}", "",
             f"{len(terms)} terms, {given} with a Spanish term from the seed, {len(terms) - given} "
             f"without (English kept). Seed files: {files}.", "",
             "| English | Spanish (singular / plural) | Kind | Seed line | Note |",
             "|---|---|---|---|---|"]
    for e in terms:
        lines.append("| " + " | ".join(_cell(x) for x in (
            e["english"], _spanish(e), e["kind"], _seed(e), e.get("note", ""))) + " |")
    return lines + [""]


def render() -> str:
    out = [INTRO]
    for game in glossary.GAMES:
        out.extend(_table(game))
    return "\n".join(out)


def main() -> None:
    DOC.write_text(render(), encoding="utf-8")
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
