from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

TOKEN_PREFIX_LENGTH = 8


def default_action_windows() -> list[str]:
    """The card game's action windows a new player is asked in (throneteki's defaults)."""
    from games.engine.lcg.prompts import DEFAULT_ACTION_WINDOWS

    return list(DEFAULT_ACTION_WINDOWS)


class User(AbstractUser):
    """A player. `email` is the confirmed address, unique: password resets and notifications go
    there. Sign-up does not reveal which addresses have an account (issue 28): the address typed
    there waits in `pending_email` until its owner follows the link sent to it
    (accounts.services.do_sign_up), whether or not another account holds it already; an account
    made by the admin or `create_user` with an address has it confirmed."""

    email = models.EmailField(gettext_lazy("e-mail address"), unique=True, null=True, blank=True)
    pending_email = models.EmailField(gettext_lazy("e-mail address waiting for confirmation"), blank=True, default="")
    # A bot account (docs/bots.md): a program playing through the API with a token, shown as BOT
    # wherever its name appears. Set once by accounts.services.do_upgrade_to_bot, never unset.
    is_bot = models.BooleanField(gettext_lazy("bot account"), default=False)
    bot_since = models.DateTimeField(gettext_lazy("bot since"), null=True, blank=True)
    # The language the site speaks to this player (issue 29; westeros/i18n.py): one of
    # settings.LANGUAGES, or "" to follow the browser. Set by the language switch and the profile page.
    language = models.CharField(_("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES)
    # The card game (issue 30): the server passes this player's action, interrupt and reaction windows
    # when their hand and cards in play hold nothing usable there (games/services/play.py). Off by
    # default: the opponent may infer it from how fast the pass comes.
    auto_pass = models.BooleanField(gettext_lazy("pass for me when I hold nothing playable"), default=False)
    # The card game: the action windows this player is asked in (games/engine/lcg/prompts.py
    # ACTION_WINDOWS, throneteki's "Action windows" setting and its defaults); the others are passed for
    # them. Carried into a game as its option `action_windows` when the game starts (games/services/play.py).
    action_windows = models.JSONField(gettext_lazy("card game: action windows you are asked in"),
                                      default=default_action_windows)

    class Meta:
        verbose_name = gettext_lazy("user")
        verbose_name_plural = gettext_lazy("users")
        indexes = [
            # the bots page lists the bot accounts by name from these few, not from a scan of every user
            # (its count 1.4 -> under 0.1 ms at 10,000 users; issue 27, thirteenth round)
            models.Index(fields=["username", "id"], condition=models.Q(is_bot=True, is_active=True), name="user_active_bot"),
            # the closed accounts, which the leaderboards leave out (ratings/services.py): found in this index
            # rather than by a scan of every user on each leaderboard's count (1.7 ms at 10,000 users)
            models.Index(fields=["id"], condition=models.Q(is_active=False), name="user_closed"),
        ]

    def clean(self) -> None:
        super().clean()
        self.email = self.email or None  # Django normalises a missing address to "": unique, so NULL

    def save(self, *args, **kwargs) -> None:
        self.email = self.email or None
        # A new password ends every session made with the old one (Django refuses their session
        # hash): their live connections close too (accounts/revocation.py).
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            from accounts import revocation

            revocation.announce(self.pk, "password_changed")

    def active_tokens(self) -> models.QuerySet[ApiToken]:
        return self.api_tokens.filter(revoked_at__isnull=True)


def hash_token_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal API token. Only its hash is stored: the key is shown once, when it is created."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=gettext_lazy("user"), on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(gettext_lazy("name"), max_length=64)
    prefix = models.CharField(gettext_lazy("prefix"), max_length=TOKEN_PREFIX_LENGTH, db_index=True)
    key_hash = models.CharField(gettext_lazy("key hash"), max_length=64, unique=True)
    created_at = models.DateTimeField(gettext_lazy("created at"), default=timezone.now)
    last_used_at = models.DateTimeField(gettext_lazy("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(gettext_lazy("revoked at"), null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = gettext_lazy("api token")
        verbose_name_plural = gettext_lazy("api tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, user: User, name: str) -> tuple[ApiToken, str]:
        """A new token and its key (the only time the key exists in clear)."""
        key = secrets.token_urlsafe(32)
        token = cls.objects.create(user=user, name=name, prefix=key[:TOKEN_PREFIX_LENGTH], key_hash=hash_token_key(key))
        return token, key

    @classmethod
    def find_active(cls, key: str) -> ApiToken | None:
        return cls.objects.active().select_related("user").filter(key_hash=hash_token_key(key)).first()

    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
            from accounts import revocation  # its websockets and event streams close (issue 28)

            revocation.announce(self.user_id, "token_revoked", token_id=self.pk)
