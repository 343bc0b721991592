"""The pages' scripts load their words from /jsi18n/<language>/ with a version drawn from the compiled
catalogue (westeros/templatetags/westeros_links.py): browsers keep that address a day, so after a
release with new or changed Spanish the address must change too, or a player reads yesterday's words."""
from __future__ import annotations

import re
import shutil

import pytest
from django.conf import settings
from django.test import Client, override_settings

from westeros.templatetags import westeros_links

pytestmark = pytest.mark.django_db

SCRIPT = re.compile(r'<script src="(/jsi18n/(\w+)/\?v=([0-9a-f]{12}))"></script>')


def script_catalogue(language: str) -> tuple[str, str, str]:
    page = Client(headers={"accept-language": language}).get("/accounts/login/")
    assert page.status_code == 200
    found = SCRIPT.search(page.content.decode())
    assert found, "the page links no versioned script catalogue"
    return found.groups()


@pytest.fixture(autouse=True)
def fresh_versions():
    westeros_links._CATALOGUE_VERSIONS.clear()
    yield
    westeros_links._CATALOGUE_VERSIONS.clear()


def test_each_language_has_its_own_versioned_address_that_serves_its_catalogue():
    es_url, es, es_version = script_catalogue("es")
    en_url, en, en_version = script_catalogue("en")
    assert (es, en) == ("es", "en")
    assert es_version != en_version  # Spanish has a compiled catalogue, English none
    body = Client().get(es_url)
    assert body.status_code == 200 and "catalog" in body.content.decode()


def test_the_version_changes_when_the_compiled_catalogue_does(tmp_path):
    _url, _language, before = script_catalogue("es")
    source = settings.BASE_DIR / "locale" / "es" / "LC_MESSAGES" / "djangojs.mo"
    copy = tmp_path / "es" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    shutil.copy(source, copy / "djangojs.mo")
    westeros_links._CATALOGUE_VERSIONS.clear()
    with override_settings(LOCALE_PATHS=[tmp_path]):
        assert script_catalogue("es")[2] == before  # the same words: the same address
        with open(copy / "djangojs.mo", "ab") as changed:
            changed.write(b"\0")
        westeros_links._CATALOGUE_VERSIONS.clear()
        assert script_catalogue("es")[2] != before
