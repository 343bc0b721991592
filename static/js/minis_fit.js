/* The battlefield page's table height (templates/web/minis_game.html, minis.css): the whole table on the screen
   below what stands above it (the site's bar, the game's head and status line, a sentence for an eliminated player,
   the score line of two to four players and the tools), however many rows each takes (a finished game's result
   above it left out: it is scrolled past); never under 24rem. Sets --mn-above on #game
   from the table's distance to the page's top, kept as those rows change; static/js/minis.js draws the table. */
(function () {
  "use strict";
  const game = document.getElementById("game");
  const field = document.getElementById("field");
  if (!game || !field) return;
  let above = -1;
  const result = document.getElementById("game-result");
  function fit() {
    // a finished game's result stands above the table: scrolled past, the table still fits the screen
    const skip = result && !result.hidden ? result.getBoundingClientRect().height : 0;
    const top = Math.ceil(field.getBoundingClientRect().top + window.scrollY - skip) + 8;   // and a margin under the table
    if (top !== above) { above = top; game.style.setProperty("--mn-above", `${top}px`); }
  }
  // the page's content: any row above the table that grows or shrinks (the table's own height leaves its top alone)
  if (window.ResizeObserver) new ResizeObserver(fit).observe(document.getElementById("content") || game);
  window.addEventListener("resize", fit);
  fit();
})();
