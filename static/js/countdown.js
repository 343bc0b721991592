/* Counts down every [data-deadline] (an ISO date) on the page, once a second. Pages that redraw
   deadlines call window.tickDeadlines() to show the new ones at once.
   When a deadline shown on the page passes, a "westeros:deadline" event is sent on window (once per
   deadline): the server applies the default within a couple of seconds, and the game pages re-fetch
   then, so a page never keeps asking for a decision already taken, even if a live update is lost. */
(function () {
  "use strict";
  // the words in the page's language: the catalogue base.html loads first (/jsi18n/<language>/, djangojs.po)
  const gettext = window.gettext || ((text) => text), interpolate = window.interpolate || ((text, values) => text.replace("%s", values[0]));
  const passed = new Set();  // deadlines already announced
  function tick() {
    for (const node of document.querySelectorAll("[data-deadline]")) {
      const due = Date.parse(node.dataset.deadline);
      if (Number.isNaN(due)) continue;
      const left = Math.max(0, Math.round((due - Date.now()) / 1000));
      const d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      const clock = (d ? interpolate(gettext("%sd"), [d]) + " " : "") + [h, m, s].map((n) => String(n).padStart(2, "0")).join(":");
      node.textContent = left ? interpolate(gettext("time left %s"), [clock]) : gettext("time is up");
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

/* The players' clocks of a game with a clock (docs/clocks.md): a line under the page's title shows
   every player's time bank; the running ones (a decision pending) count down to their
   `runs_out_at`. turn.js calls WesterosClock.update(game) after each load of the game, with the
   API's GET /api/v1/games/<id>; a game without a clock shows nothing. */
(function () {
  "use strict";
  const passed = new Set();
  function words(seconds) {
    const left = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(s).padStart(2, "0");
  }
  function line() {
    let node = document.getElementById("clocks");
    if (node) return node;
    const after = document.querySelector("#game .status-line");
    if (!after) return null;
    node = document.createElement("p");
    node.id = "clocks"; node.className = "clocks"; node.setAttribute("aria-label", "The players' clocks");
    after.after(node);
    return node;
  }
  function tick() {
    for (const node of document.querySelectorAll("[data-clock-end]")) {
      const left = Math.max(0, (Date.parse(node.dataset.clockEnd) - Date.now()) / 1000);
      node.textContent = words(left);
      node.closest(".clock").classList.toggle("urgent", left < 30);
      if (!left && !passed.has(node.dataset.clockEnd)) {  // the server applies the default: re-fetch then
        passed.add(node.dataset.clockEnd);
        window.dispatchEvent(new CustomEvent("westeros:deadline", { detail: node.dataset.clockEnd }));
      }
    }
  }
  /* One player's clock: {name, remaining, running, runs_out_at?}; `running` without `runs_out_at`
     (a replay's step) is shown still. */
  function clockNode(c) {
    const span = document.createElement("span");
    span.className = "clock" + (c.running ? " running" : "") + (c.remaining < 30 ? " urgent" : "");
    const time = document.createElement("b");
    time.textContent = words(c.remaining);
    if (c.running && c.runs_out_at) time.dataset.clockEnd = c.runs_out_at;
    span.append(c.running ? "▶ " : "", c.name + " ", time);
    span.title = c.running ? c.name + "'s clock is running: a decision is pending" : c.name + "'s clock is stopped";
    return span;
  }
  function show(node, clocks, label) {
    if (!node) return;
    node.hidden = !clocks || !clocks.length;
    if (node.hidden) { node.replaceChildren(); return; }
    node.replaceChildren(label, ...clocks.flatMap((c, i) => (i ? [" · ", clockNode(c)] : [clockNode(c)])));
    tick();
  }
  function update(game) {
    // a clocked game has no one-time extension (the server refuses it): its button is hidden (board.css)
    const root = document.getElementById("game");
    if (root) root.classList.toggle("clocked", Boolean(game && game.clock));
    if (!game || !game.clock) { const node = document.getElementById("clocks"); if (node) node.hidden = true; return; }
    const rows = (game.seats || []).filter((row) => row.clock);
    show(line(), rows.map((row) => ({ name: row.user ? row.user + (row.is_bot ? " (the computer plays)" : "") : "the computer", ...row.clock,
                                      running: row.clock.running && game.status === "active" })),
         game.paused_at ? "Clocks (paused): " : "Clocks: ");
  }
  window.WesterosClock = { update, show, words };
  setInterval(tick, 1000);
})();
