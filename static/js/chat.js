/* The chat panel every game page shares: the table channel and, when the game allows it, a private
   channel for each pair of seats (chat/services.py). History and posting go through the REST API
   (chat/api.py: GET <game>/chat/channels, GET and POST <game>/chat); new messages arrive on the game
   websocket as {"type": "chat", ...} (games/consumers.py), which the page passes to addMessage.
   A message's `text` is raw: it is only ever set as text, never as HTML.

   The page holds the markup: #chat-panel (hidden until there is a channel to read), #chat-channel
   (a select), #chat-messages (a list), #chat-form with #chat-text.

   WesterosChat.setup({q, seat, seatName, showError}) -> {load, addMessage}: `q(path)` makes a game
   API address (with the invite token, if any), `seat` is the viewer's seat (or null), `seatName(seat)`
   the name a player reads, `showError(text)` shows a refusal. */
(function () {
  "use strict";
  const { h, csrf } = window.WesterosClient;
  const $ = (id) => document.getElementById(id);

  function setup(opts) {
    const seatName = opts.seatName || ((s) => s);
    const state = { channel: "table", seen: new Set() };

    function label(c) {
      if (c.channel === "table") return gettext("Table (everyone)");
      return interpolate(gettext("Private: %(seats)s"), { seats: c.seats.filter((s) => s !== opts.seat).map(seatName).join(", ") }, true);
    }

    async function load() {
      const r = await fetch(opts.q("/chat/channels"), { credentials: "same-origin" });
      if (!r.ok) return;
      const data = await r.json();
      if (!data.channels.length) return;
      $("chat-panel").hidden = false;
      $("chat-channel").replaceChildren(...data.channels.map((c) =>
        h("option", { value: c.channel, "data-write": c.can_write ? "1" : "", "data-label": label(c) }, label(c))));
      $("chat-channel").value = state.channel;
      await loadChannel();
    }

    async function loadChannel() {
      const opt = $("chat-channel").selectedOptions[0];
      $("chat-form").hidden = !(opt && opt.dataset.write);
      const r = await fetch(opts.q("/chat?channel=" + encodeURIComponent(state.channel)), { credentials: "same-origin" });
      $("chat-messages").replaceChildren();
      state.seen = new Set();
      if (!r.ok) return;
      const body = await r.json();
      (body.results || body).slice().reverse().forEach(addMessage);
      if (!state.seen.size) $("chat-messages").append(h("li", { class: "empty" }, gettext("No messages yet.")));
    }

    function addMessage(m) {
      if (m.channel !== state.channel) {
        // another channel: mark it unread in the list
        const opt = [...$("chat-channel").options].find((o) => o.value === m.channel);
        if (opt) opt.textContent = opt.dataset.label + " •";
        return;
      }
      if (state.seen.has(m.id)) return;
      state.seen.add(m.id);
      const list = $("chat-messages");
      for (const placeholder of list.querySelectorAll("li.empty")) placeholder.remove();
      list.append(h("li", {}, h("strong", {}, m.sender || "?", m.seat ? ` (${seatName(m.seat)})` : ""), ": ", m.text));
      list.scrollTop = list.scrollHeight;
    }

    $("chat-channel").addEventListener("change", (e) => {
      state.channel = e.target.value;
      const opt = e.target.selectedOptions[0];
      opt.textContent = opt.dataset.label;
      loadChannel();
    });
    $("chat-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const text = $("chat-text").value;
      if (!text.trim()) return;
      const r = await fetch(opts.q("/chat"), { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify({ channel: state.channel, text }) });
      if (r.ok) { $("chat-text").value = ""; addMessage(await r.json()); }
      else { const b = await r.json().catch(() => ({})); opts.showError(interpolate(gettext("Your message was not sent: %(why)s"), { why: b.detail || r.status }, true)); }
    });

    return { load, addMessage };
  }

  window.WesterosChat = { setup };
})();
