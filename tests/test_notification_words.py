"""Notifications speak to players (issue 26): e-mails and webhooks name the game, the ruleset, the
seat and the decision in words ("Your turn in Game 12, A Game of Thrones: The Board Game: choose a
house card."), never a seat id ("p1", "lannister"), a ruleset id ("(lcg)") or a decision code
("(mulligan)", "house_card"). Every decision kind a random game of each ruleset meets has words in
games/decision_words.py."""
from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from games.decision_words import DECISIONS, decision_words, has_words
from games.engine import get_ruleset
from games.models import Game
from notifications import services
from notifications.models import Kind, Notification
from tests.factories import make_game, make_user
from westeros.celery import app as celery_app

RULESETS = ("agot", "btwixt", "lcg", "minis")
NAMES = {"agot": "A Game of Thrones: The Board Game", "btwixt": "B'Twixt",
         "lcg": "A Game of Thrones: The Card Game", "minis": "A Song of Ice and Fire: Tabletop Miniatures"}
PLAYERS = {"agot": 3, "btwixt": 3, "lcg": 2, "minis": 2}


@pytest.fixture(autouse=True)
def eager_tasks(settings):
    """Notifications are sent on commit and run inline (as tests/test_notifications.py does)."""
    settings.NOTIFY_OUTBOX_ONLY = False
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def codes_in(text: str, ruleset: str) -> list[str]:
    """The codes a text shows a person: seat ids, ruleset ids, decision codes with an underscore,
    a code in brackets, a "game #12"."""
    engine = get_ruleset(ruleset)
    seats = set(engine.seat_choices(engine.max_seats)) | set(engine.seat_names(engine.max_seats))
    found = [seat for seat in seats if re.search(rf"\b{re.escape(seat)}\b", text)]
    found += [r for r in RULESETS if re.search(rf"\b{r}\b", text, re.IGNORECASE)]
    found += [k for k in DECISIONS[ruleset] if "_" in k and k in text]
    found += re.findall(r"\([a-z_]+\)|#\d+", text)
    return found


def words_of(text: str) -> str:
    """The message without its link (the last line: the game's address has ids, and is meant to)."""
    lines = text.splitlines()
    assert lines[-1].startswith("http") and "/games/" in lines[-1]
    return "\n".join(lines[:-1])


def compose(game: Game, user, kind: str, **data) -> tuple[str, str]:
    return services.compose(Notification(user=user, game=game, kind=kind, data=data))


@pytest.mark.django_db
@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_code_in_any_notification_of_each_ruleset(ruleset, django_capture_on_commit_callbacks, mailoutbox):
    with django_capture_on_commit_callbacks(execute=True):  # the real flow: the start is notified
        game = make_game(PLAYERS[ruleset], ruleset=ruleset)
    seats = {s.seat: s for s in game.seats.select_related("user")}
    started = [m for m in mailoutbox if "has started" in m.subject]
    assert len(started) == len(seats)
    texts = [(m.subject, words_of(m.body)) for m in started]
    user = next(iter(seats.values())).user
    deadline = datetime(2030, 3, 4, 17, 5, tzinfo=UTC).isoformat()
    for seat in seats:
        for kind in DECISIONS[ruleset]:
            subject, text = compose(game, user, Kind.YOUR_TURN, seat=seat, decision=kind, deadline_at=deadline)
            texts.append((subject, words_of(text)))
        subject, text = compose(game, user, Kind.DEADLINE_NEAR, seat=seat, deadline_at=deadline)
        texts.append((subject, words_of(text)))
    game.status, game.ranking = Game.Status.FINISHED, list(seats)
    for seat in seats:
        subject, text = compose(game, user, Kind.GAME_ENDED, seat=seat, status="finished")
        texts.append((subject, words_of(text)))
    for subject, text in texts:
        assert not codes_in(subject, ruleset), subject
        assert not codes_in(text, ruleset), text
        assert f"Game {game.pk}, {NAMES[ruleset]}" in subject and f"Game {game.pk}, {NAMES[ruleset]}" in text


@pytest.mark.django_db
def test_the_words_of_each_notification(django_capture_on_commit_callbacks, mailoutbox):
    game = make_game(3)
    stark = game.seats.select_related("user").get(seat="stark").user
    deadline = datetime(2030, 3, 4, 17, 5, tzinfo=UTC).isoformat()
    subject, text = compose(game, stark, Kind.YOUR_TURN, seat="stark", decision="house_card", deadline_at=deadline)
    assert subject == f"[Westeros] Your turn in Game {game.pk}, A Game of Thrones: The Board Game"
    assert words_of(text) == (f"Your turn in Game {game.pk}, A Game of Thrones: The Board Game: choose a house "
                              "card. You play as Stark. Decide by 4 March 2030, 17:05 UTC.")
    _, text = compose(game, stark, Kind.DEADLINE_NEAR, seat="stark", deadline_at=deadline)
    assert words_of(text) == (f"Your time to decide in Game {game.pk}, A Game of Thrones: The Board Game, runs out "
                              "on 4 March 2030, 17:05 UTC. You play as Stark; if you have not decided by then, the "
                              "usual default is played for you.")
    subject, text = compose(game, stark, Kind.GAME_STARTED, seat="stark", pending="place_orders")
    assert subject == f"[Westeros] Game {game.pk}, A Game of Thrones: The Board Game, has started"
    assert words_of(text) == (f"Game {game.pk}, A Game of Thrones: The Board Game, has started: you play as Stark. "
                              "It is your turn: place your orders.")
    game.status, game.ranking = Game.Status.FINISHED, ["lannister", "stark", "baratheon"]
    _, text = compose(game, stark, Kind.GAME_ENDED, seat="stark", status="finished")
    assert words_of(text) == (f"Game {game.pk}, A Game of Thrones: The Board Game, is over. "
                              "You placed second of 3 as Stark.")
    _, text = compose(game, stark, Kind.GAME_ENDED, seat="lannister", status="finished")
    assert words_of(text).endswith("You won as Lannister.")
    # the card game's seats are players, B'Twixt's its leaders by name
    lcg = make_game(2, ruleset="lcg")
    _, text = compose(lcg, make_user(), Kind.YOUR_TURN, seat="p2", decision="mulligan")
    assert words_of(text) == (f"Your turn in Game {lcg.pk}, A Game of Thrones: The Card Game: keep your hand or "
                              "mulligan. You play as Player 2.")
    btwixt = make_game(3, ruleset="btwixt")
    leader = btwixt.seats.order_by("position").first().seat
    _, text = compose(btwixt, make_user(), Kind.YOUR_TURN, seat=leader, decision="turn")
    from games.engine.btwixt import data as btwixt_data

    assert words_of(text) == (f"Your turn in Game {btwixt.pk}, B'Twixt: play a card or kneel. "
                              f"You play as {btwixt_data.catalogue()['leaders'][leader]}.")


@pytest.mark.django_db
def test_a_webhook_says_it_in_words(settings, django_capture_on_commit_callbacks, monkeypatch):
    sent = []
    monkeypatch.setattr(services, "post_webhook", lambda url, content, **kw: sent.append(content))
    user = make_user()
    services.do_update_settings(user, webhook_url="https://hooks.example/x")
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(2, ruleset="lcg", users=[user, make_user()])
    assert len(sent) == 1
    assert sent[0].startswith(f"Game {game.pk}, A Game of Thrones: The Card Game, has started: you play as Player 1.")
    assert not codes_in(words_of(sent[0]), "lcg")


def test_unknown_kinds_are_a_decision_not_a_code():
    assert decision_words("agot", "no_such_kind") == "make a decision"
    assert decision_words("nope", None) == "make a decision"


# Options that bring their own decisions: Tides of Battle (the blade's redraw), B'Twixt's draft (keep).
OPTIONS = {"agot": [{}, {"tides_of_battle": True}], "btwixt": [{}, {"draft": True}], "lcg": [{}], "minis": [{}]}
# Kinds a few random games certainly meet: the table is checked against real games, not only itself.
SURELY_MET = {"agot": {"place_orders", "house_card", "bid", "muster"}, "btwixt": {"turn", "claim", "keep"},
              "lcg": {"mulligan", "plot", "challenge", "defenders"}, "minis": {"activate", "deploy", "action"}}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_decision_a_random_game_meets_has_words(ruleset):
    engine = get_ruleset(ruleset)
    met: set[str] = set()
    for options in OPTIONS[ruleset]:
        for seed in range(3):
            rng = random.Random(seed)
            seats = engine.seat_names(6 if ruleset == "agot" else engine.max_seats)
            state = engine.new_game(seats, options, seed)
            for _ in range(5000):
                pending = engine.pending(state)
                if not pending:
                    break
                met |= set(pending.values())
                seat = rng.choice(sorted(pending))
                state, _ = engine.apply(state, seat, engine.random_action(state, seat, rng))
    assert SURELY_MET[ruleset] <= met, sorted(met)
    assert [k for k in sorted(met) if not has_words(ruleset, k)] == []
    for kind in met:
        words = decision_words(ruleset, kind)
        assert words != kind and "_" not in words and words == words.strip() and not words.endswith(".")
