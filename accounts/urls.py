from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("email/confirm/<str:token>/", views.confirm_email, name="confirm-email"),
    path("email/resend/", views.resend_confirmation, name="resend-confirmation"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/auto-pass/", views.set_auto_pass, name="auto-pass"),
    path("profile/action-windows/", views.set_action_windows, name="action-windows"),
    path("tokens/", views.tokens, name="tokens"),
    path("tokens/bot/", views.upgrade_to_bot, name="bot-upgrade"),
    path("tokens/<int:token_id>/revoke/", views.revoke_token, name="revoke-token"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path(
        "password/reset/",
        auth_views.PasswordResetView.as_view(success_url=reverse_lazy("password_reset_done")),
        name="password_reset",
    ),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
