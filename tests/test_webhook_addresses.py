"""Webhook URLs on private addresses are refused when saved (form and API) and when sent; sending
resolves the name once and connects to the address it checked (no DNS rebinding), with the Host
header and the TLS certificate check still for the name (issue 14). No network: DNS is a fake
getaddrinfo, servers run on 127.0.0.1."""
from __future__ import annotations

import json
import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.urls import reverse

from notifications import services
from notifications.forms import NotificationSettingsForm
from notifications.models import NotificationSettings
from tests.factories import api_client_for, make_user

pytestmark = pytest.mark.django_db

PUBLIC = "93.184.215.14"
PRIVATE_URLS = [
    "http://127.0.0.1/hook", "http://127.0.0.1:8000/hook", "http://localhost/hook", "http://LOCALHOST:80/",
    "http://api.localhost/", "http://[::1]/hook", "http://0.0.0.0/hook", "http://[::]/", "http://10.0.0.1/hook",
    "https://169.254.169.254/latest/meta-data/", "http://192.168.1.10/", "http://172.16.5.4/", "http://100.64.0.1/",
    "http://224.0.0.1/", "http://240.0.0.1/", "http://255.255.255.255/", "http://[fe80::1]/", "http://[fc00::1]/",
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:10.0.0.1]/", "http://[2002:7f00:1::]/", "http://[ff02::1]/",
    "http://internal.example/hook",  # resolves (fake DNS) to a private address
    "http://mixed.example/hook",  # resolves to a public and a private address
]


@pytest.fixture
def fake_dns(monkeypatch):
    """getaddrinfo for a few names; every other name falls through to the real resolver."""
    real = socket.getaddrinfo
    table: dict[str, list[str]] = {
        "hooks.example": [PUBLIC], "internal.example": ["10.1.2.3"], "mixed.example": [PUBLIC, "192.168.0.7"],
    }
    calls: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host in table:
            calls.append(host)
            answer = table[host]
            if isinstance(answer, list) and answer and isinstance(answer[0], list):  # a sequence of answers
                answer = answer.pop(0) if len(answer) > 1 else answer[0]
            return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                    for a in answer]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    getaddrinfo.table, getaddrinfo.calls = table, calls
    return getaddrinfo


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_private_addresses_are_refused_by_the_api_when_saved(fake_dns, url):
    user = make_user()
    response = api_client_for(user).put(reverse("api-my-notifications"), {"webhook_url": url}, format="json")
    assert response.status_code == 400, (url, response.content)
    assert "webhook_url" in response.json()["fields"]
    assert not NotificationSettings.objects.filter(user=user).exclude(webhook_url="").exists()


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_private_addresses_are_refused_by_the_form(fake_dns, url):
    form = NotificationSettingsForm(data={"webhook_url": url})
    assert not form.is_valid() and "webhook_url" in form.errors, url


def test_the_settings_page_refuses_a_private_address(fake_dns, client):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("notification-settings"), {"webhook_url": "http://169.254.169.254/"})
    assert response.status_code == 400
    assert not NotificationSettings.objects.filter(user=user).exclude(webhook_url="").exists()


def test_a_decimal_ipv4_is_resolved_like_any_name_and_refused(client):
    form = NotificationSettingsForm(data={"webhook_url": "http://2130706433/"})
    assert not form.is_valid()
    with pytest.raises(Exception, match="public address"):
        services.validate_webhook_url("http://2130706433/")


@pytest.mark.parametrize("url", ["https://hooks.example/api/webhooks/1/x", f"http://{PUBLIC}:8080/hook",
                                 "https://[2606:4700::1111]/hook", "https://does-not-resolve.invalid/hook"])
def test_public_and_unresolvable_names_are_accepted_when_saved(fake_dns, url):
    """An unresolvable name may be new or DNS may be down: it is checked again when sending."""
    user = make_user()
    response = api_client_for(user).put(reverse("api-my-notifications"), {"webhook_url": url}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["webhook_url"] == url
    assert NotificationSettingsForm(data={"webhook_url": url}).is_valid()


def test_a_resolver_that_does_not_answer_does_not_hold_the_request(monkeypatch, settings):
    """Saving waits NOTIFY_WEBHOOK_CHECK_RESOLVE_SECONDS for the name, not the resolver's own timeout (5 s and
    more a try): a name not resolved by then is saved, to be checked when sending, as an unresolvable one.
    The resolver here answers only once the request is over (or after 60 s): had the request waited for it,
    it would have answered first."""
    settings.NOTIFY_WEBHOOK_CHECK_RESOLVE_SECONDS = 0.05
    release, answered = threading.Event(), []

    def silent(host, port, *args, **kwargs):
        release.wait(60)
        answered.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port))]

    user = make_user()
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo",
                        lambda host, *a, **k: silent(host, *a, **k) if host == "slow.example" else real(host, *a, **k))
    try:
        response = api_client_for(user).put(reverse("api-my-notifications"), {"webhook_url": "https://slow.example/h"},
                                            format="json")
        assert answered == [], "the request waited for the resolver"
    finally:
        release.set()
    assert response.status_code == 200 and response.json()["webhook_url"] == "https://slow.example/h"


def test_private_addresses_are_allowed_when_the_setting_says_so(settings):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = True
    services.validate_webhook_url("http://127.0.0.1:9999/hook")


# --- sending -----------------------------------------------------------------------------------------

class Receiver:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.requests: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append({"path": self.path, "host": self.headers["Host"], "body": json.loads(body)})
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


def test_a_local_server_is_refused_when_sending(receiver, settings):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = False
    assert services.post_webhook(f"http://127.0.0.1:{receiver.port}/hook", "hi") == "the address is not public"
    assert services.post_webhook(f"http://localhost:{receiver.port}/hook", "hi") == "the address is not public"
    assert receiver.requests == []


def test_sending_connects_to_the_address_it_checked_never_resolving_again(fake_dns, receiver, monkeypatch, settings):
    """DNS rebinding: the name is public for the check, then 127.0.0.1. Sending resolves once and
    connects to the first answer; here the connection to that public address is diverted to the
    local receiver, which shows the Host header still names the host."""
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = False
    fake_dns.table["rebind.example"] = [[PUBLIC], ["127.0.0.1"]]  # first answer, then every later one
    connected: list[tuple[str, int]] = []
    real_connect = socket.create_connection

    def create_connection(address, *args, **kwargs):
        connected.append(address)
        if address[0] == PUBLIC:
            return real_connect(("127.0.0.1", receiver.port), *args, **kwargs)
        return real_connect(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    assert services.post_webhook(f"http://rebind.example:{receiver.port}/hook?x=1", "hello") is None
    assert connected == [(PUBLIC, receiver.port)]
    assert fake_dns.calls == ["rebind.example"]  # resolved once
    assert receiver.requests == [{"path": "/hook?x=1", "host": f"rebind.example:{receiver.port}",
                                  "body": services.webhook_body("hello")}]
    # the next delivery resolves again and now gets 127.0.0.1: refused, nothing connected
    assert services.post_webhook(f"http://rebind.example:{receiver.port}/hook", "again") == "the address is not public"
    assert connected == [(PUBLIC, receiver.port)] and len(receiver.requests) == 1


def test_a_name_with_any_private_address_is_refused_when_sending(fake_dns, monkeypatch, settings):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = False
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("must not connect"))
    assert services.post_webhook("http://mixed.example/hook", "x") == "the address is not public"
    assert services.post_webhook("http://internal.example/hook", "x") == "the address is not public"
    assert services.post_webhook("http://does-not-resolve.invalid/hook", "x").startswith("the host does not resolve")


def test_a_redirect_is_not_followed(settings):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = True
    hits: list[str] = []

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            hits.append(self.path)
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.1:1/elsewhere")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert services.post_webhook(f"http://127.0.0.1:{server.server_port}/hook", "x") == "HTTP 307"
        assert hits == ["/hook"]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for hooks.example (openssl from the system)."""
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    result = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
         "-days", "2", "-subj", "/CN=hooks.example", "-addext", "subjectAltName=DNS:hooks.example"],
        capture_output=True, check=False)
    if result.returncode != 0:
        pytest.skip(f"openssl could not make a certificate: {result.stderr[-200:]!r}")
    return key, cert


def test_https_connects_to_the_pinned_address_and_verifies_the_certificate_for_the_name(
        fake_dns, certificate, monkeypatch, settings):
    settings.NOTIFY_WEBHOOK_ALLOW_PRIVATE = False
    key, cert = certificate
    server_tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_tls.load_cert_chain(cert, key)
    receiver = Receiver(tls=server_tls)
    real_connect = socket.create_connection
    connected: list[tuple[str, int]] = []

    def create_connection(address, *args, **kwargs):
        connected.append(address)
        return real_connect(("127.0.0.1", receiver.port), *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    try:
        trusting = ssl.create_default_context(cafile=str(cert))  # trusts this certificate, still checks names
        url = f"https://hooks.example:{receiver.port}/hook"
        assert services.post_webhook(url, "over tls", context=trusting) is None
        assert connected == [(PUBLIC, receiver.port)]
        assert receiver.requests[0]["host"] == f"hooks.example:{receiver.port}"
        # the certificate names hooks.example: another name pinned to the same server fails the check
        fake_dns.table["other.example"] = [PUBLIC]
        error = services.post_webhook(f"https://other.example:{receiver.port}/hook", "x", context=trusting)
        assert error == "SSLCertVerificationError", error
        # and with the default trust store the self-signed certificate is refused
        assert services.post_webhook(url, "x") == "SSLCertVerificationError"
        assert len(receiver.requests) == 1
    finally:
        receiver.close()


@pytest.mark.parametrize(("address", "public"), [
    ("8.8.8.8", True), ("2606:4700::1111", True), (PUBLIC, True), ("127.0.0.1", False), ("10.0.0.1", False),
    ("169.254.169.254", False), ("0.0.0.0", False), ("::", False), ("::1", False), ("224.0.0.1", False),
    ("240.0.0.1", False), ("100.64.0.1", False), ("::ffff:127.0.0.1", False), ("::ffff:8.8.8.8", False),
    ("2002:7f00:1::", False), ("fe80::1%eth0", False), ("not an address", False),
])
def test_which_addresses_are_public(address, public):
    assert services.is_public_address(address) is public
