"""Personal API tokens: created and named, shown once, listed without the key, authenticate with
`Token` or `Bearer`, and stop working once revoked."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.factories import DEFAULT_PASSWORD, make_token, make_user

pytestmark = pytest.mark.django_db


def client_with(header: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    return client


@pytest.mark.parametrize("keyword", ["Token", "Bearer", "bearer"])
def test_a_token_authenticates_as_its_owner(keyword):
    token, key = make_token(name="bot")
    response = client_with(f"{keyword} {key}").get(reverse("api-me"))
    assert response.status_code == 200
    assert response.json()["username"] == token.user.username


def test_a_revoked_token_is_refused():
    token, key = make_token()
    client = client_with(f"Token {key}")
    assert client.get(reverse("api-me")).status_code == 200
    assert client.delete(reverse("api-token", args=[token.id])).status_code == 204
    response = client.get(reverse("api-me"))
    assert response.status_code == 401
    assert response.json() == {"error": "authentication_failed", "detail": "Invalid or revoked token.", "fields": {}}


def test_an_unknown_token_is_refused():
    response = client_with("Token not-a-real-key").get(reverse("api-me"))
    assert response.status_code == 401


def test_no_credentials_get_401_not_403():
    response = APIClient().get(reverse("api-me"))
    assert response.status_code == 401
    assert response.json()["error"] == "not_authenticated"


def test_tokens_are_created_named_listed_without_their_key_and_revoked(logged_in, user):
    api = APIClient()
    api.force_authenticate(user)
    created = api.post(reverse("api-tokens"), {"name": "my bot"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["name"] == "my bot" and len(body["key"]) >= 40 and body["key"].startswith(body["prefix"])
    # The key is stored only as a hash.
    stored = ApiToken.objects.get(pk=body["id"])
    assert body["key"] not in (stored.key_hash, stored.prefix)

    listed = api.get(reverse("api-tokens")).json()
    assert [t["name"] for t in listed] == ["my bot"]
    assert "key" not in listed[0]

    assert api.delete(reverse("api-token", args=[body["id"]])).status_code == 204
    assert api.get(reverse("api-tokens")).json() == []


def test_nobody_can_revoke_another_users_token():
    token, key = make_token()
    intruder = APIClient()
    intruder.force_authenticate(make_user())
    response = intruder.delete(reverse("api-token", args=[token.id]))
    assert response.status_code == 404
    assert client_with(f"Token {key}").get(reverse("api-me")).status_code == 200


def test_token_name_is_required_and_bounded(user):
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(reverse("api-tokens"), {"name": "x" * 65}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == "invalid"
    assert "name" in response.json()["fields"]
    assert api.post(reverse("api-tokens"), {}, format="json").json()["fields"]["name"]


def test_using_a_token_records_when_it_was_last_used():
    token, key = make_token()
    assert token.last_used_at is None
    client_with(f"Token {key}").get(reverse("api-me"))
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_password_exchange_gives_a_working_token(api):
    user = make_user()
    response = api.post(
        reverse("api-password-token"), {"username": user.username, "password": DEFAULT_PASSWORD, "name": "cli"}, format="json"
    )
    assert response.status_code == 201
    assert client_with(f"Token {response.json()['key']}").get(reverse("api-me")).json()["username"] == user.username


def test_web_page_shows_a_new_key_once_and_revokes(logged_in, user):
    response = logged_in.post(reverse("tokens"), {"name": "from the web"})
    key = response.context["new_key"]
    assert key and key.encode() in response.content
    page = logged_in.get(reverse("tokens"))
    assert b"from the web" in page.content and key.encode() not in page.content
    token = user.active_tokens().get()
    logged_in.post(reverse("revoke-token", args=[token.id]))
    assert client_with(f"Token {key}").get(reverse("api-me")).status_code == 401


def test_session_authenticated_api_writes_need_csrf(user):
    client = APIClient(enforce_csrf_checks=True)
    client.login(username=user.username, password=DEFAULT_PASSWORD)
    assert client.get(reverse("api-me")).status_code == 200
    response = client.post(reverse("api-tokens"), {"name": "x"}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_the_tokens_page_lists_a_page_of_tokens_at_a_time(monkeypatch):
    """Issue 27: a script that makes a token per run leaves hundreds; the page lists them a page at a
    time, newest first, with the pager's links in words."""
    from django.test import Client

    import web.paging

    monkeypatch.setattr(web.paging, "PER_PAGE", 2)
    user = make_user()
    for name in ("oldest-token", "middle-token", "newest-token"):
        make_token(user, name)
    client = Client()
    client.force_login(user)
    html = client.get("/accounts/tokens/").content.decode()
    assert "newest-token" in html and "middle-token" in html and "oldest-token" not in html and "Page 1 of 2" in html
    assert "oldest-token" in client.get("/accounts/tokens/?page=2").content.decode()
