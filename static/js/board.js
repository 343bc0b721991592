/* The AGoT board in SVG, drawn from /board/agot.json (geometry of layout.yaml + map.yaml) and a
   game view (GET /api/v1/games/<id> -> view). Shared by the game page and the replay page.
   No build step: plain browser JavaScript, one global (window.Westeros). */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const LETTER = { stark: "S", lannister: "L", baratheon: "B", greyjoy: "G", tyrell: "T", martell: "M" };
  // the page's words (templates/base.html loads Django's catalogue first; English without it)
  const gettext = window.gettext || ((t) => t);
  const pgettext = window.pgettext || ((c, t) => t);
  const interpolate = window.interpolate || ((t, o) => t.replace(/%\((\w+)\)s/g, (m, k) => o[k]));
  const fmt = (text, values) => interpolate(text, values, true);
  const UNIT_LABEL = { footman: pgettext("agot unit", "footman"), knight: pgettext("agot unit", "knight"),
    ship: pgettext("agot unit", "ship"), siege_engine: pgettext("agot unit", "siege engine") };
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

  /* A crest-like mark per house, drawn in a -10..10 box with currentColor (white on the house colour):
     Stark's direwolf head, Lannister's lion mane, Baratheon's stag antlers, Greyjoy's kraken, Tyrell's
     rose, Martell's sun pierced by a spear. */
  const CRESTS = {
    stark: [["path", { d: "M-8,-9L-3,-3L3,-3L8,-9L8,0L3,9L-3,9L-8,0Z", fill: "currentColor" }],
      ["path", { d: "M-4,1L-1,2M4,1L1,2", stroke: "#000", "stroke-width": 1.2, "stroke-opacity": 0.55 }]],
    lannister: [["path", { d: "M0,-10L3,-6L8,-7L6,-2L10,1L5,3L6,8L1,6L-2,10L-3,5L-8,7L-6,2L-10,-1L-5,-3L-7,-8L-2,-6Z", fill: "currentColor" }]],
    baratheon: [["path", { d: "M0,9L-3,1L3,1Z", fill: "currentColor" }],
      ["path", { d: "M-2,1L-6,-5L-9,-9M-6,-5L-4,-10M-6,-5L-9,-4M2,1L6,-5L9,-9M6,-5L4,-10M6,-5L9,-4", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }]],
    greyjoy: [["circle", { cx: 0, cy: -5, r: 5, fill: "currentColor" }],
      ["path", { d: "M-4,-2Q-9,4 -6,9M-1.5,-1Q-3,5 -1,10M1.5,-1Q3,5 1,10M4,-2Q9,4 6,9", fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round" }]],
    tyrell: [["circle", { cx: 0, cy: -5.5, r: 4, fill: "currentColor" }], ["circle", { cx: 5.2, cy: -1.7, r: 4, fill: "currentColor" }],
      ["circle", { cx: 3.2, cy: 4.5, r: 4, fill: "currentColor" }], ["circle", { cx: -3.2, cy: 4.5, r: 4, fill: "currentColor" }],
      ["circle", { cx: -5.2, cy: -1.7, r: 4, fill: "currentColor" }], ["circle", { cx: 0, cy: 0, r: 2.2, fill: "#000", "fill-opacity": 0.45 }]],
    martell: [["circle", { cx: 0, cy: 0, r: 4.5, fill: "currentColor" }],
      ["path", { d: "M0,-10L1.6,-6L-1.6,-6ZM0,10L1.6,6L-1.6,6ZM-10,0L-6,1.6L-6,-1.6ZM10,0L6,1.6L6,-1.6ZM-7,-7L-3.4,-5.3L-5.3,-3.4ZM7,7L3.4,5.3L5.3,3.4ZM7,-7L5.3,-3.4L3.4,-5.3ZM-7,7L-5.3,3.4L-3.4,5.3Z", fill: "currentColor" }],
      ["path", { d: "M-9,9L9,-9", stroke: "#000", "stroke-opacity": 0.5, "stroke-width": 1.4 }]],
  };
  function crestDefs(defs) {
    for (const [house, parts] of Object.entries(CRESTS)) {
      const sym = el("symbol", { id: "crest-" + house, viewBox: "-10 -10 20 20" }, defs);
      for (const [tag, attrs] of parts) el(tag, attrs, sym);
    }
    const hatch = el("pattern", { id: "impassable-hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 10, height: 10, class: "hatch-bg" }, hatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 10, class: "hatch-line" }, hatch);
  }
  function crest(g, house, x, y, size) {
    if (!CRESTS[house]) return null;
    return el("use", { href: "#crest-" + house, x: x - size / 2, y: y - size / 2, width: size, height: size, class: "crest" }, g);
  }
  /* The crest as a small inline SVG for HTML (house tags, tracks). */
  function crestIcon(house) {
    const svgEl = document.createElementNS(NS, "svg");
    svgEl.setAttribute("viewBox", "-11 -11 22 22");
    svgEl.setAttribute("class", "crest-icon");
    svgEl.setAttribute("aria-hidden", "true");
    el("circle", { cx: 0, cy: 0, r: 11, class: "house-" + house }, svgEl);
    const g = el("g", { class: "crest", transform: "scale(0.8)" }, svgEl);
    for (const [tag, attrs] of CRESTS[house] || []) el(tag, attrs, g);
    return svgEl;
  }

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
  /* An order token's name ("March +1 (special)", in Spanish "Avance +1 (especial)"); `star`: a
     special order marked with ★ instead of "(special)". */
  const ORDER_WORD = { march: pgettext("agot order", "March"), defense: pgettext("agot order", "Defense"),
    support: pgettext("agot order", "Support"), raid: pgettext("agot order", "Raid"), consolidate: pgettext("agot order", "Consolidate Power") };
  function tokenName(token, star) {
    if (!token || token === "hidden") return gettext("face-down order");
    const base = token.replace("*", "");
    const kind = Object.keys(ORDER_WORD).find((k) => base.startsWith(k));
    let name;
    if (!kind) name = base.replace(/([a-z]+)/, (m) => cap(m) + " ");
    else if (base === "consolidate" || base === "support+0") name = ORDER_WORD[kind];
    else name = ORDER_WORD[kind] + " " + base.slice(kind.length);
    if (!token.endsWith("*")) return name;
    return star ? name + " ★" : fmt(gettext("%(order)s (special)"), { order: name });
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

  /* The house whose home area this is, if it is in play: the printed shield, or with random start
     positions (issue 34) the house dealt that start (view.homes, area -> house). */
  function homeOf(view, area) {
    if (!view) return null;
    const a = BOARD && BOARD.areas[area];
    const h = view.homes ? view.homes[area] : a && a.home_of;
    return h && (view.seats || []).includes(h) ? h : null;
  }

  function controller(view, area) {
    const by = (view.units || {})[area] || {};
    const h = Object.keys(by).find((k) => by[k].length);
    if (h) return h;
    if (view.power_tokens && view.power_tokens[area]) return view.power_tokens[area];
    return homeOf(view, area);
  }

  /* A unit: `mark` adds a class ("picked": chosen for a march or a loss; "assigned": given a
     destination already); data-house and data-index (its place in the area's list) let a click on
     it pick that very unit. */
  function drawUnit(g, x, y, house, unit, index, mark) {
    const routed = unit.startsWith("routed_");
    const base = routed ? unit.slice(7) : unit;
    const cls = "unit house-" + house + (routed ? " routed" : "") + (mark ? " " + mark : "");
    let shape, ty = y + 4;
    if (base === "footman") {  // a pawn: head and body
      shape = el("path", { d: `M${x - 10},${y + 12}L${x + 10},${y + 12}L${x + 5},${y - 2}A6.5,6.5 0 1 0 ${x - 5},${y - 2}Z`, class: cls }, g);
      ty = y + 9;
    } else if (base === "knight") shape = el("path", { d: `M${x},${y - 13}L${x + 13},${y}L${x},${y + 13}L${x - 13},${y}Z`, class: cls }, g);
    else if (base === "ship") {
      shape = el("path", { d: `M${x - 15},${y - 1}L${x + 15},${y - 1}L${x + 9},${y + 11}L${x - 9},${y + 11}Z M${x - 1},${y - 1}L${x - 1},${y - 14}L${x + 9},${y - 5}L${x + 1},${y - 5}L${x + 1},${y - 1}Z`, class: cls }, g);
      ty = y + 9;
    } else { shape = el("path", { d: `M${x},${y - 13}L${x + 13},${y + 10}L${x - 13},${y + 10}Z`, class: cls }, g); ty = y + 7; }
    const t = el("text", { x: x, y: ty, class: "unit-letter on-" + house }, g);
    t.textContent = LETTER[house] || "?";
    shape.setAttribute("data-house", house);
    shape.setAttribute("data-index", index === undefined ? "" : String(index));
    if (mark === "picked") el("path", { d: `M${x - 16},${y + 16}L${x + 16},${y + 16}`, class: "unit-picked-bar" }, g);
    const unitName = UNIT_LABEL[base] || base;
    const said = routed ? fmt(gettext("%(house)s routed %(unit)s"), { house: cap(house), unit: unitName })
      : fmt(gettext("%(house)s %(unit)s"), { house: cap(house), unit: unitName });
    title(shape, mark === "picked" ? fmt(gettext("%(unit)s (picked)"), { unit: said })
      : mark === "assigned" ? fmt(gettext("%(unit)s (has a destination)"), { unit: said }) : said);
  }

  function crown(g, x, y) {
    el("path", { d: `M${x - 6},${y + 4}L${x - 6},${y - 3}L${x - 3},${y}L${x},${y - 5}L${x + 3},${y}L${x + 6},${y - 3}L${x + 6},${y + 4}Z`, class: "icon-crown" }, g);
  }
  function barrel(g, x, y) { el("rect", { x: x - 4, y: y - 5, width: 8, height: 10, rx: 3, class: "icon-barrel" }, g); }

  /* An area's name in one or two lines (two when it is long for the area). */
  function label(g, a, x, y) {
    const name = a.name;
    const t = el("text", { x: x, y: y, class: "area-label" + (a.type === "sea" ? " sea-label" : "") }, g);
    const words = name.split(" ");
    if (name.length * 7.5 > Math.max(2 * a.inradius, 110) && words.length > 1) {
      let best = 1, bestDiff = Infinity;
      for (let i = 1; i < words.length; i++) {
        const d = Math.abs(words.slice(0, i).join(" ").length - words.slice(i).join(" ").length);
        if (d < bestDiff) { bestDiff = d; best = i; }
      }
      el("tspan", { x: x, dy: -7 }, t).textContent = words.slice(0, best).join(" ");
      el("tspan", { x: x, dy: 14 }, t).textContent = words.slice(best).join(" ");
    } else t.textContent = name;
    return t;
  }

  /* An order token: a disc in the house colour holding its text (shrunk to fit when needed). */
  function orderToken(parent, x, y, house, token, cls, tip) {
    const g = el("g", { class: "order " + cls }, parent);
    el("circle", { cx: x, cy: y, r: 17, class: "order-token house-" + house }, g);
    el("circle", { cx: x, cy: y, r: 18.5, class: "order-ring" }, g);
    const t = el("text", { x: x, y: y + 4.5, class: "order-text" }, g);
    t.textContent = tokenText(token);
    el("text", { x: x + 13, y: y - 12, class: "order-house" }, g).textContent = LETTER[house] || "";
    title(g, tip);
    return g;
  }
  function fitTexts(svg) {
    // the text of an order token stays inside its disc: 26 units across at most
    for (const t of svg.querySelectorAll("text.order-text")) {
      let len = 0;
      try { len = t.getComputedTextLength(); } catch (e) { len = 0; }
      if (len > 26) { t.setAttribute("textLength", "26"); t.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    }
  }

  /* Draws the whole board into `svg` for `view` as seen by `seat`. opts.highlight: {area: css class};
     opts.onArea(area, piece): click handler (piece: {house, index} when a unit was clicked);
     opts.draftOrders: {area: token} the seat is composing (drawn as dashed tokens before they are
     submitted); opts.unitMarks: {area: {house: {index: "picked" | "assigned"}}}. */
  function drawBoard(svg, view, seat, opts) {
    opts = opts || {};
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!svg.getAttribute("viewBox")) svg.setAttribute("viewBox", `0 0 ${BOARD.width} ${BOARD.height}`);
    const defs = el("defs", {}, svg);
    crestDefs(defs);
    el("rect", { x: 0, y: 0, width: BOARD.width, height: BOARD.height, class: "sea-bg" }, svg);
    const layers = { sea: el("g", {}, svg), land: el("g", {}, svg), port: el("g", {}, svg) };
    const bands = el("g", { class: "bands" }, svg);
    const rivers = el("g", { class: "rivers" }, svg);
    const marks = el("g", { class: "marks" }, svg);
    const piecesLayer = el("g", { class: "pieces" }, svg);
    svg.__onArea = opts.onArea || null;
    if (!svg.__areaListener) {
      svg.__areaListener = true;
      svg.addEventListener("click", (e) => {
        const target = e.target.closest && e.target.closest("[data-area]");
        // a click on a unit says which one (its house and its place in the area's list)
        const unit = e.target.closest && e.target.closest("[data-house][data-index]");
        const piece = unit && unit.getAttribute("data-index") !== "" ? { house: unit.getAttribute("data-house"), index: parseInt(unit.getAttribute("data-index"), 10) } : null;
        if (target && svg.__onArea) svg.__onArea(target.getAttribute("data-area"), piece);
      });
      svg.addEventListener("keydown", (e) => {
        if ((e.key === "Enter" || e.key === " ") && e.target.getAttribute && e.target.getAttribute("data-area") && svg.__onArea) {
          e.preventDefault(); e.stopPropagation(); svg.__onArea(e.target.getAttribute("data-area"));
        }
      });
    }
    const orders = ordersOf(view, seat);
    for (const [area, token] of Object.entries(opts.draftOrders || {})) {
      if (!orders[area] || orders[area].token === "hidden") orders[area] = { house: seat, token: token, up: false, draft: true };
    }
    const hl = opts.highlight || {};
    for (const r of BOARD.rivers || []) {
      const line = el("path", { d: "M" + r.line.map((p) => p[0] + "," + p[1]).join("L"), class: "river", "data-river": r.areas.join(" ") }, rivers);
      title(line, fmt(gettext("River between %(a)s and %(b)s"), { a: nameOf(r.areas[0]), b: nameOf(r.areas[1]) }));
    }
    // fog of war (issue 34): the server sends only the areas this seat sees (view.fog.visible);
    // every other area is drawn shaded and said to be unknown, with nothing of anyone's in it
    const seen = view.fog && Array.isArray(view.fog.visible) ? new Set(view.fog.visible) : null;
    for (const [id, a] of Object.entries(BOARD.areas)) {
      let d = pts(a.outline);
      for (const hole of a.holes || []) d += pts(hole);
      const fogged = seen !== null && !seen.has(id);
      const owner = a.type === "land" && !fogged ? controller(view, id) : null;
      const nf = (view.neutral_forces || {})[id];
      const cls = ["area", "area-" + a.type, owner ? "owned house-" + owner : "", nf === "impassable" ? "impassable" : "",
        fogged ? "fogged" : "", hl[id] || ""].join(" ");
      const path = el("path", { d: d, class: cls, "fill-rule": "evenodd", "data-area": id }, layers[a.type] || layers.land);
      title(path, a.name + (owner ? ` (${cap(owner)})` : "") + (nf === "impassable" ? " " + gettext("(impassable)") : "")
        + (fogged ? " " + gettext("(unknown: hidden by the fog of war)") : ""));
      if (hl[id] && opts.onArea) { path.setAttribute("tabindex", "0"); path.setAttribute("role", "button"); path.setAttribute("aria-label", a.name); }
      if (owner) {
        // a band in the house colour inside the border: the outline, clipped to the area
        const clip = el("clipPath", { id: "clip-" + id }, defs);
        el("path", { d: pts(a.outline) }, clip);
        el("path", { d: pts(a.outline), class: "control-band band-" + owner, "clip-path": `url(#clip-${id})` }, bands);
      }
      const [cx, cy] = a.center;
      const top = cy - Math.min(a.inradius, 46);
      if (a.type !== "port") label(marks, a, cx, top + 14);
      // icons: castle / stronghold, supply barrels, crowns, home shield
      const icons = (a.structure !== "none" ? 1 : 0) + a.supply + a.crowns;
      let ix = cx - icons * 7, iy = top + 30;
      if (a.structure === "stronghold") {
        title(el("path", { d: `M${ix - 7},${iy + 7}L${ix - 7},${iy - 6}L${ix - 3},${iy - 6}L${ix - 3},${iy - 2}L${ix + 3},${iy - 2}L${ix + 3},${iy - 6}L${ix + 7},${iy - 6}L${ix + 7},${iy + 7}Z`, class: "icon-stronghold" }, marks), "Stronghold");
        ix += 17;
      } else if (a.structure === "castle") {
        title(el("rect", { x: ix - 5, y: iy - 5, width: 10, height: 11, class: "icon-castle" }, marks), "Castle");
        ix += 14;
      }
      for (let i = 0; i < a.supply; i++) { barrel(marks, ix, iy); ix += 11; }
      for (let i = 0; i < a.crowns; i++) { crown(marks, ix + 2, iy); ix += 15; }
      const home = homeOf(view, id);
      if (home) {
        const sx = ix + 10, sy = iy;
        const shield = el("path", { d: `M${sx - 9},${sy - 9}L${sx + 9},${sy - 9}L${sx + 9},${sy + 2}L${sx},${sy + 11}L${sx - 9},${sy + 2}Z`, class: "shield house-" + home }, marks);
        title(shield, fmt(gettext("Home of %(house)s"), { house: cap(home) }));
        crest(marks, home, sx, sy, 13);
      }
      // garrison, neutral force, power token, units and order: one group per area, so a click on a
      // piece is a click on its area
      const pieces = el("g", { "data-area": id }, piecesLayer);
      const by = (view.units || {})[id] || {};
      const count = Object.values(by).reduce((n, us) => n + us.length, 0);
      const uy = cy + (a.type === "port" ? 0 : 14);
      let px = cx - 26, py = uy + 34;
      const gar = (view.garrisons || {})[id];
      if (gar) {
        const gh = controller(view, id) || "neutral";
        title(el("rect", { x: px - 11, y: py - 11, width: 22, height: 22, rx: 3, class: "garrison house-" + gh }, pieces), `Garrison ${gar}`);
        el("text", { x: px, y: py + 4, class: "token-text on-" + gh }, pieces).textContent = gar;
        px += 26;
      }
      if (nf !== undefined && nf !== null) {
        const text = nf === "impassable" ? "✕" : nf;
        title(el("path", { d: `M${px - 12},${py}L${px - 6},${py - 11}L${px + 6},${py - 11}L${px + 12},${py}L${px + 6},${py + 11}L${px - 6},${py + 11}Z`, class: "neutral" }, pieces), nf === "impassable" ? "Impassable" : `Neutral force ${nf}`);
        el("text", { x: px, y: py + 4, class: "token-text neutral-text" }, pieces).textContent = text;
        px += 28;
      }
      const ptok = (view.power_tokens || {})[id];
      if (ptok) {
        const g = el("g", { class: "power" }, pieces);
        el("circle", { cx: px, cy: py, r: 11, class: "power-token house-" + ptok }, g);
        el("circle", { cx: px, cy: py, r: 12.5, class: "power-ring" }, g);
        crest(g, ptok, px, py, 14);
        title(g, fmt(gettext("%(house)s power token (control)"), { house: cap(ptok) }));
      }
      for (const [house, units] of Object.entries(by)) {
        const n = units.length;
        const marks = ((opts.unitMarks || {})[id] || {})[house] || {};
        units.forEach((u, i) => drawUnit(pieces, cx - (n - 1) * 14 + i * 28, uy, house, u, i, marks[i]));
      }
      const o = orders[id];
      if (o) {
        const ox = cx + Math.max(a.type === "port" ? 18 : 30, count * 14 + 20), oy = uy + (a.type === "port" ? -18 : 0);
        const hidden = o.token === "hidden";
        const tip = `${cap(o.house)}: ${tokenName(o.token)}` + (o.draft ? " " + gettext("(your draft, not placed yet)") : o.up ? "" : hidden ? "" : " " + gettext("(face down, only you see it)"));
        orderToken(pieces, ox, oy, o.house, o.token, (o.up ? "face-up" : "face-down") + (hidden ? " hidden" : "") + (o.draft ? " draft" : ""), tip);
      }
    }
    fitTexts(svg);
    return svg;
  }

  /* Pan and zoom by changing the viewBox. The view starts fitted to the board's width (at the top) and
     scrolls vertically: the wheel scrolls it (and the page once the board's edge is reached), Ctrl or
     ⌘ + wheel and a two-finger pinch zoom, a drag pans; keys: arrows, + and −, 0 (fit the width);
     buttons: zoom, pan, "Fit width", "Whole board". The viewBox keeps the element's proportions. */
  function enablePanZoom(svg, toolbar) {
    const W0 = BOARD.width, H0 = BOARD.height;
    const ratio = () => { const r = svg.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r.height / r.width : H0 / W0; };
    let vb = [0, 0, W0, W0 * ratio()];
    // on a narrow screen the whole width would make the names too small to read: start zoomed in
    // (about 1.1 board units per pixel, the top middle; the game page then centres on your home)
    const start = svg.getBoundingClientRect();
    if (start.width > 0 && start.width < 600) { const w = Math.max(300, start.width * 1.1); vb = [(W0 - w) / 2, 0, w, w * ratio()]; }
    function clamp() {
      let [x, y, w, h] = vb;
      x = w >= W0 ? (W0 - w) / 2 : Math.min(Math.max(x, 0), W0 - w);
      y = h >= H0 ? (H0 - h) / 2 : Math.min(Math.max(y, 0), H0 - h);
      vb = [x, y, w, h];
    }
    const apply = () => { clamp(); svg.setAttribute("viewBox", vb.map((n) => Math.round(n * 10) / 10).join(" ")); };
    function zoom(f, fx, fy) {
      const [x, y, w, h] = vb;
      const most = Math.max(W0, H0 / ratio()) * 1.02;
      const nw = Math.min(most, Math.max(120, w * f)), nh = nw * ratio();
      fx = fx === undefined ? 0.5 : fx; fy = fy === undefined ? 0.5 : fy;
      vb = [x + (w - nw) * fx, y + (h - nh) * fy, nw, nh]; apply();
    }
    function pan(dx, dy) { vb[0] += dx * vb[2]; vb[1] += dy * vb[3]; apply(); }
    function reset() { vb = [0, 0, W0, W0 * ratio()]; apply(); }   // fit to the width, top of the board
    function whole() { const h = H0 * 1.02, w = Math.max(W0, h / ratio()); vb = [0, 0, w, w * ratio()]; apply(); }
    function focus(cx, cy, w) { const h = w * ratio(); vb = [cx - w / 2, cy - h / 2, w, h]; apply(); }
    /* Brings points ([x, y] in board units) into view without zooming: nothing moves when they are all
       in view already; otherwise the view centres on them (on the first ones that fit). */
    function reveal(points) {
      if (!points.length) return;
      const [x, y, w, h] = vb, m = 40;
      if (points.every(([px, py]) => px >= x + m && px <= x + w - m && py >= y + m && py <= y + h - m)) return;
      let xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
      if (Math.max(...ys) - Math.min(...ys) > h - 2 * m) { ys = [points[0][1]]; xs = [points[0][0]]; }
      vb = [(Math.min(...xs) + Math.max(...xs)) / 2 - w / 2, (Math.min(...ys) + Math.max(...ys)) / 2 - h / 2, w, h]; apply();
    }
    apply();
    if (window.ResizeObserver) {
      // a resized window keeps the view's width and centre; the height follows the element
      new ResizeObserver(() => { const cy = vb[1] + vb[3] / 2; vb[3] = vb[2] * ratio(); vb[1] = cy - vb[3] / 2; apply(); }).observe(svg);
    }
    if (toolbar) toolbar.addEventListener("click", (e) => {
      const b = e.target.closest("button"); if (!b) return;
      if (b.dataset.zoom === "in") zoom(0.7); else if (b.dataset.zoom === "out") zoom(1 / 0.7);
      else if (b.dataset.zoom === "reset") reset();
      else if (b.dataset.zoom === "whole") whole();
      else if (b.dataset.pan) pan(...{ left: [-0.2, 0], right: [0.2, 0], up: [0, -0.2], down: [0, 0.2] }[b.dataset.pan]);
    });
    svg.addEventListener("keydown", (e) => {
      const k = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] }[e.key];
      if (k) { pan(...k); e.preventDefault(); } else if (e.key === "+" || e.key === "=") zoom(0.8);
      else if (e.key === "-") zoom(1.25); else if (e.key === "0") reset();
    });
    svg.addEventListener("wheel", (e) => {
      const r = svg.getBoundingClientRect();
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 0.85 : 1 / 0.85, (e.clientX - r.left) / r.width, (e.clientY - r.top) / r.height);
        return;
      }
      // scroll the view; at the board's edge the page scrolls instead
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? r.height : 1;
      const before = vb.join();
      vb[0] += e.deltaX * unit * vb[2] / r.width; vb[1] += e.deltaY * unit * vb[3] / r.height; apply();
      if (vb.join() !== before) e.preventDefault();
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
    return { zoom, pan, reset, whole, focus, reveal, box: () => vb.slice() };
  }

  function describeAction(action) {
    const [kind, v] = Object.entries(action)[0];
    const n = nameOf;
    switch (kind) {
      case "raid": return v.target ? fmt(gettext("Raid from %(from)s on %(target)s"), { from: n(v.from), target: n(v.target) })
        : fmt(gettext("Remove the raid in %(area)s (no target)"), { area: n(v.from) });
      case "raven":
        if (v === "skip") return gettext("Do not use the Raven");
        if (v === "peek") return gettext("Look at the top wildling card");
        return fmt(gettext("Raven: replace the order in %(area)s with %(order)s"), { area: n(v.replace.area), order: tokenName(v.replace.order) });
      case "raven_peek": return v === "keep" ? gettext("Keep the wildling card on top") : gettext("Put the wildling card at the bottom");
      case "support": return v.for ? fmt(gettext("Support %(house)s"), { house: cap(v.for) }) : gettext("Support no one");
      case "accept_support": return Object.entries(v).map(([h, ok]) => fmt(ok ? gettext("Accept %(house)s's support") : gettext("Refuse %(house)s's support"), { house: cap(h) })).join(", ");
      case "house_card": return fmt(gettext("Play %(card)s"), { card: BOARD.house_cards[v] ? BOARD.house_cards[v].name : v });
      case "blade": case "blade_redraw": return v ? gettext("Use the Valyrian Steel Blade") : gettext("Keep the Valyrian Steel Blade");
      case "casualties": return fmt(gettext("Lose %(units)s"), { units: v.length ? v.map(idInWords).join(", ") : gettext("nothing") });
      case "retreat": return v.destroy && v.destroy.length ? fmt(gettext("Retreat to %(area)s (destroy %(units)s)"), { area: n(v.to), units: inWords(v.destroy) })
        : fmt(gettext("Retreat to %(area)s"), { area: n(v.to) });
      case "replace_ships": return fmt(gettext("Replace %(count)s ship(s)"), { count: v });
      case "consolidate": return fmt(v.muster ? gettext("Consolidate power in %(area)s and muster") : gettext("Consolidate power in %(area)s"), { area: n(v.from) });
      case "bid": return fmt(gettext("Bid %(count)s"), { count: v });
      case "draft": {  // issue 34: a turn of the house-card or Influence-track draft
        if (v && v.track) {
          const tracks = { iron_throne: gettext("the Iron Throne track"), fiefdoms: gettext("the Fiefdoms track"), kings_court: gettext("the King's Court track") };
          return fmt(gettext("Take the next place on %(track)s"), { track: tracks[v.track] || inWords(v.track) });
        }
        const card = v && BOARD.house_cards[v.card];
        return card ? fmt(gettext("Draft %(card)s (strength %(strength)s, %(house)s)"), { card: card.name, strength: card.strength, house: cap(card.house || "") })
          : fmt(gettext("Draft %(card)s"), { card: inWords(v && v.card) });
      }
      case "choose":
        if (typeof v === "boolean") return v ? gettext("Yes") : gettext("No");
        return fmt(gettext("Choose %(what)s"), { what: inWords(v) });
      case "break_tie": return fmt(gettext("Order: %(houses)s"), { houses: inWords(v) });
      case "march": return v && v.from ? (v.moves && Object.keys(v.moves).length
        ? fmt(gettext("March from %(area)s: %(moves)s"), { area: n(v.from), moves: inWords(v.moves) })
        : fmt(gettext("March from %(area)s without moving"), { area: n(v.from) })) : pgettext("agot order", "March");
      case "reduce": return fmt(gettext("Destroy %(units)s"), { units: inWords(v) });
      case "muster": return v && Object.keys(v).length ? fmt(gettext("Muster %(units)s"), { units: inWords(v) }) : gettext("Muster nothing");
      default: return cap(kind.replace(/_/g, " ")) + (v === null || v === undefined || v === "" ? "" : ": " + inWords(v));
    }
  }

  /* Any action value in words: area, house, card and unit ids by their names; lists joined with
     "and"; {area: [units]} as "footman and knight in Winterfell"; other mappings as "key: value". */
  const UNIT_IDS = new Set(["footman", "knight", "ship", "siege_engine"]);
  function idInWords(x) {
    if (BOARD && BOARD.areas[x]) return nameOf(x);
    if (BOARD && BOARD.house_cards[x]) return BOARD.house_cards[x].name;
    if (BOARD && BOARD.westeros_cards && BOARD.westeros_cards[x]) return BOARD.westeros_cards[x].name;
    if (BOARD && BOARD.wildling_cards && BOARD.wildling_cards[x]) return BOARD.wildling_cards[x].name;
    if (LETTER[x]) return cap(x);
    const unit = String(x).replace(/^routed_/, "");
    if (UNIT_IDS.has(unit)) return x !== unit ? fmt(gettext("routed %(unit)s"), { unit: UNIT_LABEL[unit] || unit }) : (UNIT_LABEL[unit] || unit);
    if (/^(march|defense|support|raid|consolidate)/.test(x)) return tokenName(x);
    return String(x).replace(/_/g, " ");
  }
  function listWords(items) {
    return items.length < 2 ? items.join("") : fmt(gettext("%(items)s and %(last)s"), { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
  }
  function inWords(v) {
    if (v === null || v === undefined) return gettext("nothing");
    if (typeof v === "boolean") return v ? gettext("yes") : gettext("no");
    if (typeof v === "number") return String(v);
    if (typeof v === "string") return idInWords(v);
    if (Array.isArray(v)) return v.length ? listWords(v.map(inWords)) : gettext("nothing");
    const entries = Object.entries(v);
    if (!entries.length) return gettext("nothing");
    if (entries.every(([k, x]) => BOARD && BOARD.areas[k] && Array.isArray(x))) {
      return entries.map(([k, x]) => fmt(gettext("%(what)s in %(area)s"), { what: inWords(x), area: nameOf(k) })).join("; ");
    }
    return entries.map(([k, x]) => `${idInWords(k)}: ${inWords(x)}`).join("; ");
  }

  function describeEvent(ev) {
    const parts = [];
    for (const [k, v] of Object.entries(ev)) {
      if (k === "type" || k === "only") continue;
      let text = v;
      if (typeof v === "string" && BOARD && BOARD.areas[v]) text = nameOf(v);
      else if (typeof v === "string" && BOARD && BOARD.house_cards[v]) text = BOARD.house_cards[v].name;
      else if (v !== null && v !== undefined) text = inWords(v);
      parts.push(`${k.replace(/_/g, " ")}: ${text}`);
    }
    return ev.type.replace(/_/g, " ") + (parts.length ? " — " + parts.join("; ") : "");
  }

  /* Where units of `seat` marching from `from` may go (R146-R163, R248-R251, R259-R265), as the
     engine checks it (games/engine/agot/action.py check_moves): {area: reason-free true}. Land units:
     adjacent land areas and land reached by ship transport (chains of seas with the seat's ships);
     ships: adjacent seas and the seat's own ports. Impassable areas never. */
  function marchTargets(view, seat, from, units) {
    const B = BOARD.areas, units0 = (view.units || {});
    const out = {};
    if (!B[from]) return out;
    units = (units || []).filter((u) => !u.startsWith("routed_"));   // routed units never move (R162)
    const land = units.some((u) => u !== "ship"), ships = units.some((u) => u === "ship");
    const ok = (a) => (view.neutral_forces || {})[a] !== "impassable" && a !== from;
    if (land && !ships && B[from].type === "land") {
      for (const a of B[from].adjacent) if (B[a].type === "land" && ok(a)) out[a] = true;
      const seen = new Set(), frontier = B[from].adjacent.filter((s) => B[s].type === "sea" && ((units0[s] || {})[seat] || []).length);
      frontier.forEach((s) => seen.add(s));
      while (frontier.length) {
        const s = frontier.pop();
        for (const t of B[s].adjacent) if (!seen.has(t) && B[t].type === "sea" && ((units0[t] || {})[seat] || []).length) { seen.add(t); frontier.push(t); }
      }
      for (const s of seen) for (const a of B[s].adjacent) if (B[a].type === "land" && ok(a)) out[a] = true;
    } else if (ships && !land) {
      for (const a of B[from].adjacent) {
        if (B[a].type === "sea" && ok(a)) out[a] = true;
        // a friendly port (R149, R251), never one holding enemy ships (R250), three ships at most (R248)
        const inPort = Object.entries(units0[a] || {});
        if (B[a].type === "port" && controller(view, B[a].land_area) === seat && !inPort.some(([h2, us]) => h2 !== seat && us.length)
          && inPort.reduce((k, [, us]) => k + us.length, 0) + units.length <= 3) out[a] = true;
      }
    }
    return out;
  }

  /* Entering `area` starts a combat for `seat`: enemy units, an enemy garrison or a neutral force
     (action.py is_combat_area; R150, R160, R283). */
  function isCombatArea(view, seat, area) {
    if (Object.entries((view.units || {})[area] || {}).some(([h2, us]) => h2 !== seat && us.length)) return true;
    const home = homeOf(view, area);
    if ((view.garrisons || {})[area] && home && home !== seat) return true;
    const nf = (view.neutral_forces || {})[area];
    return nf !== undefined && nf !== null && nf !== "impassable";
  }

  /* A translated template with named placeholders as a list of pieces (text and nodes), so a house's
     badge keeps its place in any word order: sayPieces("%(a)s attacks %(b)s", {a: node, b: node}). */
  function sayPieces(template, values) {
    return template.split(/%\((\w+)\)s/).map((piece, i) => (i % 2 ? values[piece] : piece)).filter((x) => x !== "");
  }

  /* A server message with area ids ("lannisport", "the_twins") in words ("Lannisport", "The Twins"). */
  function namesIn(text) {
    if (!BOARD || !text) return text;
    return String(text).replace(/\b[a-z][a-z_]*[a-z]\b/g, (w) => (BOARD.areas[w] ? BOARD.areas[w].name : w));
  }

  /* The tracks as the table shows them, in HTML: round, wildling threat, influence tracks with the
     holders of the Iron Throne, Valyrian Steel Blade and Messenger Raven, supply with army limits,
     victory out of 7, this round's Westeros cards. */
  function hh(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) n.setAttribute(k, v);
    for (const k of kids.flat(Infinity)) if (k !== null && k !== undefined && k !== "") n.append(k instanceof Node ? k : String(k));
    return n;
  }
  function houseBadge(house) { return hh("span", { class: "house-tag house-" + house }, crestIcon(house), cap(house)); }
  /* A house's power as a view gives it: a number, or "hidden" while a bid is open (R290). */
  function powerWord(n) { return n === "hidden" ? pgettext("agot power", "hidden") : n; }
  function renderTracks(view) {
    const B = BOARD, v = view, seats = v.seats;
    const stars = (B.stars[seats.length] || []);
    const rounds = B.rounds || 10, target = B.victory_target || 7, attack = B.wildling_attack_at || 12;
    const out = [];
    out.push(hh("h3", {}, fmt(gettext("Round %(round)s of %(rounds)s"), { round: v.round, rounds })),
      hh("div", { class: "pips", "data-track": "round" }, Array.from({ length: rounds }, (_, i) =>
        hh("span", { class: "pip" + (i + 1 === v.round ? " on" : ""), "aria-current": i + 1 === v.round ? "step" : null }, i + 1))));
    out.push(hh("h3", {}, fmt(gettext("Wildling threat %(threat)s of %(attack)s"), { threat: v.wildlings, attack })),
      hh("div", { class: "pips", "data-track": "wildlings" }, [0, 2, 4, 6, 8, 10, 12].map((n) =>
        hh("span", { class: "pip" + (n === v.wildlings ? " on" : "") + (n === attack ? " danger" : ""), title: n === attack ? gettext("the wildlings attack") : null }, n))));
    const t = v.tracks || {};
    const holder = (k) => (t[k] || [])[0];
    const used = (yes) => " " + (yes ? gettext("(used this round)") : gettext("(ready)"));
    out.push(hh("h3", {}, gettext("Dominance tokens")), hh("ul", { class: "holders", "data-track": "holders" },
      holder("iron_throne") ? hh("li", {}, gettext("Iron Throne:"), " ", houseBadge(holder("iron_throne"))) : null,
      holder("fiefdoms") ? hh("li", {}, gettext("Valyrian Steel Blade:"), " ", houseBadge(holder("fiefdoms")), used(v.used && v.used.valyrian_steel_blade)) : null,
      holder("kings_court") ? hh("li", {}, gettext("Messenger Raven:"), " ", houseBadge(holder("kings_court")), used(v.used && v.used.messenger_raven)) : null));
    const influence = (label, key, extra) => hh("div", { class: "track", "data-track": key }, hh("strong", {}, label), " ",
      (t[key] || []).map((house, i) => hh("span", { class: "track-pos" }, `${i + 1}.`, houseBadge(house), extra ? extra(i) : "")));
    out.push(hh("h3", {}, gettext("Influence tracks")), influence(gettext("Iron Throne"), "iron_throne"), influence(gettext("Fiefdoms"), "fiefdoms"),
      influence(gettext("King's Court"), "kings_court", (i) => (stars[i] ? " " + "★".repeat(stars[i]) : "")));
    out.push(hh("h3", {}, fmt(gettext("Victory: castles and strongholds (%(target)s wins)"), { target })), hh("div", { "data-track": "victory" }, seats.map((house) =>
      hh("div", { class: "victory-row" }, houseBadge(house), hh("span", { class: "bar", "aria-hidden": "true" },
        Array.from({ length: target }, (_, i) => hh("span", { class: i < (v.victory || {})[house] ? "on" : "" }))), " " + fmt(gettext("%(count)s of %(target)s"), { count: (v.victory || {})[house], target })))));
    const limits = B.supply_limits || {};
    out.push(hh("h3", {}, gettext("Supply (armies allowed)")), hh("table", { class: "small supply-track", "data-track": "supply" },
      hh("thead", {}, hh("tr", {}, hh("th", {}, gettext("Level")), hh("th", {}, gettext("Armies of at most")), hh("th", {}, gettext("Houses")))),
      hh("tbody", {}, Object.keys(limits).map(Number).sort((x, y) => y - x).map((lvl) => {
        const here = seats.filter((house) => (v.supply || {})[house] === lvl);
        return hh("tr", { class: here.length ? "occupied" : "" }, hh("td", {}, lvl), hh("td", {}, limits[lvl].join(", ")), hh("td", {}, here.map(houseBadge)));
      }))));
    out.push(hh("p", { class: "power-line" }, hh("strong", {}, gettext("Power tokens available:"), " "), seats.map((house, i) => hh("span", {}, i ? " · " : "", houseBadge(house), " ", powerWord((v.power || {})[house])))));
    const drawn = ((v.revealed || {}).westeros || []).filter((id) => B.westeros_cards && B.westeros_cards[id]);
    out.push(hh("h3", {}, gettext("Westeros cards this round")), drawn.length
      ? hh("ul", { class: "westeros-cards", "data-track": "westeros" }, drawn.map((id) => {
        const c = B.westeros_cards[id];
        return hh("li", {}, hh("span", { class: "deck" }, c.deck), hh("strong", {}, c.name), c.wildling_icon ? " " + gettext("(wildling icon)") : "", ": ", c.effect);
      }))
      : hh("p", { class: "empty", "data-track": "westeros" }, v.round === 1 ? gettext("None in round 1 (no Westeros phase).") : gettext("Not drawn yet.")));
    return hh("div", { class: "tracks-box" }, out);
  }

  /* One line above the board: round, wildling threat, the three dominance tokens' holders, this
     round's Westeros cards (their effect on hover and in the Tracks panel). */
  function renderStrip(view) {
    const v = view, t = v.tracks || {}, B = BOARD;
    const item = (label, ...kids) => hh("span", { class: "strip-item" }, hh("strong", {}, label), " ", kids);
    const drawn = ((v.revealed || {}).westeros || []).filter((id) => B.westeros_cards && B.westeros_cards[id]);
    return hh("div", { class: "strip-items" },
      item(pgettext("agot table strip", "Round"), `${v.round}/${B.rounds || 10}`),
      item(pgettext("agot table strip", "Wildlings"), `${v.wildlings}/${B.wildling_attack_at || 12}`),
      t.iron_throne && t.iron_throne[0] ? item(gettext("Iron Throne"), houseBadge(t.iron_throne[0])) : null,
      t.fiefdoms && t.fiefdoms[0] ? item(pgettext("agot table strip", "Blade"), houseBadge(t.fiefdoms[0]), v.used && v.used.valyrian_steel_blade ? " " + pgettext("agot table strip", "used") : "") : null,
      t.kings_court && t.kings_court[0] ? item(pgettext("agot table strip", "Raven"), houseBadge(t.kings_court[0]), v.used && v.used.messenger_raven ? " " + pgettext("agot table strip", "used") : "") : null,
      drawn.length ? item(pgettext("agot table strip", "Westeros"), drawn.map((id, i) => hh("span", { class: "strip-card", title: B.westeros_cards[id].effect }, i ? " · " : "", B.westeros_cards[id].name))) : null);
  }

  window.Westeros = { loadBoard, drawBoard, homeOf, enablePanZoom, describeAction, describeEvent, tokenName, tokenText,
    nameOf, cap, LETTER, sayPieces, powerWord, ordersOf, marchTargets, isCombatArea, namesIn, inWords, renderTracks, renderStrip, crestIcon, houseBadge, board: () => BOARD };
})();
