// Site-wide behaviour, small on purpose: game pages bring their own scripts.
(function () {
  "use strict";

  // Flash messages: the close button removes its message.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (button) {
      var message = button.closest(".message, .notice");
      if (message) message.remove();
    }
  });

  // A table's chat muted for oneself, on this device: remembered per table, told to nobody.
  function chatMuteShow(button, muted) {
    button.setAttribute("aria-pressed", muted ? "true" : "false");
    var chat = button.closest(".chat");
    if (chat) chat.classList.toggle("is-muted", muted);
  }
  function chatMuteKey(button) {
    return "okey-chat-muted-" + button.getAttribute("data-chat-mute");
  }
  document.querySelectorAll("[data-chat-mute]").forEach(function (button) {
    try {
      chatMuteShow(button, window.localStorage.getItem(chatMuteKey(button)) === "1");
    } catch (e) { /* storage refused: the chat shows */ }
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-chat-mute]");
    if (!button) return;
    var muted = button.getAttribute("aria-pressed") !== "true";
    chatMuteShow(button, muted);
    try {
      if (muted) window.localStorage.setItem(chatMuteKey(button), "1");
      else window.localStorage.removeItem(chatMuteKey(button));
    } catch (e) { /* remembered for this page only */ }
  });

  // The rematch started (games.social.rematch): every page of the finished table, players'
  // and spectators', follows to the new one.
  document.addEventListener("htmx:afterSettle", function () {
    var go = document.querySelector("[data-follow-to]");
    if (go && go.getAttribute("data-follow-to") !== window.location.pathname) {
      window.location.assign(go.getAttribute("data-follow-to"));
    }
  });

  // A success or a notice has been read after a few seconds: it goes by itself, unless the
  // pointer or the focus is on it. A page that never reloads (a table played live) kept its
  // "Welcome!" for the whole game. Errors stay until closed.
  var EXPIRE_MS = 8000;
  function expire(message) {
    if (message.matches(":hover, :focus-within")) {
      window.setTimeout(function () { expire(message); }, EXPIRE_MS / 4);
    } else {
      message.remove();
    }
  }
  document.querySelectorAll(".message--success, .message--info").forEach(function (message) {
    window.setTimeout(function () { expire(message); }, EXPIRE_MS);
  });
})();
