"""The engines' refusals of a malformed action (EngineError("bad_action"), issue 28) reach the player
in the request's language, as the refusals of an illegal action do (issue 29): each ruleset's own
shape messages and the shared field readers (games/engine/fields.py), one translatable template
each; the error code stays English."""
from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import get_ruleset
from tests.factories import make_game, seat_client

GAMES = {"agot": 3, "btwixt": 4, "lcg": 2, "minis": 2}


def refused(game, action, language):
    """The API's answer to `action` sent by a seat that has a decision pending, in `language`."""
    game.refresh_from_db()
    seat = next(iter(get_ruleset(game.ruleset).pending(game.state)))
    r = seat_client(game, seat).post(reverse("api-game-actions", args=[game.id]),
                                     {"version": game.version, "action": action}, format="json",
                                     HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 400, r.json()
    return r.json()


# One malformed action of each ruleset, refused by the ruleset's own reading of its actions.
SHAPES = {
    "agot": ({"place_orders": []}, "place_orders takes {area: token}", "place_orders admite {zona: ficha}"),
    "btwixt": ({"kneel": True, "claim": "x"}, "an action has exactly one key (play may add target)",
               "una acción tiene exactamente una clave (play puede añadir target)"),
    "lcg": ({"pass": True, "plot": "x"}, "an action is an object with one key",
            "una acción es un objeto con una sola clave"),
    "minis": ({"nonsense": True}, "unknown action nonsense", "acción desconocida: nonsense"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_malformed_action_is_refused_in_the_requests_language(ruleset):
    game = make_game(GAMES[ruleset], ruleset=ruleset, seed=3)
    action, english, spanish = SHAPES[ruleset]
    en, es = refused(game, action, "en"), refused(game, action, "es")
    assert en["error"] == es["error"] == "bad_action"
    assert en["detail"] == english
    assert es["detail"] == spanish


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_shared_field_checks_speak_spanish_too(ruleset):
    """fields.guard, which every ruleset's apply calls first: a number beyond a million, in the
    reader's words and with the reader's thousands separator; the field's name is the action's own."""
    game = make_game(GAMES[ruleset], ruleset=ruleset, seed=3)
    action = {"bid": [1, 10**7]}
    en, es = refused(game, action, "en"), refused(game, action, "es")
    assert en["error"] == es["error"] == "bad_action"
    assert en["detail"] == "bid[1]: numbers in an action are from -1,000,000 to 1,000,000"
    assert es["detail"] == "bid[1]: los números de una acción van de -1.000.000 a 1.000.000"


@pytest.mark.django_db
def test_the_accounts_language_wins_over_the_browsers(client):
    """A player who chose Spanish in their account reads the refusal in Spanish whatever the
    browser says (westeros/i18n.py), here on the page's own session."""
    game = make_game(3, ruleset="agot", seed=3)
    seat = next(iter(get_ruleset("agot").pending(game.state)))
    user = game.seats.get(seat=seat).user
    user.language = "es"
    user.save(update_fields=["language"])
    client.force_login(user)
    r = client.post(reverse("api-game-actions", args=[game.id]),
                    {"version": game.version, "action": {"place_orders": {"pyke": 5}}},
                    content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    body = r.json()
    assert r.status_code == 400 and body["error"] == "bad_action", body
    assert body["detail"] == "place_orders admite {zona: ficha}", body


@pytest.mark.django_db
def test_the_board_games_refusals_name_houses_and_areas_and_keep_the_rules_apart():
    """An illegal order (R112: only where the house has units) is told with the house's and the
    area's names in the reader's language (Winterfell / Invernalia, the glossary's), never their ids
    or a rule number; the rules stand in the error's own field."""
    game = make_game(3, ruleset="agot", seed=3)
    client = seat_client(game, "lannister")

    def refused_in(language):
        r = client.post(reverse("api-game-actions", args=[game.id]),
                        {"version": game.version, "action": {"place_orders": {"winterfell": "raid"}}},
                        format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 400, r.json()
        return r.json()

    en, es = refused_in("en"), refused_in("es")
    assert en["error"] == es["error"] == "illegal_action"
    assert en["detail"] == "Lannister has no units in Winterfell to give an order"
    assert es["detail"] == "Lannister no tiene unidades en Invernalia a las que dar una orden"
    assert en["rules"] == es["rules"] == ["R112", "R121"]


def test_every_board_game_refusal_reads_without_ids_or_rule_numbers():
    """No template of a refusal the board game's engine may answer a player cites a rule."""
    import ast
    import pathlib
    import re

    for path in (pathlib.Path(__file__).resolve().parents[1] / "games/engine/agot").glob("*.py"):
        if path.name in ("setup.py", "narrate.py") or "bot" in path.name or path.name.startswith("smart"):
            continue  # a scenario's setup errors are for developers (docs/translating.md)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("gettext", "ngettext"):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        assert not re.search(r"\b[RAD]\d+[a-z]?\b", arg.value), (path.name, arg.value)
