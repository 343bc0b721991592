"""Which registered rulesets are open for play on the site.

An engine can be registered (scenarios, simulations, replays) before the site has a table page for
it: the miniatures game (minis) is in that state until its platform issue (19) is done. Lobbies and tournaments refuse them, so nobody is seated at a game whose page
cannot show it. Any other registered ruleset is open (docs/adding-a-ruleset.md registers one)."""
from __future__ import annotations

from games.engine import ruleset_ids

NOT_YET_ON_SITE = {"minis": "The miniatures game"}
# Each game by the name players know it by (pages, messages); an unlisted ruleset by its id, capitalised
NAMES = {"agot": "A Game of Thrones: The Board Game", "btwixt": "B'Twixt",
         "lcg": "A Game of Thrones: The Card Game", "minis": "A Song of Ice and Fire: Tabletop Miniatures"}


def name(ruleset: str) -> str:
    return NAMES.get(ruleset, str(ruleset).replace("_", " ").capitalize())


def players_words(ruleset: str, low: int, high: int) -> str:
    """"A Game of Thrones: The Card Game is played by 2 players." (or "by 3 to 6 players")."""
    return f"{name(ruleset)} is played by {low if low == high else f'{low} to {high}'} players."


def open_ruleset_ids() -> list[str]:
    return [r for r in ruleset_ids() if r not in NOT_YET_ON_SITE]


def refusal(ruleset: str) -> str | None:
    """Why a lobby or tournament may not use `ruleset`, or None when it may."""
    if ruleset in open_ruleset_ids():
        return None
    choices = ", ".join(open_ruleset_ids())
    if ruleset in NOT_YET_ON_SITE:
        return f"{NOT_YET_ON_SITE[ruleset]} ({ruleset}) is not open for play on the site yet; choose one of: {choices}."
    return f"Unknown ruleset; choose one of: {choices}."
