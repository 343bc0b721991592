"""The site in English and Spanish (issue 29; westeros/i18n.py, docs/translating.md): which language a
request gets (the account's setting, else the cookie, else Accept-Language, else English), the
switch on every page, the pages translated so far with no English sentence left, the API's
messages, the scripts' catalogue, and the catalogues themselves kept complete."""
from __future__ import annotations

import gettext
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, api_client_for, make_game, make_lobby, make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
CATALOGUES = [LOCALE / "es" / "LC_MESSAGES" / "django.po", LOCALE / "es" / "LC_MESSAGES" / "djangojs.po"]
# Folders makemessages leaves alone, as docs/translating.md's command does.
MAKEMESSAGES_IGNORE = [".venv", "node_modules", "staticfiles", "test-artifacts", "build", "tests", "benchmarks"]


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


# --- which language ----------------------------------------------------------------------------

def test_a_visitor_without_cookie_or_accept_language_gets_english(client):
    response = client.get("/")
    assert html_lang(response) == "en" and response["Content-Language"] == "en"
    assert "Take the Iron Throne" in response.content.decode()


def test_accept_language_spanish_gets_spanish(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9,en;q=0.5")
    assert html_lang(response) == "es" and response["Content-Language"] == "es"
    assert "Conquista el Trono de Hierro" in response.content.decode()


def test_a_language_the_site_does_not_speak_falls_back_to_english(client):
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")) == "en"


def test_the_cookie_wins_over_accept_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "en"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "es"


def test_the_account_setting_wins_over_cookie_and_accept_language(client):
    user = make_user(language="es")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "es"
    user.language = "en"
    user.save(update_fields=["language"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "en"


def test_an_account_without_a_setting_follows_the_cookie_then_the_browser(client):
    client.force_login(make_user())
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "es"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "en"


# --- the switch ----------------------------------------------------------------------------------

def switch_form(html: str) -> str:
    match = re.search(r'<form method="post" action="([^"]+)" class="language-switch".*?</form>', html, re.S)
    assert match, "no language switch on the page"
    assert match.group(1) == reverse("set-language")
    return match.group(0)


def test_every_page_has_the_switch_in_words_with_the_current_language_marked(client):
    for url in ("/", reverse("login"), reverse("signup"), reverse("password_reset"), reverse("web-lobbies")):
        form = switch_form(client.get(url).content.decode())
        assert re.search(r'value="en" lang="en" class="link" aria-current="true" disabled>English</button>', form), url
        assert re.search(r'value="es" lang="es" class="link">Español</button>', form), url


def test_a_visitor_switches_to_spanish_and_the_cookie_remembers_it(client):
    page = client.get(reverse("login")).content.decode()
    next_url = re.search(r'name="next" value="([^"]+)"', switch_form(page)).group(1)
    response = client.post(reverse("set-language"), {"language": "es", "next": next_url})
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    # later visits, with an English browser, stay Spanish; back to English the same way
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "es"
    client.post(reverse("set-language"), {"language": "en", "next": "/"})
    assert html_lang(client.get("/", HTTP_ACCEPT_LANGUAGE="es")) == "en"


def test_a_player_s_switch_is_saved_on_the_account_and_follows_them_to_another_browser(client):
    user = make_user()
    client.force_login(user)
    switch_form(client.get("/").content.decode())
    assert client.post(reverse("set-language"), {"language": "es", "next": "/"}).status_code == 302
    user.refresh_from_db()
    assert user.language == "es"
    elsewhere = Client()
    assert elsewhere.post(reverse("login"), {"username": user.username, "password": DEFAULT_PASSWORD},
                          HTTP_ACCEPT_LANGUAGE="en").status_code == 302
    assert html_lang(elsewhere.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "es"


def test_an_unknown_language_or_a_get_changes_nothing_and_never_fails(client):
    user = make_user(language="en")
    client.force_login(user)
    assert client.post(reverse("set-language"), {"language": "xx", "next": "/"}).status_code == 302
    assert client.get(reverse("set-language")).status_code == 405
    user.refresh_from_db()
    assert user.language == "en" and settings.LANGUAGE_COOKIE_NAME not in client.cookies


def test_the_switch_never_redirects_to_another_site(client):
    response = client.post(reverse("set-language"), {"language": "es", "next": "https://evil.example/"})
    assert response.status_code == 302 and not response["Location"].startswith("https://evil.example")


def test_the_profile_page_edits_the_account_language(client):
    user = make_user()
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="inline language-setting">.*?</form>', page, re.S)
    assert form and form.group(1) == reverse("set-language") and '<select name="language"' in form.group(0)
    client.post(form.group(1), {"language": "es", "next": reverse("profile")})
    user.refresh_from_db()
    assert user.language == "es"
    page = client.get(reverse("profile")).content.decode()
    assert '<option value="es" lang="es" selected>Español</option>' in page
    # the page's own words (its ratings sections are still English: docs/translating.md)
    assert {"Correo electrónico", "Miembro desde", "Cambiar la contraseña", "Tu perfil público"} <= visible_texts(page)


def test_the_api_shows_and_changes_the_account_language():
    user = make_user()
    api = api_client_for(user)
    assert api.get("/api/v1/me").json()["language"] == ""
    response = api.patch("/api/v1/me", {"language": "es"}, format="json")
    assert response.status_code == 200 and response.json()["language"] == "es"
    user.refresh_from_db()
    assert user.language == "es"
    # only the language is writable; the rest is ignored
    response = api.patch("/api/v1/me", {"username": "someone-else", "language": ""}, format="json")
    user.refresh_from_db()
    assert response.status_code == 200 and user.language == "" and user.username != "someone-else"


# --- pages in Spanish: no English sentence left --------------------------------------------------

class VisibleText(HTMLParser):
    """What a reader meets on a page: text outside scripts and styles, and the words of aria-label,
    title, placeholder and alt; each text cut at the site's " · " separators."""

    SKIP = {"script", "style"}
    WORDS = ("aria-label", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        self.texts.extend(value for name, value in attrs if name in self.WORDS and value)

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.texts.append(data)


def visible_texts(html: str) -> set[str]:
    parser = VisibleText()
    parser.feed(html)
    out = set()
    for text in parser.texts:
        for part in re.split(r"\s+·\s+|\n", text):
            part = " ".join(part.split()).strip(" .:;,·()")
            if re.search(r"[A-Za-z]", part):
                out.add(part)
    return out


# Names, not sentences: they read the same in both languages (the card game's title has no Spanish
# edition in the seeds, so the English title is kept: docs/glossary-es.md; BOT is the bot badge).
NAMES = {"Westeros", "API", "English", "Español", "A Game of Thrones: The Card Game", "BOT"}


def english_left(client_factory, url: str, names: set[str] = frozenset()) -> tuple[set[str], set[str]]:
    english = client_factory().get(url, HTTP_ACCEPT_LANGUAGE="en")
    spanish = client_factory().get(url, HTTP_ACCEPT_LANGUAGE="es")
    assert english.status_code == spanish.status_code == 200, url
    assert html_lang(english) == "en" and html_lang(spanish) == "es"
    english_texts, spanish_texts = visible_texts(english.content.decode()), visible_texts(spanish.content.decode())
    return english_texts & spanish_texts - NAMES - names, spanish_texts


def test_the_home_page_for_a_visitor_has_no_english_sentence_in_spanish():
    lobby = make_lobby(time_limit=5400)
    left, spanish = english_left(Client, "/", names={lobby.creator.username})
    assert not left, f"English left on the Spanish home page: {sorted(left)}"
    for sentence in ("Conquista el Trono de Hierro", "Juega ya contra el ordenador", "Salas abiertas",
                     "1 hora y 30 minutos por decisión", "Juego de Tronos: El Juego de Tablero", "Tierra de Nadie",
                     "Los Líderes pujan con cartas de Influencia por los Aliados del reino, Estación tras Estación"):
        assert sentence in spanish, sentence


def test_the_home_page_for_a_player_with_a_game_has_no_english_sentence_in_spanish():
    player = make_user()
    game = make_game(3, users=[player, make_user(), make_user()])
    card_game = make_game(2, ruleset="lcg", users=[player, make_user()])
    lobby = make_lobby(make_user(is_bot=True), time_limit=86400, ranked=True)  # a bot's: the BOT badge's title

    def logged_in() -> Client:
        client = Client()
        client.force_login(player)
        return client

    seat = game.seats.get(user=player).seat
    left, spanish = english_left(logged_in, "/", names={player.username, seat.capitalize(), lobby.creator.username})
    assert not left, f"English left on the Spanish home page: {sorted(left)}"
    assert {"Tus partidas", f"Partida {game.pk}", f"Partida {card_game.pk}", "Mis partidas", "Cerrar sesión",
            "1 día por decisión", "una cuenta bot: un programa que juega a través de la API"} <= spanish


def test_the_page_words_follow_the_active_language():
    from django.utils import translation

    from ratings.templatetags.site_words import duration_words, ruleset_name, seat_name

    with translation.override("es"):
        assert (seat_name("p1", "lcg"), duration_words(93784), ruleset_name("btwixt")) == \
            ("Jugador 1", "1 día y 2 horas", "Tierra de Nadie")
    assert (seat_name("p1", "lcg"), duration_words(93784), ruleset_name("btwixt")) == \
        ("Player 1", "1 day and 2 hours", "B'Twixt")


def test_a_spanish_request_leaves_no_spanish_behind_in_its_thread(client):
    from django.utils import translation

    client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    assert translation.get_language() == "en"


@pytest.mark.parametrize("url_name, sentences", [
    ("login", {"Iniciar sesión", "¿Olvidaste tu contraseña?", "Crear una cuenta", "Nombre de usuario", "Contraseña"}),
    ("signup", {"Crear una cuenta", "Dirección de correo electrónico", "¿Ya tienes cuenta?",
                "Tu contraseña debe tener al menos 8 caracteres"}),
    ("password_reset", {"Restablece tu contraseña", "Envíame un enlace para restablecerla"}),
])
def test_the_account_pages_have_no_english_sentence_in_spanish(url_name, sentences):
    left, spanish = english_left(Client, reverse(url_name))
    assert not left, f"English left on the Spanish {url_name} page: {sorted(left)}"
    assert sentences <= spanish, sentences - spanish


def test_form_errors_come_in_spanish_said_with_tu(client):
    response = client.post(reverse("signup"), {"username": "ana", "email": "not-an-address", "password1": "12345678",
                                               "password2": "87654321"}, HTTP_ACCEPT_LANGUAGE="es")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Escribe una dirección de correo electrónico válida." in page
    assert "Los dos campos de contraseña no coinciden." in page
    make_user(username="bea")
    response = client.post(reverse("login"), {"username": "bea", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 400
    assert "Escribe un nombre de usuario y una contraseña correctos." in response.content.decode()


def test_the_welcome_after_sign_up_is_in_spanish(client):
    response = client.post(reverse("signup"), {"username": "carla", "email": "carla@example.com",
                                               "password1": DEFAULT_PASSWORD, "password2": DEFAULT_PASSWORD},
                           HTTP_ACCEPT_LANGUAGE="es", follow=True)
    assert "Te damos la bienvenida a Westeros, carla." in response.content.decode()


def test_the_sign_up_message_goes_in_the_sign_up_s_language_and_the_owner_s_note_in_the_owner_s(client, mailoutbox):
    client.post(reverse("signup"), {"username": "dani", "email": "dani@example.com", "password1": DEFAULT_PASSWORD,
                                    "password2": DEFAULT_PASSWORD}, HTTP_ACCEPT_LANGUAGE="es")
    [welcome] = mailoutbox
    assert welcome.subject == "Confirma tu dirección de correo"
    assert welcome.body.startswith("Te damos la bienvenida a Westeros, dani. Confirma que esta dirección es tuya")
    # the address belongs to an English-speaking account: its owner is told in English
    make_user(username="owner", email="taken@example.com", language="en")
    Client().post(reverse("signup"), {"username": "eva", "email": "taken@example.com", "password1": DEFAULT_PASSWORD,
                                      "password2": DEFAULT_PASSWORD}, HTTP_ACCEPT_LANGUAGE="es")
    note = mailoutbox[1]
    assert note.to == ["taken@example.com"] and note.subject == "Someone signed up with your e-mail address"


def test_a_broken_confirmation_link_is_said_in_spanish(client):
    response = client.get(reverse("confirm-email", args=["not-a-token"]), HTTP_ACCEPT_LANGUAGE="es", follow=True)
    assert "Este enlace de confirmación no es válido." in response.content.decode()


# --- the API --------------------------------------------------------------------------------------

def test_an_api_error_speaks_spanish_and_keeps_its_english_code(client):
    body = client.get("/api/v1/no-such-thing", HTTP_ACCEPT_LANGUAGE="es").json()
    assert body["error"] == "not_found"
    assert body["detail"] == "No hay ningún punto de acceso de la API en /api/v1/no-such-thing."
    assert client.get("/api/v1/no-such-thing").json()["detail"] == "No API endpoint at /api/v1/no-such-thing."


def test_a_token_client_gets_its_account_s_language_else_its_accept_language(client):
    from tests.factories import make_token

    spanish = make_user(language="es")
    _token, key = make_token(spanish)
    body = client.patch("/api/v1/me", {"language": "xx"}, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="en").json()
    assert body["error"] == "invalid" and body["detail"] == "Algunos campos no son válidos."
    _token, key = make_token(make_user())  # no setting: the browser's (the client's) Accept-Language
    answer = client.patch("/api/v1/me", {"language": "xx"}, content_type="application/json",
                          HTTP_AUTHORIZATION=f"Token {key}", HTTP_ACCEPT_LANGUAGE="es")
    assert answer.json()["detail"] == "Algunos campos no son válidos." and answer["Content-Language"] == "es"
    answer = client.patch("/api/v1/me", {"language": "xx"}, content_type="application/json",
                          HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.json()["detail"] == "Some fields are not valid."


def test_a_validation_error_in_spanish_has_its_fields_in_spanish_too():
    api = api_client_for(make_user())
    response = api.patch("/api/v1/me", {"language": "xx"}, format="json", HTTP_ACCEPT_LANGUAGE="es")
    body = response.json()
    assert response.status_code == 400 and body["error"] == "invalid"
    assert body["detail"] == "Algunos campos no son válidos."
    assert "no es una elección válida" in body["fields"]["language"][0]


# --- the scripts' catalogue ------------------------------------------------------------------------

def test_the_javascript_catalogue_answers_in_the_language_of_its_address(client):
    spanish = client.get(reverse("javascript-catalog", args=["es"]))
    assert spanish.status_code == 200 and spanish["Content-Type"].startswith("text/javascript")
    assert '"time left %s": "quedan %s"' in spanish.content.decode()
    assert "max-age=86400" in spanish["Cache-Control"]
    english = client.get(reverse("javascript-catalog", args=["en"]), HTTP_ACCEPT_LANGUAGE="es")
    assert "quedan" not in english.content.decode()
    assert client.get(reverse("javascript-catalog", args=["xx"])).status_code == 200


def test_the_javascript_catalogue_needs_no_cache_server(client, settings):
    """The pages' scripts get their words while Redis is down: the catalogue is not kept in the cache."""
    from django.core.cache import caches

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": "redis://127.0.0.1:9/0"}}  # nothing listens there
    with pytest.raises(Exception):  # noqa: B017 (whatever the client raises: the cache is down)
        caches["default"].get("anything")
    response = client.get(reverse("javascript-catalog", args=["es"]))
    assert response.status_code == 200 and "quedan" in response.content.decode()


def test_every_page_loads_the_catalogue_of_its_language_before_its_scripts(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    catalogue = page.index(f'<script src="{reverse("javascript-catalog", args=["es"])}?v=')  # versioned
    assert catalogue < page.index("js/site_menu.js") and catalogue < page.index("js/countdown.js")


# --- the catalogues: complete, not fuzzy, compiled ---------------------------------------------------

@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.name)
def test_no_spanish_string_is_fuzzy_or_empty(path):
    catalogue = polib.pofile(str(path))
    assert not catalogue.metadata_is_fuzzy, f"{path.name}: the header is fuzzy (msgfmt would ignore it)"
    fuzzy = [entry.msgid for entry in catalogue if "fuzzy" in entry.flags and not entry.obsolete]
    empty = [entry.msgid for entry in catalogue if not entry.obsolete and (
        not all(entry.msgstr_plural.values()) if entry.msgid_plural else not entry.msgstr)]
    assert not fuzzy, f"{path.name}: fuzzy entries {fuzzy}"
    assert not empty, f"{path.name}: untranslated entries {empty}"
    assert catalogue.metadata["Language"] == "es" and "nplurals=" in catalogue.metadata["Plural-Forms"]


def test_the_catalogue_check_sees_a_fuzzy_or_empty_entry(tmp_path):
    """The check above fails on bad catalogues, not only passes on good ones."""
    broken = polib.pofile(str(CATALOGUES[0]))
    broken[0].flags.append("fuzzy")
    broken[1].msgstr = ""
    broken.save(str(tmp_path / "django.po"))
    with pytest.raises(AssertionError, match="fuzzy entries"):
        test_no_spanish_string_is_fuzzy_or_empty(tmp_path / "django.po")
    broken[0].flags.remove("fuzzy")
    broken.save(str(tmp_path / "django.po"))
    with pytest.raises(AssertionError, match="untranslated entries"):
        test_no_spanish_string_is_fuzzy_or_empty(tmp_path / "django.po")


def msgids(path: Path) -> set[tuple[str | None, str]]:
    return {(entry.msgctxt, entry.msgid) for entry in polib.pofile(str(path)) if not entry.obsolete}


def source_copy(target: Path) -> Path:
    """The files makemessages reads (Python, templates, scripts) and the catalogues, copied to
    `target`: makemessages writes into the `locale` folder beside the files it reads, so it runs on a
    copy and the real catalogues stay untouched."""
    skip = {".git", *MAKEMESSAGES_IGNORE}
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in skip]
        for name in files:
            if name.endswith((".py", ".html", ".txt", ".js", ".po")):
                source = Path(folder) / name
                copy = target / source.relative_to(ROOT)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, copy)
    return target


def test_makemessages_finds_no_string_the_catalogues_lack(tmp_path, monkeypatch, settings):
    """makemessages, run on a copy of the sources, extracts exactly the msgids the committed
    catalogues have: a new {% translate %} or gettext() without its Spanish fails here, and so does a
    string left in a catalogue after its code went."""
    if not shutil.which("xgettext"):
        if os.environ.get("CI") == "true":
            pytest.fail("GNU gettext (xgettext) is needed by makemessages: apt-get install gettext")
        pytest.skip("GNU gettext (xgettext) is not installed: makemessages cannot run")
    copy = source_copy(tmp_path / "site")
    settings.LOCALE_PATHS = [copy / "locale"]
    monkeypatch.chdir(copy)
    for domain in ("django", "djangojs"):
        call_command("makemessages", locale=["es"], domain=domain, ignore_patterns=MAKEMESSAGES_IGNORE,
                     no_obsolete=True, verbosity=0)
        extracted = msgids(copy / "locale" / "es" / "LC_MESSAGES" / f"{domain}.po")
        committed = msgids(LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po")
        assert not extracted - committed, f"{domain}.po lacks (run makemessages, translate): {sorted(extracted - committed)}"
        assert not committed - extracted, f"{domain}.po has strings no code uses any more: {sorted(committed - extracted)}"


def test_the_makemessages_check_sees_a_string_without_its_spanish(tmp_path, monkeypatch, settings):
    """A template string the catalogue lacks makes the check above fail."""
    if not shutil.which("xgettext"):
        pytest.skip("GNU gettext (xgettext) is not installed: makemessages cannot run")
    copy = source_copy(tmp_path / "site")
    with (copy / "templates" / "home.html").open("a") as home:
        home.write('{% translate "A sentence nobody translated" %}\n')
    settings.LOCALE_PATHS = [copy / "locale"]
    monkeypatch.chdir(copy)
    call_command("makemessages", locale=["es"], domain="django", ignore_patterns=MAKEMESSAGES_IGNORE,
                 no_obsolete=True, verbosity=0)
    extracted = msgids(copy / "locale" / "es" / "LC_MESSAGES" / "django.po")
    assert extracted - msgids(CATALOGUES[0]) == {(None, "A sentence nobody translated")}


def test_the_compiled_catalogues_are_current(client):
    for po in CATALOGUES:
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime, \
            f"{mo.name} is missing or older than {po.name}: run .venv/bin/python manage.py compile_translations"


def test_compiling_without_gettext_gives_the_same_catalogue_as_msgfmt(tmp_path):
    """The pure-Python fallback (polib) for a machine without GNU gettext: plurals, contexts and
    every string read back as msgfmt's file has them."""
    from westeros.management.commands.compile_translations import compile_with_polib

    po = tmp_path / "django.po"
    shutil.copy(CATALOGUES[0], po)
    compile_with_polib(po)
    with (tmp_path / "django.mo").open("rb") as handle:
        pure = gettext.GNUTranslations(handle)
    assert pure.ngettext("%(count)d player", "%(count)d players", 1) == "%(count)d jugador"
    assert pure.ngettext("%(count)d player", "%(count)d players", 4) == "%(count)d jugadores"
    assert pure.pgettext("navigation", "Main") == "Principal"
    assert pure.gettext("Take the Iron Throne") == "Conquista el Trono de Hierro"
    if shutil.which("msgfmt"):
        subprocess.run(["msgfmt", "-o", str(tmp_path / "msgfmt.mo"), str(po)], check=True)
        with (tmp_path / "msgfmt.mo").open("rb") as handle:
            reference = gettext.GNUTranslations(handle)
        # msgfmt leaves the header's POT-Creation-Date out; every string is the same
        header = pure._catalog.pop("")
        assert reference._catalog.pop("").split("Plural-Forms:")[1] == header.split("Plural-Forms:")[1]
        assert pure._catalog == reference._catalog
