/* The battlefield page's table height (templates/web/minis_game.html, minis.css): the whole table on the screen
   below what stands above it (the site's bar, the game's head and status line, a sentence for an eliminated player,
   the score line of two to four players and the tools), however many rows each takes; never under 24rem (the
   result of a finished game stands above it too). Sets --mn-above on #game
   from the table's distance to the page's top, kept as those rows change; static/js/minis.js draws the table. */
(function () {
  "use strict";
  const game = document.getElementById("game");
  const field = document.getElementById("field");
  if (!game || !field) return;
  let above = -1;
  function fit() {
    const top = Math.ceil(field.getBoundingClientRect().top + window.scrollY) + 8;   // and a margin under the table
    if (top !== above) { above = top; game.style.setProperty("--mn-above", `${top}px`); }
  }
  // the page's content: any row above the table that grows or shrinks (the table's own height leaves its top alone)
  if (window.ResizeObserver) new ResizeObserver(fit).observe(document.getElementById("content") || game);
  window.addEventListener("resize", fit);
  fit();
})();
