/* The seat controls and the end of the game, shared by the four game pages (issue 26).

   Each page calls WesterosTable.update(game, reload) after every load of GET /api/v1/games/<id>
   (`reload`: the page's own coalesced load). While the game is active, #table-controls holds a
   small bar for a seated player: extend my deadline (once per game), concede (after a
   confirmation that says the computer takes the seat), the pause vote (vote, withdraw, resume),
   whatever decision is pending; and, for everyone, the notice that a game started with computer
   players is unrated. Once the game is over, #game-result holds the end screen drawn from the
   payload's `result` (places, who won and why, ratings before and after, the replay and a rematch).
   Every sentence a player reads is in WORDS below, so that it can be translated in one place. */
(function () {
  "use strict";

  const WORDS = {
    bar: gettext("Your seat"),
    extend: gettext("Extend my deadline (once per game)"),
    extendLater: gettext("Extend my deadline (once, when you have a decision)"),
    extendRefused: gettext("Extension refused: "),
    concede: gettext("Concede"),
    concedeAsk: gettext("Concede this game? The computer takes your seat and plays it to the end; you cannot come back."),
    concedeYes: gettext("Yes, concede"),
    concedeNo: gettext("Keep playing"),
    concedeRefused: gettext("Concession refused: "),
    pauseAlone: gettext("Pause the game"),
    pauseWaits: (names) => interpolate(gettext("Pause: waits for %(names)s's vote"), { names }, true),
    pauseWaitsMany: (names) => interpolate(gettext("Pause: waits for the votes of %(names)s"), { names }, true),
    pauseLast: (names) => interpolate(gettext("Pause the game (%(names)s voted to pause)"), { names }, true),
    // `count`: how many players the vote still waits for (the verb agrees with them)
    voted: (names, count) => interpolate(ngettext("You voted to pause; the game pauses when %(names)s votes too.",
      "You voted to pause; the game pauses when %(names)s vote too.", count), { names }, true),
    withdraw: gettext("Withdraw my vote"),
    paused: gettext("The game is paused: every deadline and clock is stopped."),
    resume: gettext("Resume the game"),
    pauseRefused: gettext("Pause refused: "),
    left: gettext("You left this game: the computer plays your seat."),
    unrated: gettext("Unrated: this game started with computer players."),
    over: gettext("The game is over"),
    abandoned: gettext("The game was abandoned"),
    overWithout: gettext("The game is over. Its result is not ready yet: reload the page in a moment."),
    places: gettext("Places"),
    place: gettext("Place"),
    seat: gettext("Seat"),
    player: gettext("Player"),
    score: gettext("Score"),
    rating: gettext("Rating"),
    winner: gettext("winner"),
    notRated: gettext("This game was not rated."),
    notRatedComputer: gettext("This game was not rated: it started with computer players."),
    ratingChange: (before, after) => `${before} → ${after} (${after - before >= 0 ? "+" : "−"}${Math.abs(after - before)})`,
    noRating: gettext("not rated"),
    replay: gettext("Watch the replay"),
    rematch: gettext("Rematch"),
    rematchHint: (computer) => computer ? gettext("A new game with the same seats, options and computer players.")
      : gettext("A new game with the same seats and options."),
    // a place in words: "1st", "2nd" in English; the catalogue says how other languages write it ("1.º")
    ordinal: (n) => {
      const t = n % 100, u = n % 10;
      const suffix = t >= 11 && t <= 13 ? "th" : u === 1 ? "st" : u === 2 ? "nd" : u === 3 ? "rd" : "th";
      const said = { st: gettext("%(n)sst"), nd: gettext("%(n)snd"), rd: gettext("%(n)srd"), th: gettext("%(n)sth") }[suffix];
      return interpolate(said, { n }, true);
    },
    list: (names) => names.length <= 1 ? names.join("")
      : interpolate(gettext("%(items)s and %(last)s"), { items: names.slice(0, -1).join(", "), last: names[names.length - 1] }, true),
  };

  const client = window.WesterosClient;
  const h = client.h;
  const root = document.getElementById("game");
  const API = root.dataset.api;
  const INVITE = root.dataset.invite || "";
  let reload = null;
  let game = null;
  let asking = false;      // the concede confirmation is open
  let message = "";        // the server's last refusal, in its words
  let wasActive = null;    // the game was active at the previous update (to notice its end live)

  function url(path) { return API + path + (INVITE ? "?invite=" + encodeURIComponent(INVITE) : ""); }

  function box(id, before) {
    let node = document.getElementById(id);
    if (!node) { node = h("section", { id }); before.before(node); }
    return node;
  }

  async function send(path, payload, refused) {
    message = "";
    const res = await client.post(url(path), payload);
    if (!res.ok) message = refused + res.reason;
    asking = false;
    if (reload) await reload();
    if (!res.ok) draw();
  }

  function mySeat() {
    if (!game || !game.your_seat) return null;
    return (game.seats || []).find((s) => s.seat === game.your_seat) || null;
  }

  /* The seats out of the game (the miniatures game's M131: no combat unit left; the card game's melee). */
  function eliminated() { return new Set((game.summary || {}).eliminated || []); }
  /* The people still at the table (their seats are not played by the engine) and in the game, by name:
     those who vote on a pause. */
  function people() { const out = eliminated(); return (game.seats || []).filter((s) => !s.is_bot && !out.has(s.seat)); }
  function nameOf(s) { return s.user || s.seat; }

  function pauseControls(me) {
    if (game.paused_at) {
      return [h("p", { class: "tc-paused", role: "status" }, WORDS.paused),
        h("button", { type: "button", id: "tc-resume", onclick: () => send("/pause", { pause: false }, WORDS.pauseRefused) }, WORDS.resume)];
    }
    const votes = new Set(game.pause_votes || []);
    const others = people().filter((s) => s.seat !== me.seat);
    const missing = others.filter((s) => !votes.has(s.seat)).map(nameOf);
    if (votes.has(me.seat)) {
      return [h("p", { class: "tc-voted", role: "status" }, WORDS.voted(WORDS.list(missing), missing.length)),
        h("button", { type: "button", class: "secondary", id: "tc-withdraw", onclick: () => send("/pause", { pause: false }, WORDS.pauseRefused) }, WORDS.withdraw)];
    }
    let label;
    if (!others.length) label = WORDS.pauseAlone;
    else if (!missing.length) label = WORDS.pauseLast(WORDS.list(others.map(nameOf)));
    else label = missing.length === 1 ? WORDS.pauseWaits(missing[0]) : WORDS.pauseWaitsMany(WORDS.list(missing));
    return [h("button", { type: "button", class: "secondary", id: "tc-pause", onclick: () => send("/pause", { pause: true }, WORDS.pauseRefused) }, label)];
  }

  function drawBar() {
    const node = box("table-controls", document.getElementById("decision"));
    node.className = "panel table-controls";
    node.setAttribute("aria-label", WORDS.bar);
    const me = mySeat();
    const parts = [];
    if (game.vs_computer) parts.push(h("p", { class: "tc-unrated", id: "tc-unrated" }, WORDS.unrated));
    if (me && me.is_bot && me.user) parts.push(h("p", { class: "tc-left" }, WORDS.left));
    else if (me) {
      const row = h("div", { class: "tc-row" });
      // a player out of the battle (the miniatures game's M131: no combat unit left) has no decision
      // left to extend and nothing to concede; the others play on
      const out = ((game.summary || {}).eliminated || []).includes(me.seat);
      if (!out && !game.clock && !me.extension_used && !game.paused_at) {
        const running = !!me.deadline_at;
        row.append(h("button", { type: "button", class: "secondary", id: "extend", disabled: !running,
          onclick: () => send("/extend", undefined, WORDS.extendRefused) }, running ? WORDS.extend : WORDS.extendLater));
      }
      if (!out) row.append(...pauseControls(me));   // out of the battle: no vote on a pause either
      if (!asking && !out) row.append(h("button", { type: "button", class: "secondary tc-concede", id: "concede", onclick: () => { asking = true; message = ""; draw(); } }, WORDS.concede));
      if (row.childNodes.length) parts.push(row);   // out of the battle: nothing to offer, no empty panel
      if (asking) {
        parts.push(h("div", { class: "tc-confirm", role: "alertdialog", "aria-labelledby": "tc-ask" },
          h("p", { id: "tc-ask" }, WORDS.concedeAsk),
          h("button", { type: "button", class: "danger", id: "tc-concede-yes", onclick: () => send("/concede", undefined, WORDS.concedeRefused) }, WORDS.concedeYes), " ",
          h("button", { type: "button", class: "secondary", id: "tc-concede-no", onclick: () => { asking = false; draw(); } }, WORDS.concedeNo)));
      }
    }
    if (message) parts.push(h("p", { class: "tc-refused", role: "alert" }, message));
    node.replaceChildren(...parts);
    node.hidden = !parts.length;
  }

  function ratingText(p) {
    if (p.rating_before === null || p.rating_before === undefined || p.rating_after === null || p.rating_after === undefined) return WORDS.noRating;
    return WORDS.ratingChange(p.rating_before, p.rating_after);
  }

  function rematchForm(action) {
    return h("form", { method: "post", action, class: "tc-rematch" },
      h("input", { type: "hidden", name: "csrfmiddlewaretoken", value: client.csrf() }),
      h("button", { type: "submit", id: "tc-rematch" }, WORDS.rematch),
      h("span", { class: "tc-hint" }, " ", WORDS.rematchHint(game.vs_computer)));
  }

  function drawResult() {
    const node = box("game-result", document.querySelector("#game .game-grid"));
    node.className = "game-result";
    node.setAttribute("aria-label", WORDS.over);
    const r = game.result;
    if (!r) {
      node.replaceChildren(h("h2", {}, WORDS.over), h("p", {}, WORDS.overWithout),
        h("p", {}, h("a", { href: `/games/${game.id}/replay`, id: "tc-replay" }, WORDS.replay)));
      node.hidden = false;
      return;
    }
    const rated = !!r.rated;
    const scored = (r.places || []).some((p) => p.score);   // a column of scores only when some seat has one
    const rows = (r.places || []).map((p) => h("tr", { class: p.winner ? "tc-winner" : "", "data-seat": p.seat },
      h("td", { class: "tc-place" }, WORDS.ordinal(p.place), p.winner ? h("span", { class: "tc-crown", title: WORDS.winner, "aria-label": WORDS.winner }, " ♛") : null),
      h("td", { class: "tc-seat" }, h("strong", {}, p.seat_name || p.seat), h("span", { class: "tc-who" }, p.who || p.player || "")),
      scored ? h("td", { class: "tc-score" }, p.score || "") : null,
      rated ? h("td", { class: "tc-rating" }, ratingText(p)) : null));
    node.replaceChildren(...[
      h("h2", {}, r.status === "abandoned" ? WORDS.abandoned : WORDS.over),
      h("p", { class: "tc-headline", id: "tc-headline" }, r.headline || ""),
      h("table", { class: "tc-places" },
        h("caption", {}, WORDS.places),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, WORDS.place), h("th", { scope: "col" }, WORDS.seat),
          scored ? h("th", { scope: "col" }, WORDS.score) : null, rated ? h("th", { scope: "col" }, WORDS.rating) : null)),
        h("tbody", {}, rows)),
      rated ? null : h("p", { class: "tc-unrated" }, game.vs_computer ? WORDS.notRatedComputer : WORDS.notRated),
      h("div", { class: "tc-links" },
        h("a", { href: r.replay_url || `/games/${game.id}/replay`, id: "tc-replay", class: "button-link" }, WORDS.replay),
        r.rematch_url ? rematchForm(r.rematch_url) : null),
    ].filter(Boolean));
    node.hidden = false;
  }

  function draw() {
    if (!game) return;
    const active = game.status === "active";
    if (active) {
      drawBar();
      const result = document.getElementById("game-result");
      if (result) result.hidden = true;
    } else {
      const bar = document.getElementById("table-controls");
      if (bar) bar.hidden = true;
      drawResult();
      // the game ended while the page was open: bring the end screen into view
      if (wasActive) document.getElementById("game-result").scrollIntoView({ block: "start", behavior: "smooth" });
    }
    wasActive = active;
  }

  function update(current, load) {
    game = current;
    if (load) reload = load;
    draw();
  }

  window.WesterosTable = { update, WORDS };
})();
