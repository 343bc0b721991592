"""Connections to an in-memory SQLite database read without table locks.

The tests' SQLite database lives in memory, shared between the threads' connections by SQLite's
shared cache. There a connection that meets another's table lock fails at once with "database
table is locked" (a busy timeout applies to files, not to the shared cache): a password change
saving the new session failed with a 503 because a socket of the same user was reading the session
table at that moment (a full run's failure). With `read_uncommitted` a connection of a shared cache
takes no read locks, so readers and writers no longer fail each other; writers still take turns.
A database file (the embedded mode's, with WAL) is left as it is: there readers never block."""
from __future__ import annotations

from typing import Any


def read_without_table_locks(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA read_uncommitted = 1")
