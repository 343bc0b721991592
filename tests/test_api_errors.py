"""The API answers every error in one JSON format and never with an HTML page."""
from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from westeros.api_errors import handler404, handler500

pytestmark = pytest.mark.django_db


def assert_error_format(response, status, code):
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error", "detail", "fields"}
    assert body["error"] == code
    assert isinstance(body["detail"], str) and body["detail"]
    return body


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("path", ["/api/", "/api/v1/nope", "/api/v1/games/12/whatever", "/api/v2/me"])
def test_unknown_api_routes_are_json_404s(client, settings, debug, path):
    settings.DEBUG = debug
    assert_error_format(client.get(path), 404, "not_found")


def test_wrong_method_is_a_json_405(api, user):
    api.force_authenticate(user)
    assert_error_format(api.put(reverse("api-me"), {}), 405, "method_not_allowed")


def test_malformed_json_is_a_json_400(api, user):
    api.force_authenticate(user)
    response = api.post(reverse("api-tokens"), data="{not json", content_type="application/json")
    assert_error_format(response, 400, "parse_error")


def test_validation_errors_list_the_fields(api, user):
    api.force_authenticate(user)
    body = assert_error_format(api.post(reverse("api-tokens"), {}, format="json"), 400, "invalid")
    assert body["fields"]["name"] == ["This field is required."]


def test_unauthenticated_is_a_json_401(api):
    assert_error_format(api.get(reverse("api-me")), 401, "not_authenticated")


def test_server_errors_under_api_are_json_and_elsewhere_html():
    factory = RequestFactory()
    api_response = handler500(factory.get("/api/v1/me"))
    assert api_response.status_code == 500
    assert api_response["Content-Type"] == "application/json"
    page = handler500(factory.get("/"))
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def test_404_handler_is_json_only_under_api(client, settings):
    settings.DEBUG = False
    factory = RequestFactory()
    assert handler404(factory.get("/api/x"))["Content-Type"] == "application/json"
    assert client.get("/no-such-page/").status_code == 404
    assert client.get("/no-such-page/")["Content-Type"].startswith("text/html")


def test_a_database_outage_is_a_503_with_retry_after_not_a_500(api, user, monkeypatch):
    from django.db import OperationalError

    from accounts import api as accounts_api

    def unavailable(*args, **kwargs):
        raise OperationalError("connection failed: too many clients already")

    monkeypatch.setattr(accounts_api.MeSerializer, "to_representation", unavailable)
    api.force_authenticate(user)
    response = api.get(reverse("api-me"))
    body = assert_error_format(response, 503, "unavailable")
    assert "nothing was changed" in body["detail"]
    assert response["Retry-After"] == "5"
