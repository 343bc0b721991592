"""Sign-up on the web: field errors for bad input, a logged-in player for good input, and the same
answer whether or not an account has the e-mail address (issue 28): the address waits for its
owner's confirmation."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db


def signup(client, **fields):
    data = {"username": "arya", "email": "arya@example.com", "password1": DEFAULT_PASSWORD, "password2": DEFAULT_PASSWORD}
    data.update(fields)
    return client.post(reverse("signup"), data)


def test_valid_signup_creates_the_account_and_logs_in(client, mailoutbox):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="arya")
    assert user.email is None and user.pending_email == "arya@example.com"
    assert user.check_password(DEFAULT_PASSWORD)
    assert client.get(reverse("profile")).status_code == 200
    [message] = mailoutbox
    assert message.to == ["arya@example.com"] and "Confirm" in message.subject


def confirmation_link(message) -> str:
    return re.search(r"http://testserver(/accounts/email/confirm/\S+/)", message.body).group(1)


def test_the_link_sent_to_the_address_confirms_it(client, mailoutbox):
    signup(client)
    response = client.get(confirmation_link(mailoutbox[0]), follow=True)
    assert b"is confirmed" in response.content
    user = User.objects.get(username="arya")
    assert user.email == "arya@example.com" and user.pending_email == ""
    again = client.get(confirmation_link(mailoutbox[0]), follow=True)  # used already
    assert b"not valid any more" in again.content


def test_a_forged_link_confirms_nothing(client):
    signup(client)
    response = client.get(reverse("confirm-email", args=["not-a-token"]), follow=True)
    assert b"not valid" in response.content
    assert User.objects.get(username="arya").email is None


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


def test_a_taken_email_gets_the_same_answer_as_a_new_one(client, mailoutbox):
    """Sign-up does not reveal which addresses have an account: same status, redirect and words; the
    owner of the address is told by e-mail, and the new account never gets the address."""
    owner = make_user(email="arya@example.com")
    taken = signup(client, username="arya2", email="ARYA@example.com")
    taken_page = client.get(taken["Location"]).content.decode()
    client.post(reverse("logout"))
    fresh = signup(client, username="arya3", email="nobody@example.com")
    fresh_page = client.get(fresh["Location"]).content.decode()
    assert taken.status_code == fresh.status_code == 302 and taken["Location"] == fresh["Location"]
    assert ("We sent a message to arya@example.com" in taken_page
            and "We sent a message to nobody@example.com" in fresh_page)
    assert "already" not in taken_page.lower()
    newcomer = User.objects.get(username="arya2")
    assert newcomer.email is None and newcomer.pending_email == "arya@example.com"
    notice = next(m for m in mailoutbox if "arya2" in m.body)
    assert notice.to == ["arya@example.com"] and "/accounts/email/confirm/" not in notice.body
    owner.refresh_from_db()
    assert owner.email == "arya@example.com"


def test_a_second_account_cannot_confirm_an_address_another_has_confirmed(client, mailoutbox):
    signup(client, username="first", email="shared@example.com")
    client.post(reverse("logout"))
    signup(client, username="second", email="shared@example.com")
    links = [confirmation_link(m) for m in mailoutbox]
    assert len(links) == 2  # neither was confirmed when the other signed up
    client.get(links[1])
    response = client.get(links[0], follow=True)
    assert b"Another account uses this e-mail address" in response.content
    assert User.objects.get(username="second").email == "shared@example.com"
    assert User.objects.get(username="first").email is None


def test_the_api_shows_the_address_waiting_for_confirmation(client):
    from tests.factories import api_client_for

    signup(client)
    me = api_client_for(User.objects.get(username="arya")).get(reverse("api-me")).json()
    assert me["email"] is None and me["email_pending"] == "arya@example.com"


def test_field_errors_are_shown_on_the_page(client):
    response = signup(client, email="not-an-email")
    assert b"Enter a valid email address." in response.content


def test_the_profile_sends_the_link_again_at_most_once_a_minute(client, mailoutbox):
    signup(client)
    assert b"waits for confirmation" in client.get(reverse("profile")).content
    first = client.post(reverse("resend-confirmation"), follow=True)
    assert b"We sent a message to arya@example.com" in first.content
    second = client.post(reverse("resend-confirmation"), follow=True)
    assert b"wait a minute" in second.content
    assert len(mailoutbox) == 2  # the sign-up's and one more
    client.get(confirmation_link(mailoutbox[1]))
    assert User.objects.get(username="arya").email == "arya@example.com"
