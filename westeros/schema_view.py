"""The OpenAPI schema at /api/schema/, generated and rendered once per process for each format,
language and version asked for (issue 27: generating and rendering it took about 300 ms a request).
The schema is public (SERVE_PUBLIC: the same for every caller) and changes only with the code, which
a new process brings."""
from __future__ import annotations

from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView


class ApiSchemaView(SpectacularAPIView):
    _rendered: dict[tuple, tuple[bytes, str, str]] = {}

    @extend_schema(**SCHEMA_KWARGS)  # as drf-spectacular documents its own view
    def get(self, request, *args, **kwargs):
        key = (request.accepted_media_type, request.GET.get("lang") or translation.get_language(),
               request.GET.get("version"))
        if key not in self._rendered:
            response = super().get(request, *args, **kwargs)
            renderer = request.accepted_renderer
            content = renderer.render(response.data, request.accepted_media_type, self.get_renderer_context())
            content_type = request.accepted_media_type
            if renderer.charset:
                content_type = f"{content_type}; charset={renderer.charset}"
            self._rendered[key] = (content, content_type, response["Content-Disposition"])
        content, content_type, disposition = self._rendered[key]
        answer = HttpResponse(content, content_type=content_type)
        answer["Content-Disposition"] = disposition
        return answer
