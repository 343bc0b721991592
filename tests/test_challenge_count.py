"""The navigation's count of challenges waiting for your answer (every page a player opens) is
counted from the player's invites (challenges.services.waiting_count, issue 27): it must count what
the challenges page lists as waiting for your answer, and nothing else: not a challenge you
answered, one that expired or was canceled, one you sent, or another player's invite."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from challenges import services
from challenges.models import Challenge, Invite
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def challenge(challenger, *invited, status=Challenge.Status.PENDING, expires_in=timedelta(days=1),
              answers=None) -> Challenge:
    made = Challenge.objects.create(challenger=challenger, ruleset="agot", time_limit=3600, status=status,
                                    expires_at=timezone.now() + expires_in)
    for position, user in enumerate(invited):
        Invite.objects.create(challenge=made, user=user, position=position,
                              status=(answers or {}).get(user, Invite.Status.PENDING))
    return made


def test_the_count_is_the_challenges_listed_as_waiting_for_your_answer():
    me, other, third = make_user(), make_user(), make_user()
    challenge(other, me)  # waiting
    challenge(third, me, other, answers={other: Invite.Status.ACCEPTED})  # waiting for me, the other accepted
    challenge(other, me, answers={me: Invite.Status.ACCEPTED})  # I accepted: no longer waiting for me
    challenge(other, me, answers={me: Invite.Status.DECLINED}, status=Challenge.Status.DECLINED)
    challenge(other, me, expires_in=timedelta(minutes=-1))  # pending, but past its expiry
    challenge(other, me, status=Challenge.Status.CANCELED)
    challenge(me, other)  # sent by me
    challenge(other, third)  # someone else's

    assert services.waiting_count(me) == len(services.challenges_of(me)["in"]) == 2
    assert services.waiting_count(other) == len(services.challenges_of(other)["in"]) == 1
    assert services.waiting_count(third) == 1

    client = Client()
    client.force_login(me)
    page = client.get("/lobbies/").content.decode()
    assert 'aria-label="2 waiting for your answer">(2)</span>' in page
