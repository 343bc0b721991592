"""Every operation in the OpenAPI schema, from every app, answers garbage with a 4xx in the error
format: never a 500. Path parameters get real ids, missing ids and nonsense; bodies get wrong types."""
from __future__ import annotations

import re

import pytest
import yaml
from django.urls import reverse

from tests.factories import api_client_for, make_game, make_lobby, make_token, make_user

pytestmark = pytest.mark.django_db

BODIES = [None, "{not json", [], {"": None}, {"version": "x", "action": []}, {"name": 5, "seats": "many"},
          {"pause": "perhaps"}, {"text": {"a": 1}, "channel": 7}, {"user": [], "seat": {}},
          {"ranking": "first", "table": -1}, {"format": None, "rounds": -3}, {"webhook_url": "ftp://x"}]


def operations(client) -> list[tuple[str, str]]:
    schema = yaml.safe_load(client.get(reverse("api-schema")).content)
    return [(path, method) for path, item in schema["paths"].items() for method in item
            if method in {"get", "post", "put", "patch", "delete"}]


def fill(path: str, value: str) -> str:
    return re.sub(r"\{[^}]+\}", value, path)


def send(client, method: str, url: str, body):
    call = getattr(client, method)
    if method == "get" or body is None:
        return call(url)
    if isinstance(body, str):
        return call(url, data=body, content_type="application/json")
    return call(url, body, format="json")


def test_no_operation_answers_garbage_with_a_server_error():
    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    make_lobby(creator=user)
    make_token(user)
    client = api_client_for(user)
    ops = operations(client)
    assert len(ops) > 30, "the schema should list every API operation"
    for path, method in ops:
        for ident in (str(game.pk), "999999", "0", "abc", "agot", user.username):
            url = fill(path, ident)
            for body in BODIES if method != "get" else [None]:
                response = send(client, method, url, body)
                label = f"{method.upper()} {url} {body!r:.60}"
                assert response.status_code < 500, (label, response.content[:300])
                if response.status_code >= 400 and response.get("Content-Type", "").startswith("application/json"):
                    assert "error" in response.json() and "detail" in response.json(), label


def test_no_page_answers_odd_ids_or_posts_with_a_server_error(client):
    from django.urls import get_resolver

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield prefix + str(pattern.pattern)

    user = make_user()
    game = make_game(users=[user, make_user(), make_user()])
    lobby = make_lobby(creator=user)
    pages = [p for p in walk(get_resolver().url_patterns) if not p.startswith(("api/", "admin/", "^"))]
    assert len(pages) > 20
    for logged_in in (False, True):
        if logged_in:
            client.force_login(user)
        for page in pages:
            for ident in (str(game.pk), str(lobby.pk), "999999", "0"):
                url = "/" + re.sub(r"<int:[^>]+>", ident, re.sub(r"<(str:)?[^>]+>", "nonsense", page))
                for method in ("get", "post"):
                    response = getattr(client, method)(url, {"garbage": "1", "name": ""})
                    assert response.status_code < 500, (method, url, response.status_code)
