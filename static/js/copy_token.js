// The Tokens page: "Copy the token" puts a new token on the clipboard (templates/accounts/tokens.html).
(function () {
  var button = document.querySelector(".copy-token"), key = document.getElementById("new-token-key");
  var status = document.querySelector(".copy-status");
  if (!button || !key || !status) return;
  function done(ok) {
    // the words in the page's language: templates/base.html loads the catalogue (gettext) first
    button.textContent = ok ? gettext("Copied") : gettext("Copy the token");
    status.textContent = ok ? gettext("The token is on your clipboard.")
      : gettext("Copying failed: select the token and copy it yourself.");
    if (!ok) window.getSelection().selectAllChildren(key);
  }
  button.addEventListener("click", function () {
    var text = key.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    } else {
      window.getSelection().selectAllChildren(key);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok);
    }
  });
})();
