/* The first hand's coach (templates/learn/coach.html): mark on the table what the coach points
   at (data-point: the indicator, the okey, the left pile, the stock, your pile) and the rack
   tile it means (data-pick). The table's own script redraws the rack and the board as moves
   come and as tiles are arranged: the marks are put back whenever elements come or go there
   (marking changes only classes, which the observer does not watch). */
(function () {
  "use strict";

  var PLACES = {
    indicator: "#table-board .indicator",
    okey: "#table-board .okey-info",
    left: "#table-board .pile.is-takeable",
    stock: "#table-board .stock",
    pile: "#table-board .pile.is-own",
  };

  function mark() {
    var step = document.querySelector("#coach .coach-step");
    document.querySelectorAll(".coach-points, .coach-picked").forEach(function (el) {
      el.classList.remove("coach-points", "coach-picked");
    });
    if (!step) return;
    (step.getAttribute("data-point") || "").split(/\s+/).forEach(function (name) {
      var sel = PLACES[name];
      var el = sel && document.querySelector(sel);
      if (el) el.classList.add("coach-points");
    });
    var pick = step.getAttribute("data-pick");
    if (pick) {
      var tile = document.querySelector('#rack .tile[data-tile="' + pick + '"]');
      if (tile) tile.classList.add("coach-picked");
    }
  }

  var queued = false;
  function markSoon() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () {
      queued = false;
      mark();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("table-page");
    if (table) new MutationObserver(markSoon).observe(table, { childList: true, subtree: true });
    markSoon();
  });
})();
