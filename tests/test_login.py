"""Logging in and out, and log-in throttling (accounts/throttle.py): per username and address, per
address, and a per-username ceiling across addresses that slows but never locks the owner out."""
from __future__ import annotations

import pytest
from django.test import Client
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


def test_too_many_failures_lock_that_username_from_that_address_even_with_the_right_password(client, settings):
    settings.LOGIN_FAILURES_PER_USER = 3
    user = make_user()
    for _ in range(3):
        assert login(client, user.username, "wrong", ip="10.0.1.1").status_code == 400
    response = login(client, user.username, DEFAULT_PASSWORD, ip="10.0.1.1")
    assert response.status_code == 429
    assert b"Too many failed log-in attempts" in response.content
    assert response["Retry-After"] == str(settings.LOGIN_FAILURE_WINDOW_SECONDS)
    assert client.get(reverse("profile")).status_code == 302


def test_the_lock_is_not_for_everyone_the_owner_logs_in_from_another_address(client, settings):
    """Five wrong passwords from an attacker's address lock only that address: the lock cannot be
    used to keep the owner out, nor renewed by anyone else."""
    settings.LOGIN_FAILURES_PER_USER = 5
    user = make_user()
    for _ in range(5):
        login(client, user.username, "wrong", ip="10.0.9.9")
    assert login(client, user.username, DEFAULT_PASSWORD, ip="10.0.9.9").status_code == 429
    for _ in range(20):  # the attacker goes on: refused before counting, nothing renewed elsewhere
        assert login(client, user.username, "wrong", ip="10.0.9.9").status_code == 429
    assert login(client, user.username, DEFAULT_PASSWORD, ip="10.0.1.2").status_code == 302


def test_username_lock_is_case_insensitive(client, settings):
    settings.LOGIN_FAILURES_PER_USER = 2
    user = make_user(username="Sansa")
    login(client, "sansa", "wrong", ip="10.0.2.1")
    login(client, "SANSA", "wrong", ip="10.0.2.1")
    assert login(client, "Sansa", DEFAULT_PASSWORD, ip="10.0.2.1").status_code == 429
    assert user.username == "Sansa"


def test_the_per_username_ceiling_across_addresses_slows_but_never_locks(client, settings):
    """A campaign from many addresses (each under the per-address lock) reaches the ceiling: from
    then on the username takes one attempt per LOGIN_SLOWDOWN_SECONDS from everywhere together,
    the others are told to try again in N seconds, and a browser that logged in before is not slowed."""
    settings.LOGIN_FAILURES_PER_USER = 5
    settings.LOGIN_FAILURES_PER_USERNAME_CEILING = 6
    settings.LOGIN_SLOWDOWN_SECONDS = 30
    user = make_user()
    owner = Client()
    assert login(owner, user.username, DEFAULT_PASSWORD, ip="10.0.5.1").status_code == 302
    owner.post(reverse("logout"))
    for n in range(6):
        assert login(client, user.username, "wrong", ip=f"10.0.6.{n}").status_code == 400
    allowed = login(client, user.username, "wrong", ip="10.0.7.1")  # the one attempt of the period
    assert allowed.status_code == 400
    slowed = login(client, user.username, DEFAULT_PASSWORD, ip="10.0.7.2")
    assert slowed.status_code == 429
    assert slowed["Retry-After"] == "30"
    assert b"Try again in 30 seconds" in slowed.content
    # the owner's browser, known to the account, is not slowed, from a new address too
    assert login(owner, user.username, DEFAULT_PASSWORD, ip="10.0.8.8").status_code == 302


def test_the_slowdown_lets_one_attempt_through_when_its_period_ends(client, settings):
    from django.core.cache import cache

    from accounts.throttle import _slow_key

    settings.LOGIN_FAILURES_PER_USERNAME_CEILING = 2
    user = make_user()
    login(client, user.username, "wrong", ip="10.0.10.1")
    login(client, user.username, "wrong", ip="10.0.10.2")
    assert login(client, user.username, "wrong", ip="10.0.10.3").status_code == 400  # the period's attempt
    assert login(client, user.username, DEFAULT_PASSWORD, ip="10.0.10.4").status_code == 429
    cache.delete(_slow_key(user.username))  # the period is over (its key expired)
    assert login(client, user.username, DEFAULT_PASSWORD, ip="10.0.10.4").status_code == 302


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
