"""The game page's socket reconnects after a random wait (issue 28): static/js/gameclient.js's
connectLive waits between 0 and the current backoff (1 s, doubled after each failed attempt, 30 s
at most) before it tries again, so that sockets closed in the same second do not all come back in
the same second. The script runs in Chromium on an empty page, with a WebSocket that closes as soon
as it is made and a setTimeout that writes down each wait (then runs the call at once): no server.
Before it, as on every page (templates/base.html), the scripts' English catalogue (issue 29)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.browser

GAMECLIENT = Path(__file__).resolve().parents[2] / "static" / "js" / "gameclient.js"
SOCKETS, ATTEMPTS = 20, 9

# Every socket the page makes closes at once. setTimeout, called while a socket closes, writes the
# wait down under that socket's address and reconnects at once, until the socket has made ATTEMPTS.
FAILING_SOCKETS = """
window.__waits = {};
const realTimeout = window.setTimeout.bind(window);
let closing = null;
window.WebSocket = class {
  constructor(url) {
    queueMicrotask(() => { closing = url; try { this.onclose({code: 1006}); } finally { closing = null; } });
  }
  close() {}
};
window.setTimeout = (fn, wait, ...args) => {
  if (closing === null) return realTimeout(fn, wait, ...args);
  const waits = (window.__waits[closing] ||= []);
  waits.push(wait);
  if (waits.length < ATTEMPTS) realTimeout(fn, 0);
  return 0;
};
""".replace("ATTEMPTS", str(ATTEMPTS))
START_SOCKETS = """count => {
  for (let n = 0; n < count; n++)
    WesterosClient.connectLive({path: `/ws/games/${n}/`, status: document.getElementById("conn"),
                                version: () => 0, load: () => {}});
}"""


def test_reconnection_waits_are_random_up_to_a_doubling_backoff(new_page):
    page = new_page(390, 700)
    page.set_content('<!doctype html><html><body><span id="conn"></span></body></html>')
    page.add_script_tag(content=Client().get("/jsi18n/en/").content.decode())
    page.add_script_tag(content=FAILING_SOCKETS)
    page.add_script_tag(content=GAMECLIENT.read_text())
    page.evaluate(START_SOCKETS, SOCKETS)
    page.wait_for_function(f"Object.values(window.__waits).filter(w => w.length === {ATTEMPTS}).length === {SOCKETS}")
    waits = list(page.evaluate("window.__waits").values())

    assert len(waits) == SOCKETS and all(len(socket) == ATTEMPTS for socket in waits), waits
    ceilings = [min(1000 * 2 ** n, 30000) for n in range(ATTEMPTS)]  # 1, 2, 4, 8, 16, then 30 s
    for socket in waits:
        assert all(0 <= wait <= ceiling for wait, ceiling in zip(socket, ceilings, strict=True)), socket
    # Spread, not the same second for everyone: the first waits of 20 sockets cover much of 0-1 s
    # (all within 0.3 s of each other has a chance below 1 in 10^8), and no two sockets wait alike.
    first = [socket[0] for socket in waits]
    assert max(first) - min(first) > 300, first
    assert len({tuple(socket) for socket in waits}) == SOCKETS
    # The backoff grows to 30 s and stays there: late waits go past 16 s (the cap is 30, not 16), and
    # the doubling goes on (waits over 1 s appear after the first attempts).
    late = [wait for socket in waits for wait in socket[5:]]
    assert max(late) > 16000, late
    assert max(wait for socket in waits for wait in socket[1:]) > 1000
    assert page.text_content("#conn") == "reconnecting…"
