#!/usr/bin/env python3
"""A reference bot for Westeros: plays a bot account's games through the public API.

It reads the account's event stream (GET /api/v1/stream/events, NDJSON), and whenever a game starts
or it is its turn, fetches the game (GET /api/v1/games/{id}) and answers with a random legal action
(POST /api/v1/games/{id}/actions) until no decision of its own is pending. It accepts the challenges
it receives (--accept), can send one (--challenge NAME), and reconnects with a backoff whenever the
stream ends or the server cannot be reached: the stream starts again with every game where it is its
turn, so nothing is missed.

Standard library plus one HTTP client (`requests`: pip install "westeros[bot]", or pip install
requests). It chooses among the `legal_actions` the API lists; a decision whose actions cannot be
listed (`legal_actions` null: AGoT's orders, some card-game choices) is left to the deadline, which
applies the ruleset's documented default. The engine's own smart player (`bot_action`) is not used:
it reads the whole state, hidden cards included, which no client ever sees. See docs/bots.md.

    python examples/bot.py --server http://127.0.0.1:8000 --token=KEY --accept
    python examples/bot.py --server http://127.0.0.1:8000 --token=KEY --challenge otherbot --ruleset lcg --ranked
"""
from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
import uuid

import requests

log = logging.getLogger("westeros-bot")
STREAM_READ_TIMEOUT = 20  # seconds without a line (keep-alives come every 7 s): the connection is dead
REQUEST_TIMEOUT = 30
MAX_BACKOFF = 60


class Bot:
    def __init__(self, server: str, token: str, *, accept: bool = True, games: int | None = None,
                 seed: int | None = None, prefer_pass: float = 0.0):
        self.server = server.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Token {token}", "Accept": "application/json"})
        self.accept = accept
        self.games_to_play = games
        self.finished: set[int] = set()
        self.random = random.Random(seed)
        self.prefer_pass = prefer_pass

    # --- the API ---------------------------------------------------------------------------------

    def url(self, path: str) -> str:
        return f"{self.server}/api/v1/{path}"

    def get(self, path: str) -> dict:
        response = self.session.get(self.url(path), timeout=REQUEST_TIMEOUT)
        response.raise_for_status()
        return response.json()

    def post(self, path: str, body: dict | None = None, **headers: str) -> requests.Response:
        return self.session.post(self.url(path), json=body or {}, timeout=REQUEST_TIMEOUT, headers=headers)

    def me(self) -> dict:
        return self.get("me")

    def challenge(self, users: list[str], ruleset: str, time_limit: int, ranked: bool) -> dict:
        response = self.post("challenges", {"users": users, "ruleset": ruleset, "time_limit": time_limit,
                                            "ranked": ranked})
        if response.status_code != 201:
            raise SystemExit(f"challenge refused: {response.status_code} {response.text}")
        return response.json()

    # --- the stream ------------------------------------------------------------------------------

    def run(self) -> None:
        """Read the stream forever (or until --games games ended), reconnecting with a backoff."""
        failures = 0
        while not self.done():
            try:
                with self.session.get(self.url("stream/events"), stream=True,
                                      timeout=(10, STREAM_READ_TIMEOUT)) as response:
                    if response.status_code in (401, 403):
                        raise SystemExit(f"the server refused the token: {response.text}")
                    response.raise_for_status()
                    log.info("connected to the event stream")
                    failures = 0
                    for line in response.iter_lines():
                        if line:  # empty lines are keep-alives
                            self.handle(json.loads(line))
                        if self.done():
                            return
                log.info("the stream ended; reconnecting")
            except (requests.ConnectionError, requests.Timeout, requests.HTTPError,
                    requests.exceptions.ChunkedEncodingError) as error:
                failures += 1
                wait = min(MAX_BACKOFF, 2 ** min(failures, 6)) * (0.5 + self.random.random() / 2)
                log.warning("stream lost (%s); reconnecting in %.1f s", error, wait)
                time.sleep(wait)

    def done(self) -> bool:
        return self.games_to_play is not None and len(self.finished) >= self.games_to_play

    def handle(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "challenge" and self.accept:
            challenge = event["challenge"]
            response = self.post(f"challenges/{challenge['id']}/accept")
            log.info("accepted challenge %s from %s: %s", challenge["id"], challenge["challenger"],
                     response.status_code)
        elif kind in ("gameStart", "yourTurn"):
            self.play(event["game"]["id"])
        elif kind == "gameFinish":
            game = event["game"]
            self.finished.add(game["id"])
            log.info("game %s is %s; ranking %s", game["id"], game.get("status"), game.get("ranking"))

    # --- playing ---------------------------------------------------------------------------------

    def play(self, game_id: int) -> None:
        """Act while a decision of ours is pending in this game."""
        game = self.get(f"games/{game_id}")
        for _ in range(10_000):
            seat = game.get("your_seat")
            if game.get("status") != "active" or seat is None or seat not in (game.get("pending") or {}):
                if game.get("status") in ("finished", "abandoned"):
                    self.finished.add(game_id)
                return
            for action in self.candidates(game):
                response = self.post(f"games/{game_id}/actions", {"version": game["version"], "action": action},
                                     **{"Idempotency-Key": uuid.uuid4().hex})
                if response.status_code == 200:
                    game = response.json()
                    if game.get("partial"):
                        game = self.get(f"games/{game_id}")
                    break
                error = response.json().get("error") if response.status_code in (400, 409) else None
                if error in ("stale_version", "game_over", "game_paused"):  # the game moved on: look again
                    if error == "game_paused":
                        return  # the game waits for a resume; the next (re)connect lists it again
                    game = self.get(f"games/{game_id}")
                    break
                if error is None:
                    response.raise_for_status()
                # refused (illegal, bad, or not this kind of decision): the next candidate
            else:
                log.info("game %s: no action found for %s; the deadline will decide", game_id, seat)
                return

    def candidates(self, game: dict) -> list:
        """The actions to try, best first: a random legal one when the API lists them; otherwise a few
        generic guesses (pass, an empty choice, `count` cards of the hand for a discard), each refused
        guess answered 400 and nothing changed."""
        legal = game.get("legal_actions")
        if legal:
            if self.prefer_pass and {"pass": True} in legal and self.random.random() < self.prefer_pass:
                return [{"pass": True}]
            return [self.random.choice(legal)]
        view = game.get("view") or {}
        decision = view.get("decision") if isinstance(view.get("decision"), dict) else {}
        kind = decision.get("kind")
        guesses: list = [{"pass": True}]
        if kind:
            guesses.append({kind: []})
            hand = ((view.get("players") or {}).get(game.get("your_seat")) or {}).get("hand")
            count = decision.get("count")
            if isinstance(count, int) and isinstance(hand, list) and 0 < count <= len(hand):
                guesses.append({kind: self.random.sample(hand, count)})
        return guesses

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="the bot account's API token")
    parser.add_argument("--accept", action="store_true", help="accept every challenge received")
    parser.add_argument("--challenge", nargs="+", metavar="NAME", help="challenge these players, then play")
    parser.add_argument("--ruleset", default="lcg")
    parser.add_argument("--time-limit", type=int, default=3600, help="seconds per decision (challenge)")
    parser.add_argument("--ranked", action="store_true", help="a ranked challenge")
    parser.add_argument("--games", type=int, help="stop after this many games ended")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    parser.add_argument("--prefer-pass", type=float, default=0.0,
                        help="share of the time a 'pass' is chosen when it is legal (shorter card games)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    bot = Bot(args.server, args.token, accept=args.accept, games=args.games, seed=args.seed,
              prefer_pass=args.prefer_pass)
    log.info("playing as %s", bot.me()["username"])
    if args.challenge:
        challenge = bot.challenge(args.challenge, args.ruleset, args.time_limit, args.ranked)
        log.info("challenge %s sent to %s", challenge["id"], ", ".join(args.challenge))
    bot.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
