/* Replay of a finished game: /games/<id>/replay/<step>.json gives the view after each action (the
   server rebuilds it from the published seed and actions) with that step's log entry. AGoT draws
   the board (board.js); B'Twixt draws the table as its game page does (BtwixtTable, btwixt.js). */
(function () {
  "use strict";
  const root = document.getElementById("replay");
  const steps = parseInt(root.dataset.steps, 10);
  const range = document.getElementById("replay-range");
  const BT = root.dataset.ruleset === "btwixt" ? window.BtwixtTable : null;
  const CARDS = BT ? JSON.parse(document.getElementById("btwixt-cards").textContent) : null;
  const LCG = root.dataset.ruleset === "lcg" ? window.LcgTable : null;
  const MN = root.dataset.ruleset === "minis" ? window.MinisTable : null;
  const W = BT || LCG || MN ? null : window.Westeros;
  const svg = document.getElementById("board");
  const SOURCE = { player: "", bot: " " + gettext("(bot)"), timeout: " " + gettext("(time ran out: the default was applied)") };
  const PHASES = { planning: gettext("Planning phase"), action: gettext("Action phase"), westeros: gettext("Westeros phase"),
    over: gettext("the game is over") };
  let step = 0;
  let showing = 0;   // the latest request: an older answer arriving late is dropped

  async function show(n) {
    step = Math.max(0, Math.min(steps, n));
    range.value = step;
    const asked = ++showing;
    const as = document.getElementById("replay-as").value;
    const r = await fetch(`/games/${root.dataset.game}/replay/${step}.json?as=${encodeURIComponent(as)}`, { credentials: "same-origin" });
    const data = await r.json().catch(() => ({}));
    if (asked !== showing) return;
    if (!r.ok) {   // a step that cannot be shown: the server's reason, in words
      document.getElementById("replay-pos").textContent = data.detail || interpolate(gettext("This step could not be loaded (%(status)s)."), { status: r.status }, true);
      return;
    }
    if (MN) MN.showReplayStep(data, step, steps); else if (LCG) LCG.showReplayStep(data, step, steps); else if (BT) showTable(data); else showBoard(data);
    // a clocked game: every player's clock as it was after this step (countdown.js)
    window.WesterosClock.show(document.getElementById("replay-clocks"), data.clocks, gettext("Clocks at this step: "));
  }

  function showBoard(data) {
    const v = data.view;
    W.drawBoard(svg, v, data.seat, {});
    document.getElementById("replay-pos").textContent = interpolate(gettext("Step %(step)s of %(steps)s · round %(round)s · %(phase)s"),
      { step, steps, round: v.round, phase: PHASES[v.phase] || v.phase }, true);
    const box = document.getElementById("replay-entry");
    box.replaceChildren();
    if (data.entry) {
      const p = document.createElement("p"); p.textContent = `${W.cap(data.entry.seat)}${SOURCE[data.entry.source] ?? ""}`; box.append(p);
      // the step in words (the server narrates each event this viewer may see, as in the game's log)
      const list = document.createElement("ul"); list.className = "replay-lines";
      const lines = data.entry.lines || data.entry.events.map((ev) => ({ text: W.describeEvent(ev) }));
      for (const line of lines) {
        const li = document.createElement("li"); li.className = "log-event" + (line.private ? " private" : "");
        for (const p of line.parts || [{ text: line.text }]) {
          if (!p.house) { li.append(p.text); continue; }
          const span = document.createElement("span"); span.className = "house-name house-" + p.house; span.textContent = p.text; li.append(span);
        }
        list.append(li);
      }
      if (!lines.length) { const li = document.createElement("li"); li.textContent = gettext("Nothing you could see happened at this step."); list.append(li); }
      box.append(list);
    } else box.textContent = gettext("The game as it started.");
    const table = document.createElement("table");
    table.className = "small";
    const head = table.createTHead().insertRow();
    for (const word of [gettext("House"), gettext("Castles"), gettext("Supply"), gettext("Power"), gettext("Throne")]) {
      const th = document.createElement("th"); th.textContent = word; head.append(th);
    }
    const body = table.createTBody();
    for (const house of v.seats) {
      const row = body.insertRow();
      [W.cap(house), v.victory[house], v.supply[house], v.power[house], v.tracks.iron_throne.indexOf(house) + 1]
        .forEach((x) => { row.insertCell().textContent = x; });
    }
    box.append(table);
  }

  /* B'Twixt: the table as the game page draws it, this step in words, and the hand of the leader
     the replay is viewed as. */
  function showTable(data) {
    const s = data.summary;
    const { h } = window.WesterosClient;
    const table = BT.renderTable(s, CARDS, { seat: data.seat });
    document.getElementById("replay-pos").textContent = interpolate(gettext("Step %(step)s of %(steps)s · %(where)s"),
      { step, steps, where: BT.phaseText() }, true);
    const hand = data.seat && Array.isArray((s.hands || {})[data.seat]) ? s.hands[data.seat] : null;
    document.getElementById("replay-table").replaceChildren(table,
      hand ? h("section", { class: "replay-hand" }, h("h2", {}, interpolate(gettext("%(leader)s's hand"), { leader: BT.leaderName(data.seat, CARDS) }, true)),
        hand.length ? h("div", { class: "bt-cards" }, hand.map((c) => BT.cardView(c))) : h("p", { class: "empty" }, gettext("No cards in hand."))) : null);
    const box = document.getElementById("replay-entry");
    if (!data.entry) { box.replaceChildren(h("p", {}, gettext("The game as it started: the hands are dealt and the first ally is on offer."))); return; }
    box.replaceChildren(h("p", {}, h("strong", {}, BT.leaderName(data.entry.seat, CARDS)), SOURCE[data.entry.source] ?? ""),
      ...data.entry.events.map((ev) => h("div", { class: "log-event" },
        BT.describeEvent(ev.type === "reorder_dead" ? { ...ev, seat: data.entry.seat } : ev, s, CARDS))));
  }

  root.querySelector(".replay-controls").addEventListener("click", (e) => {
    const b = e.target.closest("button"); if (!b) return;
    show({ first: 0, prev: step - 1, next: step + 1, last: steps }[b.dataset.step]);
  });
  range.addEventListener("change", () => show(parseInt(range.value, 10)));
  document.getElementById("replay-as").addEventListener("change", () => show(step));
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight" && e.target === document.body) show(step + 1); if (e.key === "ArrowLeft" && e.target === document.body) show(step - 1); });
  if (BT || LCG || MN) { show(0); return; }
  W.loadBoard(root.dataset.boardUrl).then(() => { W.enablePanZoom(svg, root.querySelector(".zoom-bar")); show(0); });
})();
