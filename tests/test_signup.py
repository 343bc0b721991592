"""Sign-up on the web: field errors for bad input, a logged-in player for good input."""
from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db


def signup(client, **fields):
    data = {"username": "arya", "email": "arya@example.com", "password1": DEFAULT_PASSWORD, "password2": DEFAULT_PASSWORD}
    data.update(fields)
    return client.post(reverse("signup"), data)


def test_valid_signup_creates_the_account_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="arya")
    assert user.email == "arya@example.com"
    assert user.check_password(DEFAULT_PASSWORD)
    assert client.get(reverse("profile")).status_code == 200


@pytest.mark.parametrize(
    ("password", "message"),
    [("short", "too short"), ("password123", "too common"), ("84729163058", "entirely numeric"), ("arya-stark", "too similar")],
)
def test_weak_password_gets_a_field_error_from_djangos_validators(client, password, message):
    response = signup(client, password1=password, password2=password, username="arya-stark")
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert any(message in error for error in errors["password2"]), errors
    assert not User.objects.filter(username="arya-stark").exists()


def test_mismatched_passwords_get_a_field_error(client):
    response = signup(client, password2=DEFAULT_PASSWORD + "x")
    assert response.status_code == 400
    assert "password2" in response.context["form"].errors


def test_taken_username_gets_a_field_error_whatever_its_case(client):
    make_user(username="Arya")
    response = signup(client, username="arya", email="other@example.com")
    assert response.status_code == 400
    assert "username" in response.context["form"].errors
    assert User.objects.filter(username__iexact="arya").count() == 1


def test_bad_email_gets_a_field_error(client):
    response = signup(client, email="not-an-email")
    assert response.status_code == 400
    assert "email" in response.context["form"].errors


def test_taken_email_gets_a_field_error_whatever_its_case(client):
    make_user(email="arya@example.com")
    response = signup(client, username="arya2", email="ARYA@example.com")
    assert response.status_code == 400
    assert "already exists" in response.context["form"].errors["email"][0]


def test_field_errors_are_shown_on_the_page(client):
    response = signup(client, email="not-an-email")
    assert b"Enter a valid email address." in response.content
