from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from notifications.models import NotificationSettings
from notifications.services import SETTING_FIELDS, validate_webhook_url


class NotificationSettingsForm(forms.ModelForm):
    webhook_url = forms.URLField(
        label=gettext_lazy("Webhook URL"), max_length=500, required=False, assume_scheme="https",
        help_text=gettext_lazy("optional; receives a Discord-compatible JSON body {\"content\": \"...\"}"),
    )

    class Meta:
        model = NotificationSettings
        fields = SETTING_FIELDS

    def clean_webhook_url(self) -> str:
        value = (self.cleaned_data.get("webhook_url") or "").strip()
        validate_webhook_url(value)
        return value
