from __future__ import annotations

from django.urls import path

from notifications import api

urlpatterns = [
    path("me/notifications", api.MyNotificationSettingsView.as_view(), name="api-my-notifications"),
]
