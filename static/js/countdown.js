/* Counts down every [data-deadline] (an ISO date) on the page, once a second. Pages that redraw
   deadlines call window.tickDeadlines() to show the new ones at once.
   When a deadline shown on the page passes, a "westeros:deadline" event is sent on window (once per
   deadline): the server applies the default within a couple of seconds, and the game pages re-fetch
   then, so a page never keeps asking for a decision already taken, even if a live update is lost. */
(function () {
  "use strict";
  const passed = new Set();  // deadlines already announced
  function tick() {
    for (const node of document.querySelectorAll("[data-deadline]")) {
      const due = Date.parse(node.dataset.deadline);
      if (Number.isNaN(due)) continue;
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      node.textContent = left ? "time left " + (d ? d + "d " : "") + [h, m, s].map((n) => String(n).padStart(2, "0")).join(":")
                              : "time is up";
      node.classList.toggle("urgent", left < 300);
      if (!left && !passed.has(node.dataset.deadline)) {
        passed.add(node.dataset.deadline);
        window.dispatchEvent(new CustomEvent("westeros:deadline", { detail: node.dataset.deadline }));
      }
    }
  }
  window.tickDeadlines = tick;
  tick();
  setInterval(tick, 1000);
})();
