// A form with a data-confirm attribute asks its sentence before it is sent (for example taking
// over a seat, templates/web/needs_player.html): Cancel keeps the page as it is.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
  if (!window.confirm(form.dataset.confirm)) event.preventDefault();
});
