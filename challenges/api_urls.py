from __future__ import annotations

from django.urls import path

from challenges import api

urlpatterns = [
    path("challenges", api.ChallengeListView.as_view(), name="api-challenges"),
    path("challenges/<int:challenge_id>", api.ChallengeDetailView.as_view(), name="api-challenge"),
    path("challenges/<int:challenge_id>/accept", api.ChallengeAcceptView.as_view(), name="api-challenge-accept"),
    path("challenges/<int:challenge_id>/decline", api.ChallengeDeclineView.as_view(), name="api-challenge-decline"),
    path("challenges/<int:challenge_id>/cancel", api.ChallengeCancelView.as_view(), name="api-challenge-cancel"),
]
