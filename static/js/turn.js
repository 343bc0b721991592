/* The turn signal of both game pages (AGoT game.js, B'Twixt btwixt.js): when this player's seat has
   a pending decision the tab title reads "● Your move — …" and the favicon turns into a red dot;
   an optional sound (off by default, remembered in localStorage) plays when the turn arrives, made
   with the Web Audio API (no audio file). The pages call WesterosTurn.update(game) after every load;
   `game` is the API's GET /api/v1/games/<id> (status, pending {seat: kind}). */
(function () {
  "use strict";
  const root = document.getElementById("game");
  const SEAT = (root && root.dataset.seat) || null;
  const SOUND_KEY = "westeros.turnSound";
  const PREFIX = gettext("● Your move — ");
  const baseTitle = document.title;
  const icon = (fill, stroke) => "data:image/svg+xml," + encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="13" fill="${fill}" stroke="${stroke}" stroke-width="3"/></svg>`);
  const ICON_WAIT = icon("#d8cfbf", "#6b6358");
  const ICON_TURN = icon("#d0302a", "#fff3c4");
  let yourTurn = null;   // unknown until the first update
  let audio = null;

  function favicon(href) {
    let link = document.querySelector("link[rel~='icon']");
    if (!link) { link = document.createElement("link"); link.rel = "icon"; document.head.appendChild(link); }
    link.type = "image/svg+xml";
    link.href = href;
  }

  function soundOn() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function chime() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    audio = audio || new Ctx();
    if (audio.state === "suspended") audio.resume();
    const start = audio.currentTime + 0.02;
    [[659.25, 0], [880, 0.16]].forEach(([freq, at]) => {   // E5 then A5, a soft bell
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.type = "sine"; osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + at);
      gain.gain.exponentialRampToValueAtTime(0.25, start + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.45);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at); osc.stop(start + at + 0.5);
    });
    window.__westerosTurnChimes = (window.__westerosTurnChimes || 0) + 1;
  }

  function soundToggle() {
    if (!SEAT || document.getElementById("turn-sound")) return;
    const line = root.querySelector(".status-line");
    if (!line) return;
    const button = document.createElement("button");
    button.type = "button"; button.id = "turn-sound"; button.className = "turn-sound";
    const show = () => {
      const on = soundOn();
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? gettext("♪ Sound on your turn: on") : gettext("♪ Sound on your turn: off");
    };
    button.addEventListener("click", () => {
      const on = !soundOn();
      try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
      show();
      if (on) chime();   // a sample, and the click unlocks audio for later turns
    });
    show();
    line.appendChild(button);
  }

  function update(game) {
    const now = Boolean(SEAT && game && game.status === "active" && game.pending && game.pending[SEAT]);
    document.title = now ? PREFIX + baseTitle : baseTitle;
    favicon(now ? ICON_TURN : ICON_WAIT);
    document.documentElement.classList.toggle("your-turn", now);
    if (now && yourTurn === false && soundOn()) chime();
    yourTurn = now;
    if (window.WesterosClock) window.WesterosClock.update(game);  // the players' clocks (countdown.js)
  }

  soundToggle();
  favicon(ICON_WAIT);
  window.WesterosTurn = { update, yourTurn: () => yourTurn, soundOn };
})();
