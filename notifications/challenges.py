"""The challenge notification: when someone is challenged (challenges/services.py, from the pages or
the API), each player challenged hears of it where they hear of their games (e-mail and webhook, by
their notification settings: `email_challenge`, `webhook_challenge`), with a link to the challenges
page where they accept or decline.

Decided after the challenge's transaction commits (a post_save of a new Challenge registers it with
`transaction.on_commit`: the invites are stored by then), once per challenge and player (the key
`challenge:<challenge>:<user>`), then sent like every notification (services._decide_many). The
words are here, in one place (WORDS), said in the recipient's language (services.compose)."""
from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.urls import reverse
from django.utils.translation import gettext_lazy

from notifications.models import Kind, Notification

log = logging.getLogger(__name__)

WORDS = {
    "subject": gettext_lazy("[Westeros] {challenger} challenges you to {game}"),
    "text_ranked": gettext_lazy("{challenger} challenges you to a ranked game of {game}, {time} per decision{others}."),
    "text_casual": gettext_lazy("{challenger} challenges you to a casual game of {game}, {time} per decision{others}."),
    "others": gettext_lazy(", with {names}"),
    "options": gettext_lazy(" Options: {options}."),
    "answer": gettext_lazy(" Accept or decline on your challenges page before {expires}:"),
}


def decide(challenge_id: int) -> list[Notification]:
    """A notification for every player challenged (still to answer) who wants them; [] if none."""
    from challenges.models import Challenge, Invite
    from notifications.services import _decide_many, active_players_settings

    challenge = (Challenge.objects.filter(pk=challenge_id, status=Challenge.Status.PENDING)
                 .select_related("challenger").prefetch_related("invites__user").first())
    if challenge is None:
        return []
    invites = [i for i in challenge.invites.all() if i.status == Invite.Status.PENDING]
    prefs = active_players_settings(i.user_id for i in invites)
    data = {"challenge": challenge.pk, "challenger": challenge.challenger.username, "ruleset": challenge.ruleset,
            "time_limit": challenge.time_limit, "ranked": challenge.ranked, "options": challenge.options,
            "players": [i.user.username for i in challenge.invites.all()],
            "expires_at": challenge.expires_at.isoformat()}
    wanted = [(prefs[i.user_id], None, Kind.CHALLENGE, f"challenge:{challenge.pk}:{i.user_id}", data)
              for i in invites if i.user_id in prefs]
    return _decide_many(wanted)


def compose(notification: Notification) -> tuple[str, str]:
    """(e-mail subject, text) of a challenge notification; the text is also the webhook's content."""
    from datetime import datetime

    from ratings.templatetags.site_words import duration_words, ruleset_name
    from web.forms import option_words

    data: dict[str, Any] = notification.data
    me = notification.user.username
    game = ruleset_name(data.get("ruleset", ""))
    others = [name for name in data.get("players", []) if name != me]
    text = WORDS["text_ranked" if data.get("ranked") else "text_casual"].format(
        challenger=data.get("challenger", ""), game=game, time=duration_words(data.get("time_limit")),
        others=WORDS["others"].format(names=", ".join(others)) if others else "")
    options = option_words(data.get("ruleset", ""), data.get("options") or {})
    if options:
        text += WORDS["options"].format(options=", ".join(options))
    expires = datetime.fromisoformat(data["expires_at"]).strftime("%Y-%m-%d %H:%M UTC") if data.get("expires_at") else ""
    text += WORDS["answer"].format(expires=expires)
    link = f"{settings.SITE_URL.rstrip('/')}{reverse('challenges')}"
    return WORDS["subject"].format(challenger=data.get("challenger", ""), game=game), f"{text}\n{link}"


def on_challenge_saved(sender, instance, created: bool = False, raw: bool = False, **kwargs: Any) -> None:
    if not created or raw:
        return
    challenge_id = instance.pk

    def run() -> None:
        try:
            with transaction.atomic():
                decide(challenge_id)
        except Exception:
            log.exception("could not decide the notifications of challenge %s", challenge_id)

    transaction.on_commit(run, robust=True)


def connect() -> None:
    from challenges.models import Challenge

    post_save.connect(on_challenge_saved, sender=Challenge, dispatch_uid="notifications.challenge_created")
