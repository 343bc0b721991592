// A tournament's page (templates/tournaments/detail.html) reloads when the tournament changes: its
// websocket path is the data-socket attribute of the element with id "tournament-live".
(() => {
  const holder = document.getElementById("tournament-live");
  if (!holder || !holder.dataset.socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try { socket = new WebSocket(`${scheme}://${location.host}${holder.dataset.socket}`); } catch (e) { return; }
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "update") { location.reload(); }
  });
})();
