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

  const ORDER_TOKENS = { "march-1": 1, "march+0": 1, "march+1*": 1, "defense+1": 2, "defense+2*": 1, "support+0": 2,
    "support+1*": 1, "raid": 2, "raid*": 1, "consolidate": 2, "consolidate*": 1 };
  const KINDS = ["march", "defense", "support", "raid", "consolidate"];
  const cap = W.cap, nameOf = W.nameOf;
  // the page's words (templates/base.html loads Django's catalogue first; English without it)
  const gettext = window.gettext || ((t) => t);
  const ngettext = window.ngettext || ((s, p, n) => (n === 1 ? s : p));
  const pgettext = window.pgettext || ((c, t) => t);
  const interpolate = window.interpolate || ((t, o) => t.replace(/%\((\w+)\)s/g, (m, k) => o[k]));
  const fmt = (text, values) => interpolate(text, values, true);
  const listOf = (items) => items.length < 2 ? items.join("")
    : fmt(gettext("%(items)s and %(last)s"), { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });

  const { h, post } = window.WesterosClient;
  function houseTag(house) { return W.houseBadge(house); }   // the crest and the name, as on the tracks
  function q(path) { return API + path + (INVITE ? (path.includes("?") ? "&" : "?") + "invite=" + encodeURIComponent(INVITE) : ""); }

  function showError(text) {
    const box = $("error");
    box.textContent = text || ""; box.hidden = !text;
  }

  const load = window.WesterosClient.coalesced(async () => {   // one fetch at a time (gameclient.js)
    const r = await fetch(q(""), { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) { showError(fmt(gettext("Could not load the game (%(status)s)."), { status: r.status })); return; }
    const data = await r.json();
    // another seat's move must not wipe what this player is composing: keep the draft while the
    // same decision is still pending for this seat
    const before = game && SEAT ? game.pending[SEAT] : null;
    const previous = game;
    game = data; version = data.version;
    const now = SEAT ? data.pending[SEAT] : null;
    if (!now || now !== before || (now === "march" && draft && draft.from && !(data.view.orders[draft.from]))) draft = null;
    render();
    document.dispatchEvent(new CustomEvent("westeros:state", { detail: { previous, current: game } }));  // phase_summary.js
    if (window.WesterosTurn) window.WesterosTurn.update(game);  // tab title, favicon, sound (turn.js)
    if (window.WesterosTable) window.WesterosTable.update(game, load);  // seat controls, end of the game (table_controls.js)
    loadLog();
  });

  /* The log in words (issue 15): the server narrates each event it lets this seat see
     (GET /log: entries with `lines`, each a sentence in pieces, with its round and phase). Shown
     grouped by round and phase, newest group first, each line a sentence with the house names in
     their colours; above it a short digest of what happened since this seat's last move. */
  const PHASE_TITLE = { draft: gettext("Draft before round 1"), planning: gettext("Planning phase"), action: gettext("Action phase"), westeros: gettext("Westeros phase"), over: gettext("End of the game") };
  const SOURCE_NOTE = { bot: gettext("played by the computer"), timeout: gettext("time ran out: the default was played") };
  const logOpen = new Set();   // groups the reader opened or closed by hand: kept across updates
  const logClosed = new Set();

  function logSentence(line) {
    return (line.parts || [{ text: line.text }]).map((p) => (p.house ? h("span", { class: "house-name house-" + p.house }, p.text) : p.text));
  }

  function logLines(entries) {
    const out = [];
    for (const e of entries) {
      const lines = e.lines || e.events.map((ev) => ({ text: W.describeEvent(ev), round: e.round, phase: e.phase }));
      lines.forEach((line, i) => out.push({ line, entry: e, first: i === 0 }));
    }
    return out;
  }

  function renderDigest(entries) {
    let box = $("log-digest");
    if (!box) {
      box = h("div", { id: "log-digest", class: "log-digest", role: "status" });
      $("log").before(box);
    }
    let last = -1;
    if (SEAT) entries.forEach((e, i) => { if (e.seat === SEAT && e.source === "player") last = i; });
    const since = SEAT && last >= 0 ? logLines(entries.slice(last + 1)) : [];
    if (!since.length) { box.hidden = true; box.replaceChildren(); return; }
    const key = since.filter((x) => x.line.key);
    const shown = (key.length ? key : since).slice(-6);
    const more = since.length - shown.length;
    box.hidden = false;
    box.replaceChildren(h("h3", {}, gettext("Since your last move")),
      h("ul", {}, shown.map((x) => h("li", { class: x.line.private ? "private" : "" }, logSentence(x.line)))),
      more > 0 ? h("p", { class: "log-more" }, fmt(ngettext("and %(count)s more event in the log below.", "and %(count)s more events in the log below.", more), { count: more })) : null);
  }

  const readLog = window.WesterosClient.logReader(q);   // new entries only, a page at a time (gameclient.js)
  async function loadLog() {
    const entries = await readLog();
    if (!entries) return;
    document.dispatchEvent(new CustomEvent("westeros:log", { detail: { entries } }));  // phase_summary.js
    const before = JSON.stringify(wildlingOutcome);
    wildlingOutcome = lastWildlingOutcome(entries);
    if (JSON.stringify(wildlingOutcome) !== before && myKind() === "choose") renderDecision();   // who bid lowest, now known
    renderDigest(entries);
    const groups = [];
    for (const x of logLines(entries)) {
      const id = `${x.line.round ?? ""}:${x.line.phase ?? ""}`;
      if (!groups.length || groups[groups.length - 1].id !== id) groups.push({ id, round: x.line.round, phase: x.line.phase, items: [] });
      groups[groups.length - 1].items.push(x);
    }
    const list = $("log");
    list.classList.add("log-grouped");
    list.replaceChildren(...groups.reverse().map((g, i) => {
      const title = g.phase === "over" ? PHASE_TITLE.over
        : [g.round ? fmt(gettext("Round %(round)s"), { round: g.round }) : null, PHASE_TITLE[g.phase] || null].filter(Boolean).join(" · ") || gettext("Log");
      const open = logClosed.has(g.id) ? false : (logOpen.has(g.id) || i < 2);
      const remember = () => {   // the reader's own choice, kept when the log is drawn again
        if (det.open) { logClosed.add(g.id); logOpen.delete(g.id); } else { logOpen.add(g.id); logClosed.delete(g.id); }
      };
      // a closed group's lines are drawn when it is opened: a long game's log stays light
      const lines = () => h("ol", { class: "log-lines" }, g.items.map((x) => h("li", { class: "log-line" + (x.line.private ? " private" : ""), "data-version": x.entry.version },
        logSentence(x.line),
        x.first && SOURCE_NOTE[x.entry.source] ? h("span", { class: "log-note" }, ` (${SOURCE_NOTE[x.entry.source]})`) : null)));
      const det = h("details", { open: open, "data-group": g.id },
        h("summary", { onclick: remember }, title, h("span", { class: "log-count" }, ` (${g.items.length})`)),
        open ? lines() : null);
      if (!open) det.addEventListener("toggle", () => { if (det.open && !det.querySelector("ol")) det.append(lines()); });
      return h("li", { class: "log-group" }, det);
    }));
  }

  async function send(action) {
    showError("");
    const res = await post(q("/actions"), { version: version, action: action });
    if (res.ok) { draft = null; await load(); return true; }
    showError(fmt(gettext("Refused: %(reason)s"), { reason: W.namesIn(res.reason) }));
    if (res.status === 409) await load();
    return false;
  }

  // ------------------------------------------------------------------ rendering

  function render() {
    const v = game.view;
    $("jump").hidden = !myKind();
    const STATUS = { finished: gettext("Game finished."), abandoned: gettext("Game abandoned.") };
    $("phase").textContent = game.status !== "active"
      ? `${STATUS[game.status] || fmt(gettext("Game %(status)s."), { status: game.status })} ${v.ranking ? fmt(gettext("Ranking: %(houses)s"), { houses: v.ranking.map(cap).join(", ") }) : ""}`
      : fmt(gettext("Round %(round)s · %(phase)s"), { round: v.round, phase: phaseWords(v) }) + waitingWords();
    revealDecision(renderBoard());
    renderSeats(); renderTracks(); renderHouses(); renderCombat(); renderDecision(); renderLegend();
  }

  /* The board with the decision's areas highlighted, the draft orders and the picked units. */
  function renderBoard() {
    const hl = highlights();
    W.drawBoard(svg, game.view, SEAT, { highlight: hl, onArea: onArea, unitMarks: unitMarks(),
      draftOrders: myKind() === "place_orders" && draft && draft.orders ? draft.orders : null });
    return hl;
  }
  function unitMarks() {
    const kind = myKind(), out = {};
    if (kind === "march" && draft && draft.from) {
      const marks = {};
      for (const i of Object.keys(draft.assign || {})) marks[i] = "assigned";
      for (const i of draft.picked || []) marks[i] = "picked";
      out[draft.from] = { [SEAT]: marks };
    } else if (kind === "choose" && draft && draft.lose) {
      for (const [a, list] of Object.entries(draft.lose)) out[a] = { [SEAT]: Object.fromEntries(list.map((i) => [i, "picked"])) };
    }
    return out;
  }

  /* A new decision (or a march's origin chosen) brings its areas into view on the board. */
  let revealed = null;
  function revealDecision(hl) {
    const key = (myKind() || "") + ":" + (draft && draft.from ? draft.from : "");
    if (!view || key === revealed) return;
    revealed = key;
    const B = W.board().areas;
    const first = Object.keys(hl).filter((a) => /selected/.test(hl[a]));
    const areas = first.concat(Object.keys(hl).filter((a) => !first.includes(a)));
    view.reveal(areas.filter((a) => B[a]).map((a) => B[a].center));
  }

  /* The phase, its step and who is waited for, in words (never the engine's ids). */
  const STEP_WORDS = {
    planning: { assign: gettext("placing orders"), reveal: gettext("revealing the orders"), raven: gettext("the Messenger Raven") },
    action: { raid: gettext("resolving Raid orders"), march: gettext("resolving March orders"), consolidate: gettext("resolving Consolidate Power orders"), cleanup: gettext("clearing the orders") },
    westeros: { reveal: gettext("drawing the Westeros cards"), wildlings: gettext("the wildling threat"), resolve: gettext("resolving the Westeros cards") },
  };
  function phaseWords(v) {
    const phase = PHASE_TITLE[v.phase] || cap(String(v.phase || "").replace(/_/g, " "));
    const battle = v.combat && v.combat._current;
    const step = battle ? fmt(gettext("battle for %(area)s"), { area: nameOf(battle.area) }) : (STEP_WORDS[v.phase] || {})[v.step];
    return step ? `${phase}: ${step}` : phase;
  }
  /* What a seat is waited for, said after "waiting for Stark to ..." ("esperando a que Stark ..."). */
  const TODO = {
    place_orders: gettext("place orders"), raven: gettext("decide on the Messenger Raven"), raven_peek: gettext("keep or bury the top wildling card"),
    raid: gettext("resolve a Raid order"), march: gettext("resolve a March order"), replace_ships: gettext("replace ships in a port"),
    consolidate: gettext("resolve a Consolidate Power order"), support: gettext("choose whom to support"), accept_support: gettext("accept or refuse support"),
    house_card: gettext("choose a house card"), blade: gettext("decide on the Valyrian Steel Blade"), blade_redraw: gettext("decide on the Valyrian Steel Blade"),
    casualties: gettext("choose casualties"), retreat: gettext("choose where to retreat"), bid: pgettext("agot decision", "bid"), break_tie: gettext("break a tie"),
    choose: gettext("make a choice"), muster: pgettext("agot decision", "muster"), reduce: gettext("reduce armies to their supply"),
  };
  /* The same decisions as a seat's pending task in the Players table ("Place orders"). */
  const TASK = {
    place_orders: gettext("Place orders"), raven: gettext("Decide on the Messenger Raven"), raven_peek: gettext("Keep or bury the top wildling card"),
    raid: gettext("Resolve a Raid order"), march: gettext("Resolve a March order"), replace_ships: gettext("Replace ships in a port"),
    consolidate: gettext("Resolve a Consolidate Power order"), support: gettext("Choose whom to support"), accept_support: gettext("Accept or refuse support"),
    house_card: gettext("Choose a house card"), blade: gettext("Decide on the Valyrian Steel Blade"), blade_redraw: gettext("Decide on the Valyrian Steel Blade"),
    casualties: gettext("Choose casualties"), retreat: gettext("Choose where to retreat"), bid: pgettext("agot task", "Bid"), break_tie: gettext("Break a tie"),
    choose: gettext("Make a choice"), muster: pgettext("agot task", "Muster"), reduce: gettext("Reduce armies to their supply"),
  };
  function waitingWords() {
    const byKind = {};
    for (const [seat, kind] of Object.entries(game.pending || {})) (byKind[kind] = byKind[kind] || []).push(cap(seat));
    const parts = Object.entries(byKind).map(([kind, seats]) =>
      fmt(gettext("%(who)s to %(what)s"), { who: listOf(seats), what: TODO[kind] || kind.replace(/_/g, " ") }));
    return parts.length ? " · " + fmt(gettext("waiting for %(seats)s"), { seats: parts.join("; ") }) : "";
  }

  /* The title of a decision: a sentence saying what is decided, with its place and card. */
  function decisionTitle(kind) {
    const v = game.view, d = v.decision || {};
    const battle = v.combat && v.combat._current;
    const place = battle ? battle.area : d.area;
    // "… in the battle for Winterfell" ("… en la batalla por Invernalia"): one sentence with its place or without
    const battleTitle = (without, withPlace) => place ? fmt(withPlace, { area: nameOf(place) }) : without;
    const cardName = (id) => (W.board().house_cards[id] || {}).name || (W.board().westeros_cards[id] || {}).name || W.inWords(id);
    switch (kind) {
      case "place_orders": return gettext("Place your orders");
      case "raven": return gettext("Use the Messenger Raven");
      case "raven_peek": return gettext("The top wildling card: keep it on top or bury it");
      case "raid": return gettext("Resolve one of your Raid orders");
      case "march": return draft && draft.from ? fmt(gettext("March from %(area)s"), { area: nameOf(draft.from) }) : gettext("Resolve one of your March orders");
      case "replace_ships": return gettext("Replace the enemy ships in the port you took");
      case "consolidate": return gettext("Resolve one of your Consolidate Power orders");
      case "support": return battleTitle(gettext("Support a side in the battle"), gettext("Support a side in the battle for %(area)s"));
      case "accept_support": return battleTitle(gettext("Accept or refuse support in the battle"), gettext("Accept or refuse support in the battle for %(area)s"));
      case "house_card": return d.replacing
        ? battleTitle(gettext("Choose another house card for the battle"), gettext("Choose another house card for the battle for %(area)s"))
        : battleTitle(gettext("Choose a house card for the battle"), gettext("Choose a house card for the battle for %(area)s"));
      case "blade": return battleTitle(gettext("Use the Valyrian Steel Blade in the battle?"), gettext("Use the Valyrian Steel Blade in the battle for %(area)s?"));
      case "blade_redraw": return gettext("Use the Valyrian Steel Blade to draw another Tides of Battle card?");
      case "casualties": {
        const n = d.count;
        if (!n) return battleTitle(gettext("Choose casualties of the battle"), gettext("Choose casualties of the battle for %(area)s"));
        const text = place ? ngettext("Choose %(count)s casualty of the battle for %(area)s", "Choose %(count)s casualties of the battle for %(area)s", n)
          : ngettext("Choose %(count)s casualty of the battle", "Choose %(count)s casualties of the battle", n);
        return fmt(text, { count: n, area: place ? nameOf(place) : "" });
      }
      case "retreat": return battleTitle(gettext("Retreat from the battle"), gettext("Retreat from the battle for %(area)s"));
      case "draft": return gettext("Draft a house card or a place on an Influence track");
      case "bid": return TRACK_NAMES[d.for] ? fmt(gettext("Bid for %(track)s"), { track: TRACK_NAMES[d.for] }) : gettext("Bid against the wildlings");
      case "break_tie": return TRACK_NAMES[d.for] ? fmt(gettext("Break the tie on %(track)s"), { track: TRACK_NAMES[d.for] })
        : d.for === "highest" ? gettext("Break the tie for the highest bid against the wildlings") : gettext("Break the tie for the lowest bid against the wildlings");
      case "muster": return gettext("Muster in your castles and strongholds");
      case "reduce": return gettext("Reduce your armies to your supply");
      case "choose": {
        if (d.owner === "combat" && d.ability) return fmt(gettext("%(card)s: your choice for its ability"), { card: cardName(d.ability) });
        if (d.card && W.board().westeros_cards[d.card]) return fmt(gettext("%(card)s: choose what happens"), { card: cardName(d.card) });
        const wild = currentWildlingCard(), of = wild && W.board().wildling_cards[wild] ? ` (${W.board().wildling_cards[wild].name})` : "";
        const n = d.count, values = { count: n };
        if (d.effect === "units") {
          const up = d.may;
          const what = {
            destroy: up ? ngettext("Choose up to %(count)s unit to destroy", "Choose up to %(count)s units to destroy", n) : ngettext("Choose %(count)s unit to destroy", "Choose %(count)s units to destroy", n),
            destroy_knight: up ? ngettext("Choose up to %(count)s knight to destroy", "Choose up to %(count)s knights to destroy", n) : ngettext("Choose %(count)s knight to destroy", "Choose %(count)s knights to destroy", n),
            to_footman: up ? ngettext("Choose up to %(count)s knight to turn into footmen", "Choose up to %(count)s knights to turn into footmen", n) : ngettext("Choose %(count)s knight to turn into footmen", "Choose %(count)s knights to turn into footmen", n),
            to_knight: up ? ngettext("Choose up to %(count)s footman to turn into knights", "Choose up to %(count)s footmen to turn into knights", n) : ngettext("Choose %(count)s footman to turn into knights", "Choose %(count)s footmen to turn into knights", n),
          }[d.mode];
          return fmt(what || (up ? ngettext("Choose up to %(count)s unit", "Choose up to %(count)s units", n) : ngettext("Choose %(count)s unit", "Choose %(count)s units", n)), values) + of;
        }
        if (d.effect === "preemptive") return fmt(gettext("Destroy %(count)s units or drop on an influence track"), values) + of;
        if (d.effect === "discard_card") return gettext("Choose a house card to discard") + of;
        if (d.effect === "take_card") return gettext("Take a house card back from your discards") + of;
        if (d.effect === "track_top") return gettext("Choose the influence track to go to the top of") + of;
        if (d.effect === "track_bottom_one") return gettext("Choose the influence track to go to the bottom of") + of;
        return gettext("Make your choice") + of;
      }
      default: return cap(kind.replace(/_/g, " "));
    }
  }

  function renderSeats() {
    $("seats").replaceChildren(h("table", { class: "seats" }, h("tbody", {}, game.seats.map((s) =>
      h("tr", { class: s.seat === SEAT ? "me" : "" },
        h("td", {}, houseTag(s.seat)),
        h("td", {}, s.is_bot ? (s.user ? fmt(gettext("%(user)s (the computer plays)"), { user: s.user }) : gettext("the computer")) : (s.user || "—"), s.bot_account && !s.is_bot ? [" ", h("span", { class: "bot-badge", title: gettext("a bot account: a program playing through the API") }, "BOT")] : null),
        h("td", {}, h("span", { class: "presence " + (s.connected ? "on" : "off"), "data-user": s.user || "" }, s.connected ? gettext("● online") : gettext("○ away"))),
        h("td", {}, game.pending[s.seat] ? h("span", { class: "pending-what" }, TASK[game.pending[s.seat]] || cap(game.pending[s.seat].replace(/_/g, " ")), " ",
          s.deadline_at ? h("span", { class: "deadline", "data-deadline": s.deadline_at }, "") : "") : ""))))));
    window.tickDeadlines();
  }

  /* The legend's house key (templates/web/game.html): this game's houses, each with its crest and
     colour as in the Players table and the initial the board prints on its units and order tokens. */
  function renderLegend() {
    const box = $("legend-houses");
    if (!box || box.dataset.seats === game.view.seats.join(",")) return;
    box.dataset.seats = game.view.seats.join(",");
    const items = game.view.seats.map((x, i) => h("span", { class: "legend-house", "data-house": x }, i ? " · " : "", houseTag(x), " ",
      h("span", { class: "legend-letter unit-letter-" + x }, W.LETTER[x])));
    box.replaceChildren(gettext("its colour and crest (as in the Players table; the crest marks its power tokens and home areas), then the initial on its units and order tokens:"), " ", ...items, ".");
  }

  function renderTracks() {
    $("tracks").replaceChildren(W.renderTracks(game.view));
    if ($("table-strip")) $("table-strip").replaceChildren(W.renderStrip(game.view));
  }

  function cardView(id, extra) {
    const c = W.board().house_cards[id];
    if (!c) return h("span", {}, id);
    return h("div", Object.assign({ class: "card house-border-" + c.house }, extra || {}),
      h("div", { class: "card-head" }, h("strong", {}, c.name), " ", h("span", { class: "strength", title: gettext("strength") }, c.strength)),
      h("div", { class: "icons" }, c.swords ? fmt(gettext("swords %(count)s"), { count: c.swords }) : "", c.swords && c.fortifications ? " · " : "", c.fortifications ? fmt(gettext("fortifications %(count)s"), { count: c.fortifications }) : ""),
      c.ability ? h("div", { class: "ability" }, c.ability) : null);
  }

  function renderHouses() {
    const v = game.view;
    $("houses").replaceChildren(...v.seats.map((house) => h("details", { open: house === SEAT },
      h("summary", {}, houseTag(house), " · ", fmt(gettext("power %(power)s"), { power: W.powerWord(v.power[house]) }), " · ",
        fmt(ngettext("%(count)s card", "%(count)s cards", (v.hands[house] || []).length), { count: (v.hands[house] || []).length })),
      h("div", {}, h("em", {}, gettext("Hand")), h("div", { class: "cards" }, (v.hands[house] || []).map((c) => cardView(c)))),
      (v.discards[house] || []).length ? h("div", {}, h("em", {}, gettext("Discarded")), h("div", { class: "cards discards" }, v.discards[house].map((c) => cardView(c)))) : null)));
  }

  const COMBAT_STEPS = { support: gettext("supports are declared"), accept_support: gettext("supports are accepted or refused"), house_card: gettext("house cards are chosen"),
    immediate: gettext("house card abilities"), replace_card: gettext("a house card is replaced"), blade: gettext("the Valyrian Steel Blade"), blade_redraw: gettext("the Valyrian Steel Blade"),
    casualties: pgettext("agot combat step", "casualties"), retreat: gettext("the retreat"), on_result: gettext("house card abilities after the result"), cleanup: gettext("the end of the battle") };
  function renderCombat() {
    const c = game.view.combat;
    const cur = c && c._current;
    $("combat-panel").hidden = !c;
    if (!c) return;
    const show = cur || c;
    const battle = W.sayPieces(show.defender
      ? gettext("%(attacker)s attacks %(defender)s in %(area)s") : gettext("%(attacker)s attacks a neutral force in %(area)s"),
      { attacker: houseTag(show.attacker), defender: show.defender ? houseTag(show.defender) : "", area: nameOf(show.area) });
    const rows = [h("p", {}, cur ? gettext("In progress:") : gettext("Last combat:"), " ", battle,
      !cur && c.winner && c.breakdown ? [" · ", gettext("Winner:"), " ", houseTag(c.winner)] : null)];
    if (cur) {
      const sup = Object.entries(cur.supports || {}).map(([h2, side]) => side ? fmt(gettext("%(house)s supports %(side)s"), { house: cap(h2), side: cap(cur[side] || side) })
        : fmt(gettext("%(house)s supports no one"), { house: cap(h2) }));
      rows.push(h("p", {}, fmt(gettext("Now: %(step)s"), { step: COMBAT_STEPS[cur.step] || String(cur.step || "").replace(/_/g, " ") }), sup.length ? " · " + sup.join(", ") : ""));
    }
    if (!cur || cur.cards) {
      const src = cur && cur.cards ? cur : c;
      if (src.cards) rows.push(h("div", { class: "cards" }, Object.values(src.cards).map((id) => cardView(id))));
      if (src.strength && !src.breakdown) rows.push(h("p", {}, gettext("Strength:"), " ", Object.entries(src.strength).map(([k, n]) => `${cap(k)} ${n}`).join(" · ")));
      if (src.tides && Object.keys(src.tides).length && !src.breakdown) rows.push(h("p", {}, gettext("Tides of Battle:"), " ", Object.entries(src.tides).map(([k, t]) => `${cap(k)} ${TIDES_ID[t] || String(t).replace(/_/g, " ")}`).join(" · ")));
    }
    if (!cur && c.breakdown) rows.push(combatBreakdown(c, true));
    else if (!cur && c.winner) rows.push(h("p", {}, gettext("Winner:"), " ", houseTag(c.winner)));
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
        for (const a of Object.keys(marchTargets())) out[a] = "choosable";
        for (const a of Object.keys(marchMoves())) out[a] = "target";
      } else for (const [a, o] of Object.entries(v.orders)) if (o.house === SEAT && o.token.startsWith("march")) out[a] = "choosable";
    } else if (kind === "raven") {
      for (const a of ravenAreas()) out[a] = "choosable" + (draft && draft.ravenArea === a ? " selected" : "");
    } else if (kind === "choose" && isUnitsChoice(v.decision)) {
      loseDraft(v.decision);
      for (const a of Object.keys(loseCandidates(v.decision))) out[a] = "choosable" + ((draft.lose[a] || []).length ? " selected" : "");
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

  /* A click on the board: it picks what the decision allows there, or says in words why not. */
  function onArea(area, piece) {
    const kind = myKind();
    const names = (list) => list.map(nameOf).join(", ");
    if (kind === "place_orders") {
      if (myAreas().includes(area)) { showError(""); draft = Object.assign(draft || { orders: {} }, { area }); render(); }
      else showError(fmt(gettext("You have no units in %(area)s: orders go on your areas (%(areas)s)."), { area: nameOf(area), areas: names(myAreas()) }));
    } else if (kind === "march") {
      const o = game.view.orders[area];
      if (!draft || !draft.from) {
        if (o && o.house === SEAT && o.token.startsWith("march")) { startMarch(area); render(); }
        else {
          const mine = Object.entries(game.view.orders).filter(([, x]) => x.house === SEAT && x.token.startsWith("march")).map(([a]) => a);
          showError(fmt(gettext("%(area)s holds no March order of yours: choose %(areas)s."), { area: nameOf(area), areas: names(mine) }));
        }
      } else if (area === draft.from) pickOnBoard(piece);
      else assignPicked(area);
    } else if (kind === "raven") {
      if (ravenAreas().includes(area)) { showError(""); draft = { ravenArea: area }; render(); }
      else showError(fmt(gettext("The Raven swaps one of your orders: %(area)s is not one of them (%(areas)s)."), { area: nameOf(area), areas: names(ravenAreas()) }));
    } else if (kind === "choose" && isUnitsChoice(game.view.decision)) {
      const d = game.view.decision;
      loseDraft(d);
      losePick(d, area, piece && piece.house === SEAT ? piece.index : undefined);
      render();
    } else {
      const match = legal().filter((act) => {
        const [k, val] = Object.entries(act)[0];
        return (k === "raid" && val.target === area) || (k === "retreat" && val.to === area) || (k === "choose" && val === area);
      });
      if (match.length === 1) send(match[0]);
      else if (!match.length && kind) {
        const choices = Object.keys(highlights()).filter((a) => /choosable/.test(highlights()[a]));
        if (choices.length) showError(fmt(gettext("%(area)s is not one of the choices: %(areas)s."), { area: nameOf(area), areas: names(choices) }));
      }
    }
  }

  function myAreas() {
    return Object.entries(game.view.units).filter(([, by]) => by[SEAT] && by[SEAT].length).map(([a]) => a).sort();
  }

  /* Gifting power tokens (issue 34, option gift_power_tokens; games/engine/agot/gifts.py): at any time
     outside a bid, some of this house's available power tokens to another house. */
  function giftPanel() {
    const v = game.view;
    if (!SEAT || !(v.options || {}).gift_power_tokens || game.status !== "active") return null;
    if ((v.decision || {}).kind === "bid") return null;
    const have = (v.power || {})[SEAT];
    if (typeof have !== "number" || have < 1) return null;
    const to = h("select", { name: "gift-to" }, v.seats.filter((s) => s !== SEAT).map((s) => h("option", { value: s }, cap(s))));
    const count = h("input", { type: "number", name: "gift-tokens", min: "1", max: String(have), value: "1", inputmode: "numeric" });
    return h("details", { class: "gift-panel" }, h("summary", {}, gettext("Give power tokens to another house")),
      h("p", {}, h("label", {}, gettext("To"), " ", to), " ", h("label", {}, gettext("Power tokens"), " ", count), " ",
        h("button", { type: "button", class: "choice", onclick: () => send({ gift: { to: to.value, tokens: parseInt(count.value, 10) } }) },
          gettext("Give"))));
  }

  function renderDecision() {
    const box = $("decision");
    const kind = myKind();
    if (!SEAT && game.spectator_delay) {   // a fogged game with the spectators' delay (games/spectators.py)
      const shown = game.spectator_delay.round;
      box.replaceChildren(h("h2", {}, gettext("Spectating with a delay")), h("p", {}, shown
        ? fmt(gettext("The board shows the game as it stood when round %(round)s began, without the fog of war. It moves on when a new round begins."), { round: shown })
        : gettext("The board shows the game as it stood at its start, without the fog of war. It moves on when a new round begins.")));
      return;
    }
    if (!SEAT) { box.replaceChildren(h("h2", {}, gettext("Spectating")), h("p", {}, gettext("You see what any spectator may see."))); return; }
    if (game.status !== "active") { box.replaceChildren(h("h2", {}, gettext("Game over")), h("p", {}, h("a", { href: `/games/${game.id}/replay` }, gettext("Replay it step by step")))); return; }
    if (!kind) {
      const waiting = Object.keys(game.pending).map(cap).join(", ");
      box.replaceChildren(...[h("h2", {}, gettext("Nothing to decide")), h("p", {}, waiting ? fmt(gettext("Waiting for %(seats)s."), { seats: waiting }) : gettext("Waiting.")),
        giftPanel()].filter(Boolean));
      return;
    }
    const me = game.seats.find((s) => s.seat === SEAT);
    const head = h("h2", {}, h("span", { class: "decision-title" }, decisionTitle(kind)),
      me && me.deadline_at ? h("small", { class: "decision-deadline" }, h("span", { class: "deadline", "data-deadline": me.deadline_at }, "")) : "");
    let body;
    if (kind === "place_orders") body = placeOrdersPanel();
    else if (kind === "march") body = marchPanel();
    else if (kind === "house_card") body = houseCardPanel();
    else if (kind === "consolidate") body = consolidatePanel();
    else if (kind === "break_tie" && game.view.decision && game.view.decision.tied) body = tiePanel(game.view.decision);
    else if (kind === "bid") body = bidPanel();
    else if (kind === "choose" && isUnitsChoice(game.view.decision)) body = h("div", {}, choosePanel(game.view.decision, true), unitsPanel(game.view.decision));
    else if (kind === "choose" && game.view.decision && legal().length) body = choosePanel(game.view.decision);
    else if (kind === "raven_peek" && legal().length) body = ravenPeekPanel();
    else if (kind === "raven" && legal().length) body = ravenPanel();
    else if (game.legal_actions && game.legal_actions.length) body = listPanel(game.legal_actions);
    else if (kind === "muster" && game.view.decision && game.view.decision.areas) body = musterPanel(game.view.decision);
    else if (kind === "reduce") body = reducePanel();
    else body = rawPanel(kind);
    const battle = game.view.combat && game.view.combat._current;
    if (battle && COMBAT_KINDS.includes(kind)) { body = h("div", {}, combatBreakdown(battle), body); revealBattle(battle); }
    box.replaceChildren(...[head, body, giftPanel()].filter(Boolean));   // extend, concede and the pause vote: the seat bar (table_controls.js)
    window.tickDeadlines();
  }


  function listPanel(actions) {
    return h("div", { class: "choices" }, actions.map((act) => h("button", { type: "button", class: "choice", "data-action": JSON.stringify(act), onclick: () => send(act) }, W.describeAction(act))));
  }

  /* A house card is played after a confirmation (issue 26), as B'Twixt cards and plots are: a click
     (or Enter/Space) on a card chooses it, shown chosen with its text under the cards; "Play <card>"
     sends it; another card changes the choice. Only the cards the server lists may be chosen. */
  const HOUSE_CARD_WORDS = {
    group: gettext("Your house cards: choose one"),
    none: gettext("Nothing chosen yet: click one of your house cards to choose it, then confirm."),
    chosen: gettext("Chosen:"),
    mark: gettext("✔ Chosen"),
    play: (name) => fmt(gettext("Play %(card)s"), { card: name }),
    playNone: gettext("Play the chosen card"),
    another: gettext("Click another card to change your choice."),
  };
  const CHOSEN_STYLE = "outline: 4px solid #4a148c; outline-offset: 1px; background: #f3e5f5;";
  function houseCardPanel() {
    const WORDS = HOUSE_CARD_WORDS;
    const acts = legal().filter((a) => a.house_card);
    if (draft && draft.houseCard && !acts.some((a) => a.house_card === draft.houseCard)) draft = null;
    const chosenId = draft && draft.houseCard;
    const chosen = acts.find((a) => a.house_card === chosenId) || null;
    const choose = (act) => {
      draft = { houseCard: act.house_card };
      showError("");
      render();
      const n = document.querySelector(`#decision .cards.choose [data-card="${act.house_card}"]`);
      if (n) n.focus();
    };
    const cards = acts.map((act, i) => {
      const on = act.house_card === chosenId;
      const node = cardView(act.house_card, {
        role: "radio", "aria-checked": on ? "true" : "false", tabindex: on || (!chosen && i === 0) ? "0" : "-1",
        "data-card": act.house_card, class: "card house-border-" + ((W.board().house_cards[act.house_card] || {}).house || "") + (on ? " chosen" : ""),
        style: on ? CHOSEN_STYLE : null, onclick: () => choose(act),
        onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(act); return; }
          const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
          if (!step) return;
          e.preventDefault();
          const all = [...document.querySelectorAll("#decision .cards.choose [data-card]")];
          const next = all[(all.indexOf(e.currentTarget) + step + all.length) % all.length];
          if (next) next.focus();
        },
      });
      if (on) node.append(h("div", { class: "chosen-mark" }, h("strong", {}, WORDS.mark)));
      return node;
    });
    const c = chosen ? W.board().house_cards[chosen.house_card] : null;
    const name = c ? c.name : chosen ? chosen.house_card : "";
    return h("div", {},
      h("div", { class: "cards choose", role: "radiogroup", "aria-label": WORDS.group }, cards),
      h("div", { id: "house-card-choice" },
        chosen
          ? h("p", {}, WORDS.chosen, " ", h("strong", {}, name), c ? " " + fmt(gettext("(strength %(strength)s)"), { strength: c.strength }) : "", c && c.ability ? ": " + c.ability : "", " ", h("small", {}, WORDS.another))
          : h("p", {}, WORDS.none),
        h("button", { type: "button", id: "house-card-submit", disabled: !chosen, "data-action": chosen ? JSON.stringify(chosen) : null,
          onclick: () => { if (chosen) send(chosen); } }, chosen ? WORDS.play(name) : WORDS.playNone)));
  }

  /* ---- decisions in context (static/css/decisions.css): tie breaks, bids ---- */

  const TRACK_NAMES = { iron_throne: gettext("the Iron Throne track"), fiefdoms: gettext("the Fiefdoms track"), kings_court: gettext("the King's Court track") };
  function houseList(houses) {
    if (houses.length < 2) return houses.map(houseTag);
    const items = [];
    houses.slice(0, -1).forEach((x, i) => { if (i) items.push(", "); items.push(houseTag(x)); });
    return W.sayPieces(gettext("%(items)s and %(last)s"), { items: h("span", {}, items), last: houseTag(houses[houses.length - 1]) });
  }
  function ordinal(n) {
    return fmt(n % 10 === 1 && n % 100 !== 11 ? gettext("%(n)sst") : n % 10 === 2 && n % 100 !== 12 ? gettext("%(n)snd")
      : n % 10 === 3 && n % 100 !== 13 ? gettext("%(n)srd") : gettext("%(n)sth"), { n });
  }

  /* What a tie is about, in words: [title, what first means, what last means]. */
  function tieContext(d) {
    if (TRACK_NAMES[d.for]) return { title: fmt(gettext("Tie for %(track)s"), { track: TRACK_NAMES[d.for] }), first: true, track: d.for };
    if (d.for === "highest") return { title: gettext("Tie for the highest bid against the wildlings"), first: true };
    return { title: gettext("Tie for the lowest bid against the wildlings"), last: true };
  }

  /* Break a tie (R86, R108): the tied houses in colour, moved up or down; the result in words. */
  function tiePanel(d) {
    // consecutive ties (Iron Throne, then Fiefdoms...) are the same decision kind: start afresh for each
    const tieKey = d.for + ":" + d.tied.join(",");
    if (!draft || !draft.tie || draft.tieKey !== tieKey) draft = { tie: d.tied.slice(), tieKey };
    const order = draft.tie;
    const ctx = tieContext(d);
    const cur = (game.view.westeros || {}).current;
    const before = ctx.track && cur && Array.isArray(cur.result) ? cur.result.length : null;
    const move = (i, by) => { const [x] = order.splice(i, 1); order.splice(i + by, 0, x); render(); };
    const rows = order.map((house, i) => h("li", { class: "tie-row", "data-house": house },
      h("span", { class: "tie-place" }, before !== null ? fmt(gettext("%(place)s on the track"), { place: ordinal(before + i + 1) }) : ordinal(i + 1)),
      houseTag(house),
      h("span", { class: "tie-move" },
        h("button", { type: "button", class: "secondary", "data-up": house, disabled: i === 0, "aria-label": fmt(gettext("Move %(house)s up"), { house: cap(house) }) }, gettext("▲ up")),
        h("button", { type: "button", class: "secondary", "data-down": house, disabled: i === order.length - 1, "aria-label": fmt(gettext("Move %(house)s down"), { house: cap(house) }) }, gettext("▼ down")))));
    rows.forEach((row, i) => {
      row.querySelector("[data-up]").onclick = () => move(i, -1);
      row.querySelector("[data-down]").onclick = () => move(i, 1);
    });
    let result;
    if (ctx.track) {
      result = h("p", { class: "tie-result", id: "tie-result" }, gettext("Result:"), " ", order.map((x, i) => [i ? " " + gettext("ahead of") + " " : "", houseTag(x)]).flat(),
        before !== null ? " " + fmt(gettext("(positions %(first)s to %(last)s on %(track)s)"), { first: before + 1, last: before + order.length, track: TRACK_NAMES[ctx.track] }) : "", ".");
    } else if (ctx.first) {
      result = h("p", { class: "tie-result", id: "tie-result" }, gettext("Result:"), " ",
        W.sayPieces(gettext("%(house)s counts as the highest bidder and takes the Night's Watch reward."), { house: houseTag(order[0]) }));
    } else {
      result = h("p", { class: "tie-result", id: "tie-result" }, gettext("Result:"), " ",
        W.sayPieces(gettext("%(house)s counts as the lowest bidder and suffers the lowest bidder's penalty; %(others)s suffer the penalty for everyone else."),
          { house: houseTag(order[order.length - 1]), others: h("span", {}, houseList(order.slice(0, -1))) }));
    }
    const drawn = !ctx.track && cur && cur.card ? cur.card : null;
    return h("div", { class: "decision-context tie" },
      h("h3", {}, ctx.title),
      drawn ? h("div", {}, h("p", {}, gettext("The wildling card drawn:")), wildlingCardView(drawn, ctx.first ? [0] : [1, 2])) : null,
      h("p", {}, W.sayPieces(gettext("%(houses)s each bid %(bid)s power. You hold the Iron Throne, so you decide the order:"), { houses: h("span", {}, houseList(d.tied)), bid: String(d.bid) }), " ",
        ctx.track ? gettext("the house on top is placed highest.") : ctx.first ? gettext("the house on top counts as the highest bidder.") : gettext("the house at the bottom counts as the lowest bidder.")),
      h("ol", { class: "tie-order" }, rows), result,
      h("p", {}, h("button", { type: "button", id: "tie-submit", onclick: () => send({ break_tie: order.slice() }) }, gettext("Confirm this order"))));
  }

  /* The last wildling attack's outcome as the log tells it (R104-R108): the card, whether the
     Night's Watch held, who counts as the highest or lowest bidder, the bids and a tie broken by the
     Iron Throne. Public events only. */
  let wildlingOutcome = null;
  function lastWildlingOutcome(entries) {
    let bids = null, tie = null, out = null;
    for (const e of entries) {
      for (const ev of e.events || []) {
        if (ev.type === "bids_revealed" && ev.for === "wildlings") { bids = ev.bids || null; tie = null; }
        else if (ev.type === "tie_broken" && (ev.for === "lowest" || ev.for === "highest")) tie = { order: ev.order || [], by: ev.by };
        else if (ev.type === "wildling_card") {
          out = { card: ev.card, nw: !!ev.nights_watch, bidder: ev.nights_watch ? ev.highest : ev.lowest, bids, tie, version: e.version };
        }
      }
    }
    return out;
  }
  /* Which of the card's lines applies to this seat, and why in words: [index, sentence], or null. */
  function wildlingRole(id) {
    const o = wildlingOutcome;
    if (!SEAT || !o || o.card !== id || !o.bidder) return null;
    const power = (n) => typeof n === "number" ? " " + fmt(gettext("(%(count)s power)"), { count: n }) : "";
    const mine = o.bids ? power(o.bids[SEAT]) : "";
    let why;
    if (o.bidder === SEAT) {
      why = fmt(o.nw ? gettext("You bid highest%(power)s") : gettext("You bid lowest%(power)s"), { power: mine });
      if (o.tie && o.tie.order.includes(SEAT)) {
        const values = { power: mine, others: wordList(o.tie.order.filter((x) => x !== SEAT).map(cap)), holder: cap(o.tie.by) };
        why = o.tie.by === SEAT
          ? fmt(o.nw ? gettext("You bid highest%(power)s, tied with %(others)s; as holder of the Iron Throne you broke the tie and counted yourself as the highest bidder")
            : gettext("You bid lowest%(power)s, tied with %(others)s; as holder of the Iron Throne you broke the tie and counted yourself as the lowest bidder"), values)
          : fmt(o.nw ? gettext("You bid highest%(power)s, tied with %(others)s; %(holder)s, holder of the Iron Throne, broke the tie and counted you as the highest bidder")
            : gettext("You bid lowest%(power)s, tied with %(others)s; %(holder)s, holder of the Iron Throne, broke the tie and counted you as the lowest bidder"), values);
      }
      return [o.nw ? 0 : 1, why + "."];
    }
    if (o.nw) return [null, fmt(gettext("%(house)s bid highest and alone takes the reward: no line applies to you."), { house: cap(o.bidder) })];
    const values = { house: cap(o.bidder), their: o.bids ? power(o.bids[o.bidder]) : "", power: mine };
    return [2, fmt(o.tie && o.tie.order.includes(SEAT)
      ? gettext("%(house)s bid lowest%(their)s; you bid%(power)s more or were placed above in the tie, so you are among everyone else.")
      : gettext("%(house)s bid lowest%(their)s; you bid%(power)s more, so you are among everyone else."), values)];
  }

  /* A wildling card (the board data, web/board.py from wildling_cards.yaml): its name and what it
     does to the highest bidder, the lowest bidder and everyone else; `which` picks those lines. The
     line that applies to this seat, once the log says who bid lowest or highest, is marked, with why. */
  function wildlingCardView(id, which) {
    const c = (W.board().wildling_cards || {})[id];
    if (!c) return h("p", {}, gettext("A wildling card."));
    const lines = [[gettext("Night's Watch wins, highest bidder"), c.highest_bidder], [gettext("Wildlings win, lowest bidder"), c.lowest_bidder],
      [gettext("Wildlings win, everyone else"), c.everyone_else]];
    const role = wildlingRole(id);
    return h("div", { class: "card-context wildling-card", "data-card": id }, h("strong", { class: "card-name" }, c.name),
      h("ul", {}, lines.map((l, i) => [l, i]).filter(([, i]) => !which || which.includes(i)).map(([[when, what], i]) => {
        const applies = role && role[0] === i;
        return h("li", { class: applies ? "applies" : null, "data-line": ["highest", "lowest", "others"][i] },
          h("em", {}, when + ": "), what, applies ? h("span", { class: "applies-tag" }, " " + gettext("← this applies to you")) : null);
      })),
      role ? h("p", { class: "wildling-role", id: "wildling-role" }, role[1]) : null);
  }
  function westerosCardView(id) {
    const c = (W.board().westeros_cards || {})[id];
    if (!c) return null;
    return h("div", { class: "card-context westeros-card", "data-card": id }, h("strong", { class: "card-name" }, c.name), " ", h("span", {}, c.effect));
  }
  const HOLDER_OF = { a_throne_of_blades: gettext("As holder of the Iron Throne, you choose which of these happens instead:"),
    dark_wings_dark_words: gettext("As holder of the Messenger Raven, you choose which of these happens instead:"),
    put_to_the_sword: gettext("As holder of the Valyrian Steel Blade, you choose which of these happens instead:") };

  /* The wildling card whose effects are being resolved: the queued "put it at the bottom" task names it. */
  function currentWildlingCard() {
    const ws = game.view.westeros || {};
    const t = (ws.queue || []).concat(ws.current ? [ws.current] : []).find((x) => x && x.t === "w_bottom");
    return t ? t.card : null;
  }

  function chooseLabel(val) {
    const unitsIn = (sel) => Object.entries(sel).map(([a, us]) => fmt(gettext("%(what)s in %(area)s"), { what: us.map(W.inWords).join(", "), area: nameOf(a) })).join("; ");
    if (val === false) return gettext("Take nothing / decline");
    if (val === true) return gettext("Yes");
    if (typeof val === "string" && TRACK_NAMES[val]) return cap(TRACK_NAMES[val]);
    if (typeof val === "string" && W.board().westeros_cards && W.board().westeros_cards[val]) return W.board().westeros_cards[val].name;
    if (val && typeof val === "object" && !Array.isArray(val)) return unitsIn(val);
    return W.inWords(val);
  }

  /* A choice that depends on a card: Throne of Blades, Dark Wings, Put to the Sword (Westeros) or a
     wildling card's effect; the card's name and effect, then the options in words. */
  function isUnitsChoice(d) { return !!d && (d.effect === "units" || d.effect === "preemptive") && d.count > 0 && Array.isArray(d.areas); }
  function choosePanel(d, introOnly) {
    const intro = [];
    if (d.card && westerosCardView(d.card)) {
      intro.push(h("h3", {}, gettext("Westeros card drawn")), westerosCardView(d.card),
        h("p", {}, HOLDER_OF[d.card] || gettext("As holder of its token, you choose which of these happens instead:")));
    } else {
      const card = currentWildlingCard();
      if (card) intro.push(h("h3", {}, gettext("Wildling card")), wildlingCardView(card));
    }
    if (introOnly) return h("div", { class: "decision-context choose" }, intro);
    const buttons = legal().map((act) => {
      const val = act.choose;
      const wc = typeof val === "string" ? westerosCardView(val) : null;
      return h("button", { type: "button", class: "choice" + (wc ? " choice-card" : ""), "data-action": JSON.stringify(act), onclick: () => send(act) },
        wc ? [h("strong", {}, chooseLabel(val)), h("small", {}, " ", W.board().westeros_cards[val].effect)] : chooseLabel(val));
    });
    return h("div", { class: "decision-context choose" }, intro, h("div", { class: "choices" }, buttons));
  }

  /* A wildling card's units to lose or swap (Mammoth Riders, The Horde Descends, Crow Killers,
     Preemptive Raid; wildlings.py "units" and "preemptive" choices): click an area on the board to
     pick its next unit (or a unit itself), or tick them here; the server's list of every possible
     choice stays below as a fallback. draft.lose: {area: [index in the area's list]}. */
  const LOSE_MODE = {
    destroy: { want: null, verb: gettext("Destroy: %(units)s"), none: gettext("Destroy the picked units") },
    destroy_knight: { want: "knight", verb: gettext("Destroy: %(units)s"), none: gettext("Destroy the picked units") },
    to_footman: { want: "knight", verb: gettext("Turn into footmen: %(units)s"), none: gettext("Turn into footmen the picked units") },
    to_knight: { want: "footman", verb: gettext("Turn into knights: %(units)s"), none: gettext("Turn into knights the picked units") },
  };
  function loseCandidates(d) {
    const want = (LOSE_MODE[d.mode || "destroy"] || LOSE_MODE.destroy).want, out = {};
    for (const a of d.areas || []) {
      const us = ((game.view.units[a] || {})[SEAT] || []);
      const idx = us.map((u, i) => i).filter((i) => !want || us[i].replace(/^routed_/, "") === want);
      if (idx.length) out[a] = idx;
    }
    return out;
  }
  function loseDraft(d) {
    const key = JSON.stringify([d.effect, d.mode, d.count, d.areas]);
    if (!draft || !draft.lose || draft.loseKey !== key) draft = { lose: {}, loseKey: key };
    return draft;
  }
  function losePicked() { return Object.values(draft.lose || {}).reduce((n, l) => n + l.length, 0); }
  function losePick(d, area, index) {
    const cand = loseCandidates(d)[area];
    if (!cand) {
      showError(fmt(gettext("%(area)s is not one of the choices: %(areas)s."), { area: nameOf(area), areas: Object.keys(loseCandidates(d)).map(nameOf).join(", ") }));
      return;
    }
    if (d.single) for (const a of Object.keys(draft.lose)) if (a !== area) delete draft.lose[a];   // one area only
    const list = draft.lose[area] = draft.lose[area] || [];
    if (index === undefined) index = cand.find((i) => !list.includes(i));
    if (index === undefined) { delete draft.lose[area]; showError(""); return; }   // every unit there picked: unpick them
    if (!cand.includes(index)) { showError(gettext("That unit is not one of the choices.")); return; }
    if (list.includes(index)) list.splice(list.indexOf(index), 1);
    else if (losePicked() >= d.count) { showError(fmt(gettext("You have picked %(count)s already: unpick one first."), { count: d.count })); return; }
    else list.push(index);
    if (!list.length) delete draft.lose[area];
    showError("");
  }
  /* "Pick 2 units to be destroyed, all in one area": what the player is to pick. */
  function losePrompt(d) {
    const n = d.count, mode = d.mode || "destroy";
    let text;
    if (mode === "to_footman") text = d.may ? ngettext("Pick up to %(count)s unit to be turned into footmen", "Pick up to %(count)s units to be turned into footmen", n)
      : ngettext("Pick %(count)s unit to be turned into footmen", "Pick %(count)s units to be turned into footmen", n);
    else if (mode === "to_knight") text = d.may ? ngettext("Pick up to %(count)s unit to be turned into knights", "Pick up to %(count)s units to be turned into knights", n)
      : ngettext("Pick %(count)s unit to be turned into knights", "Pick %(count)s units to be turned into knights", n);
    else text = d.may ? ngettext("Pick up to %(count)s unit to be destroyed", "Pick up to %(count)s units to be destroyed", n)
      : ngettext("Pick %(count)s unit to be destroyed", "Pick %(count)s units to be destroyed", n);
    const pick = fmt(text, { count: n });
    return d.single ? fmt(gettext("%(pick)s, all in one area"), { pick }) : pick;
  }
  function unitsPanel(d) {
    loseDraft(d);
    const mode = LOSE_MODE[d.mode || "destroy"] || LOSE_MODE.destroy;
    const cand = loseCandidates(d);
    const status = h("p", { id: "lose-status", class: "hint" });
    const submit = h("button", { type: "button", id: "lose-submit" });
    const refresh = () => {
      const n = losePicked(), ok = d.may ? n >= 1 && n <= d.count : n === d.count;
      status.textContent = fmt(d.may ? (d.single ? gettext("%(n)s of up to %(count)s picked (all in one area).") : gettext("%(n)s of up to %(count)s picked."))
        : (d.single ? gettext("%(n)s of %(count)s picked (all in one area).") : gettext("%(n)s of %(count)s picked.")), { n, count: d.count });
      submit.disabled = !ok;
      const sel = {};
      for (const [a, list] of Object.entries(draft.lose)) sel[a] = list.map((i) => game.view.units[a][SEAT][i]);
      submit.textContent = n ? fmt(mode.verb, { units: W.inWords(sel) }) : mode.none;
      submit.onclick = () => send({ choose: sel });
    };
    const rows = Object.entries(cand).map(([a, idx]) => h("li", {}, h("strong", {}, nameOf(a)), " ",
      idx.map((i) => h("label", { class: "unit-pick" }, h("input", { type: "checkbox", "data-lose": `${a}:${i}`, checked: (draft.lose[a] || []).includes(i),
        onchange: (e) => {
          const had = (draft.lose[a] || []).includes(i);
          if (had !== e.target.checked) losePick(d, a, i);
          e.target.checked = (draft.lose[a] || []).includes(i);
          if (d.single) for (const box of document.querySelectorAll("input[data-lose]")) box.checked = (draft.lose[box.dataset.lose.split(":")[0]] || []).includes(parseInt(box.dataset.lose.split(":")[1], 10));
          renderBoard(); refresh();
        } }), " ", W.inWords(game.view.units[a][SEAT][i])))));
    refresh();
    const others = legal().filter((act) => act.choose && typeof act.choose === "object");
    const tracks = legal().filter((act) => typeof act.choose === "string");
    return h("div", { class: "decision-context units-pick" },
      h("p", {}, fmt(gettext("%(pick)s: click an area on the board to pick its next unit (or click a unit), or tick them here."), { pick: losePrompt(d) })),
      h("ul", { class: "order-list lose-list" }, rows), status,
      h("p", {}, submit, " ", d.may ? h("button", { type: "button", class: "secondary", id: "lose-decline", onclick: () => send({ choose: false }) }, gettext("Decline")) : null, " ",
        h("button", { type: "button", class: "secondary", onclick: () => { draft = null; render(); } }, gettext("Clear"))),
      tracks.length ? h("div", {}, h("p", {}, gettext("Or instead:")), h("div", { class: "choices" }, tracks.map((act) => h("button", { type: "button", class: "choice", "data-action": JSON.stringify(act), onclick: () => send(act) },
        fmt(gettext("Drop on %(track)s"), { track: TRACK_NAMES[act.choose] || W.inWords(act.choose) }))))) : null,
      others.length ? h("details", { class: "lose-fallback" }, h("summary", {}, fmt(gettext("Or choose from the list of every possible choice (%(count)s)"), { count: others.length })),
        h("div", { class: "choices" }, others.map((act) => h("button", { type: "button", class: "choice", "data-action": JSON.stringify(act), onclick: () => send(act) }, chooseLabel(act.choose))))) : null);
  }

  /* The Raven's peek (R126): the card seen, then keep it on top or put it at the bottom. */
  function ravenPeekPanel() {
    const v = game.view;
    const seen = (v.secret && v.secret[SEAT] && v.secret[SEAT].peeked) || (typeof v.peeked === "string" && v.peeked !== "hidden" ? v.peeked : null);
    return h("div", { class: "decision-context raven-peek" }, h("h3", {}, gettext("The top wildling card")),
      seen ? wildlingCardView(seen) : h("p", {}, gettext("The card is not in the view.")),
      h("p", {}, gettext("Only you have seen it. Keep it on top for the next wildling attack, or put it at the bottom of the deck?")),
      listPanel(legal()));
  }

  /* The Messenger Raven (R124-R127): skip, peek, or replace one of your orders: the area, then the token. */
  const isSwap = (a) => a.raven && typeof a.raven === "object" && a.raven.replace;
  function ravenAreas() {
    return [...new Set(legal().filter(isSwap).map((a) => a.raven.replace.area))].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  }
  function ravenPanel() {
    const acts = legal();
    const swaps = acts.filter(isSwap);
    const areas = ravenAreas();
    const chosen = draft && draft.ravenArea && areas.includes(draft.ravenArea) ? draft.ravenArea : null;
    const orders = game.view.orders || {};
    const parts = [h("p", {}, gettext("As holder of the Messenger Raven you may swap one of your orders for an unused one, or look at the top wildling card.")),
      h("div", { class: "choices" }, listPanel(acts.filter((a) => !isSwap(a))))];
    if (areas.length) {
      parts.push(h("h3", {}, gettext("Swap an order: first the area")), h("p", { class: "hint" }, gettext("Click one of your orders on the board, or choose it here:")), h("div", { class: "choices-inline raven-areas" }, areas.map((a) => h("button", {
        type: "button", class: "token" + (a === chosen ? " chosen" : ""), "data-raven-area": a, "aria-pressed": a === chosen ? "true" : "false",
        onclick: () => { draft = { ravenArea: a }; render(); },
      }, nameOf(a), orders[a] ? h("small", {}, " " + fmt(gettext("now %(order)s"), { order: W.tokenName(orders[a].token) })) : null))));
    }
    if (chosen) {
      parts.push(h("h3", {}, fmt(gettext("Then the new order for %(area)s"), { area: nameOf(chosen) })), h("div", { class: "tokens raven-tokens" },
        swaps.filter((a) => a.raven.replace.area === chosen).map((a) => h("button", {
          type: "button", class: "token", "data-raven-token": a.raven.replace.order, title: W.tokenName(a.raven.replace.order),
          "aria-label": W.tokenName(a.raven.replace.order), onclick: () => send(a),
        }, W.tokenText(a.raven.replace.order), h("small", {}, W.tokenName(a.raven.replace.order))))));
    }
    return h("div", { class: "decision-context raven" }, parts);
  }

  /* Combat (R215-R228): each side's strength, line by line, beside the supports, house-card and
     blade choices; the battle brought into view on the board. Unit values and order modifiers are
     read from the view; what the engine adds beyond them (supports, card texts, Tides of Battle) is
     the difference to its own totals, so the total is always the engine's. */
  const COMBAT_KINDS = ["support", "accept_support", "house_card", "blade", "blade_redraw", "choose"];
  /* A battle's strength, line by line, as the engine records it (combat.breakdown, R215-R229):
     live from the initial strength on, frozen when the victor is decided, so a side whose units
     died as casualties still shows them. Before the supports are settled there is no record yet:
     the units and orders on the board are shown instead. */
  const TIDES_NAME = { zero: gettext("a blank card"), sword: gettext("a sword"), fortification: gettext("a tower"), two: gettext("a +2 card"),
    three: gettext("a +3 card"), skull: gettext("a skull") };
  const TIDES_ID = { zero: pgettext("agot tides card", "zero"), sword: pgettext("agot tides card", "sword"), fortification: pgettext("agot tides card", "fortification"),
    two: pgettext("agot tides card", "two"), three: pgettext("agot tides card", "three"), skull: pgettext("agot tides card", "skull") };
  const TIDES_VALUE = { zero: 0, sword: 1, fortification: 1, two: 2, three: 3, skull: 0 };
  const DECIDED = { higher_strength: gettext("the higher strength"), fiefdoms_tie: gettext("a tie, won by the house higher on the Fiefdoms track"),
    neutral_force: gettext("the neutral force's strength") };
  function unitValue(u, attacking, castle) {
    return u === "knight" ? 2 : u === "siege_engine" ? (attacking && castle ? 4 : 0) : 1;
  }
  function unitWords(list) {
    return (list || []).map((u) => u.startsWith("routed_") ? fmt(gettext("%(unit)s (routed)"), { unit: W.inWords(u.slice(7)) }) : W.inWords(u)).join(", ") || gettext("none");
  }
  const ROW = { units: pgettext("agot strength row", "Units"), order: pgettext("agot strength row", "Order"), garrison: pgettext("agot strength row", "Garrison"),
    support: pgettext("agot strength row", "Support"), card: pgettext("agot strength row", "House card"), tides: pgettext("agot strength row", "Tides of Battle"),
    blade: pgettext("agot strength row", "Valyrian Steel Blade") };
  function recordedLine(line, house) {
    const B = W.board(), c = line.card_id && B.house_cards[line.card_id];
    const rows = {
      units: [ROW.units, line.units, unitWords(line.unit_list)],
      order: [ROW.order, line.order, line.order_token ? W.tokenName(line.order_token) : gettext("no order")],
      garrison: line.garrison ? [ROW.garrison, line.garrison, ""] : null,
      support: [ROW.support, line.support, Object.keys(line.supporters || {}).filter((s2) => s2 !== house).length
        ? fmt(gettext("from %(houses)s"), { houses: Object.entries(line.supporters).map(([s2, n]) => `${cap(s2)} +${n}`).join(", ") }) : line.support ? gettext("own Support orders") : gettext("none")],
      card: [ROW.card, line.card || 0, c ? c.name : gettext("not yet revealed")],
      tides: line.tides_card ? [ROW.tides, line.tides, TIDES_NAME[line.tides_card] || line.tides_card.replace(/_/g, " ")] : null,
      blade: [ROW.blade, line.blade, line.blade ? pgettext("agot blade", "used") : ""],
    };
    return rows;
  }
  function combatBreakdown(cur, finished) {
    const v = game.view, B = W.board(), area = cur.area;
    const castle = ((B.areas[area] || {}).structure || "none") !== "none";
    const sides = [cur.attacker].concat(cur.defender ? [cur.defender] : []);
    const record = cur.breakdown || null;
    const initial = cur.initial || {}, total = cur.strength || {};
    const cell = (n, what) => h("td", {}, h("strong", {}, n >= 0 ? `+${n}` : String(n)), what ? h("small", {}, " ", what) : null);
    const rows = {}; const add = (key, label) => { rows[key] = rows[key] || { label, cells: {} }; return rows[key].cells; };
    for (const house of sides) {
      if (record && record[house]) {
        for (const [key, row] of Object.entries(recordedLine(record[house], house))) if (row) add(key, row[0])[house] = [row[1], row[2]];
        continue;
      }
      const attacking = house === cur.attacker;
      const units = attacking ? (cur.units || []) : (((v.units[area] || {})[house]) || []);
      const uv = units.reduce((n, u) => n + unitValue(u, attacking, castle), 0);
      add("units", ROW.units)[house] = [uv, unitWords(units)];
      let order = 0, orderName = gettext("no order");
      if (attacking && cur.march_token) { const m = /march([+-]\d)/.exec(cur.march_token); order = m ? parseInt(m[1], 10) : 0; orderName = W.tokenName(cur.march_token); }
      const o = v.orders[area];
      if (!attacking && o && o.house === house && /^defense/.test(o.token)) { order = parseInt(o.token.replace(/\D/g, ""), 10) || 0; orderName = W.tokenName(o.token); }
      add("order", ROW.order)[house] = [order, orderName];
      const garrison = !attacking ? parseInt(cur.garrison || 0, 10) : 0;
      if (garrison) add("garrison", ROW.garrison)[house] = [garrison, ""];
      const supporters = Object.entries(cur.supports || {}).filter(([s2, side]) => side && cur[side] === house && !(cur.refused || []).includes(s2)).map(([s2]) => cap(s2));
      add("support", ROW.support)[house] = [0, supporters.length ? fmt(gettext("from %(houses)s (added once the supports are settled)"), { houses: supporters.join(", ") }) : gettext("none")];
      add("card", ROW.card)[house] = [0, gettext("not yet revealed")];
      add("blade", ROW.blade)[house] = [0, ""];
    }
    // R298-R299: this seat's own Tides of Battle card is seen before the reveal (the blade holder may
    // draw again); the other side's stays hidden until both are revealed.
    const mine = SEAT && !finished && v.secret && v.secret[SEAT] && v.secret[SEAT].tides;
    if (mine && sides.includes(SEAT) && !rows.tides) {
      const t = add("tides", ROW.tides);
      for (const x of sides) t[x] = x === SEAT ? [TIDES_VALUE[mine] || 0, fmt(gettext("%(card)s, drawn in secret: it counts once both are revealed"), { card: TIDES_NAME[mine] || mine })] : [0, gettext("drawn, not yet revealed")];
    }
    const blades = rows.blade;
    if (!finished && blades) for (const house of sides) {
      if (!blades.cells[house] || blades.cells[house][0]) continue;
      if (v.tracks.fiefdoms[0] === house) blades.cells[house][1] = (v.used || {}).valyrian_steel_blade ? gettext("used this round") : gettext("held, +1 if used");
    }
    if (!cur.defender && cur.neutral != null) add("units", ROW.units).neutral = [parseInt(cur.neutral, 10) || 0, gettext("neutral force")];
    const cols = sides.concat(!cur.defender ? ["neutral"] : []);
    const head = (x) => x === "neutral" ? gettext("Neutral force") : houseTag(x);
    const revealed = record && sides.some((x) => record[x] && record[x].card_id);
    const sum = (x) => x === "neutral" ? (parseInt(cur.neutral, 10) || 0)
      : record && record[x] ? record[x].total : (total[x] ?? initial[x] ?? Object.values(rows).reduce((n, r) => n + ((r.cells[x] || [0])[0] || 0), 0));
    const fief = v.tracks.fiefdoms.filter((x) => sides.includes(x));
    const body = Object.values(rows).map((r) => h("tr", {}, h("th", { scope: "row" }, r.label), cols.map((x) => r.cells[x] ? cell(...r.cells[x]) : h("td", {}, ""))));
    const lead = cur.defender && sum(cur.attacker) !== sum(cur.defender) ? (sum(cur.attacker) > sum(cur.defender) ? cur.attacker : cur.defender) : null;
    let verdict;
    if (cur.decided_by && cur.winner) verdict = h("p", { class: "tie-rule" }, W.sayPieces(gettext("%(house)s won: %(why)s."), { house: houseTag(cur.winner), why: DECIDED[cur.decided_by] || DECIDED.higher_strength }));
    else if (cur.decided_by === "neutral_force") verdict = h("p", { class: "tie-rule" }, gettext("The neutral force held: the attacker did not reach its strength."));
    else if (cur.defender) verdict = h("p", { class: "tie-rule" }, lead ? [...W.sayPieces(gettext("%(house)s is ahead now."), { house: houseTag(lead) }), " "] : gettext("The sides are level now.") + " ",
      W.sayPieces(gettext("A tie goes to the house higher on the Fiefdoms track: %(house)s."), { house: houseTag(fief[0]) }));
    else verdict = h("p", {}, gettext("The attacker must at least equal the neutral force's strength."));
    const values = { attacker: houseTag(cur.attacker), defender: cur.defender ? houseTag(cur.defender) : "", area: nameOf(area), origin: cur.origin ? nameOf(cur.origin) : "" };
    return h("div", { class: "decision-context combat-breakdown", id: finished ? "last-combat-breakdown" : "combat-breakdown" },
      h("h3", {}, W.sayPieces(cur.defender
        ? (cur.origin ? gettext("%(attacker)s attacks %(defender)s in %(area)s from %(origin)s") : gettext("%(attacker)s attacks %(defender)s in %(area)s"))
        : (cur.origin ? gettext("%(attacker)s attacks a neutral force in %(area)s from %(origin)s") : gettext("%(attacker)s attacks a neutral force in %(area)s")), values)),
      h("div", { class: "table-scroll" }, h("table", { class: "strength" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), cols.map((x) => h("th", { scope: "col" }, head(x))))),
        h("tbody", {}, body),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, revealed ? gettext("Strength") : gettext("Strength before house cards")), cols.map((x) => h("td", { class: "total" }, String(sum(x)))))))),
      verdict);
  }
  let battleShown = null;
  function revealBattle(cur) {
    const key = cur.area + ":" + cur.origin;
    if (!view || key === battleShown) return;
    battleShown = key;
    const B = W.board().areas;
    view.reveal([cur.area, cur.origin].filter((a) => a && B[a]).map((a) => B[a].center));
  }

  /* A bid (R85, R104): what it is for, where the houses stand, everyone's power as the view shows
     it (the other houses' power is hidden while a bid is open, R290). */
  function bidPanel() {
    const v = game.view, d = v.decision || {};
    const power = v.power[SEAT];
    const input = h("input", { type: "number", min: 0, max: power, value: 0, id: "bid-input", "aria-label": gettext("Your bid") });
    const attack = W.board().wildling_attack_at || 12;
    const what = TRACK_NAMES[d.for]
      ? [h("h3", {}, fmt(gettext("Bidding for %(track)s"), { track: TRACK_NAMES[d.for] })), h("p", {}, gettext("Now, from first to last:"), " ", v.tracks[d.for].map((x, i) => [i ? ", " : "", houseTag(x)]).flat(),
        ". ", gettext("The highest bid takes first place; ties are broken by the holder of the Iron Throne."))]
      : [h("h3", {}, gettext("Bidding against the wildlings")), h("p", {}, fmt(gettext("The wildlings attack with strength %(strength)s."), { strength: v.wildlings }), " ",
        fmt(gettext("The Night's Watch wins if all bids together reach %(strength)s: then the highest bidder is rewarded; otherwise the lowest bidder and then everyone else suffer the wildling card's penalties."), { strength: v.wildlings }), " ",
        fmt(gettext("(The threat track ends at %(attack)s.)"), { attack }))];
    const rows = v.seats.map((x) => h("tr", { "data-house": x }, h("td", {}, houseTag(x)),
      h("td", {}, x === SEAT ? fmt(gettext("%(count)s power available"), { count: power }) : v.power[x] === "hidden" ? gettext("power hidden until the bids are revealed") : fmt(gettext("%(count)s power available"), { count: v.power[x] }))));
    return h("form", { class: "decision-context bid", onsubmit: (e) => { e.preventDefault(); send({ bid: Math.max(0, Math.min(power, parseInt(input.value, 10) || 0)) }); } },
      what, h("table", { class: "bid-power" }, h("tbody", {}, rows)),
      h("p", {}, h("label", { for: "bid-input" }, fmt(gettext("Your bid (0 to %(count)s):"), { count: power }) + " "), input, " ", h("button", { type: "submit", id: "bid-submit" }, pgettext("agot task", "Bid"))),
      h("p", { class: "hint" }, gettext("Bids are secret until every house has bid; all power bid is spent, whatever the result.")));
  }

  /* A decision this page cannot build (a new kind, or the server lists no choices for it): never an
     action notation box. A sentence saying what is waited for; the server's listed choices, if any,
     as buttons in words; and a button that loads the game again. */
  function rawPanel(kind) {
    const what = TODO[kind] || String(kind).replace(/_/g, " ");
    const acts = legal();
    const me = game.seats.find((s2) => s2.seat === SEAT);
    return h("div", { class: "decision-context fallback", id: "decision-fallback" },
      h("p", {}, fmt(gettext("You are to %(what)s, but this page cannot show the choices for it right now."), { what }), " ",
        acts.length ? gettext("Choose one of the server's choices:") : gettext("Reloading the game usually brings them back.")),
      acts.length ? listPanel(acts) : null,
      h("p", {}, h("button", { type: "button", id: "reload-game", onclick: () => { showError(""); load(); } }, gettext("Reload the game")),
        me && me.deadline_at ? h("small", { class: "hint" }, " " + gettext("If nothing is chosen, the default choice is played when the time runs out.")) : null));
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
      // [id for tests (the English words), label, cost, where, item]
      const opts = [["footman", W.inWords("footman"), 1, area, { recruit: "footman" }], ["knight", W.inWords("knight"), 2, area, { recruit: "knight" }],
        ["siege engine", W.inWords("siege_engine"), 2, area, { recruit: "siege_engine" }], ["footman → knight", `${W.inWords("footman")} → ${W.inWords("knight")}`, 1, area, { upgrade: "footman", to: "knight" }],
        ["footman → siege engine", `${W.inWords("footman")} → ${W.inWords("siege_engine")}`, 1, area, { upgrade: "footman", to: "siege_engine" }]];
      for (const sea of a.adjacent.filter((x) => B.areas[x].type !== "land")) {
        if (B.areas[sea].type === "port" && B.areas[sea].land_area !== area) continue;
        opts.push([`ship in ${nameOf(sea)}`, fmt(gettext("%(what)s in %(area)s"), { what: W.inWords("ship"), area: nameOf(sea) }), 1, sea, { recruit: "ship", from: area }]);
      }
      const single = decision.single && Object.keys(draft.spent).some((x) => x !== area && draft.spent[x]);
      items.push(h("div", { class: "muster-area" }, h("strong", {}, fmt(gettext("%(area)s: %(left)s of %(points)s point(s) left"), { area: nameOf(area), left, points })),
        h("div", { class: "choices-inline" }, opts.map(([key, label, cost, dest, item]) => h("button", {
          type: "button", class: "token", disabled: cost > left || single, "data-muster": `${area}:${key}`,
          title: single ? gettext("only one area may muster") : cost > left ? gettext("not enough points") : "",
          onclick: () => { (draft.muster[dest] = draft.muster[dest] || []).push(item); draft.spent[area] = (draft.spent[area] || 0) + cost; render(); },
        }, label)))));
    }
    const chosen = Object.entries(draft.muster).map(([dest, list]) => h("li", {}, `${nameOf(dest)}: ` + list.map((i) => i.recruit ? W.inWords(i.recruit) : `${W.inWords(i.upgrade)} → ${W.inWords(i.to)}`).join(", ")));
    return h("div", {}, decision.single ? h("p", {}, gettext("One area only.")) : null, items, h("ul", {}, chosen),
      h("p", {}, h("button", { type: "button", id: "muster-submit", onclick: () => (submit ? submit(draft.muster) : send({ muster: draft.muster })) }, chosen.length ? pgettext("agot task", "Muster") : gettext("Muster nothing")),
        " ", h("button", { type: "button", class: "secondary", onclick: () => { draft = null; render(); } }, gettext("Clear"))));
  }

  /* Consolidate Power: the listed choices, and for a special order in a castle or stronghold area
     the mustering it allows instead (R182), sent as {consolidate: {from, muster: [items]}}. */
  function consolidatePanel() {
    const B = W.board();
    const special = Object.entries(game.view.orders).filter(([a, o]) => o.house === SEAT && o.token === "consolidate*" &&
      B.areas[a].structure !== "none").map(([a]) => a);
    if (draft && draft.cpFrom) {
      const from = draft.cpFrom;
      return h("div", {}, h("p", {}, fmt(gettext("Muster in %(area)s with its special Consolidate Power order:"), { area: nameOf(from) })),
        musterPanel({ areas: [from], single: true }, (muster) => {
          const items = [];
          for (const [dest, list] of Object.entries(muster)) for (const item of list) {
            items.push(item.recruit === "ship" ? { recruit: "ship", to: dest } : item);
          }
          send({ consolidate: { from, muster: items } });
        }));
    }
    return h("div", {}, listPanel(legal()), special.map((a) => h("button", { type: "button", class: "choice", "data-muster-from": a,
      onclick: () => { draft = { muster: {}, spent: {}, cpFrom: a }; render(); } }, fmt(gettext("Muster in %(area)s instead (special order)"), { area: nameOf(a) }))));
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
        } }), " ", W.inWords(u)))));
    return h("div", {}, h("p", {}, gettext("Your armies exceed your supply: tick the units to destroy.")), h("ul", { class: "order-list" }, rows),
      h("button", { type: "button", onclick: () => send({ reduce: draft.reduce }) }, gettext("Destroy the ticked units")));
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
      if ((v.restrictions || []).includes(kind) || (v.restrictions || []).includes(token)) reason = gettext("forbidden this round");
      else if ((used[token] || 0) >= n) reason = gettext("all used");
      else if (token.endsWith("*") && specials >= stars) reason = stars ? fmt(gettext("only %(count)s special order(s) at your King's Court position"), { count: stars }) : gettext("no King's Court star");
      return { token, ok: !reason, reason };
    });
  }

  /* What each order does, for a player who has not read the rules: March R146-R153, Defense R196,
     Support R199, Raid R134-R141, Consolidate Power R179-R182, special orders R116-R117. */
  const ORDER_HELP = {
    march: gettext("Move this area's units into adjacent areas. Moving into an area another house holds starts a battle, and the number is added to your strength there."),
    defense: gettext("If this area is attacked, the number is added to your strength."),
    support: gettext("Your units here add their strength to a battle in an adjacent area, on the side you choose."),
    raid: gettext("Removes an adjacent enemy Support, Raid or Consolidate Power order; raiding a Consolidate Power order takes a Power token from that house."),
    consolidate: gettext("Gain one Power token, plus one for each crown printed in this area."),
  };
  const SPECIAL_HELP = {
    support: gettext("The special Support also adds 1 to the strength it gives."),
    raid: gettext("The special Raid can also remove a Defense order."),
    consolidate: gettext("The special Consolidate Power may instead muster units in this area if it has a castle or stronghold."),
  };
  const ORDER_KIND = { march: pgettext("agot order", "March"), defense: pgettext("agot order", "Defense"), support: pgettext("agot order", "Support"),
    raid: pgettext("agot order", "Raid"), consolidate: pgettext("agot order", "Consolidate Power") };
  function orderHelp(token) {
    const kind = KINDS.find((k) => token.startsWith(k));
    return [ORDER_HELP[kind], token.endsWith("*") ? (SPECIAL_HELP[kind] || "") : ""].filter(Boolean).join(" ");
  }
  function orderGuide() {
    return h("details", { class: "order-guide" }, h("summary", {}, gettext("What do the orders do?")),
      h("dl", {}, KINDS.flatMap((k) => [h("dt", {}, k === "consolidate" ? gettext("Consolidate power") : ORDER_KIND[k]), h("dd", {}, ORDER_HELP[k], SPECIAL_HELP[k] ? " " + SPECIAL_HELP[k] : "")])),
      h("p", {}, gettext("★ marks a special order: you may place as many as the stars beside your place on the King's Court track.")));
  }

  function placeOrdersPanel() {
    draft = draft || { orders: {} };
    draft.orders = draft.orders || {};
    const areas = myAreas();
    if (!draft.area) draft.area = areas.find((a) => !draft.orders[a]) || areas[0];
    const rows = areas.map((a) => h("li", { class: a === draft.area ? "selected" : "" },
      h("button", { type: "button", class: "link area-pick", "data-area": a, "aria-pressed": a === draft.area ? "true" : "false",
        onclick: () => { draft.area = a; render(); } }, nameOf(a)),
      " ", draft.orders[a] ? h("span", { class: "chosen" }, W.tokenName(draft.orders[a])) : h("span", { class: "empty" }, gettext("no order"))));
    const palette = h("div", { class: "tokens", role: "group", "aria-label": fmt(gettext("Order for %(area)s"), { area: nameOf(draft.area) }) },
      tokenChoices(draft.area).map((c) => h("button", {
        type: "button", class: "token" + (draft.orders[draft.area] === c.token ? " chosen" : ""), disabled: !c.ok,
        "data-token": c.token, title: c.reason || `${W.tokenName(c.token)}: ${orderHelp(c.token)}`, "aria-label": W.tokenName(c.token) + (c.reason ? ": " + c.reason : ""),
        onclick: () => { draft.orders[draft.area] = c.token; draft.last = draft.area; draft.area = areas.find((a) => !draft.orders[a]) || draft.area; render(); },
      }, W.tokenText(c.token), h("span", { class: "token-name" }, W.tokenName(c.token, true)),
      c.reason ? h("small", {}, c.reason) : null)));
    const left = areas.filter((a) => !draft.orders[a]).length;
    // what the order chosen here (or the one just placed) does; each button's tooltip says it too
    const helpFor = draft.orders[draft.area] ? draft.area : draft.last && draft.orders[draft.last] ? draft.last : null;
    const help = h("p", { class: "order-help", id: "order-help", "aria-live": "polite" }, helpFor
      ? [h("strong", {}, fmt(gettext("%(what)s in %(area)s"), { what: W.tokenName(draft.orders[helpFor]), area: nameOf(helpFor) }) + ": "), orderHelp(draft.orders[helpFor])]
      : gettext("Pick an order for this area."));
    return h("div", {},
      h("p", {}, gettext("Click one of your areas on the board (or in the list), then pick its order.")),
      h("ul", { class: "order-list" }, rows),
      h("p", {}, h("strong", {}, nameOf(draft.area))), palette,
      help,
      orderGuide(),
      h("p", {}, h("button", { type: "button", id: "submit-orders", onclick: () => send({ place_orders: draft.orders }) },
        left ? fmt(ngettext("Place orders (%(count)s area still without one)", "Place orders (%(count)s areas still without one)", left), { count: left }) : gettext("Place orders")),
        " ", h("button", { type: "button", class: "secondary", onclick: () => { draft = { orders: {} }; render(); } }, gettext("Clear"))));
  }

  /* March (R146-R163): the origin, then its units (ticked here or clicked on the board; a lone unit
     is picked already), then a destination (clicked on the board or chosen in the list, which holds
     only the areas those units may reach). The draft keeps each unit by its place in the origin's
     list: {from, assign: {index: area}, picked: [index], leave}. */
  function startMarch(area) {
    showError("");
    draft = { from: area, assign: {}, picked: [] };
    const free = marchPool().free;
    if (free.length === 1) draft.picked = free.slice();   // a lone unit: nothing else to pick
  }
  function marchUnits() { return (game.view.units[draft.from] || {})[SEAT] || []; }
  function marchMoves() {
    const units = marchUnits(), moves = {};
    for (const [i, a] of Object.entries(draft.assign || {})) (moves[a] = moves[a] || []).push(units[i]);
    return moves;
  }
  /* The origin's units that may still move (not routed, R162, and with no destination yet) and the
     picked ones, by their place in the origin's list. */
  function marchPool() {
    const units = marchUnits();
    const free = units.map((u, i) => i).filter((i) => !units[i].startsWith("routed_") && !(i in (draft.assign || {})));
    return { units, free, chosen: (draft.picked || []).filter((i) => free.includes(i)) };
  }
  /* Where `list` (unit names; default: the picked units, or with none picked any free unit) may go:
     board.js marchTargets (adjacency, ship transport, ports, impassable areas), without a second
     area that starts a combat (R150). */
  function marchTargets(list) {
    const { units, free, chosen } = marchPool();
    let out;
    if (list || chosen.length) out = W.marchTargets(game.view, SEAT, draft.from, list || chosen.map((i) => units[i]));
    else {
      const pool = free.map((i) => units[i]);
      out = Object.assign({}, W.marchTargets(game.view, SEAT, draft.from, pool.filter((u) => u !== "ship")),
        W.marchTargets(game.view, SEAT, draft.from, pool.filter((u) => u === "ship")));
    }
    const battle = Object.keys(marchMoves()).find((a) => W.isCombatArea(game.view, SEAT, a));
    if (battle) for (const a of Object.keys(out)) if (a !== battle && W.isCombatArea(game.view, SEAT, a)) delete out[a];
    return out;
  }
  /* Does this march leave its origin empty, and would the house lose it (R154): a land area with a
     castle or stronghold, not its home (R172), holding no power token of its own (R166)? */
  function marchVacates() {
    const n = Object.keys(draft.assign || {}).length;
    return n > 0 && n === marchUnits().length;
  }
  function canLeaveToken() {
    const a = W.board().areas[draft.from], v = game.view;
    return a.type === "land" && W.homeOf(v, draft.from) !== SEAT && (v.power_tokens || {})[draft.from] !== SEAT;
  }
  function destLabel(a) {
    const nf = (game.view.neutral_forces || {})[a];
    const enemies = Object.entries((game.view.units || {})[a] || {}).filter(([h2, us]) => h2 !== SEAT && us.length).map(([h2]) => cap(h2));
    return nameOf(a) + (enemies.length ? " " + fmt(gettext("(battle against %(houses)s)"), { houses: enemies.join(", ") })
      : nf !== undefined && nf !== null && nf !== "impassable" ? " " + fmt(gettext("(neutral force %(strength)s)"), { strength: nf })
        : W.isCombatArea(game.view, SEAT, a) ? " " + gettext("(battle against the garrison)") : "");
  }
  function unitWord(u) { return W.inWords(u); }
  function wordList(items) { return listOf(items); }

  /* Supply (R64-R66, R161): an army is 2 or more units of one house in one area (ports included);
     the supply track's level gives how many armies and how large (board data supply_limits, the
     table of agot_board.md 3.3). A march that would break it is refused here, in words, before it is
     sent. `extra`: {area: [units]} about to be added to the draft's moves. */
  function marchSupplyProblem(extra) {
    const v = game.view, counts = {};
    for (const [a, by] of Object.entries(v.units || {})) { const n = ((by || {})[SEAT] || []).length; if (n) counts[a] = n; }
    const moves = marchMoves();
    for (const [a, us] of Object.entries(extra)) moves[a] = (moves[a] || []).concat(us);
    let moving = 0;
    for (const [a, us] of Object.entries(moves)) { counts[a] = (counts[a] || 0) + us.length; moving += us.length; }
    counts[draft.from] = (counts[draft.from] || 0) - moving;
    const armies = Object.entries(counts).filter(([, n]) => n >= 2).sort((x, y) => y[1] - x[1] || nameOf(x[0]).localeCompare(nameOf(y[0])));
    const level = (v.supply || {})[SEAT];
    const slots = ((W.board().supply_limits || {})[level] || []).slice().sort((x, y) => y - x);
    if (level === undefined || !slots.length) return null;
    const fits = armies.length <= slots.length && armies.every(([, n], i) => n <= slots[i]);
    if (fits) return null;
    const allowed = fmt(ngettext("at supply level %(level)s (the supply track) you may have %(count)s army, of at most %(sizes)s units",
      "at supply level %(level)s (the supply track) you may have %(count)s armies, of at most %(sizes)s units", slots.length), { level, count: slots.length, sizes: wordList(slots.map(String)) });
    const after = wordList(armies.map(([a, n]) => fmt(gettext("%(what)s in %(area)s"), { what: n, area: nameOf(a) })));
    return fmt(gettext("it would break your supply limit: %(allowed)s, and after this move your armies would be %(after)s (an army is two or more units in one area)"), { allowed, after });
  }

  /* A neutral force (R280-R281): the units marching in with the March order's bonus must at least
     equal its strength; Support orders next to it may add more (R214), the Valyrian Steel Blade and
     house cards never count. {text, short, refuse}: `refuse` when even every adjacent Support order
     cannot make up the difference (the server refuses that march, A14). */
  function unitStrength(u, castle) {
    if (u.startsWith("routed_")) return 0;
    return u === "knight" ? 2 : u === "siege_engine" ? (castle ? 4 : 0) : 1;
  }
  function orderBonus(token) { const m = /([+-]\d)/.exec(token || ""); return m ? parseInt(m[1], 10) : 0; }
  function neutralCheck(area, list) {
    const v = game.view, nf = (v.neutral_forces || {})[area];
    if (typeof nf !== "number" || Object.entries((v.units || {})[area] || {}).some(([h2, us]) => h2 !== SEAT && us.length)) return null;
    const B = W.board().areas, castle = (B[area].structure || "none") !== "none";
    const units = list.reduce((n, u) => n + unitStrength(u, castle), 0);
    const token = (v.orders[draft.from] || {}).token, bonus = orderBonus(token);
    const bring = units + bonus;
    const supporters = [];
    let support = 0;
    for (const s of B[area].adjacent) {
      const o = v.orders[s];
      if (!o || !o.token.startsWith("support")) continue;
      if (B[s].type === "port" && B[area].type !== "sea") continue;
      let us = ((v.units[s] || {})[o.house]) || [];
      if (B[area].type === "sea") us = us.filter((u) => u.replace(/^routed_/, "") === "ship");
      const n = us.reduce((k, u) => k + unitStrength(u, castle), 0) + orderBonus(o.token);
      if (n > 0) { support += n; supporters.push(`${nameOf(s)} (${cap(o.house)}, +${n})`); }
    }
    const what = wordList(list.map(unitWord));
    const sum = fmt(ngettext("Your %(units)s brings %(strength)s (units %(value)s, March order %(bonus)s)", "Your %(units)s bring %(strength)s (units %(value)s, March order %(bonus)s)", list.length),
      { units: what, strength: bring, value: units, bonus: `${bonus >= 0 ? "+" : ""}${bonus}` });
    const head = fmt(gettext("The neutral force in %(area)s has strength %(strength)s; to take the area you need at least %(strength)s."), { area: nameOf(area), strength: nf }) + " " + sum;
    if (bring >= nf) return { text: fmt(gettext("%(head)s: enough."), { head }), short: 0, refuse: false };
    const short = nf - bring;
    if (bring + support >= nf) {
      return { text: fmt(gettext("%(head)s: %(short)s short. Support may add more: the Support orders next to it, %(orders)s, can add up to %(support)s if their houses support you once you march."),
        { head, short, orders: wordList(supporters), support }), short, refuse: false };
    }
    return { text: support ? fmt(gettext("%(head)s: %(short)s short, and even every Support order next to it (%(orders)s) adds only %(support)s."), { head, short, orders: wordList(supporters), support })
      : fmt(gettext("%(head)s: %(short)s short, and no Support order next to it can add more."), { head, short }), short, refuse: true };
  }

  function marchPanel() {
    const v = game.view;
    const mine = Object.entries(v.orders).filter(([, o]) => o.house === SEAT && o.token.startsWith("march")).map(([a]) => a).sort();
    if (!draft || !draft.from) {
      return h("div", {}, h("p", {}, gettext("Choose the March order to resolve (click it on the board or here):")),
        h("div", { class: "choices" }, mine.map((a) => h("button", { type: "button", class: "choice", "data-from": a, onclick: () => { startMarch(a); render(); } },
          `${nameOf(a)} (${W.tokenName(v.orders[a].token)})`))));
    }
    const { units, free } = marchPool();
    const moves = marchMoves();
    const assigned = Object.keys(draft.assign).length;
    const select = h("select", { id: "march-dest", "aria-label": gettext("Destination") });
    const pickedNote = h("span", { class: "hint", id: "march-picked" });
    // what the picked units bring against a neutral force in the chosen destination, before moving
    const strengthNote = h("p", { class: "hint march-strength", id: "march-strength", "aria-live": "polite", hidden: true });
    const preview = () => {
      const { units: us, chosen } = marchPool();
      const check = select.value && chosen.length ? neutralCheck(select.value, (marchMoves()[select.value] || []).concat(chosen.map((i) => us[i]))) : null;
      strengthNote.hidden = !check;
      strengthNote.className = "march-strength " + (check && check.refuse ? "warning" : "hint");
      strengthNote.textContent = check ? check.text : "";
    };
    select.onchange = preview;
    const fillDest = () => {
      const adj = Object.keys(marchTargets()).sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
      const n = marchPool().chosen.length;
      const keep = select.value;
      select.replaceChildren(h("option", { value: "" }, adj.length ? gettext("— destination —") : gettext("— no destination —")), ...adj.map((a) => h("option", { value: a }, destLabel(a))));
      if (adj.includes(keep)) select.value = keep;
      pickedNote.textContent = n ? fmt(ngettext("%(count)s unit picked.", "%(count)s units picked.", n), { count: n }) : gettext("No unit picked: the list shows where any of them may go.");
      preview();
    };
    fillDest();
    const boxes = units.map((u, i) => {
      if (u.startsWith("routed_")) return h("span", { class: "unit-pick routed" }, fmt(gettext("%(unit)s (cannot move)"), { unit: unitWord(u) }));
      if (!free.includes(i)) return null;
      return h("label", { class: "unit-pick" }, h("input", { type: "checkbox", "data-unit": u, "data-index": i, checked: draft.picked.includes(i),
        onchange: (e) => {
          draft.picked = draft.picked.filter((x) => x !== i).concat(e.target.checked ? [i] : []);
          renderBoard(); fillDest();   // the panel stays: the destinations and the board follow the picks
        } }), " ", unitWord(u));
    }).filter(Boolean);
    const vacates = marchVacates(), leaveOk = vacates && canLeaveToken();
    const area = W.board().areas[draft.from];
    const leave = h("input", { type: "checkbox", id: "leave-token", checked: !!draft.leave, disabled: !(v.power[SEAT] > 0),
      onchange: (e) => { draft.leave = e.target.checked; render(); } });
    // R154: leaving a castle or stronghold empty without a power token loses it (and its victory point)
    const warn = leaveOk && !draft.leave && area.structure !== "none"
      ? h("p", { class: "warning", id: "march-warning", role: "alert" },
        fmt(area.structure === "stronghold" ? gettext("%(area)s will be left empty: without a power token there you lose control of its stronghold, and it no longer counts for your victory.")
          : gettext("%(area)s will be left empty: without a power token there you lose control of its castle, and it no longer counts for your victory."), { area: nameOf(draft.from) }),
        " ", v.power[SEAT] > 0 ? gettext("Tick \u201cleave a power token\u201d to keep it.") : gettext("You have no power token available to keep it."))
      : null;
    return h("div", {},
      h("p", {}, fmt(gettext("March from %(area)s (%(order)s). Pick units (tick them, or click them on the board), then click a destination on the board or choose it here."), { area: nameOf(draft.from), order: W.tokenName(v.orders[draft.from].token) })),
      h("div", { class: "march-units" }, boxes.length ? boxes : h("em", {}, gettext("every unit has a destination")), " ", free.length ? pickedNote : null),
      free.length ? h("p", {}, select, " ", h("button", { type: "button", id: "march-assign", onclick: () => { if (select.value) assignPicked(select.value); } }, gettext("Move the picked units there"))) : null,
      free.length ? strengthNote : null,
      h("ul", { class: "march-moves" }, Object.entries(moves).map(([a, us]) => {
        const check = neutralCheck(a, us);
        return h("li", {}, `${us.map(unitWord).join(", ")} → ${destLabel(a)}`, check ? h("small", { class: "march-neutral" }, h("br"), check.text) : null);
      })),
      assigned ? h("p", {}, h("button", { type: "button", class: "link", id: "march-undo", onclick: () => { draft.assign = {}; draft.picked = []; draft.leave = false; render(); } }, gettext("Undo the moves"))) : null,
      leaveOk ? h("p", {}, h("label", {}, leave, " " + fmt(gettext("leave a power token in %(area)s to keep control of it (%(count)s available)"), { area: nameOf(draft.from), count: v.power[SEAT] }))) : null,
      warn,
      h("p", { class: "march-buttons" },
        h("button", { type: "button", id: "march-submit", disabled: !assigned, title: assigned ? "" : gettext("give at least one unit a destination first"),
          onclick: () => send({ march: { from: draft.from, moves, leave_power_token: leaveOk && !!draft.leave } }) }, pgettext("agot order", "March")), " ",
        h("button", { type: "button", class: "secondary", id: "march-remove", onclick: () => send({ march: { from: draft.from, moves: {}, leave_power_token: false } }) }, gettext("Remove the order without moving")), " ",
        h("button", { type: "button", class: "secondary", onclick: () => { draft = null; render(); } }, gettext("Back"))));
  }

  /* "Your knight cannot march from Winterfell to Karhold: <why>" (the why ends the sentence). */
  function cannotMarch(units, area, why) {
    return fmt(gettext("Your %(units)s cannot march from %(from)s to %(area)s: %(why)s"), { units, from: nameOf(draft.from), area: nameOf(area), why });
  }
  function assignPicked(area) {
    const { units, chosen } = marchPool();
    if (!chosen.length) { showError(gettext("Pick the units to move first: tick them or click them on the board.")); return; }
    const list = chosen.map((i) => units[i]);
    if (!marchTargets(list)[area]) {
      const what = list.map(unitWord).join(", ");
      const ships = list.includes("ship"), land = list.some((u) => u !== "ship");
      const battle = Object.keys(marchMoves()).find((a) => W.isCombatArea(game.view, SEAT, a));
      const places = { area: nameOf(area), from: nameOf(draft.from), battle: battle ? nameOf(battle) : "" };
      const why = ships && land ? gettext("ships and land units cannot march to the same area")
        : (game.view.neutral_forces || {})[area] === "impassable" ? fmt(gettext("%(area)s is impassable"), places)
          : battle && W.isCombatArea(game.view, SEAT, area) && W.marchTargets(game.view, SEAT, draft.from, list)[area] ? fmt(gettext("one March starts at most one battle, and this one already goes to %(battle)s"), places)
            : ships ? fmt(gettext("ships go only to an adjacent sea or one of your ports, and %(area)s is not one next to %(from)s"), places)
              : fmt(gettext("%(area)s is not next to %(from)s and no chain of seas holding your ships reaches it"), places);
      showError(cannotMarch(what, area, why + "."));
      return;
    }
    // R280-R281 (A14): a neutral force out of reach even with every possible support
    const neutral = neutralCheck(area, (marchMoves()[area] || []).concat(list));
    if (neutral && neutral.refuse) {
      showError(cannotMarch(list.map(unitWord).join(", "), area, neutral.text));
      return;
    }
    // R161, R66(d): never past the supply limit
    const supplyWhy = marchSupplyProblem({ [area]: list });
    if (supplyWhy) {
      showError(cannotMarch(list.map(unitWord).join(", "), area, supplyWhy + "."));
      return;
    }
    showError("");
    for (const i of chosen) draft.assign[i] = area;
    draft.picked = [];
    render();
  }

  /* A click on the march's origin: on one of its units, pick or unpick it; elsewhere in the area,
     pick every free unit (or unpick them all when they are all picked). */
  function pickOnBoard(piece) {
    const { free, chosen } = marchPool();
    if (piece && piece.house === SEAT) {
      if (!free.includes(piece.index)) {
        const u = marchUnits()[piece.index] || "";
        showError(u.startsWith("routed_") ? gettext("Routed units cannot move.") : fmt(gettext("That %(unit)s has a destination already: undo the moves to change it."), { unit: unitWord(u) }));
        return;
      }
      draft.picked = chosen.includes(piece.index) ? chosen.filter((x) => x !== piece.index) : chosen.concat([piece.index]);
    } else draft.picked = chosen.length === free.length ? [] : free.slice();
    showError("");
    render();
  }

  // ------------------------------------------------------------------ chat (static/js/chat.js)

  const chat = window.WesterosChat.setup({ q, seat: SEAT, seatName: cap, showError });

  // ------------------------------------------------------------------ clock and live updates


  function connect() {
    window.WesterosClient.connectLive({
      path: root.dataset.ws, invite: INVITE, status: $("conn"), version: () => version, load,
      onChat: chat.addMessage,
      onPresence: (connected) => {
        if (!game) return;
        for (const s of game.seats) s.connected = !!s.user && (connected.includes(s.user) || connected.includes("seat:" + s.seat));  // anonymous players: by seat
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
    const home = SEAT && Object.entries(W.board().areas).find(([id]) => W.homeOf(game && game.view, id) === SEAT);
    if (home && svg.getBoundingClientRect().width < 600) view.focus(home[1].center[0], home[1].center[1], 360);
    connect(); chat.load();
  });
  window.__westerosGame = { load, send, state: () => game, view: () => view };
})();
