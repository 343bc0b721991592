from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers

from notifications.models import NotificationSettings
from notifications.services import SETTING_FIELDS, validate_webhook_url


class NotificationSettingsSerializer(serializers.ModelSerializer):
    """Every field is optional on PUT: the ones left out keep their value."""

    class Meta:
        model = NotificationSettings
        fields = SETTING_FIELDS
        extra_kwargs = {"webhook_url": {"allow_blank": True, "required": False}}

    def validate_webhook_url(self, value: str) -> str:
        value = (value or "").strip()
        try:
            validate_webhook_url(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None
        return value
