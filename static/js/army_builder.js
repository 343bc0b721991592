/* The miniatures army builder (templates/web/army_builder.html, issue 33). The cards come from the page
   (json_script "army-cards", names in the reader's language); the army is judged by the server as it is built
   (POST /api/v1/armies/validate: points, the VP needed, legal or why not, in words), and saved, renamed, copied,
   deleted, imported and exported through /api/v1/armies. Every word shown is the server's or goes through
   gettext. */
(function () {
  "use strict";
  const root = document.getElementById("army-builder");
  if (!root) return;
  const CARDS = JSON.parse(document.getElementById("army-cards").textContent);
  const TACTICS = JSON.parse(document.getElementById("army-tactics-names").textContent);
  const WORDS = JSON.parse(document.getElementById("army-words").textContent);
  const LOGGED_IN = root.dataset.loggedIn === "1";
  const $ = (id) => document.getElementById(id);
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

  // ------------------------------------------------------------------ the army being built
  const army = { id: null, name: "", faction: "stark", game_size: 30, commander: "", units: [], ncus: [] };
  const names = (id) => (CARDS[id] ? CARDS[id].name : id);
  const cost = (id) => (CARDS[id] && CARDS[id].cost === "C" ? 0 : Number((CARDS[id] || {}).cost || 0));
  const costWords = (id) => (CARDS[id] && CARDS[id].cost === "C" ? gettext("Commander, 0 points")
    : fmt(ngettext("%(count)s point", "%(count)s points", cost(id)), { count: cost(id) }));
  const ofFaction = (id) => CARDS[id].faction === army.faction || CARDS[id].faction === "neutral";
  const byKind = (kind) => Object.keys(CARDS).filter((id) => CARDS[id].kind === kind && ofFaction(id))
    .sort((a, b) => names(a).localeCompare(names(b)));

  function setArmy(a) {
    army.id = a.id || null;
    army.name = a.name || "";
    army.faction = a.faction || "stark";
    army.game_size = a.game_size || 30;
    army.commander = a.commander || "";
    army.units = (a.units || []).map((u) => ({ unit: u.unit, attachment: u.attachment || "" }));
    army.ncus = [...(a.ncus || [])];
    $("army-name").value = army.name;
    $("army-faction").value = army.faction;
    $("army-size").value = army.game_size;
    $("army-delete").hidden = !army.id;
    $("army-saved").textContent = army.id ? fmt(gettext("Editing your saved army “%(name)s”."), { name: army.name }) : "";
    fillCommanders();
    changed();
  }

  function fillCommanders() {
    const sel = $("army-commander");
    sel.replaceChildren(h("option", { value: "" }, gettext("choose a Commander")),
      ...byKind("attachment").filter((id) => CARDS[id].commander).map((id) => h("option", { value: id }, names(id))));
    sel.value = army.commander;
  }

  // M6: the Commander rides with a unit of his type; choosing another moves him to the same unit, or to the
  // first free unit that takes him
  function setCommander(id) {
    const old = army.commander;
    army.commander = id;
    let placed = false;
    for (const u of army.units) {
      if (old && u.attachment === old) { u.attachment = id && takes(u.unit, id) ? id : ""; placed = u.attachment === id; }
    }
    if (id && !placed) {
      const free = army.units.find((u) => !u.attachment && takes(u.unit, id));
      if (free) free.attachment = id;
    }
    changed();
  }

  const takes = (unit, attachment) => CARDS[unit] && !CARDS[unit].solo && CARDS[attachment]
    && CARDS[attachment].attaches_to === CARDS[unit].type;

  function addUnit(id) {
    const u = { unit: id, attachment: "" };
    if (army.commander && !army.units.some((x) => x.attachment === army.commander) && takes(id, army.commander)) u.attachment = army.commander;
    army.units.push(u);
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

  const payload = () => ({ name: $("army-name").value.trim(), faction: army.faction, game_size: army.game_size,
    commander: army.commander || null,
    units: army.units.map((u) => (u.attachment ? { unit: u.unit, attachment: u.attachment } : { unit: u.unit })),
    ncus: army.ncus });

  async function validate() {
    const mine = ++asked;
    const r = await api("POST", "/api/v1/armies/validate", payload());
    if (mine !== asked) return;  // a newer change is being judged
    if (!r.ok) { renderStatus(null, r.reason); return; }
    renderStatus(r.body);
    $("army-export-text").value = r.body.text;
  }

  function renderStatus(report, error) {
    const box = $("army-status");
    box.replaceChildren();
    if (!report) { box.className = "deck-status bad"; box.append(h("p", {}, error)); return; }
    box.className = "deck-status " + (report.legal ? (report.playable ? "good" : "warn") : "bad");
    box.append(h("p", { class: "points-line" }, fmt(gettext("%(points)s of %(size)s points · %(vp)s victory points win a game of this size"),
      { points: report.points, size: report.game_size, vp: report.victory_points })));
    if (report.legal) box.append(h("p", { class: "verdict" }, gettext("This army follows the army-building rules.")));
    else {
      box.append(h("p", { class: "verdict" }, gettext("This army is not legal yet:")));
      box.append(h("ul", { class: "problems" }, report.problems.map((p) => h("li", {}, p.text))));
    }
    if (report.legal && !report.playable) {
      box.append(h("ul", { class: "unplayable" }, report.unplayable.map((p) => h("li", {}, p))));
      box.append(h("p", { class: "unplayable" }, gettext("You may save the army now; it can be brought to a game once the site fields all of it.")));
    } else if (report.legal) box.append(h("p", {}, gettext("You can bring it to a game of its size once it is saved.")));
    const counts = {};
    report.tactics.forEach((id) => { counts[id] = (counts[id] || 0) + 1; });
    $("army-tactics").textContent = report.tactics.length
      ? Object.entries(counts).map(([id, n]) => `${n}× ${TACTICS[id] || id}`).join(" · ")
      : gettext("The Tactics deck follows from the Commander: choose one.");
  }

  // ------------------------------------------------------------------ the army's contents
  function unitRow(u, i) {
    const card = CARDS[u.unit];
    const options = [h("option", { value: "" }, gettext("no attachment"))];
    if (!card.solo) {
      const fits = byKind("attachment").filter((id) => takes(u.unit, id) && (!CARDS[id].commander || id === army.commander));
      for (const id of fits) {
        const label = CARDS[id].commander ? fmt(gettext("%(name)s (Commander)"), { name: names(id) })
          : `${names(id)} (${cost(id)})`;
        options.push(h("option", { value: id }, label));
      }
    }
    const sel = h("select", { "aria-label": fmt(gettext("Attachment of %(unit)s"), { unit: card.name }),
                              onchange: (e) => { u.attachment = e.target.value; changed(); } }, options);
    sel.value = u.attachment || "";
    sel.disabled = card.solo;
    const pts = cost(u.unit) + (u.attachment ? cost(u.attachment) : 0);
    return h("li", { class: `faction-${card.faction}` },
      h("span", { class: "unit-name" }, card.name),
      h("span", { class: "pts" }, `${card.type_name} · ${fmt(ngettext("%(count)s point", "%(count)s points", pts), { count: pts })}`),
      sel,
      h("button", { type: "button", class: "qty minus", "aria-label": fmt(gettext("Remove %(name)s"), { name: card.name }),
                    onclick: () => { army.units.splice(i, 1); changed(); } }, "−"));
  }

  function renderContents() {
    const units = $("army-units");
    units.replaceChildren(...(army.units.length ? army.units.map(unitRow)
      : [h("li", { class: "empty" }, gettext("No combat unit yet: add units from the list below, or start from a starter army."))]));
    const ncus = $("army-ncus");
    ncus.replaceChildren(...(army.ncus.length ? army.ncus.map((id, i) => h("li", { class: `faction-${CARDS[id].faction}` },
      h("span", { class: "unit-name" }, names(id)), h("span", { class: "pts" }, costWords(id)),
      h("button", { type: "button", class: "qty minus", "aria-label": fmt(gettext("Remove %(name)s"), { name: names(id) }),
                    onclick: () => { army.ncus.splice(i, 1); changed(); } }, "−")))
      : [h("li", { class: "empty" }, gettext("No NCU."))]));
  }

  // ------------------------------------------------------------------ the pool of units and NCUs
  function poolItem(id) {
    const card = CARDS[id];
    const facts = [card.kind === "unit" ? card.type_name : gettext("NCU"), WORDS.factions[card.faction], costWords(id)];
    if (card.kind === "unit") facts.push(fmt(gettext("speed %(speed)s, defense %(defense)s+, morale %(morale)s+"), card));
    const inArmy = card.kind === "unit" ? army.units.filter((u) => u.unit === id).length : army.ncus.filter((n) => n === id).length;
    return h("li", { class: `pool-card faction-${card.faction}` },
      h("div", { class: "pool-head" },
        h("strong", {}, card.character ? `◆ ${card.name}` : card.name),
        inArmy ? h("span", { class: "n" }, fmt(gettext("%(count)s in the army"), { count: inArmy })) : null),
      h("div", { class: "facts" }, facts.join(" · ")),
      card.abilities.length ? h("div", { class: "traits" }, card.abilities.join(" · ")) : null,
      h("button", { type: "button", class: "secondary add",
                    onclick: () => { if (card.kind === "unit") addUnit(id); else { army.ncus.push(id); changed(); } } },
        fmt(gettext("Add %(name)s"), { name: card.name })));
  }

  function renderPool() {
    $("army-pool").replaceChildren(...[...byKind("unit"), ...byKind("ncu")].map(poolItem));
  }

  // ------------------------------------------------------------------ lists: yours and the starter armies
  async function loadLists() {
    const r = await api("GET", "/api/v1/armies");
    if (!r.ok) return;
    if ($("my-armies")) {
      const mine = r.body.armies;
      $("my-armies").replaceChildren(...(mine.length ? mine.map(myItem)
        : [h("li", { class: "empty" }, gettext("No saved army yet."))]));
    }
    $("starter-armies").replaceChildren(...r.body.starter.map(starterItem));
  }

  function describe(a) {
    const state = a.report.legal ? (a.report.playable ? gettext("legal, playable") : gettext("legal, not fielded by the site yet"))
      : gettext("not legal yet");
    return `${a.summary} — ${state}`;
  }

  function myItem(a) {
    return h("li", {},
      h("span", { class: "deck-name" }, a.name), h("small", {}, describe(a)),
      h("span", { class: "deck-buttons" },
        h("button", { type: "button", class: "secondary", onclick: () => openArmy(a) }, gettext("Open")),
        h("button", { type: "button", class: "secondary", onclick: () => copyArmy(`/api/v1/armies/${a.id}/copy`) }, gettext("Copy")),
        h("button", { type: "button", class: "danger", onclick: () => removeArmy(a) }, gettext("Delete"))));
  }

  function starterItem(a) {
    return h("li", {},
      h("span", { class: "deck-name" }, a.name), h("small", {}, describe(a)),
      h("span", { class: "deck-buttons" },
        h("button", { type: "button", class: "secondary", onclick: () => openStarter(a) }, gettext("Start from it")),
        LOGGED_IN ? h("button", { type: "button", class: "secondary", onclick: () => copyArmy(`/api/v1/armies/starter/${a.key}/copy`) },
          gettext("Save a copy")) : null));
  }

  function openArmy(a) { setArmy(a); $("builder-title").scrollIntoView({ behavior: "smooth" }); }
  function openStarter(a) {
    setArmy({ ...a, id: null, name: fmt(gettext("%(name)s (my version)"), { name: a.name }) });
    $("army-saved").textContent = fmt(gettext("A copy of “%(name)s”, not saved yet."), { name: a.name });
    $("builder-title").scrollIntoView({ behavior: "smooth" });
  }

  async function copyArmy(url) {
    const r = await api("POST", url);
    if (!r.ok) { $("army-saved").textContent = r.reason; return; }
    await loadLists();
    openArmy(r.body);
    $("army-saved").textContent = fmt(gettext("Saved a copy as “%(name)s”."), { name: r.body.name });
  }

  async function removeArmy(a) {
    if (!window.confirm(fmt(gettext("Delete the army “%(name)s”? Games it played keep their copy."), { name: a.name }))) return;
    const r = await api("DELETE", `/api/v1/armies/${a.id}`);
    if (!r.ok) { $("army-saved").textContent = r.reason; return; }
    if (army.id === a.id) setArmy({ faction: army.faction, game_size: army.game_size });
    $("army-saved").textContent = fmt(gettext("The army “%(name)s” was deleted."), { name: a.name });
    await loadLists();
  }

  // ------------------------------------------------------------------ save, import
  async function save(asNew) {
    if (!LOGGED_IN) { window.location.href = root.dataset.loginUrl; return; }
    const r = army.id && !asNew ? await api("PATCH", `/api/v1/armies/${army.id}`, payload())
      : await api("POST", "/api/v1/armies", payload());
    if (!r.ok) { $("army-saved").textContent = r.reason; return; }
    army.id = r.body.id;
    army.name = r.body.name;
    $("army-delete").hidden = false;
    $("army-saved").textContent = fmt(gettext("Saved as “%(name)s”."), { name: r.body.name });
    await loadLists();
  }

  async function importText() {
    const said = $("army-import-said");
    const r = await api("POST", "/api/v1/armies/import", { text: $("army-import-text").value, save: false });
    said.replaceChildren();
    if (!r.ok) { said.append(h("p", { class: "bad" }, r.reason)); return; }
    const parsed = r.body.parsed;
    setArmy({ ...parsed, id: null, name: parsed.name || gettext("Imported army") });
    said.append(h("p", {}, gettext("The list was read into the builder; save it to keep it.")));
    if (r.body.unread.length) said.append(h("ul", { class: "problems" }, r.body.unread.map((x) => h("li", {}, x))));
  }

  // ------------------------------------------------------------------ wiring
  $("army-name").addEventListener("input", () => { army.name = $("army-name").value; clearTimeout(timer); timer = setTimeout(validate, 400); });
  $("army-faction").addEventListener("change", () => {
    army.faction = $("army-faction").value;
    army.commander = "";
    fillCommanders();
    changed();
  });
  $("army-size").addEventListener("input", () => {
    const n = parseInt($("army-size").value, 10);
    if (Number.isFinite(n)) { army.game_size = n; changed(); }
  });
  $("army-commander").addEventListener("change", () => setCommander($("army-commander").value));
  $("army-save").addEventListener("click", () => save(false));
  $("army-save-new").addEventListener("click", () => save(true));
  $("army-new").addEventListener("click", () => setArmy({ faction: army.faction, game_size: army.game_size }));
  $("army-delete").addEventListener("click", () => army.id && removeArmy({ id: army.id, name: army.name }));
  $("army-import").addEventListener("click", importText);
  setArmy({ faction: "stark", game_size: 30, name: "" });
  loadLists();
})();
