"""Free local ports for the servers the tests, benchmarks and screenshots start (Daphne, Redis, nginx,
PostgreSQL). No Django here: importable before settings exist."""
from __future__ import annotations

import socket


def free_ports(count: int) -> list[int]:
    """`count` distinct free ports on 127.0.0.1: each socket is held until all are chosen, so the system
    cannot hand the same port out twice (one port asked after another once gave a Sentinel its primary's
    port)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def free_port() -> int:
    return free_ports(1)[0]
