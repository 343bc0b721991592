"""In-memory SQLite (the tests' embedded database): a reader never makes a writer fail.

A full run's password change answered 503 "database table is locked: django_session" because a
socket was reading the session table at that moment; westeros/sqlite_shared.py."""
from __future__ import annotations

import threading

import pytest
from django.contrib.sessions.models import Session
from django.db import connection, connections
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_goes_through_while_another_connection_is_in_the_middle_of_reading_the_table():
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        pytest.skip("the shared cache's table locks are in-memory SQLite's (the SQLite pass)")
    expires = timezone.now() + timezone.timedelta(days=1)
    Session.objects.bulk_create(Session(session_key=f"key{n:036d}", session_data="x", expire_date=expires)
                                for n in range(3))
    reading, written, errors = threading.Event(), threading.Event(), []

    def reader() -> None:
        try:
            with connection.cursor() as cursor:  # this thread's own connection to the shared cache
                cursor.execute("SELECT session_key FROM django_session")
                cursor.fetchone()  # the statement is still running: the table is being read
                reading.set()
                written.wait(timeout=60)
                cursor.fetchall()
        except Exception as exc:
            errors.append(exc)
            reading.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        assert reading.wait(timeout=60)
        updated = Session.objects.filter(session_key=f"key{0:036d}").update(session_data="changed")
    finally:
        written.set()
        thread.join(timeout=60)
    assert not errors
    assert updated == 1
    assert Session.objects.get(session_key=f"key{0:036d}").session_data == "changed"
