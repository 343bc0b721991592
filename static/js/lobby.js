/* The lobby page follows the lobby: it reloads when someone joins or leaves, and a member goes to
   the game as soon as it starts. Polls GET /api/v1/lobbies/<id> every few seconds. */
(function () {
  "use strict";
  const root = document.getElementById("lobby");
  if (!root || root.dataset.status !== "open") return;
  const invite = root.dataset.invite ? "?invite=" + encodeURIComponent(root.dataset.invite) : "";
  const known = root.dataset.members;
  async function poll() {
    try {
      const r = await fetch(`/api/v1/lobbies/${root.dataset.lobby}${invite}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (r.ok) {
        const lobby = await r.json();
        if (lobby.game && root.dataset.member) { location.href = `/games/${lobby.game}/`; return; }
        const now = lobby.members.map((m) => m.user + ":" + m.seat).join(",");
        if (now !== known || lobby.status !== "open") { location.reload(); return; }
      }
    } catch (e) { /* offline for a moment: try again */ }
    setTimeout(poll, 3000);
  }
  setTimeout(poll, 3000);
})();
