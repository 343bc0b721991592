/* The miniatures game (minis) in the browser, in two parts.

   The drawing (window.MinisTable, also used by the replay, static/js/replay.js): a top-down SVG of
   the table at true scale (1 SVG unit = 1 inch), from the API's `view` and `summary` and the public
   catalogue (web/minis.py): terrain with its type, the deployment zones, the Here We Stand
   quadrants (control and points), objective tokens, every tray at its size and facing (ranks and
   figures left, wounds, conditions, Activation and Order tokens, Influence), the active unit
   highlighted. The viewer's own table edge is at the bottom. `describeEvent` says an event in words.

   The game page (#game.minis): select a unit (click its tray), drag a ghost tray to move it (drag the
   body, turn it with the round handle, nudge it with the arrows); the server's move check
   (POST /check, nothing applied) answers live with the resolved pose or the reason it is refused;
   Confirm sends the action built from the ghost in the engine's notation (a Maneuver is "pivot to
   the bearing of the move, straight forward, pivot to the ghost's facing" about the tray centre).
   Every decision the engine asks is answered from the panel (deploy, activate, actions, charges and
   attacks with their targets, retreats, re-rolls and condition tokens, reaction windows with pass
   and auto-pass, zone choices, discards, redeployment). Tools: measuring tape, range rings, arcs,
   the selected unit's line of sight (asked of the same check).
   Zoom and pan with the wheel, the buttons, and one or two fingers. Names, never ids. */
(function () {
  "use strict";
  const { h } = window.WesterosClient;
  /* Words in the reader's language (the JS catalogue, templates/base.html): fmt(gettext("%(n)s in"), {n}). */
  const fmt = (msg, o) => interpolate(msg, o || {}, true);
  const inch = (x) => fmt(gettext("%(n)s in"), { n: String(x).replace(".", pgettext("decimal separator", ".")) });
  const SVGNS = "http://www.w3.org/2000/svg";

  function s(tag, attrs, ...children) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c.nodeType ? c : document.createTextNode(String(c)));
    return node;
  }

  // ------------------------------------------------------------------ what the drawing reads

  let C = { cards: {}, trays: {}, terrain: {}, zones: {}, conditions: {}, keywords: {}, quadrants: {} };
  let V = {}, S = {}, ME = null, NAMES = {};

  function use(view, summary, catalogue, opts) {
    opts = opts || {};
    V = view || {}; S = summary || {}; ME = opts.seat || null; NAMES = opts.names || NAMES;
    C = catalogue;
    const extra = V.cards || {};
    if (extra && typeof extra === "object" && Object.keys(extra).length) {
      C = Object.assign({}, catalogue, { cards: Object.assign({}, catalogue.cards) });
      for (const [id, c] of Object.entries(extra)) C.cards[id] = fromRaw(id, c);
    }
  }
  /* A scenario's synthetic unit card (the engine's format) as the catalogue has it. */
  function fromRaw(id, c) {
    const t = C.trays[c.tray] || { width: 5.5, depth: 4.8, files: 4 };
    return { kind: "unit", name: c.name || gettext("Unit"), faction: c.faction, type: c.type, tray: c.tray, width: t.width, depth: t.depth,
      files: t.files, speed: c.speed, defense: c.defense_save, morale: c.morale, attacks: (c.attacks || []).map((a) => ({ name: a.name, range: a.range, hit: a.hit, dice: a.dice })),
      figures: c.figures, wounds_per_figure: c.wounds_per_figure || 1, ranks: c.ranks, wounds: (c.figures || 1) * (c.wounds_per_figure || 1), abilities: [] };
  }

  const cap = (x) => String(x ?? "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  /* A second copy of an NCU (a house played twice, M131) is keyed `30104_2`: the same card. */
  const card = (id) => C.cards[id] || C.cards[String(id ?? "").replace(/_\d+$/, "")] || { name: gettext("a card"), kind: "?", abilities: [], attacks: [] };
  const seats = () => V.seats || S.seats || [];
  const factionName = (f) => (C.factions || {})[f] || cap(f);
  /* A seat without a player is the computer's: the server names it by its id (web/views.py _seat_names). */
  const isComputerSeat = (seat) => NAMES[seat] !== undefined && NAMES[seat] === String(seat).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  function seatName(seat) { return !isComputerSeat(seat) && NAMES[seat] || factionName(seat); }
  /* "alys (Lannister)", "Casa Lannister (ordenador)": a player with their army, the computer's army as such. */
  function seatLabel(seat) {
    if (isComputerSeat(seat)) return fmt(gettext("%(army)s (computer)"), { army: factionName(seat) });
    return NAMES[seat] && NAMES[seat] !== factionName(seat) ? fmt(gettext("%(name)s (%(army)s)"), { name: NAMES[seat], army: factionName(seat) }) : factionName(seat);
  }
  /* Three or four players (issue 33, M130/M131): teams {seat: a | b}, corners {seat: sw...}, the eliminated. */
  const multi = (key) => S[key] ?? V[key];   // the summary's public record (games/engine/minis/summary.py)
  const isTeams = () => multi("multiplayer") === "teams";
  const teamOf = (seat) => (multi("teams") || {})[seat];
  const isOut = (seat) => (multi("eliminated") || []).includes(seat);
  const cornersOf = () => multi("corners") || {};
  const teamSeats = (team) => seats().filter((x) => teamOf(x) === team);
  const teamName = (team) => teamSeats(team).map(factionName).join(" " + gettext("and") + " ");
  // a team game is won by a team (M130): its key names no seat
  const wonByTeam = (winner) => isTeams() && teamSeats(winner).length > 0;
  /* The viewer sees its own edge or corner at the bottom (the table turned half round otherwise). */
  function flipFor(me) {
    if (!me) return false;
    const corner = cornersOf()[me];
    if (corner) return corner[0] === "n";
    if (isTeams()) return teamOf(me) !== teamOf(seats()[0]);
    return seats()[1] === me;
  }
  const units = () => V.units || {};
  const unitCard = (name) => card((units()[name] || {}).card);
  /* A unit by its card's name; two units of one card are numbered in setup order. */
  function unitName(name) {
    const u = units()[name];
    if (!u) {
      if ((V.ncus || {})[name]) return card(name).name;
      return cap(name);
    }
    // as the log names it (games/engine/minis/narrate.py): the engine's second unit of a card is
    // `<card>_2`, read "… 2"; the first keeps the card's name
    const base = unitCard(name).name;
    const m = name.match(/_(\d+)$/);
    return m && Number(m[1]) > 1 ? `${base} ${m[1]}` : base;
  }
  function shortName(name) {
    return unitName(name).replace(/^(Stark|Lannister|House) /, "").replace(/, .*$/, "");
  }
  const zoneName = (z) => ((C.zones || {})[z] || {}).name || cap(z);
  const condName = (c) => ((C.conditions || {})[c] || {}).name || cap(c);
  const quadName = (q) => (C.quadrants || {})[q] || q;
  function size(name) { const c = unitCard(name); return [c.width || 5.5, c.depth || 4.8]; }
  function live(name) { const u = units()[name]; return u && u.on_table && !u.destroyed && u.at; }
  function liveUnits(seat) { return Object.keys(units()).filter((n) => live(n) && (!seat || units()[n].seat === seat)); }
  /* The viewer's side: its own seat and, two against two (M130), its teammate's. */
  const friendlySeat = (seat) => seat === ME || (isTeams() && !!teamOf(seat) && teamOf(seat) === teamOf(ME));
  const enemyUnits = () => liveUnits().filter((n) => !friendlySeat(units()[n].seat));
  // the live units that are enemies of `seat`'s: every other seat's, a teammate's excepted (M130, M131)
  const foesOf = (seat) => liveUnits().filter((n) => {
    const theirs = units()[n].seat;
    return theirs !== seat && !(isTeams() && teamOf(theirs) && teamOf(theirs) === teamOf(seat));
  });

  /* Ids in a server message (unit keys, card ids, zones, seats) replaced by names. */
  function namesIn(text) {
    let t = String(text ?? "");
    const keys = Object.keys(units()).sort((a, b) => b.length - a.length);
    for (const k of keys) t = t.replace(new RegExp(`\\b${k}\\b`, "g"), unitName(k));
    t = t.replace(/\b[1-4]0\d{3}\b/g, (id) => (C.cards[id] ? C.cards[id].name : id));
    for (const z of Object.keys(C.zones || {})) t = t.replace(new RegExp(`\\bthe ${z} zone\\b`, "g"), fmt(gettext("the %(zone)s zone"), { zone: zoneName(z) }));
    for (const seat of seats()) t = t.replace(new RegExp(`\\b${seat}\\b`, "g"), factionName(seat));
    for (const p of V.terrain || []) t = t.replace(new RegExp(`\\b${escapeRe(String(p.id))}\\b`, "g"), terrainName(p));
    return t.replace(/\b(\w+)_(\w+)\b/g, "$1 $2");
  }

  // ------------------------------------------------------------------ geometry (the engine's conventions)

  const rad = (d) => (d * Math.PI) / 180;
  const norm = (a) => { a = a % 360; if (a < 0) a += 360; return a >= 359.995 ? 0 : a; };
  const dir = (f) => [Math.sin(rad(f)), Math.cos(rad(f))];
  const rightOf = (f) => [Math.cos(rad(f)), -Math.sin(rad(f))];
  function centre(at, f, d) { const [dx, dy] = dir(f); return [at[0] - dx * d / 2, at[1] - dy * d / 2]; }
  function atFromCentre(c, f, d) { const [dx, dy] = dir(f); return [c[0] + dx * d / 2, c[1] + dy * d / 2]; }
  function corners(at, f, w, d) {
    const [dx, dy] = dir(f), [rx, ry] = rightOf(f), hw = w / 2;
    const fl = [at[0] - rx * hw, at[1] - ry * hw], fr = [at[0] + rx * hw, at[1] + ry * hw];
    return [fl, fr, [fr[0] - dx * d, fr[1] - dy * d], [fl[0] - dx * d, fl[1] - dy * d]];
  }
  const bearing = (from, to) => norm((Math.atan2(to[0] - from[0], to[1] - from[1]) * 180) / Math.PI);
  const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const round2 = (x) => Math.round(x * 100) / 100;
  function segDist(p, a, b) {
    const vx = b[0] - a[0], vy = b[1] - a[1];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / (vx * vx + vy * vy || 1)));
    return dist(p, [a[0] + t * vx, a[1] + t * vy]);
  }
  function inPoly(p, poly) {
    let inside = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const [xi, yi] = poly[i], [xj, yj] = poly[j];
      if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }
  /* The shortest distance between two trays (0 when they touch or overlap). */
  function polyDist(a, b) {
    if (a.some((p) => inPoly(p, b)) || b.some((p) => inPoly(p, a))) return 0;
    let m = Infinity;
    for (const [P, Q] of [[a, b], [b, a]]) for (const p of P) for (let i = 0; i < Q.length; i++) m = Math.min(m, segDist(p, Q[i], Q[(i + 1) % Q.length]));
    return m;
  }
  function trayOf(name, pose) {
    const u = pose || units()[name];
    const [w, d] = size(name);
    return corners(u.at, u.facing, w, d);
  }
  /* A facing as the viewer sees it on the screen (issue 26): the table is drawn with the viewer's
     own edge at the bottom (P, rot below: the second seat's drawing is turned half round), so a
     tray at facing 0 points up the screen for the first seat and down it for the second. */
  const SCREEN_FACING = [gettext("up the table"), gettext("up and to the right"), gettext("to the right"), gettext("down and to the right"),
    gettext("down the table"), gettext("down and to the left"), gettext("to the left"), gettext("up and to the left")];
  function compass(f) { return SCREEN_FACING[Math.round(rot(f) / 45) % 8]; }
  /* The log's sentences come from the server (narrate.py), one for both players, with the facing as
     a compass point of the table ("facing north": towards the second seat's edge); each page says
     it as its viewer sees the table. */
  const COMPASS_POINTS = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];
  /* The log's own words for the points and the verbs before them, in the reader's language (the
     server's Spanish says "encarada hacia el norte"). */
  const SAID_POINTS = [gettext("north"), gettext("north-east"), gettext("east"), gettext("south-east"), gettext("south"),
    gettext("south-west"), gettext("west"), gettext("north-west")];
  const escapeRe = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const SAID_FACING = new RegExp(`(^|[^\\w-])(facing|pivots to face|${escapeRe(gettext("facing"))}|${escapeRe(gettext("pivots to face"))}) (${
    SAID_POINTS.concat(COMPASS_POINTS).sort((a, b) => b.length - a.length).map(escapeRe).join("|")})(?![\\w-])`, "g");
  function seenFacing(text) {
    return String(text ?? "").replace(SAID_FACING, (m, pre, verb, point) => {
      const i = SAID_POINTS.indexOf(point) >= 0 ? SAID_POINTS.indexOf(point) : COMPASS_POINTS.indexOf(point);
      return `${pre}${verb} ${compass(i * 45)}`;
    });
  }

  // ------------------------------------------------------------------ the table in SVG

  const tableSize = () => V.table || S.table || [48, 48];
  let FLIP = false;   // the second seat sees its own edge at the bottom
  function P(x, y) { const [W, H] = tableSize(); return FLIP ? [W - x, y] : [x, H - y]; }
  function fromScreen(x, y) { const [W, H] = tableSize(); return FLIP ? [W - x, y] : [x, H - y]; }
  const rot = (f) => norm(f + (FLIP ? 180 : 0));
  const pts = (poly) => poly.map((p) => P(p[0], p[1]).map((v) => v.toFixed(3)).join(",")).join(" ");

  function terrainNode(t) {
    const info = (C.terrain || {})[t.type] || { name: cap(t.type) };
    const kws = (t.keywords || []).map((k) => (C.keywords || {})[k] || cap(k));
    const cls = `mn-terrain t-${t.type}`;
    const title = s("title", {}, `${info.name}: ${kws.join(", ") || gettext("no keywords")}`);
    let shape, label;
    if (t.circle) {
      const [cx, cy] = P(...t.circle.center);
      shape = s("circle", { cx, cy, r: t.circle.radius, class: cls }, title);
      label = [cx, cy];
    } else if (t.rect) {
      const [cx, cy] = P(...t.rect.center), [sx, sy] = t.rect.size;
      shape = s("rect", { x: cx - sx / 2, y: cy - sy / 2, width: sx, height: sy, class: cls, transform: `rotate(${rot(t.rect.rotation || 0) - (FLIP ? 180 : 0)} ${cx} ${cy})` }, title);
      label = [cx, cy];
    } else {
      shape = s("polygon", { points: pts(t.polygon), class: cls }, title);
      const n = t.polygon.length;
      label = P(t.polygon.reduce((a, p) => a + p[0], 0) / n, t.polygon.reduce((a, p) => a + p[1], 0) / n);
    }
    // a hill (Elevated) shows its contour lines, as a map draws one
    const contours = t.type === "hill" && t.circle ? [0.66, 0.33].map((f) => s("circle", { cx: label[0], cy: label[1], r: t.circle.radius * f, class: "mn-hill-contour" })) : [];
    return s("g", { class: "mn-terrain-g", "data-terrain": t.type }, shape, ...contours,
      s("text", { x: label[0], y: label[1] + 0.25, class: "mn-terrain-label" }, info.name));
  }

  function zonesNode(deployment) {
    const [W, H] = tableSize();
    const depth = V.deploy_depth || 18;
    const g = s("g", { class: "mn-zones" });
    const box = (x0, y0, w, d, cls) => {
      const [x1, y1] = P(x0, y0 + d), [x2, y2] = P(x0 + w, y0);
      g.append(s("rect", { x: Math.min(x1, x2), y: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1), class: `mn-deploy ${cls}${deployment ? " on" : ""}` }));
    };
    const corners = cornersOf();
    if (Object.keys(corners).length) {   // M131: a 12 in square in each player's corner
      const c = 12;
      seats().forEach((seat) => {
        const k = corners[seat];
        if (!k) return;
        const x0 = k[1] === "w" ? 0 : W - c, y0 = k[0] === "s" ? 0 : H - c;
        box(x0, y0, c, c, `corner seat-${seat}`);
        const [lx, ly] = P(x0 + c / 2, y0 + c / 2);
        g.append(s("text", { x: lx, y: ly - 0.2, class: "mn-zone-label" }, factionName(seat)),
          s("text", { x: lx, y: ly + 0.7, class: "mn-zone-label" }, fmt(gettext("deployment zone (%(depth)s)"), { depth: inch(c) })));
      });
      return g;
    }
    if (isTeams()) {   // M130: each team along its edge of the 72 x 48 in table
      [...new Set(seats().map(teamOf))].forEach((team) => {
        const south = team === teamOf(seats()[0]);
        box(0, south ? 0 : H - depth, W, depth, `team team-${team}`);
        const [lx, ly] = P(W / 2, south ? depth - 1 : H - depth + 1);
        g.append(s("text", { x: lx, y: ly + 0.3, class: "mn-zone-label" }, fmt(gettext("%(army)s deployment zone (%(depth)s)"), { army: teamName(team), depth: inch(depth) })));
      });
      return g;
    }
    seats().forEach((seat, i) => {
      const y0 = i === 0 ? 0 : H - depth;
      const [x1, y1] = P(0, y0 + depth), [x2, y2] = P(W, y0);
      const rect = [Math.min(x1, x2), Math.min(y1, y2), Math.abs(x2 - x1), Math.abs(y2 - y1)];
      g.append(s("rect", { x: rect[0], y: rect[1], width: rect[2], height: rect[3], class: `mn-deploy seat-${seat}${deployment ? " on" : ""}` }));
      const [lx, ly] = P(W / 2, i === 0 ? depth - 1 : H - depth + 1);
      g.append(s("text", { x: lx, y: ly + 0.3, class: "mn-zone-label" }, fmt(gettext("%(army)s deployment zone (%(depth)s)"), { army: factionName(seat), depth: inch(depth) })));
    });
    return g;
  }

  function quadrantsNode() {
    const [W, H] = tableSize();
    const g = s("g", { class: "mn-quadrants" });
    const [ax, ay] = P(W / 2, 0), [bx, by] = P(W / 2, H), [cx, cy] = P(0, H / 2), [dx, dy] = P(W, H / 2);
    g.append(s("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "mn-quad-line" }), s("line", { x1: cx, y1: cy, x2: dx, y2: dy, class: "mn-quad-line" }));
    // each tag starts at the table's edge and runs inwards (centred on its corner, a long one ran off the drawing)
    const spots = { sw: [0.4, 1.5], se: [W - 0.4, 1.5], nw: [0.4, H - 1.5], ne: [W - 0.4, H - 1.5] };
    const ctl = S.quadrants || {}, qp = S.quadrant_points || {};
    for (const [q, at] of Object.entries(spots)) {
      const [x, y] = P(at[0], at[1]);
      const owner = ctl[q];
      const pts_ = qp[q] || {};
      // an NCU by its card's name; two copies of one card (a house played twice, M131) also by their army
      const ncuWords = ([id, n]) => card(id).name.split(",")[0] + (Object.keys(V.ncus || {}).filter((k) => k !== id && card(k).name === card(id).name).length
        ? " " + fmt(gettext("of %(army)s"), { army: factionName(n.seat) }) : "");
      const ncus = Object.entries(V.ncus || {}).filter(([, n]) => n.quadrant === q).map(ncuWords);
      const words = (owner ? fmt(gettext("%(quadrant)s: held by %(army)s"), { quadrant: cap(quadName(q)), army: factionName(owner) })
        : fmt(gettext("%(quadrant)s: nobody holds it"), { quadrant: cap(quadName(q)) }))
        + (Object.keys(pts_).length ? " " + fmt(gettext("(%(points)s points)"), { points: seats().map((x) => `${factionName(x)} ${pts_[x] || 0}`).join(", ") }) : "");
      // the tag: the quadrant and who holds it, then the NCUs standing in it, read top to bottom from the table's edge
      const tag = ({ nw: pgettext("north-west, on a quadrant's tag", "NW"), ne: pgettext("north-east, on a quadrant's tag", "NE"), sw: pgettext("south-west, on a quadrant's tag", "SW"), se: pgettext("south-east, on a quadrant's tag", "SE") })[q] || q.toUpperCase();
      const lines = [owner ? fmt(gettext("%(quadrant)s: held by %(army)s"), { quadrant: tag, army: factionName(owner) }) : tag];
      if (ncus.length) lines.push(fmt(gettext("%(ncus)s placed here"), { ncus: ncus.join(", ") }));
      const top = y < H / 2, side = x < W / 2 ? "from-left" : "from-right";
      g.append(s("g", { class: `mn-quad-tag${owner ? " seat-" + owner : ""}`, "data-quadrant": q },
        s("title", {}, words + (ncus.length ? "; " + fmt(gettext("%(ncus)s placed here"), { ncus: ncus.join(", ") }) : "")),
        ...lines.map((line, i) => s("text", { x, y: y + 0.3 + (top ? i : i - (lines.length - 1)) * 0.95, class: "mn-quad-label " + side }, line))));
    }
    return g;
  }

  /* One tray: its ranks and figures, the front arrow, and its tokens. */
  function trayNode(name, opts) {
    const u = units()[name];
    const c = unitCard(name);
    const [w, d] = size(name);
    const su = (S.units || {})[name] || {};
    const ranks = c.ranks || 1, files = c.files || 1;
    const figuresLeft = su.figures ?? c.figures ?? 1;
    const [x, y] = P(u.at[0], u.at[1]);
    const cls = ["mn-tray", `seat-${u.seat}`];
    if (S.active_unit === name || V.active_unit === name) cls.push("active");
    if (opts.selected === name) cls.push("selected");
    if (u.activated) cls.push("done");
    if (opts.clickable && opts.clickable.has(name)) cls.push("clickable");
    const body = s("g", { transform: `translate(${x.toFixed(3)} ${y.toFixed(3)}) rotate(${rot(u.facing).toFixed(2)})` },
      s("rect", { x: -w / 2, y: 0, width: w, height: d, class: "mn-tray-body" }));
    const rankD = d / ranks;
    for (let r = 0; r < ranks; r++) {
      if (r) body.append(s("line", { x1: -w / 2, y1: r * rankD, x2: w / 2, y2: r * rankD, class: "mn-rank-line" }));
      for (let f = 0; f < files; f++) {
        const idx = r * files + f;
        const alive = idx < figuresLeft;
        body.append(s("circle", { cx: -w / 2 + (f + 0.5) * (w / files), cy: (r + 0.5) * rankD, r: Math.min(w / files, rankD) * 0.22, class: alive ? "mn-fig" : "mn-fig lost" }));
      }
    }
    body.append(s("path", { d: `M ${-0.6} 0.05 L 0 -0.7 L 0.6 0.05 Z`, class: "mn-front" }));
    const tokens = [];
    if (u.activated) tokens.push(["A", "mn-tok-act", gettext("Activation token: it has activated this round")]);
    if (u.order_used) tokens.push(["O", "mn-tok-order", gettext("Order token: its Order is spent this round")]);
    for (const cond of u.conditions || []) tokens.push([condName(cond)[0], `mn-tok-cond c-${cond}`, `${condName(cond)}: ${((C.conditions || {})[cond] || {}).text || ""}`]);
    if (u.influence) tokens.push(["I", "mn-tok-inf", fmt(gettext("Influenced by %(ncu)s"), { ncu: card(u.influence).name })]);
    const cen = P(...centre(u.at, u.facing, d));
    const label = s("g", { class: "mn-tray-label" },
      fitText(s("text", { x: cen[0], y: cen[1] - 0.15, class: "mn-name" }, shortName(name)), shortName(name), 0.72 * 0.56, w - 0.3),
      fitText(s("text", { x: cen[0], y: cen[1] + 0.75, class: "mn-stats" }, fmt(ngettext("%(wounds)s wounds · %(ranks)s rank", "%(wounds)s wounds · %(ranks)s ranks", su.ranks ?? ranks), { wounds: su.wounds ?? u.wounds, ranks: su.ranks ?? ranks })), fmt(ngettext("%(wounds)s wounds · %(ranks)s rank", "%(wounds)s wounds · %(ranks)s ranks", 3), { wounds: 12, ranks: 3 }), 0.58 * 0.5, w - 0.3));
    const tokG = s("g", { class: "mn-tokens" });
    tokens.forEach(([letter, tcls, title], i) => {
      const tx = cen[0] - ((tokens.length - 1) * 0.75) / 2 + i * 0.75, ty = cen[1] + 1.55;
      tokG.append(s("g", { class: "mn-tok " + tcls }, s("title", {}, title), s("circle", { cx: tx, cy: ty, r: 0.33 }), s("text", { x: tx, y: ty + 0.15 }, letter)));
    });
    const title = fmt(gettext("%(unit)s (%(army)s): %(wounds)s wounds, %(figures)s figures, %(ranks)s ranks"), { unit: unitName(name), army: factionName(u.seat), wounds: su.wounds ?? u.wounds, figures: su.figures ?? "?", ranks: su.ranks ?? "?" })
      + (u.conditions && u.conditions.length ? `; ${u.conditions.map(condName).join(", ")}` : "") + (u.activated ? "; " + gettext("activated") : "")
      + (S.active_unit === name ? "; " + gettext("activating now") : "");
    return s("g", { class: cls.join(" "), "data-unit": name, "aria-label": title }, s("title", {}, title), body, label, tokG);
  }

  /* A label no wider than its tray: squeezed when its estimated width is larger. */
  function fitText(node, text, perChar, room) {
    if (text.length * perChar > room) { node.setAttribute("textLength", room.toFixed(2)); node.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
    return node;
  }

  function objectivesNode() {
    const g = s("g", { class: "mn-objectives" });
    for (const o of V.objectives || []) {
      const [x, y] = P(o.at[0], o.at[1]);
      g.append(s("circle", { cx: x, cy: y, r: 0.75, class: "mn-objective" }, s("title", {}, gettext("Objective token"))));
    }
    return g;
  }

  /* The whole table into `svg` (its viewBox is the caller's). */
  function drawField(svg, view, summary, catalogue, opts) {
    opts = opts || {};
    use(view, summary, catalogue, opts);
    FLIP = flipFor(ME);
    const [W, H] = tableSize();
    const defs = s("defs", {}, s("clipPath", { id: "mn-table-clip" }, s("rect", { x: 0, y: 0, width: W, height: H })),
      s("pattern", { id: "mn-grid", width: 6, height: 6, patternUnits: "userSpaceOnUse" }, s("path", { d: "M 6 0 L 0 0 0 6", class: "mn-grid-line" })));
    const edge = (seat, i) => {
      if (Object.keys(cornersOf()).length) return null;   // a free-for-all: each corner says whose it is
      if (isTeams() && teamSeats(teamOf(seat))[0] !== seat) return null;
      const south = isTeams() ? teamOf(seat) === teamOf(seats()[0]) : i === 0;
      const [x, y] = P(W / 2, south ? -0.55 : H + 0.55);
      return s("text", { x, y: y + 0.3, class: "mn-edge-label" }, fmt(gettext("%(seat)s's table edge"), { seat: isTeams() ? teamName(teamOf(seat)) : seatLabel(seat) }));
    };
    const layers = [defs,
      s("rect", { x: -2, y: -2, width: W + 4, height: H + 4, class: "mn-margin" }),
      s("rect", { x: 0, y: 0, width: W, height: H, class: "mn-table" }),
      s("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#mn-grid)", class: "mn-grid" }),
      zonesNode(V.phase === "deployment" || (opts.showZones === true)),
      V.mode === "here_we_stand" ? quadrantsNode() : null,
      s("g", { class: "mn-terrain-layer" }, (V.terrain || []).map(terrainNode)),
      objectivesNode(),
      seats().map(edge),
      s("g", { class: "mn-units" }, Object.keys(units()).filter(live).map((n) => trayNode(n, opts))),
      s("g", { id: "mn-overlay", class: "mn-overlay" })];
    svg.replaceChildren(...layers.filter(Boolean).flat());
  }

  // ------------------------------------------------------------------ side panels shared with the replay

  function dieFace(v, cls, title) {
    const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
      5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] }[v] || [];
    const svg = s("svg", { viewBox: "0 0 4 4", class: "mn-die " + (cls || ""), role: "img", "aria-label": `${title ? title + ": " : ""}${v}` },
      s("rect", { x: 0.15, y: 0.15, width: 3.7, height: 3.7, rx: 0.6 }),
      pips.map(([x, y]) => s("circle", { cx: x, cy: y, r: 0.38 })));
    if (!pips.length) svg.append(s("text", { x: 2, y: 2.7 }, String(v ?? "?")));
    return svg;
  }

  function diceRow(values, opts) {
    opts = opts || {};
    return h("span", { class: "mn-dice" }, (values || []).map((v, i) => {
      const hit = opts.need ? v >= opts.need || v === 6 : null;
      const cls = (hit === null ? "" : hit && v !== 1 ? "hit" : "miss") + ((opts.rerolled || []).includes(i) ? " rerolled" : "") + ((opts.picked || new Set()).has(i) ? " picked" : "");
      const face = dieFace(v, cls, opts.label ? `${opts.label} ${i + 1}` : fmt(gettext("die %(n)s"), { n: i + 1 }));
      if (!opts.onpick) return face;
      return h("button", { type: "button", class: "mn-die-btn" + ((opts.picked || new Set()).has(i) ? " on" : ""), "aria-pressed": (opts.picked || new Set()).has(i) ? "true" : "false",
        "data-die": i, title: fmt(gettext("Die %(n)s: %(value)s"), { n: i + 1, value: v }), onclick: () => opts.onpick(i) }, face);
    }));
  }

  const ARCS = { front: gettext("Front"), flank: gettext("Flank"), rear: gettext("Rear") };
  function attackBox(la, opts) {
    if (!la) return null;
    opts = opts || {};
    const how = [la.kind === "melee" ? gettext("melee") : gettext("ranged"), ARCS[la.arc] || la.arc]
      .concat(la.charge ? [gettext("charging")] : [], la.disorderly ? [gettext("disorderly")] : []).join(", ");
    const rows = [h("p", {}, h("strong", {}, unitName(la.attacker)), " ",
      fmt(gettext("attacks %(defender)s with %(attack)s (%(how)s): %(dice)s dice, hitting on %(hit)s+."),
        { defender: unitName(la.defender), attack: la.attack, how, dice: la.dice_count, hit: la.to_hit }))];
    if ((la.attack_dice || []).length) rows.push(h("div", { class: "mn-dice-line" }, h("span", { class: "mn-dice-label" }, gettext("Attack")),
      opts.pickAttack ? diceRow(la.attack_dice, Object.assign({ need: la.to_hit, rerolled: la.rerolled }, opts.pickAttack)) : diceRow(la.attack_dice, { need: la.to_hit, rerolled: la.rerolled, label: gettext("attack die") }),
      h("span", {}, " " + fmt(ngettext("%(n)s hit", "%(n)s hits", la.hits), { n: la.hits }))));
    if ((la.defense_dice || []).length) rows.push(h("div", { class: "mn-dice-line" }, h("span", { class: "mn-dice-label" }, gettext("Defense")),
      opts.pickDefense ? diceRow(la.defense_dice, Object.assign({ need: la.defense_save }, opts.pickDefense)) : diceRow(la.defense_dice, { need: la.defense_save, label: gettext("defense die") }),
      h("span", {}, " " + fmt(gettext("%(n)s blocked (%(save)s+)"), { n: la.blocked, save: la.defense_save }))));
    if (la.attack_dice && la.attack_dice.length) rows.push(h("p", {}, la.destroyed ? fmt(ngettext("%(n)s wound: destroyed.", "%(n)s wounds: destroyed.", la.wounds), { n: la.wounds })
      : fmt(ngettext("%(n)s wound.", "%(n)s wounds.", la.wounds), { n: la.wounds })));
    if (la.panic) rows.push(testLine(Object.assign({ unit: la.defender, kind: "panic" }, la.panic)));
    return h("div", { class: "mn-attack" }, rows);
  }
  function testLine(t, pick) {
    if (!t) return null;
    const kind = t.kind === "panic" ? gettext("Panic Test") : gettext("Morale Test");
    if (t.automatic) return h("p", {}, fmt(gettext("%(unit)s passes its %(test)s automatically."), { unit: unitName(t.unit), test: kind }));
    const dice = (t.dice || []).concat(t.d3 ? [t.d3] : []);
    return h("div", { class: "mn-dice-line" }, h("span", { class: "mn-dice-label" }, `${unitName(t.unit)}: ${kind}`),
      pick ? diceRow(dice, pick) : diceRow(dice, { label: kind }),
      t.result !== null && t.result !== undefined ? h("span", {}, " " + (t.modifier ? fmt(gettext("modifier %(m)s, "), { m: `${t.modifier > 0 ? "+" : ""}${t.modifier}` }) : "")
        + fmt(gettext("total %(total)s: %(outcome)s"), { total: t.result, outcome: t.passed ? gettext("passed")
          : t.wounds ? fmt(ngettext("failed, %(n)s wound", "failed, %(n)s wounds", t.wounds), { n: t.wounds }) : gettext("failed") })) : null);
  }
  function chargeLine(c) {
    if (!c) return null;
    return h("div", { class: "mn-dice-line" }, h("span", { class: "mn-dice-label" }, fmt(gettext("%(unit)s charges %(target)s"), { unit: unitName(c.unit), target: unitName(c.target) })),
      diceRow([c.roll], { label: gettext("charge die") }),
      h("span", {}, " " + fmt(gettext("%(allowed)s allowed, moved %(moved)s: %(outcome)s"), { allowed: inch(c.distance), moved: inch(c.moved),
        outcome: c.result === "success" ? (c.disorderly ? gettext("a disorderly charge") : gettext("contact")) : gettext("failed") }) + (c.arc ? ` (${ARCS[c.arc] || c.arc})` : "")));
  }

  /* The Tactics Board, the NCUs, victory points by round. */
  function boardNode() {
    const board = V.board || {};
    const zones = Object.keys(C.zones || {}).map((z) => {
      const nid = board[z];
      const n = nid ? (V.ncus || {})[nid] : null;
      return h("li", { class: "mn-zone" + (n ? " seat-" + n.seat : ""), "data-zone": z, title: C.zones[z].text },
        h("strong", {}, zoneName(z)), h("span", { class: "mn-zone-text" }, C.zones[z].text),
        h("span", { class: "mn-zone-claim" }, n ? `${card(nid).name.split(",")[0]} (${factionName(n.seat)})` : gettext("empty")));
    });
    const ncus = Object.entries(V.ncus || {}).map(([id, n]) => h("li", {},
      h("strong", {}, card(id).name), ` (${factionName(n.seat)}): `, n.zone ? fmt(gettext("on %(zone)s"), { zone: zoneName(n.zone) })
        : n.quadrant ? fmt(gettext("in the %(quadrant)s quadrant"), { quadrant: quadName(n.quadrant) }) : gettext("beside the board"),
      n.activated ? ", " + gettext("activated") : ""));
    const vp = V.vp || S.vp || {};
    const byRound = {};
    for (const x of V.vp_log || []) {
      const r = x.round || V.round;
      byRound[r] = byRound[r] || {};
      const k = isTeams() ? x.team || teamOf(x.seat) : x.seat;   // M130: a team's VP are one score
      byRound[r][k] = (byRound[r][k] || 0) + (x.vp || 1);
    }
    const cols = isTeams() ? [...new Set(seats().map(teamOf))] : seats();
    const colName = (k) => (isTeams() ? teamName(k) : factionName(k));
    const rounds = Object.keys(byRound).map(Number).sort((a, b) => a - b);
    const vpTable = h("table", { class: "small mn-vp" },
      h("thead", {}, h("tr", {}, h("th", {}, gettext("Round")), cols.map((x) => h("th", {}, colName(x))))),
      h("tbody", {}, rounds.map((r) => h("tr", {}, h("td", {}, r), cols.map((x) => h("td", {}, byRound[r][x] || 0)))),
        h("tr", { class: "total" }, h("td", {}, gettext("Total")), cols.map((x) => h("td", {}, vp[x] || 0)))));
    return h("div", {}, h("h2", {}, gettext("Tactics Board")), h("ul", { class: "mn-zones" }, zones),
      ncus.length ? h("ul", { class: "mn-ncus small" }, ncus) : null,
      h("h2", {}, gettext("Victory points")), h("p", { class: "small" }, fmt(gettext("First to %(n)s with more than the other at the end of a round wins; after round 6 the most."), { n: V.threshold || S.threshold || 8 })), vpTable);
  }

  function tacticsText(id) {
    return (card(id).modes || []).map((m) => `${cap(m.trigger)}: ${m.text}`).join(" " + gettext("Or:") + " ");
  }
  function handNode(onPick) {
    const out = [h("h2", {}, gettext("Tactics cards"))];
    for (const seat of seats()) {
      const p = (V.players || {})[seat] || {};
      const hand = Array.isArray(p.hand) ? p.hand : null;
      const disc = p.discards || [];
      if (hand && seat === ME) {
        out.push(h("p", { class: "small" }, fmt(gettext("Your hand (%(hand)s), deck %(deck)s:"), { hand: hand.length, deck: p.deck_size ?? "?" })),
          hand.length ? h("ul", { class: "mn-hand" }, hand.map((id, i) => h("li", { class: "mn-tcard" + (onPick && onPick.picked.has(i) ? " picked" : ""), "data-card": id },
            onPick ? h("label", {}, h("input", { type: "checkbox", checked: onPick.picked.has(i), onchange: () => onPick.toggle(i) }), " ", h("strong", {}, card(id).name)) : h("strong", {}, card(id).name),
            h("span", { class: "mn-tcard-text" }, tacticsText(id))))) : h("p", { class: "empty" }, gettext("No cards in hand.")));
      } else {
        out.push(h("p", { class: "small" }, fmt(gettext("%(seat)s: %(hand)s cards in hand, deck %(deck)s."), { seat: seatLabel(seat), hand: p.hand_size ?? (hand ? hand.length : "?"), deck: p.deck_size ?? "?" })));
      }
      if (disc.length) out.push(h("details", { class: "small" }, h("summary", {}, fmt(gettext("%(army)s's discard pile (%(n)s)"), { army: factionName(seat), n: disc.length })),
        h("ul", {}, disc.map((id) => h("li", {}, h("strong", {}, card(id).name), ": ", tacticsText(id))))));
    }
    for (const a of V.attached || []) out.push(h("p", { class: "small" }, a.tokens ? fmt(gettext("%(card)s is attached to %(unit)s (%(n)s tokens)."), { card: card(a.card).name, unit: unitName(a.unit), n: a.tokens })
      : fmt(gettext("%(card)s is attached to %(unit)s."), { card: card(a.card).name, unit: unitName(a.unit) })));
    return out;
  }

  /* A unit's card in words (the selected unit). */
  function unitCardNode(name) {
    const u = units()[name];
    if (!u) return null;
    const c = unitCard(name), su = (S.units || {})[name] || {};
    const att = u.attachment ? card(u.attachment) : null;
    const abil = (c.abilities || []).concat(att ? att.abilities || [] : []);
    return h("div", { class: "mn-card seat-" + u.seat },
      h("h3", {}, unitName(name), " ", h("small", {}, `${factionName(u.seat)} ${(C.types || {})[c.type] || c.type || ""}`)),
      att ? h("p", { class: "small" }, gettext("With") + " ", h("strong", {}, att.name), att.commander ? " " + gettext("(commander)") : "") : null,
      h("p", { class: "mn-statline" }, fmt(gettext("Speed %(speed)s · Defense %(defense)s+ · Morale %(morale)s+ · %(wounds)s of %(all)s wounds · %(figures)s figures in %(ranks)s ranks"),
        { speed: c.speed, defense: c.defense, morale: c.morale, wounds: su.wounds ?? u.wounds, all: c.wounds, figures: su.figures ?? "?", ranks: su.ranks ?? "?" })),
      h("ul", { class: "small" }, (c.attacks || []).map((a) => h("li", {}, h("strong", {}, a.name), " " + fmt(gettext("(%(range)s): hits on %(hit)s+, %(dice)s dice by ranks left"),
        { range: a.range === "melee" ? gettext("melee") : fmt(gettext("%(range)s range"), { range: ({ long: gettext("long"), short: gettext("short") })[a.range] || a.range }), hit: a.hit, dice: a.dice.join(" / ") })))),
      abil.length ? h("ul", { class: "small mn-abilities" }, abil.map((a) => h("li", {}, h("strong", {}, a.label || a.name), a.trigger ? ` (${a.trigger})` : "", ": ", a.text))) : null,
      (su.engaged || []).length ? h("p", { class: "small" }, fmt(gettext("Engaged with %(units)s."), { units: su.engaged.map(unitName).join(", ") })) : null,
      u.conditions && u.conditions.length ? h("p", { class: "small" }, fmt(gettext("Conditions: %(conditions)s."), { conditions: u.conditions.map(condName).join(", ") })) : null);
  }

  // ------------------------------------------------------------------ events in words

  const WINDOW_WORDS = { turn_start: gettext("the start of the turn"), unit_activates: gettext("a unit's activation"), ncu_activates: gettext("an NCU's activation"),
    melee_before: gettext("a melee attack"), morale_before: gettext("a test"), morale_rolled: gettext("a test's roll"), panic_failed: gettext("a failed Panic Test"),
    after_attack: gettext("the end of an attack"), card_played: gettext("a card played"), zone_claimed: gettext("a zone claimed"), charge_declared: gettext("a charge"),
    charge_rolled: gettext("the charge roll"), charge_success: gettext("a successful charge"), surge: gettext("a Surge Forward"), unit_destroyed: gettext("a unit destroyed"),
    turn_end: gettext("the end of the turn") };
  function moveWords(e, U) {
    const o = { unit: U(e.unit), facing: compass(e.facing) };
    switch (e.kind) {
      case "maneuver": return fmt(gettext("%(unit)s maneuvers, now facing %(facing)s."), o);
      case "march": return fmt(gettext("%(unit)s marches, now facing %(facing)s."), o);
      case "retreat": return fmt(gettext("%(unit)s retreats, now facing %(facing)s."), o);
      case "pivot": return fmt(gettext("%(unit)s pivots, now facing %(facing)s."), o);
      case "push_back": return fmt(gettext("%(unit)s is pushed back, now facing %(facing)s."), o);
      case "reface": return fmt(gettext("%(unit)s re-faces, now facing %(facing)s."), o);
      case "align": return fmt(gettext("%(unit)s aligns, now facing %(facing)s."), o);
      case "shift": return fmt(gettext("%(unit)s shifts, now facing %(facing)s."), o);
      case "surge": return fmt(gettext("%(unit)s surges forward, now facing %(facing)s."), o);
      default: return fmt(gettext("%(unit)s moves, now facing %(facing)s."), o);
    }
  }
  function ability(k) { return String(k).replace(/^Order: /, ""); }
  /* An NCU's triggered ability being asked (choose, what: ncu_ability): its name and text as the card says them. */
  function ncuAbility(d) {
    const a = (card(d.ncu).abilities || []).find((x) => x.name === d.ability) || {};
    return { label: a.label || d.ability, text: String(a.text || "").replace(/\s*\(\d{5}\)/g, "") };  // the data's card ids left out
  }
  /* An event in words, when the server sent no sentences (the log's lines are narrate.py's). */
  function describeEvent(e) {
    const U = unitName, F = (x) => seatName(x);
    const n = (k) => (e[k] || []).length;
    switch (e.type) {
      case "first_player": return fmt(gettext("%(seat)s is the First Player."), { seat: F(e.seat) });
      // three or four players (M131): a player with no combat unit left is out; a unit with no room in its corner stays out
      case "eliminated": return fmt(gettext("%(seat)s has no combat unit left on the table and is out of the battle."), { seat: F(e.seat) });
      case "left_out": return fmt(gettext("%(unit)s finds no room left in its deployment corner and stays out of the battle."), { unit: U(e.unit) });
      case "deploy": return fmt(gettext("%(unit)s is deployed."), { unit: U(e.unit) });
      case "redeploy": return fmt(gettext("%(unit)s is redeployed."), { unit: U(e.unit) });
      case "draw": return Array.isArray(e.cards) ? fmt(gettext("%(seat)s draws %(cards)s."), { seat: F(e.seat), cards: e.cards.map((c) => card(c).name).join(", ") || gettext("nothing") })
        : fmt(ngettext("%(seat)s draws %(n)s card.", "%(seat)s draws %(n)s cards.", e.count), { seat: F(e.seat), n: e.count });
      case "round": return fmt(gettext("Round %(round)s begins."), { round: e.round });
      case "cleanup": return fmt(gettext("Round %(round)s ends: the Cleanup phase."), { round: e.round });
      case "react_pass": return fmt(gettext("%(seat)s passes at %(moment)s."), { seat: F(e.seat), moment: WINDOW_WORDS[e.window] || gettext("this moment") });
      case "play": return e.source ? fmt(gettext("%(seat)s plays %(card)s from the deck or the discard pile (Tactical Mastermind, once per game)."), { seat: F(e.seat), card: card(e.card).name })
        : fmt(gettext("%(seat)s plays %(card)s."), { seat: F(e.seat), card: card(e.card).name });
      case "ability": return e.target ? fmt(gettext("%(unit)s's %(ability)s strikes %(target)s."), { unit: U(e.unit), ability: ability(e.ability), target: U(e.target) })
        : fmt(gettext("%(unit)s's %(ability)s takes hold."), { unit: U(e.unit), ability: ability(e.ability) });
      case "order": return fmt(gettext("%(seat)s gives %(unit)s its Order: %(order)s."), { seat: F(e.seat), unit: U(e.unit), order: ability(e.ability) });
      case "activate": return fmt(gettext("%(seat)s activates %(unit)s."), { seat: F(e.seat), unit: U(e.unit) });
      case "activation_end": return fmt(gettext("%(unit)s's activation ends."), { unit: U(e.unit) });
      case "no_action": return fmt(gettext("%(unit)s takes no action."), { unit: U(e.unit) });
      case "move": return moveWords(e, U);
      case "retreat": return fmt(gettext("%(unit)s retreats: rolled %(roll)s, up to %(max)s."), { unit: U(e.unit), roll: e.roll, max: inch(e.max) });
      case "claim": return fmt(gettext("%(ncu)s claims the %(zone)s zone."), { ncu: card(e.ncu).name, zone: zoneName(e.zone) });
      case "place": return fmt(gettext("%(ncu)s is placed in the %(quadrant)s quadrant."), { ncu: card(e.ncu).name, quadrant: quadName(e.quadrant) });
      case "influence": return e.removed ? fmt(gettext("%(ncu)s influences %(unit)s (%(condition)s removed)."), { ncu: card(e.ncu).name, unit: U(e.unit), condition: condName(e.removed) })
        : fmt(gettext("%(ncu)s influences %(unit)s."), { ncu: card(e.ncu).name, unit: U(e.unit) });
      case "test": {
        const test = e.kind === "panic" ? gettext("Panic Test") : gettext("Morale Test");
        if (e.automatic) return fmt(gettext("%(unit)s passes a %(test)s automatically."), { unit: U(e.unit), test });
        const o = { unit: U(e.unit), test, dice: (e.dice || []).join(" + ") + (e.d3 ? " " + fmt(gettext("and %(d3)s"), { d3: e.d3 }) : ""), total: e.result };
        return e.passed ? fmt(gettext("%(unit)s passes a %(test)s (%(dice)s, total %(total)s)."), o) : fmt(gettext("%(unit)s fails a %(test)s (%(dice)s, total %(total)s)."), o);
      }
      case "wounds": return fmt(ngettext("%(unit)s loses %(n)s wound (%(left)s left).", "%(unit)s loses %(n)s wounds (%(left)s left).", e.wounds), { unit: U(e.unit), n: e.wounds, left: e.left });
      case "heal": return fmt(ngettext("%(unit)s restores %(n)s wound.", "%(unit)s restores %(n)s wounds.", e.wounds), { unit: U(e.unit), n: e.wounds });
      case "condition": return fmt(gettext("%(unit)s gains %(condition)s."), { unit: U(e.unit), condition: condName(e.condition) });
      case "attach": return fmt(gettext("%(seat)s attaches %(card)s to %(unit)s."), { seat: F(e.seat), card: card(e.card).name, unit: U(e.unit) });
      case "detached": return fmt(gettext("%(card)s leaves %(unit)s."), { card: card(e.card).name, unit: U(e.unit) });
      case "charge": return fmt(gettext("%(unit)s charges %(target)s: rolled %(roll)s, %(outcome)s."), { unit: U(e.unit), target: U(e.target), roll: e.roll,
        outcome: e.result === "success" ? (e.disorderly ? gettext("a disorderly charge") : gettext("contact")) : gettext("the charge fails") });
      case "attack": return fmt(gettext("%(attacker)s attacks %(defender)s with %(attack)s."), { attacker: U(e.attacker), defender: U(e.defender), attack: e.attack });
      case "attack_dice": return fmt(gettext("Attack dice: %(dice)s."), { dice: (e.dice || []).join(", ") });
      case "defense_dice": return fmt(gettext("Defense dice: %(dice)s."), { dice: (e.dice || []).join(", ") });
      case "reroll": return fmt(ngettext("%(seat)s re-rolls %(n)s die: now %(dice)s.", "%(seat)s re-rolls %(n)s dice: now %(dice)s.", n("positions")), { seat: F(e.seat), n: n("positions"), dice: (e.dice || []).join(", ") });
      case "spend": return fmt(ngettext("%(seat)s spends %(unit)s's %(token)s token to re-roll %(n)s die.", "%(seat)s spends %(unit)s's %(token)s token to re-roll %(n)s dice.", n("positions")),
        { seat: F(e.seat), unit: U(e.unit), token: condName(e.token), n: n("positions") });
      case "hits": return fmt(ngettext("%(unit)s suffers %(n)s hit, %(blocked)s blocked.", "%(unit)s suffers %(n)s hits, %(blocked)s blocked.", e.hits), { unit: U(e.unit), n: e.hits, blocked: e.blocked });
      case "destroyed": return fmt(gettext("%(unit)s is destroyed."), { unit: U(e.unit) });
      case "removed": return fmt(gettext("%(unit)s is removed from the table."), { unit: U(e.unit) });
      case "discard": return fmt(gettext("%(seat)s discards %(cards)s."), { seat: F(e.seat), cards: (e.cards || []).map((c) => card(c).name).join(", ") || gettext("nothing") });
      case "counterplot": return fmt(gettext("%(card)s: rolled %(roll)s, %(outcome)s."), { card: "Counterplot", roll: e.roll, outcome: e.cancelled ? gettext("the card is cancelled") : gettext("the card resolves") });
      case "cancelled": return fmt(gettext("%(seat)s's card is cancelled."), { seat: F(e.seat) });
      case "last_stand": return fmt(gettext("%(unit)s makes its Last Stand against %(target)s."), { unit: U(e.unit), target: U(e.target) });
      case "reckless_heroism": return fmt(ngettext("Reckless Heroism: %(unit)s suffers %(n)s wound.", "Reckless Heroism: %(unit)s suffers %(n)s wounds.", e.d3), { unit: U(e.unit), n: e.d3 });
      case "game_over": return !e.winner ? gettext("The battle ends in a draw.")
        : wonByTeam(e.winner) ? fmt(gettext("%(team)s win the battle."), { team: teamName(e.winner) })
        : fmt(gettext("%(seat)s wins the battle."), { seat: F(e.winner) });
      default: return `${cap(e.type)}.`;
    }
  }

  function phaseText(status) {
    if (status === "finished" || V.over) {
      if (!V.winner) return gettext("The battle is over: a draw.");
      const how = ({ vp: gettext("victory points"), points: gettext("army points"), elimination: gettext("elimination"), draw: gettext("a draw") })[V.result] || V.result;
      return wonByTeam(V.winner) ? fmt(gettext("The battle is over: %(team)s win (%(how)s)."), { team: teamName(V.winner), how })
        : fmt(gettext("The battle is over: %(seat)s wins (%(how)s)."), { seat: seatName(V.winner), how });
    }
    const vp = isTeams() ? Object.keys(V.vp || {}).map((t) => `${teamName(t)} ${V.vp[t] || 0}`).join(" – ")
      : seats().filter((x) => !isOut(x)).map((x) => `${factionName(x)} ${(V.vp || {})[x] || 0}`).join(" – ");
    if (V.phase === "deployment") return fmt(gettext("Deployment · %(vp)s VP"), { vp });
    const who = V.turn ? " · " + fmt(gettext("%(seat)s's turn"), { seat: isTeams() ? teamName(teamOf(V.turn)) : seatName(V.turn) }) : "";
    const active = V.active_unit ? " · " + fmt(gettext("%(unit)s is activating"), { unit: unitName(V.active_unit) }) : "";
    return fmt(gettext("Round %(round)s of 6"), { round: V.round }) + " · " + (V.phase === "cleanup" ? gettext("Cleanup") : gettext("Activations")) + who + active
      + " · " + fmt(gettext("%(vp)s VP (%(threshold)s to win)"), { vp, threshold: V.threshold });
  }

  /* The replay: the table after `step` actions, this step in words. */
  const replay = { svg: null, zoom: null };
  function showReplayStep(data, step, steps) {
    const catalogue = JSON.parse(document.getElementById("minis-cards").textContent);
    const names = JSON.parse((document.getElementById("minis-seat-names") || { textContent: "{}" }).textContent);
    const wrap = document.getElementById("replay-table");
    if (!replay.svg) {
      replay.svg = s("svg", { class: "mn-field", role: "img", "aria-label": gettext("The battlefield at this step"), viewBox: "-2.5 -2.5 53 53" });
      wrap.replaceChildren(replay.svg, h("div", { id: "replay-panels", class: "mn-replay-panels" }));
    }
    drawField(replay.svg, data.view, data.summary, catalogue, { seat: data.seat, names });
    const [rw, rh] = tableSize();   // 72 x 48 in for two teams (M130)
    replay.svg.setAttribute("viewBox", `-2.5 -2.5 ${rw + 5} ${rh + 5}`);
    replay.svg.style.aspectRatio = `${rw + 5} / ${rh + 5}`;
    const panels = document.getElementById("replay-panels");
    panels.replaceChildren(h("section", { class: "panel" }, h("h2", {}, gettext("Dice")), attackBox(V.last_attack) || h("p", { class: "empty" }, gettext("No attack yet.")), chargeLine(V.last_charge)), h("section", { class: "panel" }, boardNode()),
      h("section", { class: "panel" }, handNode(null)));
    document.getElementById("replay-pos").textContent = fmt(gettext("Step %(step)s of %(steps)s"), { step, steps }) + " · " + phaseText(data.view.over ? "finished" : "active");
    const box = document.getElementById("replay-entry");
    if (!data.entry) { box.replaceChildren(h("p", {}, gettext("The game as it started: the roll-off for deployment."))); return; }
    const SOURCE = { bot: " " + gettext("(played by the computer)"), timeout: " " + gettext("(time ran out: the default was played)") };
    const lines = data.entry.lines && data.entry.lines.length ? data.entry.lines.map((l) => seenFacing(l.text)) : data.entry.events.map(describeEvent);
    box.replaceChildren(h("p", {}, h("strong", {}, seatName(data.entry.seat)), SOURCE[data.entry.source] || ""),
      lines.length ? h("ul", { class: "replay-lines" }, lines.map((l) => h("li", { class: "log-event" }, l))) : h("p", {}, gettext("Nothing you could see happened at this step.")));
  }

  window.MinisTable = { drawField, describeEvent, phaseText, showReplayStep, unitName: (n) => unitName(n), namesIn: (t) => namesIn(t), dieFace };

  // ================================================================== the game page
  const root = document.getElementById("game");
  if (!root || !root.classList.contains("minis")) return;
  const { post } = window.WesterosClient;
  const SEAT = root.dataset.seat || null;
  const losButton = document.querySelector(".mn-tools [data-tool=los]");
  if (losButton && !SEAT) losButton.hidden = true;   // the check answers players only
  const INVITE = root.dataset.invite || "";
  const API = root.dataset.api;
  const CATALOGUE = JSON.parse(document.getElementById("minis-cards").textContent);
  const SEATNAMES = JSON.parse(document.getElementById("minis-seat-names").textContent);
  const $ = (id) => document.getElementById(id);
  const svg = $("field");
  let FIT = { x: -2.5, y: -2.5, w: 53, h: 53 };   // the whole table and its margin (72 x 48 in for two teams)
  let vb = Object.assign({}, FIT);
  function fitTable() {
    const [W, H] = tableSize();
    if (FIT.w === W + 5 && FIT.h === H + 5) return;
    FIT = { x: -2.5, y: -2.5, w: W + 5, h: H + 5 };
    vb = Object.assign({}, FIT);
    svg.style.aspectRatio = `${FIT.w} / ${FIT.h}`;
    svg.setAttribute("aria-label", fmt(gettext("The %(width)s by %(depth)s inch battlefield seen from above"), { width: W, depth: H }));
  }
  let game = null, version = -1;
  let selected = null;     // the unit whose card, rings and arcs are shown
  let ghost = null;        // {unit, mode, start: {at, facing}, c, f, max}
  let sub = null;          // the decision's chosen branch: maneuver, march, charge, attack, horse, deploy...
  let subArg = null;       // its choice (a charge target, a unit to deploy...)
  let picks = new Set();   // dice or cards picked
  let pivots = {};         // free pivots chosen: unit -> facing
  let check = { seq: 0, result: null, pending: false, missing: false };
  let targets = null;      // {key, results: {name: {ok, reason}}}: charge / attack checks of the active unit
  let sight = null;        // {key, unit, results: {enemy: {ok, reason}}, ranged: {enemy: {ok, reason}}}: the selected unit's line of sight
  const tools = { tape: false, rings: false, arcs: false, los: !!SEAT };
  let tape = [];           // measuring points (table inches), the second following the pointer until placed
  let tapeHover = null;
  let decisionKeySeen = null;

  function q(path) { return API + path + (INVITE ? (path.includes("?") ? "&" : "?") + "invite=" + encodeURIComponent(INVITE) : ""); }
  function showError(text) { const box = $("error"); box.textContent = text || ""; box.hidden = !text; }
  function tick() { if (window.tickDeadlines) window.tickDeadlines(); }
  function useGame() { use(game.view, game.summary, CATALOGUE, { seat: SEAT, names: SEATNAMES }); FLIP = flipFor(SEAT); }
  function myKind() { return SEAT && game && game.status === "active" ? (game.pending || {})[SEAT] : null; }
  function decision() { return (game.view && game.view.decision) || {}; }

  /* The game as the page draws it, less what changes while the game does not (who is connected, the
     seconds left on a clock): a re-fetch that brings nothing new (the socket opening, a passed deadline's
     check) redraws the scoreline only. Redrawing the decision replaced its buttons under the player's
     pointer, and a click pressed on a button and released on its replacement was lost (the ghost tray
     the player asked for never came). */
  let drawnKey = null;
  function drawnOf(g) { return JSON.stringify(Object.assign({}, g, { seats: (g.seats || []).map((x) => Object.assign({}, x, { connected: null, clock: null })) })); }

  const load = window.WesterosClient.coalesced(async () => {
    const r = await fetch(q(""), { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) { showError(fmt(gettext("Could not load the game (%(status)s)."), { status: r.status })); return; }
    game = await r.json();
    version = game.version;
    const key = drawnOf(game);
    if (key !== drawnKey) { drawnKey = key; render(); } else { useGame(); renderScore(); }
    if (window.WesterosTurn) window.WesterosTurn.update(game);
    if (window.WesterosTable) window.WesterosTable.update(game, load);  // seat controls, end of the game (table_controls.js)
    loadLog();
  });

  async function send(action) {
    showError("");
    const res = await post(q("/actions"), { version: version, action: action });
    if (res.ok) { ghost = null; sub = null; subArg = null; picks = new Set(); pivots = {}; targets = null; await load(); return true; }
    useGame();
    showError(fmt(gettext("Refused: %(reason)s"), { reason: namesIn(res.reason) }));
    if (res.status === 409) await load();
    return false;
  }
  /* The move check (POST /check, nothing applied): {ok, at, facing} or {ok: false, error, reason}.
     A 409 means the page's version is behind (the game moved on since it was loaded): the game is
     fetched again and the same question asked at the new version, not shown as a refusal. */
  /* No answer at all (the network, or the server busy or down: 5xx, 429) is `failed`, not a refusal of the move. */
  async function checkAction(action, retried) {
    const sent = version;
    let res;
    try { res = await post(q("/check"), { version: sent, action: action }); } catch (e) {
      return { ok: false, failed: true, reason: fmt(gettext("the check failed (%(status)s)"), { status: gettext("no answer") }) };
    }
    if (res.status === 409 && (retried || 0) < 2) {
      if (version === sent) await load();
      if (version !== sent) return checkAction(action, (retried || 0) + 1);
    }
    if (typeof res.body.ok === "boolean") return res.body;
    if (res.status === 404 || res.status === 405) return { missing: true };
    const reason = res.reason || fmt(gettext("the check failed (%(status)s)"), { status: res.status });
    return { ok: false, failed: res.status >= 500 || res.status === 429, reason };
  }

  // ------------------------------------------------------------------ ghost trays and the actions built from them

  function speedOf(name) {
    const u = units()[name];
    let sp = unitCard(name).speed || 0;
    if (u && u.attachment && (card(u.attachment).abilities || []).some((a) => a.name === "Enhanced Mobility")) sp += 1;
    return sp;
  }
  function newGhost(name, mode, pose, max) {
    const u = units()[name];
    const start = pose || { at: u.at, facing: u.facing };
    const d = size(name)[1];
    ghost = { unit: name, mode, start, c: centre(start.at, start.facing, d), f: start.facing, max, c0: centre(start.at, start.facing, d), f0: start.facing };
    check.result = null;
    scheduleCheck();
  }
  function ghostAt() { return atFromCentre(ghost.c, ghost.f, size(ghost.unit)[1]); }
  const AXES = { forward: (f) => dir(f), back: (f) => dir(f).map((v) => -v), right: (f) => rightOf(f), left: (f) => rightOf(f).map((v) => -v) };
  /* Where a drag may put the ghost's centre: a March only straight forward, a Retreat along one axis. */
  function constrain(c) {
    const m = ghost.mode;
    const dx = c[0] - ghost.c0[0], dy = c[1] - ghost.c0[1];
    if (m === "pivot") return ghost.c0.slice();
    let out = c;
    if (m === "march") { const [ux, uy] = dir(ghost.f0); const t = Math.max(0, dx * ux + dy * uy); out = [ghost.c0[0] + ux * t, ghost.c0[1] + uy * t]; }
    if (m === "retreat") {
      let best = ["back", 0];
      for (const k of ["back", "left", "right", "forward"]) { const [ux, uy] = AXES[k](ghost.f0); const t = dx * ux + dy * uy; if (t > best[1]) best = [k, t]; }
      ghost.direction = best[0];
      const [ux, uy] = AXES[best[0]](ghost.f0);
      out = [ghost.c0[0] + ux * best[1], ghost.c0[1] + uy * best[1]];
    }
    return clampToMax(out);
  }
  /* The drag stops at the unit's allowed move distance (issue 26): the server refuses a longer move
     (flow.resolve_moves: Speed, twice for a March, the retreat's roll), so the ghost is held at that
     distance along the pointer's direction and the status says why. The server stays the judge:
     rough terrain takes 1 in off, which its check reports. */
  const MOVE_MODES = ["maneuver", "surge", "horse", "march", "retreat"];
  function clampToMax(c) {
    ghost.held = false;
    if (!ghost.max || !MOVE_MODES.includes(ghost.mode)) return c;
    const dd = dist(c, ghost.c0);
    if (dd <= ghost.max + 0.005) return c;
    ghost.held = true;
    const k = ghost.max / dd;
    return [ghost.c0[0] + (c[0] - ghost.c0[0]) * k, ghost.c0[1] + (c[1] - ghost.c0[1]) * k];
  }
  const tooFar = () => !!ghost && !!ghost.max && MOVE_MODES.includes(ghost.mode) && movedBy() > ghost.max + 0.005;
  /* What the ghost's status says of its distance (one place, for translation). */
  const GHOST_WORDS = {
    move: { maneuver: gettext("a Maneuver (its Speed)"), horse: gettext("a Maneuver (its Speed)"), surge: gettext("a Surge Forward (its Speed)"),
      march: gettext("a March (twice its Speed)"), retreat: gettext("this retreat") },
    held: (unit, max, what) => fmt(gettext("The tray stops at %(max)s: %(unit)s moves at most %(max)s in %(what)s."), { unit, max: inch(max), what }),
    tooFar: (unit, max, what, moved) => fmt(gettext("Too far: %(unit)s moves at most %(max)s in %(what)s, and this move is %(moved)s. Drag it back to confirm."), { unit, max: inch(max), what, moved: inch(moved) }),
  };
  function movedBy() { return dist(ghost.c, ghost.c0); }
  function ghostMove() {
    const f = round2(norm(ghost.f));
    const fwd = round2(movedBy());
    if (fwd < 0.01) return { end_face: f };
    return { face: round2(bearing(ghost.c0, ghost.c)), forward: fwd, end_face: f };
  }
  /* The action in the engine's notation (SCENARIOS.md "minis") for the ghost as it stands. */
  function ghostAction() {
    if (!ghost) return null;
    const f = round2(norm(ghost.f));
    const at = ghostAt().map(round2);
    switch (ghost.mode) {
      case "maneuver": return { maneuver: ghostMove() };
      case "surge": return { surge: ghostMove() };
      case "horse": return { choose: { unit: ghost.unit, maneuver: ghostMove() } };
      case "march": return { march: { forward: round2(movedBy()), end_face: f } };
      case "retreat": return { retreat_move: { direction: ghost.direction || "back", distance: round2(movedBy()), end_face: f } };
      case "deploy": return { deploy: { unit: ghost.unit, at, facing: f } };
      case "redeploy": return { redeploy: { unit: ghost.unit, at, facing: f } };
      case "pivot": return { pivot: Object.assign({}, pivots, { [ghost.unit]: f }) };
      default: return null;
    }
  }
  /* Each change of the tray asks again; only the answer to the last question is shown: the number is
     taken when the question is scheduled, so an answer to an earlier one still on its way when the tray
     moved is dropped instead of being shown as the new position's. A question that got no answer is asked
     again a few times, then the status says so (and the next change of the tray asks again). */
  const CHECK_RETRIES = [1000, 3000, 6000];
  let checkTimer = null;
  function scheduleCheck() {
    clearTimeout(checkTimer);
    check.pending = true;
    const seq = ++check.seq;
    checkTimer = setTimeout(() => runCheck(seq, 0), 250);
  }
  async function runCheck(seq, attempt) {
    const act = ghostAction();
    if (!act || seq !== check.seq) return;
    const res = await checkAction(act);
    if (seq !== check.seq) return;
    if (res.failed && attempt < CHECK_RETRIES.length) {
      checkTimer = setTimeout(() => runCheck(seq, attempt + 1), CHECK_RETRIES[attempt]);
      return;
    }
    check.pending = false;
    if (res.missing) { check.missing = true; check.result = null; } else check.result = res;
    drawOverlay(); renderGhostStatus();
  }

  /* Charge and attack targets of the active unit, each asked of the server's check. */
  async function loadTargets(kind) {
    const name = V.active_unit;
    const key = `${kind}|${version}|${name}`;
    if (targets && targets.key === key) return;
    const enemies = enemyUnits();
    targets = { key, kind, results: {} };
    const c = unitCard(name);
    const engaged = ((S.units || {})[name] || {}).engaged || [];
    const asks = [];
    for (const e of enemies) {
      if (kind === "charge") asks.push([e, null, { charge: { target: e } }]);
      else for (const a of c.attacks || []) {
        if ((a.range === "melee") !== (engaged.length > 0)) continue;
        asks.push([e, a.name, { attack: { target: e, attack: a.name } }]);
      }
    }
    renderDecision(); drawOverlay();
    await Promise.all(asks.map(async ([e, att, act]) => {
      const res = await checkAction(act);
      if (!targets || targets.key !== key) return;
      targets.results[e + "|" + (att || "")] = res.missing ? { ok: null } : res;
    }));
    if (targets && targets.key === key) { renderDecision(); drawOverlay(); }
  }

  /* Which enemy units the selected unit (either side's) sees: each asked of the server's check
     ({line_of_sight}, answered whatever is pending), and for a unit with a ranged attack also as a
     ranged attack sees (Cover blocks it). Players only: the check is not open to spectators. */
  const hasRanged = (name) => (unitCard(name).attacks || []).some((a) => a.range !== "melee");
  async function loadSight() {
    const name = selected;
    if (!SEAT || !tools.los || !game || game.status !== "active" || !name || !live(name)) return;
    const key = `${version}|${name}`;
    if (sight && sight.key === key) return;
    const enemies = foesOf(units()[name].seat);
    const mine = sight = { key, unit: name, results: {}, ranged: {} };
    const asks = [];
    for (const e of enemies) {
      asks.push([e, "results", { line_of_sight: { from: name, to: e } }]);
      if (hasRanged(name)) asks.push([e, "ranged", { line_of_sight: { from: name, to: e, ranged: true } }]);
    }
    await Promise.all(asks.map(async ([e, where, act]) => {
      const res = await checkAction(act);
      mine[where][e] = res.missing ? { ok: null } : res;
    }));
    if (sight !== mine) return;
    mine.done = true;
    drawOverlay(); renderUnitCard();
  }
  /* What the selected unit sees, in words (under its card). */
  function sightNode() {
    if (!sight || sight.unit !== selected || !live(selected)) return null;
    const enemies = Object.keys(sight.results).filter(live);
    if (!sight.done) return h("p", { class: "small mn-sight" }, gettext("Line of sight: checking…"));
    if (!enemies.length) return h("p", { class: "small mn-sight" }, gettext("Line of sight: no enemy unit on the table."));
    const seen = enemies.filter((e) => sight.results[e].ok), unseen = enemies.filter((e) => sight.results[e].ok === false);
    const ranged = hasRanged(selected) ? seen.filter((e) => sight.ranged[e] && sight.ranged[e].ok === false) : [];
    return h("div", { class: "small mn-sight" },
      h("p", {}, h("strong", {}, gettext("Line of sight:") + " "), seen.length ? fmt(gettext("%(unit)s sees %(units)s."), { unit: unitName(selected), units: seen.map(unitName).join(", ") }) : fmt(gettext("%(unit)s sees no enemy unit."), { unit: unitName(selected) })),
      unseen.length ? h("ul", {}, unseen.map((e) => h("li", {}, fmt(gettext("Not %(unit)s: %(reason)s"), { unit: unitName(e), reason: namesIn(sight.results[e].reason || "") })))) : null,
      ranged.length ? h("ul", {}, ranged.map((e) => h("li", {}, fmt(gettext("%(unit)s only for a melee attack or a charge: %(reason)s"), { unit: unitName(e), reason: namesIn(sight.ranged[e].reason || "") })))) : null);
  }

  // ------------------------------------------------------------------ the overlay: ghost, tools, targets

  function drawOverlay() {
    const g = svg.querySelector("#mn-overlay");
    if (!g || !game) return;
    useGame();
    const out = [];
    const sel = selected && live(selected) ? selected : null;
    if (sel && tools.arcs) {
      const u = units()[sel], [w, d] = size(sel);
      const c = centre(u.at, u.facing, d), cs = corners(u.at, u.facing, w, d);
      const far = (p) => { const vx = p[0] - c[0], vy = p[1] - c[1], n = Math.hypot(vx, vy); return [c[0] + vx / n * 80, c[1] + vy / n * 80]; };
      const [fl, fr, br, bl] = cs.map(far);
      out.push(s("g", { class: "mn-arcs", "clip-path": "url(#mn-table-clip)" },
        s("polygon", { points: pts([c, fl, fr]), class: "arc-front" }, s("title", {}, gettext("Front arc"))),
        s("polygon", { points: pts([c, fr, br]), class: "arc-flank" }, s("title", {}, gettext("Right flank"))),
        s("polygon", { points: pts([c, bl, fl]), class: "arc-flank" }, s("title", {}, gettext("Left flank"))),
        s("polygon", { points: pts([c, br, bl]), class: "arc-rear" }, s("title", {}, gettext("Rear arc")))));
    }
    if (sel && tools.rings) {
      const u = units()[sel], [w, d] = size(sel);
      const [x, y] = P(u.at[0], u.at[1]);
      const rings = s("g", { class: "mn-rings", transform: `translate(${x} ${y}) rotate(${rot(u.facing)})` });
      for (const r of [1, 6, 12]) {
        rings.append(s("rect", { x: -w / 2 - r, y: -r, width: w + 2 * r, height: d + 2 * r, rx: r, class: "ring-" + r }),
          s("text", { x: 0, y: -r + 0.7, class: "mn-ring-label" }, inch(r)));
      }
      out.push(rings);
    }
    // not while the unit's ghost is out (the lines are from where it stands) nor over its charge or attack targets
    if (tools.los && sel && sight && sight.unit === sel && !(ghost && ghost.unit === sel) && !(targets && sel === V.active_unit)) {
      const u = units()[sel];
      const from = P(u.at[0], u.at[1]);
      for (const [e, res] of Object.entries(sight.results)) {
        if (!live(e)) continue;
        const to = P(...centre(units()[e].at, units()[e].facing, size(e)[1]));
        const rg = sight.ranged[e];
        const cover = res.ok && rg && rg.ok === false;
        const words = res.ok ? (cover ? fmt(gettext("%(unit)s sees %(target)s (not for a ranged attack: %(reason)s)"), { unit: unitName(sel), target: unitName(e), reason: namesIn(rg.reason || "") })
          : fmt(gettext("%(unit)s sees %(target)s"), { unit: unitName(sel), target: unitName(e) }))
          : res.ok === null ? gettext("Line of sight is checked with an action") : namesIn(res.reason || "");
        out.push(s("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "mn-sight-line " + (res.ok ? (cover ? "ok cover" : "ok") : res.ok === null ? "unknown" : "no"), "data-sight": e },
          s("title", {}, words)));
      }
    }
    if (targets && V.active_unit && live(V.active_unit)) {
      const from = P(...centre(units()[V.active_unit].at, units()[V.active_unit].facing, size(V.active_unit)[1]));
      const seen = new Set();
      for (const [k, res] of Object.entries(targets.results)) {
        const e = k.split("|")[0];
        if (seen.has(e) && !res.ok) continue;
        seen.add(e);
        if (!live(e)) continue;
        const to = P(...centre(units()[e].at, units()[e].facing, size(e)[1]));
        out.push(s("line", { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: "mn-target-line " + (res.ok ? "ok" : res.ok === null ? "unknown" : "no") },
          s("title", {}, res.ok ? fmt(targets.kind === "charge" ? gettext("%(unit)s can be charged") : gettext("%(unit)s can be attacked"), { unit: unitName(e) }) : `${unitName(e)}: ${namesIn(res.reason || gettext("not checked"))}`)));
      }
    }
    // the attack being composed: where its shift puts the unit (M52), the terrain piece it would destroy (M78)
    const shifted = subArg && subArg.unit && live(subArg.unit) ? shiftedPose(subArg) : null;
    if (shifted) out.push(s("polygon", { points: pts(trayOf(subArg.unit, shifted)), class: "mn-shift-preview" }, s("title", {}, gettext("Where the shift puts the unit"))));
    const piece = subArg && subArg.terrain ? (V.terrain || []).find((t) => t.id === subArg.terrain) : null;
    if (piece) out.push(s("polygon", { points: pts(terrainPoly(piece)), class: "mn-terrain-pick" }, s("title", {}, terrainName(piece))));
    if (ghost && live(ghost.unit) || ghost && ["deploy", "redeploy"].includes(ghost.mode)) out.push(ghostNode());
    if (tape.length) {
      const a = tape[0], b = tape[1] || tapeHover;
      const [ax, ay] = P(...a);
      out.push(s("circle", { cx: ax, cy: ay, r: 0.25, class: "mn-tape-end" }));
      if (b) {
        const [bx, by] = P(...b);
        out.push(s("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "mn-tape" }), s("circle", { cx: bx, cy: by, r: 0.25, class: "mn-tape-end" }),
          s("text", { x: (ax + bx) / 2, y: (ay + by) / 2 - 0.5, class: "mn-tape-label" }, inch(dist(a, b).toFixed(2))));
      }
    }
    g.replaceChildren(...out);
    loadSight();
  }

  function ghostNode() {
    const [w, d] = size(ghost.unit);
    const at = ghostAt();
    const [x, y] = P(at[0], at[1]);
    const res = check.result;
    const state = check.pending ? "checking" : res ? (res.ok ? "ok" : "bad") : "unchecked";
    const g = s("g", { class: `mn-ghost ${state}` });
    const body = s("g", { transform: `translate(${x} ${y}) rotate(${rot(ghost.f)})` },
      s("rect", { x: -w / 2, y: 0, width: w, height: d, class: "mn-ghost-body", "data-ghost": "body" }, s("title", {}, gettext("Drag to move"))),
      s("path", { d: "M -0.6 0.05 L 0 -0.7 L 0.6 0.05 Z", class: "mn-front", "data-ghost": "body" }));
    const handleY = -(1.9);
    {
      body.append(s("line", { x1: 0, y1: 0, x2: 0, y2: handleY, class: "mn-handle-stem" }),
        s("circle", { cx: 0, cy: handleY, r: 0.55, class: "mn-handle", "data-ghost": "rot" }, s("title", {}, gettext("Drag to turn the tray"))));
    }
    if (!["pivot"].includes(ghost.mode)) {
      const arrows = { forward: [0, -0.9 + handleY * 0 - 0.3, 0], back: [0, d + 0.9, 180], left: [-w / 2 - 0.9, d / 2, 270], right: [w / 2 + 0.9, d / 2, 90] };
      for (const [k, [ax, ay, r]] of Object.entries(arrows)) {
        if (k === "forward") continue;   // the turning handle sits in front
        if (ghost.mode === "march" && k !== "back") continue;
        body.append(s("path", { d: "M -0.45 0.3 L 0 -0.4 L 0.45 0.3 Z", transform: `translate(${ax} ${ay}) rotate(${r})`, class: "mn-shift", "data-ghost": "shift", "data-dir": k },
          s("title", {}, ({ back: gettext("Shift half an inch back"), left: gettext("Shift half an inch left"), right: gettext("Shift half an inch right"), forward: gettext("Shift half an inch forward") })[k] || fmt(gettext("Shift half an inch %(dir)s"), { dir: k }))));
      }
    }
    g.append(body);
    if (res && res.ok && res.at && dist(res.at, at) > 0.05) {
      const rp = P(res.at[0], res.at[1]);
      g.append(s("rect", { x: -w / 2, y: 0, width: w, height: d, class: "mn-resolved", transform: `translate(${rp[0]} ${rp[1]}) rotate(${rot(res.facing)})` }, s("title", {}, gettext("Where the move ends"))));
    }
    const cen = P(...ghost.c);
    const moved = movedBy();
    g.append(s("text", { x: cen[0], y: cen[1] + 0.3, class: "mn-ghost-label" }, ["deploy", "redeploy", "pivot"].includes(ghost.mode) ? `${Math.round(norm(ghost.f))}°` : inch(moved.toFixed(1)) + (ghost.held ? " " + gettext("(most)") : "")));
    return g;
  }

  function renderGhostStatus() {
    const box = $("ghost-status");
    if (!box || !ghost) return;
    const res = check.result;
    let text, cls = "";
    if (check.missing) text = gettext("The move is checked when you confirm it.");
    else if (check.pending || !res) text = gettext("Checking the move…");
    else if (res.failed) { cls = "bad"; text = fmt(gettext("The move could not be checked: %(reason)s. Move or turn the tray to ask again."), { reason: String(res.reason).replace(/[.\s]+$/, "") }); }
    else if (res.ok) {
      cls = "ok";
      const o = { facing: compass(res.facing), degrees: Math.round(res.facing) };
      text = !res.at ? gettext("Allowed.") : dist(res.at, ghost.start.at) < 0.01 ? fmt(gettext("Allowed: the tray ends where it stands, facing %(facing)s (%(degrees)s°)."), o)
        : fmt(gettext("Allowed: the tray ends %(distance)s from where it stood, facing %(facing)s (%(degrees)s°)."), Object.assign(o, { distance: inch(dist(centre(res.at, res.facing, size(ghost.unit)[1]), ghost.c0).toFixed(2)) }));
    }
    else { cls = "bad"; text = fmt(gettext("Not allowed: %(reason)s"), { reason: namesIn(res.reason || gettext("refused")) }); }
    const what = GHOST_WORDS.move[ghost.mode];
    if (tooFar()) { cls = "bad"; text = GHOST_WORDS.tooFar(unitName(ghost.unit), ghost.max, what, movedBy().toFixed(1)); }
    else if (ghost.held && what) text = GHOST_WORDS.held(unitName(ghost.unit), ghost.max, what) + " " + text;
    box.className = "mn-ghost-status " + cls;
    box.textContent = text;
    const confirm = $("confirm");
    if (confirm && confirm.closest(".mn-ghost-panel")) confirm.disabled = tooFar();
  }

  // ------------------------------------------------------------------ zoom, pan, drag, tools

  function applyView() { svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`); }
  function toSvg(clientX, clientY) {
    const m = svg.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return [p.x, p.y];
  }
  function zoomAt(factor, cx, cy) {
    const nw = Math.max(6, Math.min(80, vb.w * factor));
    const k = nw / vb.w;
    vb = { x: cx - (cx - vb.x) * k, y: cy - (cy - vb.y) * k, w: nw, h: vb.h * k };
    applyView();
  }
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [cx, cy] = toSvg(e.clientX, e.clientY);
    zoomAt(e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }, { passive: false });
  document.querySelector(".mn-tools").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    if (b.dataset.zoom === "fit") { vb = Object.assign({}, FIT); applyView(); return; }
    if (b.dataset.zoom) { zoomAt(b.dataset.zoom === "in" ? 1 / 1.4 : 1.4, vb.x + vb.w / 2, vb.y + vb.h / 2); return; }
    const t = b.dataset.tool;
    if (!t) return;
    tools[t] = !tools[t];
    b.setAttribute("aria-pressed", tools[t] ? "true" : "false");
    if (t === "tape") { tape = []; tapeHover = null; }
    toolNote();
    drawOverlay();
    renderUnitCard();
  });
  function toolNote() {
    const notes = [];
    if (tools.tape) notes.push(tape.length === 2 ? fmt(gettext("Measured %(distance)s; click to measure again."), { distance: inch(dist(tape[0], tape[1]).toFixed(2)) }) : tape.length ? gettext("Click the second point.") : gettext("Click the first point to measure from."));
    if ((tools.rings || tools.arcs || tools.los) && !selected) {
      const shown = [tools.rings && gettext("ranges"), tools.arcs && gettext("arcs"), tools.los && gettext("line of sight")].filter(Boolean);
      notes.push(fmt(gettext("Select a unit to see its %(what)s."), { what: shown.length > 1 ? fmt(gettext("%(items)s and %(last)s"), { items: shown.slice(0, -1).join(", "), last: shown[shown.length - 1] }) : shown[0] }));
    }
    $("tool-note").textContent = notes.join(" ");
  }

  const pointers = new Map();
  let drag = null;   // {kind: pan|ghost|rot|pinch, ...}
  svg.addEventListener("pointerdown", (e) => {
    if (e.button !== undefined && e.button > 0) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    try { svg.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ }
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      drag = { kind: "pinch", d0: Math.hypot(a[0] - b[0], a[1] - b[1]), vb0: Object.assign({}, vb), mid: toSvg((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
      return;
    }
    const p = toSvg(e.clientX, e.clientY);
    const t = fromScreen(p[0], p[1]);
    const gEl = e.target.closest("[data-ghost]");
    if (gEl && ghost) {
      const kind = gEl.dataset.ghost;
      if (kind === "shift") { shiftGhost(gEl.dataset.dir); drag = { kind: "none" }; return; }
      if (kind === "rot") { drag = { kind: "rot" }; return; }
      drag = { kind: "ghost", off: [ghost.c[0] - t[0], ghost.c[1] - t[1]] };
      return;
    }
    const uEl = e.target.closest("[data-unit]");
    const name = uEl ? uEl.dataset.unit : null;
    if (name && !tools.tape && canDragUnit(name)) {
      startMoveGhost(name);
      drag = { kind: "ghost", off: [ghost.c[0] - t[0], ghost.c[1] - t[1]], start: [e.clientX, e.clientY], unit: name, fresh: true };
      return;
    }
    drag = { kind: "pan", start: [e.clientX, e.clientY], vb0: Object.assign({}, vb), moved: false, unit: name, at: t };
  });
  svg.addEventListener("pointermove", (e) => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (tools.tape && tape.length === 1 && (!drag || drag.kind !== "pinch")) {
      const p = toSvg(e.clientX, e.clientY); tapeHover = fromScreen(p[0], p[1]); drawOverlay();
    }
    if (!drag) return;
    if (drag.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      vb = Object.assign({}, drag.vb0); applyView();
      zoomAt(drag.d0 / d, drag.mid[0], drag.mid[1]);
      return;
    }
    const p = toSvg(e.clientX, e.clientY);
    const t = fromScreen(p[0], p[1]);
    if (drag.kind === "ghost" && ghost) {
      if (drag.start && Math.hypot(e.clientX - drag.start[0], e.clientY - drag.start[1]) > 3) drag.moved = true;
      ghost.c = constrain([t[0] + drag.off[0], t[1] + drag.off[1]]);
      drawOverlay(); scheduleCheck(); renderGhostStatus();
    } else if (drag.kind === "rot" && ghost) {
      let f = bearing(ghost.c, t);
      f = e.shiftKey ? Math.round(f / 15) * 15 : Math.round(f);
      ghost.f = norm(f);
      drawOverlay(); scheduleCheck(); renderGhostStatus(); syncFacingInput();
    } else if (drag.kind === "pan") {
      const m = svg.getScreenCTM();
      if (!m) return;
      const dx = (e.clientX - drag.start[0]) / m.a, dy = (e.clientY - drag.start[1]) / m.d;
      if (Math.abs(e.clientX - drag.start[0]) + Math.abs(e.clientY - drag.start[1]) > 4) drag.moved = true;
      if (drag.moved) { vb = Object.assign({}, drag.vb0, { x: drag.vb0.x - dx, y: drag.vb0.y - dy }); applyView(); }
    }
  });
  function endPointer(e) {
    pointers.delete(e.pointerId);
    const d = drag;
    if (pointers.size === 0) drag = null;
    if (!d) return;
    if (d.kind === "pan" && !d.moved) {
      if (tools.tape) {
        if (tape.length !== 1) tape = [d.at]; else tape = [tape[0], d.at];
        tapeHover = null; toolNote(); drawOverlay(); return;
      }
      clickUnit(d.unit);
    }
    if (d.kind === "ghost" && d.fresh && !d.moved) clickUnit(d.unit);
    if ((d.kind === "ghost" || d.kind === "rot") && ghost) renderDecision();
  }
  svg.addEventListener("pointerup", endPointer);
  svg.addEventListener("pointercancel", endPointer);
  svg.addEventListener("keydown", (e) => {
    if (e.key === "+" || e.key === "=") zoomAt(1 / 1.3, vb.x + vb.w / 2, vb.y + vb.h / 2);
    else if (e.key === "-") zoomAt(1.3, vb.x + vb.w / 2, vb.y + vb.h / 2);
    else if (e.key === "0") { vb = Object.assign({}, FIT); applyView(); }
  });

  function shiftGhost(k) {
    const [ux, uy] = AXES[k](ghost.f);
    ghost.c = constrain([ghost.c[0] + ux * 0.5, ghost.c[1] + uy * 0.5]);
    drawOverlay(); scheduleCheck(); renderGhostStatus(); renderDecision();
  }
  function clickUnit(name) {
    selected = name && selected !== name ? name : name ? name : null;
    toolNote();
    renderUnitCard();
    drawField(svg, game.view, game.summary, CATALOGUE, fieldOpts());
    drawOverlay();
    renderDecision();
  }
  /* Dragging a tray starts its move when the decision pending is a move of that unit. */
  function canDragUnit(name) {
    const kind = myKind();
    if (!kind) return false;
    const d = decision();
    const su = (S.units || {})[name] || {};
    if (kind === "action" && V.act && !V.act.ncu && V.active_unit === name && !(su.engaged || []).length) return true;
    if (kind === "retreat_move" && d.unit === name) return true;
    if (kind === "surge" && d.unit === name) return true;
    if (kind === "pivot" && (d.units || []).includes(name)) return true;
    if (ghost && ghost.unit === name) return true;
    return false;
  }
  function startMoveGhost(name) {
    if (ghost && ghost.unit === name) return;
    const kind = myKind(), d = decision();
    if (kind === "action") { sub = sub === "march" ? "march" : "maneuver"; newGhost(name, sub, null, sub === "march" ? 2 * speedOf(name) : speedOf(name)); }
    else if (kind === "retreat_move") newGhost(name, "retreat", null, d.max);
    else if (kind === "surge") { sub = "surge"; newGhost(name, "surge", null, speedOf(name)); }
    else if (kind === "pivot") newGhost(name, "pivot", null, 0);
    selected = name;
  }

  // ------------------------------------------------------------------ rendering

  function fieldOpts() {
    const clickable = new Set();
    const kind = myKind();
    if (kind === "activate") for (const a of game.legal_actions || []) if (units()[a.activate]) clickable.add(a.activate);
    if (kind === "action" && V.active_unit) clickable.add(V.active_unit);
    return { seat: SEAT, names: SEATNAMES, selected, clickable, showZones: kind === "deploy" };
  }
  function decisionKey() { const d = Object.assign({}, decision()); delete d.seats; return `${myKind()}|${version}|${JSON.stringify(d)}`; }

  function render() {
    useGame();
    const key = myKind() ? decisionKey() : null;
    const dkey = key ? key.replace(/\|\d+\|/, "|") + (V.active_unit || "") + JSON.stringify(V.act || {}) : null;
    if (dkey !== decisionKeySeen) {   // a new decision: forget the last one's choices
      decisionKeySeen = dkey;
      ghost = null; sub = null; subArg = null; picks = new Set(); pivots = {}; targets = null; check.result = null;
      zoneTargets = null; terrainChecks = null; attackCheck = { key: null, result: null };
      autoStart();
    }
    if (!selected && V.active_unit && units()[V.active_unit]) selected = V.active_unit;
    if (selected && !live(selected)) selected = null;
    $("jump").hidden = !myKind();
    $("phase").textContent = phaseText(game.status);
    fitTable();
    drawField(svg, game.view, game.summary, CATALOGUE, fieldOpts());
    applyView();
    drawOverlay();
    renderScore();
    renderUnitCard();
    renderDice();
    $("board-panel").replaceChildren(boardNode());
    renderHand();
    renderDecision();
  }
  /* Decisions that are a move from the start: a retreat's move, a surge. */
  function autoStart() {
    const kind = myKind(), d = decision();
    if (kind === "retreat_move" && live(d.unit)) { newGhost(d.unit, "retreat", null, d.max); selected = d.unit; }
  }

  function renderScore() {
    const rows = game.seats || [];
    const chip = (seat) => {
      const row = rows.find((r) => r.seat === seat) || {};
      const waiting = (game.pending || {})[seat];
      return h("span", { class: `mn-seat seat-${seat}${waiting ? " waiting" : ""}${isOut(seat) ? " out" : ""}` },
        h("strong", {}, seatLabel(seat)),
        row.bot_account && !row.is_bot ? [" ", h("span", { class: "bot-badge", title: gettext("a bot account: a program playing through the API") }, "BOT")] : null,
        isTeams() ? null : " " + fmt(gettext("%(vp)s VP"), { vp: (V.vp || {})[seat] || 0 }),
        isOut(seat) ? h("span", { class: "mn-out" }, " · " + gettext("out of the battle")) : null,
        waiting ? h("span", { class: "mn-wait" }, " · " + gettext("deciding"), row.deadline_at ? [" ", h("span", { class: "deadline", "data-deadline": row.deadline_at }, "")] : null) : null,
        row.connected ? h("span", { class: "mn-online", title: gettext("connected") }, " ●") : null);
    };
    if (isTeams()) {   // M130: the VP are the team's
      $("scoreline").replaceChildren(...[...new Set(seats().map(teamOf))].map((team) => h("span", { class: "mn-team" },
        ...teamSeats(team).map(chip), h("span", { class: "mn-team-vp" }, fmt(gettext("team: %(vp)s VP"), { vp: (V.vp || {})[team] || 0 })))));
    } else {
      $("scoreline").replaceChildren(...seats().map(chip));
    }
    tick();
  }
  function renderUnitCard() {
    const box = $("unit-card");
    if (!selected || !units()[selected]) { box.replaceChildren(h("p", { class: "small empty" }, gettext("Click a tray to see its unit's card."))); return; }
    box.replaceChildren(...[unitCardNode(selected), tools.los ? sightNode() : null].filter(Boolean));
  }
  function renderDice() {
    const box = $("dice-panel");
    const kind = myKind(), d = decision();
    const la = V.last_attack, lt = V.last_test, lc = V.last_charge;
    if (!la && !lt && !lc) { box.hidden = true; return; }
    box.hidden = false;
    const pick = { picked: picks, onpick: (i) => { if (picks.has(i)) picks.delete(i); else picks.add(i); renderDice(); renderDecision(); } };
    const pickAttack = (kind === "reroll" && d.dice === "attack") || (kind === "spend" && d.dice === "attack") ? pick : null;
    const pickDefense = kind === "spend" && d.dice === "defense" ? pick : null;
    let testNode = null;
    if (kind === "spend" && d.dice === "morale") {
      const task = (V.work || [])[0] || {};
      testNode = testLine({ unit: d.unit, kind: task.kind || "panic", dice: task.dice || [], d3: task.d3, result: null }, pick);
    } else if (lt && (!la || !la.panic || lt.unit !== la.defender)) testNode = testLine(lt);
    box.replaceChildren(...[h("h2", {}, gettext("Dice")), attackBox(la, { pickAttack, pickDefense }), chargeLine(lc), testNode,
      V.last_retreat ? h("div", { class: "mn-dice-line" }, h("span", { class: "mn-dice-label" }, fmt(gettext("%(unit)s retreats"), { unit: unitName(V.last_retreat.unit) })), diceRow([V.last_retreat.roll], { label: gettext("retreat die") }), " " + fmt(gettext("up to %(max)s"), { max: inch(V.last_retreat.max) })) : null].filter(Boolean));
  }
  function renderHand() {
    const kind = myKind(), d = decision();
    const pick = kind === "discard" ? { picked: picks, toggle: (i) => { if (picks.has(i)) picks.delete(i); else picks.add(i); renderHand(); renderDecision(); } } : null;
    $("hand-panel").replaceChildren(...handNode(pick));
  }

  // ------------------------------------------------------------------ decisions

  function describeMove(m) {
    if (!m) return "";
    if (m.direction) return fmt(({ back: gettext("%(distance)s back"), left: gettext("%(distance)s left"), right: gettext("%(distance)s right"), forward: gettext("%(distance)s forward") })[m.direction]
      || `%(distance)s ${m.direction}`, { distance: inch(m.distance) });
    if (m.forward !== undefined) return fmt(gettext("%(distance)s forward"), { distance: inch(m.forward) });
    return "";
  }
  function describeAction(a) {
    const [k, v] = Object.entries(a)[0];
    if (k === "activate") return fmt(gettext("Activate %(unit)s"), { unit: unitName(v) });
    if (k === "pass") return gettext("Pass");
    if (k === "auto_pass") return gettext("Pass for the rest of this turn");
    if (k === "play" || k === "order") {
      const modes = card(v.card).modes || [];
      const head = k === "play" ? fmt(gettext("Play %(card)s"), { card: card(v.card).name }) + (modes.length > 1 ? ` (${(modes[v.mode || 0] || {}).trigger || fmt(gettext("mode %(n)s"), { n: (v.mode || 0) + 1 })})` : "")
        : `${unitName(v.unit)}: ${ability(v.ability)}`;
      const bits = [];
      if (k === "play" && v.unit) bits.push(fmt(gettext("on %(unit)s"), { unit: unitName(v.unit) }));
      if (v.target) bits.push(fmt(gettext("targeting %(unit)s"), { unit: unitName(v.target) }));
      if (v.move) bits.push(fmt(gettext("a move of %(move)s"), { move: describeMove(v.move) }));
      if (v.charge) bits.push(fmt(gettext("charging %(unit)s"), { unit: unitName(v.charge.target) }));
      if (v.pick) bits.push(v.pick === "both" ? gettext("both effects") : fmt(gettext("effect %(letter)s"), { letter: v.pick.toUpperCase() }));
      if (v.picks) bits.push(v.picks.join(", "));
      return head + (bits.length ? ` — ${bits.join(", ")}` : "");
    }
    if (k === "choose") {
      if (v === null || v === false) return gettext("Decline");
      if (typeof v === "string" && decision().what === "go_down_fighting") return fmt(gettext("%(unit)s loses 1 wound"), { unit: unitName(v) });
      if (decision().what === "ncu_ability") {
        if (v.card) return fmt(gettext("Take %(card)s back into your hand"), { card: card(v.card).name });
        const found = Object.entries(v.from || {}).map(([c, pile]) => fmt(pile === "deck" ? gettext("%(card)s from the deck") : gettext("%(card)s from the discard pile"), { card: card(c).name }));
        return found.length ? fmt(gettext("Spend an Order token and take %(cards)s"), { cards: found.join(", ") }) : gettext("Spend an Order token (no card left to find)");
      }
      if (typeof v === "string") return seats().includes(v) ? fmt(gettext("%(seat)s is the First Player"), { seat: seatLabel(v) }) : cap(v);
      const d = decision(), U = unitName(v.unit);
      if (d.what === "influence") return v.condition ? fmt(gettext("Influence %(unit)s, removing its %(condition)s token"), { unit: U, condition: condName(v.condition) }) : fmt(gettext("Influence %(unit)s"), { unit: U });
      if (d.zone === "crown") return fmt(gettext("%(unit)s takes a Panic Test at -1"), { unit: U });
      if (d.zone === "money") return v.condition ? fmt(gettext("Heal %(unit)s (up to 3 wounds) and remove its %(condition)s token"), { unit: U, condition: condName(v.condition) }) : fmt(gettext("Heal %(unit)s (up to 3 wounds)"), { unit: U });
      const bits = [U];
      if (v.condition) bits.push(fmt(d.zone === "letter" ? gettext("gains %(condition)s") : gettext("loses %(condition)s"), { condition: condName(v.condition) }));
      if (v.target) bits.push(v.attack ? fmt(gettext("attacks %(unit)s with %(attack)s"), { unit: unitName(v.target), attack: v.attack }) : fmt(gettext("attacks %(unit)s"), { unit: unitName(v.target) }));
      const piece = v.terrain ? (V.terrain || []).find((t) => t.id === v.terrain) : null;
      if (piece) bits.push(fmt(gettext("destroys the %(terrain)s"), { terrain: terrainName(piece) }));
      if (v.retreat) bits.push(gettext("retreats"));
      return bits.join(" ");
    }
    return cap(k);
  }
  function button(act, label, cls) {
    return h("button", { type: "button", class: "choice" + (cls ? " " + cls : ""), "data-action": JSON.stringify(act), onclick: () => send(act) }, label || describeAction(act));
  }
  const TITLES = { activate: gettext("activate a unit"), action: gettext("choose the action"), retreat_move: gettext("move the retreating unit"), reroll: gettext("re-roll dice?"),
    spend: gettext("spend a condition token?"), react: gettext("play a card or an Order, or pass"), pivot: gettext("free pivots"), surge: gettext("Surge Forward?"), discard: gettext("discard cards"),
    choose: gettext("a choice"), deploy: gettext("deploy a unit"), redeploy: gettext("redeploy a destroyed unit") };

  function renderDecision() {
    const box = $("decision");
    if (!game) return;
    useGame();
    const kind = myKind();
    if (!SEAT) { box.replaceChildren(h("h2", {}, gettext("Spectating")), h("p", {}, gettext("You see what any spectator may see: no Tactics hand."))); return; }
    if (game.status !== "active") {
      box.replaceChildren(h("h2", {}, gettext("The battle is over")), h("p", {}, game.status === "abandoned" ? gettext("The game was abandoned.") : !V.winner ? gettext("A draw.") : wonByTeam(V.winner) ? fmt(gettext("%(team)s win."), { team: teamName(V.winner) }) : fmt(gettext("%(seat)s wins."), { seat: seatLabel(V.winner) })), h("p", {}, h("a", { href: `/games/${game.id}/replay` }, gettext("Replay it step by step"))));
      return;
    }
    if (!kind) {
      const waiting = Object.entries(game.pending || {}).map(([x, k]) => `${seatLabel(x)} (${TITLES[k] || cap(k)})`).join(", ");
      box.replaceChildren(h("h2", {}, gettext("Nothing to decide")), h("p", {}, waiting ? fmt(gettext("Waiting for %(who)s."), { who: waiting }) : gettext("Waiting.")));
      return;
    }
    const me = (game.seats || []).find((r) => r.seat === SEAT) || {};
    const d = decision();
    let title = TITLES[kind] || cap(kind);
    if (kind === "choose" && d.what === "first_player") title = gettext("choose the First Player");
    else if (kind === "choose" && d.what === "influence") title = fmt(gettext("%(ncu)s's Influence"), { ncu: card(d.ncu).name });
    else if (kind === "choose" && d.what === "go_down_fighting") title = gettext("Go Down Fighting");
    else if (kind === "choose" && d.what === "ncu_ability") title = `${card(d.ncu).name}: ${ncuAbility(d).label}`;
    else if (kind === "choose" && d.zone) title = fmt(gettext("the %(zone)s zone"), { zone: zoneName(d.zone) });
    else if (kind === "react") title = fmt(gettext("%(moment)s: a card or an Order?"), { moment: WINDOW_WORDS[d.window] || gettext("a trigger") });
    const head = h("h2", {}, gettext("Your decision:") + " ", title, " ", me.deadline_at ? h("span", { class: "deadline", "data-deadline": me.deadline_at }, "") : "");
    let body;
    try { body = decisionBody(kind, d); } catch (e) { body = h("div", {}, h("div", { class: "choices" }, (game.legal_actions || []).map((a) => button(a)))); }
    box.replaceChildren(head, body);   // extend, concede and the pause vote: the seat bar (table_controls.js)
    renderGhostStatus();
    tick();
  }

  function facingControls() {
    const turn = (by) => { ghost.f = norm(ghost.f + by); drawOverlay(); scheduleCheck(); renderGhostStatus(); syncFacingInput(); };
    const enemies = foesOf(ghost && units()[ghost.unit] ? units()[ghost.unit].seat : SEAT);
    let nearest = null;
    for (const e of enemies) { const dd = dist(centre(units()[e].at, units()[e].facing, size(e)[1]), ghost.c); if (!nearest || dd < nearest[1]) nearest = [e, dd]; }
    return h("div", { class: "mn-facing" },
      h("button", { type: "button", class: "small-button", onclick: () => turn(-15), title: gettext("Turn 15° to the left") }, "⟲ 15°"),
      h("button", { type: "button", class: "small-button", onclick: () => turn(-1) }, "⟲ 1°"),
      h("label", {}, gettext("Facing") + " ", h("input", { type: "number", id: "ghost-facing", min: 0, max: 359, step: 1, value: Math.round(ghost.f), onchange: (e) => { ghost.f = norm(+e.target.value || 0); drawOverlay(); scheduleCheck(); renderGhostStatus(); } }), "°"),
      h("button", { type: "button", class: "small-button", onclick: () => turn(1) }, "⟳ 1°"),
      h("button", { type: "button", class: "small-button", onclick: () => turn(15), title: gettext("Turn 15° to the right") }, "⟳ 15°"),
      nearest ? h("button", { type: "button", class: "small-button", onclick: () => { const e = nearest[0]; ghost.f = Math.round(bearing(ghost.c, centre(units()[e].at, units()[e].facing, size(e)[1]))); drawOverlay(); scheduleCheck(); renderGhostStatus(); syncFacingInput(); } }, fmt(gettext("Face %(unit)s"), { unit: unitName(nearest[0]) })) : null);
  }
  function syncFacingInput() { const i = $("ghost-facing"); if (i && ghost) i.value = Math.round(ghost.f); }

  /* The ghost's panel: what to do with it, the check's answer, confirm or cancel. */
  function ghostPanel(label, extra) {
    const max = ghost.max ? " " + fmt(gettext("(up to %(max)s)"), { max: inch(ghost.max) }) : "";
    const how = ghost.mode === "pivot" ? gettext("Turn the tray with its round handle or the buttons.")
      : ghost.mode === "march" ? fmt(gettext("Drag the tray straight forward%(max)s, turn it with the round handle at the end."), { max })
      : ghost.mode === "retreat" ? fmt(gettext("Drag the tray back or sideways%(max)s (forward only when engaged in a flank or the rear); turn it with the round handle."), { max })
      : ["deploy", "redeploy"].includes(ghost.mode) ? gettext("Drag the tray to its place; turn it with the round handle.")
      : fmt(gettext("Drag the tray where it should go%(max)s: it turns to the move's direction, goes straight, then turns to the facing you give it with the round handle. The arrows shift it half an inch."), { max });
    return h("div", { class: "mn-ghost-panel" }, h("p", { class: "small" }, how), facingControls(),
      h("p", { id: "ghost-status", class: "mn-ghost-status", role: "status", "aria-live": "polite" }, ""),
      h("p", {}, h("button", { type: "button", id: "confirm", class: "confirm", disabled: tooFar(), onclick: () => { const a = !tooFar() && ghostAction(); if (a) send(a); } }, label), " ",
        h("button", { type: "button", class: "secondary", onclick: () => { ghost = null; if (!["retreat_move"].includes(myKind())) sub = null; else autoStart(); render(); } }, gettext("Cancel")), extra || null));
  }

  function decisionBody(kind, d) {
    const legal = game.legal_actions;
    if (kind === "choose" && d.what === "first_player") return h("div", {}, h("p", {}, gettext("You lost the roll-off for the deployment zone: choose who plays first.")), h("div", { class: "choices" }, (legal || []).map((a) => button(a))));
    if (kind === "deploy" || kind === "redeploy") return deployBody(kind);
    if (kind === "activate") return activateBody(legal || []);
    if (kind === "action") return V.act && V.act.ncu ? ncuBody() : actionBody();
    if (kind === "retreat_move") {
      if (!ghost) newGhost(d.unit, "retreat", null, d.max);
      return h("div", {}, h("p", {}, fmt(gettext("%(unit)s retreats up to %(max)s."), { unit: unitName(d.unit), max: inch(d.max) })), ghostPanel(gettext("Confirm the retreat")));
    }
    if (kind === "reroll") return rerollBody(d);
    if (kind === "spend") return spendBody(d);
    if (kind === "pivot") return pivotBody(d);
    if (kind === "surge") {
      return h("div", {}, h("p", {}, fmt(gettext("%(unit)s destroyed its enemy: it may make a free Maneuver (Surge Forward)."), { unit: unitName(d.unit) })),
        ghost ? ghostPanel(gettext("Confirm the Surge Forward")) : h("p", {}, h("button", { type: "button", class: "choice", onclick: () => { sub = "surge"; newGhost(d.unit, "surge", null, speedOf(d.unit)); selected = d.unit; render(); } }, gettext("Move it (drag the ghost tray)"))),
        h("p", {}, button({ surge: null }, gettext("No Surge Forward"), "pass")));
    }
    if (kind === "discard") return discardBody(d);
    if (kind === "react") return reactBody(legal || [], d);
    if (kind === "choose") return chooseBody(legal || [], d);
    return h("div", {}, h("div", { class: "choices" }, (legal || []).map((a) => button(a))));
  }

  function waitingUnits(kind) {
    if (kind === "redeploy") return (((V.players || {})[SEAT] || {}).destroyed || []).slice();
    return Object.keys(units()).filter((n) => units()[n].seat === SEAT && !units()[n].on_table && !units()[n].destroyed);
  }
  function defaultPose(name, kind) {
    const [W, H] = tableSize();
    const first = seats()[0] === SEAT;
    const [w, d] = size(name);
    const y = kind === "redeploy" ? (first ? 0.5 + d : H - 0.5 - d) : (first ? 9 + d / 2 : H - 9 - d / 2);
    const facing = first ? 0 : 180;
    for (const x of [24, 17, 31, 10, 38, 5, 43]) {
      const at = [x, y];
      const poly = corners(at, facing, w, d);
      if (liveUnits().every((n) => polyDist(poly, trayOf(n)) > 0.3)) return { at, facing };
    }
    return { at: [24, y], facing };
  }
  function deployBody(kind) {
    const todo = waitingUnits(kind);
    const verb = (unit) => fmt(kind === "deploy" ? gettext("Deploy %(unit)s") : gettext("Redeploy %(unit)s"), { unit });
    const intro = kind === "deploy" ? gettext("Choose a unit and put it wholly inside your deployment zone (the shaded band on your side).")
      : gettext("You may bring back one destroyed unit, wholly within 6 in of your table edge or a flank edge; it counts as activated this round.");
    const pick = (n) => { sub = kind; subArg = n; const pose = defaultPose(n, kind); newGhost(n, kind, pose, 0); selected = null; render(); };
    return h("div", {}, h("p", {}, intro),
      h("div", { class: "choices" }, todo.map((n) => h("button", { type: "button", class: "choice" + (ghost && ghost.unit === n ? " on" : ""), "data-unit": n, onclick: () => pick(n) }, verb(unitName(n))))),
      ghost ? ghostPanel(fmt(kind === "deploy" ? gettext("Deploy %(unit)s here") : gettext("Redeploy %(unit)s here"), { unit: unitName(ghost.unit) })) : null,
      kind === "redeploy" ? h("p", {}, button({ redeploy: null }, gettext("Do not redeploy"), "pass")) : null);
  }
  function activateBody(legal) {
    const sel = legal.find((a) => a.activate === selected);
    return h("div", {}, h("p", {}, gettext("Choose one of your units that has not activated yet (click its tray, or a button).")),
      sel ? h("p", {}, button(sel, fmt(gettext("Activate %(unit)s"), { unit: unitName(selected) }), "confirm")) : null,
      h("div", { class: "choices" }, legal.filter((a) => a !== sel).map((a) => button(a))));
  }
  function ncuBody() {
    const n = V.active_unit;
    const empty = Object.keys(C.zones || {}).filter((z) => !(V.board || {})[z]);
    const quads = V.mode === "here_we_stand" ? ["nw", "ne", "sw", "se"] : [];
    return h("div", {}, h("p", {}, fmt(quads.length ? gettext("%(ncu)s acts on the Tactics Board: claim an empty zone (its effect follows at once), or stand in a quadrant of the battlefield.")
      : gettext("%(ncu)s acts on the Tactics Board: claim an empty zone (its effect follows at once)."), { ncu: card(n).name })),
      h("div", { class: "choices" }, empty.map((z) => h("button", { type: "button", class: "choice", "data-action": JSON.stringify({ claim: z }), onclick: () => send({ claim: z }) }, h("strong", {}, fmt(gettext("Claim %(zone)s"), { zone: zoneName(z) })), ": ", C.zones[z].text))),
      quads.length ? h("div", { class: "choices-inline" }, quads.map((q) => button({ place: q }, fmt(gettext("Place in the %(quadrant)s quadrant"), { quadrant: quadName(q) })))) : null,
      h("p", {}, button({ no_action: true }, gettext("No action"), "pass")));
  }
  function actionBody() {
    const name = V.active_unit;
    const su = (S.units || {})[name] || {};
    const engaged = su.engaged || [];
    const c = unitCard(name);
    const pre = !V.act.pre_maneuver && ["cavalry"].includes(c.type) || (!V.act.pre_maneuver && (c.abilities || []).some((a) => a.name === "Direwolf"));
    const choose = (what) => {
      sub = what; targets = null;
      if (what === "maneuver" || what === "march") newGhost(name, what, null, what === "march" ? 2 * speedOf(name) : speedOf(name));
      else ghost = null;
      if (what === "charge" || what === "attack") loadTargets(what);
      if (what === "terrain") loadTerrainChecks(name);
      selected = name;
      render();
    };
    const btn = (what, label, disabled, why) => h("button", { type: "button", class: "choice" + (sub === what ? " on" : ""), disabled: !!disabled, title: why || null, "data-sub": what, onclick: () => choose(what) }, label);
    const parts = [h("p", {}, engaged.length ? fmt(gettext("%(unit)s is activating, engaged with %(units)s."), { unit: unitName(name), units: engaged.map(unitName).join(", ") })
      : fmt(gettext("%(unit)s is activating."), { unit: unitName(name) }))];
    if (pre) parts.push(h("p", { class: "small" }, gettext("Cavalry: it may first make a free Maneuver; its action comes after.")));
    const must = (decision() || {}).must_charge;
    if (must) parts.push(h("p", { class: "small" }, fmt(gettext("Uncontrolled Rage: the Morale Test failed, so its action is a Charge against %(units)s, every charge die counting as a 6."), { units: must.map(unitName).join(" / ") })));
    const hasRanged = (c.attacks || []).some((a) => a.range !== "melee");
    parts.push(h("div", { class: "choices-inline mn-actions" },
      btn("maneuver", gettext("Maneuver"), engaged.length, engaged.length ? gettext("Engaged units cannot maneuver") : null),
      btn("march", gettext("March"), engaged.length, engaged.length ? gettext("Engaged units cannot march") : null),
      btn("charge", gettext("Charge"), engaged.length, engaged.length ? gettext("Engaged units cannot charge") : null),
      btn("attack", engaged.length ? gettext("Melee attack") : gettext("Ranged attack"), !engaged.length && !hasRanged, !engaged.length && !hasRanged ? gettext("No enemy in contact and no ranged attack") : null),
      canAttackTerrain(name, engaged) ? btn("terrain", gettext("Attack terrain")) : null,
      engaged.length ? button({ retreat: true }, gettext("Retreat (roll the die)")) : null,
      button({ no_action: true }, gettext("No action"), "pass")));
    if ((sub === "maneuver" || sub === "march") && ghost) parts.push(ghostPanel(sub === "march" ? gettext("Confirm the March") : gettext("Confirm the Maneuver")));
    else if (sub === "maneuver" || sub === "march") parts.push(h("p", { class: "small" }, gettext("Drag the unit's tray on the battlefield.")));
    if (sub === "charge") parts.push(chargePanel(name));
    if (sub === "attack") parts.push(attackPanel(name, engaged));
    if (sub === "terrain") parts.push(terrainPanel(name));
    return h("div", {}, parts);
  }
  function targetState(e, att) {
    if (!targets) return { ok: null };
    return targets.results[e + "|" + (att || "")] || { ok: undefined };
  }
  function chargePanel(name) {
    const enemies = enemyUnits();
    const chosen = subArg && subArg.target;
    const rows = enemies.map((e) => {
      const r = targetState(e, null);
      const note = r.ok === undefined ? " " + gettext("(checking…)") : r.ok === false ? `: ${namesIn(r.reason)}` : "";
      return h("li", {}, h("button", { type: "button", class: "choice" + (chosen === e ? " on" : ""), disabled: r.ok === false, "data-target": e,
        onclick: () => { subArg = { target: e, align: "center", face: false }; renderDecision(); } }, fmt(gettext("Charge %(unit)s"), { unit: unitName(e) })), h("span", { class: "small" }, note));
    });
    const form = chosen ? h("div", { class: "mn-charge-form" },
      h("label", {}, gettext("Contact") + " ", h("select", { id: "charge-align", onchange: (ev) => { subArg.align = ev.target.value; } },
        [["center", gettext("centred on its edge (100 %)")], ["left", gettext("to its left (50 %)")], ["right", gettext("to its right (50 %)")]].map(([v, l]) => h("option", { value: v, selected: subArg.align === v }, l)))),
      h("label", {}, h("input", { type: "checkbox", id: "charge-face", checked: subArg.face, onchange: (ev) => { subArg.face = ev.target.checked; } }), " " + gettext("first pivot to face it")),
      h("p", {}, h("button", { type: "button", id: "confirm", class: "confirm", onclick: () => {
        const v = { target: chosen };
        if (subArg.align && subArg.align !== "center") v.align = subArg.align;
        if (subArg.face) { const u = units()[name], t = units()[chosen]; v.face = round2(bearing(centre(u.at, u.facing, size(name)[1]), centre(t.at, t.facing, size(chosen)[1]))); }
        send({ charge: v });
      } }, fmt(gettext("Charge %(unit)s: roll the die"), { unit: unitName(chosen) })))) : null;
    return h("div", {}, h("p", { class: "small" }, fmt(gettext("Reach: Speed %(speed)s + 6 in, with line of sight. Lines on the battlefield: green can be charged, red cannot (hover for why)."), { speed: speedOf(name) })),
      enemies.length ? h("ul", { class: "mn-targets" }, rows) : h("p", {}, gettext("No enemy on the table.")), form);
  }
  /* An attack in full, as the engine takes it (flow.declare_attack): the target and the attack, then
     for a melee attack a re-face (M58) and an alignment (M59), for a ranged one a shift of up to 2 in
     before it (M52). `subArg`: {unit, target, attack, melee, face, align, shiftDir, shiftDist}. */
  function attackValue(a) {
    const v = { target: a.target, attack: a.attack };
    if (a.melee) { if (a.face) v.face = true; if (a.align) v.align = a.align; }
    else if (a.shiftDir && a.shiftDist > 0) v.shift = { direction: a.shiftDir, distance: a.shiftDist };
    return v;
  }
  /* The pose a ranged attack's shift would give (drawn on the battlefield; the server decides). */
  function shiftedPose(a) {
    const u = units()[a.unit];
    if (!u || a.melee || !a.shiftDir || !(a.shiftDist > 0)) return null;
    const [ux, uy] = AXES[a.shiftDir](u.facing);
    return { at: [u.at[0] + ux * a.shiftDist, u.at[1] + uy * a.shiftDist], facing: u.facing };
  }
  /* The whole attack as composed, asked of the server's check (nothing applied): the answer to the last question only. */
  let attackCheck = { key: null, result: null };
  async function checkAttack(action) {
    const key = `${version}|${JSON.stringify(action)}`;
    if (attackCheck.key === key) { renderAttackStatus(); return; }
    attackCheck = { key, result: null };
    renderAttackStatus();
    const res = await checkAction(action);
    if (attackCheck.key !== key) return;
    attackCheck.result = res.missing ? { ok: null } : res;
    renderAttackStatus();
  }
  function renderAttackStatus() {
    const box = $("attack-status");
    if (!box) return;
    const res = attackCheck.result;
    box.className = "mn-ghost-status" + (res && res.ok ? " ok" : res && res.ok === false ? " bad" : "");
    box.textContent = !res ? gettext("Checking the attack…") : res.ok ? gettext("The attack can be made.") : res.ok === null ? gettext("The attack is checked when you confirm it.")
      : fmt(gettext("Not allowed: %(reason)s"), { reason: namesIn(res.reason || gettext("refused")) });
    const confirm = $("confirm");
    if (confirm) confirm.disabled = !!res && res.ok === false && !res.failed;
  }
  /* The (enemy, attack) choices of `name`: each a button, with the server's check of it as it stands. */
  function attackRows(name, enemies, attacks, check) {
    const chosen = subArg && subArg.target;
    const rows = [];
    for (const e of enemies) for (const a of attacks) {
      const r = check(e, a.name);
      const melee = a.range === "melee";
      // a ranged attack refused from where the unit stands may be made after its shift: it stays open
      const note = r.ok === undefined ? " " + gettext("(checking…)") : r.ok === false ? (melee ? `: ${namesIn(r.reason)}` : ": " + fmt(gettext("as it stands, %(reason)s (a shift of up to 2 in may bring it in)"), { reason: namesIn(r.reason) })) : "";
      rows.push(h("li", {}, h("button", { type: "button", class: "choice" + (chosen === e && subArg.attack === a.name ? " on" : ""), disabled: r.ok === false && melee, "data-target": e, "data-attack": a.name,
        onclick: () => { subArg = { unit: name, target: e, attack: a.name, melee, align: "", face: false, shiftDir: "", shiftDist: 0 }; attackCheck = { key: null, result: null }; renderDecision(); drawOverlay(); } },
      fmt(gettext("%(attack)s against %(unit)s"), { attack: a.name, unit: unitName(e) })), h("span", { class: "small" }, note)));
    }
    return rows;
  }
  function attackForm(toAction) {
    const a = subArg;
    if (!a || !a.target) return null;
    const changed = () => { checkAttack(toAction(attackValue(a))); drawOverlay(); };
    const steps = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2];
    const form = h("div", { class: "mn-attack-form" },
      a.melee ? h("label", {}, h("input", { type: "checkbox", id: "attack-face", checked: a.face, onchange: (ev) => { a.face = ev.target.checked; changed(); } }), " " + gettext("re-face to front it (when it is in a flank or the rear)")) : null,
      a.melee ? h("label", {}, gettext("Align") + " ", h("select", { id: "attack-align", onchange: (ev) => { a.align = ev.target.value; changed(); } },
        [["", gettext("as it stands")], ["center", gettext("centred (100 %)")], ["left", gettext("to its left (50 %)")], ["right", gettext("to its right (50 %)")]].map(([v, l]) => h("option", { value: v, selected: a.align === v }, l)))) : null,
      a.melee ? null : h("label", {}, gettext("Before shooting, shift") + " ", h("select", { id: "attack-shift", onchange: (ev) => { a.shiftDir = ev.target.value; if (a.shiftDir && !(a.shiftDist > 0)) a.shiftDist = 1; renderDecision(); changed(); } },
        [["", gettext("not at all")], ["forward", gettext("forward")], ["back", gettext("back")], ["left", gettext("to its left")], ["right", gettext("to its right")]].map(([v, l]) => h("option", { value: v, selected: a.shiftDir === v }, l)))),
      !a.melee && a.shiftDir ? h("label", {}, gettext("by") + " ", h("select", { id: "attack-shift-distance", onchange: (ev) => { a.shiftDist = +ev.target.value; changed(); } },
        steps.map((d) => h("option", { value: d, selected: a.shiftDist === d }, inch(d))))) : null,
      !a.melee ? h("p", { class: "small" }, gettext("A ranged attack may first shift the unit up to 2 in, without turning it; the dashed tray on the battlefield shows where.")) : null,
      h("p", { id: "attack-status", class: "mn-ghost-status", role: "status", "aria-live": "polite" }, ""),
      h("p", {}, h("button", { type: "button", id: "confirm", class: "confirm", onclick: () => send(toAction(attackValue(a))) }, fmt(gettext("Attack %(unit)s: roll the dice"), { unit: unitName(a.target) }))));
    setTimeout(() => checkAttack(toAction(attackValue(a))), 0);   // once the form is on the page: its status line shows the check's answer
    return form;
  }
  function attackPanel(name, engaged) {
    const c = unitCard(name);
    const attacks = (c.attacks || []).filter((a) => (a.range === "melee") === (engaged.length > 0));
    const enemies = engaged.length ? engaged : enemyUnits();
    const rows = attackRows(name, enemies, attacks, targetState);
    return h("div", {}, rows.length ? h("ul", { class: "mn-targets" }, rows) : h("p", {}, gettext("No target.")), attackForm((v) => ({ attack: v })));
  }
  /* M78 Destructible (revision 2): a unit not engaged, with a melee attack, attacks a piece within 1 in
     away, which leaves the game. Each piece by its name, how far and which way it lies on the screen. */
  function terrainName(p) { return ((C.terrain || {})[p.type] || { name: cap(p.type) }).name; }
  function terrainPoly(p) {
    if (p.circle) { const [cx, cy] = p.circle.center, r = p.circle.radius; return [...Array(32).keys()].map((i) => [cx + r * Math.cos(i * Math.PI / 16), cy + r * Math.sin(i * Math.PI / 16)]); }
    if (p.rect) {
      const [cx, cy] = p.rect.center, [sx, sy] = p.rect.size, t = rad(p.rect.rotation || 0);
      return [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([i, j]) => { const x = i * sx / 2, y = j * sy / 2; return [cx + x * Math.cos(t) + y * Math.sin(t), cy - x * Math.sin(t) + y * Math.cos(t)]; });
    }
    return p.polygon || [];
  }
  const polyCentre = (poly) => [poly.reduce((a, q) => a + q[0], 0) / poly.length, poly.reduce((a, q) => a + q[1], 0) / poly.length];
  function nearDestructible(name) {
    const tray = trayOf(name);
    return (V.terrain || []).filter((p) => (p.keywords || []).includes("destructible"))
      .map((p) => ({ piece: p, away: polyDist(tray, terrainPoly(p)) })).filter((x) => x.away <= 1.05).sort((x, y) => x.away - y.away);
  }
  const canAttackTerrain = (name, engaged) => !engaged.length && (unitCard(name).attacks || []).some((a) => a.range === "melee") && nearDestructible(name).length > 0;
  let terrainChecks = null;   // {key, results: {id: {ok, reason}}}
  async function loadTerrainChecks(name) {
    const key = `${version}|${name}`;
    if (terrainChecks && terrainChecks.key === key) return;
    terrainChecks = { key, results: {} };
    await Promise.all(nearDestructible(name).map(async ({ piece }) => {
      const res = await checkAction({ attack: { terrain: piece.id } });
      if (terrainChecks && terrainChecks.key === key) terrainChecks.results[piece.id] = res.missing ? { ok: null } : res;
    }));
    if (terrainChecks && terrainChecks.key === key && sub === "terrain") renderDecision();
  }
  function terrainPanel(name) {
    return terrainList(name, nearDestructible(name), (id) => (terrainChecks && terrainChecks.results[id]) || { ok: undefined }, (id) => ({ attack: { terrain: id } }),
      gettext("A Destructible piece within 1 in can be attacked instead of an enemy: it is removed from the game, and the activation ends."));
  }
  /* The pieces `near` ({piece, away}) a unit may attack away, each by its name, distance and side; `check`
     answers an id's server check, `toAction` the action that destroys it. */
  function terrainList(name, near, check, toAction, note) {
    const u = units()[name];
    const from = centre(u.at, u.facing, size(name)[1]);
    const rows = near.map(({ piece, away }) => {
      const r = check(piece.id);
      const where = fmt(gettext("%(terrain)s, %(distance)s away, %(direction)s"), { terrain: terrainName(piece), distance: inch(round2(Math.max(0, away)).toFixed(1)), direction: compass(bearing(from, polyCentre(terrainPoly(piece)))) });
      const why = r.ok === undefined ? " " + gettext("(checking…)") : r.ok === false ? `: ${namesIn(r.reason)}` : "";
      return h("li", {}, h("button", { type: "button", class: "choice" + (subArg && subArg.terrain === piece.id ? " on" : ""), disabled: r.ok === false, "data-terrain-id": piece.id,
        onclick: () => { subArg = { unit: name, terrain: piece.id }; renderDecision(); drawOverlay(); } }, fmt(gettext("Destroy the %(where)s"), { where })), h("span", { class: "small" }, why));
    });
    const chosen = subArg && subArg.terrain && near.find((x) => x.piece.id === subArg.terrain);
    return h("div", {}, h("p", { class: "small" }, note),
      rows.length ? h("ul", { class: "mn-targets" }, rows) : h("p", {}, gettext("No Destructible terrain within 1 in.")),
      chosen ? h("p", {}, h("button", { type: "button", id: "confirm", class: "confirm", onclick: () => send(toAction(chosen.piece.id)) }, fmt(gettext("Destroy the %(terrain)s"), { terrain: terrainName(chosen.piece) }))) : null);
  }
  function rerollBody(d) {
    if (d.dice === "retreat") {
      return h("div", {}, h("p", {}, fmt(gettext("%(unit)s's retreat die shows %(roll)s. Re-roll it?"), { unit: unitName(d.unit), roll: d.roll })),
        h("div", { class: "choices-inline" }, button({ reroll: [0] }, gettext("Re-roll the retreat die")), button({ reroll: [] }, gettext("Keep it"), "pass")));
    }
    if (d.dice === "charge") {
      const c = V.last_charge || {};
      return h("div", {}, h("p", {}, fmt(gettext("%(unit)s's charge die shows %(roll)s. Re-roll it?"), { unit: unitName(d.unit), roll: (V.charging || {}).roll ?? c.roll ?? "?" })),
        h("div", { class: "choices-inline" }, button({ reroll: [0] }, gettext("Re-roll the charge die")), button({ reroll: [] }, gettext("Keep it"), "pass")));
    }
    const la = V.last_attack || {};
    const pos = [...picks].sort((a, b) => a - b);
    return h("div", {}, h("p", {}, fmt(gettext("You may re-roll attack dice of %(unit)s: click the dice to re-roll in the Dice panel, or here."), { unit: unitName(la.attacker) })),
      diceRow(la.attack_dice || [], { need: la.to_hit, picked: picks, onpick: (i) => { if (picks.has(i)) picks.delete(i); else picks.add(i); renderDice(); renderDecision(); } }),
      h("div", { class: "choices-inline" },
        h("button", { type: "button", id: "confirm", class: "confirm", disabled: !pos.length, onclick: () => send({ reroll: pos }) }, pos.length ? fmt(ngettext("Re-roll %(n)s die", "Re-roll %(n)s dice", pos.length), { n: pos.length }) : gettext("Pick dice to re-roll")),
        h("button", { type: "button", class: "secondary", onclick: () => { const miss = (la.attack_dice || []).map((v, i) => (v < la.to_hit || v === 1) && v !== 6 ? i : -1).filter((i) => i >= 0); picks = new Set(miss); renderDice(); renderDecision(); } }, gettext("Pick the misses")),
        button({ reroll: [] }, gettext("Keep the dice"), "pass")));
  }
  function spendBody(d) {
    const pos = [...picks].sort((a, b) => a - b);
    let dice = [];
    if (d.dice === "attack") dice = (V.last_attack || {}).attack_dice || [];
    else if (d.dice === "defense") dice = d.faces || (V.last_attack || {}).defense_dice || [];
    else { const t = (V.work || [])[0] || {}; dice = (t.dice || []).concat(t.d3 ? [t.d3] : []); }
    const what = { attack: gettext("attack dice"), defense: gettext("Defense dice"), morale: gettext("test dice") }[d.dice] || gettext("dice");
    return h("div", {}, h("p", {}, fmt(gettext("%(unit)s holds %(condition)s: you may spend it to make it re-roll %(what)s of your choice."), { unit: unitName(d.unit), condition: condName(d.token), what })),
      diceRow(dice, { picked: picks, onpick: (i) => { if (picks.has(i)) picks.delete(i); else picks.add(i); renderDice(); renderDecision(); } }),
      h("div", { class: "choices-inline" },
        h("button", { type: "button", id: "confirm", class: "confirm", disabled: !pos.length, onclick: () => send({ spend: { token: d.token, dice: pos } }) }, pos.length ? fmt(gettext("Spend %(condition)s: re-roll %(n)s"), { condition: condName(d.token), n: pos.length }) : gettext("Pick dice")),
        button({ spend: null }, gettext("Do not spend it"), "pass")));
  }
  function pivotBody(d) {
    const list = d.units || [];
    if (ghost && ghost.mode === "pivot") pivots[ghost.unit] = round2(norm(ghost.f));
    return h("div", {}, h("p", {}, gettext("These units are no longer engaged: each may pivot for free. Drag a tray's round handle (or pick it below), then confirm.")),
      h("div", { class: "choices-inline" }, list.map((n) => h("button", { type: "button", class: "choice" + (ghost && ghost.unit === n ? " on" : ""), onclick: () => { newGhost(n, "pivot", null, 0); selected = n; render(); } }, fmt(gettext("Turn %(unit)s"), { unit: unitName(n) }) + (pivots[n] !== undefined ? ` (${Math.round(pivots[n])}°)` : "")))),
      ghost && ghost.mode === "pivot" ? ghostPanel(gettext("Confirm the pivots")) : Object.keys(pivots).length ? h("p", {}, button({ pivot: pivots }, gettext("Confirm the pivots"), "confirm")) : null,
      h("p", {}, button({ pivot: {} }, gettext("No pivot"), "pass")));
  }
  function discardBody(d) {
    const hand = ((V.players || {})[SEAT] || {}).hand || [];
    const chosen = [...picks].sort((a, b) => a - b).map((i) => hand[i]);
    const need = d.count;
    return h("div", {}, h("p", {}, need ? fmt(ngettext("Your hand is over the limit: discard exactly %(n)s card (tick them in your hand below).", "Your hand is over the limit: discard exactly %(n)s cards (tick them in your hand below).", need), { n: need }) : gettext("Cleanup: you may discard any Tactics cards before drawing back up (tick them in your hand below).")),
      h("p", {}, h("button", { type: "button", id: "confirm", class: "confirm", disabled: need ? chosen.length !== need : false, onclick: () => send({ discard: chosen }) },
        chosen.length ? fmt(gettext("Discard %(cards)s"), { cards: chosen.map((c) => card(c).name).join(", ") }) : need ? fmt(ngettext("Tick %(n)s card", "Tick %(n)s cards", need), { n: need }) : gettext("Keep every card"))));
  }
  function reactBody(legal, d) {
    const plays = legal.filter((a) => !a.pass && !a.auto_pass);
    const ctx = d.ctx || {};
    const about = [ctx.unit ? unitName(ctx.unit) : null, ctx.target ? fmt(gettext("against %(unit)s"), { unit: unitName(ctx.target) }) : null, ctx.card ? `(${card(ctx.card).name})` : null, ctx.zone ? `(${zoneName(ctx.zone)})` : null].filter(Boolean).join(" ");
    return h("div", {}, h("p", {}, fmt(gettext("The moment: %(moment)s."), { moment: (WINDOW_WORDS[d.window] || gettext("a trigger")) + (about ? ` — ${about}` : "") }) + " ", plays.length ? gettext("You may answer with:") : gettext("Nothing of yours answers it now.")),
      plays.length ? h("div", { class: "choices" }, plays.map((a) => button(a))) : null,
      h("div", { class: "choices-inline" }, legal.filter((a) => a.pass || a.auto_pass).map((a) => button(a, null, "pass"))));
  }
  /* The Combat zone's free Attack action in full (M35, revision 2; flow.answer_zone): a friendly unit,
     its target and attack, then the attack's options (attackForm). The units offered: those the server
     lists (engaged, or with a target in range as they stand, or, revision 5, a Destructible piece within
     1 in: M78) and, not engaged, those with a ranged attack and an enemy within its range and the 2 in
     shift (flow.shift_may_reach). The pieces are the server's list, shown as the activation's Attack
     shows them (terrainList). */
  function swordsBody(legal, d) {
    const listed = legal.filter((a) => a.choose).map((a) => a.choose);
    const ranged = (n) => (unitCard(n).attacks || []).filter((a) => a.range !== "melee");
    const reachOf = (a) => (a.range === "short" ? 6 : 12) + 2;
    const inReach = (n, a) => enemyUnits().some((e) => { const at = units()[n].at; return trayOf(e).some((q, i, t) => segDist(at, q, t[(i + 1) % t.length]) <= reachOf(a)) || inPoly(at, trayOf(e)); });
    const engagedWith = (n) => ((S.units || {})[n] || {}).engaged || [];
    const mine = liveUnits().filter((n) => friendlySeat(units()[n].seat));
    const candidates = mine.filter((n) => listed.some((c) => c.unit === n) || (!engagedWith(n).length && ranged(n).some((a) => inReach(n, a))));
    const unit = subArg && subArg.unit && candidates.includes(subArg.unit) ? subArg.unit : candidates.length === 1 ? candidates[0] : null;
    const parts = [h("p", {}, `${zoneName(d.zone)}: ${(C.zones[d.zone] || {}).text || ""}`),
      h("p", { class: "small" }, gettext("Choose the unit that attacks, then its target and attack: a melee attack may first re-face and align, a ranged one may first shift up to 2 in."))];
    parts.push(h("div", { class: "choices-inline" }, candidates.map((n) => h("button", { type: "button", class: "choice" + (unit === n ? " on" : ""), "data-unit": n,
      onclick: () => { subArg = { unit: n }; attackCheck = { key: null, result: null }; selected = n; render(); } }, fmt(gettext("Attack with %(unit)s"), { unit: unitName(n) })))));
    if (unit) {
      const engaged = engagedWith(unit);
      const attacks = (unitCard(unit).attacks || []).filter((a) => (a.range === "melee") === (engaged.length > 0));
      const enemies = engaged.length ? engaged : enemyUnits().filter((e) => ranged(unit).some((a) => inReach(unit, a)));
      if (!subArg || subArg.unit !== unit) subArg = { unit };
      loadZoneTargets(unit, enemies, attacks);
      const check = (e, att) => (zoneTargets && zoneTargets.results[`${e}|${att}`]) || { ok: undefined };
      const rows = attackRows(unit, enemies, attacks, check);
      const pieces = listed.filter((c) => c.unit === unit && c.terrain).map((c) => c.terrain);
      if (rows.length || !pieces.length) parts.push(rows.length ? h("ul", { class: "mn-targets" }, rows) : h("p", {}, gettext("No target.")));
      parts.push(attackForm((v) => ({ choose: Object.assign({ unit }, v) })));
      if (pieces.length) {
        parts.push(terrainList(unit, nearDestructible(unit).filter((x) => pieces.includes(x.piece.id)), () => ({ ok: true }), (id) => ({ choose: { unit, terrain: id } }),
          rows.length ? gettext("Or attack a Destructible piece within 1 in instead: it is removed from the game.") : gettext("A Destructible piece within 1 in can be attacked: it is removed from the game.")));
      }
    }
    if (listed.length) parts.push(h("p", { class: "small" }, gettext("Or attack at once, as the units stand:")), h("div", { class: "choices" }, legal.filter((a) => a.choose).map((a) => button(a))));
    const decline = legal.find((a) => a.choose === null);
    if (decline) parts.push(h("p", {}, button(decline, gettext("No free attack"), "pass")));
    return h("div", {}, parts);
  }
  let zoneTargets = null;   // {key, results: {"enemy|attack": {ok, reason}}}: the zone attack's choices as they stand
  async function loadZoneTargets(unit, enemies, attacks) {
    const key = `${version}|${unit}`;
    if (zoneTargets && zoneTargets.key === key) return;
    zoneTargets = { key, results: {} };
    await Promise.all(enemies.flatMap((e) => attacks.map(async (a) => {
      const res = await checkAction({ choose: { unit, target: e, attack: a.name } });
      if (zoneTargets && zoneTargets.key === key) zoneTargets.results[`${e}|${a.name}`] = res.missing ? { ok: null } : res;
    })));
    if (zoneTargets && zoneTargets.key === key && myKind() === "choose") renderDecision();
  }
  function chooseBody(legal, d) {
    if (d.zone === "swords" && !d.what) return swordsBody(legal, d);
    const parts = [];
    if (d.zone) parts.push(h("p", {}, `${zoneName(d.zone)}: ${(C.zones[d.zone] || {}).text || ""}`));
    if (d.what === "influence") parts.push(h("p", {}, fmt(gettext("%(ncu)s attaches to a combat unit until the end of the round."), { ncu: card(d.ncu).name })));
    if (d.what === "go_down_fighting") parts.push(h("p", {}, fmt(gettext("%(unit)s has lost a rank: choose the engaged enemy that loses 1 wound."), { unit: unitName(d.unit) })));
    if (d.what === "ncu_ability") {
      const a = ncuAbility(d), n = (S.ncus || {})[d.ncu] || {};
      parts.push(h("p", {}, a.text));
      if (n.order_tokens !== undefined) parts.push(h("p", {}, fmt(gettext("Order tokens left on the card: %(count)s."), { count: n.order_tokens })));
      if (d.moment === "claim" && (legal || []).some((x) => x.choose && x.choose.card)) parts.push(h("p", {}, gettext("A card taken back replaces the zone's effect.")));
    }
    const opts = legal.filter((a) => a.choose !== null);
    parts.push(h("div", { class: "choices" }, opts.map((a) => button(a))));
    if (d.zone === "horse") {
      const mine = liveUnits(SEAT).filter((n) => !(((S.units || {})[n] || {}).engaged || []).length);
      parts.push(h("p", { class: "small" }, gettext("Or a free Maneuver:")), h("div", { class: "choices-inline" }, mine.map((n) => h("button", { type: "button", class: "choice" + (ghost && ghost.unit === n ? " on" : ""), onclick: () => { sub = "horse"; newGhost(n, "horse", null, speedOf(n)); selected = n; render(); } }, fmt(gettext("Maneuver %(unit)s"), { unit: unitName(n) })))));
      if (ghost && ghost.mode === "horse") parts.push(ghostPanel(gettext("Confirm the Maneuver")));
    }
    const decline = legal.find((a) => a.choose === null);
    if (decline) parts.push(h("p", {}, button(decline, gettext("Decline"), "pass")));
    return h("div", {}, parts);
  }

  // ------------------------------------------------------------------ log

  const readLog = window.WesterosClient.logReader(q);   // new entries only, a page at a time (gameclient.js)
  async function loadLog() {
    const entries = await readLog();
    if (!entries) return;
    useGame();
    const SOURCE = { bot: " " + gettext("(played by the computer)"), timeout: " " + gettext("(time ran out: the default was played)") };
    const items = [];
    for (const e of entries) {
      const lines = e.lines && e.lines.length ? e.lines.map((l) => seenFacing(l.text)) : (e.events || []).filter((ev) => !["attack_dice", "defense_dice", "activation_end"].includes(ev.type)).map(describeEvent);
      lines.forEach((t, i) => items.push(h("li", { class: "log-line", "data-version": e.version }, t, i === lines.length - 1 && SOURCE[e.source] ? h("span", { class: "log-note" }, SOURCE[e.source]) : null)));
    }
    $("log").replaceChildren(...items.reverse().slice(0, 300));
  }

  // ------------------------------------------------------------------ chat and live updates

  const chat = window.WesterosChat.setup({ q, seat: SEAT, seatName: (x) => seatLabel(x), showError });
  applyView();
  load().then(() => {
    window.WesterosClient.connectLive({
      path: root.dataset.ws, invite: INVITE, status: $("conn"), version: () => version, load, onOpen: load,
      onChat: chat.addMessage,
      onPresence: (connected) => {
        if (!game) return;
        for (const x of game.seats) x.connected = !!x.user && connected.includes(x.user);
        renderScore();
      },
    });
    chat.load();
  });
  /* For tests and tools: a table point (inches) in the window's pixels. */
  function toClient(x, y) { const [sx, sy] = P(x, y); const m = svg.getScreenCTM(); return [m.a * sx + m.c * sy + m.e, m.b * sx + m.d * sy + m.f]; }
  window.__westerosGame = { load, send, state: () => game, ghost: () => ghost, ghostAction: () => ghostAction(), check: () => check, toClient };
})();
