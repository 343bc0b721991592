/* The new-lobby form shows the options of the chosen game only. The lobby page follows the lobby:
   it reloads when someone joins or leaves, and a member goes to the game as soon as it starts.
   Polls GET /api/v1/lobbies/<id> every few seconds. */
(function () {
  "use strict";
  // The new-lobby form: only the options of the chosen game show (all show without JavaScript).
  const ruleset = document.getElementById("ruleset");
  if (ruleset) {
    const follow = () => {
      for (const box of document.querySelectorAll(".ruleset-options, .ruleset-word")) box.hidden = box.dataset.ruleset !== ruleset.value;
      // fields another game has no use for (two-player games: no Players field; the card game: no houses)
      for (const field of document.querySelectorAll(".not-for")) field.hidden = field.dataset.hide.split(" ").includes(ruleset.value);
      // the card game's joust (its own Players field at 2): no other player to name (the challenge page)
      const lcgSeats = document.getElementById("id_lcg_seats");
      if (ruleset.value === "lcg" && lcgSeats && lcgSeats.value === "2") for (const field of document.querySelectorAll("[data-joust-hide]")) field.hidden = true;
      for (const sep of document.querySelectorAll(".ruleset-sep")) sep.hidden = true;
      // "Houses" or "Leaders": the word of the chosen game, with a capital
      for (const word of document.querySelectorAll(".ruleset-word:not([hidden])")) word.textContent = word.textContent.replace(/^./, (c) => c.toUpperCase());
    };
    ruleset.addEventListener("change", follow);
    const lcgSeats = document.getElementById("id_lcg_seats");
    if (lcgSeats) lcgSeats.addEventListener("change", follow);
    follow();
  }
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
