/* The game page: fetches GET /api/v1/games/<id>, draws it (board.js), offers the pending decision
   (only what the server lists as legal, or builds place_orders / march from the view), POSTs
   {version, action} to /actions and shows the server's reason when it refuses. Live: the game
   websocket; an `update` whose version is known+1, a gap, a hello with a newer version or a
   reconnect all re-fetch the game (simplest correct approach). */
(function () {
  "use strict";
  const W = window.Westeros;
  const root = document.getElementById("game");
  const SEAT = root.dataset.seat || null;
  const INVITE = root.dataset.invite || "";
  const API = root.dataset.api;
  const $ = (id) => document.getElementById(id);
  const svg = $("board");
  let game = null;      // the last GET /api/v1/games/<id>
  let version = -1;
  let draft = null;     // what the player is composing (orders, a march, a muster...)
  let loading = null;

  const ORDER_TOKENS = { "march-1": 1, "march+0": 1, "march+1*": 1, "defense+1": 2, "defense+2*": 1, "support+0": 2,
    "support+1*": 1, "raid": 2, "raid*": 1, "consolidate": 2, "consolidate*": 1 };
  const KINDS = ["march", "defense", "support", "raid", "consolidate"];
  const cap = W.cap, nameOf = W.nameOf;

  const { h, csrf } = window.WesterosClient;
  function houseTag(house) { return h("span", { class: "house-tag house-" + house }, W.LETTER[house] || "?", " ", cap(house)); }
  function q(path) { return API + path + (INVITE ? (path.includes("?") ? "&" : "?") + "invite=" + encodeURIComponent(INVITE) : ""); }

  function showError(text) {
    const box = $("error");
    box.textContent = text || ""; box.hidden = !text;
  }

  let again = false;     // an update arrived while a fetch was in flight: fetch once more after it
  async function load() {
    if (loading) { again = true; return loading; }
    loading = (async () => {
      try {
        const r = await fetch(q(""), { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!r.ok) { showError(`Could not load the game (${r.status}).`); return; }
        const data = await r.json();
        // another seat's move must not wipe what this player is composing: keep the draft while the
        // same decision is still pending for this seat
        const before = game && SEAT ? game.pending[SEAT] : null;
        game = data; version = data.version;
        const now = SEAT ? data.pending[SEAT] : null;
        if (!now || now !== before || (now === "march" && draft && draft.from && !(data.view.orders[draft.from]))) draft = null;
        render();
        loadLog();
      } finally {
        loading = null;
        if (again) { again = false; load(); }
      }
    })();
    return loading;
  }

  async function loadLog() {
    const r = await fetch(q("/log"), { credentials: "same-origin" });
    if (!r.ok) return;
    const body = await r.json();
    const entries = Array.isArray(body) ? body : (body.entries || []);
    const list = $("log");
    list.replaceChildren(...entries.slice(-150).reverse().map((e) =>
      h("li", { value: e.version }, h("span", { class: "log-seat" }, e.seat ? cap(e.seat) : "", e.source && e.source !== "player" ? ` (${e.source})` : ""), " ",
        e.events.map((ev) => h("span", { class: "log-event" }, W.describeEvent(ev))))));
  }

  async function send(action) {
    showError("");
    const r = await fetch(q("/actions"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify({ version: version, action: action }),
    });
    if (r.ok) { draft = null; await load(); return true; }
    let body = {};
    try { body = await r.json(); } catch (e) { /* not JSON */ }
    showError(`Refused (${body.error || r.status}): ${body.detail || r.statusText}`);
    if (r.status === 409) await load();
    return false;
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const v = game.view;
    const pend = Object.entries(game.pending || {}).map(([s, k]) => `${cap(s)}: ${k.replace(/_/g, " ")}`).join(", ");
    $("jump").hidden = !myKind();
    $("phase").textContent = game.status !== "active"
      ? `Game ${game.status}. ${v.ranking ? "Ranking: " + v.ranking.map(cap).join(", ") : ""}`
      : `Round ${v.round} · ${v.phase} (${v.step})${pend ? " · waiting for " + pend : ""}`;
    W.drawBoard(svg, v, SEAT, { highlight: highlights(), onArea: onArea });
    renderSeats(); renderTracks(); renderHouses(); renderCombat(); renderDecision();
  }

  function renderSeats() {
    $("seats").replaceChildren(h("table", { class: "seats" }, h("tbody", {}, game.seats.map((s) =>
      h("tr", { class: s.seat === SEAT ? "me" : "" },
        h("td", {}, houseTag(s.seat)),
        h("td", {}, s.is_bot ? "bot" : (s.user || "—")),
        h("td", {}, h("span", { class: "presence " + (s.connected ? "on" : "off"), "data-user": s.user || "" }, s.connected ? "● online" : "○ away")),
        h("td", {}, game.pending[s.seat] ? h("span", {}, game.pending[s.seat].replace(/_/g, " "), " ",
          s.deadline_at ? h("span", { class: "deadline", "data-deadline": s.deadline_at }, "") : "") : ""))))));
    window.tickDeadlines();
  }

  function renderTracks() {
    const v = game.view;
    const stars = (W.board().stars[v.seats.length] || []);
    const track = (label, key, extra) => h("div", { class: "track" }, h("strong", {}, label), " ",
      (v.tracks[key] || []).map((house, i) => h("span", { class: "track-pos" }, `${i + 1}.`, houseTag(house), extra ? extra(i) : "")));
    $("tracks").replaceChildren(
      h("p", {}, h("strong", {}, "Round "), `${v.round} / 10`, " · ", h("strong", {}, "Wildlings "), `${v.wildlings} / 12`),
      track("Iron Throne", "iron_throne"),
      track("Fiefdoms", "fiefdoms", (i) => i === 0 ? (v.used.valyrian_steel_blade ? " (blade used)" : " (blade)") : ""),
      track("King's Court", "kings_court", (i) => (stars[i] ? " " + "★".repeat(stars[i]) : "") + (i === 0 ? (v.used.messenger_raven ? " (raven used)" : " (raven)") : "")),
      h("table", { class: "small" }, h("thead", {}, h("tr", {}, h("th", {}, "House"), h("th", {}, "Supply"), h("th", {}, "Castles"), h("th", {}, "Power"))),
        h("tbody", {}, v.seats.map((house) => h("tr", {}, h("td", {}, houseTag(house)), h("td", {}, v.supply[house]),
          h("td", {}, v.victory[house]), h("td", {}, v.power[house]))))));
  }

  function cardView(id, extra) {
    const c = W.board().house_cards[id];
    if (!c) return h("span", {}, id);
    return h("div", Object.assign({ class: "card house-border-" + c.house }, extra || {}),
      h("div", { class: "card-head" }, h("strong", {}, c.name), " ", h("span", { class: "strength", title: "strength" }, c.strength)),
      h("div", { class: "icons" }, c.swords ? `swords ${c.swords}` : "", c.swords && c.fortifications ? " · " : "", c.fortifications ? `fortifications ${c.fortifications}` : ""),
      c.ability ? h("div", { class: "ability" }, c.ability) : null);
  }

  function renderHouses() {
    const v = game.view;
    $("houses").replaceChildren(...v.seats.map((house) => h("details", { open: house === SEAT },
      h("summary", {}, houseTag(house), ` · power ${v.power[house]} · ${(v.hands[house] || []).length} cards`),
      h("div", {}, h("em", {}, "Hand"), h("div", { class: "cards" }, (v.hands[house] || []).map((c) => cardView(c)))),
      (v.discards[house] || []).length ? h("div", {}, h("em", {}, "Discarded"), h("div", { class: "cards discards" }, v.discards[house].map((c) => cardView(c)))) : null)));
  }

  function renderCombat() {
    const c = game.view.combat;
    const cur = c && c._current;
    $("combat-panel").hidden = !c;
    if (!c) return;
    const show = cur || c;
    const rows = [h("p", {}, cur ? "In progress: " : "Last combat: ", houseTag(show.attacker), " attacks ",
      show.defender ? houseTag(show.defender) : "a neutral force", " in ", nameOf(show.area))];
    if (cur) {
      const sup = Object.entries(cur.supports || {}).map(([h2, side]) => `${cap(h2)} supports ${side ? cap(cur[side] || side) : "no one"}`);
      rows.push(h("p", {}, `Step: ${(cur.step || "").replace(/_/g, " ")}`, sup.length ? " · " + sup.join(", ") : ""));
    }
    if (!cur || cur.cards) {
      const src = cur && cur.cards ? cur : c;
      if (src.cards) rows.push(h("div", { class: "cards" }, Object.values(src.cards).map((id) => cardView(id))));
      if (src.strength) rows.push(h("p", {}, "Strength: ", Object.entries(src.strength).map(([k, n]) => `${cap(k)} ${n}`).join(" · ")));
      if (src.tides && Object.keys(src.tides).length) rows.push(h("p", {}, "Tides of Battle: ", Object.entries(src.tides).map(([k, t]) => `${cap(k)} ${String(t).replace(/_/g, " ")}`).join(" · ")));
    }
    if (!cur && c.winner) rows.push(h("p", {}, "Winner: ", houseTag(c.winner)));
    $("combat").replaceChildren(...rows);
  }

  // ------------------------------------------------------------------ decisions

  function myKind() { return SEAT && game.status === "active" ? game.pending[SEAT] : null; }
  function legal() { return game.legal_actions || []; }

  function highlights() {
    const out = {};
    const kind = myKind();
    if (!kind) return out;
    const v = game.view;
    if (kind === "place_orders") {
      for (const a of myAreas()) out[a] = "choosable" + (draft && draft.area === a ? " selected" : "");
    } else if (kind === "march") {
      if (draft && draft.from) {
        out[draft.from] = "selected";
        for (const a of (W.board().areas[draft.from].adjacent || [])) out[a] = "choosable";
        for (const a of Object.keys(draft.moves || {})) out[a] = "target";
      } else for (const [a, o] of Object.entries(v.orders)) if (o.house === SEAT && o.token.startsWith("march")) out[a] = "choosable";
    } else {
      for (const act of legal()) {
        const [k, val] = Object.entries(act)[0];
        if (k === "raid" && val.target) out[val.target] = "choosable";
        if (k === "retreat") out[val.to] = "choosable";
        if (k === "choose" && typeof val === "string" && W.board().areas[val]) out[val] = "choosable";
        if (k === "raid") out[val.from] = out[val.from] || "selected";
      }
    }
    return out;
  }

  function onArea(area) {
    const kind = myKind();
    if (kind === "place_orders" && myAreas().includes(area)) { draft = Object.assign(draft || { orders: {} }, { area }); render(); }
    else if (kind === "march") {
      const o = game.view.orders[area];
      if (!draft || !draft.from) { if (o && o.house === SEAT && o.token.startsWith("march")) { draft = { from: area, moves: {}, picked: [] }; render(); } }
      else if (area === draft.from) { draft = null; render(); }
      else assignPicked(area);
    } else {
      const match = legal().filter((act) => {
        const [k, val] = Object.entries(act)[0];
        return (k === "raid" && val.target === area) || (k === "retreat" && val.to === area) || (k === "choose" && val === area);
      });
      if (match.length === 1) send(match[0]);
    }
  }

  function myAreas() {
    return Object.entries(game.view.units).filter(([, by]) => by[SEAT] && by[SEAT].length).map(([a]) => a).sort();
  }

  function renderDecision() {
    const box = $("decision");
    const kind = myKind();
    if (!SEAT) { box.replaceChildren(h("h2", {}, "Spectating"), h("p", {}, "You see what any spectator may see.")); return; }
    if (game.status !== "active") { box.replaceChildren(h("h2", {}, "Game over"), h("p", {}, h("a", { href: `/games/${game.id}/replay` }, "Replay it step by step"))); return; }
    if (!kind) {
      const waiting = Object.keys(game.pending).map(cap).join(", ");
      box.replaceChildren(h("h2", {}, "Nothing to decide"), h("p", {}, waiting ? `Waiting for ${waiting}.` : "Waiting."));
      return;
    }
    const me = game.seats.find((s) => s.seat === SEAT);
    const head = h("h2", {}, "Your decision: ", kind.replace(/_/g, " "), " ", me && me.deadline_at ? h("span", { class: "deadline", "data-deadline": me.deadline_at }, "") : "");
    let body;
    if (kind === "place_orders") body = placeOrdersPanel();
    else if (kind === "march") body = marchPanel();
    else if (kind === "house_card") body = houseCardPanel();
    else if (kind === "consolidate") body = consolidatePanel();
    else if (kind === "bid" && game.legal_actions && game.legal_actions.length) {
      body = h("div", {}, h("p", {}, `Available power: ${game.view.power[SEAT]}`), listPanel(game.legal_actions));
    } else if (game.legal_actions && game.legal_actions.length) body = listPanel(game.legal_actions);
    else if (kind === "bid") body = bidPanel();
    else if (kind === "muster" && game.view.decision && game.view.decision.areas) body = musterPanel(game.view.decision);
    else if (kind === "reduce") body = reducePanel();
    else body = rawPanel(kind);
    const extra = h("p", { class: "seat-actions" },
      me && !me.extension_used ? h("button", { type: "button", class: "secondary", id: "extend", onclick: extend }, "Extend my deadline (once per game)") : null, " ",
      h("button", { type: "button", class: "secondary", id: "concede", onclick: concede }, "Concede"));
    box.replaceChildren(head, body, extra);
    window.tickDeadlines();
  }

  async function postSimple(path, what) {
    showError("");
    const r = await fetch(q(path), { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf(), Accept: "application/json" } });
    if (!r.ok) { const b = await r.json().catch(() => ({})); showError(`${what} refused: ${b.detail || r.status}`); }
    await load();
  }
  function extend() { postSimple("/extend", "Extension"); }
  function concede() { if (window.confirm("Leave this game? A bot takes your seat.")) postSimple("/concede", "Concession"); }

  function listPanel(actions) {
    return h("div", { class: "choices" }, actions.map((act) => h("button", { type: "button", class: "choice", "data-action": JSON.stringify(act), onclick: () => send(act) }, W.describeAction(act))));
  }

  function houseCardPanel() {
    return h("div", { class: "cards choose" }, legal().map((act) => cardView(act.house_card, {
      role: "button", tabindex: "0", "data-action": JSON.stringify(act), onclick: () => send(act),
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(act); } },
    })));
  }

  function bidPanel() {
    const power = game.view.power[SEAT];
    const input = h("input", { type: "number", min: 0, max: power, value: 0, id: "bid-input", "aria-label": "Your bid" });
    return h("form", { onsubmit: (e) => { e.preventDefault(); send({ bid: parseInt(input.value, 10) || 0 }); } },
      h("p", {}, `Available power: ${power}`), input, " ", h("button", { type: "submit" }, "Bid"));
  }

  function rawPanel(kind) {
    const area = h("textarea", { rows: 3, "aria-label": "Action (JSON)" }, JSON.stringify({ [kind]: null }));
    return h("form", { onsubmit: (e) => { e.preventDefault(); let a; try { a = JSON.parse(area.value); } catch (err) { showError("Not valid JSON."); return; } send(a); } },
      h("p", {}, "The server does not list the choices for this decision; write it in the action notation:"), area, h("button", { type: "submit" }, "Send"));
  }

  /* Mustering (R68-R81): per castle/stronghold area of the decision, its points and the items it
     can pay for; the server checks the whole muster (supply, unit limits, enemy ships). */
  function musterPanel(decision, submit) {
    const B = W.board();
    draft = draft || { muster: {}, spent: {} };
    const items = [];
    for (const area of decision.areas) {
      const a = B.areas[area];
      const points = a.structure === "stronghold" ? 2 : 1;
      const left = points - (draft.spent[area] || 0);
      const opts = [["footman", 1, area, { recruit: "footman" }], ["knight", 2, area, { recruit: "knight" }],
        ["siege engine", 2, area, { recruit: "siege_engine" }], ["footman → knight", 1, area, { upgrade: "footman", to: "knight" }],
        ["footman → siege engine", 1, area, { upgrade: "footman", to: "siege_engine" }]];
      for (const sea of a.adjacent.filter((x) => B.areas[x].type !== "land")) {
        if (B.areas[sea].type === "port" && B.areas[sea].land_area !== area) continue;
        opts.push([`ship in ${nameOf(sea)}`, 1, sea, { recruit: "ship", from: area }]);
      }
      const single = decision.single && Object.keys(draft.spent).some((x) => x !== area && draft.spent[x]);
      items.push(h("div", { class: "muster-area" }, h("strong", {}, `${nameOf(area)}: ${left} of ${points} point(s) left`),
        h("div", { class: "choices-inline" }, opts.map(([label, cost, dest, item]) => h("button", {
          type: "button", class: "token", disabled: cost > left || single, "data-muster": `${area}:${label}`,
          title: single ? "only one area may muster" : cost > left ? "not enough points" : "",
          onclick: () => { (draft.muster[dest] = draft.muster[dest] || []).push(item); draft.spent[area] = (draft.spent[area] || 0) + cost; render(); },
        }, label)))));
    }
    const chosen = Object.entries(draft.muster).map(([dest, list]) => h("li", {}, `${nameOf(dest)}: ` + list.map((i) => i.recruit ? i.recruit.replace("_", " ") : `${i.upgrade} → ${i.to.replace("_", " ")}`).join(", ")));
    return h("div", {}, decision.single ? h("p", {}, "One area only.") : null, items, h("ul", {}, chosen),
      h("p", {}, h("button", { type: "button", id: "muster-submit", onclick: () => (submit ? submit(draft.muster) : send({ muster: draft.muster })) }, chosen.length ? "Muster" : "Muster nothing"),
        " ", h("button", { type: "button", class: "secondary", onclick: () => { draft = null; render(); } }, "Clear")));
  }

  /* Consolidate Power: the listed choices, and for a special order in a castle or stronghold area
     the mustering it allows instead (R182), sent as {consolidate: {from, muster: [items]}}. */
  function consolidatePanel() {
    const B = W.board();
    const special = Object.entries(game.view.orders).filter(([a, o]) => o.house === SEAT && o.token === "consolidate*" &&
      B.areas[a].structure !== "none").map(([a]) => a);
    if (draft && draft.cpFrom) {
      const from = draft.cpFrom;
      return h("div", {}, h("p", {}, `Muster in ${nameOf(from)} with its special Consolidate Power order:`),
        musterPanel({ areas: [from], single: true }, (muster) => {
          const items = [];
          for (const [dest, list] of Object.entries(muster)) for (const item of list) {
            items.push(item.recruit === "ship" ? { recruit: "ship", to: dest } : item);
          }
          send({ consolidate: { from, muster: items } });
        }));
    }
    return h("div", {}, listPanel(legal()), special.map((a) => h("button", { type: "button", class: "choice", "data-muster-from": a,
      onclick: () => { draft = { muster: {}, spent: {}, cpFrom: a }; render(); } }, `Muster in ${nameOf(a)} instead (special order)`)));
  }

  /* Supply (R161): destroy units until every army fits; tick the units to destroy. */
  function reducePanel() {
    draft = draft || { reduce: {} };
    const rows = Object.entries(game.view.units).filter(([, by]) => (by[SEAT] || []).length > 1).map(([area, by]) =>
      h("li", {}, h("strong", {}, nameOf(area)), " ", by[SEAT].map((u, i) => h("label", { class: "unit-pick" },
        h("input", { type: "checkbox", "data-unit": `${area}:${i}`, onchange: (e) => {
          const list = (draft.reduce[area] = draft.reduce[area] || []);
          if (e.target.checked) list.push(u); else list.splice(list.indexOf(u), 1);
          if (!list.length) delete draft.reduce[area];
        } }), " ", u.replace(/_/g, " ")))));
    return h("div", {}, h("p", {}, "Your armies exceed your supply: tick the units to destroy."), h("ul", { class: "order-list" }, rows),
      h("button", { type: "button", onclick: () => send({ reduce: draft.reduce }) }, "Destroy the ticked units"));
  }

  /* Which tokens may go on `area`, given the view and the draft: [{token, ok, reason}]. */
  function tokenChoices(area) {
    const v = game.view, orders = draft.orders;
    const stars = (W.board().stars[v.seats.length] || [])[v.tracks.kings_court.indexOf(SEAT)] || 0;
    const used = {}; let specials = 0;
    for (const [a, t] of Object.entries(orders)) if (a !== area) { used[t] = (used[t] || 0) + 1; if (t.endsWith("*")) specials++; }
    return Object.entries(ORDER_TOKENS).map(([token, n]) => {
      const kind = KINDS.find((k) => token.startsWith(k));
      let reason = null;
      if ((v.restrictions || []).includes(kind) || (v.restrictions || []).includes(token)) reason = "forbidden this round";
      else if ((used[token] || 0) >= n) reason = "all used";
      else if (token.endsWith("*") && specials >= stars) reason = stars ? `only ${stars} special order(s) at your King's Court position` : "no King's Court star";
      return { token, ok: !reason, reason };
    });
  }

  function placeOrdersPanel() {
    draft = draft || { orders: {} };
    draft.orders = draft.orders || {};
    const areas = myAreas();
    if (!draft.area) draft.area = areas.find((a) => !draft.orders[a]) || areas[0];
    const rows = areas.map((a) => h("li", { class: a === draft.area ? "selected" : "" },
      h("button", { type: "button", class: "link area-pick", "data-area": a, "aria-pressed": a === draft.area ? "true" : "false",
        onclick: () => { draft.area = a; render(); } }, nameOf(a)),
      " ", draft.orders[a] ? h("span", { class: "chosen" }, W.tokenName(draft.orders[a])) : h("span", { class: "empty" }, "no order")));
    const palette = h("div", { class: "tokens", role: "group", "aria-label": `Order for ${nameOf(draft.area)}` },
      tokenChoices(draft.area).map((c) => h("button", {
        type: "button", class: "token" + (draft.orders[draft.area] === c.token ? " chosen" : ""), disabled: !c.ok,
        "data-token": c.token, title: c.reason || W.tokenName(c.token), "aria-label": W.tokenName(c.token) + (c.reason ? ": " + c.reason : ""),
        onclick: () => { draft.orders[draft.area] = c.token; draft.area = areas.find((a) => !draft.orders[a]) || draft.area; render(); },
      }, W.tokenText(c.token), c.reason ? h("small", {}, c.reason) : null)));
    const left = areas.filter((a) => !draft.orders[a]).length;
    return h("div", {},
      h("p", {}, "Click one of your areas on the board (or in the list), then pick its order."),
      h("ul", { class: "order-list" }, rows),
      h("p", {}, h("strong", {}, nameOf(draft.area))), palette,
      h("p", {}, h("button", { type: "button", id: "submit-orders", onclick: () => send({ place_orders: draft.orders }) }, left ? `Place orders (${left} area(s) empty)` : "Place orders"),
        " ", h("button", { type: "button", class: "secondary", onclick: () => { draft = { orders: {} }; render(); } }, "Clear")));
  }

  function marchPanel() {
    const v = game.view;
    const mine = Object.entries(v.orders).filter(([, o]) => o.house === SEAT && o.token.startsWith("march")).map(([a]) => a).sort();
    if (!draft || !draft.from) {
      return h("div", {}, h("p", {}, "Choose the March order to resolve (click it on the board or here):"),
        h("div", { class: "choices" }, mine.map((a) => h("button", { type: "button", class: "choice", "data-from": a, onclick: () => { draft = { from: a, moves: {}, picked: [] }; render(); } },
          `${nameOf(a)} (${W.tokenName(v.orders[a].token)})`))));
    }
    const units = (v.units[draft.from] || {})[SEAT] || [];
    const assigned = Object.values(draft.moves).flat().length;
    const pool = units.slice();
    for (const us of Object.values(draft.moves)) for (const u of us) pool.splice(pool.indexOf(u), 1);
    const boxes = pool.map((u, i) => h("label", { class: "unit-pick" }, h("input", { type: "checkbox", "data-unit": u, checked: draft.picked.includes(i),
      onchange: (e) => { if (e.target.checked) draft.picked.push(i); else draft.picked = draft.picked.filter((x) => x !== i); } }), " ", u.replace(/_/g, " ")));
    const adj = (W.board().areas[draft.from].adjacent || []).filter((a) => W.board().areas[a].type !== "port" || W.board().areas[draft.from].type !== "land");
    const select = h("select", { id: "march-dest", "aria-label": "Destination" }, h("option", { value: "" }, "— destination —"),
      adj.map((a) => h("option", { value: a }, nameOf(a))), h("option", { value: "__other" }, "other (ship transport): click it on the board"));
    const leave = h("input", { type: "checkbox", id: "leave-token", checked: !!draft.leave, onchange: (e) => { draft.leave = e.target.checked; } });
    return h("div", {},
      h("p", {}, `March from ${nameOf(draft.from)}. Tick units, then click a destination on the board or pick it here.`),
      h("div", {}, boxes.length ? boxes : h("em", {}, "every unit has a destination")),
      h("p", {}, select, " ", h("button", { type: "button", id: "march-assign", onclick: () => { if (select.value && select.value !== "__other") assignPicked(select.value); } }, "Move ticked units there")),
      h("ul", {}, Object.entries(draft.moves).map(([a, us]) => h("li", {}, `${us.join(", ")} → ${nameOf(a)}`))),
      h("p", {}, h("label", {}, leave, " leave a power token in ", nameOf(draft.from))),
      h("p", {}, h("button", { type: "button", id: "march-submit", onclick: () => send({ march: { from: draft.from, moves: draft.moves, leave_power_token: !!draft.leave } }) },
        assigned ? "March" : "Remove the order without moving"), " ",
        h("button", { type: "button", class: "secondary", onclick: () => { draft = null; render(); } }, "Back")));
  }

  function assignPicked(area) {
    const units = (game.view.units[draft.from] || {})[SEAT] || [];
    const pool = units.slice();
    for (const us of Object.values(draft.moves)) for (const u of us) pool.splice(pool.indexOf(u), 1);
    const chosen = draft.picked.map((i) => pool[i]).filter(Boolean);
    if (!chosen.length) { showError("Tick the units to move first."); return; }
    showError("");
    draft.moves[area] = (draft.moves[area] || []).concat(chosen);
    draft.picked = [];
    render();
  }

  // ------------------------------------------------------------------ chat (table, and per seat pair)

  const chat = { channel: "table", seen: new Set(), unread: {} };
  async function loadChatChannels() {
    const r = await fetch(q("/chat/channels"), { credentials: "same-origin" });
    if (!r.ok) return;
    const data = await r.json();
    if (!data.channels.length) return;
    $("chat-panel").hidden = false;
    const label = (c) => c.channel === "table" ? "Table" : "Private: " + c.seats.filter((s) => s !== SEAT).map(cap).join(", ");
    $("chat-channel").replaceChildren(...data.channels.map((c) => h("option", { value: c.channel, "data-write": c.can_write ? "1" : "" }, label(c))));
    $("chat-channel").value = chat.channel;
    await loadChat();
  }
  async function loadChat() {
    const opt = $("chat-channel").selectedOptions[0];
    $("chat-form").hidden = !(opt && opt.dataset.write);
    const r = await fetch(q("/chat?channel=" + encodeURIComponent(chat.channel)), { credentials: "same-origin" });
    $("chat-messages").replaceChildren();
    chat.seen = new Set();
    if (!r.ok) return;
    const body = await r.json();
    (body.results || body).slice().reverse().forEach(addMessage);
  }
  function addMessage(m) {
    if (m.channel !== chat.channel) {
      chat.unread[m.channel] = true;
      const opt = [...$("chat-channel").options].find((o) => o.value === m.channel);
      if (opt && !opt.textContent.endsWith(" •")) opt.textContent += " •";
      return;
    }
    if (chat.seen.has(m.id)) return;
    chat.seen.add(m.id);
    const list = $("chat-messages");
    list.append(h("li", {}, h("strong", {}, m.sender || "?", m.seat ? ` (${cap(m.seat)})` : ""), ": ", m.text));
    list.scrollTop = list.scrollHeight;
  }
  $("chat-channel").addEventListener("change", (e) => {
    chat.channel = e.target.value;
    e.target.selectedOptions[0].textContent = e.target.selectedOptions[0].textContent.replace(/ •$/, "");
    loadChat();
  });
  $("chat-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("chat-text").value;
    if (!text.trim()) return;
    const r = await fetch(q("/chat"), { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify({ channel: chat.channel, text }) });
    if (r.ok) { $("chat-text").value = ""; addMessage(await r.json()); }
    else { const b = await r.json().catch(() => ({})); showError(`Chat refused: ${b.detail || r.status}`); }
  });

  // ------------------------------------------------------------------ clock and live updates


  function connect() {
    window.WesterosClient.connectLive({
      path: root.dataset.ws, invite: INVITE, status: $("conn"), version: () => version, load,
      onChat: addMessage,
      onPresence: (connected) => {
        if (!game) return;
        for (const s of game.seats) s.connected = !!s.user && connected.includes(s.user);
        renderSeats();
      },
    });
  }

  let view = null;
  W.loadBoard(root.dataset.boardUrl).then(() => {
    view = W.enablePanZoom(svg, document.querySelector(".zoom-bar"));
    return load();
  }).then(() => {
    // on a phone, start close to home: the whole board stays one button ("Whole board") or key (0) away
    const home = SEAT && Object.entries(W.board().areas).find(([, a]) => a.home_of === SEAT);
    if (home && svg.getBoundingClientRect().width < 600) view.focus(home[1].center[0], home[1].center[1], 420);
    connect(); loadChatChannels();
  });
  window.__westerosGame = { load, send, state: () => game, view: () => view };
})();
