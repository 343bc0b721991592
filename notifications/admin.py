from __future__ import annotations

from django.contrib import admin

from notifications.models import Notification, NotificationSettings


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "webhook_url", "updated_at")
    raw_id_fields = ("user",)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "kind", "created_at", "emailed_at", "webhook_at", "error")
    list_filter = ("kind",)
    raw_id_fields = ("user", "game")
