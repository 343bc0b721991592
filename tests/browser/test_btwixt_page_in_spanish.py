"""B'Twixt's page ("Tierra de Nadie") in Spanish (issue 29), for each decision it shows: the bid with the
hand to pick from, a card of the hand to discard (an ability's choice), the ally won to place in a
council, the power token to place, the draft's card to keep, a spectator's view and the game over. The
same game is open in an English browser beside it (the same account, which follows its browser): once
both show the same version, no line the Spanish page shows is also on the English one, names aside
(players, leaders, cards: the project's own reference cards keep their English names where the seed
gives none, docs/glossary-es.md; their texts are said in Spanish), and the log reads differently in the two languages.
Screenshots at 1440 and 390 px go to test-artifacts/es-btwixt-*.png. Waits are on conditions.

The staging functions run in the server's environment (`manage.py shell -c`), like stage.py."""
from __future__ import annotations

import re
from functools import cache

import pytest

from tests.browser.util import PASSWORD, game_state, log_in

pytestmark = pytest.mark.browser

SITE_NAMES = {"Westeros", "API", "English", "Español", "BOT", "Chat"}  # "Chat": Spanish says it too
NOT_WORDS = re.compile(r"^[\W\d_]*$")
# Every text of the page: the lines of what is shown, and the words of aria-label, title, placeholder.
VISIBLE = """(() => {
  const out = document.body.innerText.split('\\n');
  for (const el of document.querySelectorAll('[aria-label],[title],[placeholder]')) {
    if (el.closest('[hidden]')) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  return out.map(t => t.replace(/\\s+/g, ' ').trim()).filter(Boolean);
})()"""
HAND = ["intimidation", "ambush", "iron_bank_loan", "city_watch", "hedge_knight", "city_watch"]


# ---------------------------------------------------------------------- staging (server side)

def stage_decision(name: str, kind: str) -> None:
    """A B'Twixt game of the user `name` (seat 1) against two computer players, where the user's decision
    is `kind`: turn (a bid, with HAND), choose (Iron Bank Loan played: a card of the hand to discard),
    claim (everyone else knelt: the user kneels and wins the bid), token (the ally placed: a power token),
    keep (the draft), spectate (the same bid, watched) or over (played to its end)."""
    from accounts.models import User
    from games.engine import get_ruleset
    from games.models import Game
    from games.services.play import do_create_game, do_submit_action

    user = User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD)
    engine = get_ruleset("btwixt")
    seats = engine.seat_names(3)
    options = {"draft": True} if kind == "keep" else {}
    game = do_create_game(ruleset="btwixt", seating={s: (user if i == 0 else None) for i, s in enumerate(seats)},
                          seed=3, time_limit=86400, options=options)
    game = Game.objects.get(pk=game.pk)
    if kind in ("turn", "choose", "spectate"):
        game.state = engine.scenario_game(seats, {}, 3, {
            "hands": {seats[0]: HAND}, "piles": {seats[0]: ["mounted_lances"], seats[1]: ["sworn_sword"]},
            "turn": seats[0]}, "bidding")
    elif kind in ("claim", "token"):
        game.state = engine.scenario_game(seats, {}, 3, {
            "hands": {seats[0]: HAND}, "piles": {seats[0]: ["mounted_lances"], seats[1]: ["sworn_sword"]},
            "knelt": [seats[1], seats[2]], "turn": seats[0]}, "bidding")
    game.save(update_fields=["state"])
    if kind == "choose":
        do_submit_action(game.pk, user, action={"play": "iron_bank_loan"}, version=game.version)
    if kind in ("claim", "token"):
        do_submit_action(game.pk, user, action={"kneel": True}, version=game.version)
    target = {"spectate": "turn", "over": None}.get(kind, kind)
    for _ in range(1000 if kind == "over" else 60):  # the user answers as the engine's player would
        game = Game.objects.get(pk=game.pk)
        pending = engine.pending(game.state).get(seats[0]) if game.is_active() else None
        if pending == target and (target is not None or not game.is_active()):
            break
        if pending is None:  # not asked (the computer's players answer at once): nothing more to do
            break
        do_submit_action(game.pk, user, action=engine.bot_action(game.state, seats[0]), version=game.version)
    game = Game.objects.get(pk=game.pk)
    print(f"game {game.pk} {engine.pending(game.state).get(seats[0]) or game.status}")


def _stage(server, name: str, kind: str) -> tuple[int, str]:
    out = server.manage("shell", "-c", f"from tests.browser.test_btwixt_page_in_spanish import *; "
                                       f"stage_decision({name!r}, {kind!r})")
    match = re.search(r"game (\d+) (\w+)", out)
    return int(match.group(1)), match.group(2)


# ---------------------------------------------------------------------- names the pages keep

@cache
def names() -> tuple[str, ...]:
    """What both languages write the same: the site's names and every leader's and card's name in either
    language (most of the reference cards have no Spanish name in the seed), longest first. The cards'
    texts are not names: the Spanish page says them in Spanish (web/btwixt_texts.py)."""
    from django.utils import translation

    from web import btwixt

    found = set(SITE_NAMES)
    for language in ("en", "es"):
        with translation.override(language):
            catalogue = btwixt.catalogue()
        found |= set(catalogue["leaders"].values()) | {catalogue["name"]}
        found |= {leader.split(" ")[0] for leader in catalogue["leaders"].values()}  # a council's short name
        for card in catalogue["cards"].values():
            found.add(card["name"])
    return tuple(sorted((n for n in found if n), key=len, reverse=True))


def only_names(line: str, people: set[str]) -> bool:
    rest = line
    for name in sorted(people, key=len, reverse=True) + list(names()):
        rest = rest.replace(name, " ")
    return not re.search(r"[A-Za-z]{2,}", rest)


def english_left(spanish_page, english_page, people: set[str]) -> set[str]:
    es, en = set(spanish_page.evaluate(VISIBLE)), set(english_page.evaluate(VISIBLE))
    return {line for line in es & en if not NOT_WORDS.match(line) and not only_names(line, people)}


def shoot(page, artifacts, name: str) -> None:
    for width, height in ((1440, 1000), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"es-btwixt-{name}-{width}.png"), full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 2, f"{name}: the page is {wide}px wide on a {width}px screen"
    page.set_viewport_size({"width": 1440, "height": 1000})


def same_version(spanish, english, logged: bool = True) -> None:
    """Both pages loaded, at the same version, the log read (`logged`: the game has a log line yet)."""
    for page in (spanish, english):
        page.wait_for_function("window.__westerosGame && window.__westerosGame.state()")
        if logged:
            page.wait_for_selector("#log li")
    version = game_state(spanish)["version"]
    english.wait_for_function(f"window.__westerosGame.state().version === {version}")


# ---------------------------------------------------------------------- the page, decision by decision

WORDS = {  # what the Spanish page says for each decision (the rules' words: seed 001)
    "turn": ["Tu decisión: juega una carta o arrodíllate", "Arrodillarse", "Te toca: elige una carta para jugarla.",
             "Pila de muertos", "Marcador de tiempo", "Mazo de Influencia", "jugador inicial"],
    "choose": ["Tu decisión: descartar una carta de tu mano", "Elige la carta que vas a descartar."],
    "claim": ["Tu decisión: coloca el Aliado que ganaste", "Ganaste la Puja. Coloca este Aliado en uno de tus Consejos:"],
    "token": ["Tu decisión: coloca tu ficha de Poder", "Pon una ficha de Poder boca abajo en uno de tus Consejos"],
    "keep": ["Tu decisión: quédate una carta (selección)", "Quedársela"],
    "spectate": ["Como espectador", "Ves lo que puede ver cualquier espectador: ninguna mano, ningún valor de las fichas "
                 "de Poder."],
    "over": ["Fin de la partida", "La partida ha terminado", "Ver la repetición"],
}


@pytest.mark.parametrize("kind", list(WORDS))
def test_the_btwixt_page_in_spanish(live_asgi_server, new_page, artifacts, kind):
    server = live_asgi_server
    name = f"btes_{kind}"
    game_id, reached = _stage(server, name, kind)
    assert reached == ("finished" if kind == "over" else "turn" if kind == "spectate" else kind), reached
    spanish, english = new_page(1440, 1000, locale="es-ES"), new_page(1440, 1000, locale="en-GB")
    if kind == "spectate":
        server.manage("shell", "-c", f"from tests.browser.util import *; "
                                     f"from accounts.models import User; User.objects.filter(username='btes_watch').exists() "
                                     f"or User.objects.create_user(username='btes_watch', email='w@example.com', "
                                     f"password={PASSWORD!r})")
    for page in (spanish, english):
        log_in(page, server.url, "btes_watch" if kind == "spectate" else name)
        page.goto(f"{server.url}/games/{game_id}/")
        page.wait_for_selector("#conn.on" if kind != "over" else "#game-result:not([hidden])")
    same_version(spanish, english, logged=kind != "keep")  # the draft comes before any event
    assert spanish.evaluate("document.documentElement.lang") == "es"
    if kind in ("turn", "choose"):
        spanish.wait_for_selector("#hand .bt-card.pickable")
        english.wait_for_selector("#hand .bt-card.pickable")
    left = english_left(spanish, english, {name, "btes_watch"})
    assert not left, f"English left on the Spanish B'Twixt page ({kind}): {sorted(left)}"
    text = " ".join(spanish.evaluate(VISIBLE))
    for words in WORDS[kind]:
        assert words in text, (words, text[:3000])
    # the log: each line in Spanish, none as the English page writes it
    es_log = spanish.locator("#log li").all_inner_texts()
    en_log = english.locator("#log li").all_inner_texts()
    assert (es_log or kind == "keep") and len(es_log) == len(en_log)
    assert not set(es_log) & set(en_log), set(es_log) & set(en_log)
    assert "Tierra de Nadie" in spanish.title() or "Tierra de Nadie" in spanish.locator("h1").inner_text()
    if kind == "turn":  # the live status and the hand's words
        assert spanish.locator("#conn").inner_text() == "en directo"
        spanish.locator("#hand .bt-card.pickable").first.click()
        spanish.wait_for_selector("#hand-submit")
        assert spanish.locator("#hand-submit").inner_text().startswith("Jugar ")
    if kind == "over":
        assert spanish.locator("#tc-headline").inner_text() != english.locator("#tc-headline").inner_text()
        assert "ganó" in spanish.locator("#tc-headline").inner_text() or "compartieron" in \
            spanish.locator("#tc-headline").inner_text()
    shoot(spanish, artifacts, kind)
    if kind == "over":  # its replay, step by step, in the reader's language
        for page in (spanish, english):
            page.goto(f"{server.url}/games/{game_id}/replay")
            page.wait_for_selector("#replay-pos:has-text('0')")
            page.click("button[data-step=next]")
            page.wait_for_function("document.querySelector('#replay-entry .log-event') !== null")
        assert spanish.locator("#replay-pos").inner_text().startswith("Paso 1 de ")
        left = english_left(spanish, english, {name})
        assert not left, f"English left on the Spanish B'Twixt replay: {sorted(left)}"
        assert spanish.locator("#replay-entry").inner_text() != english.locator("#replay-entry").inner_text()
        shoot(spanish, artifacts, "replay")


def stage_lobby(name: str) -> None:
    """The user `name` and an open B'Twixt lobby of theirs with a clock, a computer player and options."""
    from accounts.models import User
    from games.services.lobbies import LobbySettings, do_create_lobby

    user = User.objects.filter(username=name).first() or User.objects.create_user(
        username=name, email=f"{name}@example.com", password=PASSWORD)
    lobby = do_create_lobby(user, LobbySettings(ruleset="btwixt", seat_count=4, time_limit=3600, clock_bank=1200,
                                                clock_increment=10, computer_seats=1, fill_with_computer=True,
                                                options={"short": True, "allies_in_sight": True}), join=True)
    print(f"lobby {lobby.pk}")


def test_the_site_pages_in_spanish_fit_a_phone(live_asgi_server, new_page, artifacts):
    """The lobby list, a lobby, the new-lobby form, a play page, My games and the leaderboards in Spanish:
    their longer words fit 390 px (no sideways scroll); screenshots in test-artifacts/es-site-*.png."""
    server = live_asgi_server
    out = server.manage("shell", "-c", "from tests.browser.test_btwixt_page_in_spanish import *; stage_lobby('btes_site')")
    lobby = int(re.search(r"lobby (\d+)", out).group(1))
    page = new_page(390, 844, locale="es-ES")
    log_in(page, server.url, "btes_site")
    pages = {"lobbies": "/lobbies/", "lobby": f"/lobbies/{lobby}/", "new-lobby": "/lobbies/new/?ruleset=btwixt",
             "play": "/play/btwixt/", "my-games": "/games/", "leaderboard": "/leaderboards/btwixt/",
             "needs-player": "/games/needs-player/"}
    for name, path in pages.items():
        page.goto(server.url + path)
        assert page.evaluate("document.documentElement.lang") == "es"
        for width, height in ((1440, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(artifacts / f"es-site-{name}-{width}.png"), full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 2, f"{name}: the page is {wide}px wide on a {width}px screen"
    page.goto(server.url + "/lobbies/")
    assert "Sala de btes_site" in page.locator("main").inner_text()
