#!/usr/bin/env python3
"""Play one game to its end through Westeros' REST API and game websocket, against the bots.

Standard library only (urllib, and a minimal websocket client below). What it does, step by step,
with the endpoints a client of its own would use:

1. `POST /api/v1/auth/token` with each account's username and password: one API token each.
2. `POST /api/v1/lobbies` (your account): a lobby for `--ruleset` with one seat per account.
3. `POST /api/v1/lobbies/{id}/join` (the other accounts): the game starts when the last seat is
   taken; `GET /api/v1/lobbies/{id}` then names it (`game`).
4. `POST /api/v1/games/{id}/concede` (the other accounts): the engine's player (the bot) takes
   their seats, so you play against bots.
5. The websocket `/ws/games/{id}/?token=<key>`: `hello`, then an `update` after every change.
6. Until the game is over: `GET /api/v1/games/{id}`; when your seat is in `pending`, choose one of
   your `legal_actions` and `POST /api/v1/games/{id}/actions` with `{"version", "action"}` and an
   `Idempotency-Key` header (a retry after a network error is then applied once); a 409
   `stale_version` means someone acted first: fetch again. Otherwise wait for the next websocket
   message.
7. `GET /api/v1/games/{id}/fairness`: the seed, every action, the final version and state hash;
   `--save-fairness FILE` writes it for `python manage.py verify_replay FILE`.

The other accounts only exist to fill the lobby (a lobby starts when it is full); create them on the
site's sign-up page. The script picks among listed legal actions, so it plays rulesets whose every
decision is listed: B'Twixt (the default). AGoT's `place_orders`, `march` and `muster` are not listed
(too many combinations): a client composes them (docs/engine-agot-state.md).

    python3 docs/examples/play_to_the_end.py --url http://127.0.0.1:8000 \\
        --player alice:alice-password --bots bob:bob-password,carol:carol-password
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import ssl
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any


class ApiError(Exception):
    def __init__(self, status: int, body: dict[str, Any]):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Api:
    """JSON over HTTP with one account's token."""

    def __init__(self, url: str, token: str | None = None):
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None) -> dict[str, Any]:
        request = urllib.request.Request(self.url + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            raise ApiError(error.code, json.loads(text) if text else {}) from None
        return json.loads(text) if text else {}

    def log_in(self, username: str, password: str) -> Api:
        key = self.call("POST", "/api/v1/auth/token", {"username": username, "password": password,
                                                        "name": "play_to_the_end"})["key"]
        return Api(self.url, key)


class WebSocket:
    """Just enough of RFC 6455 for a client that reads JSON text messages."""

    GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, url: str, origin: str, timeout: float = 30):
        parts = urllib.parse.urlsplit(url)
        secure = parts.scheme == "wss"
        sock = socket.create_connection((parts.hostname, parts.port or (443 if secure else 80)), timeout=timeout)
        self.sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname) if secure else sock
        key = base64.b64encode(os.urandom(16)).decode()
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        self.sock.sendall((f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Origin: {origin}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise ConnectionError(f"websocket refused: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1((key + self.GUID).encode()).digest()).decode()
        if not any(line.lower() == f"sec-websocket-accept: {accept.lower()}" for line in lines[1:]):
            raise ConnectionError("websocket handshake: wrong Sec-WebSocket-Accept")

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("websocket closed by the server")
        return chunk

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += self._recv()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x80 | opcode])
        if length < 126:
            header += bytes([0x80 | length])
        elif length < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next JSON message, or None when none came within `timeout` seconds."""
        self.sock.settimeout(timeout)
        message = b""
        try:
            while True:
                first, second = self._read(2)
                length = second & 0x7F
                if length == 126:
                    length = struct.unpack("!H", self._read(2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", self._read(8))[0]
                mask = self._read(4) if second & 0x80 else None
                payload = self._read(length)
                if mask:
                    payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
                opcode = first & 0x0F
                if opcode == 0x8:
                    code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                    raise ConnectionError(f"websocket closed by the server (code {code})")
                if opcode == 0x9:
                    self._send(0xA, payload)
                    continue
                if opcode in (0x1, 0x0):
                    message += payload
                    if first & 0x80:
                        return json.loads(message)
        except TimeoutError:
            if message or self.buffer:
                raise
            return None

    def close(self) -> None:
        try:
            self._send(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


def account(text: str) -> tuple[str, str]:
    username, sep, password = text.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError("write an account as username:password")
    return username, password


def play(url: str, player: tuple[str, str], bots: list[tuple[str, str]], ruleset: str = "btwixt", seed: int = 1,
         max_actions: int = 5000, out=sys.stdout) -> dict[str, Any]:
    """Play one game to its end; returns the fairness payload of the finished game."""
    rng = random.Random(seed)
    site = Api(url)
    me = site.log_in(*player)
    others = [site.log_in(*login) for login in bots]

    lobby = me.call("POST", "/api/v1/lobbies", {"ruleset": ruleset, "seats": 1 + len(others), "time_limit": 3600,
                                                "name": "play_to_the_end.py"})
    for other in others:
        lobby = other.call("POST", f"/api/v1/lobbies/{lobby['id']}/join", {})
    game_id = me.call("GET", f"/api/v1/lobbies/{lobby['id']}")["game"]
    print(f"lobby {lobby['id']} is full: game {game_id} started", file=out)
    for other in others:
        other.call("POST", f"/api/v1/games/{game_id}/concede")
    print(f"{len(others)} seat(s) handed to the bot", file=out)

    origin = url.rstrip("/")
    ws_url = origin.replace("http", "ws", 1) + f"/ws/games/{game_id}/?token={urllib.parse.quote(me.token)}"
    socket_ = WebSocket(ws_url, origin)
    hello = socket_.receive(timeout=30)
    print(f"websocket: {hello['type']} as seat {hello['seat']} at version {hello['version']}", file=out)
    updates = 0
    mine = 0
    try:
        while True:
            game = me.call("GET", f"/api/v1/games/{game_id}")
            if game["status"] != "active":
                break
            seat = game["your_seat"]
            if seat in game["pending"]:
                legal = game["legal_actions"]
                if not legal:
                    raise SystemExit(f"{ruleset} does not list the legal actions of {game['pending'][seat]!r}: "
                                     "this example cannot compose them")
                if mine >= max_actions:
                    raise SystemExit(f"still playing after {max_actions} actions")
                action = rng.choice(legal)
                try:
                    me.call("POST", f"/api/v1/games/{game_id}/actions",
                            {"version": game["version"], "action": action}, {"Idempotency-Key": str(uuid.uuid4())})
                    mine += 1
                except ApiError as error:
                    if error.body.get("error") not in ("stale_version", "not_your_turn"):
                        raise
                    # someone (a bot, a deadline) acted first: fetch the game again
                continue
            message = socket_.receive(timeout=10)  # nothing for us to do: wait for the others
            if message and message["type"] in ("update", "gap"):
                updates += 1
        # drain what the websocket still has to say, so the last update is seen too
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and (message := socket_.receive(timeout=0.5)) is not None:
            updates += message["type"] in ("update", "gap")
    finally:
        socket_.close()
    print(f"game {game_id} {game['status']} at version {game['version']}: ranking {game['ranking']} "
          f"(you were {game['your_seat']}; {mine} actions of yours, {updates} websocket updates)", file=out)

    fairness = Api(url).call("GET", f"/api/v1/games/{game_id}/fairness")
    committed = hashlib.sha256(f"{fairness['salt']}:{fairness['seed']}".encode()).hexdigest()
    print(f"fairness: seed {'matches' if committed == fairness['seed_hash'] else 'DOES NOT MATCH'} its "
          f"commitment; {len(fairness['actions'])} actions up to version {fairness['final_version']}, "
          f"final state sha256 {fairness['final_state_sha256'][:12]}...", file=out)
    return fairness


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--player", type=account, required=True, help="your account, username:password")
    parser.add_argument("--bots", required=True,
                        help="accounts that fill the other seats and hand them to the bot: user:pw,user:pw")
    parser.add_argument("--ruleset", default="btwixt")
    parser.add_argument("--seed", type=int, default=1, help="seed of this script's own choices")
    parser.add_argument("--save-fairness", metavar="FILE", help="write the fairness payload (for verify_replay)")
    args = parser.parse_args(argv)
    bots = [account(text) for text in args.bots.split(",") if text]
    fairness = play(args.url, args.player, bots, args.ruleset, args.seed)
    if args.save_fairness:
        with open(args.save_fairness, "w") as handle:
            json.dump(fairness, handle)
        print(f"saved: python manage.py verify_replay {args.save_fairness}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
