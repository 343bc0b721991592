"""Logging in and out, and log-in throttling per username and per IP."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db


def login(client, username, password, ip="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_correct_credentials_log_in_and_logout_logs_out(client):
    user = make_user()
    assert login(client, user.username, DEFAULT_PASSWORD).status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_wrong_password_is_refused_with_a_message(client):
    user = make_user()
    response = login(client, user.username, "wrong")
    assert response.status_code == 400
    assert b"Please enter a correct username and password" in response.content


def test_too_many_failures_for_one_user_lock_it_even_with_the_right_password(client, settings):
    settings.LOGIN_FAILURES_PER_USER = 3
    user = make_user()
    for attempt in range(3):
        assert login(client, user.username, "wrong", ip=f"10.0.1.{attempt}").status_code == 400
    response = login(client, user.username, DEFAULT_PASSWORD, ip="10.0.1.99")
    assert response.status_code == 429
    assert b"Too many failed log-in attempts" in response.content
    assert client.get(reverse("profile")).status_code == 302


def test_username_lock_is_case_insensitive(client, settings):
    settings.LOGIN_FAILURES_PER_USER = 2
    user = make_user(username="Sansa")
    login(client, "sansa", "wrong", ip="10.0.2.1")
    login(client, "SANSA", "wrong", ip="10.0.2.2")
    assert login(client, "Sansa", DEFAULT_PASSWORD, ip="10.0.2.3").status_code == 429
    assert user.username == "Sansa"


def test_too_many_failures_from_one_ip_lock_that_ip_for_every_user(client, settings):
    settings.LOGIN_FAILURES_PER_IP = 4
    victim = make_user()
    for n in range(4):
        login(client, f"guess{n}", "wrong", ip="10.0.3.3")
    assert login(client, victim.username, DEFAULT_PASSWORD, ip="10.0.3.3").status_code == 429
    # Another address is not affected.
    assert login(client, victim.username, DEFAULT_PASSWORD, ip="10.0.3.4").status_code == 302


def test_a_successful_login_clears_the_users_failures(client, settings):
    settings.LOGIN_FAILURES_PER_USER = 3
    user = make_user()
    login(client, user.username, "wrong")
    login(client, user.username, "wrong")
    assert login(client, user.username, DEFAULT_PASSWORD).status_code == 302
    client.post(reverse("logout"))
    login(client, user.username, "wrong")
    login(client, user.username, "wrong")
    assert login(client, user.username, DEFAULT_PASSWORD).status_code == 302


def test_api_password_exchange_is_throttled_with_the_json_error_format(api, settings):
    settings.LOGIN_FAILURES_PER_USER = 2
    user = make_user()
    url = reverse("api-password-token")
    for _ in range(2):
        response = api.post(url, {"username": user.username, "password": "wrong"}, format="json")
        assert response.status_code == 401
        assert response.json()["error"] == "authentication_failed"
    response = api.post(url, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 429
    body = response.json()
    assert body["error"] == "throttled"
    assert "Too many failed log-in attempts" in body["detail"]
    assert "Retry-After" in response.headers
