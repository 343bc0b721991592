/* After each phase, what happened in it (issue 15): a dismissable panel above the board, "What
   happened in the Action phase of round 2", with the phase's headline sentences (Westeros cards
   drawn, tracks, battles and their winners, musters, the wildlings, supply), at most eight, and how
   many more the log holds; and the areas that changed highlighted on the board.

   Fed by game.js: `westeros:log` ({entries} of GET /log, whose lines the server marks `headline`,
   `key` and `areas`, filtered for this seat) and `westeros:state` ({previous, current} game after
   each render). The lines of one round and phase form a group; every group before the current one
   has ended. The panel shows the ended phases this reader has not dismissed yet (on a first visit,
   only the latest); dismissing is remembered per game and seat in localStorage. While it is open,
   the areas its phases changed carry the class `phase-changed` on their path in the board's SVG;
   an area whose units, orders, power token, garrison or control change while the page is open gets
   `recently-changed` for a while. board.js redraws the SVG on every render: a MutationObserver puts
   the classes (and an outline drawn above the pieces) back.

   On a phone (600 px wide or less) the panel starts compact: the newest phase's first three lines and
   a "Show all" button, so the board stays on the first screen. Lines that only mark time ("Round 2
   begins.", "The Action phase begins: ...") stay in the log but not in the panel. "Show on the
   board" brings the changed areas into view (game.js's view.reveal). */
(function () {
  "use strict";
  const root = document.getElementById("game");
  const svg = document.getElementById("board");
  if (!root || !svg || !window.WesterosClient) return;
  const { h } = window.WesterosClient;
  const SEAT = root.dataset.seat || "";
  const STORE = `westeros:phase-summary:${root.dataset.game}:${SEAT || "spectator"}`;
  const MAX_LINES = 8, MAX_PHASES = 3, RECENT_MS = 20000, PHONE_LINES = 3;
  const PHONE = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
  // sentences that only say a round or phase begins: the panel's title says that already. The log
  // reads in the reader's language: the catalogue gives each pattern in it (the English ones stay).
  const FILLER = [/^Round \d+ begins\.$/, /^The (Planning|Action|Westeros) phase begins\b/,
    ...[gettext("^Round \\d+ begins\\.$"), gettext("^The (Planning|Action|Westeros) phase begins\\b")].map((re) => new RegExp(re))];
  const filler = (l) => FILLER.some((re) => re.test((l.text || "").trim()));
  // the title of each phase's summary, a whole sentence per phase
  const PHASE = {
    planning: (round) => interpolate(gettext("What happened in the Planning phase of round %(round)s"), { round }, true),
    action: (round) => interpolate(gettext("What happened in the Action phase of round %(round)s"), { round }, true),
    westeros: (round) => interpolate(gettext("What happened in the Westeros phase of round %(round)s"), { round }, true),
  };
  const NS = "http://www.w3.org/2000/svg";

  let since;                    // the id of the last phase not to show (undefined until the first log)
  let shown = [];               // the groups in the panel, newest first
  const recent = new Map();     // area -> when its "recently changed" highlight ends
  let focused = null;           // the areas of the summary line under the pointer or focus
  let expanded = false;         // on a phone: the reader asked for every line

  function remembered() { try { return localStorage.getItem(STORE); } catch (e) { return null; } }
  function remember(id) { try { localStorage.setItem(STORE, id); } catch (e) { /* private mode */ } }

  /* The log's lines grouped by round and phase, in order; ids are "round:phase". */
  function groups(entries) {
    const out = [];
    for (const e of entries) {
      for (const line of e.lines || []) {
        const id = `${line.round ?? ""}:${line.phase ?? ""}`;
        if (!out.length || out[out.length - 1].id !== id) out.push({ id, round: line.round, phase: line.phase, lines: [] });
        out[out.length - 1].lines.push(line);
      }
    }
    return out;
  }

  // sentences that state a standing anew each time it changes ("Castles and strongholds held: ..."):
  // within a phase only the last one says where it stands
  const STANDING = [/^Castles and strongholds held: /, new RegExp(gettext("^Castles and strongholds held: "))];
  const standing = (l) => STANDING.find((re) => re.test((l.text || "").trim()));
  function latestStandings(lines) {
    return lines.filter((l, i) => {
      const re = standing(l);
      return !re || !lines.slice(i + 1).some((later) => re.test((later.text || "").trim()));
    });
  }

  /* At most MAX_LINES sentences: the headlines in the order they happened, then other key lines. */
  function pick(lines) {
    const open = latestStandings(lines.filter((l) => !l.private && !filler(l)));
    const heads = open.filter((l) => l.headline).slice(0, MAX_LINES);
    return heads.concat(open.filter((l) => l.key && !l.headline).slice(0, MAX_LINES - heads.length));
  }

  function title(g) { return PHASE[g.phase](g.round); }

  function sentence(line) {
    return (line.parts || [{ text: line.text }]).map((p) => (p.house ? h("span", { class: "house-name house-" + p.house }, p.text) : p.text));
  }

  function phaseBody(g, compact) {
    const lines = pick(g.lines);
    const more = latestStandings(g.lines.filter((l) => !filler(l))).length - lines.length;
    return [
      h("ul", { class: "ps-lines" }, lines.map((l, i) => {
        const areas = l.areas || [];
        const on = () => { focused = areas.length ? new Set(areas) : null; decorate(); };
        const off = () => { focused = null; decorate(); };
        return h("li", { "data-areas": areas.join(" ") || null, tabindex: areas.length ? "0" : null,
          class: compact && i >= PHONE_LINES ? "ps-extra" : null,
          onmouseenter: on, onmouseleave: off, onfocus: on, onblur: off }, sentence(l));
      })),
      more > 0 ? h("p", { class: "ps-more" }, h("a", { href: "#log" },
        interpolate(ngettext("and %(count)s more in the log.", "and %(count)s more in the log.", more), { count: more }, true))) : null,
    ];
  }

  function panel() {
    let box = document.getElementById("phase-summary");
    if (!box) {
      box = h("section", { id: "phase-summary", class: "phase-summary", "aria-label": gettext("What happened"), hidden: true });
      const wrap = svg.closest(".board-wrap");
      wrap.insertBefore(box, wrap.firstChild);
    }
    return box;
  }

  function render() {
    const box = panel();
    if (!shown.length) { box.hidden = true; box.replaceChildren(); decorate(); return; }
    const [newest, ...older] = shown;
    const changed = areasOf(shown).length;
    const phone = !!(PHONE && PHONE.matches);
    const hiddenLines = phone ? Math.max(0, pick(newest.lines).length - PHONE_LINES) : 0;
    const compact = phone && !expanded && hiddenLines > 0;
    box.hidden = false;
    box.classList.toggle("ps-compact", compact);
    const toggle = phone && (hiddenLines > 0 || expanded)
      ? h("button", { type: "button", class: "link ps-toggle", "aria-expanded": expanded ? "true" : "false",
        onclick: () => { expanded = !expanded; render(); } },
        expanded ? gettext("Show less") : interpolate(ngettext("Show all (%(count)s more line)", "Show all (%(count)s more lines)", hiddenLines),
          { count: hiddenLines }, true))
      : null;
    box.replaceChildren(...[   // replaceChildren would write a null as the text "null"
      h("div", { class: "ps-head" },
        h("h2", { role: "status" }, title(newest)),
        h("button", { type: "button", class: "ps-close", onclick: dismiss, "aria-label": gettext("Dismiss the summary") }, gettext("Dismiss"))),
      ...phaseBody(newest, compact),
      toggle,
      ...older.map((g) => h("details", { class: "ps-older" }, h("summary", {}, title(g)), ...phaseBody(g))),
      changed ? h("p", { class: "ps-note" }, h("span", { class: "ps-swatch", "aria-hidden": "true" }),
        " " + interpolate(ngettext("The area that changed is outlined in yellow on the board.",
          "The %(count)s areas that changed are outlined in yellow on the board.", changed), { count: changed }, true) + " ",
        h("button", { type: "button", class: "link ps-show", onclick: showOnBoard }, gettext("Show on the board"))) : null,
    ].filter(Boolean));
    decorate();
  }

  /* Brings the areas the shown phases changed into view (the board's view.reveal, as a battle is). */
  function showOnBoard() {
    const B = window.Westeros && window.Westeros.board();
    const game = window.__westerosGame;
    const view = game && game.view && game.view();
    if (!B || !view) return;
    const points = areasOf(shown).filter((a) => B.areas[a]).map((a) => B.areas[a].center);
    view.reveal(points);
    const wrap = svg.getBoundingClientRect();
    if (wrap.top < 0 || wrap.bottom > window.innerHeight) svg.scrollIntoView({ block: "start", behavior: "auto" });
    decorate();
  }

  function dismiss() {
    if (shown.length) { since = shown[0].id; remember(since); }
    shown = []; focused = null;
    render();
  }

  function areasOf(gs) {
    const out = [];
    for (const g of gs) for (const l of g.lines) for (const a of l.areas || []) if (!out.includes(a)) out.push(a);
    return out;
  }

  function onLog(entries) {
    const all = groups(entries).filter((g) => g.phase);
    const ended = all.slice(0, -1).filter((g) => PHASE[g.phase] && g.round);
    if (since === undefined) {
      const kept = remembered();
      // a first visit: only the phase that ended last; afterwards every phase that ends
      since = kept && ended.some((g) => g.id === kept) ? kept : (ended.length > 1 ? ended[ended.length - 2].id : null);
    }
    const from = since === null ? 0 : ended.findIndex((g) => g.id === since) + 1;
    shown = ended.slice(from).slice(-MAX_PHASES).reverse();
    render();
  }

  /* ------------------------------------------------------------------ the board */

  function controller(view, area, B) {
    const by = (view.units || {})[area] || {};
    const house = Object.keys(by).find((k) => by[k].length);
    if (house) return house;
    if ((view.power_tokens || {})[area]) return view.power_tokens[area];
    const a = B.areas[area];
    const home = view.homes ? view.homes[area] : a && a.home_of;  // random start positions (issue 34)
    return home && (view.seats || []).includes(home) ? home : null;
  }

  /* What a reader sees of each area: units, power token, garrison, controller. Orders are left out:
     placing and revealing them touches every area at once, which would outline the whole board;
     an order removed by a raid or a battle is in the phase's lines (and their areas) instead. */
  function looks(view) {
    const W = window.Westeros, B = W.board();
    if (!B || !view) return {};
    const out = {};
    for (const a of Object.keys(B.areas)) {
      const units = Object.entries((view.units || {})[a] || {}).filter(([, us]) => us.length)
        .map(([k, us]) => k + ":" + [...us].sort().join(",")).sort().join(";");
      out[a] = [units, (view.power_tokens || {})[a] || "",
        (view.garrisons || {})[a] ?? "", controller(view, a, B) || ""].join("|");
    }
    return out;
  }

  function onState(previous, current) {
    if (!previous || !current || !previous.view || !current.view) return;
    const before = looks(previous.view), after = looks(current.view), until = Date.now() + RECENT_MS;
    for (const a of Object.keys(after)) if (before[a] !== after[a]) recent.set(a, until);
    decorate();
    if (recent.size) setTimeout(decorate, RECENT_MS + 50);
  }

  let observer = null;
  function decorate() {
    if (observer) observer.disconnect();
    const now = Date.now();
    for (const [a, t] of recent) if (t <= now) recent.delete(a);
    const phase = new Set(areasOf(shown));
    const B = window.Westeros && window.Westeros.board();
    svg.querySelectorAll("path.area[data-area]").forEach((p) => {
      const a = p.getAttribute("data-area");
      p.classList.toggle("phase-changed", phase.has(a));
      p.classList.toggle("recently-changed", recent.has(a));
      p.classList.toggle("summary-focus", !!(focused && focused.has(a)));
    });
    // an outline above the pieces: an area's own border is half hidden under its neighbours
    let layer = svg.querySelector("g.ps-outlines");
    if (layer) layer.remove();
    const marked = new Set([...phase, ...recent.keys()]);
    if (marked.size && B) {
      layer = document.createElementNS(NS, "g");
      layer.setAttribute("class", "ps-outlines");
      layer.setAttribute("aria-hidden", "true");
      for (const p of svg.querySelectorAll("path.area[data-area]")) {
        const a = p.getAttribute("data-area");
        if (!marked.has(a)) continue;
        for (const cls of ["ps-halo", "ps-ring"]) {
          const o = document.createElementNS(NS, "path");
          o.setAttribute("d", p.getAttribute("d"));
          o.setAttribute("fill-rule", "evenodd");
          o.setAttribute("class", cls + (phase.has(a) ? " phase" : " recent") + (focused && focused.has(a) ? " focus" : ""));
          o.setAttribute("data-outline", a);
          layer.append(o);
        }
      }
      svg.append(layer);
    }
    observe();
  }

  function observe() {
    if (!observer) observer = new MutationObserver(() => decorate());
    observer.observe(svg, { childList: true });
  }

  if (PHONE) {
    const again = () => render();
    if (PHONE.addEventListener) PHONE.addEventListener("change", again); else if (PHONE.addListener) PHONE.addListener(again);
  }
  document.addEventListener("westeros:log", (e) => onLog((e.detail && e.detail.entries) || []));
  document.addEventListener("westeros:state", (e) => onState(e.detail && e.detail.previous, e.detail && e.detail.current));
  observe();
  window.__westerosPhaseSummary = { shown: () => shown.map((g) => g.id), dismiss, showOnBoard };
})();
