// Challenges you sent or accepted (templates/challenges/list.html): when everyone has accepted, go
// to the game; when one ends otherwise (declined, canceled, expired), show it. Polls
// GET /api/v1/challenges/<id>.
(function () {
  "use strict";
  const followed = [...document.querySelectorAll(".follow[data-challenge]")].map((li) => li.dataset.challenge);
  if (!followed.length) return;
  async function poll() {
    for (const id of followed) {
      try {
        const r = await fetch(`/api/v1/challenges/${id}`, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!r.ok) continue;
        const challenge = await r.json();
        if (challenge.game) { location.href = `/games/${challenge.game}/`; return; }
        if (challenge.status !== "pending") { location.reload(); return; }
      } catch (e) { /* offline for a moment: try again */ }
    }
    setTimeout(poll, 3000);
  }
  setTimeout(poll, 3000);
})();
