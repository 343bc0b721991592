"""The challenge pages (challenges/views.py); the API's are in challenges/api_urls.py."""
from __future__ import annotations

from django.urls import path

from challenges import views

urlpatterns = [
    path("challenges/", views.challenge_list, name="challenges"),
    path("challenges/new/<str:username>/", views.challenge_new, name="challenge-new"),
    path("challenges/<int:challenge_id>/<str:verb>/", views.challenge_answer, name="challenge-answer"),
    path("bots/", views.bot_list, name="bots"),
]
