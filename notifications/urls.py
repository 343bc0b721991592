from __future__ import annotations

from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.notification_settings, name="notification-settings"),
]
