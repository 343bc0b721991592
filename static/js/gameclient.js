/* What every game page shares: building elements, the CSRF token, and the game websocket with
   reconnection. A page passes what it does with each message; versions are how it notices a
   missed update (then it re-fetches the game over REST), as do a {"type": "gap"} notice and the
   server's {"type": "keepalive", "version"}, which comes every couple of seconds. */
(function () {
  "use strict";

  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v === true) node.setAttribute(k, "");
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c.nodeType ? c : String(c));
    return node;
  }

  /* One fetch of the game at a time: a call while one is in flight (an update arrived meanwhile)
     gets one more run of `task` after it (one, however many calls came meanwhile), so the page ends
     on the newest state, and whoever awaits the call sees what changed before it: `await load()`
     after an action resolves once the game was read after the action, not when a read begun before
     it ends (the page then rendered the old decision after the action, and a choice made next was
     lost when the newer read came). */
  function coalesced(task) {
    let running = null, next = null;
    function run() {
      if (running) {
        const after = () => { next = null; return run(); };
        if (!next) next = running.then(after, after);
        return next;
      }
      running = (async () => { try { await task(); } finally { running = null; } })();
      return running;
    }
    return run;
  }

  function csrf() { const m = document.cookie.match(/csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; }

  /* POST to the site's API (JSON in when `payload` is given, JSON out): {ok, status, body, reason},
     `reason` being the server's refusal in its own words, or a sentence with the status when it
     gave none. Every game page sends its actions, extensions and concessions through this. */
  async function post(url, payload) {
    const headers = { "X-CSRFToken": csrf(), Accept: "application/json" };
    if (payload !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(url, { method: "POST", credentials: "same-origin", headers,
                                 body: payload === undefined ? undefined : JSON.stringify(payload) });
    let body = {};
    try { body = (await r.json()) || {}; } catch (e) { /* not JSON */ }
    const reason = r.ok ? "" : String(body.detail || body.reason || r.statusText
      || interpolate(gettext("the server did not accept this (%(status)s)"), { status: r.status }, true));
    return { ok: r.ok, status: r.status, body, reason };
  }

  /* Whether an update changes what the page shows at version `known`: a newer version (the next one,
     or one past a gap), or a change of seats or status (from_version == version) at the version it
     has. Older updates are ignored. The pages draw from GET /api/v1/games/<id>, so any news re-fetches. */
  function isNews(msg, known) {
    return msg.version > known || (msg.version === known && msg.from_version === known);
  }

  /* Reconnection waits: "full jitter" (a random wait between 0 and the current backoff, which starts
     at 1 s, doubles after each failed attempt and stops at 30 s; back to 1 s once a socket opens).
     When a server or Redis goes down, every page's socket closes in the same second; without the
     random part they would all come back in the same second, 1, 2, 4... s later, a storm the servers
     cannot accept in time (issue 28).
     A close with 4503 is the server saying "a service I need is down, try again" (a Redis failover
     takes a few seconds): the server itself is up, so the socket tries again soon, after a random
     0.5-1.5 s, for UNAVAILABLE_TRIES tries, without growing the back-off; only then does the back-off
     grow (a long outage). Doubling from the first 4503 brought the sockets back seconds after the
     service was. */
  const RECONNECT_FIRST = 1000, RECONNECT_MOST = 30000, UNAVAILABLE = 4503, UNAVAILABLE_TRIES = 5;
  function reconnectWait(backoff) { return Math.random() * backoff; }
  function unavailableWait() { return 500 + Math.random() * 1000; }

  /* connectLive({path, invite, status, version, load, onOpen, onPresence, onChat}): `version()` is the
     version the page shows; `load()` re-fetches; `status` is the element that says live/reconnecting. */
  function connectLive(opts) {
    let backoff = RECONNECT_FIRST, unavailable = 0;
    // A deadline shown on the page passed (countdown.js): the server applies the default within a
    // couple of seconds. Re-fetch then, and once more later, unless an update came meanwhile: a page
    // must not keep asking for a decision already taken, even when its live update is lost.
    window.addEventListener("westeros:deadline", () => {
      const seen = opts.version();
      for (const wait of [2500, 7000]) setTimeout(() => { if (opts.version() === seen) opts.load(); }, wait);
    });
    function connect() {
      const proto = location.protocol === "https:" ? "wss://" : "ws://";
      const ws = new WebSocket(proto + location.host + opts.path + (opts.invite ? "?invite=" + encodeURIComponent(opts.invite) : ""));
      ws.onopen = () => {
        backoff = RECONNECT_FIRST; unavailable = 0; opts.status.textContent = gettext("live"); opts.status.className = "conn on";
        if (opts.onOpen) opts.onOpen();
      };
      ws.onmessage = (e) => {
        const msg = JSON.parse(e.data);
        if (msg.type === "hello") { if (msg.version !== opts.version()) opts.load(); }
        else if (msg.type === "update") { if (isNews(msg, opts.version())) opts.load(); }
        else if (msg.type === "gap") opts.load();  // an update was lost or came too late
        // The server's keep-alive (every couple of seconds, and as soon as this socket falls behind)
        // carries the game's version: a newer one means an update never came, so re-fetch.
        else if (msg.type === "keepalive") { if (msg.version > opts.version()) opts.load(); }
        else if (msg.type === "chat" && opts.onChat) opts.onChat(msg);
        else if (msg.type === "presence" && opts.onPresence) opts.onPresence(msg.connected);
      };
      ws.onclose = (e) => {
        opts.status.textContent = gettext("reconnecting…"); opts.status.className = "conn off";
        if (e.code === UNAVAILABLE && unavailable < UNAVAILABLE_TRIES) { unavailable += 1; setTimeout(connect, unavailableWait()); return; }
        setTimeout(connect, reconnectWait(backoff)); backoff = Math.min(backoff * 2, RECONNECT_MOST);
      };
      window.__westerosSocket = ws;
    }
    connect();
  }

  /* The game's log, read a page at a time and kept (issue 27): GET /log?after=V answers the entries
     after version V, `through` the last version it covers and `next` while more follow. Each call of
     the returned function fetches only what is new since the last one and resolves to every entry so
     far (null when the server refused); calls made while one runs wait for it, so nothing is read twice.
     A take-over that a page repeats is kept once. `url(path)` adds the page's own query (an invite). */
  function logReader(url) {
    const entries = [], seen = new Set();
    let after = 0, chain = Promise.resolve();
    async function more() {
      for (;;) {
        const r = await fetch(url(`/log?after=${after}`), { credentials: "same-origin" });
        if (!r.ok) return null;
        const body = await r.json();
        for (const e of body.entries || []) {
          const key = `${e.version}:${e.source}:${e.seat}`;
          if (!seen.has(key)) { seen.add(key); entries.push(e); }
        }
        if (typeof body.through === "number") after = Math.max(after, body.through);
        if (!body.next) return entries;
      }
    }
    return function load() {
      const run = chain.then(more, more);
      chain = run.catch(() => null);
      return run;
    };
  }

  window.WesterosClient = { h, csrf, post, connectLive, coalesced, logReader };
})();
