// The 101 rack: the player's tiles on two rows in the order they chose, the opening tray where
// chosen tiles become groups (the server says what each group is worth against what an opening
// needs), and the moves that use chosen tiles: lay the tray, add a tile to a meld on the table
// (or put it in place of that meld's okey), discard (asking first when the tile is işlek).
// The server's rack (#rack-data, in every frame that changes it) is the truth: this script only
// orders it and remembers what is chosen and what is in the tray. Moves go through table.js
// (the "okey:move" event), which adds the table's version and a key.
// A tile is played on the table either by a tap on it and a tap on a meld (or a key press on
// each: both are buttons), or by a drag from the rack onto the meld (mouse or finger): the same
// move either way.
(function () {
  "use strict";

  var page = document.getElementById("table-page");
  var area = document.getElementById("rack-area");
  var rackEl = document.getElementById("rack101");
  if (!page || !area || !rackEl) return;

  var order = []; // the rack's tiles in the player's order (codes; a face may be there twice)
  var chosen = []; // positions in ``order`` the player has chosen
  var tray = []; // groups of codes, taken out of the rack's display until laid or emptied
  var trayPairs = false;
  var handId = null;
  var trayAsked = 0;
  var dragging = false; // a tile is being dragged: the rack is not drawn again under it
  var stale = false; // a frame came during the drag: the rack is drawn when it ends

  function served() {
    var data = document.getElementById("rack-data");
    if (!data) return { hand: null, tiles: [] };
    var tiles = Array.prototype.map.call(data.querySelectorAll(".tile"), function (el) {
      return el.getAttribute("data-tile");
    });
    return { hand: data.getAttribute("data-hand") || null, tiles: tiles, el: data };
  }

  function moves() {
    return document.getElementById("my-moves");
  }

  function can(kind) {
    var m = moves();
    return !!m && (" " + m.getAttribute("data-can") + " ").indexOf(" " + kind + " ") >= 0;
  }

  function send(move) {
    page.dispatchEvent(new CustomEvent("okey:move", { detail: move }));
  }

  // multiset difference: the codes of ``a`` not matched in ``b``
  function without(a, b) {
    var left = b.slice();
    return a.filter(function (code) {
      var i = left.indexOf(code);
      if (i < 0) return true;
      left.splice(i, 1);
      return false;
    });
  }

  // Keep the player's order for the tiles still there, add the new ones at the end; what is in
  // the tray stays there while the rack still holds it.
  function reconcile() {
    var s = served();
    if (s.hand !== handId) {
      handId = s.hand;
      order = [];
      tray = [];
      chosen = [];
    }
    var have = s.tiles.slice();
    tray = tray
      .map(function (g) {
        return g.filter(function (code) {
          var i = have.indexOf(code);
          if (i < 0) return false;
          have.splice(i, 1);
          return true;
        });
      })
      .filter(function (g) { return g.length; });
    var kept = [];
    var pool = have.slice();
    order.forEach(function (code) {
      var i = pool.indexOf(code);
      if (i >= 0) {
        kept.push(code);
        pool.splice(i, 1);
      }
    });
    var before = order.join(" ");
    order = kept.concat(pool);
    if (order.join(" ") !== before) chosen = [];
    draw();
  }

  function tileEl(code) {
    var data = served().el;
    var src = data && data.querySelector('.tile[data-tile="' + code + '"]');
    var el = src ? src.cloneNode(true) : document.createElement("span");
    return el;
  }

  function draw() {
    rackEl.textContent = "";
    var drawn = served().el ? served().el.getAttribute("data-drawn") : "";
    order.forEach(function (code, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "rack101-tile";
      b.setAttribute("role", "option");
      b.setAttribute("data-pos", String(i));
      b.setAttribute("data-code", code);
      b.setAttribute("aria-selected", chosen.indexOf(i) >= 0 ? "true" : "false");
      if (code === drawn) b.classList.add("is-new");
      b.appendChild(tileEl(code));
      rackEl.appendChild(b);
    });
    drawTray();
    buttons();
  }

  function drawTray() {
    var list = document.getElementById("tray-groups");
    if (!list) return;
    list.textContent = "";
    tray.forEach(function (g, i) {
      var li = document.createElement("li");
      li.className = "tray-group";
      li.setAttribute("data-group", String(i));
      g.forEach(function (code) { li.appendChild(tileEl(code)); });
      var value = document.createElement("span");
      value.className = "tray-group-value";
      value.setAttribute("data-group-value", String(i));
      li.appendChild(value);
      var back = document.createElement("button");
      back.type = "button";
      back.className = "button button--small button--secondary";
      back.setAttribute("data-tray-back", String(i));
      back.textContent = "×";
      back.setAttribute("aria-label", "↩");
      li.appendChild(back);
      list.appendChild(li);
    });
    trayValue();
  }

  function trayValue() {
    var out = document.getElementById("tray-value");
    if (!out) return;
    if (!tray.length) {
      out.textContent = "";
      area.classList.remove("tray-ready");
      buttons();
      return;
    }
    var url = area.getAttribute("data-tray-url") + "?" + tray.map(function (g) {
      return "g=" + encodeURIComponent(g.join(" "));
    }).join("&") + (trayPairs ? "&pairs=1" : "");
    var asked = ++trayAsked;
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (asked !== trayAsked || data.error) return;
        (data.groups || []).forEach(function (g, i) {
          var el = document.querySelector('[data-group-value="' + i + '"]');
          if (el) el.textContent = g.kind ? (trayPairs ? "✓" : String(g.value)) : "✗";
        });
        var unit = trayPairs ? " / " + data.need + " ⚇" : " / " + data.need;
        out.textContent = data.opened ? String(data.total) : data.total + unit;
        out.setAttribute("data-total", String(data.total));
        area.classList.toggle("tray-ready", !!data.enough);
        buttons();
      });
  }

  function chosenCodes() {
    return chosen.map(function (i) { return order[i]; });
  }

  function buttons() {
    var one = chosen.length === 1;
    var playing = can("lay") || can("add") || can("discard");
    area.querySelectorAll("[data-tray]").forEach(function (b) {
      var what = b.getAttribute("data-tray");
      if (what === "group") b.disabled = chosen.length < 3 || (tray.length && trayPairs);
      else if (what === "pair") b.disabled = chosen.length !== 2 || (tray.length && !trayPairs);
      else if (what === "clear") b.disabled = !tray.length;
      else if (what === "lay") b.disabled = !tray.length || !can("lay") || !area.classList.contains("tray-ready");
    });
    area.querySelectorAll("[data-act101]").forEach(function (b) {
      b.disabled = !(one && can("discard"));
    });
    page.classList.toggle("can-add", one && playing && can("add"));
  }

  function islekOf(code) {
    var m = moves();
    var list = m ? (m.getAttribute("data-islek") || "").trim().split(/\s+/) : [];
    for (var i = 0; i < list.length; i++) {
      var parts = list[i].split(":");
      if (parts[0] === code) return Number(parts[1]);
    }
    return null;
  }

  function discard(code) {
    var meld = islekOf(code);
    if (meld !== null) {
      var text = meld < 0 ? area.getAttribute("data-msg-okey") : area.getAttribute("data-msg-islek").replace("%(tile)s", code);
      if (!window.confirm(text)) return;
    }
    chosen = [];
    send({ kind: "discard", tile: code });
  }

  // ``code`` on a meld of the table: it takes back the meld's okey when it is the tile that okey
  // stands for (and the player may), else it is added to the meld.
  function toMeld(meld, code) {
    var okeyFor = (meld.getAttribute("data-okey-for") || "").split(" ");
    var index = Number(meld.getAttribute("data-meld"));
    chosen = [];
    if (okeyFor.indexOf(code) >= 0 && can("take_okey")) send({ kind: "take_okey", meld: index, tile: code });
    else send({ kind: "add", meld: index, tile: code });
    draw();
  }

  function onMeld(meld) {
    if (chosen.length === 1) toMeld(meld, order[chosen[0]]);
  }

  page.addEventListener("click", function (event) {
    var t = event.target;
    var tile = t.closest("#rack101 [data-pos]");
    if (tile) {
      var pos = Number(tile.getAttribute("data-pos"));
      var at = chosen.indexOf(pos);
      if (at >= 0) chosen.splice(at, 1);
      else chosen.push(pos);
      draw();
      var again = rackEl.querySelector('[data-pos="' + pos + '"]');
      if (again) again.focus();
      return;
    }
    var meld = t.closest("#table-board .meld");
    if (meld) {
      onMeld(meld);
      return;
    }
    var back = t.closest("[data-tray-back]");
    if (back) {
      tray.splice(Number(back.getAttribute("data-tray-back")), 1);
      if (!tray.length) trayPairs = false;
      draw();
      return;
    }
    var act = t.closest("[data-tray]");
    if (act) {
      var what = act.getAttribute("data-tray");
      if (what === "group" || what === "pair") {
        var codes = chosenCodes();
        var positions = chosen.slice().sort(function (a, b) { return b - a; });
        positions.forEach(function (i) { order.splice(i, 1); });
        trayPairs = what === "pair";
        tray.push(codes);
        chosen = [];
      } else if (what === "clear") {
        tray = [];
        trayPairs = false;
      } else if (what === "lay") {
        send({ kind: "lay", groups: tray.slice(), pairs: trayPairs });
        // the tray empties now: a laid tile leaves the rack, and one the server refused comes
        // back at the rack's end with the next frame (a twin left in the rack stays there)
        tray = [];
        trayPairs = false;
      }
      draw();
      return;
    }
    if (t.closest("[data-act101]") || (t.closest("#table-board .pile.is-own") && chosen.length === 1)) {
      if (chosen.length === 1 && can("discard")) discard(order[chosen[0]]);
      return;
    }
    if (t.closest("[data-pairs101]")) {
      if (window.confirm(area.getAttribute("data-msg-pairs"))) send({ kind: "pairs" });
      return;
    }
    var how = t.closest("[data-arrange101]");
    if (how) arrange(how.getAttribute("data-arrange101"));
  });

  // tray tiles go back to the rack when the player empties the tray: keep them in the order
  function arrange(how) {
    var url = page.getAttribute("data-arrange-url") + "?how=" + how;
    fetch(url, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (data.error) return;
        var next = [];
        (data.groups || []).forEach(function (g) { next = next.concat(g); });
        next = next.concat(data.leftovers || []);
        var inTray = [].concat.apply([], tray);
        order = without(next, inTray);
        chosen = [];
        draw();
      });
  }

  // The element under the point where a drag was let go (mouse or finger), or null.
  function pointAt(event) {
    var e = event.originalEvent || {};
    var p = (e.changedTouches && e.changedTouches[0]) || e;
    if (typeof p.clientX !== "number") return null;
    return document.elementFromPoint(p.clientX, p.clientY);
  }

  // SortableJS draws the drag with its own pointer handling (forceFallback: the same on mouse
  // and touch, and the point where it ends is known). Let go within the rack, the tile takes
  // its new place in the player's order; on a meld of the table it is added there (or takes the
  // okey back); on the player's own pile it is discarded, asked first as a tap would be.
  if (window.Sortable) {
    window.Sortable.create(rackEl, {
      animation: 120,
      forceFallback: true,
      fallbackTolerance: 4,
      draggable: ".rack101-tile",
      onStart: function () {
        dragging = true;
        document.body.classList.add("is-dragging");
      },
      onEnd: function (event) {
        dragging = false;
        document.body.classList.remove("is-dragging");
        var under = pointAt(event);
        var code = event.item.getAttribute("data-code");
        var meld = under && under.closest("#table-board .meld");
        var pile = under && under.closest("#table-board .pile.is-own");
        if (meld || pile) {
          chosen = [];
          if (stale) reconcile();
          else draw(); // the order as it was before the drag
          stale = false;
          if (meld) toMeld(meld, code);
          else if (can("discard")) discard(code);
          return;
        }
        order = Array.prototype.map.call(rackEl.querySelectorAll("[data-code]"), function (el) {
          return el.getAttribute("data-code");
        });
        chosen = [];
        if (stale) reconcile();
        else draw();
        stale = false;
      },
    });
  }

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    if (dragging) {
      // drawing the rack now would pull the dragged tile from under the pointer
      stale = true;
      return;
    }
    var s = served();
    var have = order.concat([].concat.apply([], tray)).slice().sort().join(" ");
    if (s.hand !== handId || have !== s.tiles.slice().sort().join(" ")) reconcile();
    else buttons();
    if (tray.length) trayValue();
  });

  reconcile();
})();
