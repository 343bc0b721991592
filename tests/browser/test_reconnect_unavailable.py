"""After a close with 4503 (the server's "a service I need is down, try again": westeros/outages.py)
the game page's socket tries again soon (issue 28): static/js/gameclient.js waits a random 0.5-1.5 s,
five times, without growing its back-off; then, the outage lasting, the usual full-jitter back-off
(up to 1 s, 2 s, 4 s...). A socket that opens starts again from the short waits. As in
test_reconnect_jitter.py: Chromium on an empty page, a WebSocket stand-in, a setTimeout that writes
each wait down and runs the call at once; no server."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

pytestmark = pytest.mark.browser

GAMECLIENT = Path(__file__).resolve().parents[2] / "static" / "js" / "gameclient.js"
SOCKETS, ATTEMPTS = 10, 9

# Each socket closes with 4503 at once, except the 7th attempt of every page, which opens and then
# closes with 4503: what comes after it starts again from the short waits.
UNAVAILABLE_SOCKETS = """
window.__waits = {};
window.__made = {};
const realTimeout = window.setTimeout.bind(window);
let closing = null;
window.WebSocket = class {
  constructor(url) {
    const n = (window.__made[url] = (window.__made[url] || 0) + 1);
    queueMicrotask(() => {
      if (n === 7) this.onopen();
      closing = url; try { this.onclose({code: 4503}); } finally { closing = null; }
    });
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


def test_a_4503_close_is_tried_again_within_a_second_and_a_half(new_page):
    page = new_page(390, 700)
    page.set_content('<!doctype html><html><body><span id="conn"></span></body></html>')
    page.add_script_tag(content=Client().get("/jsi18n/en/").content.decode())
    page.add_script_tag(content=UNAVAILABLE_SOCKETS)
    page.add_script_tag(content=GAMECLIENT.read_text())
    page.evaluate(START_SOCKETS, SOCKETS)
    page.wait_for_function(f"Object.values(window.__waits).filter(w => w.length === {ATTEMPTS}).length === {SOCKETS}")
    waits = list(page.evaluate("window.__waits").values())

    assert len(waits) == SOCKETS and all(len(socket) == ATTEMPTS for socket in waits), waits
    for socket in waits:
        # five short waits, then the back-off (its first ceiling 1 s: it never grew meanwhile)
        assert all(500 <= wait <= 1500 for wait in socket[:5]), socket
        assert 0 <= socket[5] <= 1000, socket
        # the 7th socket opened: short waits again
        assert all(500 <= wait <= 1500 for wait in socket[6:]), socket
    # still random: not every socket waits alike
    assert len({tuple(socket) for socket in waits}) == SOCKETS
    assert page.text_content("#conn") == "reconnecting…"
