"""What the browser tests of the pages in Spanish share (issue 29): the texts a page shows, the names
that read the same in both languages, the lines of a Spanish page also on its English twin, the game
log as the API narrates it in a language, and screenshots at 1440 and 390 px."""
from __future__ import annotations

import re
from functools import cache

# What every page shows the same in both languages: the site's name, the language switch, badges.
SITE_NAMES = {"Westeros", "API", "English", "Español", "BOT", "A Game of Thrones: The Card Game"}
# Words Spanish writes as English does: "chat", "total", the compass's north-east and south-east.
SAME_IN_BOTH = {"Chat", "Total", "NE", "SE"}
# Lines the two browsers may both show that are not words: numbers, times, scores, symbols.
NOT_WORDS = re.compile(r"^[\W\d_]*$")

# Every text of the pages: the lines of what is shown, and the words of aria-label, title, placeholder.
VISIBLE = """(() => {
  const out = document.body.innerText.split('\\n');
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
    if (el.closest('[hidden]') || el.offsetParent === null && el.tagName !== 'BODY') continue;
    for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.map(t => t.replace(/\\s+/g, ' ').trim()).filter(Boolean);
})()"""


@cache
def game_names() -> tuple[str, ...]:
    """The names the pages may keep in English: every name in the four games' data (areas, houses,
    cards, units, commanders) and the glossary's terms the same in both languages, longest first, so
    that a line made only of names is recognised."""
    from games.engine.agot.data import HOUSES, board, house_cards, westeros_cards
    from games.engine.btwixt.data import catalogue
    from games.engine.lcg.data import FACTION_NAMES, cards
    from games.engine.minis.data import content
    from games.i18n import glossary

    # the houses' names, the board game's and the card game's (Targaryen), the same in both languages
    found: set[str] = SITE_NAMES | SAME_IN_BOTH | {h.capitalize() for h in HOUSES} | set(FACTION_NAMES.values())
    # the rulebooks' terms Spanish writes as English does ("Terminal"), or keeps English (no Spanish given)
    found |= {e["english"] for game in glossary.GAMES for e in glossary.entries(game)
              if e["spanish"] in (None, e["english"])}

    def walk(x) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("name", "title") and isinstance(v, str):
                    found.add(v)
                elif k == "traits" and isinstance(v, list):  # the card game's traits stay as printed
                    found.update(t for t in v if isinstance(t, str))
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif hasattr(x, "__dict__"):
            walk(vars(x))

    walk({a: info for a, info in board().areas.items()})
    walk(house_cards())
    walk(westeros_cards())
    walk(cards())
    walk(content())
    leaders = catalogue()["leaders"].values()
    found |= set(leaders) | {n.split()[0] for n in leaders}  # B'Twixt's table calls its leaders by first name
    walk(catalogue()["cards"])
    return tuple(sorted(found, key=len, reverse=True))


def only_names(line: str, people: set[str]) -> bool:
    """Whether the line is made of names alone (each a whole word or words; a board label's lines, or
    a track's houses, may come joined without their space)."""
    names = sorted({*people, *game_names(), *(n.replace(" ", "") for n in game_names())}, key=len, reverse=True)
    rest = re.sub(r"(?<!\w)(?:" + "|".join(map(re.escape, names)) + r")+(?!\w)", " ", line)
    return not re.search(r"[A-Za-z]{2,}", rest)


def english_left(spanish_page, english_page, people: set[str]) -> set[str]:
    es, en = set(spanish_page.evaluate(VISIBLE)), set(english_page.evaluate(VISIBLE))
    return {line for line in es & en if not NOT_WORDS.match(line) and not only_names(line, people)}


def shoot(page, artifacts, name: str) -> None:
    for width, height in ((1440, 1000), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"es-{name}-{width}.png"), full_page=width < 400)
        if width < 400:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 2, f"{name}: the page is {wide}px wide on a {width}px screen"
    page.set_viewport_size({"width": 1440, "height": 1000})


def log_lines(page, game_id: int, language: str) -> list[str]:
    """The game's log as the page's account reads it in `language` (the API, by Accept-Language)."""
    return page.evaluate(f"""(async () => {{
        const r = await fetch('/api/v1/games/{game_id}/log?limit=500', {{headers: {{'Accept-Language': '{language}'}}}});
        const body = await r.json();
        return body.entries.flatMap(e => (e.lines || []).map(l => l.text));
    }})()""")
