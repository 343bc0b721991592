"""Tells drf-spectacular how ApiTokenAuthentication works, so the schema documents it."""
from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A personal API token: `Token <key>` or `Bearer <key>` (create one under /accounts/tokens/).",
        }
