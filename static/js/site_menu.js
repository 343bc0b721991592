// The phone header: the links fold behind a Menu button (below 700 px, see site.css).
// Loaded by templates/base.html on every page (no inline script: the Content-Security-Policy).
(function () {
  var header = document.querySelector(".site-header");
  if (!header) return;
  var toggle = header.querySelector(".menu-toggle"), menu = document.getElementById("site-menu");
  if (!toggle || !menu) return;
  header.classList.add("collapsible");
  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    var open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("open", open);
    if (open) { var first = menu.querySelector("a, button"); if (first) first.focus(); }
  });
  menu.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && menu.classList.contains("open")) { toggle.click(); toggle.focus(); }
  });
})();
