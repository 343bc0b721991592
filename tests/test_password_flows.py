"""Changing and resetting a password; the reset link goes out through the configured mail backend."""
from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, make_user

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "another-unusual-passphrase-77"


def test_password_change_requires_the_old_password(logged_in, user):
    url = reverse("password_change")
    bad = logged_in.post(url, {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert bad.status_code == 200 and "old_password" in bad.context["form"].errors
    good = logged_in.post(url, {"old_password": DEFAULT_PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert good.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_change_applies_the_validators(logged_in):
    response = logged_in.post(
        reverse("password_change"), {"old_password": DEFAULT_PASSWORD, "new_password1": "123", "new_password2": "123"}
    )
    assert "new_password2" in response.context["form"].errors


def test_password_reset_mails_a_link_that_sets_a_new_password(client):
    user = make_user(email="bran@example.com")
    response = client.post(reverse("password_reset"), {"email": "bran@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bran@example.com"]
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []
