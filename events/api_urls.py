from __future__ import annotations

from django.urls import path

from events import stream

urlpatterns = [
    path("stream/events", stream.event_stream, name="api-event-stream"),
]
