// Site-wide behaviour, small on purpose: game pages bring their own scripts.
(function () {
  "use strict";

  // Flash messages: the close button removes its message.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-dismiss]");
    if (button) {
      var message = button.closest(".message");
      if (message) message.remove();
    }
  });
})();
