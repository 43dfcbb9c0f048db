// The arena: the tournament page's countdown, and the trips between it and the tables. The
// socket's frames put everything on the page (games/arena/socket.py); this only reads them.
// - #arena-go[data-go]: the player was just seated: go to the table.
// - [data-countdown]: seconds left, shown as m:ss and counted down here between frames.
// - On a tournament's table, [data-arena-return] (the game's results): back to the tournament
//   after a few seconds to read the result, unless the player stays (any click on the page).
(function () {
  "use strict";

  var RETURN_SECONDS = 8;

  function clock(s) {
    s = Math.max(0, s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h && m < 10 ? "0" : "") + m, ss = (r < 10 ? "0" : "") + r;
    return (h ? h + ":" : "") + mm + ":" + ss;
  }

  var ends = []; // [element, the moment its count reaches 0]
  function countdownsRead() {
    ends = [];
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var s = parseInt(el.getAttribute("data-countdown"), 10) || 0;
      ends.push([el, Date.now() + s * 1000]);
      el.textContent = clock(s);
    });
  }
  function countdownsTick() {
    ends.forEach(function (pair) {
      pair[0].textContent = clock(Math.round((pair[1] - Date.now()) / 1000));
    });
  }

  var going = false; // one trip: a second assign would abort the first page load
  function goCheck() {
    var go = document.querySelector("#arena-go[data-go]");
    if (go && !going) {
      going = true;
      window.location.assign(go.getAttribute("data-go"));
    }
  }

  var returning = null, stayed = false;
  function returnCheck() {
    var link = document.querySelector("[data-arena-return]");
    if (!link || returning || stayed) return;
    returning = window.setTimeout(function () {
      if (!stayed && !going) {
        going = true;
        window.location.assign(link.getAttribute("href"));
      }
    }, RETURN_SECONDS * 1000);
  }
  document.addEventListener("click", function (e) {
    if (returning && !(e.target.closest && e.target.closest("[data-arena-return]"))) {
      stayed = true; // the player looks at the result (a review, the seed): no trip for them
    }
  });

  // the standings are the same bytes for every page: each marks its own player's row
  function meMark() {
    var page = document.querySelector(".arena[data-user]");
    var me = page && page.getAttribute("data-user");
    if (!me) return;
    document.querySelectorAll('.arena-table tr[data-user="' + me + '"]').forEach(function (tr) {
      tr.setAttribute("data-me", "");
    });
  }

  function frame() {
    meMark();
    countdownsRead();
    goCheck();
    returnCheck();
  }
  document.addEventListener("DOMContentLoaded", frame);
  document.addEventListener("htmx:wsAfterMessage", frame);
  document.addEventListener("htmx:afterSettle", frame);
  window.setInterval(countdownsTick, 1000);
})();
