/* Counts down every [data-deadline] (an ISO date) on the page, once a second. Pages that redraw
   deadlines call window.tickDeadlines() to show the new ones at once. */
(function () {
  "use strict";
  function tick() {
    for (const node of document.querySelectorAll("[data-deadline]")) {
      const left = Math.max(0, Math.round((Date.parse(node.dataset.deadline) - Date.now()) / 1000));
      if (Number.isNaN(left)) continue;
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      node.textContent = "time left " + (d ? d + "d " : "") + [h, m, s].map((n) => String(n).padStart(2, "0")).join(":");
      node.classList.toggle("urgent", left < 300);
    }
  }
  window.tickDeadlines = tick;
  tick();
  setInterval(tick, 1000);
})();
