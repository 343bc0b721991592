from __future__ import annotations

from django.urls import path

from ratings import api

urlpatterns = [
    path("ratings/<str:ruleset>", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("users/<str:username>", api.ProfileView.as_view(), name="api-profile"),
]
