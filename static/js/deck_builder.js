/* The card game's deck builder (templates/web/deck_builder.html, issue 30). The cards come from the page
   (json_script "deck-cards", in the reader's language); the deck is judged by the server as it is built
   (POST /api/v1/decks/validate: legal or why not, in words), and saved, renamed, copied, deleted, imported and
   exported through /api/v1/decks. Every word shown is the server's or goes through gettext. */
(function () {
  "use strict";
  const root = document.getElementById("deck-builder");
  if (!root) return;
  const CARDS = JSON.parse(document.getElementById("deck-cards").textContent);
  const WORDS = JSON.parse(document.getElementById("deck-words").textContent);
  const LOGGED_IN = root.dataset.loggedIn === "1";
  const DRAW_TYPES = ["character", "location", "attachment", "event"];
  const $ = (id) => document.getElementById(id);
  // the catalogue of the page's language (base.html loads it); English without it
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const fmt = (text, obj) => text.replace(/%\((\w+)\)s/g, (_, k) => String(obj[k]));

  const { h, csrf } = window.WesterosClient;   // gameclient.js

  async function api(method, url, payload) {
    const headers = { Accept: "application/json" };
    if (method !== "GET") headers["X-CSRFToken"] = csrf();
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    let r;
    try {
      r = await fetch(url, { method, credentials: "same-origin", headers,
                             body: payload === undefined ? undefined : JSON.stringify(payload) });
    } catch (e) {
      return { ok: false, status: 0, body: null, reason: gettext("The site could not be reached: check your connection and try again.") };
    }
    const body = r.status === 204 ? null : await r.json().catch(() => null);
    let reason = "";
    if (!r.ok) {
      const fields = body && body.fields ? Object.values(body.fields).flat().join(" ") : "";
      reason = fields || (body && body.detail) || fmt(gettext("The server refused (%(status)s)."), { status: r.status });
    }
    return { ok: r.ok, status: r.status, body, reason };
  }

  // ------------------------------------------------------------------ the deck being built
  const deck = { id: null, name: "", faction: "targaryen", agenda: "", plots: [], draw: [] };
  let lastReport = null;

  const names = (id) => (CARDS[id] ? CARDS[id].name : id);
  const count = (list, id) => list.filter((c) => c === id).length;
  const sortByName = (a, b) => names(a).localeCompare(names(b));

  function setDeck(d) {
    deck.id = d.id || null;
    deck.name = d.name || "";
    deck.faction = d.faction || "targaryen";
    deck.agenda = d.agenda || "";
    deck.plots = [...(d.plots || [])];
    deck.draw = [...(d.draw || [])];
    $("deck-name").value = deck.name;
    $("deck-faction").value = deck.faction;
    $("deck-agenda").value = deck.agenda;
    $("deck-delete").hidden = !deck.id;
    $("deck-saved").textContent = deck.id ? fmt(gettext("Editing your saved deck “%(name)s”."), { name: deck.name }) : "";
    changed();
  }

  function add(id, n) {
    const card = CARDS[id];
    if (!card) return;
    if (card.type === "agenda") { deck.agenda = n > 0 ? id : ""; $("deck-agenda").value = deck.agenda; changed(); return; }
    const list = card.type === "plot" ? deck.plots : deck.draw;
    if (n > 0) list.push(id);
    else { const i = list.lastIndexOf(id); if (i >= 0) list.splice(i, 1); }
    changed();
  }

  // ------------------------------------------------------------------ validation as you build
  let timer = null, asked = 0;
  function changed() {
    renderContents();
    renderPool();
    clearTimeout(timer);
    timer = setTimeout(validate, 250);
  }

  async function validate() {
    const mine = ++asked;
    const r = await api("POST", "/api/v1/decks/validate", { name: deck.name, faction: deck.faction,
      agenda: deck.agenda || null, plots: deck.plots, draw: deck.draw });
    if (mine !== asked) return;  // a newer change is being judged
    if (!r.ok) { renderStatus(null, r.reason); return; }
    lastReport = r.body;
    renderStatus(r.body);
    $("deck-export-text").value = r.body.text;
  }

  function renderStatus(report, error) {
    const box = $("deck-status");
    box.replaceChildren();
    if (!report) { box.className = "deck-status bad"; box.append(h("p", {}, error)); return; }
    box.className = "deck-status " + (report.legal ? (report.playable ? "good" : "warn") : "bad");
    if (report.legal) box.append(h("p", { class: "verdict" }, gettext("This deck follows the deck-building rules.")));
    else {
      box.append(h("p", { class: "verdict" }, gettext("This deck is not legal yet:")));
      box.append(h("ul", { class: "problems" }, report.problems.map((p) => h("li", {}, p.text))));
    }
    if (!report.playable) box.append(h("p", { class: "unplayable" }, report.unplayable_text + " " +
      gettext("You may save the deck now; it can be brought to a game once the site plays all of its cards.")));
    else if (report.legal) box.append(h("p", {}, gettext("You can bring it to a lobby, a challenge or a game against the computer once it is saved.")));
    renderCounts(report.counts);
  }

  function fill(n) {  // the bar's height through the CSSOM (the site's CSP forbids style attributes)
    const node = h("span", { class: "fill" });
    node.style.height = `${Math.min(100, n * 5)}%`;
    return node;
  }

  function renderCounts(counts) {
    const box = $("deck-counts");
    box.replaceChildren(
      h("p", {}, fmt(gettext("Plots: %(plots)s of 7 · Draw deck: %(draw)s (60 or more)"), counts)),
      h("p", {}, DRAW_TYPES.map((type) => `${WORDS.types[type]}: ${counts.by_type[type] || 0}`).join(" · ")),
      h("div", { class: "cost-curve", role: "img", "aria-label": gettext("Draw cards by cost") },
        Object.entries(counts.by_cost).map(([cost, n]) =>
          h("span", { class: "bar", title: fmt(gettext("cost %(cost)s: %(count)s"), { cost, count: n }) },
            fill(n),
            h("span", { class: "n" }, String(n)), h("span", { class: "c" }, fmt(gettext("cost %(cost)s"), { cost })))))
    );
  }

  // ------------------------------------------------------------------ the deck's contents
  function row(id, n) {
    const card = CARDS[id];
    return h("li", {},
      h("button", { type: "button", class: "qty minus", "aria-label": fmt(gettext("One copy of %(name)s fewer"), { name: card.name }),
                    onclick: () => add(id, -1) }, "−"),
      h("span", { class: "n" }, `${n}×`),
      h("button", { type: "button", class: "qty plus", "aria-label": fmt(gettext("One more copy of %(name)s"), { name: card.name }),
                    onclick: () => add(id, 1) }, "+"),
      h("span", { class: `name faction-${card.faction}` }, card.name),
      card.cost !== undefined ? h("span", { class: "meta" }, fmt(gettext("cost %(cost)s"), { cost: card.cost })) : null);
  }

  function renderContents() {
    const box = $("deck-contents");
    box.replaceChildren();
    const groups = [["plot", deck.plots], ...DRAW_TYPES.map((type) => [type, deck.draw.filter((c) => CARDS[c] && CARDS[c].type === type)])];
    for (const [type, list] of groups) {
      if (!list.length) continue;
      const ids = [...new Set(list)].sort(sortByName);
      box.append(h("section", { class: "group" }, h("h3", {}, `${WORDS.types[type]} (${list.length})`),
        h("ul", {}, ids.map((id) => row(id, count(list, id))))));
    }
    if (!deck.plots.length && !deck.draw.length) box.append(h("p", { class: "empty" }, gettext("No card yet: add cards from the list below, or start from a ready-made deck.")));
  }

  // ------------------------------------------------------------------ the card pool
  function matches(id, card) {
    const f = $("filter-faction").value, type = $("filter-type").value, cost = $("filter-cost").value;
    const trait = $("filter-trait").value.trim().toLowerCase(), text = $("filter-text").value.trim().toLowerCase();
    if (card.type === "agenda") return false;
    if (f === "" && card.faction !== deck.faction && card.faction !== "neutral") return false;
    if (f !== "" && f !== "*" && card.faction !== f) return false;
    if (type && card.type !== type) return false;
    if (cost) {
      if (card.cost === undefined) return false;
      if (cost === "8+" ? !(Number(card.cost) >= 8) : String(card.cost) !== cost) return false;
    }
    if (trait && !card.traits.some((x) => x.toLowerCase().includes(trait))) return false;
    if (text && !(card.name.toLowerCase().includes(text) || (card.text || "").toLowerCase().includes(text))) return false;
    return true;
  }

  // a text's marks in words: "[military]" is the Military icon, "[stark]" House Stark
  const marked = (text) => text.replace(/\[(\w+)\]/g, (m, k) => (WORDS.icons[k] ? `«${WORDS.icons[k]}»` : WORDS.factions[k] || m));

  function poolItem(id, card) {
    const list = card.type === "plot" ? deck.plots : deck.draw;
    const n = count(list, id);
    const facts = [WORDS.types[card.type], WORDS.factions[card.faction]];
    if (card.loyal) facts.push(gettext("loyal"));
    if (card.cost !== undefined) facts.push(fmt(gettext("cost %(cost)s"), { cost: card.cost }));
    if (card.strength !== undefined) facts.push(fmt(gettext("STR %(str)s"), { str: card.strength }));
    if (card.icons && card.icons.length) facts.push(card.icons.map((i) => WORDS.icons[i]).join(", "));
    if (card.plot) facts.push(fmt(gettext("income %(income)s, initiative %(initiative)s, claim %(claim)s, reserve %(reserve)s"), card.plot));
    return h("li", { class: `pool-card faction-${card.faction}` },
      h("div", { class: "pool-head" },
        h("strong", {}, card.unique ? `◆ ${card.name}` : card.name),
        h("span", { class: "pool-qty" },
          h("button", { type: "button", class: "qty minus", disabled: n === 0,
                        "aria-label": fmt(gettext("One copy of %(name)s fewer"), { name: card.name }), onclick: () => add(id, -1) }, "−"),
          h("span", { class: "n", "aria-label": fmt(gettext("%(count)s in the deck"), { count: n }) }, String(n)),
          h("button", { type: "button", class: "qty plus", "aria-label": fmt(gettext("One more copy of %(name)s"), { name: card.name }),
                        onclick: () => add(id, 1) }, "+"))),
      h("div", { class: "facts" }, facts.join(" · ")),
      card.traits.length ? h("div", { class: "traits" }, card.traits.join(". ") + ".") : null,
      card.text ? h("div", { class: "text" }, marked(card.text)) : null);
  }

  function renderPool() {
    const ids = Object.keys(CARDS).filter((id) => matches(id, CARDS[id]));
    ids.sort((a, b) => (CARDS[a].type === CARDS[b].type ? sortByName(a, b)
      : ["plot", ...DRAW_TYPES].indexOf(CARDS[a].type) - ["plot", ...DRAW_TYPES].indexOf(CARDS[b].type)));
    $("pool").replaceChildren(...ids.map((id) => poolItem(id, CARDS[id])));
    $("pool-count").textContent = fmt(ngettext("%(count)s card shown", "%(count)s cards shown", ids.length),
      { count: ids.length });
  }

  // ------------------------------------------------------------------ deck lists: yours and ready-made
  async function loadLists() {
    const r = await api("GET", "/api/v1/decks");
    if (!r.ok) return;
    if ($("my-decks")) {
      const mine = r.body.decks;
      $("my-decks").replaceChildren(...(mine.length ? mine.map(myItem)
        : [h("li", { class: "empty" }, gettext("No saved deck yet."))]));
    }
    $("ready-decks").replaceChildren(...r.body.ready_made.map(readyItem));
  }

  function describe(d) {
    const bits = [d.faction_name];
    if (d.agenda_name) bits.push(d.agenda_name);
    const state = d.report.legal ? (d.report.playable ? gettext("legal, playable") : gettext("legal, not all of its cards are played yet"))
      : gettext("not legal yet");
    return `${bits.join(", ")} — ${state}`;
  }

  function myItem(d) {
    return h("li", {},
      h("span", { class: "deck-name" }, d.name), h("small", {}, describe(d)),
      h("span", { class: "deck-buttons" },
        h("button", { type: "button", class: "secondary", onclick: () => openDeck(d) }, gettext("Open")),
        h("button", { type: "button", class: "secondary", onclick: () => copyDeck(`/api/v1/decks/${d.id}/copy`) }, gettext("Copy")),
        h("button", { type: "button", class: "danger", onclick: () => removeDeck(d) }, gettext("Delete"))));
  }

  function readyItem(d) {
    return h("li", {},
      h("span", { class: "deck-name" }, d.name), h("small", {}, describe(d)),
      h("span", { class: "deck-buttons" },
        h("button", { type: "button", class: "secondary", onclick: () => openReady(d) }, gettext("Start from it")),
        LOGGED_IN ? h("button", { type: "button", class: "secondary", onclick: () => copyDeck(`/api/v1/decks/ready/${d.key}/copy`) },
          gettext("Save a copy")) : null));
  }

  function openDeck(d) { setDeck(d); $("builder-title").scrollIntoView({ behavior: "smooth" }); }
  function openReady(d) {
    setDeck({ ...d, id: null, name: fmt(gettext("%(name)s (my version)"), { name: d.name }) });
    $("deck-saved").textContent = fmt(gettext("A copy of “%(name)s”, not saved yet."), { name: d.name });
    $("builder-title").scrollIntoView({ behavior: "smooth" });
  }

  async function copyDeck(url) {
    const r = await api("POST", url);
    if (!r.ok) { $("deck-saved").textContent = r.reason; return; }
    await loadLists();
    openDeck(r.body);
    $("deck-saved").textContent = fmt(gettext("Saved a copy as “%(name)s”."), { name: r.body.name });
  }

  async function removeDeck(d) {
    if (!window.confirm(fmt(gettext("Delete the deck “%(name)s”? Games it played keep their copy."), { name: d.name }))) return;
    const r = await api("DELETE", `/api/v1/decks/${d.id}`);
    if (!r.ok) { $("deck-saved").textContent = r.reason; return; }
    if (deck.id === d.id) setDeck({ faction: deck.faction });
    $("deck-saved").textContent = fmt(gettext("The deck “%(name)s” was deleted."), { name: d.name });
    await loadLists();
  }

  // ------------------------------------------------------------------ save, import
  async function save(asNew) {
    if (!LOGGED_IN) { window.location.href = root.dataset.loginUrl; return; }
    const payload = { name: $("deck-name").value.trim(), faction: deck.faction, agenda: deck.agenda || null,
                      plots: deck.plots, draw: deck.draw };
    const r = deck.id && !asNew ? await api("PATCH", `/api/v1/decks/${deck.id}`, payload)
      : await api("POST", "/api/v1/decks", payload);
    if (!r.ok) { $("deck-saved").textContent = r.reason; return; }
    deck.id = r.body.id;
    deck.name = r.body.name;
    $("deck-delete").hidden = false;
    $("deck-saved").textContent = fmt(gettext("Saved as “%(name)s”."), { name: r.body.name });
    await loadLists();
  }

  async function importText() {
    const said = $("deck-import-said");
    const r = await api("POST", "/api/v1/decks/import", { text: $("deck-import-text").value, save: false });
    said.replaceChildren();
    if (!r.ok) { said.append(h("p", { class: "bad" }, r.reason)); return; }
    const parsed = r.body.parsed;
    setDeck({ ...parsed, id: null, name: parsed.name || gettext("Imported deck") });
    said.append(h("p", {}, gettext("The list was read into the builder; save it to keep it.")));
    if (r.body.unread.length) said.append(h("ul", { class: "problems" }, r.body.unread.map((x) => h("li", {}, x))));
  }

  // ------------------------------------------------------------------ wiring
  const agendas = Object.keys(CARDS).filter((id) => CARDS[id].type === "agenda").sort(sortByName);
  $("deck-agenda").append(...agendas.map((id) => h("option", { value: id }, CARDS[id].name)));
  $("deck-name").addEventListener("input", () => { deck.name = $("deck-name").value; clearTimeout(timer); timer = setTimeout(validate, 400); });
  $("deck-faction").addEventListener("change", () => { deck.faction = $("deck-faction").value; changed(); });
  $("deck-agenda").addEventListener("change", () => { deck.agenda = $("deck-agenda").value; changed(); });
  for (const id of ["filter-faction", "filter-type", "filter-cost"]) $(id).addEventListener("change", renderPool);
  for (const id of ["filter-trait", "filter-text"]) $(id).addEventListener("input", renderPool);
  $("deck-save").addEventListener("click", () => save(false));
  $("deck-save-new").addEventListener("click", () => save(true));
  $("deck-new").addEventListener("click", () => setDeck({ faction: deck.faction }));
  $("deck-delete").addEventListener("click", () => deck.id && removeDeck({ id: deck.id, name: deck.name }));
  $("deck-import").addEventListener("click", importText);
  setDeck({ faction: "targaryen", name: "" });
  loadLists();
})();
