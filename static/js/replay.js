/* Replay of a finished game: /games/<id>/replay/<step>.json gives the view after each action (the
   server rebuilds it from the published seed and actions) with that step's log entry. */
(function () {
  "use strict";
  const W = window.Westeros;
  const root = document.getElementById("replay");
  const steps = parseInt(root.dataset.steps, 10);
  const svg = document.getElementById("board");
  const range = document.getElementById("replay-range");
  let step = 0;
  async function show(n) {
    step = Math.max(0, Math.min(steps, n));
    range.value = step;
    const as = document.getElementById("replay-as").value;
    const r = await fetch(`/games/${root.dataset.game}/replay/${step}.json?as=${encodeURIComponent(as)}`, { credentials: "same-origin" });
    const data = await r.json();
    if (!svg) return showSummary(data);  // a ruleset without a board drawing (B'Twixt)
    const v = data.view;
    W.drawBoard(svg, v, data.seat, {});
    document.getElementById("replay-pos").textContent = `Step ${step} of ${steps} · round ${v.round} · ${v.phase}`;
    const box = document.getElementById("replay-entry");
    box.replaceChildren();
    if (data.entry) {
      const p = document.createElement("p"); p.textContent = `${W.cap(data.entry.seat)} (${data.entry.source})`; box.append(p);
      for (const ev of data.entry.events) { const li = document.createElement("div"); li.className = "log-event"; li.textContent = W.describeEvent(ev); box.append(li); }
    } else box.textContent = "The game as it started.";
    const table = document.createElement("table");
    table.className = "small";
    table.innerHTML = "<thead><tr><th>House</th><th>Castles</th><th>Supply</th><th>Power</th><th>Throne</th></tr></thead>";
    const body = table.createTBody();
    for (const house of v.seats) {
      const row = body.insertRow();
      [W.cap(house), v.victory[house], v.supply[house], v.power[house], v.tracks.iron_throne.indexOf(house) + 1]
        .forEach((x) => { row.insertCell().textContent = x; });
    }
    box.append(table);
  }
  function showEntry(box, data) {
    box.replaceChildren();
    if (!data.entry) { box.textContent = "The game as it started."; return; }
    const p = document.createElement("p"); p.textContent = `${data.entry.seat} (${data.entry.source})`; box.append(p);
    for (const ev of data.entry.events) {
      const li = document.createElement("div"); li.className = "log-event"; li.textContent = JSON.stringify(ev); box.append(li);
    }
  }
  function showSummary(data) {
    // The referee summary as the chosen viewer may see it (SCENARIOS.md): hidden parts read "hidden".
    const s = data.summary;
    document.getElementById("replay-pos").textContent = `Step ${step} of ${steps} · ${s.season || ""} round ${s.round || ""} · ${s.step || ""}`;
    document.getElementById("replay-summary").textContent = JSON.stringify(s, null, 1);
    showEntry(document.getElementById("replay-entry"), data);
  }
  root.querySelector(".replay-controls").addEventListener("click", (e) => {
    const b = e.target.closest("button"); if (!b) return;
    show({ first: 0, prev: step - 1, next: step + 1, last: steps }[b.dataset.step]);
  });
  range.addEventListener("change", () => show(parseInt(range.value, 10)));
  document.getElementById("replay-as").addEventListener("change", () => show(step));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight" && e.target === document.body) show(step + 1); if (e.key === "ArrowLeft" && e.target === document.body) show(step - 1); });
  if (!svg) { show(0); return; }
  W.loadBoard(root.dataset.boardUrl).then(() => { W.enablePanZoom(svg, root.querySelector(".zoom-bar")); show(0); });
})();
