"""The log-in backend (accounts/backends.py, issue 27): the account read on every request by a query
compiled once per process, sessions made before it still logged in, a wrong password hashed once."""
from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.hashers import check_password as real_check_password
from django.urls import reverse

from accounts import backends
from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db


def log_in(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR="10.7.0.1")


def test_a_log_in_is_made_by_the_site_backend_and_its_pages_read_the_account(client):
    user = make_user()
    assert log_in(client, user.username, DEFAULT_PASSWORD).status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == backends.PATH
    page = client.get(reverse("profile"))
    assert page.status_code == 200 and user.username in page.content.decode()


def test_a_session_made_before_the_site_backend_is_still_logged_in(client):
    user = make_user()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    assert client.get(reverse("profile")).status_code == 200


def test_a_wrong_password_is_checked_once_not_once_per_backend(client):
    user = make_user()
    with mock.patch("django.contrib.auth.base_user.check_password", side_effect=real_check_password) as checked:
        assert log_in(client, user.username, "not the password").status_code == 400
    assert checked.call_count == 1
    assert client.get(reverse("profile")).status_code == 302


def test_the_account_is_read_afresh_each_request_a_deactivated_one_is_logged_out(client):
    user = make_user()
    client.force_login(user)
    assert client.get(reverse("profile")).status_code == 200
    User.objects.filter(pk=user.pk).update(first_name="Changed", is_active=False)
    assert client.get(reverse("profile")).status_code == 302  # the compiled query read the new row
    other = make_user()
    client.force_login(other)
    assert backends.AccountBackend().get_user(other.pk) == other
    assert backends.AccountBackend().get_user(user.pk) is None
    assert backends.AccountBackend().get_user("1") is None  # only an id as the session stores it
