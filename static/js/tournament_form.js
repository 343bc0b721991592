/* The tournament form (templates/tournaments/new.html): only the chosen game's tie-breakers can be
   picked (B'Twixt and the card games record no castles or supply); the server refuses the others
   anyway, with a sentence beside the field. The allowed ones per game come in the page's
   json_script block "ruleset-tiebreakers". */
(() => {
  const data = document.getElementById("ruleset-tiebreakers");
  const game = document.getElementById("id_ruleset");
  if (!data || !game) return;
  const allowed = JSON.parse(data.textContent);
  const selects = [...document.querySelectorAll("select[name^='tiebreaker_']")];
  function update() {
    const ok = allowed[game.value || "agot"] || [];
    for (const select of selects) {
      for (const option of select.options) option.disabled = option.value !== "" && !ok.includes(option.value);
      if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "";
    }
  }
  game.addEventListener("change", update);
  update();
})();
