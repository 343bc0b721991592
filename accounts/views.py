from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.context_processors import csrf
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST

from accounts import backends, throttle
from accounts.forms import BotUpgradeForm, SignUpForm, ThrottledAuthenticationForm, TokenForm
from accounts.models import User
from accounts.services import (
    BotUpgradeRefused,
    EmailConfirmationRefused,
    bot_upgrade_refusal,
    do_confirm_email,
    do_issue_token,
    do_revoke_token,
    do_set_action_windows,
    do_set_auto_pass,
    do_sign_up,
    do_upgrade_to_bot,
    send_confirmation,
)
from web.paging import page_of
from westeros import kept
from westeros.outages import RETRY_AFTER_SECONDS


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = do_sign_up(
            request,
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend=backends.PATH)
        messages.success(request, gettext("Welcome to Westeros, %(username)s. We sent a message to %(email)s: "
                                          "follow its link to confirm the address.")
                         % {"username": user.username, "email": user.pending_email})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.errors else 200)


class LoginView(auth_views.LoginView):
    form_class = ThrottledAuthenticationForm
    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def form_valid(self, form):
        response = super().form_valid(form)
        # this browser is known to the account now: a guessing campaign never slows it (accounts/throttle.py)
        response.set_signed_cookie(throttle.DEVICE_COOKIE, throttle.device_cookie_value(form.get_user().username),
                                   salt=throttle.DEVICE_SALT, max_age=throttle.DEVICE_MAX_AGE, httponly=True,
                                   secure=settings.SESSION_COOKIE_SECURE, samesite="Lax")
        return response

    def form_invalid(self, form):
        response = super().form_invalid(form)
        codes = {error.code for error in form.non_field_errors().as_data()}
        response.status_code = 429 if "locked" in codes else 400
        if getattr(form, "locked", None) is not None:
            response["Retry-After"] = str(form.locked.retry_after_seconds())
        if "unavailable" in codes:  # Redis down: the throttle cannot be checked (accounts/throttle.py)
            response.status_code = 503
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", {"profile_user": request.user, "is_self": True,
                                                     "action_windows": action_window_choices(request.user)})


def action_window_choices(user: User) -> list[tuple[str, str, bool]]:
    """(window name, its words, on) of each card-game action window a player may turn off."""
    from games.engine.lcg.prompts import ACTION_WINDOWS

    words = {
        "plot": gettext("Plot phase"),
        "draw": gettext("Draw phase"),
        "before_challenge": gettext("Before a challenge is declared"),
        "after_attackers": gettext("After attackers are declared"),
        "after_defenders": gettext("After defenders are declared"),
        "dominance": gettext("Dominance phase"),
        "standing": gettext("Standing phase"),
        "taxation": gettext("Taxation phase"),
    }
    on = set(user.action_windows or ())
    return [(n, words[n], n in on) for n in ACTION_WINDOWS]


@login_required
@require_POST
def set_auto_pass(request: HttpRequest) -> HttpResponse:
    """The profile page's card-game setting "pass for me when I hold nothing playable" (issue 30)."""
    on = request.POST.get("auto_pass") == "on"
    do_set_auto_pass(request.user, on)
    messages.success(request, gettext("Saved: the site now passes for you when you hold nothing playable.") if on
                     else gettext("Saved: the site asks you as before, whatever your hand holds."))
    return redirect("profile")


@login_required
@require_POST
def set_action_windows(request: HttpRequest) -> HttpResponse:
    """The profile page's card-game setting: the action windows the player is asked in (a box per
    window of prompts.ACTION_WINDOWS; the boxes left empty are passed for them in games started later)."""
    from games.engine.lcg.prompts import ACTION_WINDOWS

    do_set_action_windows(request.user, [n for n in request.POST.getlist("action_windows") if n in ACTION_WINDOWS])
    messages.success(request, gettext("Saved: your next card games ask you in the action windows you chose."))
    return redirect("profile")


def public_profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's profile as others see it: ratings with their history, reliability, recent games."""
    if request.user.is_authenticated and request.user.username == username:  # one's own: read already
        user = request.user
    else:
        user = get_object_or_404(User, username=username, is_active=True)
    is_self = request.user == user
    return render(request, "accounts/profile.html", {"profile_user": user, "is_self": is_self,
                                                     "action_windows": action_window_choices(user) if is_self else ()})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        _token, new_key = do_issue_token(request.user, form.cleaned_data["name"])
        form = TokenForm()
    # a page at a time (a script that makes a token per run leaves hundreds; issue 27)
    pager = page_of(request, request.user.active_tokens())
    context = {"form": form, "token_rows": token_rows_html(pager.rows, csrf(request)["csrf_token"]), "pager": pager,
               "new_key": new_key, **_bot_context(request.user)}
    return render(request, "accounts/tokens.html", context)


_TOKEN_ROWS = kept.InProcess()


def token_rows_html(tokens, csrf_token) -> list[str]:
    """Each token's row of the tokens page (templates/accounts/_token_row.html), rendered once for what it
    shows (its name, prefix, dates and the language) and kept in the process: only the revoke form's CSRF
    token is written in per request. A page of 50 rows was rendered on every visit, two dates and six
    translations each: about 70% of the page's CPU, 9 ms (issue 27)."""
    language = get_language()
    return [kept.filled(_TOKEN_ROWS.get(
        (language, t.pk, t.name, t.prefix, t.created_at, t.last_used_at),
        lambda t=t: render_to_string("accounts/_token_row.html", {"token": t, "csrf_token": kept.CSRF_MARK}).strip()),
        csrf_token) for t in tokens]


def _bot_context(user, form: BotUpgradeForm | None = None) -> dict:
    refusal = None if user.is_bot else bot_upgrade_refusal(user)
    return {"bot_form": form or BotUpgradeForm(user=user), "bot_refusal": str(refusal) if refusal else ""}


@login_required
@require_POST
def upgrade_to_bot(request: HttpRequest) -> HttpResponse:
    """The tokens page's "Turn this account into a bot" form: the username typed as confirmation."""
    form = BotUpgradeForm(request.POST, user=request.user)
    if form.is_valid():
        try:
            do_upgrade_to_bot(request.user)
        except BotUpgradeRefused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, gettext("%(username)s is now a bot account: it plays through the API "
                                              "with a token, and is shown as BOT.") % {"username": request.user.username})
        return redirect("tokens")
    pager = page_of(request, request.user.active_tokens())
    context = {"form": TokenForm(), "token_rows": token_rows_html(pager.rows, csrf(request)["csrf_token"]),
               "pager": pager, "new_key": None, **_bot_context(request.user, form)}
    return render(request, "accounts/tokens.html", context, status=400)


@login_required
@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    token = do_revoke_token(request.user, token_id)
    if token is None:
        messages.error(request, gettext("No such token."))
    else:
        messages.success(request, gettext("Token “%(name)s” revoked. Programs using it are now refused.")
                         % {"name": token.name})
    return redirect("tokens")


def confirm_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the sign-up message: the address becomes the account's."""
    try:
        user = do_confirm_email(token)
    except EmailConfirmationRefused as refused:
        messages.error(request, str(refused))
        return redirect("home")
    messages.success(request, gettext("%(email)s is confirmed for %(username)s.")
                     % {"email": user.email, "username": user.username})
    return redirect("home")


@login_required
@require_POST
def resend_confirmation(request: HttpRequest) -> HttpResponse:
    if request.user.pending_email:
        if not _resend_allowed(request.user):
            messages.error(request, gettext("We sent one a moment ago: wait a minute before asking again."))
            return redirect("profile")
        send_confirmation(request, request.user)
        messages.success(request, gettext("We sent a message to %(email)s: follow its link to confirm the address.")
                         % {"email": request.user.pending_email})
    return redirect("profile")


RESEND_SECONDS = 60  # at most one confirmation message a minute per account (no mail bombing)


def _resend_allowed(user) -> bool:
    from django.core.cache import cache

    from westeros.outages import REDIS_ERRORS

    try:
        return cache.add(f"email-resend:{user.pk}", 1, RESEND_SECONDS)
    except REDIS_ERRORS:
        return False
