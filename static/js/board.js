/* The AGoT board in SVG, drawn from /board/agot.json (geometry of layout.yaml + map.yaml) and a
   game view (GET /api/v1/games/<id> -> view). Shared by the game page and the replay page.
   No build step: plain browser JavaScript, one global (window.Westeros). */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const LETTER = { stark: "S", lannister: "L", baratheon: "B", greyjoy: "G", tyrell: "T", martell: "M" };
  const UNIT_LABEL = { footman: "footman", knight: "knight", ship: "ship", siege_engine: "siege engine" };
  let BOARD = null;

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function title(node, text) { el("title", {}, node).textContent = text; return node; }
  function pts(list) { return "M" + list.map((p) => p[0] + "," + p[1]).join("L") + "Z"; }
  function nameOf(id) { return (BOARD && BOARD.areas[id] && BOARD.areas[id].name) || String(id).replace(/_/g, " "); }
  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }

  async function loadBoard(url) {
    if (!BOARD) {
      const r = await fetch(url, { credentials: "same-origin" });
      BOARD = await r.json();
    }
    return BOARD;
  }

  function tokenText(token) {
    if (!token || token === "hidden") return "?";
    const kind = { march: "M", defense: "D", support: "S", raid: "R", consolidate: "C" };
    const k = Object.keys(kind).find((x) => token.startsWith(x));
    const bonus = token.slice(k.length).replace("*", "");
    return kind[k] + (bonus && bonus !== "+0" ? bonus : "") + (token.endsWith("*") ? "★" : "");
  }
  function tokenName(token) {
    if (!token || token === "hidden") return "face-down order";
    const special = token.endsWith("*") ? " (special)" : "";
    return token.replace("*", "").replace(/([a-z]+)/, (m) => cap(m) + " ") + special;
  }

  /* Face-down orders of other houses are not in a view (they live in the other house's secret);
     during the assign step a house that has placed (no longer in planning.todo) shows a "?" on each
     area with its units. Our own face-down orders come from view.secret[seat].orders. */
  function ordersOf(view, seat) {
    const out = {};
    for (const [area, o] of Object.entries(view.orders || {})) out[area] = { house: o.house, token: o.token, up: true };
    const mine = (view.secret && seat && view.secret[seat] && view.secret[seat].orders) || {};
    for (const [area, token] of Object.entries(mine)) out[area] = { house: seat, token: token, up: false };
    if (view.phase === "planning" && view.step === "assign" && view.planning) {
      const todo = view.planning.todo || [];
      for (const house of view.seats) {
        if (house === seat || todo.includes(house)) continue;
        for (const [area, by] of Object.entries(view.units || {})) {
          if (by[house] && by[house].length && !out[area]) out[area] = { house: house, token: "hidden", up: false };
        }
      }
    }
    return out;
  }

  function controller(view, area) {
    const by = (view.units || {})[area] || {};
    const h = Object.keys(by).find((k) => by[k].length);
    if (h) return h;
    if (view.power_tokens && view.power_tokens[area]) return view.power_tokens[area];
    const a = BOARD.areas[area];
    if (a && a.home_of && view.seats.includes(a.home_of)) return a.home_of;
    return null;
  }

  function drawUnit(g, x, y, house, unit) {
    const routed = unit.startsWith("routed_");
    const base = routed ? unit.slice(7) : unit;
    const cls = "unit house-" + house + (routed ? " routed" : "");
    let shape;
    if (base === "footman") shape = el("circle", { cx: x, cy: y, r: 9, class: cls }, g);
    else if (base === "knight") shape = el("path", { d: `M${x},${y - 11}L${x + 11},${y}L${x},${y + 11}L${x - 11},${y}Z`, class: cls }, g);
    else if (base === "ship") shape = el("path", { d: `M${x - 12},${y - 3}L${x + 12},${y - 3}L${x + 7},${y + 8}L${x - 7},${y + 8}Z M${x - 1},${y - 3}L${x - 1},${y - 12}L${x + 7},${y - 5}Z`, class: cls }, g);
    else shape = el("path", { d: `M${x},${y - 11}L${x + 11},${y + 8}L${x - 11},${y + 8}Z`, class: cls }, g);
    const t = el("text", { x: x, y: y + 4, class: "unit-letter on-" + house }, g);
    t.textContent = LETTER[house] || "?";
    title(shape, `${cap(house)} ${routed ? "routed " : ""}${UNIT_LABEL[base] || base}`);
  }

  function crown(g, x, y) {
    el("path", { d: `M${x - 6},${y + 4}L${x - 6},${y - 3}L${x - 3},${y}L${x},${y - 5}L${x + 3},${y}L${x + 6},${y - 3}L${x + 6},${y + 4}Z`, class: "icon-crown" }, g);
  }
  function barrel(g, x, y) { el("rect", { x: x - 4, y: y - 5, width: 8, height: 10, rx: 3, class: "icon-barrel" }, g); }

  /* Draws the whole board into `svg` for `view` as seen by `seat`. opts.highlight: {area: css class};
     opts.onArea(area): click handler. */
  function drawBoard(svg, view, seat, opts) {
    opts = opts || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!svg.getAttribute("viewBox")) svg.setAttribute("viewBox", `0 0 ${BOARD.width} ${BOARD.height}`);
    el("rect", { x: 0, y: 0, width: BOARD.width, height: BOARD.height, class: "sea-bg" }, svg);
    const layers = { sea: el("g", {}, svg), land: el("g", {}, svg), port: el("g", {}, svg) };
    const marks = el("g", { class: "marks" }, svg);
    const piecesLayer = el("g", { class: "pieces" }, svg);
    svg.__onArea = opts.onArea || null;
    if (!svg.__areaListener) {
      svg.__areaListener = true;
      svg.addEventListener("click", (e) => {
        const target = e.target.closest && e.target.closest("[data-area]");
        if (target && svg.__onArea) svg.__onArea(target.getAttribute("data-area"));
      });
      svg.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && e.target.getAttribute && e.target.getAttribute("data-area") && svg.__onArea) {
          e.preventDefault(); e.stopPropagation(); svg.__onArea(e.target.getAttribute("data-area"));
        }
      });
    }
    const orders = ordersOf(view, seat);
    const hl = opts.highlight || {};
    for (const [id, a] of Object.entries(BOARD.areas)) {
      let d = pts(a.outline);
      for (const hole of a.holes || []) d += pts(hole);
      const owner = a.type === "land" ? controller(view, id) : null;
      const nf = (view.neutral_forces || {})[id];
      const cls = ["area", "area-" + a.type, owner ? "owned house-" + owner : "", nf === "impassable" ? "impassable" : "",
        hl[id] || ""].join(" ");
      const path = el("path", { d: d, class: cls, "fill-rule": "evenodd", "data-area": id }, layers[a.type] || layers.land);
      title(path, a.name + (owner ? ` (${cap(owner)})` : ""));
      if (hl[id] && opts.onArea) { path.setAttribute("tabindex", "0"); path.setAttribute("role", "button"); path.setAttribute("aria-label", a.name); }
      const [cx, cy] = a.center;
      if (a.type !== "port") {
        const label = el("text", { x: cx, y: cy - Math.min(a.inradius, 40) + 10, class: "area-label" }, marks);
        label.textContent = a.name;
      }
      // icons: castle / stronghold, supply barrels, crowns, home shield
      let ix = cx - 30, iy = cy - Math.min(a.inradius, 40) + 20;
      if (a.structure === "stronghold") {
        title(el("path", { d: `M${ix - 7},${iy + 7}L${ix - 7},${iy - 5}L${ix - 3},${iy - 5}L${ix - 3},${iy - 1}L${ix + 3},${iy - 1}L${ix + 3},${iy - 5}L${ix + 7},${iy - 5}L${ix + 7},${iy + 7}Z`, class: "icon-stronghold" }, marks), "Stronghold");
        ix += 16;
      } else if (a.structure === "castle") {
        title(el("rect", { x: ix - 5, y: iy - 4, width: 10, height: 10, class: "icon-castle" }, marks), "Castle");
        ix += 14;
      }
      for (let i = 0; i < a.supply; i++) { barrel(marks, ix, iy); ix += 10; }
      for (let i = 0; i < a.crowns; i++) { crown(marks, ix + 2, iy); ix += 14; }
      if (a.home_of && view.seats.includes(a.home_of)) {
        const sx = cx + 30, sy = iy;
        const shield = el("path", { d: `M${sx - 8},${sy - 8}L${sx + 8},${sy - 8}L${sx + 8},${sy + 2}L${sx},${sy + 10}L${sx - 8},${sy + 2}Z`, class: "shield house-" + a.home_of }, marks);
        title(shield, `Home of ${cap(a.home_of)}`);
        el("text", { x: sx, y: sy + 3, class: "unit-letter on-" + a.home_of }, marks).textContent = LETTER[a.home_of];
      }
      // garrison, neutral force, power token, units and order: one group per area, so a click on a
      // piece is a click on its area
      const pieces = el("g", { "data-area": id }, piecesLayer);
      let px = cx - 24, py = cy + 26;
      const gar = (view.garrisons || {})[id];
      if (gar) {
        const gh = controller(view, id) || "neutral";
        title(el("rect", { x: px - 9, y: py - 9, width: 18, height: 18, rx: 2, class: "garrison house-" + gh }, pieces), `Garrison ${gar}`);
        el("text", { x: px, y: py + 4, class: "token-text on-" + gh }, pieces).textContent = gar;
        px += 22;
      }
      if (nf !== undefined && nf !== null) {
        const label = nf === "impassable" ? "✕" : nf;
        title(el("path", { d: `M${px - 10},${py}L${px - 5},${py - 9}L${px + 5},${py - 9}L${px + 10},${py}L${px + 5},${py + 9}L${px - 5},${py + 9}Z`, class: "neutral" }, pieces), nf === "impassable" ? "Impassable" : `Neutral force ${nf}`);
        el("text", { x: px, y: py + 4, class: "token-text neutral-text" }, pieces).textContent = label;
        px += 24;
      }
      const ptok = (view.power_tokens || {})[id];
      if (ptok) {
        title(el("circle", { cx: px, cy: py, r: 8, class: "power-token house-" + ptok }, pieces), `${cap(ptok)} power token`);
        el("text", { x: px, y: py + 3.5, class: "token-text on-" + ptok }, pieces).textContent = LETTER[ptok] || "?";
      }
      // units
      const by = (view.units || {})[id] || {};
      for (const [house, units] of Object.entries(by)) {
        const n = units.length;
        units.forEach((u, i) => drawUnit(pieces, cx - (n - 1) * 12 + i * 24, cy + (a.type === "port" ? 0 : 4), house, u));
      }
      // order token
      const o = orders[id];
      if (o) {
        const count = Object.values(by).reduce((n, us) => n + us.length, 0);
        const ox = cx + Math.max(a.type === "port" ? 16 : 24, count * 12 + 14), oy = cy + (a.type === "port" ? -14 : 4);
        const hidden = o.token === "hidden";
        const g = el("g", { class: "order" + (o.up ? " face-up" : " face-down") + (hidden ? " hidden" : "") }, pieces);
        el("circle", { cx: ox, cy: oy, r: 12, class: "order-token house-" + o.house }, g);
        el("text", { x: ox, y: oy + 4, class: "order-text" }, g).textContent = tokenText(o.token);
        el("text", { x: ox + 10, y: oy - 8, class: "order-house on-" + o.house }, g).textContent = LETTER[o.house] || "";
        title(g, `${cap(o.house)}: ${tokenName(o.token)}${o.up ? "" : hidden ? "" : " (face down, only you see it)"}`);
      }
    }
    return svg;
  }

  /* Pan and zoom by changing the viewBox: buttons, wheel, drag, two-finger pinch, keyboard. */
  function enablePanZoom(svg, toolbar) {
    const full = () => [0, 0, BOARD.width, BOARD.height];
    let vb = full();
    const apply = () => svg.setAttribute("viewBox", vb.map((n) => Math.round(n * 10) / 10).join(" "));
    function zoom(f, fx, fy) {
      const [x, y, w, h] = vb;
      const nw = Math.min(BOARD.width * 1.2, Math.max(120, w * f)), nh = nw * (h / w);
      fx = fx === undefined ? 0.5 : fx; fy = fy === undefined ? 0.5 : fy;
      vb = [x + (w - nw) * fx, y + (h - nh) * fy, nw, nh]; apply();
    }
    function pan(dx, dy) { vb[0] += dx * vb[2]; vb[1] += dy * vb[3]; apply(); }
    function reset() { vb = full(); apply(); }
    function focus(cx, cy, w) {
      const r = svg.getBoundingClientRect();
      const h = w * (r.height / Math.max(1, r.width));
      vb = [cx - w / 2, cy - h / 2, w, h]; apply();
    }
    apply();
    if (toolbar) toolbar.addEventListener("click", (e) => {
      const b = e.target.closest("button"); if (!b) return;
      if (b.dataset.zoom === "in") zoom(0.7); else if (b.dataset.zoom === "out") zoom(1 / 0.7);
      else if (b.dataset.zoom === "reset") reset();
      else if (b.dataset.pan) pan(...{ left: [-0.2, 0], right: [0.2, 0], up: [0, -0.2], down: [0, 0.2] }[b.dataset.pan]);
    });
    svg.addEventListener("keydown", (e) => {
      const k = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] }[e.key];
      if (k) { pan(...k); e.preventDefault(); } else if (e.key === "+" || e.key === "=") zoom(0.8);
      else if (e.key === "-") zoom(1.25); else if (e.key === "0") reset();
    });
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      zoom(e.deltaY < 0 ? 0.85 : 1 / 0.85, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
    }, { passive: false });
    const pointers = new Map(); let pinch = null; let moved = 0;
    svg.addEventListener("pointerdown", (e) => { pointers.set(e.pointerId, [e.clientX, e.clientY]); moved = 0; });
    svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      const prev = pointers.get(e.pointerId); pointers.set(e.pointerId, [e.clientX, e.clientY]);
      const r = svg.getBoundingClientRect();
      if (pointers.size === 1) {
        const dx = e.clientX - prev[0], dy = e.clientY - prev[1];
        moved += Math.abs(dx) + Math.abs(dy);
        if (moved > 6) { if (!svg.hasPointerCapture(e.pointerId)) svg.setPointerCapture(e.pointerId); vb[0] -= dx * vb[2] / r.width; vb[1] -= dy * vb[3] / r.height; apply(); }
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a[0] - b[0], a[1] - b[1]);
        if (pinch) zoom(pinch / dist, ((a[0] + b[0]) / 2 - r.left) / r.width, ((a[1] + b[1]) / 2 - r.top) / r.height);
        pinch = dist; moved = 99;
      }
    });
    const up = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; };
    svg.addEventListener("pointerup", up); svg.addEventListener("pointercancel", up);
    // a drag must not count as a click on an area
    svg.addEventListener("click", (e) => { if (moved > 6) { e.stopPropagation(); e.preventDefault(); } }, true);
    return { zoom, pan, reset, focus };
  }

  function describeAction(action) {
    const [kind, v] = Object.entries(action)[0];
    const n = nameOf;
    switch (kind) {
      case "raid": return v.target ? `Raid from ${n(v.from)} on ${n(v.target)}` : `Remove the raid in ${n(v.from)} (no target)`;
      case "raven":
        if (v === "skip") return "Do not use the Raven";
        if (v === "peek") return "Look at the top wildling card";
        return `Raven: replace the order in ${n(v.replace.area)} with ${tokenName(v.replace.order)}`;
      case "raven_peek": return v === "keep" ? "Keep the wildling card on top" : "Put the wildling card at the bottom";
      case "support": return v.for ? `Support ${cap(v.for)}` : "Support no one";
      case "accept_support": return Object.entries(v).map(([h, ok]) => `${ok ? "Accept" : "Refuse"} ${cap(h)}'s support`).join(", ");
      case "house_card": return `Play ${BOARD.house_cards[v] ? BOARD.house_cards[v].name : v}`;
      case "blade": case "blade_redraw": return v ? "Use the Valyrian Steel Blade" : "Keep the Valyrian Steel Blade";
      case "casualties": return "Lose " + (v.length ? v.map((u) => u.replace(/_/g, " ")).join(", ") : "nothing");
      case "retreat": return `Retreat to ${n(v.to)}` + (v.destroy && v.destroy.length ? ` (destroy ${v.destroy.join(", ")})` : "");
      case "replace_ships": return `Replace ${v} ship(s)`;
      case "consolidate": return `Consolidate power in ${n(v.from)}` + (v.muster ? " and muster" : "");
      case "bid": return `Bid ${v}`;
      case "choose":
        if (typeof v === "string") return "Choose " + (BOARD.house_cards[v] ? BOARD.house_cards[v].name : BOARD.areas[v] ? nameOf(v) : v.replace(/_/g, " "));
        if (typeof v === "boolean") return v ? "Yes" : "No";
        return "Choose " + JSON.stringify(v).replace(/[{}"]/g, " ");
      default: return kind.replace(/_/g, " ") + " " + JSON.stringify(v);
    }
  }

  function describeEvent(ev) {
    const parts = [];
    for (const [k, v] of Object.entries(ev)) {
      if (k === "type" || k === "only") continue;
      let text = v;
      if (typeof v === "string" && BOARD && BOARD.areas[v]) text = nameOf(v);
      else if (typeof v === "string" && BOARD && BOARD.house_cards[v]) text = BOARD.house_cards[v].name;
      else if (typeof v === "object" && v !== null) text = JSON.stringify(v).replace(/["{}]/g, "").replace(/,/g, ", ").slice(0, 160);
      parts.push(`${k.replace(/_/g, " ")}: ${text}`);
    }
    return ev.type.replace(/_/g, " ") + (parts.length ? " — " + parts.join("; ") : "");
  }

  window.Westeros = { loadBoard, drawBoard, enablePanZoom, describeAction, describeEvent, tokenName, tokenText,
    nameOf, cap, LETTER, ordersOf, board: () => BOARD };
})();
