"""GET/PUT /api/v1/me/notifications: the user's notification settings."""
from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications import services
from notifications.serializers import NotificationSettingsSerializer


class MyNotificationSettingsView(APIView):
    @extend_schema(responses=NotificationSettingsSerializer, summary="Your notification settings")
    def get(self, request: Request) -> Response:
        return Response(NotificationSettingsSerializer(services.settings_for(request.user)).data)

    @extend_schema(request=NotificationSettingsSerializer, responses=NotificationSettingsSerializer,
                   summary="Change your notification settings (fields left out keep their value)")
    def put(self, request: Request) -> Response:
        serializer = NotificationSettingsSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        prefs = services.do_update_settings(request.user, **serializer.validated_data)
        return Response(NotificationSettingsSerializer(prefs).data)
