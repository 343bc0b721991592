from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop, ngettext_lazy

from accounts.models import User
from accounts.services import LoginLocked, do_authenticate
from accounts.throttle import ThrottleUnavailable

TOKEN_NAME_MAX = 64

# Django's own Spanish speaks to the reader as "usted"; the site says "tú", as the rulebooks do
# (docs/translating.md). These are Django's msgids for what the sign-up and log-in forms show: named
# here so that makemessages puts them in the site's catalogue, whose translations take precedence
# over Django's (settings.LOCALE_PATHS).
DJANGO_WORDS_SAID_WITH_TU = (
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", "min_length"),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Enter a valid email address."),
    gettext_noop("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
)


class SignUpForm(UserCreationForm):
    """Username, e-mail and a password checked by Django's validators (AUTH_PASSWORD_VALIDATORS)."""

    def validate_unique(self) -> None:
        # not the model's "User with this e-mail address already exists": the address is not stored
        # on the account here (it waits in pending_email), and the answer must not tell
        exclude = self._get_validation_exclusions()
        exclude.add("email")
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)

    email = forms.EmailField(label=_("E-mail address"), required=True, max_length=254)

    class Meta:
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        # No "this address has an account" error: sign-up answers the same for any address and
        # the address waits for its owner's confirmation (accounts.services.do_sign_up). Usernames
        # are public, so a taken username is still said.
        return self.cleaned_data["email"].strip().lower()


class ThrottledAuthenticationForm(AuthenticationForm):
    """Django's log-in form, counting failures per username and address, per address and per username
(accounts/throttle.py); `locked` is the throttle that refused the attempt."""

    locked = None

    error_messages = {
        **AuthenticationForm.error_messages,
        "locked": "%(message)s",
        "unavailable": ThrottleUnavailable.message,
    }

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            try:
                self.user_cache = do_authenticate(self.request, username, password)
            except LoginLocked as locked:
                self.locked = locked.throttle
                raise forms.ValidationError(
                    self.error_messages["locked"], code="locked", params={"message": str(locked)}
                ) from None
            except ThrottleUnavailable:
                raise forms.ValidationError(self.error_messages["unavailable"], code="unavailable") from None
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


class TokenForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=TOKEN_NAME_MAX, help_text=_("What the token is for, e.g. 'my bot'."))


class BotUpgradeForm(forms.Form):
    """The confirmation in words: the player types their own username."""

    confirm = forms.CharField(max_length=150, label=_("Type your username to confirm"),
                              help_text=_("This cannot be undone."))

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_confirm(self) -> str:
        typed = self.cleaned_data["confirm"].strip()
        if typed != self.user.username:
            raise forms.ValidationError(_("Type your username, %(username)s, exactly, to confirm.")
                                        % {"username": self.user.username})
        return typed
