/* B'Twixt in the browser, in two parts.

   The drawing (window.BtwixtTable, also used by the replay, static/js/replay.js): the table as a
   viewer sees it from the API's `summary` (the SCENARIOS.md referee summary as that viewer is shown
   it: other hands and every power-token value read "hidden") with the card names and texts of the
   loaded card set (its public catalogue). `renderTable(summary, catalogue, opts)` gives the whole
   table (leaders round it, councils, the ally on offer, the time track, the decks);
   `describeEvent(event, summary, catalogue)` says one event in words.

   The game page (#game.btwixt): offers only what the server lists in `legal_actions`; a card of
   the hand (the card to play, the card an ability discards) is picked in the hand itself, never
   in a second list; nothing is shown as JSON (unknown actions and events are said field by field); POSTs
   {version, action} to /actions and shows the server's reason when it refuses. Live: the game
   websocket; an `update` with a newer version, a gap, a hello with another version or a reconnect
   re-fetch the game (as static/js/game.js does). Chat: static/js/chat.js. The dead pile can be
   reordered by any seated player at any time (`reorder_dead`, docs/engine-btwixt.md). */
(function () {
  "use strict";
  const { h } = window.WesterosClient;

  // ------------------------------------------------------------------ what is drawn

  /* The summary, catalogue and viewer the drawing functions below read; set by use(). */
  let T = { cards: { cards: {}, leaders: {} }, summary: {}, seat: null, rows: [], pending: {} };
  function use(summary, catalogue, opts) {
    opts = opts || {};
    T = { cards: catalogue, summary: summary || {}, seat: opts.seat || null, rows: opts.rows || [],
      pending: opts.pending || (summary && summary.pending) || {}, status: opts.status || "active" };
  }

  // the words of the table (the Spanish rules' own: docs/glossary-es.md, B'Twixt), from the page's catalogue
  const fmt = (text, values) => interpolate(text, values, true);
  const COLOUR_MARK = { red: gettext("■ red"), green: gettext("◆ green"), purple: gettext("♥ purple"), blue: gettext("● event"),
    white: gettext("○ leader") };
  const TIMING = { immediate: gettext("When played"), on_victory: gettext("After the bid"), during_round: gettext("During this round"),
    when_claimed: gettext("When claimed"), end_game: gettext("End of game"), placement: gettext("Placement") };
  const SEASON = { summer: pgettext("a B'Twixt season", "Summer"), autumn: pgettext("a B'Twixt season", "Autumn"),
    winter: pgettext("a B'Twixt season", "Winter") };
  const seasonName = (key) => SEASON[key] || cap(key);
  const season = seasonName;
  const andList = (items) => items.length <= 1 ? items.join("")
    : fmt(gettext("%(items)s and %(last)s"), { items: items.slice(0, -1).join(", "), last: items[items.length - 1] });
  /* An after-the-bid (victory icon, B23) ability is labelled by whom it applies to (the catalogue's
     `applies`, from the card's effect: `if: won | lost | neighbour_won`, or `draw {who: losers}`). */
  const AFTER_BID = { won: gettext("If you win the bid"), lost: gettext("If you lose the bid"),
    neighbour_won: gettext("If a neighbour wins the bid"), losers: gettext("After the bid, for those who lost it") };
  const timingLabel = (t) => (t.timing === "on_victory" && AFTER_BID[t.applies]) || TIMING[t.timing] || cap(t.timing);
  const DECISION = { turn: gettext("to play or kneel"), claim: gettext("to place the ally won"), token: gettext("to place a power token"),
    choose: gettext("to make a choice"), keep: gettext("to keep a card (draft)") };
  const STEP = { bidding: gettext("bidding"), victory: gettext("the winner's abilities"), claim: gettext("claiming the ally"),
    draft: gettext("drafting"), game_over: gettext("game over"), setup: gettext("setting up") };

  const cap = (s) => String(s || "").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  const leader = (s) => T.cards.leaders[s] || cap(s);
  const card = (id) => T.cards.cards[id] || { name: cap(id), kind: "?", value: "", texts: [] };
  const cardName = (id) => card(id).name;
  function councilName(key, short) {
    const seats = T.summary.seats || [];
    const a = seats.find((s) => key.startsWith(s + "-"));
    const b = a ? key.slice(a.length + 1) : key;
    const name = short ? (s) => leader(s).split(" ")[0] : leader;
    return a ? `${name(a)} – ${name(b)}` : key;
  }
  function tick() { if (window.tickDeadlines) window.tickDeadlines(); }

  // ------------------------------------------------------------------ cards

  function cardView(id, extra, buttons) {
    const c = card(id);
    const value = c.kind === "ally" ? fmt(gettext("power %(value)s"), { value: c.value })
      : (c.kind === "?" ? "" : fmt(gettext("influence %(value)s"), { value: c.value }));
    const attrs = Object.assign({}, extra || {});
    const more = attrs.addClass ? " " + attrs.addClass : "";
    delete attrs.addClass;
    return h("div", Object.assign({ class: `bt-card kind-${c.kind} colour-${c.colour || "none"}${more}`, "data-card": id }, attrs),
      h("div", { class: "bt-card-head" }, h("strong", {}, c.name), " ", h("span", { class: "bt-value", title: value }, c.value)),
      h("div", { class: "bt-card-kind" }, c.kind === "ally" ? gettext("Ally") + (c.house && c.house !== "none" ? " · " + cap(c.house) : "") : (COLOUR_MARK[c.colour] || c.kind)),
      (c.texts || []).filter((t) => t.text).map((t) => h("p", { class: "bt-text" }, h("em", {}, timingLabel(t) + ": "), t.text)),
      buttons || null);
  }
  function chip(id, extra) {
    const c = card(id);
    return h("span", Object.assign({ class: `bt-chip colour-${c.colour || "none"} kind-${c.kind}`, title: (c.texts || []).map((t) => t.text).join(" ") }, extra || {}),
      c.name, " ", h("b", {}, c.value));
  }

  /* Any value in words, whatever its shape (the fallback of the functions below): a leader, card
     or council by its name, a list joined, a record as "field value" pairs; never JSON. */
  function describeValue(v) {
    if (v === true) return gettext("yes");
    if (v === false) return gettext("no");
    if (v === null || v === undefined || v === "") return gettext("none");
    if (typeof v === "number") return String(v);
    if (typeof v === "string") {
      if ((T.summary.councils || {})[v]) return fmt(gettext("the council of %(council)s"), { council: councilName(v) });
      if (T.cards.cards[v]) return cardName(v);
      if (T.cards.leaders[v]) return leader(v);
      return v.replace(/_/g, " ");
    }
    if (Array.isArray(v)) return v.length ? v.map(describeValue).join(", ") : gettext("none");
    if (typeof v === "object") return Object.entries(v).map(([k, x]) => field(k, x, " ")).join(", ");
    return String(v);
  }
  /* One field of an action or event: its name in words, then its value ("council Cersei – Tyrion"). */
  function field(k, x, sep) {
    const council = typeof x === "string" && (T.summary.councils || {})[x] && /council/.test(k);
    return `${k.replace(/_/g, " ")}${sep}${council ? councilName(x) : describeValue(x)}`;
  }

  function describeTarget(t) {
    if (t === true) return gettext("Yes");
    if (t === false) return gettext("No (decline)");
    if (typeof t === "string") return (T.summary.councils || {})[t] ? councilName(t) : (T.cards.cards[t] ? cardName(t) : leader(t));
    if (!t || typeof t !== "object") return String(t);
    if (t.order) {
      const order = t.order.map(cardName).join(", ");
      return t.bottom ? fmt(gettext("Order: %(order)s · bottom: %(bottom)s"), { order, bottom: cardName(t.bottom) })
        : fmt(gettext("Order: %(order)s"), { order });
    }
    if (t.allies) return fmt(gettext("Swap %(allies)s"), { allies: andList(t.allies.map(cardName)) });
    if (t.ally) return cardName(t.ally);
    if (t.seat && t.card && t.to) return fmt(gettext("%(card)s from %(from)s's pile to %(to)s's"), { card: cardName(t.card), from: leader(t.seat), to: leader(t.to) });
    if (t.seat && t.card) return fmt(gettext("%(card)s in %(leader)s's pile"), { card: cardName(t.card), leader: leader(t.seat) });
    if (t.card) return cardName(t.card);
    if (t.seat) return leader(t.seat);
    return cap(describeValue(t));
  }
  function describeAction(a) {
    const [k, v] = Object.entries(a)[0];
    if (k === "play") return fmt(gettext("Play %(card)s"), { card: cardName(v) }) + (a.target !== undefined ? ` → ${describeTarget(a.target)}` : "");
    if (k === "kneel") return gettext("Kneel");
    if (k === "claim") return fmt(gettext("Claim into %(council)s"), { council: councilName(v) });
    if (k === "token") return fmt(gettext("Power token into %(council)s"), { council: councilName(v) });
    if (k === "choose") return describeTarget(v);
    if (k === "keep") return fmt(gettext("Keep %(card)s"), { card: cardName(v) });
    if (k === "reorder_dead") return fmt(gettext("Reorder the dead pile: %(allies)s"), { allies: v.map(cardName).join(", ") });
    // an action this page has no words for: its kind, then its values by name
    const rest = Object.entries(a).slice(1).map(([key, x]) => field(key, x, " "));
    return cap(k) + (v === true ? "" : ": " + (typeof v === "string" && /council/.test(k) && (T.summary.councils || {})[v] ? councilName(v) : describeValue(v)))
      + (rest.length ? " (" + rest.join(", ") + ")" : "");
  }

  // ------------------------------------------------------------------ the table

  /* Where the game stands, in words: "Winter · round 2 of 4 · bidding · waiting for Jon Snow (to play or kneel)". */
  function phaseText(status) {
    const s = T.summary;
    if ((status && status !== "active") || s.step === "game_over") {
      const w = s.winners || [];
      if (!w.length) return gettext("Game over.") + " ";
      return fmt(ngettext("Game over. Winner: %(names)s", "Game over. Winners (shared): %(names)s", w.length), { names: w.map(leader).join(", ") });
    }
    const waiting = Object.entries(T.pending || {}).map(([seat, k]) => `${leader(seat)} (${DECISION[k] || cap(k)})`).join(", ");
    const where = fmt(gettext("%(season)s · round %(round)s of %(rounds)s · %(step)s"),
      { season: season(s.season), round: s.round, rounds: (s.seats || []).length + 1, step: STEP[s.step] || cap(s.step) });
    return waiting ? where + " · " + fmt(gettext("waiting for %(names)s"), { names: waiting }) : where;
  }

  /* The table's class: its size by the number of leaders, taller once councils fill up. */
  function tableClass() {
    const n = (T.summary.seats || []).length;
    const most = Math.max(0, ...Object.values(T.summary.councils || {}).map((c) => (c.allies || []).length));
    return `bt-table n-${n}` + (most >= 6 ? " crowded more" : most >= 3 ? " crowded" : "");
  }

  function seatRow(seat) { return T.rows.find((r) => r.seat === seat) || {}; }

  /* The leaders clockwise round the felt, a council between each pair of neighbours. */
  function ringView() {
    const s = T.summary;
    const seats = s.seats || [];
    const n = seats.length;
    const items = [h("li", { class: "bt-felt", "aria-hidden": "true" }, h("div", {},
      h("strong", {}, s.step === "game_over" ? gettext("Game over") : s.current_ally ? cardName(s.current_ally) : (s.claiming ? cardName(s.claiming) : "—")),
      s.step === "game_over" ? "" : s.current_ally ? gettext("on offer") : (s.claiming ? gettext("being claimed") : ""), h("br"),
      fmt(gettext("%(season)s · round %(round)s"), { season: season(s.season), round: s.round })))];
    seats.forEach((seat, i) => {
      const next = seats[(i + 1) % n];
      const key = `${seat}-${next}`;
      const angle = -90 + (360 / n) * i;             // clockwise from the top
      const mid = angle + 180 / n;
      items.push(placed(seatBox(seat), angle, 44, 42), placed(councilBox(key), mid, 27, 25));  // councils on the table
    });
    return h("ol", { class: `bt-ring seats-${n}`, "aria-label": gettext("Leaders clockwise, with the council between each pair of neighbours") }, items);
  }
  function placed(node, angle, rx, ry) {
    const rad = angle * Math.PI / 180;
    node.style.left = `${50 + rx * Math.cos(rad)}%`;
    node.style.top = `${50 + ry * Math.sin(rad)}%`;
    return node;
  }

  function seatBox(seat) {
    const s = T.summary, row = seatRow(seat);
    const pend = (T.pending || {})[seat];
    const knelt = (s.knelt || []).includes(seat);
    const pile = (s.piles || {})[seat] || [];
    const score = (s.score || {})[seat];
    const badges = [];
    if (s.first_player === seat) badges.push(h("span", { class: "badge first", title: gettext("first player") }, gettext("★ first")));
    if (T.status === "active" && s.turn === seat && s.step === "bidding") badges.push(h("span", { class: "badge turn" }, gettext("▶ to play")));
    if (knelt) badges.push(h("span", { class: "badge knelt" }, gettext("knelt")));
    if (s.bid_winner === seat && s.step !== "bidding") badges.push(h("span", { class: "badge won" }, gettext("won the bid")));
    if ((s.winners || []).includes(seat)) badges.push(h("span", { class: "badge won" }, gettext("winner")));
    const who = row.seat ? h("span", { class: "presence " + (row.connected ? "on" : "off") }, row.is_bot ? (row.user ? fmt(gettext("%(name)s (the computer plays)"), { name: row.user }) : gettext("the computer")) : (row.user || "—"), row.bot_account && !row.is_bot ? [" ", h("span", { class: "bot-badge", title: gettext("a bot account: a program playing through the API") }, "BOT")] : null, row.connected ? " ●" : " ○") : null;
    return h("li", { class: "bt-seat" + (seat === T.seat ? " me" : "") + (knelt ? " is-knelt" : "") + (pend ? " is-pending" : ""), id: `seat-${seat}`, "data-seat": seat },
      h("div", { class: "bt-seat-head" }, h("strong", {}, leader(seat)), " ", who),
      h("div", { class: "badges" }, badges),
      h("div", { class: "bt-pile", id: `pile-${seat}`, "aria-label": fmt(gettext("%(leader)s's bid pile"), { leader: leader(seat) }) },
        pile.length ? pile.map((c) => chip(c)) : h("span", { class: "empty" }, knelt ? gettext("no bid") : gettext("empty pile"))),
      h("div", { class: "bt-total" }, gettext("Total") + " ", h("b", { id: `total-${seat}` }, (s.totals || {})[seat] ?? 0),
        " · " + fmt(gettext("hand %(size)s"), { size: (s.hand_size || {})[seat] ?? "?" })),
      score ? h("div", { class: "bt-score" }, fmt(gettext("Score: lesser %(lesser)s · other %(other)s · allies %(allies)s"), score)) : null,
      pend ? h("div", { class: "bt-pend" }, DECISION[pend] || cap(pend), " ", row.deadline_at ? h("span", { class: "deadline", "data-deadline": row.deadline_at }, "") : "") : null);
  }

  function councilBox(key) {
    const c = (T.summary.councils || {})[key] || { allies: [], token_count: 0 };
    const tokens = Array.isArray(c.tokens) ? fmt(gettext("tokens %(values)s"), { values: c.tokens.join(", ") || gettext("none") })
      : fmt(ngettext("%(count)s token · values hidden", "%(count)s tokens · values hidden", c.token_count), { count: c.token_count });
    return h("li", { class: "bt-council", id: `council-${key}`, "data-council": key },
      h("div", { class: "bt-council-head", title: fmt(gettext("Council of %(council)s"), { council: councilName(key) }) }, councilName(key, true)),
      h("div", { class: "bt-allies" }, (c.allies || []).length ? c.allies.map((a) => chip(a)) : h("span", { class: "empty" }, gettext("no allies"))),
      h("div", { class: "bt-tokens" }, "● ", tokens, c.power !== undefined && c.power !== "hidden" ? " · " + fmt(gettext("power %(value)s"), { value: c.power }) : ""));
  }

  function offerView() {
    const s = T.summary;
    const parts = [h("h2", {}, gettext("The ally on offer"))];
    const claimed = () => fmt(gettext("Being claimed: %(ally)s"), { ally: cardName(s.claiming) });
    if (s.current_ally) {
      parts.push(cardView(s.current_ally, { id: "current-ally" }));
      if (s.ally_token_count) parts.push(h("p", {}, fmt(gettext("%(count)s power token(s) on it (values hidden)"), { count: s.ally_token_count })));
    } else parts.push(h("p", { class: "empty" }, s.claiming ? claimed() : gettext("None (claimed or killed).")));
    if (s.claiming && s.current_ally) parts.push(h("p", {}, claimed()));
    if ((s.extra_allies || []).length) parts.push(h("p", {}, gettext("Also revealed:") + " ", s.extra_allies.map((a) => chip(a))));
    if ((s.row || []).length) parts.push(h("p", {}, gettext("Allies in sight:") + " ", s.row.map((a) => chip(a))));
    return parts;
  }

  function seasonsOf(n, short) {
    const all = n <= 4 ? ["summer", "autumn", "winter"] : ["autumn", "winter"];
    return short ? all.slice(1) : all;
  }

  function trackView() {
    const s = T.summary;
    const n = (s.seats || []).length, rounds = n + 1;
    const seasons = seasonsOf(n, s.options && s.options.short);
    const cur = seasons.indexOf(s.season);
    const over = s.step === "game_over";
    const rows = seasons.map((season, i) => h("li", { class: "season season-" + season + (i === cur ? " current" : "") },
      h("span", { class: "season-name" }, seasonName(season)),
      Array.from({ length: rounds }, (_, r) => {
        const done = over || i < cur || (i === cur && r + 1 < s.round);
        const now = !over && i === cur && r + 1 === s.round;
        return h("span", { class: "slot" + (done ? " done" : "") + (now ? " now" : ""), title: fmt(gettext("%(season)s round %(round)s"), { season: seasonName(season), round: r + 1 }),
          "aria-current": now ? "step" : false }, now ? "◉" : done ? "●" : "○");
      })));
    return [h("h2", {}, gettext("Time track")), h("ol", { class: "bt-track" }, rows),
      h("p", { class: "small" }, fmt(gettext("%(rounds)s rounds a season · first player: %(leader)s"), { rounds, leader: leader(s.first_player) }))];
  }

  /* The decks and public piles; `deadExtra` (the page's reorder control) goes under the dead pile. */
  function pilesView(deadExtra) {
    const s = T.summary, d = s.deck_size || {};
    const rows = [[gettext("Influence deck"), d.influence], [gettext("Ally deck"), d.allies], [gettext("Power tokens in supply"), s.supply]];
    if (s.options && s.options.advanced) rows.push([gettext("Events set aside"), d.events]);
    const dead = s.dead || [];
    return [h("h2", {}, gettext("Decks")), h("ul", { class: "bt-decks" }, rows.map(([k, v]) => h("li", {}, `${k}: `, h("b", {}, v ?? "?"))),
      h("li", {}, fmt(gettext("Discard pile: %(count)s"), { count: (s.discard || []).length })),
      h("li", { id: "dead-pile" }, (dead.length > 1 ? gettext("Dead pile (top first):") : gettext("Dead pile:")) + " ",
        dead.length ? dead.map((a) => chip(a)) : gettext("empty"), deadExtra || null))];
  }

  /* The whole table for a viewer: opts {seat, rows (the API's seats), pending, status}. */
  function renderTable(summary, catalogue, opts) {
    use(summary, catalogue, opts);
    return h("div", { class: "bt-whole" },
      h("div", { class: tableClass() }, ringView()),
      h("section", { class: "bt-center", "aria-label": gettext("Ally on offer, time track and decks") },
        h("div", {}, offerView()), h("div", {}, trackView()), h("div", {}, pilesView())));
  }

  // ------------------------------------------------------------------ events in words

  function describeEvent(e, summary, catalogue) {
    if (summary) use(summary, catalogue || T.cards);
    const t = e.type;
    const said = (text, values) => fmt(text, values);
    if (t === "reveal") {
      return e.season ? said(gettext("%(ally)s is on offer (%(season)s, round %(round)s)."), { ally: cardName(e.ally), season: season(e.season), round: e.round })
        : said(gettext("%(ally)s is on offer."), { ally: cardName(e.ally) });
    }
    if (t === "reveal_extra") return said(gettext("%(ally)s is revealed as an extra ally."), { ally: cardName(e.ally) });
    if (t === "play") return said(gettext("%(leader)s plays %(card)s."), { leader: leader(e.seat), card: cardName(e.card) });
    if (t === "kneel") return said(e.forced ? gettext("%(leader)s kneels (forced).") : gettext("%(leader)s kneels."), { leader: leader(e.seat) });
    if (t === "bid_won") {
      return said(gettext("%(leader)s wins the bid (%(totals)s)."),
        { leader: leader(e.seat), totals: Object.entries(e.totals || {}).map(([s, n]) => `${leader(s)} ${n}`).join(", ") });
    }
    if (t === "claim") return said(gettext("%(leader)s places %(ally)s in the council of %(council)s."), { leader: leader(e.seat), ally: cardName(e.ally), council: councilName(e.council) });
    if (t === "token") return said(gettext("%(leader)s takes a power token into the council of %(council)s."), { leader: leader(e.seat), council: councilName(e.council) });
    if (t === "kill") {
      return e.council ? said(gettext("%(ally)s dies (council of %(council)s)."), { ally: cardName(e.ally), council: councilName(e.council) })
        : said(gettext("%(ally)s dies."), { ally: cardName(e.ally) });
    }
    if (t === "draw") {
      return e.cards ? said(ngettext("%(leader)s draws %(count)s card: %(cards)s.", "%(leader)s draws %(count)s cards: %(cards)s.", e.count),
        { leader: leader(e.seat), count: e.count, cards: e.cards.map(cardName).join(", ") })
        : said(ngettext("%(leader)s draws %(count)s card.", "%(leader)s draws %(count)s cards.", e.count), { leader: leader(e.seat), count: e.count });
    }
    if (t === "move_card") {
      const values = { card: cardName(e.card), from: leader(e.from), seat: leader(e.seat) };
      const to = { own_pile: gettext("%(card)s moves from %(from)s's bid pile to %(seat)s's bid pile."),
        other_pile: gettext("%(card)s moves from %(from)s's bid pile to another bid pile."),
        third_pile: gettext("%(card)s moves from %(from)s's bid pile to another bid pile."),
        hand: gettext("%(card)s moves from %(from)s's bid pile to %(seat)s's hand."),
        owner_hand: gettext("%(card)s moves from %(from)s's bid pile to %(from)s's hand."),
        discard: gettext("%(card)s moves from %(from)s's bid pile to the discard pile.") }[e.to];
      return to ? said(to, values) : said(gettext("%(card)s moves from %(from)s's bid pile to %(where)s."), { ...values, where: cap(e.to) });
    }
    if (t === "season") return said(gettext("%(season)s begins: hands are dealt again."), { season: season(e.season) });
    if (t === "draft_pass") return gettext("The draft packets pass on.");
    if (t === "reorder_dead") {  // the log entry's seat, when the caller adds it
      const dead = (e.dead || []).map(cardName).join(", ");
      if (e.seat) {
        return dead ? said(gettext("%(leader)s reorders the dead pile, top first: %(allies)s."), { leader: leader(e.seat), allies: dead })
          : said(gettext("%(leader)s reorders the dead pile."), { leader: leader(e.seat) });
      }
      return dead ? said(gettext("The dead pile is reordered, top first: %(allies)s."), { allies: dead }) : gettext("The dead pile is reordered.");
    }
    if (t === "game_over") {
      const winners = e.winners || [];
      return said(ngettext("Game over: %(names)s wins.", "Game over: %(names)s win (shared).", winners.length), { names: winners.map(leader).join(", ") });
    }
    // an event this page has no sentence for: its kind in words, then its values by name
    const parts = Object.entries(e).filter(([k]) => k !== "type")
      .map(([k, v]) => field(k, v, ": "));
    return cap(t) + (parts.length ? ": " + parts.join("; ") : "") + ".";
  }

  window.BtwixtTable = { renderTable, describeEvent, describeAction, phaseText, cardView, chip, leaderName: (s, catalogue) => ((catalogue || T.cards).leaders || {})[s] || cap(s) };

  // ================================================================== the game page

  const root = document.getElementById("game");
  if (!root || !root.classList.contains("btwixt")) return;
  const { post } = window.WesterosClient;
  const SEAT = root.dataset.seat || null;
  const INVITE = root.dataset.invite || "";
  const API = root.dataset.api;
  const CARDS = JSON.parse(document.getElementById("btwixt-cards").textContent);
  const $ = (id) => document.getElementById(id);
  let game = null;
  let version = -1;
  let deadOrder = null;   // the dead pile as this player is reordering it (null: not reordering)

  function q(path) { return API + path + (INVITE ? (path.includes("?") ? "&" : "?") + "invite=" + encodeURIComponent(INVITE) : ""); }
  function showError(text) { const box = $("error"); box.textContent = text || ""; box.hidden = !text; }

  // ------------------------------------------------------------------ loading and sending

  const load = window.WesterosClient.coalesced(async () => {   // one fetch at a time (gameclient.js)
    const r = await fetch(q(""), { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) { showError(fmt(gettext("Could not load the game (%(status)s)."), { status: r.status })); return; }
    game = await r.json();
    version = game.version;
    render();
    if (window.WesterosTurn) window.WesterosTurn.update(game);  // tab title, favicon, sound (turn.js)
    if (window.WesterosTable) window.WesterosTable.update(game, load);  // seat controls, end of the game (table_controls.js)
    loadLog();
  });

  async function send(action) {
    showError("");
    const res = await post(q("/actions"), { version: version, action: action });
    if (res.ok) { await load(); return true; }
    showError(fmt(gettext("Refused: %(why)s"), { why: String(res.reason) }));
    if (res.status === 409) await load();
    return false;
  }


  // ------------------------------------------------------------------ rendering

  function useGame() { use(game.summary, CARDS, { seat: SEAT, rows: game.seats || [], pending: game.pending || {}, status: game.status }); }

  function render() {
    useGame();
    $("jump").hidden = !myKind();
    $("phase").textContent = phaseText(game.status);
    drawTable();
    $("offer").replaceChildren(...offerView());
    $("time-track").replaceChildren(...trackView());
    renderPiles(); renderDecision(); renderHand();
  }

  function drawTable() {
    useGame();
    $("table").className = tableClass();
    $("table").replaceChildren(ringView());
    tick();
  }

  /* The hand is where a card is chosen: while a decision asks for a card of the hand (your turn to
     bid, or an ability's "discard a card of your hand"), the cards it allows are picked there
     (click, or Enter/Space), the picked one is marked, and the bar under the hand gives the targets
     if the card needs one and the button that sends the choice. The decision panel above says what
     to do; it never lists the hand again. */
  let picked = null;   // {index, card, target}: the card picked in the hand (index: which copy), its target's index

  /* What the pending decision asks of the hand: null, or {verb, byCard: card -> its legal actions}. */
  function handPick() {
    const kind = myKind();
    const legal = game.legal_actions || [];
    if (kind === "turn") {
      const byCard = new Map();
      for (const a of legal) if (a.play) { if (!byCard.has(a.play)) byCard.set(a.play, []); byCard.get(a.play).push(a); }
      return byCard.size ? { verb: "play", byCard } : null;
    }
    if (kind === "choose" && HAND_OPS[decisionOp()]) {
      const hand = (game.summary.hands || {})[SEAT] || [];
      const byCard = new Map();
      for (const a of legal) {
        const v = a.choose;
        if (v && typeof v === "object" && Object.keys(v).length === 1 && v.card && hand.includes(v.card)) byCard.set(v.card, [a]);
      }
      return byCard.size ? { verb: HAND_OPS[decisionOp()], byCard } : null;
    }
    return null;
  }
  const HAND_OPS = { discard_hand: "discard" };
  /* What a pick of the hand says, per verb (whole sentences: their word order differs in Spanish). */
  const PICK = {
    play: { verb: gettext("Play"), card: gettext("Play %(card)s"), group: gettext("Pick the card to play"), hint: gettext("Your turn: pick a card to play."),
      none: gettext("Nothing chosen yet: click a card of your hand to play it."), send: gettext("Play the chosen card"),
      notNow: gettext("Cannot be played now"), title: gettext("play a card of your hand"),
      panel: gettext("Pick the card to play in your hand, then press “Play”.") },
    discard: { verb: gettext("Discard"), card: gettext("Discard %(card)s"), group: gettext("Pick the card to discard"), hint: gettext("Pick the card to discard."),
      none: gettext("Nothing chosen yet: click a card of your hand to discard it."), send: gettext("Discard the chosen card"),
      notNow: gettext("Cannot be chosen"), title: gettext("discard a card of your hand"),
      panel: gettext("Pick the card to discard in your hand, then press “Discard”.") },
  };
  function decision() { return (game.view && game.view.decision) || {}; }
  function decisionOp() { return decision().op || ""; }

  function renderHand(focusPicked) {
    if (!SEAT) return;
    const hand = (game.summary.hands || {})[SEAT];
    const cards = Array.isArray(hand) ? hand : [];
    const pick = handPick();
    if (picked && (!pick || !pick.byCard.has(picked.card))) picked = null;
    if (picked && cards[picked.index] !== picked.card) {  // the hand changed: the same card, another copy
      const at = cards.indexOf(picked.card);
      picked = at < 0 ? null : { ...picked, index: at };
    }
    const choose = (i, c) => { picked = { index: i, card: c, target: null }; renderHand(true); };
    const nodes = cards.map((c, i) => {
      if (!pick) return cardView(c);
      if (!pick.byCard.has(c)) {
        return cardView(c, { addClass: "not-pickable", "aria-disabled": "true" },
          h("p", { class: "bt-not-now" }, PICK[pick.verb].notNow));
      }
      const on = !!picked && picked.index === i;
      return cardView(c, {
        addClass: "pickable" + (on ? " picked" : ""), role: "radio", "aria-checked": on ? "true" : "false",
        tabindex: on || (!picked && i === cards.findIndex((x) => pick.byCard.has(x))) ? "0" : "-1",
        "data-index": i, title: fmt(PICK[pick.verb].card, { card: cardName(c) }),
        onclick: () => choose(i, c),
        onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(i, c); return; }
          const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
          if (!step) return;
          e.preventDefault();
          const all = [...$("hand").querySelectorAll(".bt-card.pickable")];
          const next = all[(all.indexOf(e.currentTarget) + step + all.length) % all.length];
          if (next) next.focus();
        },
      }, on ? h("p", { class: "bt-picked-mark" }, gettext("✔ Chosen")) : null);
    });
    const parts = [cards.length
      ? h("div", Object.assign({ class: "bt-cards" }, pick ? { role: "radiogroup", "aria-label": PICK[pick.verb].group } : {}), nodes)
      : h("p", { class: "empty" }, gettext("No cards in hand."))];
    if (pick) parts.push(pickBar(pick));
    const leaderCards = (game.summary.leader_cards || {})[SEAT];
    if (Array.isArray(leaderCards) && leaderCards.length) parts.push(h("p", {}, gettext("Leader cards set aside:") + " ", leaderCards.map((c) => chip(c))));
    $("hand").replaceChildren(...parts);
    $("hand-panel").classList.toggle("picking", !!pick);
    $("hand-hint").textContent = pick ? PICK[pick.verb].hint : "";
    if (focusPicked && picked) { const n = $("hand").querySelector(`.bt-card[data-index="${picked.index}"]`); if (n) n.focus(); }
  }

  /* Under the hand while picking: the picked card, its targets (if its ability needs one) and the button. */
  function pickBar(pick) {
    if (!picked) {
      return h("div", { class: "bt-pick-bar", id: "hand-action" },
        h("p", {}, PICK[pick.verb].none),
        h("button", { type: "button", id: "hand-submit", disabled: true }, PICK[pick.verb].send));
    }
    const acts = pick.byCard.get(picked.card);
    const targeted = acts.filter((a) => a.target !== undefined);
    const chosen = targeted.length ? (picked.target !== null ? targeted[picked.target] : null) : acts[0];
    const named = fmt(PICK[pick.verb].card, { card: cardName(picked.card) });
    const label = chosen && chosen.target !== undefined ? `${named} → ${describeTarget(chosen.target)}` : named;
    return h("div", { class: "bt-pick-bar", id: "hand-action" },
      h("p", {}, gettext("Chosen:") + " ", h("strong", {}, cardName(picked.card)),
        " ", h("button", { type: "button", class: "secondary small-button", id: "hand-unpick", onclick: () => { picked = null; renderHand(); } }, gettext("Choose another"))),
      targeted.length ? h("fieldset", { id: "hand-targets" }, h("legend", {}, gettext("Its ability applies to")),
        targeted.map((a, i) => h("label", {}, h("input", { type: "radio", name: "hand-target", value: i, checked: picked.target === i,
          onchange: () => { picked.target = i; renderHand(); const r = $("hand-targets").querySelectorAll("input")[i]; if (r) r.focus(); } }),
          " ", describeTarget(a.target)))) : null,
      h("button", { type: "button", id: "hand-submit", class: "play", disabled: !chosen,
        "data-action": chosen ? JSON.stringify(chosen) : "",
        onclick: async () => { const act = chosen; picked = null; if (!(await send(act))) renderHand(); } },
        chosen ? label : fmt(gettext("%(action)s: choose where its ability applies first"), { action: label })));
  }

  // ------------------------------------------------------------------ the dead pile's order

  /* Any seated player may put the dead pile in another order at any time (B59, N10): move an ally up
     or down (buttons, so the keyboard works), then save the order; a live change of the pile
     meanwhile starts the list again from the new pile. */
  function renderPiles(focus) {
    useGame();
    const active = document.activeElement;
    if (!focus && active && $("piles-info").contains(active)) {  // a live update keeps the keyboard's place
      focus = active.dataset.move ? { card: active.dataset.card, dir: active.dataset.move } : { id: active.id };
    }
    const dead = game.summary.dead || [];
    const may = SEAT && game.status === "active" && dead.length > 1;
    if (deadOrder && (!may || [...deadOrder].sort().join() !== [...dead].sort().join())) deadOrder = null;
    let extra = null;
    if (may && !deadOrder) {
      extra = h("p", {}, h("button", { type: "button", class: "secondary small-button", id: "reorder-dead-open",
        onclick: () => { deadOrder = dead.slice(); renderPiles({ card: deadOrder[0], dir: "down" }); } }, gettext("Reorder the dead pile")));
    } else if (deadOrder) {
      const move = (i, by) => {
        const [a] = deadOrder.splice(i, 1);
        deadOrder.splice(i + by, 0, a);
        const at = i + by;
        renderPiles({ card: a, dir: at === 0 ? "down" : at === deadOrder.length - 1 ? "up" : by < 0 ? "up" : "down" });
      };
      extra = h("div", { class: "dead-reorder", role: "group", "aria-label": gettext("New order of the dead pile") },
        h("p", { class: "small" }, gettext("Top of the pile first. Move allies up or down, then save the order.")),
        h("ol", { id: "dead-order" }, deadOrder.map((a, i) => h("li", { "data-card": a },
          h("span", { class: "dead-name" }, chip(a)),
          h("button", { type: "button", class: "secondary move", "data-move": "up", "data-card": a, disabled: i === 0,
            "aria-label": fmt(gettext("Move %(ally)s up"), { ally: cardName(a) }), onclick: () => move(i, -1) }, "↑"),
          h("button", { type: "button", class: "secondary move", "data-move": "down", "data-card": a, disabled: i === deadOrder.length - 1,
            "aria-label": fmt(gettext("Move %(ally)s down"), { ally: cardName(a) }), onclick: () => move(i, 1) }, "↓")))),
        h("p", {},
          h("button", { type: "button", id: "reorder-dead-save", disabled: deadOrder.join() === dead.join(),
            onclick: async () => {
              const order = deadOrder;
              deadOrder = null;
              if (!(await send({ reorder_dead: order }))) { deadOrder = order; renderPiles(); }
            } }, gettext("Save this order")), " ",
          h("button", { type: "button", class: "secondary", id: "reorder-dead-cancel", onclick: () => { deadOrder = null; renderPiles(); } }, gettext("Cancel"))));
    }
    $("piles-info").replaceChildren(...pilesView(extra));
    if (focus) {
      const b = focus.id ? $(focus.id) : $("piles-info").querySelector(`button[data-move="${focus.dir}"][data-card="${focus.card}"]`);
      if (b && !b.disabled) b.focus();
    }
  }

  // ------------------------------------------------------------------ decisions

  function myKind() { return SEAT && game.status === "active" ? (game.pending || {})[SEAT] : null; }

  function button(act, label, cls) {
    return h("button", { type: "button", class: "choice" + (cls ? " " + cls : ""), "data-action": JSON.stringify(act), onclick: () => send(act) }, label || describeAction(act));
  }

  function renderDecision() {
    const box = $("decision");
    const kind = myKind();
    if (!SEAT) { box.replaceChildren(h("h2", {}, gettext("Spectating")), h("p", {}, gettext("You see what any spectator may see: no hand, no power-token value."))); return; }
    if (game.status !== "active") { box.replaceChildren(h("h2", {}, gettext("Game over")), h("p", {}, h("a", { href: `/games/${game.id}/replay` }, gettext("Replay it step by step")))); return; }
    if (!kind) {
      const waiting = Object.keys(game.pending || {}).map(leader).join(", ");
      box.replaceChildren(h("h2", {}, gettext("Nothing to decide")), h("p", {}, waiting ? fmt(gettext("Waiting for %(names)s."), { names: waiting }) : gettext("Waiting.")));
      return;
    }
    const me = seatRow(SEAT);
    const titles = { turn: gettext("play a card or kneel"), claim: gettext("place the ally you won"), token: gettext("place your power token"),
      choose: gettext("a choice"), keep: gettext("keep a card (draft)") };
    const pick = handPick();
    const title = kind === "choose" && pick ? PICK[pick.verb].title : (titles[kind] || cap(kind));
    const head = h("h2", {}, fmt(gettext("Your decision: %(what)s"), { what: title }), " ", me.deadline_at ? h("span", { class: "deadline", "data-deadline": me.deadline_at }, "") : "");
    const legal = game.legal_actions || [];
    let body;
    if (!legal.length) body = noChoicesPanel();
    else if (kind === "turn") body = turnPanel(legal, pick);
    else if (kind === "keep") body = h("div", { class: "bt-cards" }, legal.map((a) => cardView(a.keep, {}, button(a, gettext("Keep")))));
    else if (pick) body = handChoicePanel(legal, pick);
    else body = h("div", {}, abilityInfo(), peekedInfo(), claimInfo(kind), h("div", { class: "choices" }, legal.map((a) => button(a))));
    box.replaceChildren(head, body);   // extend, concede and the pause vote: the seat bar (table_controls.js)
    tick();
  }

  /* The card whose ability asks this choice, with its text. */
  function abilityInfo() {
    const ctx = decision().ctx || {};
    const id = ctx.card || ctx.ally;
    if (!id || !T.cards.cards[id]) return null;
    const texts = (card(id).texts || []).filter((t) => !ctx.timing || t.timing === ctx.timing).map((t) => t.text).join(" ");
    return h("p", { class: "bt-ability" }, h("strong", {}, cardName(id)), texts ? ": " + texts : "");
  }

  function claimInfo(kind) {
    const s = game.summary;
    if (kind === "claim" && s.claiming) return h("div", {}, h("p", {}, gettext("You won the bid. Place this ally in one of your councils:")), cardView(s.claiming));
    if (kind === "token") return h("p", {}, gettext("Take a face-down power token into one of your councils (its value stays hidden until the end)."));
    return null;
  }
  function peekedInfo() {
    const p = game.summary.peeked;
    return Array.isArray(p) && p.length ? h("p", {}, gettext("You look at:") + " ", p.map((a) => chip(a))) : null;
  }

  const toHand = () => h("a", { href: "#hand-panel", class: "to-hand" }, gettext("Your hand ↓"));

  /* B25, B29-B31: when every other leader has knelt, kneeling ends the bid at once (the engine
     resolves it when no one is left standing, flow.next_turn). Who wins it then: null while someone
     else still bids, else {seat, total, tie}: the highest total, ties to the tied leader nearest the
     first player clockwise, or farthest under a current ally with a tie-break (Walder Frey). */
  function winnerIfIKneel() {
    const s = game.summary;
    const seats = s.seats || [];
    const knelt = s.knelt || [];
    if (seats.length < 2 || !seats.every((x) => x === SEAT || knelt.includes(x))) return null;
    const at = Math.max(0, seats.indexOf(s.first_player));
    const order = seats.slice(at).concat(seats.slice(0, at));
    const totals = s.totals || {};
    const best = Math.max(...order.map((x) => totals[x] || 0));
    const tied = order.filter((x) => (totals[x] || 0) === best);
    const farthest = ((s.current_ally && card(s.current_ally).texts) || []).some((t) => t.timing === "during_round" && (t.ops || []).includes("tie_break"));
    return { seat: farthest ? tied[tied.length - 1] : tied[0], total: best, tie: tied.length > 1 };
  }

  /* What the turn panel says (one place, for translation). */
  const TURN_WORDS = {
    totals: (mine, best) => fmt(gettext("Your total: %(mine)s · highest other total: %(best)s."), { mine, best }),
    pick: (n, size, last) => {
      const which = n === size ? gettext("any of them") : fmt(gettext("%(count)s of your %(size)s cards"), { count: n, size });
      return fmt(last ? gettext("Pick a card in your hand to play it face up into your bid pile (%(which)s may be played now), or kneel. ")
        : gettext("Pick a card in your hand to play it face up into your bid pile (%(which)s may be played now), or kneel: you are out of this bid. "), { which });
    },
    noCard: gettext("No card of your hand may be played now. "),
    kneel: gettext("Kneel"),
    mayNotKneel: gettext("You may not kneel now."),
    allKneltWin: (total) => fmt(gettext("Everyone else has knelt: if you kneel now, the bid ends and you win it with %(total)s. Play more cards only for their abilities."), { total }),
    allKneltWinTie: (total) => fmt(gettext("Everyone else has knelt: if you kneel now, the bid ends in a tie at %(total)s and the tie goes to you, so you win it."), { total }),
    allKneltLose: (name, total) => fmt(gettext("Everyone else has knelt: if you kneel now, the bid ends and %(name)s wins it with %(total)s. To win it, play cards until your total is higher."), { name, total }),
    allKneltLoseTie: (name, total) => fmt(gettext("Everyone else has knelt: if you kneel now, the bid ends in a tie at %(total)s and the tie goes to %(name)s. To win it, play cards until your total is higher."), { name, total }),
    kneelAndWin: gettext("Kneel and win the bid"),
  };

  /* Your turn: the cards are picked in the hand (renderHand); here the totals, the way to the hand and kneel. */
  function turnPanel(legal, pick) {
    const kneel = legal.find((a) => a.kneel);
    const s = game.summary;
    const best = Math.max(0, ...Object.entries(s.totals || {}).filter(([seat]) => seat !== SEAT).map(([, t]) => t));
    const hand = (s.hands || {})[SEAT] || [];
    const n = pick ? hand.filter((c) => pick.byCard.has(c)).length : 0;
    const last = kneel ? winnerIfIKneel() : null;
    const W = TURN_WORDS;
    const lastWords = !last ? null : last.seat === SEAT ? (last.tie ? W.allKneltWinTie(last.total) : W.allKneltWin(last.total))
      : (last.tie ? W.allKneltLoseTie(leader(last.seat), last.total) : W.allKneltLose(leader(last.seat), last.total));
    return h("div", {},
      h("p", {}, W.totals((s.totals || {})[SEAT] ?? 0, best)),
      lastWords ? h("p", { class: "bt-last-bidder" + (last.seat === SEAT ? " wins" : ""), id: "last-bidder" }, h("strong", {}, lastWords)) : null,
      h("p", {}, n ? W.pick(n, hand.length, !!last) : W.noCard, n ? toHand() : null),
      kneel ? h("p", {}, button(kneel, last && last.seat === SEAT ? W.kneelAndWin : W.kneel, "kneel")) : h("p", { class: "small" }, W.mayNotKneel));
  }

  /* An ability asks for a card of your hand (e.g. "discard 1 card of your choice"): picked in the hand. */
  function handChoicePanel(legal, pick) {
    const decline = legal.find((a) => a.choose === false);
    return h("div", {}, abilityInfo(),
      h("p", {}, PICK[pick.verb].panel + " ", toHand()),
      decline ? h("p", {}, button(decline, gettext("Decline (the ability is optional)"), "decline")) : null);
  }

  /* The server listed no choice for a pending decision (it should not happen): say so in words. */
  function noChoicesPanel() {
    return h("div", {}, h("p", {}, gettext("The game lists no choice for you at this moment. Reload it; if this stays, the deadline resolves the decision for you.")),
      h("button", { type: "button", id: "reload-game", onclick: () => load() }, gettext("Reload the game")));
  }

  // ------------------------------------------------------------------ log

  const SOURCE = { bot: pgettext("who made a move", "bot"), timeout: pgettext("who made a move", "timeout") };
  const readLog = window.WesterosClient.logReader(q);   // new entries only, a page at a time (gameclient.js)
  async function loadLog() {
    const entries = await readLog();
    if (!entries) return;
    useGame();
    $("log").replaceChildren(...entries.slice(-150).reverse().map((e) =>
      h("li", { value: e.version }, e.source && e.source !== "player" ? h("span", { class: "log-seat" }, `(${SOURCE[e.source] || e.source}) `) : null,
        e.events.map((ev) => h("span", { class: "log-event" }, describeEvent(ev.type === "reorder_dead" ? { ...ev, seat: e.seat } : ev), " ")))));
  }

  // ------------------------------------------------------------------ chat and live updates

  const chat = window.WesterosChat.setup({ q, seat: SEAT, seatName: (s) => CARDS.leaders[s] || cap(s), showError });

  function connect() {
    window.WesterosClient.connectLive({
      path: root.dataset.ws, invite: INVITE, status: $("conn"), version: () => version, load,
      onOpen: load,
      onChat: chat.addMessage,
      onPresence: (connected) => {
        if (!game) return;
        for (const s of game.seats) s.connected = !!s.user && connected.includes(s.user);
        drawTable();
      },
    });
  }

  load().then(() => { connect(); chat.load(); });
  window.__westerosGame = { load, send, state: () => game };
})();
