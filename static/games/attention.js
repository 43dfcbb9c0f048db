// What draws the player's eye and ear at the table: tiles that move, sounds, the tab's title and
// icon on their turn, and "your turn" in the live region. It reads only what the socket's frames
// put on the page (the move's #table-event, the turn, the player's rack as table.js lays it
// out): no second channel. table.js runs its part of each frame first (its scripts come first).
(function () {
  "use strict";

  var page = document.getElementById("table-page");
  if (!page) return;

  var MOTION_MS = 320;
  var MUTE_KEY = "okey:muted";
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");
  var seenVersion = 0;
  var myTurn = page.classList.contains("is-my-turn");
  var drawnTile = null; // the rack tile last marked as drawn, animated once
  var sentBox = null; // where the player's own last discard left from
  var takenBox = null; // the pile the player's last take came from
  var lowSecond = null;
  var title = document.title;
  var icon = document.querySelector('link[rel="icon"]');
  var iconHref = icon ? icon.getAttribute("href") : "";

  // ---- motion ------------------------------------------------------------------------------

  // The element is drawn where it now is and slid there from ``from`` (a box on the screen).
  function slide(el, from) {
    if (!el || !from || !el.animate) return;
    if (reducedMotion && reducedMotion.matches) return;
    var to = el.getBoundingClientRect();
    var dx = from.left + from.width / 2 - (to.left + to.width / 2);
    var dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (!dx && !dy) return;
    el.animate(
      [
        { transform: "translate(" + dx + "px, " + dy + "px)", zIndex: 20 },
        { transform: "translate(0, 0)", zIndex: 20 },
      ],
      { duration: MOTION_MS, easing: "cubic-bezier(.2,.7,.3,1)" }
    );
  }

  function boxOf(selector) {
    var el = document.querySelector(selector);
    return el ? el.getBoundingClientRect() : null;
  }

  // ---- sound ---------------------------------------------------------------------------------

  var audio = null;
  var TONES = {
    discard: [[330, 0, 0.07]],
    turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
    finish: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.22]],
    tick: [[1200, 0, 0.05]],
  };

  function muted() {
    try {
      return window.localStorage.getItem(MUTE_KEY) === "1";
    } catch (e) {
      return false;
    }
  }

  function sound(name) {
    if (muted()) return;
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") audio.resume();
      TONES[name].forEach(function (t) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        var at = audio.currentTime + t[1];
        osc.frequency.value = t[0];
        gain.gain.setValueAtTime(0.18, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + t[2]);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + t[2]);
      });
    } catch (e) {
      /* no audio device: the game goes on in silence */
    }
  }

  function muteShow() {
    var button = document.getElementById("sound-toggle");
    if (!button) return;
    var off = muted();
    button.setAttribute("aria-pressed", off ? "true" : "false");
    button.textContent = page.getAttribute(off ? "data-msg-sound-off" : "data-msg-sound-on");
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest("#sound-toggle")) return;
    try {
      window.localStorage.setItem(MUTE_KEY, muted() ? "0" : "1");
    } catch (e) {
      /* storage disabled: the switch holds for this page only */
    }
    muteShow();
  });

  // ---- the turn: title, icon, live region ------------------------------------------------------

  function turnShow(now) {
    document.title = now ? "● " + page.getAttribute("data-msg-your-turn") + " · " + title : title;
    if (icon) icon.setAttribute("href", now ? page.getAttribute("data-turn-icon") : iconHref);
  }

  function announce(extra) {
    var live = document.getElementById("table-announce");
    if (!live) return;
    var said = live.textContent.trim();
    live.textContent = said ? said + ". " + extra : extra;
  }

  // ---- frames ----------------------------------------------------------------------------------

  page.addEventListener("okey:tile-sent", function (event) {
    sentBox = event.detail.box;
  });

  function onEvent() {
    var version = document.getElementById("table-version");
    var event = document.getElementById("table-event");
    if (!version || !event) return;
    var v = Number(version.getAttribute("data-version"));
    var fresh = v > seenVersion && version.hasAttribute("data-delta");
    seenVersion = Math.max(seenVersion, v);
    if (!fresh) return;
    var kind = event.getAttribute("data-kind");
    var seat = event.getAttribute("data-seat");
    var mine = seat === page.getAttribute("data-me");
    takenBox = null;
    if (kind === "take" && mine) {
      var n = document.querySelectorAll("#table-board .seat").length;
      takenBox = boxOf("#pile-" + ((Number(seat) - 1 + n) % n));
    } else if (kind === "discard") {
      var from = mine ? sentBox : boxOf("#seat-" + seat);
      slide(document.querySelector("#pile-" + seat + " .pile-top .tile"), from);
      sound("discard");
    } else if (kind === "finish") {
      sound("finish");
    }
    if (mine) sentBox = null;
  }

  function onRack() {
    var drawn = document.querySelector("#rack .tile.is-drawn");
    if (drawn && drawn !== drawnTile) {
      var from = takenBox || boxOf("#stock");
      // a frame that only lays the same rack out again brings a new element for the same tile
      if (!drawnTile || drawnTile.getAttribute("data-tile") !== drawn.getAttribute("data-tile")) {
        slide(drawn, from);
      }
    }
    drawnTile = drawn;
  }

  function onTurn() {
    var now = page.classList.contains("is-my-turn");
    if (now && !myTurn) {
      sound("turn");
      announce(page.getAttribute("data-msg-your-turn"));
    }
    if (now !== myTurn) turnShow(now);
    myTurn = now;
  }

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    onEvent();
    onRack();
    onTurn();
  });

  // the last seconds of the player's own turn
  window.setInterval(function () {
    var me = page.getAttribute("data-me");
    var clock = me !== "" && document.querySelector("#seat-" + me + " .turn-clock.is-low");
    if (!clock || !myTurn) {
      lowSecond = null;
      return;
    }
    var text = clock.textContent.trim();
    if (text !== lowSecond) {
      lowSecond = text;
      sound("tick");
    }
  }, 250);

  muteShow();
  if (myTurn) turnShow(true);
})();
