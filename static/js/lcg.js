/* The card game (lcg) in the browser, in two parts.

   The drawing (window.LcgTable, also used by the replay, static/js/replay.js): both play areas as
   the viewer may see them, from the API's `view` (zones, cards in play by instance, the decision) and
   `summary` (strength, plot values and power after modifiers, the challenge's record), with the
   printed cards of the public catalogue (web/lcg.py). Cards are drawn with name, cost, strength,
   icons, traits, keywords, power, gold and attachments; a kneeling card is turned sideways. The
   other seat's hand is a count; piles open on click. `renderTable(view, summary, catalogue, opts)`
   gives the whole table; `describeEvent(event)` says one event in words (the fallback while the
   server gives no `lines` for an entry).

   The game page (#game.lcg): the decision asked of this seat, built from `legal_actions` (click a
   card of the hand or of the table to marshal, play, use or choose it; a card with several
   possibilities asks which), or, where the server lists no actions (too many combinations:
   setup, challenges, defenders, claim kills, discards), a composer: select cards on the table or
   in the hand, then confirm. A pass button wherever passing is legal. POSTs {version, action} to
   /actions and shows the server's reason in words when it refuses. Live over the game websocket
   (gameclient.js), chat (chat.js), turn signal (turn.js), countdown (countdown.js).
   Names, never ids: cards by their printed name, seats by their player's name (or faction). */
(function () {
  "use strict";
  const { h } = window.WesterosClient;
  // the page's words in the reader's language (the catalogue templates/base.html loads: issue 29)
  const gettext = window.gettext || ((t) => t);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const pgettext = window.pgettext || ((context, t) => t);
  const interpolate = window.interpolate || ((t, o) => t.replace(/%\((\w+)\)s/g, (m, k) => o[k]));
  const fmt = (template, values) => interpolate(template, values, true);

  // ------------------------------------------------------------------ what the drawing reads

  let C = { cards: {}, factions: {}, decks: {} };   // the catalogue, with a scenario's own cards
  let V = {}, S = {};                                 // view and summary
  let ME = null, ROWS = [], OPEN = new Set();         // viewer seat, the API's seat rows, opened piles
  let STATUS = "active";                              // the game's status: no live badges once it is over
  let INTERACT = null;                                // the page's hooks (null in the replay)

  function use(view, summary, catalogue, opts) {
    opts = opts || {};
    V = view || {}; S = summary || {}; ME = opts.seat || null; ROWS = opts.rows || []; STATUS = opts.status || "active";
    INTERACT = opts.interact || null;
    if (opts.open) OPEN = opts.open;
    const extra = V.extra_cards || {};
    C = catalogue;
    if (Object.keys(extra).length) {
      C = Object.assign({}, catalogue, { cards: Object.assign({}, catalogue.cards) });
      for (const [id, c] of Object.entries(extra)) C.cards[id] = fromRaw(id, c);
    }
  }
  /* A scenario's synthetic card (the engine's format) as the catalogue has it. */
  function fromRaw(id, c) {
    return { name: c.name || cap(id), type: c.type, faction: c.faction || "neutral", unique: !!c.unique,
      traits: c.traits || [], keywords: c.keywords || {}, text: c.ability || "", cost: c.cost, strength: c.strength,
      icons: c.icons || [], plot: c.plot, plot_modifiers: c.plot_modifiers };
  }

  const cap = (s) => String(s ?? "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  const base = (name) => String(name).split("#")[0];
  const card = (id) => C.cards[base(id)] || { name: cap(base(id)), type: "?", faction: "neutral", traits: [], keywords: {}, text: "" };
  const cardName = (id) => (id === "faction" ? gettext("the faction card") : card(id).name);
  // the factions the Spanish rulebook names otherwise (the others are house names: "Stark")
  const FACTION_WORDS = { thenightswatch: gettext("The Night's Watch"), neutral: pgettext("faction", "Neutral") };
  const factionName = (f) => FACTION_WORDS[f] || (C.factions || {})[f] || cap(f);
  const seats = () => V.seats || S.seats || [];
  const other = (seat) => seats().find((s) => s !== seat);
  const player = (seat) => (V.players || {})[seat] || {};
  function seatRow(seat) { return ROWS.find((r) => r.seat === seat) || {}; }
  /* A seat by its player's name; a bot's (or a replay's unknown) seat by its faction. */
  function seatName(seat) {
    if (!seat) return gettext("nobody");
    const row = seatRow(seat);
    if (row.user) return row.user;
    const f = player(seat).faction;
    const number = /^p\d$/.test(seat) ? seat.slice(1) : null;
    // a faction two seats without a player share (a melee against the computer): with the seat's number
    if (f && number && seats().some((o) => o !== seat && !seatRow(o).user && player(o).faction === f)) {
      return fmt(gettext("%(faction)s (player %(number)s)"), { faction: factionName(f), number });
    }
    return f ? factionName(f) : (number ? fmt(gettext("Player %(number)s"), { number }) : cap(seat));
  }
  const possessive = (seat) => (seat === ME ? gettext("your") : fmt(gettext("%(name)s's"), { name: seatName(seat) }));
  const plural = (n, word, many) => `${n} ${n === 1 ? word : (many || word + "s")}`;
  const goldWords = (n) => fmt(ngettext("%(n)s gold", "%(n)s gold", n), { n });

  // words of the rules as the Spanish Rules Reference writes them (games/i18n/glossary/lcg.yaml)
  const ICONS = { military: ["M", gettext("Military")], intrigue: ["I", gettext("Intrigue")], power: ["P", pgettext("challenge", "Power")] };
  const TYPES = { character: gettext("Character"), location: gettext("Location"), attachment: gettext("Attachment"),
    event: gettext("Event"), plot: gettext("Plot"), agenda: gettext("Agenda"), faction: gettext("Faction"), title: gettext("Title") };
  const typeName = (t) => TYPES[t] || cap(t);
  const KEYWORDS = { ambush: gettext("Ambush"), bestow: gettext("Bestow"), insight: gettext("Insight"), intimidate: gettext("Intimidate"),
    limited: gettext("Limited"), pillage: gettext("Pillage"), renown: gettext("Renown"), stealth: gettext("Stealth"),
    terminal: gettext("Terminal"), no_attachments: gettext("No attachments") };
  const keywordName = (k) => KEYWORDS[k] || cap(k.replace("no_attachments", "no attachments"));
  const PHASES = { setup: gettext("Setup"), plot: gettext("Plot phase"), draw: gettext("Draw phase"), marshaling: gettext("Marshaling phase"),
    challenges: gettext("Challenges phase"), dominance: gettext("Dominance phase"), standing: gettext("Standing phase"), taxation: gettext("Taxation phase") };
  const STEPS = { mulligan: gettext("mulligans"), setup: gettext("choosing setup cards"), "1.1": gettext("the round begins"), "1.2": gettext("each player chooses a plot"),
    "1.3": gettext("plots are revealed"), "1.5": gettext("the plot phase ends"), "2.1": gettext("drawing"), "2.2": gettext("each player draws 2 cards"), "2.3": gettext("the draw phase ends"),
    "3.1": gettext("the marshaling phase begins"), "3.2": gettext("marshaling cards"), "3.3": gettext("the next player marshals"), "3.4": gettext("the marshaling phase ends"),
    "4.1": gettext("the challenges phase begins"), "4.2": gettext("declaring a challenge"), "4.2.1": gettext("declaring defenders"), "4.2.2": gettext("comparing strength"),
    "4.2.3": gettext("challenge bonuses"), "4.2.4": gettext("claim"), "4.2.5": gettext("keywords"), "4.2.6": gettext("the challenge ends"), "4.3": gettext("the next player's challenges"),
    "4.4": gettext("the challenges phase ends"), "5.1": gettext("dominance"), "5.2": gettext("counting dominance"), "5.3": gettext("the dominance phase ends"),
    "6.1": gettext("standing"), "6.2": gettext("every card stands"), "6.3": gettext("the standing phase ends"), "7.1": gettext("taxation"),
    "7.2": gettext("unspent gold returns"), "7.3": gettext("checking hands against reserve"), "7.5": gettext("the round ends") };
  const WINDOWS = { plot: gettext("after the plots are revealed"), draw: gettext("after cards are drawn"), marshaling: gettext("marshaling"),
    before_challenge: gettext("before a challenge"), after_attackers: gettext("after attackers are declared"), after_defenders: gettext("after defenders are declared"),
    dominance: gettext("after dominance"), standing: gettext("after cards stand"), taxation: gettext("after the reserve check") };
  const DECISIONS = { mulligan: gettext("to keep or mulligan"), setup: gettext("to place setup cards"), plot: gettext("to choose a plot"),
    first_player: gettext("to choose the first player"), action: gettext("to act or pass"), interrupt: gettext("to interrupt or pass"), reaction: gettext("to react or pass"),
    challenge: gettext("to declare a challenge or pass"), defenders: gettext("to declare defenders"), kill: gettext("to choose characters to kill"),
    discard: gettext("to choose cards to discard"), renown: gettext("renown"), insight: gettext("insight"), pillage: gettext("pillage"), intimidate: gettext("intimidate"),
    order: gettext("to choose an order"), winner: gettext("to name the winner"), choose: gettext("to make a choice"),
    title: gettext("to choose a title"), redirect: gettext("to redirect the challenge or not"), redirect_to: gettext("to name the new defender"),
    claim_opponents: gettext("to choose whom the claim hits") };
  const CHALLENGE_TYPES = { military: gettext("military"), intrigue: gettext("intrigue"), power: pgettext("challenge type", "power") };
  const challengeType = (t) => CHALLENGE_TYPES[t] || String(t || "").replace(/_/g, " ");

  // ------------------------------------------------------------------ the melee (3 to 6 players, the titles)

  const melee = () => V.melee || null;
  // eliminated in a melee (an empty draw deck, L231); at the end the engine lists every loser as eliminated too
  const out = (seat) => ((melee() || {}).out || []).includes(seat);
  /* The title a seat holds (revealed), or null. */
  const titleOf = (seat) => ((melee() || {}).titles || {})[seat] || null;
  /* "Supports Hand of the King. Rivals: Master of Laws, Master of Coin." (a title's printed relations) */
  function titleRelations(id) {
    const c = card(id);
    const names = (ids) => (ids || []).map(cardName).join(", ");
    return h("p", { class: "d-relations" }, [
      (c.supports || []).length ? fmt(gettext("Supports: %(titles)s (no challenge against its holder)."), { titles: names(c.supports) }) : null,
      (c.rivals || []).length ? fmt(gettext("Rivals: %(titles)s (1 power for the first challenge won against each)."), { titles: names(c.rivals) }) : null,
    ].filter(Boolean).join(" "));
  }
  /* A seat's title as a small chip that opens the card (or, during selection, whether it has chosen). */
  function titleChip(seat) {
    const m = melee();
    if (!m) return null;
    const tid = titleOf(seat);
    if (tid) {
      return h("button", { type: "button", class: "badge title-chip", "data-title": tid, title: gettext("the title held this round: click to read it"),
        onclick: (e) => showDetail(tid, e.currentTarget) }, "♛ " + cardName(tid));
    }
    const pick = (m.picked || {})[seat];
    if (m.selecting && pick) {
      return h("span", { class: "badge title-chip hidden-pick" }, pick === "hidden" ? gettext("title chosen (face down)")
        : fmt(gettext("you chose %(title)s (face down until everyone has)"), { title: cardName(pick) }));
    }
    return null;
  }
  /* How my title stands to another seat's: it supports theirs (no challenge), or theirs is a rival of mine. */
  function relationWords(seat) {
    const mine = ME ? titleOf(ME) : null, theirs = titleOf(seat);
    if (!mine || !theirs || seat === ME) return null;
    if ((card(mine).supports || []).includes(theirs)) return gettext("your title supports theirs: you cannot challenge them");
    if ((card(mine).rivals || []).includes(theirs)) return gettext("their title is your rival: win a challenge against them for 1 power");
    return null;
  }
  /* The challenges a seat initiated this phase, each against whom: "military against Bran". */
  function againstWords(seat) {
    const list = ((melee() || {}).against || {})[seat] || [];
    if (!list.length || V.phase !== "challenges") return null;
    return fmt(gettext("Challenges this phase: %(list)s"), { list: list.map(([t, o]) => fmt(gettext("%(type)s against %(name)s"),
      { type: challengeType(t), name: o === ME ? gettext("you") : seatName(o) })).join(", ") });
  }
  /* The opponents in the order the table shows them: the one most concerned now first (the challenge's other
     side, the active player, the one deciding), then in player order from the viewer. */
  function opponentsInOrder(me) {
    const all = seats();
    const i = Math.max(0, all.indexOf(me));
    const ring = [...all.slice(i + 1), ...all.slice(0, i)].filter((s) => s !== me);
    const ch = V.challenge;
    const focus = [ch && ch.live ? (ch.attacker === me ? ch.defender : ch.attacker) : null, V.active,
      ...Object.keys(S.pending || {})].find((s) => s && s !== me && ring.includes(s));
    return focus ? [focus, ...ring.filter((s) => s !== focus)] : ring;
  }

  /* Card instances in play: uid -> {id, seat, name ("id#n", the engine's copy name)}. */
  function inPlay() {
    const out = {};
    for (const seat of seats()) {
      const seen = {};
      for (const uid of player(seat).play || []) {
        const id = (V.cards || {})[uid];
        seen[id] = (seen[id] || 0) + 1;
        out[uid] = { id, seat, name: `${id}#${seen[id]}`, n: seen[id] };
      }
    }
    return out;
  }
  /* The uid of an in-play card named "id", "id#n" or {card, seat}, searching `order` seats. */
  function findUid(ref, order) {
    let name = ref, where = order || (ME ? [ME, ...seats().filter((s) => s !== ME)] : seats());
    if (ref && typeof ref === "object") { name = ref.card; if (ref.seat) where = [ref.seat]; }
    if (typeof name !== "string") return null;
    const full = name.includes("#") ? name : name + "#1";
    const all = inPlay();
    for (const seat of where) for (const [uid, x] of Object.entries(all)) if (x.seat === seat && x.name === full) return uid;
    return null;
  }
  function strengthOf(uid) {
    const x = inPlay()[uid];
    const entry = x && ((S.cards || {})[x.seat] || {})[x.name];
    return entry && entry.strength !== undefined ? entry.strength : card(x ? x.id : "").strength;
  }
  /* A card reference of an action in words: "Winterfell Steward (2nd copy, Bob's)". */
  function refLabel(ref) {
    if (ref === null || ref === undefined) return gettext("none");
    const copy = (n) => fmt(gettext("copy %(n)s"), { n });
    const whose = (seat) => fmt(gettext("%(name)s's"), { name: seatName(seat) });
    if (typeof ref === "string") {
      if (ref === "faction") return gettext("your faction card");
      const [id, n] = ref.split("#");
      const uid = findUid(ref);
      const seat = uid ? inPlay()[uid].seat : null;
      const bits = [];
      if (n && n !== "1") bits.push(copy(n));
      if (seat && seat !== ME) bits.push(whose(seat));
      return cardName(id) + (bits.length ? ` (${bits.join(", ")})` : "");
    }
    if (typeof ref === "object" && ref.card) {
      const mine = !(ref.seat && ref.seat !== ME);
      const ZONES = mine
        ? { hand: gettext("your hand"), discard: gettext("your discard pile"), dead: gettext("your dead pile"), deck: gettext("your deck"), plots: gettext("your plot deck") }
        : { hand: gettext("%(name)s's hand"), discard: gettext("%(name)s's discard pile"), dead: gettext("%(name)s's dead pile"), deck: gettext("%(name)s's deck"), plots: gettext("%(name)s's plot deck") };
      const zone = ZONES[ref.zone];
      if (zone) return `${cardName(ref.card)} (${mine ? zone : fmt(zone, { name: seatName(ref.seat) })})`;
      const [, n] = ref.card.split("#");
      return cardName(ref.card) + ((n && n !== "1") || (ref.seat && ref.seat !== ME)
        ? ` (${[n && n !== "1" ? copy(n) : null, ref.seat && ref.seat !== ME ? whose(ref.seat) : null].filter(Boolean).join(", ")})` : "");
    }
    return describeValue(ref);
  }
  /* Any value in words (the fallback): a card or seat by its name, a list joined; never JSON. */
  function describeValue(v) {
    if (v === true) return gettext("yes");
    if (v === false) return gettext("no");
    if (v === null || v === undefined || v === "") return gettext("none");
    if (typeof v === "number") return String(v);
    if (typeof v === "string") {
      if (seats().includes(v)) return seatName(v);
      if (C.cards[base(v)]) return refLabel(v);
      return v.replace(/_/g, " ");
    }
    if (Array.isArray(v)) return v.length ? v.map(describeValue).join(", ") : gettext("none");
    if (typeof v === "object") {
      if (v.card) return refLabel(v);
      return Object.entries(v).map(([k, x]) => `${k.replace(/_/g, " ")} ${describeValue(x)}`).join(", ");
    }
    return String(v);
  }
  /* A server's sentence with card ids, copy names and seats replaced by their names. */
  function namesIn(text) {
    return String(text || "").replace(/\b[a-z][a-z0-9_]*(#\d+)?\b/g, (w) => {
      if (seats().includes(w)) return seatName(w);
      const id = base(w);
      if (C.cards[id] && (id.includes("_") || w.includes("#") || id.length > 3)) return refLabel(w);
      return w;
    });
  }

  // ------------------------------------------------------------------ cards

  /* The ability text, with [military] and faction marks in words. */
  function textNodes(text) {
    return String(text || "").split(/(\[[a-z]+\])/).filter(Boolean).map((part) => {
      const m = part.match(/^\[([a-z]+)\]$/);
      if (!m) return part;
      if (ICONS[m[1]]) return h("span", { class: `icon icon-${m[1]}`, title: ICONS[m[1]][1] }, ICONS[m[1]][1]);
      return h("span", { class: `fmark faction-${m[1]}` }, factionName(m[1]));
    });
  }
  function keywordWords(kw) {
    return Object.entries(kw || {}).filter(([, v]) => v).map(([k, v]) => keywordName(k) + (v === true ? "" : ` (${v})`));
  }
  function iconsNode(icons) {
    return h("span", { class: "icons", "aria-label": fmt(gettext("icons: %(icons)s"), { icons: icons.length ? icons.map(challengeType).join(", ") : gettext("none") }) },
      ["military", "intrigue", "power"].map((i) => h("span", { class: `icon icon-${i}` + (icons.includes(i) ? "" : " off"), title: icons.includes(i) ? ICONS[i][1] : fmt(gettext("%(icon)s (none)"), { icon: ICONS[i][1] }) }, ICONS[i][0])));
  }
  function plotValues(id, live) {
    const p = card(id).plot || {};
    const val = (k) => (live && live[k] !== undefined ? live[k] : p[k]);
    return h("span", { class: "plot-values" },
      h("span", { title: gettext("income (gold)") }, gettext("Gold") + " ", h("b", {}, val("income") ?? "–")),
      h("span", { title: gettext("initiative") }, pgettext("short for initiative", "Init") + " ", h("b", {}, val("initiative") ?? "–")),
      h("span", { title: gettext("claim") }, pgettext("plot value", "Claim") + " ", h("b", {}, val("claim") ?? "–")),
      h("span", { title: gettext("reserve") }, pgettext("short for reserve", "Res") + " ", h("b", {}, val("reserve") ?? "–")));
  }

  // tokens on a card: its short word on the card, the whole of it as its title (a stand token is Power Behind the Throne's)
  const TOKEN_SHORT = { poison: gettext("poison") };
  const TOKEN_NAMES = { poison: gettext("poison"), stand: gettext("stand"), betrayal: gettext("betrayal") };
  function tokenWords(t, n) {
    if (t === "stand") return fmt(ngettext("%(n)s stand token", "%(n)s stand tokens", n), { n });
    if (t === "betrayal") return fmt(ngettext("%(n)s betrayal token", "%(n)s betrayal tokens", n), { n });
    if (t === "poison") return fmt(ngettext("%(n)s poison token", "%(n)s poison tokens", n), { n });
    return `${n} ${t}`;
  }
  /* The tokens on a seat's revealed plot (the engine keeps Power Behind the Throne's stand tokens with the player,
     for the plot they were put on): {stand: n}, or none. */
  function plotTokens(p) {
    const t = p.bt_stand_tokens;
    return t && t.plot === p.plot && t.n > 0 ? { stand: t.n } : {};
  }

  /* One card. `state` (in play): {kneeling, power, gold, duplicates, tokens, strength, participating};
     `key` is how the page knows it ("play:c12", "hand:3", "faction:p1", "plotdeck:summons", "pile:...");
     `extra` adds classes and children. */
  function cardView(id, state, key, extra) {
    const c = card(id);
    state = state || {};
    extra = extra || {};
    const kw = keywordWords(c.keywords);
    const classes = ["lcg-card", `type-${c.type}`, `faction-${c.faction}`];
    if (state.participating) classes.push(state.participating);
    const role = INTERACT && key ? INTERACT(key, id) : null;
    if (role && role.cls) classes.push(role.cls);
    const status = [];
    const powerWords = (n) => fmt(ngettext("%(n)s power", "%(n)s power", n), { n });
    if (state.power) status.push(h("span", { class: "power", title: powerWords(state.power) }, `★ ${state.power}`));
    if (state.gold) status.push(h("span", { class: "gold-on", title: fmt(ngettext("%(n)s gold on it", "%(n)s gold on it", state.gold), { n: state.gold }) }, `◉ ${state.gold}`));
    if (state.duplicates) status.push(h("span", { class: "dupes", title: gettext("duplicates") }, fmt(gettext("+%(n)s dup."), { n: state.duplicates })));
    for (const [t, n] of Object.entries(state.tokens || {})) if (n) status.push(h("span", { class: "token token-" + t, title: tokenWords(t, n) }, TOKEN_SHORT[t] ? `${n} ${TOKEN_SHORT[t]}` : tokenWords(t, n)));
    const PARTICIPATING = { attacking: gettext("attacking"), defending: gettext("defending") };
    if (state.participating) status.push(h("span", { class: "part" }, PARTICIPATING[state.participating] || state.participating));
    const str = state.strength !== undefined ? state.strength : c.strength;
    const label = [c.name, c.type !== "?" ? typeName(c.type).toLowerCase() : null, state.kneeling ? gettext("kneeling") : null,
      state.power ? powerWords(state.power) : null].filter(Boolean).join(", ");
    const node = h("div", {
      class: classes.join(" "), "data-card": base(id), "data-key": key || null, "data-uid": state.uid || null,
      tabindex: role && role.click ? "0" : null, role: role && role.click ? "button" : null,
      "aria-pressed": role && role.pressed !== undefined ? String(role.pressed) : null, "aria-label": label,
      onclick: role && role.click ? (e) => { e.stopPropagation(); role.click(); } : null,
      onkeydown: role && role.click ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); role.click(); } } : null,
    },
    h("div", { class: "c-head" },
      c.cost !== undefined ? h("span", { class: "cost", title: gettext("cost") }, c.cost) : null,
      h("strong", { class: "c-name" }, c.unique ? "◆ " : "", c.name)),
    c.type === "plot" ? plotValues(id, state.plotLive) : null,
    c.type === "character" ? h("div", { class: "c-str" }, iconsNode(c.icons || []), h("span", { class: "str", title: gettext("strength") }, str ?? "")) : null,
    h("div", { class: "c-type" }, [c.type === "?" ? gettext("Card") : typeName(c.type), ...(c.traits || [])].join(" · ")),
    kw.length ? h("div", { class: "c-kw" }, kw.join(". ") + ".") : null,
    c.text ? h("div", { class: "c-text" }, textNodes(c.text)) : null,
    status.length ? h("div", { class: "c-status" }, status) : null,
    extra.children || null,
    h("button", { type: "button", class: "c-info", "aria-label": fmt(gettext("Read %(card)s"), { card: c.name }), onclick: (e) => { e.stopPropagation(); showDetail(id, e.currentTarget); } }, "i"));
    // the whole card after a short hover (a mouse passing over does not flash it)
    node.addEventListener("mouseenter", () => { clearTimeout(hoverTimer); hoverTimer = setTimeout(() => { if (node.isConnected) showDetail(id, node, true); }, 450); });
    node.addEventListener("mouseleave", () => { clearTimeout(hoverTimer); hideDetail(true); });
    const slot = h("div", { class: "lcg-slot" + (state.kneeling ? " kneeling" : "") + (extra.slotClass ? " " + extra.slotClass : ""),
      "data-kneeling": state.kneeling ? gettext("kneeling") : null }, node);
    return slot;
  }

  /* The whole card on hover (desktop) or on the "i" button (touch): every printed value and its text. */
  function detailNode(id) {
    const c = card(id);
    const kw = keywordWords(c.keywords);
    return [h("h3", {}, c.unique ? "◆ " : "", c.name),
      h("p", { class: "d-type" }, [typeName(c.type), factionName(c.faction), c.loyal ? gettext("loyal") : null].filter(Boolean).join(" · ")),
      c.cost !== undefined ? h("p", {}, fmt(gettext("Cost %(n)s"), { n: c.cost }) + (c.type === "character" ? " · " + fmt(gettext("Strength %(n)s"), { n: c.strength }) : "")) : null,
      c.type === "character" ? h("p", {}, gettext("Icons:") + " ", (c.icons || []).length ? c.icons.map((i) => ICONS[i][1]).join(", ") : gettext("none")) : null,
      c.plot ? h("p", {}, fmt(gettext("Gold %(income)s · Initiative %(initiative)s · Claim %(claim)s · Reserve %(reserve)s"), c.plot)) : null,
      (c.traits || []).length ? h("p", { class: "d-traits" }, c.traits.join(". ") + ".") : null,
      kw.length ? h("p", {}, h("b", {}, kw.join(". ") + ".")) : null,
      c.plot_modifiers ? h("p", {}, Object.entries(c.plot_modifiers).map(([k, n]) => `${n > 0 ? "+" : ""}${n} ${({ income: gettext("gold"), initiative: gettext("initiative"), reserve: gettext("reserve"), claim: gettext("claim") })[k] || k}`).join(", ")) : null,
      c.text ? h("p", { class: "d-text" }, textNodes(c.text)) : h("p", { class: "d-text empty" }, gettext("No ability text.")),
      c.type === "title" ? titleRelations(id) : null];
  }
  let detailPinned = false;
  let hoverTimer = null;
  function showDetail(id, near, hover) {
    const box = document.getElementById("card-detail");
    if (!box || (hover && detailPinned)) return;
    if (!hover) detailPinned = true;
    box.replaceChildren(...detailNode(id).filter(Boolean),
      ...(hover ? [] : [h("button", { type: "button", class: "secondary d-close", onclick: () => { detailPinned = false; box.hidden = true; } }, gettext("Close"))]));
    box.hidden = false;
    const r = near.getBoundingClientRect();
    const w = Math.min(320, window.innerWidth - 16);
    let left = r.right + 8;
    if (left + w > window.innerWidth - 8) left = Math.max(8, r.left - w - 8);
    if (window.innerWidth < 600) left = 8;
    box.style.width = w + "px";
    box.style.left = (left + window.scrollX) + "px";
    box.style.top = (Math.max(8, r.top) + window.scrollY) + "px";
  }
  function hideDetail(hover) {
    const box = document.getElementById("card-detail");
    if (!box || (hover && detailPinned)) return;
    box.hidden = true;
  }

  // ------------------------------------------------------------------ the table

  /* The round being played: at 7.5 the engine has already counted the next one. */
  function shownRound() { return V.phase === "taxation" && V.step === "7.5" ? V.round - 1 : V.round; }
  function phaseText(status) {
    if ((status && status !== "active") || V.over) {
      return V.winner ? fmt(gettext("Game over: %(name)s wins."), { name: seatName(V.winner) }) : gettext("Game over.");
    }
    const parts = [fmt(gettext("Round %(round)s"), { round: shownRound() }), PHASES[V.phase] || cap(V.phase)];
    const d = V.decision;
    if (d && d.kind === "action" && V.window) parts.push(fmt(gettext("action window %(when)s"), { when: WINDOWS[V.window.name] || cap(V.window.name) }));
    else if (STEPS[V.step]) parts.push(STEPS[V.step]);
    if (V.active && (V.phase === "marshaling" || V.phase === "challenges")) parts.push(fmt(gettext("%(name)s is active"), { name: seatName(V.active) }));
    const pend = S.pending || {};
    const waiting = Object.entries(pend).map(([seat, k]) => `${seatName(seat)} (${DECISIONS[k] || cap(k)})`).join(", ");
    if (waiting) parts.push(fmt(gettext("waiting for %(names)s"), { names: waiting }));
    return parts.join(" · ");
  }

  function cardsInPlay(seat, type) {
    const all = inPlay();
    return (player(seat).play || []).filter((u) => card(all[u].id).type === type && !(V.inplay[u] || {}).on);
  }
  function stateOf(uid) {
    const rec = (V.inplay || {})[uid] || {};
    const x = inPlay()[uid];
    const entry = x ? ((S.cards || {})[x.seat] || {})[x.name] : null;
    return { uid, kneeling: rec.kneeling, power: rec.power, gold: rec.gold, tokens: rec.tokens, duplicates: (rec.duplicates || []).length,
      participating: rec.participating, strength: entry ? entry.strength : undefined };
  }
  /* A card in play with its attachments under it. */
  function group(uid) {
    const attached = Object.entries(V.inplay || {}).filter(([, r]) => r.on === uid).sort((a, b) => a[1].entered - b[1].entered).map(([u]) => u);
    return h("div", { class: "lcg-group" + (attached.length ? " has-attachments" : "") },
      cardView(V.cards[uid], stateOf(uid), "play:" + uid),
      attached.length ? h("div", { class: "lcg-attachments" }, attached.map((a) => cardView(V.cards[a], stateOf(a), "play:" + a, { slotClass: "attachment" }))) : null);
  }

  function pile(seat, zone, title, ids, opts) {
    const k = `${seat}:${zone}`;
    const open = OPEN.has(k);
    return h("div", { class: "lcg-pile-wrap" },
      h("button", { type: "button", class: "pile" + (open ? " open" : ""), id: `pile-${seat}-${zone}`, "aria-expanded": String(open),
        disabled: !ids.length, onclick: () => { if (OPEN.has(k)) OPEN.delete(k); else OPEN.add(k); if (opts && opts.redraw) opts.redraw(); } },
      `${title} `, h("b", {}, ids.length)));
  }
  function openPiles(seat, piles, redraw) {
    const shown = piles.filter(([zone, , ids]) => OPEN.has(`${seat}:${zone}`) && ids.length);
    return shown.map(([zone, title, ids]) => h("div", { class: "lcg-pile-open", id: `open-${seat}-${zone}` },
      h("h4", {}, seat === ME
        ? fmt(zone === "used_plots" ? gettext("%(pile)s (your)") : gettext("%(pile)s (your, top first)"), { pile: title })
        : fmt(zone === "used_plots" ? gettext("%(pile)s (%(name)s's)") : gettext("%(pile)s (%(name)s's, top first)"), { pile: title, name: seatName(seat) }),
        h("button", { type: "button", class: "secondary small-button", onclick: () => { OPEN.delete(`${seat}:${zone}`); if (redraw) redraw(); } }, gettext("Close"))),
      h("div", { class: "lcg-row" }, ids.map((id, i) => cardView(id, {}, `pile:${seat}:${zone}:${i}`)))));
  }

  function factionCard(seat) {
    const p = player(seat);
    const f = p.faction;
    const key = "faction:" + seat;
    const role = INTERACT ? INTERACT(key, null) : null;
    return h("div", { class: "lcg-slot faction-slot" + (p.faction_kneeling ? " kneeling" : ""), "data-kneeling": p.faction_kneeling ? gettext("kneeling") : null },
      h("div", { class: `lcg-card type-faction faction-${f}` + (role && role.cls ? " " + role.cls : ""), "data-key": key,
        tabindex: role && role.click ? "0" : null, role: role && role.click ? "button" : null,
        "aria-label": fmt(p.faction_kneeling ? gettext("%(faction)s faction card, %(power)s power, kneeling") : gettext("%(faction)s faction card, %(power)s power"),
          { faction: factionName(f), power: p.faction_power || 0 }),
        onclick: role && role.click ? () => role.click() : null,
        onkeydown: role && role.click ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); role.click(); } } : null },
      h("div", { class: "c-head" }, h("strong", { class: "c-name" }, factionName(f))),
      h("div", { class: "c-type" }, gettext("Faction")),
      h("div", { class: "c-status" }, h("span", { class: "power", title: gettext("power on the faction card") }, `★ ${p.faction_power || 0}`))));
  }

  function stat(label, value, title) { return h("span", { class: "stat", title: title || label }, label + " ", h("b", {}, value ?? "–")); }

  /* One seat's play area: the bar (faction, agenda, plot, counters, piles), characters, locations. */
  function area(seat, opts) {
    const p = player(seat);
    const mine = seat === ME;
    const row = seatRow(seat);
    const plotId = p.plot ? V.cards[p.plot] : null;
    const live = {};
    for (const k of ["income", "initiative", "claim", "reserve"]) if ((S[k] || {})[seat] !== undefined) live[k] = S[k][seat];
    const used = (p.used_plots || []).map((u) => V.cards[u]);
    const discard = (p.discard || []).map((u) => V.cards[u]);
    const dead = (p.dead || []).map((u) => V.cards[u]);
    const piles = [["used_plots", gettext("Used plots"), used], ["discard", pgettext("pile", "Discard"), discard], ["dead", pgettext("pile", "Dead"), dead]];
    const chars = cardsInPlay(seat, "character");
    const locs = [...cardsInPlay(seat, "location"), ...cardsInPlay(seat, "attachment")];
    const handCount = (p.hand || []).length;
    const badges = [];
    if (V.first_player === seat) badges.push(h("span", { class: "badge first", title: gettext("first player") }, "★ " + gettext("first player")));
    if (V.active === seat && (V.phase === "marshaling" || V.phase === "challenges")) badges.push(h("span", { class: "badge turn" }, gettext("active")));
    if (STATUS === "active" && (S.pending || {})[seat]) badges.push(h("span", { class: "badge pending" }, gettext("deciding"), row.deadline_at ? [" ", h("span", { class: "deadline", "data-deadline": row.deadline_at }, "")] : null));
    if (V.winner === seat) badges.push(h("span", { class: "badge won" }, gettext("winner")));
    if (out(seat)) badges.push(h("span", { class: "badge out" }, gettext("out of the game")));
    const chip = titleChip(seat);
    if (chip) badges.unshift(chip);
    const who = h("span", { class: "who" }, h("strong", { class: "seat-name" }, seatName(seat)),
      row.bot_account && !row.is_bot ? [" ", h("span", { class: "bot-badge", title: gettext("a bot account: a program playing through the API") }, "BOT")] : null,
      row.connected !== undefined ? h("span", { class: "presence " + (row.connected ? "on" : "off"), title: row.connected ? gettext("connected") : gettext("not connected") }, row.is_bot ? " · " + gettext("the computer") : (row.connected ? " ●" : " ○")) : null,
      h("span", { class: "faction-word" }, " · " + factionName(p.faction)));
    const power = (S.power || {})[seat] ?? 0;
    const kneeling = chars.filter((u) => V.inplay[u].kneeling).length;
    const summaryLine = h("span", { class: "area-summary" }, stat(pgettext("total", "Power"), power, gettext("total power")), stat(gettext("Gold"), p.gold), stat(gettext("Hand"), handCount),
      stat(gettext("Characters"), kneeling ? fmt(ngettext("%(n)s (%(kneeling)s kneeling)", "%(n)s (%(kneeling)s kneeling)", kneeling), { n: chars.length, kneeling }) : chars.length));
    const bar = h("div", { class: "lcg-bar" },
      factionCard(seat),
      p.agenda ? h("div", { class: "agenda" }, cardView(p.agenda, {}, `agenda:${seat}`, { slotClass: "small" })) : null,
      plotId ? h("div", { class: "revealed-plot" }, cardView(plotId, { plotLive: live, tokens: plotTokens(p) }, `plot:${seat}`, { slotClass: "plot" }))
        : h("div", { class: "revealed-plot none" }, p.chosen_plot ? gettext("Plot chosen (face down)") : gettext("No plot revealed")),
      h("div", { class: "counters" },
        h("div", { class: "stats" }, stat(pgettext("total", "Power"), power, gettext("total power (faction card and cards in play)")), stat(gettext("Gold"), p.gold, gettext("gold in the gold pool")),
          stat(gettext("Reserve"), live.reserve, gettext("reserve: the hand is discarded down to it at taxation")),
          stat(gettext("Hand"), handCount, mine ? gettext("cards in your hand") : gettext("cards in hand (hidden)")), stat(gettext("Deck"), p.deck, gettext("cards in the draw deck")),
          stat(gettext("Plot deck"), (p.plots || []).length, gettext("plots left to choose from"))),
        h("div", { class: "piles" }, piles.map(([zone, title, ids]) => pile(seat, zone, title, ids, opts)))));
    const against = againstWords(seat), relation = relationWords(seat);
    const body = [bar, ...(against || relation ? [h("p", { class: "melee-line" }, [relation, against].filter(Boolean).join(" · "))] : []),
      ...openPiles(seat, piles, opts.redraw),
      h("div", { class: "lcg-row chars", "aria-label": seat === ME ? gettext("your characters") : fmt(gettext("%(name)s's characters"), { name: seatName(seat) }) },
        chars.length ? chars.map(group) : h("p", { class: "empty" }, gettext("No characters."))),
      h("div", { class: "lcg-row locs", "aria-label": seat === ME ? gettext("your locations") : fmt(gettext("%(name)s's locations"), { name: seatName(seat) }) },
        locs.length ? locs.map(group) : h("p", { class: "empty" }, gettext("No locations.")))];
    if (mine) body.push(handView(seat));
    else body.push(h("p", { class: "opp-hand" }, fmt(ngettext("%(name)s's hand: %(n)s card (hidden)", "%(name)s's hand: %(n)s cards (hidden)", handCount), { name: seatName(seat), n: handCount })));
    const head = h("div", { class: "area-head" }, who, " ", h("span", { class: "badges" }, badges));
    if (mine) return h("section", { class: "lcg-area me", id: `area-${seat}`, "data-seat": seat }, head, body);
    // the other seat: on a phone it folds to one summary line (the reader may open it)
    const open = typeof opts.oppOpen === "function" ? opts.oppOpen(seat, opts.index || 0) : opts.oppOpen !== false;
    const det = h("details", { class: "lcg-area opp" + (out(seat) ? " out" : ""), id: `area-${seat}`, "data-seat": seat, open },
      h("summary", {}, head, summaryLine, against ? h("span", { class: "area-summary melee-line" }, against) : null), body);
    det.addEventListener("toggle", () => { if (opts.onOppToggle) opts.onOppToggle(det.open, seat); });
    return det;
  }

  function handView(seat) {
    const hand = player(seat).hand || [];
    const extra = INTERACT && INTERACT.handNote ? INTERACT.handNote() : null;
    return h("section", { class: "lcg-hand-wrap", id: "hand-panel", "aria-label": gettext("Your hand") },
      h("h3", {}, fmt(gettext("Your hand (%(n)s)"), { n: hand.length }), extra ? h("span", { class: "hand-hint" }, " · ", extra) : null),
      hand.length ? h("div", { class: "lcg-hand", id: "hand" }, hand.map((id, i) => cardView(id, {}, `hand:${i}`)))
        : h("p", { class: "empty", id: "hand" }, gettext("No cards in hand.")));
  }

  /* The challenge in progress (or the last one, small): type, sides, attackers and defenders, strength. */
  function challengeView() {
    const ch = V.challenge;
    if (!ch) return null;
    const all = inPlay();
    const side = (uids) => uids.map((u) => all[u] ? `${card(all[u].id).name} (${strengthOf(u)})` : ((S.challenge || {}).names || {})[u] ? cardName(S.challenge.names[u]) : gettext("a character gone"));
    const total = (uids) => uids.filter((u) => all[u]).reduce((n, u) => n + (strengthOf(u) || 0), 0);
    const str = ch.strength && Object.keys(ch.strength).length ? ch.strength : null;
    const a = str ? str[ch.attacker] : total(ch.attackers), d = str ? str[ch.defender] : total(ch.defenders);
    const TITLES = { military: gettext("Military challenge: %(attacker)s attacks %(defender)s"), intrigue: gettext("Intrigue challenge: %(attacker)s attacks %(defender)s"),
      power: gettext("Power challenge: %(attacker)s attacks %(defender)s") };
    const title = fmt(TITLES[ch.type] || `${cap(ch.type)}: %(attacker)s → %(defender)s`, { attacker: seatName(ch.attacker), defender: seatName(ch.defender) });
    if (!ch.live) {
      if (V.phase !== "challenges") return null;
      const sides = { type: typeof ICONS[ch.type] === "object" ? ICONS[ch.type][1] : cap(ch.type), attacker: seatName(ch.attacker), defender: seatName(ch.defender), winner: seatName(ch.winner) };
      return h("div", { class: "lcg-challenge last" }, h("p", {}, fmt(!ch.winner ? gettext("Last challenge: %(type)s, %(attacker)s against %(defender)s — nobody won.")
        : ch.unopposed ? gettext("Last challenge: %(type)s, %(attacker)s against %(defender)s — %(winner)s won (unopposed).")
          : gettext("Last challenge: %(type)s, %(attacker)s against %(defender)s — %(winner)s won."), sides)));
    }
    const claimed = typeof ch.claim === "number" && ch.winner === ch.attacker;
    const won = ch.unopposed ? (claimed ? gettext("%(name)s wins unopposed · claim %(claim)s.") : gettext("%(name)s wins unopposed."))
      : (claimed ? gettext("%(name)s wins · claim %(claim)s.") : gettext("%(name)s wins."));
    return h("div", { class: `lcg-challenge live type-${ch.type}`, id: "challenge", role: "status" },
      h("h3", {}, title),
      h("div", { class: "sides" },
        h("div", { class: "side-a" }, h("b", {}, gettext("Attackers:") + " "), ch.attackers.length ? side(ch.attackers).join(", ") : gettext("none"), h("span", { class: "total" }, " · " + fmt(gettext("strength %(n)s"), { n: a }))),
        h("div", { class: "side-d" }, h("b", {}, gettext("Defenders:") + " "), ch.defenders.length ? side(ch.defenders).join(", ") : (V.step === "4.2" || V.step === "4.2.1" ? gettext("not declared yet") : gettext("none")), h("span", { class: "total" }, " · " + fmt(gettext("strength %(n)s"), { n: d })))),
      ch.winner ? h("p", {}, fmt(won, { name: seatName(ch.winner), claim: ch.claim })) : null);
  }

  /* The melee's line above the challenge: the titles in words ("Titles: Bran holds Hand of the King, ..."), or the selection. */
  function meleeView() {
    const m = melee();
    if (!m) return null;
    const order = seats().filter((s) => !out(s));
    if (m.selecting) {
      const chosen = order.filter((s) => (m.picked || {})[s]);
      return h("p", { class: "melee-titles", id: "melee-titles" }, fmt(gettext("Choosing the titles in secret (%(done)s of %(all)s chosen); they are revealed together."),
        { done: chosen.length, all: order.length }));
    }
    const held = order.filter((s) => titleOf(s));
    if (!held.length) return null;
    const said = held.map((s) => (s === ME ? fmt(gettext("you hold %(title)s"), { title: cardName(titleOf(s)) })
      : fmt(gettext("%(name)s holds %(title)s"), { name: seatName(s), title: cardName(titleOf(s)) })));
    return h("p", { class: "melee-titles", id: "melee-titles" }, fmt(gettext("Titles: %(list)s."), { list: said.join("; ") }));
  }

  /* The whole table for a viewer: opts {seat, rows, interact, open, oppOpen, onOppToggle, redraw}. */
  function renderTable(view, summary, catalogue, opts) {
    opts = opts || {};
    use(view, summary, catalogue, opts);
    const me = ME && seats().includes(ME) ? ME : seats()[0];
    const them = opponentsInOrder(me);
    // several opponents (a melee): only the first (the one concerned now) opens by default, unless the page decides
    const fold = (o) => (them.length > 1 && o.oppOpen === undefined ? Object.assign({}, o, { oppOpen: (seat, i) => i === 0 }) : o);
    const areas = them.map((s, i) => area(s, Object.assign(fold(opts), { index: i })));
    const middle = h("div", { class: "lcg-middle" }, h("p", { class: "lcg-phase" }, phaseText(opts.status)), meleeView(), challengeView());
    if (!ME || !seats().includes(ME)) {   // a spectator: every area alike, no hand shown
      return h("div", { class: "lcg-whole" + (them.length > 1 ? " melee" : "") }, ...areas, middle, area(me, Object.assign(fold(opts), { spectate: true, index: 0 })));
    }
    return h("div", { class: "lcg-whole" + (them.length > 1 ? " melee" : "") }, ...areas, middle, area(me, opts));
  }

  // ------------------------------------------------------------------ events in words

  /* A line of the server's narrator (games/engine/lcg/narrate.py) with each seat by its player's name:
     a piece {text, seat} becomes the name, a "{p1}" in plain text too. */
  function lineNodes(line) {
    const fill = (t) => String(t ?? "").replace(/\{(\w+)\}/g, (m, s) => (seats().includes(s) ? seatName(s) : m));
    if (line.parts) return line.parts.map((p) => (p.seat ? h("span", { class: "seat-name" }, seatName(p.seat)) : fill(p.text)));
    return fill(line.text);
  }

  const REASONS = { claim: gettext("claim"), reserve: gettext("reserve"), unopposed: gettext("an unopposed challenge"), dominance: gettext("dominance"),
    renown: gettext("renown"), intimidate: gettext("intimidate"), pillage: gettext("pillage"), insight: gettext("insight") };
  function reason(r) { return r ? ` (${REASONS[r] || cardName(r)})` : ""; }
  function describeEvent(e, view, summary, catalogue, opts) {
    if (view) use(view, summary, catalogue || C, opts || { seat: ME, rows: ROWS });
    const t = e.type, who = seatName(e.seat);
    const list = (ids) => (ids || []).map(cardName).join(", ") || gettext("nothing");
    const scores = (o) => Object.entries(o || {}).map(([s, n]) => `${seatName(s)} ${n}`);
    const say = (template, values) => fmt(template, Object.assign({ who }, values || {}));
    const cardsN = (n) => fmt(ngettext("%(n)s card", "%(n)s cards", n), { n });
    const powerN = (n) => fmt(ngettext("%(n)s power", "%(n)s power", n), { n });
    switch (t) {
      case "mulligan": return say(e.mulligan ? gettext("%(who)s takes a mulligan.") : gettext("%(who)s keeps the opening hand."));
      case "setup_chosen": return say(gettext("%(who)s has chosen setup cards."));
      case "setup_revealed": return say(gettext("Setup cards revealed: %(list)s."), { list: Object.entries(e.cards || {}).map(([s, ids]) => `${seatName(s)}: ${list(ids)}`).join("; ") });
      case "draw": return e.cards ? say(gettext("%(who)s draws %(count)s: %(cards)s."), { count: cardsN(e.count), cards: list(e.cards) })
        : say(gettext("%(who)s draws %(count)s."), { count: cardsN(e.count) });
      case "phase": return say(gettext("Round %(round)s: the %(phase)s begins."), { round: e.round, phase: (PHASES[e.phase] || e.phase).toLowerCase() });
      case "round": return say(gettext("Round %(round)s begins."), { round: e.round });
      case "plot_chosen": return say(gettext("%(who)s has chosen a plot."));
      case "plots_revealed": return say(gettext("Plots revealed: %(list)s."), { list: Object.entries(e.plots || {}).map(([s, id]) => `${seatName(s)} ${cardName(id)}`).join(", ") });
      case "initiative": return say(gettext("%(name)s wins initiative (%(scores)s)."), { name: seatName(e.winner), scores: scores(e.initiative).join(", ") });
      case "first_player": return e.seat === e.by ? say(gettext("%(by)s names themself first player."), { by: seatName(e.by) })
        : say(gettext("%(by)s names %(name)s first player."), { by: seatName(e.by), name: seatName(e.seat) });
      case "income": return say(gettext("%(who)s collects %(gold)s."), { gold: goldWords(e.gold) });
      case "marshal": {
        const name = cardName(e.card);
        if (e.duplicate) return e.on ? say(gettext("%(who)s marshals %(card)s as a duplicate on %(host)s."), { card: name, host: cardName(e.on) })
          : say(gettext("%(who)s marshals %(card)s as a duplicate."), { card: name });
        return e.on ? say(gettext("%(who)s marshals %(card)s on %(host)s."), { card: name, host: cardName(e.on) }) : say(gettext("%(who)s marshals %(card)s."), { card: name });
      }
      case "ambush": return e.on ? say(gettext("%(who)s ambushes with %(card)s on %(host)s."), { card: cardName(e.card), host: cardName(e.on) })
        : say(gettext("%(who)s ambushes with %(card)s."), { card: cardName(e.card) });
      case "put_into_play": {
        const mine = e.seat === ME;
        const template = e.duplicate ? (mine ? gettext("%(card)s comes into play under your control as a duplicate.") : gettext("%(card)s comes into play under %(name)s's control as a duplicate."))
          : (mine ? gettext("%(card)s comes into play under your control.") : gettext("%(card)s comes into play under %(name)s's control."));
        return say(template, { card: cardName(e.card), name: seatName(e.seat) });
      }
      case "triggered": return (e.targets || []).length ? say(gettext("%(who)s uses %(card)s on %(targets)s."), { card: cardName(e.card), targets: e.targets.map(describeValue).join(", ") })
        : say(gettext("%(who)s uses %(card)s."), { card: cardName(e.card) });
      case "played": return (e.targets || []).length ? say(gettext("%(who)s plays %(card)s on %(targets)s."), { card: cardName(e.card), targets: e.targets.map(describeValue).join(", ") })
        : say(gettext("%(who)s plays %(card)s."), { card: cardName(e.card) });
      case "forced": return say(gettext("%(card)s: forced ability (%(name)s)."), { card: cardName(e.card), name: seatName(e.seat) });
      case "cancelled": return say(gettext("%(card)s is cancelled."), { card: cardName(e.card) });
      case "challenge": {
        const stealth = Object.entries(e.stealth || {}).map(([a, d]) => fmt(gettext("%(card)s bypasses %(target)s"), { card: cardName(a), target: cardName(d) })).join(", ");
        const values = { type: challengeType(e.challenge), defender: seatName(e.defender), attackers: list(e.attackers), stealth };
        return say(stealth ? gettext("%(who)s declares a %(type)s challenge against %(defender)s with %(attackers)s (stealth: %(stealth)s).")
          : gettext("%(who)s declares a %(type)s challenge against %(defender)s with %(attackers)s."), values);
      }
      case "no_challenge": return say(gettext("%(who)s declares no more challenges."));
      case "defenders": return say(gettext("%(who)s defends with %(cards)s."), { cards: (e.defenders || []).length ? list(e.defenders) : gettext("nobody") });
      case "challenge_result": {
        const values = { type: ICONS[e.challenge] ? ICONS[e.challenge][1] : cap(e.challenge), scores: scores(e.strength).join(" " + gettext("against") + " "), name: seatName(e.winner) };
        if (!e.winner) return say(gettext("%(type)s challenge: %(scores)s; nobody wins."), values);
        return say(e.unopposed ? gettext("%(type)s challenge: %(scores)s; %(name)s wins unopposed.") : gettext("%(type)s challenge: %(scores)s; %(name)s wins."), values);
      }
      case "claim": return say(gettext("%(who)s applies %(type)s claim %(claim)s."), { type: challengeType(e.challenge), claim: e.claim });
      case "power": {
        const whom = e.card === "faction" ? fmt(gettext("%(name)s's faction card"), { name: who }) : cardName(e.card);
        return say(e.amount >= 0 ? gettext("%(whom)s gains %(power)s%(why)s.") : gettext("%(whom)s loses %(power)s%(why)s."), { whom, power: powerN(Math.abs(e.amount)), why: reason(e.reason) });
      }
      case "power_moved": return say(gettext("%(power)s moves from %(from)s faction card to %(to)s."),
        { power: powerN(e.amount), from: possessive(e.from), to: possessive(e.to), from_name: seatName(e.from), to_name: seatName(e.to) });
      case "discard": return say(e.to === "dead" ? gettext("%(who)s discards %(cards)s (to the dead pile)%(why)s.") : gettext("%(who)s discards %(cards)s%(why)s."),
        { cards: e.cards ? list(e.cards) : cardName(e.card), why: reason(e.reason) });
      case "leaves_play": {
        const mine = e.seat === ME;
        const where = e.to === "dead" ? (mine ? gettext("%(card)s leaves play to your dead pile (killed)%(why)s.") : gettext("%(card)s leaves play to %(name)s's dead pile (killed)%(why)s."))
          : e.to === "hand" ? (mine ? gettext("%(card)s leaves play to your hand%(why)s.") : gettext("%(card)s leaves play to %(name)s's hand%(why)s."))
            : (mine ? gettext("%(card)s leaves play to your %(pile)s pile%(why)s.") : gettext("%(card)s leaves play to %(name)s's %(pile)s pile%(why)s."));
        return say(where, { card: cardName(e.card), name: seatName(e.seat), pile: e.to, why: reason(e.reason) });
      }
      case "kneel": return say(gettext("%(card)s kneels%(why)s."), { card: cardName(e.card), why: reason(e.reason) });
      case "stand": return e.card ? say(gettext("%(card)s stands."), { card: cardName(e.card) }) : gettext("Every card stands.");
      case "dominance": return e.winner ? say(gettext("%(name)s wins dominance (%(scores)s)."), { name: seatName(e.winner), scores: scores(e.total).join(", ") })
        : say(gettext("Nobody wins dominance (%(scores)s)."), { scores: scores(e.total).join(", ") });
      case "gold": return say(e.gold >= 0 ? gettext("%(who)s gains %(gold)s%(why)s.") : gettext("%(who)s loses %(gold)s%(why)s."),
        { gold: goldWords(Math.abs(e.gold)), why: e.card ? ` (${cardName(e.card)})` : "" });
      case "gold_returned": return e.card ? say(gettext("Gold returns to the treasury (%(card)s)."), { card: cardName(e.card) }) : gettext("Gold returns to the treasury.");
      case "named": {
        const what = e.challenge ? fmt(gettext("a %(type)s challenge"), { type: challengeType(e.challenge) }) : e.card_type ? fmt(gettext("the type %(type)s"), { type: typeName(e.card_type).toLowerCase() })
          : e.x !== undefined ? `X = ${e.x}` : e.opponent ? seatName(e.opponent) : gettext("a choice");
        return say(gettext("%(who)s names %(what)s for %(card)s."), { what, card: cardName(e.card) });
      }
      case "plots_recycled": return say(gettext("%(who)s takes the used plots back as a plot deck."));
      case "revealed": return say(gettext("%(who)s reveals %(card)s%(why)s."), { card: cardName(e.card), why: reason(e.reason) });
      case "returned_to_hand": {
        const mine = e.seat === ME;
        const template = e.from ? (mine ? gettext("%(card)s returns to your hand from the %(pile)s.") : gettext("%(card)s returns to %(name)s's hand from the %(pile)s."))
          : (mine ? gettext("%(card)s returns to your hand.") : gettext("%(card)s returns to %(name)s's hand."));
        return say(template, { card: cardName(e.card), name: seatName(e.seat), pile: e.from });
      }
      case "duplicate_placed": return say(gettext("%(who)s places a duplicate of %(card)s."), { card: cardName(e.card) });
      case "duplicate_discarded": return say(gettext("%(who)s discards a duplicate of %(card)s to save it."), { card: cardName(e.card) });
      case "saved": return say(gettext("%(card)s is saved."), { card: cardName(e.card) });
      case "attached": return say(gettext("%(card)s is attached to %(host)s."), { card: cardName(e.card), host: cardName(e.on) });
      case "token": return say(gettext("%(card)s gets a %(token)s token."), { card: cardName(e.card), token: TOKEN_NAMES[e.token] || e.token });
      case "removed_from_challenge": return say(gettext("%(card)s is removed from the challenge."), { card: cardName(e.card) });
      case "shuffled_into_deck": return (e.cards || []).length ? say(gettext("%(who)s shuffles %(cards)s into the deck."), { cards: list(e.cards) }) : say(gettext("%(who)s shuffles the deck."));
      case "look": return e.cards ? say(gettext("%(who)s looks at %(count)s: %(cards)s."), { count: cardsN(e.count), cards: list(e.cards) })
        : say(gettext("%(who)s looks at %(count)s."), { count: cardsN(e.count) });
      case "to_bottom": return say(e.seat === ME ? gettext("%(count)s go to the bottom of your deck.") : gettext("%(count)s go to the bottom of %(name)s's deck."), { count: cardsN(e.count), name: seatName(e.seat) });
      case "reordered": return say(e.seat === ME ? gettext("%(count)s on top of your deck are put back in a chosen order.") : gettext("%(count)s on top of %(name)s's deck are put back in a chosen order."),
        { count: cardsN(e.count), name: seatName(e.seat) });
      case "bestow": return say(gettext("%(who)s bestows %(gold)s on %(card)s."), { gold: goldWords(e.gold ?? e.amount ?? 0), card: cardName(e.card) });
      case "eliminated": return say(gettext("%(who)s is eliminated."));
      case "game_over": {
        const values = { name: seatName(e.winner), reason: String(e.reason || "").replace(/_/g, " ") };
        return say(e.reason === "power" ? gettext("Game over: %(name)s wins with 15 power.") : e.reason ? gettext("Game over: %(name)s wins (%(reason)s).") : gettext("Game over: %(name)s wins."), values);
      }
      default: {
        const parts = Object.entries(e).filter(([k]) => k !== "type" && k !== "version").map(([k, v]) => `${k.replace(/_/g, " ")} ${describeValue(v)}`);
        return cap(t) + (parts.length ? ": " + parts.join("; ") : "") + ".";
      }
    }
  }

  /* An action in words: "Marshal Robb Stark", "Use Littlefinger's ability", "Pass". */
  function describeAction(a, ctx) {
    const [k, v] = Object.entries(a)[0];
    const targets = (x) => (x && (x.targets || []).length ? " → " + x.targets.map(refLabel).join(", ") : "");
    const withX = (x) => (x && x.x !== undefined ? ` (X = ${x.x})` : "");
    const cardOf = (x) => (typeof x === "string" ? x : x && x.card);
    const onto = (x, label) => (x && x.on ? fmt(gettext("%(card)s on %(host)s"), { card: label, host: refLabel(x.on) }) : label);
    const thenJoin = (items) => items.reduce((out, item) => (out === null ? item : fmt(gettext("%(first)s, then %(next)s"), { first: out, next: item })), null) || "";
    switch (k) {
      case "pass": return (ctx && ctx.passLabel) || gettext("Pass");
      case "mulligan": return v ? gettext("Mulligan: shuffle this hand back and draw 7 new cards") : gettext("Keep this hand");
      case "plot": return fmt(gettext("Choose %(card)s"), { card: cardName(v) });
      case "first_player": return v === ME ? gettext("I go first") : fmt(gettext("%(name)s goes first"), { name: seatName(v) });
      case "marshal": return fmt(gettext("Marshal %(card)s"), { card: onto(v, cardName(cardOf(v))) });
      case "ambush": return fmt(gettext("Ambush: %(card)s"), { card: onto(v, cardName(cardOf(v))) }) + withX(v);
      case "play": return fmt(gettext("Play %(card)s"), { card: cardName(cardOf(v)) }) + targets(v) + withX(v);
      case "trigger": {
        const c = cardOf(v);
        if (v && v.duplicate) return fmt(gettext("Discard a duplicate to save %(card)s"), { card: refLabel(c) });
        return fmt(gettext("Use %(card)s"), { card: c === "faction" ? gettext("your faction card") : refLabel(c) })
          + (v && v.ability ? " " + fmt(gettext("(ability %(n)s)"), { n: v.ability }) : "") + targets(v);
      }
      case "renown": case "insight": case "pillage":
        return v.length ? `${KEYWORDS[k]}: ${v.map(refLabel).join(", ")}` : { renown: gettext("No renown"), insight: gettext("No insight"), pillage: gettext("No pillage") }[k];
      case "intimidate": return v ? fmt(gettext("Kneel %(card)s (intimidate)"), { card: refLabel(v) }) : gettext("Do not intimidate");
      case "order": return thenJoin(v.map((x) => (C.cards[x] ? cardName(x) : ORDER_WORDS[x] || cap(x))));
      case "winner": return fmt(gettext("%(name)s wins"), { name: seatName(v) });
      case "kill": return fmt(gettext("Kill %(cards)s"), { cards: v.map(refLabel).join(", ") });
      case "discard": return fmt(gettext("Discard %(cards)s"), { cards: v.map(cardName).join(", ") });
      case "choose": return describeChoice(v, ctx);
      case "title": return fmt(gettext("Take %(title)s"), { title: cardName(v) });
      case "redirect": return v ? gettext("Use Crown Regent: redirect this challenge to another opponent") : gettext("Do not redirect the challenge");
      case "redirect_to": return fmt(gettext("Redirect the challenge to %(name)s"), { name: seatName(typeof v === "object" && v ? v.opponent : v) });
      case "claim_opponents": return v.length ? fmt(gettext("Apply the claim against the defender and %(names)s too"), { names: v.map(seatName).join(", ") })
        : gettext("Apply the claim against the defender only");
      default: return cap(k) + ": " + describeValue(v);
    }
  }
  // what an "order" decision may list besides cards: the keywords of a won challenge
  const ORDER_WORDS = { renown: gettext("Renown"), insight: gettext("Insight"), pillage: gettext("Pillage"), intimidate: gettext("Intimidate") };
  // the options of the cards that say "choose one" (the engine's decision names the card, `what` "mode", the
  // option's number), in the order the engine numbers them (games/engine/lcg: abilities.py, cards_baratheon_targaryen.py)
  const MODE_WORDS = {
    great_kraken: [gettext("Draw 1 card"), gettext("Your faction gains 1 power")],
    vanguard_lancer: [gettext("Discard 1 power from a character of your opponent's"), gettext("Discard 1 power from your opponent's faction card")],
    fire_and_blood: [gettext("Shuffle the character into your deck"), gettext("Put the character into play")],
  };
  function describeChoice(v, ctx) {
    const d = (ctx && ctx.decision) || V.decision || {};
    if (d.what === "mode") return (MODE_WORDS[base(d.card)] || [])[v] || fmt(gettext("Option %(n)s"), { n: v + 1 });
    if (d.what === "x") return `X = ${v}`;
    if (d.what === "seat") return v === ME ? gettext("Me") : seatName(v);
    if (d.what === "opponent") return seatName(v);   // a card's "an opponent" in a melee
    if (d.what === "challenge_type") return ICONS[v] ? ICONS[v][1] : cap(v);
    if (d.what === "card_type") return TYPES[v] || cap(v);
    if (d.what === "order") return fmt(gettext("%(cards)s (top first)"), { cards: v.map(cardName).reduce((out, item) => (out === null ? item : fmt(gettext("%(first)s, then %(next)s"), { first: out, next: item })), null) || "" });
    if (!d.what && typeof v === "number") return goldWords(v);   // bestow
    if (v === null) return gettext("None (decline)");
    if (v === true) return gettext("Yes");
    if (v === false) return gettext("No");
    if (Array.isArray(v)) return v.length ? v.map(refLabel).join(", ") : gettext("None");
    return refLabel(v);
  }

  /* The replay (templates/web/replay.html, static/js/replay.js): the table after `step` actions as the
     chosen viewer saw it, the step in words (the server's lines, or this page's sentences). */
  const REPLAY_OPEN = new Set();
  let replayData = null;
  function showReplayStep(data, step, steps) {
    replayData = data;
    const catalogue = JSON.parse(document.getElementById("lcg-cards").textContent);
    const names = JSON.parse((document.getElementById("lcg-seat-names") || { textContent: "{}" }).textContent);
    const rows = Object.entries(names).map(([seat, user]) => ({ seat, user }));
    const redraw = () => showReplayStep(replayData, step, steps);
    const table = renderTable(data.view, data.summary, catalogue, { seat: data.seat, rows, open: REPLAY_OPEN, redraw, status: data.view.over ? "finished" : "active" });
    document.getElementById("replay-table").replaceChildren(table);
    document.getElementById("replay-pos").textContent = fmt(gettext("Step %(step)s of %(steps)s"), { step, steps }) + " · " + phaseText(data.view.over ? "finished" : "active");
    const box = document.getElementById("replay-entry");
    if (!data.entry) { box.replaceChildren(h("p", {}, gettext("The game as it started: hands dealt, before the mulligans."))); return; }
    const SOURCE = { bot: " " + gettext("(played by the computer)"), timeout: " " + gettext("(time ran out: the default was played)") };
    const lines = data.entry.lines && data.entry.lines.length ? data.entry.lines : data.entry.events.map((ev) => ({ text: describeEvent(ev) }));
    box.replaceChildren(h("p", {}, h("strong", {}, seatName(data.entry.seat)), SOURCE[data.entry.source] || ""),
      lines.length ? h("ul", { class: "replay-lines" }, lines.map((l) => h("li", { class: "log-event" + (l.private ? " private" : "") }, lineNodes(l))))
        : h("p", {}, gettext("Nothing you could see happened at this step.")));
  }

  window.LcgTable = { showReplayStep,  renderTable, describeEvent, describeAction, phaseText, cardView, lineNodes, seatName: (s) => seatName(s), namesIn: (t) => namesIn(t) };

  // ================================================================== the game page

  const root = document.getElementById("game");
  if (!root || !root.classList.contains("lcg")) return;
  const { post } = window.WesterosClient;
  const SEAT = root.dataset.seat || null;
  const INVITE = root.dataset.invite || "";
  const API = root.dataset.api;
  const CATALOGUE = JSON.parse(document.getElementById("lcg-cards").textContent);
  const $ = (id) => document.getElementById(id);
  const phone = window.matchMedia("(max-width: 700px)");
  let game = null;
  let version = -1;
  const oppOpen = {};         // the reader's own choice for each other seat's area (none: by screen width and order)
  const openedPiles = new Set();
  let sel = null;             // the composer's selection for the decision pending (see composerFor)
  let menu = null;            // {key, actions}: a card with several possible actions, asking which

  function q(path) { return API + path + (INVITE ? (path.includes("?") ? "&" : "?") + "invite=" + encodeURIComponent(INVITE) : ""); }
  function showError(text) { const box = $("error"); box.textContent = text || ""; box.hidden = !text; }
  function tick() { if (window.tickDeadlines) window.tickDeadlines(); }

  const load = window.WesterosClient.coalesced(async () => {
    const r = await fetch(q(""), { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) { showError(fmt(gettext("Could not load the game (%(status)s)."), { status: r.status })); return; }
    game = await r.json();
    version = game.version;
    render();
    if (window.WesterosTurn) window.WesterosTurn.update(game);
    if (window.WesterosTable) window.WesterosTable.update(game, load);  // seat controls, end of the game (table_controls.js)
    loadLog();
  });

  async function send(action) {
    showError("");
    const res = await post(q("/actions"), { version: version, action: action });
    if (res.ok) { menu = null; await load(); return true; }
    useGame();
    showError(fmt(gettext("Refused: %(reason)s"), { reason: namesIn(res.reason) }));
    if (res.status === 409) await load();
    return false;
  }


  function useGame() { use(game.view, game.summary, CATALOGUE, { seat: SEAT, rows: game.seats || [], interact: interact, open: openedPiles, status: game.status }); }
  function myKind() { return SEAT && game && game.status === "active" ? (game.pending || {})[SEAT] : null; }
  function decision() { return (game.view && game.view.decision) || {}; }

  // ------------------------------------------------------------------ what a click on a card does

  /* The element key ("hand:<index>", "play:<uid>", "faction:<seat>") each legal action is made from. */
  function keysOf(a) {
    const [k, v] = Object.entries(a)[0];
    const hand = (id) => (player(SEAT).hand || []).map((c, i) => (c === id ? "hand:" + i : null)).filter(Boolean);
    const play = (ref, order) => { const u = findUid(ref, order); return u ? ["play:" + u] : []; };
    const cardOf = (x) => (typeof x === "string" ? x : x && x.card);
    if (k === "marshal" || k === "play" || k === "ambush") return hand(cardOf(v));
    if (k === "trigger") return cardOf(v) === "faction" ? ["faction:" + SEAT] : play(cardOf(v));
    if (k === "intimidate") return v ? play(v, [(V.challenge && V.challenge.defender) || other(SEAT)]) : [];
    if (k === "choose" || k === "kill") {
      const x = Array.isArray(v) && v.length === 1 && k === "kill" ? v[0] : v;
      if (x && typeof x === "object" && !Array.isArray(x) && x.zone === "hand" && (!x.seat || x.seat === SEAT)) return hand(x.card);
      if (x && typeof x === "object" && !Array.isArray(x) && x.zone) return [];
      if (typeof x === "string" || (x && typeof x === "object" && !Array.isArray(x) && x.card)) {
        if (typeof x === "string" && (seats().includes(x) || !C.cards[base(x)])) return [];
        return play(x);
      }
    }
    return [];
  }
  /* Legal actions that one click on a card can make, by element key. */
  function clickable() {
    const legal = game.legal_actions || [];
    const byKey = new Map();
    if (sel) return byKey;
    for (const a of legal) for (const key of keysOf(a)) { if (!byKey.has(key)) byKey.set(key, []); byKey.get(key).push(a); }
    return byKey;
  }
  let clickMap = new Map();

  /* The drawing asks, for each card, how it reacts: selectable in a composer, actionable, or plain. */
  function interact(key) {
    if (!game || !myKind()) return null;
    if (sel && sel.eligible) {
      const ok = sel.eligible(key);
      if (!ok) return null;
      const on = sel.isSelected(key);
      return { cls: "selectable" + (on ? " selected" : ""), pressed: on, click: () => { sel.toggle(key); renderAfterPick(); } };
    }
    const acts = clickMap.get(key);
    if (!acts) return null;
    return { cls: "actionable" + (menu && menu.key === key ? " selected" : ""),
      click: () => {
        if (acts.length === 1) { send(acts[0]); return; }
        menu = { key, actions: acts };
        renderDecision();
        const first = $("decision").querySelector(".card-menu button");
        if (first) first.focus();
      } };
  }
  interact.handNote = () => {
    const kind = myKind();
    if (!kind) return null;
    if (sel && sel.handNote) return sel.handNote();
    for (const key of clickMap.keys()) if (key.startsWith("hand:")) return gettext("the highlighted cards can be played now: click one");
    return null;
  };

  // ------------------------------------------------------------------ composers (no list from the server)

  const decisionKey = () => { const d = Object.assign({}, decision()); delete d.seats; return `${myKind()}|${game.view.round}|${game.view.step}|${JSON.stringify(d)}`; };
  function nameOf(uid) { return inPlay()[uid].name; }
  const mineInPlay = (type) => (player(SEAT).play || []).filter((u) => card(V.cards[u]).type === type);

  /* A selection over element keys, with at most `max` picks. */
  function picker(eligible, max) {
    const picked = [];
    return {
      picked, eligible,
      isSelected: (key) => picked.includes(key),
      toggle: (key) => {
        const i = picked.indexOf(key);
        if (i >= 0) picked.splice(i, 1);
        else { if (max && picked.length >= max) picked.shift(); picked.push(key); }
      },
    };
  }
  function composerFor(kind) {
    const d = decision();
    const legal = game.legal_actions;
    const hand = player(SEAT).hand || [];
    if (kind === "setup") {
      const p = picker((key) => key.startsWith("hand:") && ["character", "location", "attachment"].includes(card(hand[+key.slice(5)]).type));
      p.hosts = {};
      p.handNote = () => gettext("click the cards to place (at most 8 gold in cost)");
      return p;
    }
    if (kind === "discard" && !legal) {
      const p = picker((key) => key.startsWith("hand:"), d.count);
      p.handNote = () => fmt(ngettext("choose %(n)s card to discard", "choose %(n)s cards to discard", d.count), { n: d.count });
      return p;
    }
    if (kind === "kill" && !legal) return picker((key) => key.startsWith("play:") && mineInPlay("character").includes(key.slice(5)), d.count);
    if (kind === "challenge") {
      const p = picker((key) => key.startsWith("play:") && mineInPlay("character").includes(key.slice(5)) && !V.inplay[key.slice(5)].kneeling);
      p.type = null; p.stealth = {};
      return p;
    }
    if (kind === "defenders") {
      return picker((key) => key.startsWith("play:") && mineInPlay("character").includes(key.slice(5)) && !V.inplay[key.slice(5)].kneeling);
    }
    if (kind === "plot") {
      const p = picker((key) => key.startsWith("plotdeck:"), 1);
      return p;
    }
    if (["renown", "insight", "pillage"].includes(kind)) {
      const opts = legal ? [...new Set(legal.flatMap((a) => a[kind]))] : null;
      const p = picker((key) => key.startsWith("play:") && (opts ? opts.includes(nameOf(key.slice(5))) : mineInPlay("character").includes(key.slice(5))));
      p.options = opts;
      return p;
    }
    if (kind === "choose" && (d.what === "cards" || (legal === null && d.what !== "x"))) {
      // several cards at once: the union of what the server lists, or (too many to list) any card you can see
      const p = { picked: [], eligible: (key) => p.refs.has(key), isSelected: (key) => p.picked.includes(key),
        toggle: (key) => { const i = p.picked.indexOf(key); if (i >= 0) p.picked.splice(i, 1); else { if (d.max && p.picked.length >= d.max) p.picked.shift(); p.picked.push(key); } } };
      p.refs = new Map();
      if (legal) {
        for (const a of legal) for (const ref of a.choose || []) p.refs.set(refKey(ref), ref);
      } else {
        (player(SEAT).hand || []).forEach((id, i) => p.refs.set("hand:" + i, { card: id, zone: "hand" }));
        for (const [uid, x] of Object.entries(inPlay())) p.refs.set("play:" + uid, { card: x.name, seat: x.seat });
        for (const zone of ["discard", "dead"]) (player(SEAT)[zone] || []).forEach((u, i) => p.refs.set(`pile:${SEAT}:${zone}:${i}`, { card: V.cards[u], zone }));
      }
      return p;
    }
    return null;
  }
  /* The element key of a `choose` reference (cards in piles or decks get a key of their own). */
  function refKey(ref) {
    if (ref && typeof ref === "object" && ref.zone === "hand") {
      const i = (player(SEAT).hand || []).indexOf(ref.card);
      return i >= 0 ? "hand:" + i : "ref:" + JSON.stringify(ref);
    }
    if (ref && typeof ref === "object" && ref.zone) return "ref:" + JSON.stringify(ref);
    const u = findUid(ref);
    return u ? "play:" + u : "ref:" + JSON.stringify(ref);
  }

  function renderAfterPick() { drawTable(); renderDecision(); }

  // ------------------------------------------------------------------ rendering

  function render() {
    useGame();
    const kind = myKind();
    const key = kind ? decisionKey() : null;
    if (!sel || sel.key !== key) {
      sel = kind ? composerFor(kind) : null;
      if (sel) sel.key = key;
      menu = null;
    }
    if (menu && !(game.legal_actions || []).some((a) => menu.actions.some((m) => JSON.stringify(m) === JSON.stringify(a)))) menu = null;
    clickMap = clickable();
    $("jump").hidden = !kind;
    $("phase").textContent = phaseText(game.status);
    drawTable();
    renderDecision();
  }

  function drawTable() {
    useGame();
    const keep = $("table").querySelector(".lcg-hand");
    const scroll = keep ? keep.scrollLeft : 0;
    // one opponent: open but on a phone; several (a melee): the first shown (the one concerned now) open but on a phone
    const open = (seat, i) => (seat in oppOpen ? oppOpen[seat] : !phone.matches && i === 0);
    $("table").replaceChildren(renderTable(game.view, game.summary, CATALOGUE, {
      seat: SEAT, rows: game.seats || [], interact, open: openedPiles, status: game.status, oppOpen: open,
      onOppToggle: (isOpen, seat) => { oppOpen[seat] = isOpen; }, redraw: drawTable }));
    const hand = $("table").querySelector(".lcg-hand");
    if (hand) hand.scrollLeft = scroll;
    tick();
  }

  function button(act, label, cls) {
    return h("button", { type: "button", class: "choice" + (cls ? " " + cls : ""), "data-action": JSON.stringify(act), onclick: () => send(act) },
      label || describeAction(act, { decision: decision(), passLabel: passLabel() }));
  }
  function passLabel() {
    const kind = myKind();
    if (kind === "action" && V.window && V.window.name === "marshaling" && V.active === SEAT) return gettext("Done marshaling");
    if (kind === "action") return gettext("Pass (no action)");
    if (kind === "challenge") return gettext("No more challenges");
    if (kind === "interrupt" || kind === "reaction") return gettext("Pass (no ability)");
    return gettext("Pass");
  }
  const TITLES = { mulligan: gettext("keep this hand or mulligan"), setup: gettext("place your setup cards"), plot: gettext("choose your plot"),
    first_player: gettext("choose the first player"), action: gettext("act, or pass"), interrupt: gettext("an interrupt, or pass"), reaction: gettext("a reaction, or pass"),
    challenge: gettext("declare a challenge"), defenders: gettext("declare defenders"), kill: gettext("choose characters to kill"), discard: gettext("discard cards"),
    renown: gettext("renown"), insight: gettext("insight"), pillage: gettext("pillage"), intimidate: gettext("intimidate"), order: gettext("choose the order"),
    winner: gettext("name the winner"), choose: gettext("a choice"), title: gettext("choose your title"),
    redirect: gettext("redirect the challenge?"), redirect_to: gettext("the challenge's new defender"), claim_opponents: gettext("whom the claim hits") };

  function renderDecision() {
    const box = $("decision");
    useGame();
    const kind = myKind();
    if (!SEAT) { box.replaceChildren(h("h2", {}, gettext("Spectating")), h("p", {}, gettext("You see what any spectator may see: no hand, no plot deck."))); return; }
    if (game.status !== "active") {
      box.replaceChildren(h("h2", {}, gettext("Game over")), h("p", {}, V.winner ? fmt(gettext("%(name)s wins."), { name: seatName(V.winner) }) : ""), h("p", {}, h("a", { href: `/games/${game.id}/replay` }, gettext("Replay it step by step"))));
      return;
    }
    if (!kind) {
      const waiting = Object.entries(game.pending || {}).map(([s, k]) => `${seatName(s)} (${DECISIONS[k] || cap(k)})`).join(", ");
      box.replaceChildren(h("h2", {}, gettext("Nothing to decide")), h("p", {}, waiting ? fmt(gettext("Waiting for %(names)s."), { names: waiting }) : gettext("Waiting.")));
      return;
    }
    const me = seatRow(SEAT);
    const d = decision();
    const title = d.card && kind === "choose" ? fmt(gettext("a choice for %(card)s"), { card: cardName(d.card) }) : (TITLES[kind] || cap(kind));
    const head = h("h2", {}, gettext("Your decision:") + " ", title, " ", me.deadline_at ? h("span", { class: "deadline", "data-deadline": me.deadline_at }, "") : "");
    let body;
    try { body = decisionBody(kind); } catch (e) { body = genericBody(); }
    box.replaceChildren(head, body);   // extend, concede and the pause vote: the seat bar (table_controls.js)
    tick();
  }

  function cardOfDecision() {
    const d = decision();
    if (!d.card) return null;
    return h("div", { class: "d-card" }, h("p", { class: "about" }, h("strong", {}, cardName(d.card)), card(d.card).text ? ": " : "", textNodes(card(d.card).text)));
  }

  function genericBody() {
    const legal = game.legal_actions || [];
    return h("div", {}, cardOfDecision(), h("div", { class: "choices" }, legal.map((a) => button(a, null, a.pass ? "pass" : ""))));
  }

  function cardMenu() {
    if (!menu) return null;
    const [, what] = menu.key.split(":");
    const id = menu.key.startsWith("hand:") ? player(SEAT).hand[+what] : menu.key.startsWith("play:") ? V.cards[what] : null;
    return h("div", { class: "card-menu", role: "group", "aria-label": gettext("What to do with this card") },
      h("p", {}, id ? h("strong", {}, cardName(id)) : gettext("This card"), ": " + gettext("choose one")),
      h("div", { class: "choices" }, menu.actions.map((a) => button(a))),
      h("button", { type: "button", class: "secondary small-button", onclick: () => { menu = null; renderAfterPick(); } }, gettext("Cancel")));
  }

  function decisionBody(kind) {
    const legal = game.legal_actions;
    const d = decision();
    const pass = (legal || []).find((a) => a.pass);
    if (kind === "mulligan") return h("div", {}, h("p", {}, gettext("Your opening hand is below. Keep it, or shuffle it back and draw 7 new cards (once).")),
      h("div", { class: "choices" }, (legal || []).map((a) => button(a, null, a.mulligan ? "secondary" : "keep"))));
    if (kind === "setup") return setupBody();
    if (kind === "plot") return plotBody(legal || []);
    if (kind === "challenge") return challengeBody();
    if (kind === "defenders") return defendersBody();
    if (kind === "kill" && sel && sel.picked) return killBody();
    if (kind === "discard" && sel && sel.picked) return discardBody();
    if (["renown", "insight", "pillage"].includes(kind)) return keywordBody(kind);
    if (kind === "first_player" || kind === "winner") return h("div", {}, h("div", { class: "choices" }, (legal || []).map((a) => button(a))));
    if (kind === "title") return titleBody(legal || []);
    if (kind === "choose" && sel && sel.refs) return cardsBody();
    if (kind === "action" || kind === "interrupt" || kind === "reaction") {
      const acts = (legal || []).filter((a) => !a.pass);
      const marshal = V.window && V.window.name === "marshaling" && V.active === SEAT;
      const intro = kind === "action"
        ? (marshal ? fmt(gettext("Marshal cards from your hand (you have %(gold)s), use an action, or say you are done."), { gold: goldWords(player(SEAT).gold || 0) })
          : acts.length ? gettext("You may use an action now, or pass.") : gettext("You have no action to take now: pass."))
        : (acts.length ? (kind === "interrupt" ? gettext("You may interrupt with:") : gettext("You may react with:")) : gettext("Nothing to use now: pass."));
      return h("div", {}, cardMenu(), h("p", {}, intro),
        acts.length ? h("p", { class: "small" }, gettext("Click a highlighted card, or a button:")) : null,
        acts.length ? h("div", { class: "choices acts" }, acts.map((a) => button(a))) : null,
        pass ? h("p", {}, button(pass, passLabel(), "pass")) : null);
    }
    return h("div", {}, cardMenu(), cardOfDecision(), kind === "order" ? h("p", {}, gettext("Resolve them in this order:")) : null,
      h("div", { class: "choices" }, (legal || []).map((a) => button(a, null, a.pass || a.choose === null || a.intimidate === null ? "pass" : ""))));
  }

  const confirmBar = (label, act, disabled, id) => h("p", {}, h("button", { type: "button", id: id || "confirm", class: "confirm", disabled: !!disabled,
    "data-action": act ? JSON.stringify(act) : null, onclick: () => { if (act) send(act); } }, label));

  function setupBody() {
    const hand = player(SEAT).hand || [];
    const picked = sel.picked.map((k) => +k.slice(5));
    const chars = picked.filter((i) => card(hand[i]).type === "character");
    // duplicates: a second copy of a unique card placed with it costs 0
    const seen = new Set(); let cost = 0; let limited = 0;
    const entries = [];
    for (const i of picked) {
      const id = hand[i], c = card(id);
      const dup = c.unique && seen.has(id);
      seen.add(id);
      if (!dup) { cost += c.cost || 0; if (c.keywords && c.keywords.limited) limited += 1; }
      entries.push({ i, id, dup, type: c.type });
    }
    const hostName = (hi) => {   // "id#n": n among the non-duplicate placed characters of that id
      const id = hand[hi]; let n = 0;
      for (const e of entries) { if (e.type === "character" && !e.dup && e.id === id) n += 1; if (e.i === hi) break; }
      return `${id}#${n}`;
    };
    const ordered = [...entries.filter((e) => e.type !== "attachment"), ...entries.filter((e) => e.type === "attachment")];
    let missingHost = false;
    const act = ordered.map((e) => {
      if (e.type !== "attachment" || e.dup) return e.id;
      const host = sel.hosts[e.i];
      if (host === undefined || !chars.includes(host)) { missingHost = true; return e.id; }
      return { card: e.id, on: hostName(host) };
    });
    const attachments = entries.filter((e) => e.type === "attachment" && !e.dup);
    return h("div", {},
      h("p", {}, gettext("Choose the cards you put into play face down: characters, locations and attachments from your hand, at most 8 gold in printed cost, at most one Limited card. Click them in your hand.")),
      h("p", { class: "tally" }, fmt(gettext("Chosen: %(cards)s · cost %(cost)s of 8"), { cards: entries.length ? entries.map((e) => (e.dup ? fmt(gettext("%(card)s (duplicate)"), { card: cardName(e.id) }) : cardName(e.id))).join(", ") : gettext("nothing"), cost })
        + (limited > 1 ? " · " + gettext("more than one Limited card") : "")),
      attachments.map((e) => h("label", { class: "host" }, fmt(gettext("%(card)s goes on"), { card: cardName(e.id) }) + " ",
        h("select", { "data-for": e.i, onchange: (ev) => { sel.hosts[e.i] = ev.target.value === "" ? undefined : +ev.target.value; renderAfterPick(); } },
          h("option", { value: "" }, gettext("choose a character")),
          chars.map((ci) => h("option", { value: ci, selected: sel.hosts[e.i] === ci }, cardName(hand[ci])))))),
      confirmBar(entries.length ? fmt(ngettext("Place these %(n)s card", "Place these %(n)s cards", entries.length), { n: entries.length }) : gettext("Place nothing"), { setup: act }, missingHost || cost > 8, "confirm-setup"));
  }

  function plotBody(legal) {
    const plots = [...new Set(legal.map((a) => a.plot))];
    const chosen = sel.picked[0] ? sel.picked[0].slice(9) : null;
    const role = (id) => ({ cls: "selectable" + (chosen === id ? " selected" : ""), pressed: chosen === id, click: () => { sel.picked.splice(0, 1, "plotdeck:" + id); renderDecision(); } });
    const saved = INTERACT;
    INTERACT = (key) => (key.startsWith("plotdeck:") ? role(key.slice(9)) : null);
    const cards = plots.map((id) => cardView(id, {}, "plotdeck:" + id, { slotClass: "plot" }));
    INTERACT = saved;
    return h("div", {},
      h("p", {}, seats().length > 2 ? gettext("Choose the plot you reveal this round (every player reveals at the same time). Gold is your income, Init your initiative, Claim what a won challenge takes, Res your reserve.")
        : gettext("Choose the plot you reveal this round (both players reveal at the same time). Gold is your income, Init your initiative, Claim what a won challenge takes, Res your reserve.")),
      h("div", { class: "lcg-row plot-choice" }, cards),
      confirmBar(chosen ? fmt(gettext("Reveal %(card)s"), { card: cardName(chosen) }) : gettext("Click a plot first"), chosen ? { plot: chosen } : null, !chosen, "confirm-plot"));
  }

  function challengeBody() {
    const used = player(SEAT).challenges || [];
    const types = ["military", "intrigue", "power"];
    const picked = sel.picked.map((k) => k.slice(5));
    const opps = seats().filter((s) => s !== SEAT && !out(s));
    if (opps.length === 1) sel.opponent = opps[0];
    const opp = sel.opponent;
    const theirs = opp ? (player(opp).play || []).filter((u) => card(V.cards[u]).type === "character") : [];
    const stealthy = picked.filter((u) => (card(V.cards[u]).keywords || {}).stealth);
    for (const u of Object.keys(sel.stealth)) if (!stealthy.includes(u)) delete sel.stealth[u];
    const stealth = {};
    for (const [a, t] of Object.entries(sel.stealth)) if (t) stealth[nameOf(a)] = nameOf(t);
    const act = sel.type && opp ? { challenge: Object.assign({ type: sel.type, attackers: picked.map(nameOf), stealth }, melee() ? { opponent: opp } : {}) } : null;
    const declared = ((melee() || {}).against || {})[SEAT] || [];
    const opponentChoice = opps.length > 1 ? [h("p", {}, gettext("Whom do you challenge?")),
      h("div", { class: "choices opponents", role: "radiogroup", "aria-label": gettext("The defending player") }, opps.map((o) => {
        const blocked = relationWords(o) && titleOf(SEAT) && (card(titleOf(SEAT)).supports || []).includes(titleOf(o));
        const done = declared.filter(([, x]) => x === o).map(([t]) => challengeType(t));
        return h("button", { type: "button", class: "opponent" + (sel.opponent === o ? " selected" : ""), role: "radio", "aria-checked": String(sel.opponent === o),
          "data-seat": o, disabled: blocked || null, onclick: () => { sel.opponent = o; sel.stealth = {}; renderAfterPick(); } },
        seatName(o), titleOf(o) ? h("small", {}, " · " + cardName(titleOf(o))) : null,
        blocked ? h("small", {}, " · " + gettext("supported by your title")) : null,
        done.length ? h("small", {}, " · " + fmt(gettext("already: %(types)s"), { types: done.join(", ") })) : null);
      }))] : [];
    const str = picked.reduce((n, u) => n + (strengthOf(u) || 0), 0);
    const lacking = sel.type ? picked.filter((u) => !(card(V.cards[u]).icons || []).includes(sel.type)) : [];
    return h("div", {},
      h("p", {}, opps.length > 1 ? gettext("Choose the player you challenge and the challenge type, then click your standing characters to attack with (they kneel), then declare.")
        : gettext("Choose the challenge type, then click your standing characters to attack with (they kneel), then declare.")),
      ...opponentChoice,
      h("div", { class: "choices types", role: "radiogroup", "aria-label": gettext("Challenge type") }, types.map((t) => h("button", { type: "button",
        class: `ctype icon-${t}` + (sel.type === t ? " selected" : ""), role: "radio", "aria-checked": String(sel.type === t), "data-type": t,
        onclick: () => { sel.type = t; renderAfterPick(); } }, ICONS[t][1], used.includes(t) ? " " + gettext("(declared already)") : ""))),
      h("p", { class: "tally" }, fmt(gettext("Attackers: %(cards)s · strength %(n)s"), { cards: picked.length ? picked.map((u) => `${cardName(V.cards[u])} (${strengthOf(u)})`).join(", ") : gettext("none yet"), n: str })),
      lacking.length ? h("p", { class: "warn" }, fmt({ military: ngettext("%(cards)s has no military icon.", "%(cards)s have no military icon.", lacking.length),
        intrigue: ngettext("%(cards)s has no intrigue icon.", "%(cards)s have no intrigue icon.", lacking.length),
        power: ngettext("%(cards)s has no power icon.", "%(cards)s have no power icon.", lacking.length) }[sel.type], { cards: lacking.map((u) => cardName(V.cards[u])).join(", ") })) : null,
      stealthy.map((u) => h("label", { class: "host" }, fmt(gettext("%(card)s (stealth) bypasses"), { card: cardName(V.cards[u]) }) + " ",
        h("select", { "data-for": u, onchange: (ev) => { sel.stealth[u] = ev.target.value || null; renderAfterPick(); } },
          h("option", { value: "" }, gettext("nobody")),
          theirs.map((t) => h("option", { value: t, selected: sel.stealth[u] === t }, refLabel(nameOf(t))))))),
      confirmBar(act ? (picked.length ? fmt({ military: ngettext("Declare a military challenge with %(n)s attacker", "Declare a military challenge with %(n)s attackers", picked.length),
        intrigue: ngettext("Declare an intrigue challenge with %(n)s attacker", "Declare an intrigue challenge with %(n)s attackers", picked.length),
        power: ngettext("Declare a power challenge with %(n)s attacker", "Declare a power challenge with %(n)s attackers", picked.length) }[sel.type], { n: picked.length })
        : gettext("Choose attackers first")) : !opp ? gettext("Choose the player you challenge first") : gettext("Choose a challenge type first"),
        act, !act || !picked.length, "confirm-challenge"),
      h("p", {}, button({ pass: true }, passLabel(), "pass")));
  }

  /* Title selection (L203): the titles offered, face down to the others; the pick is revealed with everyone's. */
  function titleBody(legal) {
    const offered = legal.map((a) => a.title);
    const saved = INTERACT;
    INTERACT = null;
    const cards = offered.map((id) => h("div", { class: "title-offer" }, cardView(id, {}, "title:" + id, { slotClass: "small" }),
      h("p", { class: "small" }, textNodes(card(id).text)), titleRelations(id), button({ title: id }, null, "take-title")));
    INTERACT = saved;
    return h("div", {},
      h("p", {}, gettext("Choose your title for this round, in secret: the others see only that you chose. Every title is revealed together once everyone has chosen.")),
      h("div", { class: "title-choice" }, cards));
  }

  function defendersBody() {
    const ch = V.challenge || {};
    const picked = sel.picked.map((k) => k.slice(5));
    const str = picked.reduce((n, u) => n + (strengthOf(u) || 0), 0);
    const att = (ch.strength && ch.strength[ch.attacker] !== undefined) ? ch.strength[ch.attacker] : (ch.attackers || []).reduce((n, u) => n + (strengthOf(u) || 0), 0);
    return h("div", {},
      h("p", {}, fmt({ military: gettext("%(name)s attacks you in a military challenge with strength %(n)s. Click your standing characters with a military icon to defend, then confirm."),
        intrigue: gettext("%(name)s attacks you in an intrigue challenge with strength %(n)s. Click your standing characters with an intrigue icon to defend, then confirm."),
        power: gettext("%(name)s attacks you in a power challenge with strength %(n)s. Click your standing characters with a power icon to defend, then confirm.") }[ch.type]
        || `${seatName(ch.attacker)}: ${ch.type} (${att})`, { name: seatName(ch.attacker), n: att })),
      h("p", { class: "tally" }, fmt(gettext("Defenders: %(cards)s · strength %(n)s"), { cards: picked.length ? picked.map((u) => `${cardName(V.cards[u])} (${strengthOf(u)})`).join(", ") : gettext("none"), n: str })),
      confirmBar(picked.length ? fmt(ngettext("Defend with %(n)s character", "Defend with %(n)s characters", picked.length), { n: picked.length }) : gettext("Do not defend"), { defenders: picked.map(nameOf) }, false, "confirm-defenders"));
  }

  function killBody() {
    const d = decision();
    const picked = sel.picked.map((k) => k.slice(5));
    return h("div", {},
      h("p", {}, fmt(ngettext("Claim: choose %(n)s character of yours to kill (they go to your dead pile). Click them on the table.",
        "Claim: choose %(n)s characters of yours to kill (they go to your dead pile). Click them on the table.", d.count), { n: d.count })),
      h("p", { class: "tally" }, fmt(gettext("Chosen: %(cards)s"), { cards: picked.map((u) => cardName(V.cards[u])).join(", ") || gettext("none") })),
      confirmBar(fmt(gettext("Kill %(cards)s"), { cards: picked.length ? picked.map((u) => cardName(V.cards[u])).join(", ") : "…" }), { kill: picked.map(nameOf) }, picked.length !== d.count, "confirm-kill"));
  }

  function discardBody() {
    const d = decision();
    const hand = player(SEAT).hand || [];
    const picked = sel.picked.map((k) => hand[+k.slice(5)]);
    return h("div", {},
      h("p", {}, V.phase === "taxation"
        ? fmt(ngettext("Choose %(n)s card of your hand to discard (your hand is larger than your reserve of %(reserve)s). Click them in your hand.",
          "Choose %(n)s cards of your hand to discard (your hand is larger than your reserve of %(reserve)s). Click them in your hand.", d.count), { n: d.count, reserve: (S.reserve || {})[SEAT] })
        : fmt(ngettext("Choose %(n)s card of your hand to discard. Click them in your hand.", "Choose %(n)s cards of your hand to discard. Click them in your hand.", d.count), { n: d.count })),
      h("p", { class: "tally" }, fmt(gettext("Chosen: %(cards)s"), { cards: picked.map(cardName).join(", ") || gettext("none") })),
      confirmBar(fmt(gettext("Discard %(cards)s"), { cards: picked.length ? picked.map(cardName).join(", ") : "…" }), { discard: picked }, picked.length !== d.count, "confirm-discard"));
  }

  function keywordBody(kind) {
    const picked = sel.picked.map((k) => nameOf(k.slice(5)));
    const words = { renown: gettext("Renown: each chosen character gains 1 power. Click them on the table (or below), then confirm."),
      insight: gettext("Insight: each chosen character draws you 1 card. Click them on the table (or below), then confirm."),
      pillage: gettext("Pillage: each chosen character discards the top card of the loser's deck. Click them on the table (or below), then confirm.") };
    const none = { renown: gettext("No renown"), insight: gettext("No insight"), pillage: gettext("No pillage") };
    const names = sel.options || [];
    return h("div", {},
      h("p", {}, words[kind]),
      names.length ? h("div", { class: "choices" }, names.map((n) => h("button", { type: "button", class: "toggle" + (picked.includes(n) ? " selected" : ""), "aria-pressed": String(picked.includes(n)),
        onclick: () => { sel.toggle("play:" + findUid(n, [SEAT])); renderAfterPick(); } }, refLabel(n)))) : null,
      confirmBar(picked.length ? `${KEYWORDS[kind]}: ${picked.map(refLabel).join(", ")}` : none[kind], { [kind]: picked }, false, "confirm-keyword"));
  }

  function cardsBody() {
    const d = decision();
    const keys = [...sel.refs.keys()];
    const chosen = sel.picked.map((k) => sel.refs.get(k));
    const lo = d.min ?? 0, hi = d.max ?? keys.length;
    return h("div", {}, cardOfDecision(),
      h("p", {}, lo === hi ? fmt(ngettext("Choose %(n)s card: click them on the table, or here.", "Choose %(n)s cards: click them on the table, or here.", hi), { n: hi })
        : fmt(ngettext("Choose %(lo)s to %(n)s card: click them on the table, or here.", "Choose %(lo)s to %(n)s cards: click them on the table, or here.", hi), { lo, n: hi })),
      h("div", { class: "choices" }, keys.map((k) => h("button", { type: "button", class: "toggle" + (sel.picked.includes(k) ? " selected" : ""), "aria-pressed": String(sel.picked.includes(k)),
        onclick: () => { sel.toggle(k); renderAfterPick(); } }, refLabel(sel.refs.get(k))))),
      confirmBar(chosen.length ? fmt(gettext("Choose %(card)s"), { card: chosen.map(refLabel).join(", ") }) : gettext("Choose none"), { choose: chosen }, chosen.length < lo || chosen.length > hi, "confirm-cards"));
  }

  // ------------------------------------------------------------------ log

  /* The log in words: the server's `lines` where it narrates the card game, otherwise this page's
     own sentence per event. Grouped by round and phase, newest first. */
  const readLog = window.WesterosClient.logReader(q);   // new entries only, a page at a time (gameclient.js)
  async function loadLog() {
    const entries = await readLog();
    if (!entries) return;
    useGame();
    const groups = [];
    let round = null, phase = null;
    for (const e of entries) {
      const lines = e.lines && e.lines.length ? e.lines : null;
      const items = lines ? lines.map((l) => ({ text: l.text, parts: l.parts, private: l.private, round: l.round, phase: l.phase }))
        : e.events.map((ev) => {
          if (ev.type === "phase") { round = ev.round; phase = ev.phase; }
          if (ev.type === "round") round = ev.round;
          return { text: describeEvent(ev), private: !!ev.cards && ev.type === "draw", round, phase };
        });
      for (const it of items) {
        if (it.round !== undefined && it.round !== null) round = it.round;
        if (it.phase) phase = it.phase;
        const id = `${round ?? ""}:${phase ?? ""}`;
        if (!groups.length || groups[groups.length - 1].id !== id) groups.push({ id, round, phase, items: [] });
        groups[groups.length - 1].items.push({ it, e });
      }
    }
    const SOURCE = { bot: gettext("played by the computer"), timeout: gettext("time ran out: the default was played") };
    $("log").classList.add("log-grouped");
    $("log").replaceChildren(...groups.reverse().slice(0, 40).map((g, i) => h("li", { class: "log-group" },
      h("details", { open: i < 3 },
        h("summary", {}, [g.round ? fmt(gettext("Round %(round)s"), { round: g.round }) : null, PHASES[g.phase] || (g.phase === "over" ? gettext("End of the game") : null)].filter(Boolean).join(" · ") || gettext("Start"),
          h("span", { class: "log-count" }, ` (${g.items.length})`)),
        h("ol", { class: "log-lines" }, g.items.map(({ it, e }) => h("li", { class: "log-line" + (it.private ? " private" : ""), "data-version": e.version },
          lineNodes(it),
          e.source && SOURCE[e.source] ? h("span", { class: "log-note" }, ` (${SOURCE[e.source]})`) : null)))))));
  }

  // ------------------------------------------------------------------ chat and live updates

  const chat = window.WesterosChat.setup({ q, seat: SEAT, seatName: (s) => (game ? (useGame(), seatName(s)) : s), showError });

  window.addEventListener("click", (e) => {   // a tap elsewhere closes the card text
    const box = $("card-detail");
    if (box && !box.hidden && !box.contains(e.target) && !e.target.closest(".c-info")) { detailPinned = false; box.hidden = true; }
  });

  load().then(() => {
    window.WesterosClient.connectLive({
      path: root.dataset.ws, invite: INVITE, status: $("conn"), version: () => version, load, onOpen: load,
      onChat: chat.addMessage,
      onPresence: (connected) => {
        if (!game) return;
        for (const s of game.seats) s.connected = !!s.user && connected.includes(s.user);
        drawTable();
      },
    });
    chat.load();
  });
  window.__westerosGame = { load, send, state: () => game };
})();
