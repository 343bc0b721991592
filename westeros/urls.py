from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularSwaggerView

from accounts import views as account_views
from web import views as web_views
from westeros import i18n
from westeros.api_errors import api_not_found
from westeros.schema_view import ApiSchemaView


class ApiDocsView(SpectacularSwaggerView):
    """Swagger UI (the sidecar's static files) inside the site's layout: templates/api/docs.html."""

    template_name = "api/docs.html"


handler404 = "westeros.api_errors.handler404"
handler500 = "westeros.api_errors.handler500"

urlpatterns = [
    path("", web_views.home, name="home"),
    path("admin/", admin.site.urls),
    path("accounts/notifications/", include("notifications.urls")),
    # the language switch (every page's footer, the profile page) and the scripts' catalogue (issue 29)
    path("accounts/language/", i18n.switch_language, name="set-language"),
    path("jsi18n/<str:language>/", i18n.javascript_catalog, name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("users/<str:username>/", account_views.public_profile, name="public-profile"),
    path("", include("tournaments.urls")),
    path("", include("web.urls")),
    path("", include("challenges.urls")),
    path("api/v1/", include("accounts.api_urls")),
    path("api/v1/", include("games.api_urls")),
    path("api/v1/", include("ratings.api_urls")),
    path("api/v1/", include("tournaments.api_urls")),
    path("api/v1/", include("chat.api_urls")),
    path("api/v1/", include("notifications.api_urls")),
    path("api/v1/", include("events.api_urls")),
    path("api/v1/", include("challenges.api_urls")),
    path("api/schema/", ApiSchemaView.as_view(), name="api-schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    # Anything else under /api/ is a JSON 404, never an HTML page (even with DEBUG on).
    re_path(r"^api/", api_not_found),
]
