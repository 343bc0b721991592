// The Tokens page: "Copy the token" puts a new token on the clipboard (templates/accounts/tokens.html).
(function () {
  var button = document.querySelector(".copy-token"), key = document.getElementById("new-token-key");
  var status = document.querySelector(".copy-status");
  if (!button || !key || !status) return;
  function done(ok) {
    button.textContent = ok ? "Copied" : "Copy the token";
    status.textContent = ok ? "The token is on your clipboard." : "Copying failed: select the token and copy it yourself.";
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
