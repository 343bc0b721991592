from __future__ import annotations

from django.urls import path

from accounts import api

urlpatterns = [
    path("me", api.MeView.as_view(), name="api-me"),
    path("me/tokens", api.TokenListView.as_view(), name="api-tokens"),
    path("me/tokens/<int:token_id>", api.TokenDetailView.as_view(), name="api-token"),
    path("bot/account/upgrade", api.BotUpgradeView.as_view(), name="api-bot-upgrade"),
    path("auth/token", api.PasswordTokenView.as_view(), name="api-password-token"),
]
