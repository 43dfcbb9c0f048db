// The table page: the rack (ıstaka) the player arranges, moves sent over the page's one
// WebSocket (opened by the htmx ws extension), countdowns, and healing after a lost message.
//
// The server owns the game. Its frames are HTML that htmx swaps in: a full frame (the viewer's
// whole table, #table-version with data-full), a move's event (only what changed, for everyone
// at the table, #table-version with data-delta: it applies on top of the version before it
// only), and the player's own part (#rack-data and #my-moves, with their own data-version). A
// gap in the versions makes the page ask for the whole table. This script owns the arrangement
// of the player's own tiles in the 2 x 15 slots, saved in localStorage per hand so that a reload
// keeps it, and marks what depends on the viewer on the shared board: their seat and pile, the
// pile they may take from, the stock they may draw from, where a tile may be dropped.
(function () {
  "use strict";

  var page = document.getElementById("table-page");
  if (!page) return;

  var SLOTS = 30;
  // The heartbeat asks whether the table has moved on, in case the channel layer dropped a
  // notification. While a game is on (or about to start) a missed change costs a turn, so it
  // asks after 15 s without news; at a table waiting for players or after the game, after 60 s.
  // Any frame is news: at a busy table the frames themselves show the socket is hearing it.
  // The page may set other times in data-heartbeat-ms and data-heartbeat-quiet-ms.
  var HEARTBEAT_MS = 15000;
  var HEARTBEAT_QUIET_MS = 60000;
  var heardAt = Date.now(); // the last frame, or the last heartbeat sent
  var MESSAGE_MS = 6000;
  var rack = document.getElementById("rack");
  var slots = rack ? Array.prototype.slice.call(rack.querySelectorAll(".slot")) : [];
  var socket = null; // the ws extension's socket wrapper
  var lastVersion = 0;
  var rackVersion = 0;
  var skew = 0; // server clock minus ours, in ms
  var handId = null;
  // The chosen tile is the element, not its slot: Seri diz, Çift diz or a drag move tiles, and
  // the choice goes with the tile.
  var selectedTile = null;
  var drawnAt = null; // the slot of the tile just drawn or taken, marked until it is moved
  var pendingSlot = null; // where the next drawn tile goes (the slot it was dragged to)
  // The tile last sent to the pile or the indicator and its slot: when the server's rack comes
  // back without it, that slot empties, not the slot of its twin (two tiles of each face exist).
  var sentTile = null;
  var dragging = false;
  var missed = false; // a frame arrived during a drag and was skipped
  var messageTimer = null;

  // ---- sending ---------------------------------------------------------------------------

  function uuid() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 12);
  }

  function send(message) {
    if (!socket) return;
    socket.send(JSON.stringify(message));
  }

  function sendMove(kind, tile) {
    var message = { action: "move", kind: kind, version: lastVersion, key: uuid() };
    if (tile) message.tile = tile;
    send(message);
  }

  // A move with one of the player's tiles: where the tile was is told to the page (the motion of
  // the discard starts there), then the move goes.
  function moveSend(kind, tile) {
    if (!tile) return;
    var box = tile.getBoundingClientRect();
    sentTile = { code: tile.getAttribute("data-tile"), at: slots.indexOf(tile.parentNode) };
    page.dispatchEvent(new CustomEvent("okey:tile-sent", { detail: { kind: kind, box: box } }));
    sendMove(kind, tile.getAttribute("data-tile"));
  }

  // A move a game's own script composes (101's lay, add, take an okey back: table101.js) goes
  // out here, with the table's version and a key, as every move does.
  page.addEventListener("okey:move", function (event) {
    var message = { action: "move", version: lastVersion, key: uuid() };
    var move = event.detail || {};
    Object.keys(move).forEach(function (k) { message[k] = move[k]; });
    send(message);
  });

  // Declaring pairs cannot be taken back: the player confirms it first.
  function pairsAsk() {
    var dialog = document.getElementById("pairs-confirm");
    if (!dialog || !dialog.showModal) {
      sendMove("pairs");
      return;
    }
    dialog.returnValue = "";
    dialog.showModal();
  }

  var pairsDialog = document.getElementById("pairs-confirm");
  if (pairsDialog) {
    pairsDialog.addEventListener("close", function () {
      if (pairsDialog.returnValue === "pairs" && canDo("pairs")) sendMove("pairs");
    });
  }

  function sync() {
    send({ action: "sync", version: lastVersion });
  }

  // ---- the rack ----------------------------------------------------------------------------

  function rackData() {
    return document.getElementById("rack-data");
  }

  function codeOf(slot) {
    var tile = slot.querySelector(".tile");
    return tile ? tile.getAttribute("data-tile") : null;
  }

  function layoutNow() {
    return slots.map(codeOf);
  }

  function layoutKey(hand) {
    return "okey:rack:" + hand;
  }

  function layoutSave() {
    if (!handId) return;
    try {
      window.localStorage.setItem(layoutKey(handId), JSON.stringify(layoutNow()));
    } catch (e) {
      /* storage full or disabled: the layout just won't survive a reload */
    }
  }

  function layoutLoad(hand) {
    try {
      var saved = JSON.parse(window.localStorage.getItem(layoutKey(hand)) || "null");
      if (Array.isArray(saved) && saved.length === SLOTS) return saved;
    } catch (e) {
      /* a broken entry is ignored */
    }
    return null;
  }

  function layoutForget() {
    // keep the layouts of the last few hands only
    try {
      var keys = [];
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (k && k.indexOf("okey:rack:") === 0) keys.push(k);
      }
      keys.sort(function (a, b) {
        return Number(a.slice(10)) - Number(b.slice(10));
      });
      keys.slice(0, Math.max(0, keys.length - 6)).forEach(function (k) {
        window.localStorage.removeItem(k);
      });
    } catch (e) {
      /* nothing to clean */
    }
  }

  // Where a tile new to the rack goes: after the last tile of the top row, then of the bottom
  // row, then any gap.
  function freeSlot(layout) {
    if (pendingSlot !== null && !layout[pendingSlot]) {
      var p = pendingSlot;
      pendingSlot = null;
      return p;
    }
    for (var row = 0; row < 2; row++) {
      var last = -1;
      for (var c = 0; c < 15; c++) if (layout[row * 15 + c]) last = c;
      if (last < 14) return row * 15 + last + 1;
    }
    return layout.indexOf(null);
  }

  // Lay the server's tiles out: tiles keep their slots, gone tiles leave, new ones are placed.
  function rackReconcile(force) {
    var data = rackData();
    if (!rack || !data) return;
    var hand = data.getAttribute("data-hand") || null;
    var served = Array.prototype.slice.call(data.querySelectorAll(".tile"));
    var current;
    var thrown = false; // a tile left the rack: the player discarded or finished
    if (hand !== handId) {
      handId = hand;
      selectedTile = null;
      drawnAt = null;
      sentTile = null;
      current = (hand && layoutLoad(hand)) || new Array(SLOTS).fill(null);
      if (hand) layoutForget();
    } else {
      current = force || layoutNow();
      if (!force) {
        var have = current.filter(Boolean).sort().join(" ");
        var want = served.map(function (t) { return t.getAttribute("data-tile"); }).sort().join(" ");
        if (have === want) {
          rackButtons();
          return; // same tiles: leave the player's arrangement (and any focus) alone
        }
      }
    }
    var pool = {};
    served.forEach(function (el) {
      var code = el.getAttribute("data-tile");
      (pool[code] = pool[code] || []).push(el);
    });
    if (!force) {
      var shown = {};
      current.forEach(function (code) {
        if (code) shown[code] = (shown[code] || 0) + 1;
      });
      thrown = Object.keys(shown).some(function (code) {
        return shown[code] > (pool[code] ? pool[code].length : 0);
      });
      // the thrown tile leaves its own slot; its twin keeps its place
      var sent = sentTile;
      if (thrown && sent && current[sent.at] === sent.code &&
          shown[sent.code] > (pool[sent.code] ? pool[sent.code].length : 0)) {
        current = current.slice();
        current[sent.at] = null;
      }
    }
    if (thrown) sentTile = null;
    var next = new Array(SLOTS).fill(null);
    current.forEach(function (code, i) {
      if (code && pool[code] && pool[code].length) next[i] = pool[code].shift();
    });
    var drawn = data.getAttribute("data-drawn") || "";
    if (force || !drawn) drawnAt = null;
    served.forEach(function (el) {
      var code = el.getAttribute("data-tile");
      var k = pool[code] ? pool[code].indexOf(el) : -1;
      if (k < 0) return;
      pool[code].splice(k, 1);
      var codes = next.map(function (t) { return t ? t.getAttribute("data-tile") : null; });
      var i = freeSlot(codes);
      if (i >= 0) next[i] = el;
      if (i >= 0 && code === drawn) drawnAt = i;
    });
    // After a discard or a finish nothing stays chosen: the choice was the tile thrown, and
    // choosing its twin by its face would light "discard selected" on the next turn.
    if (thrown) selectedTile = null;
    var chosen = selectedTile && {
      code: selectedTile.getAttribute("data-tile"),
      at: slots.indexOf(selectedTile.parentNode),
    };
    var focused = slots.indexOf(document.activeElement && document.activeElement.parentNode);
    slots.forEach(function (slot, i) {
      slot.textContent = "";
      if (next[i]) slot.appendChild(tileForRack(next[i]));
    });
    selectedTile = chosen ? tileWithCode(chosen.code, chosen.at) : null;
    selectionShow();
    if (focused >= 0 && slots[focused].firstChild) slots[focused].firstChild.focus();
    pendingSlot = null;
    layoutSave();
    rackButtons();
  }

  // The tile showing ``code``: the one in slot ``prefer`` if it shows it (two tiles of each face
  // exist, and either is the same move), else the first.
  function tileWithCode(code, prefer) {
    if (prefer >= 0 && codeOf(slots[prefer]) === code) return slots[prefer].firstChild;
    for (var i = 0; i < SLOTS; i++) if (codeOf(slots[i]) === code) return slots[i].firstChild;
    return null;
  }

  function selectedSlot() {
    var i = selectedTile ? slots.indexOf(selectedTile.parentNode) : -1;
    return i >= 0 ? i : null;
  }

  function tileForRack(source) {
    var tile = source.cloneNode(true);
    tile.tabIndex = 0;
    tile.setAttribute("role", "button");
    return tile;
  }

  function layoutApply(codes) {
    rackReconcile(codes);
  }

  // Seri diz / Çift diz: groups from the server, one gap between groups, row by row.
  function arrange(how) {
    var url = page.getAttribute("data-arrange-url") + "?how=" + encodeURIComponent(how);
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        if (!data.groups) return;
        // a new hand was dealt while the request was out: that grouping is of old tiles
        if (String(data.hand) !== handId) return;
        var items = data.groups.slice();
        if (data.leftovers && data.leftovers.length) items.push(data.leftovers);
        layoutApply(groupsToLayout(items, true) || groupsToLayout(items, false));
      });
  }

  function groupsToLayout(groups, gaps) {
    var layout = new Array(SLOTS).fill(null);
    var row = 0;
    var col = 0;
    for (var g = 0; g < groups.length; g++) {
      var group = groups[g];
      for (var t = 0; t < group.length; t++) {
        if (col >= 15 || (t === 0 && gaps && col > 0 && col + group.length > 15)) {
          row += 1;
          col = 0;
        }
        if (row > 1) return null;
        layout[row * 15 + col] = group[t];
        col += 1;
      }
      if (gaps && col > 0 && col < 15) col += 1;
    }
    return layout;
  }

  // ---- selection and keyboard ---------------------------------------------------------------

  function selectionShow() {
    if (selectedSlot() === null) selectedTile = null;
    slots.forEach(function (slot, i) {
      var tile = slot.firstChild;
      if (!tile) return;
      tile.classList.toggle("is-selected", tile === selectedTile);
      tile.setAttribute("aria-pressed", tile === selectedTile ? "true" : "false");
      tile.classList.toggle("is-drawn", i === drawnAt);
    });
    rackButtons();
  }

  function selectToggle(tile) {
    selectedTile = selectedTile === tile ? null : tile;
    selectionShow();
  }

  function canDo(kind) {
    var moves = document.getElementById("my-moves");
    return !!moves && (" " + moves.getAttribute("data-can") + " ").indexOf(" " + kind + " ") >= 0;
  }

  // "you" and "partner" on the seats: the seats are the same for everyone, the badges are not
  function badgeSet(seat, kind, on) {
    var badges = seat.querySelector(".seat-badges");
    var badge = badges && badges.querySelector(".badge--" + kind);
    if (on && badges && !badge) {
      badge = document.createElement("span");
      badge.className = "badge badge--" + kind + (kind === "partner" ? " badge--gold" : "");
      badge.textContent = page.getAttribute("data-msg-" + kind) || kind;
      badges.insertBefore(badge, badges.firstChild);
    } else if (!on && badge) {
      badge.remove();
    }
  }

  // The board is the same for every viewer: what is this viewer's is marked here.
  function viewerMark() {
    var board = document.getElementById("table-board");
    if (!board) return;
    var me = page.getAttribute("data-me") || "";
    var seats = board.querySelectorAll(".seat");
    var n = seats.length;
    var line = document.getElementById("turn-line");
    var turn = line ? line.getAttribute("data-turn") || "" : "";
    var esli = board.hasAttribute("data-teams"); // partners sit opposite each other
    var over = board.classList.contains("hand-over");
    seats.forEach(function (el) {
      var s = el.getAttribute("data-seat");
      var you = me !== "" && s === me;
      var partner = esli && me !== "" && (Number(s) - Number(me) + 4) % 4 === 2;
      el.classList.toggle("is-you", you);
      el.classList.toggle("is-partner", partner);
      badgeSet(el, "you", you);
      badgeSet(el, "partner", partner);
    });
    board.querySelectorAll("[data-drop]").forEach(function (el) {
      el.removeAttribute("data-drop");
    });
    var left = turn !== "" && n ? String((Number(turn) - 1 + n) % n) : null;
    board.querySelectorAll(".pile").forEach(function (pile) {
      var s = pile.getAttribute("data-seat");
      var own = me !== "" && s === me;
      pile.classList.toggle("is-own", own);
      if (own && !over) pile.setAttribute("data-drop", "discard");
      var takeable = canDo("take") && s === left;
      pile.classList.toggle("is-takeable", takeable);
      var top = pile.querySelector(".pile-top");
      if (top) top.classList.toggle("pile-source", takeable);
    });
    var indicator = board.querySelector(".indicator");
    if (indicator && canDo("discard")) indicator.setAttribute("data-drop", "finish");
    var stock = board.querySelector(".stock");
    if (stock) stock.classList.toggle("is-drawable", canDo("draw"));
    page.classList.toggle("is-my-turn", me !== "" && turn === me);
    var user = page.getAttribute("data-user");
    document.querySelectorAll("#chat-log li[data-author]").forEach(function (li) {
      li.classList.toggle("is-you", !!user && li.getAttribute("data-author") === user);
    });
  }

  function rackButtons() {
    var tileChosen = selectedSlot() !== null;
    page.querySelectorAll("[data-act]").forEach(function (button) {
      button.disabled = !(tileChosen && canDo("discard"));
    });
  }

  function selectedCode() {
    return selectedTile ? selectedTile.getAttribute("data-tile") : null;
  }

  function slotSwap(a, b) {
    if (a === b || a < 0 || b < 0 || a >= SLOTS || b >= SLOTS) return;
    var ta = slots[a].firstChild;
    var tb = slots[b].firstChild;
    if (ta) slots[b].appendChild(ta);
    if (tb) slots[a].appendChild(tb);
    if (drawnAt === a || drawnAt === b) drawnAt = null; // the new tile has found its place
    layoutSave();
    selectionShow();
  }

  function neighbour(i, key) {
    var row = Math.floor(i / 15);
    var col = i % 15;
    if (key === "ArrowLeft") return col > 0 ? i - 1 : -1;
    if (key === "ArrowRight") return col < 14 ? i + 1 : -1;
    if (key === "ArrowUp") return row > 0 ? i - 15 : -1;
    if (key === "ArrowDown") return row < 1 ? i + 15 : -1;
    return -1;
  }

  function nextTile(i, key) {
    var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -15, ArrowDown: 15 }[key];
    for (var j = i + step; j >= 0 && j < SLOTS; j += step) {
      if (slots[j].firstChild) return j;
      if (Math.abs(step) === 15) break;
    }
    return -1;
  }

  if (rack) {
    rack.addEventListener("keydown", function (event) {
      var i = slots.indexOf(event.target.parentNode);
      if (i < 0) return;
      var key = event.key;
      if (key.indexOf("Arrow") === 0) {
        event.preventDefault();
        if (event.shiftKey) {
          var to = neighbour(i, key);
          if (to >= 0) {
            slotSwap(i, to);
            slots[to].firstChild.focus();
          }
        } else {
          var j = nextTile(i, key);
          if (j >= 0) slots[j].firstChild.focus();
        }
      } else if (key === "Enter" || key === " ") {
        event.preventDefault();
        selectToggle(slots[i].firstChild);
      } else if (key === "d" || key === "D" || key === "Delete") {
        event.preventDefault();
        moveSend("discard", slots[i].firstChild);
      } else if (key === "f" || key === "F") {
        event.preventDefault();
        moveSend("finish", slots[i].firstChild);
      }
    });

    // Tap (or click) a tile to choose it, then an empty slot to move it there; a tile on
    // another tile swaps them only by dragging, since tapping another tile chooses that one.
    rack.addEventListener("click", function (event) {
      var tile = event.target.closest(".tile");
      if (tile) {
        selectToggle(tile);
        return;
      }
      var slot = event.target.closest(".slot");
      var from = selectedSlot();
      if (slot && from !== null && !slot.firstChild) {
        slotSwap(from, slots.indexOf(slot));
      }
    });
  }

  // ---- buttons and clicks on the board ----------------------------------------------------

  page.addEventListener("click", function (event) {
    var target = event.target;
    var move = target.closest("[data-move]");
    if (move && move.getAttribute("data-move") === "pairs") {
      pairsAsk();
      return;
    }
    if (move) {
      sendMove(move.getAttribute("data-move"));
      return;
    }
    var drop = target.closest("#table-board [data-drop]");
    if (drop && selectedCode()) {
      moveSend(drop.getAttribute("data-drop"), selectedTile);
      return;
    }
    var act = target.closest("[data-act]");
    if (act && selectedCode()) {
      moveSend(act.getAttribute("data-act"), selectedTile);
      return;
    }
    var how = target.closest("[data-arrange]");
    if (how) {
      arrange(how.getAttribute("data-arrange"));
      return;
    }
    if (target.closest(".stock.is-drawable")) {
      sendMove("draw");
      return;
    }
    if (target.closest(".pile.is-takeable .pile-top")) sendMove("take");
  });

  // ---- drag and drop (SortableJS) --------------------------------------------------------------

  // SortableJS draws the drag (the same pointer handling on mouse and touch), but no list ever
  // accepts a tile: where the pointer is let go decides what happens. A rack tile let go on
  // another slot swaps with whatever is there; on the own pile it is discarded; on the
  // indicator it finishes. The stock's back or the left pile's top let go on the rack draws or
  // takes, and the new tile goes to the slot under the pointer.
  function pointAt(event) {
    var e = event.originalEvent || {};
    var p = (e.changedTouches && e.changedTouches[0]) || e;
    if (typeof p.clientX !== "number") return null;
    return document.elementFromPoint(p.clientX, p.clientY);
  }

  function options(extra) {
    var o = {
      forceFallback: true,
      fallbackTolerance: 4,
      sort: false,
      draggable: ".tile",
      onStart: function () {
        dragging = true;
        document.body.classList.add("is-dragging");
      },
    };
    Object.keys(extra).forEach(function (k) { o[k] = extra[k]; });
    o.onEnd = function (event) {
      dragging = false;
      document.body.classList.remove("is-dragging");
      extra.onEnd(pointAt(event), event);
      if (missed) {
        missed = false;
        send({ action: "sync" });
      }
    };
    return o;
  }

  function rackSortables() {
    if (!window.Sortable) return;
    slots.forEach(function (slot, i) {
      window.Sortable.create(slot, options({
        group: { name: "okey", pull: true, put: false },
        onEnd: function (under, event) {
          if (!under) return;
          var drop = under.closest("#table-board [data-drop]");
          if (drop) {
            moveSend(drop.getAttribute("data-drop"), event.item);
            return;
          }
          var target = under.closest("#rack .slot");
          if (target && target !== slot) {
            slotSwap(i, slots.indexOf(target));
          }
        },
      }));
    });
  }

  function sourceSortable(el, kind) {
    if (el.okeySortable) return; // the same element as at the last frame: already a source
    el.okeySortable = true;
    window.Sortable.create(el, options({
      group: { name: "okey", pull: "clone", put: false },
      onEnd: function (under) {
        if (!under || !under.closest("#rack") || !canDo(kind)) return;
        var slot = under.closest(".slot");
        pendingSlot = slot ? slots.indexOf(slot) : null;
        sendMove(kind);
      },
    }));
  }

  function boardSortables() {
    if (!window.Sortable) return;
    var board = document.getElementById("table-board");
    if (!board) return;
    var stock = board.querySelector(".stock.is-drawable .stock-source");
    if (stock && canDo("draw")) sourceSortable(stock, "draw");
    var pile = board.querySelector(".pile.is-takeable .pile-top");
    if (pile) sourceSortable(pile, "take");
  }

  // ---- frames from the server ------------------------------------------------------------------

  // The attributes of the element with ``id`` at the top of a frame, or null.
  function tagOf(html, id) {
    var m = new RegExp('<div id="' + id + '"([^>]*)>').exec(html);
    if (!m) return null;
    var attrs = {};
    m[1].replace(/data-([a-z-]+)(?:="([^"]*)")?/g, function (all, name, value) {
      attrs[name] = value === undefined ? "" : value;
    });
    return attrs;
  }

  // Whether a frame may be swapped in now: an older view than the page shows is dropped, and a
  // move's event that does not follow the shown version is a gap, healed by the whole table.
  function frameFits(html) {
    var version = tagOf(html, "table-version");
    if (version) {
      var v = Number(version.version);
      if ("delta" in version) {
        if (v <= lastVersion) return false;
        if (v > lastVersion + 1) {
          sync();
          return false;
        }
        return true;
      }
      return v >= lastVersion;
    }
    var own = tagOf(html, "rack-data") || tagOf(html, "my-moves");
    return !own || Number(own.version) >= rackVersion;
  }

  // Whatever reads the table anew when it changes (the first hand's coach) hears it once the
  // frames of a change have landed (a change of the table's life may come as a few), rather
  // than asking the server every second.
  var changedTimer = null;
  function changedSoon() {
    window.clearTimeout(changedTimer);
    changedTimer = window.setTimeout(function () {
      document.body.dispatchEvent(new CustomEvent("okey:table-changed"));
    }, 60);
  }

  function afterFrame() {
    var v = document.getElementById("table-version");
    if (v) {
      lastVersion = Math.max(lastVersion, Number(v.getAttribute("data-version")) || 0);
      var now = Number(v.getAttribute("data-server-now"));
      if (now) skew = now - Date.now();
      if (v.hasAttribute("data-full")) page.setAttribute("data-me", v.getAttribute("data-me") || "");
    }
    ["rack-data", "my-moves"].forEach(function (id) {
      var el = document.getElementById(id);
      if (el) rackVersion = Math.max(rackVersion, Number(el.getAttribute("data-version")) || 0);
    });
    rackReconcile();
    endAnnounce();
    hintForget();
    viewerMark();
    boardSortables();
    tick();
    changedSoon();
    var message = document.getElementById("table-message");
    if (message && message.textContent.trim()) {
      pendingSlot = null; // a refused draw: the next tile goes to the usual place
      window.clearTimeout(messageTimer);
      messageTimer = window.setTimeout(function () {
        message.textContent = "";
        message.classList.remove("is-shown");
      }, MESSAGE_MS);
    }
  }

  // A hand's end comes as the whole table (the results over the board), which a screen reader
  // does not read: what the results say for it (each player's score, penalties, total) goes to
  // the live region, once per hand (the same results again, after a reconnection, say nothing).
  var announcedEnd = null;
  function endAnnounce() {
    var end = document.querySelector("[data-announce-end]");
    var live = document.getElementById("table-announce");
    if (!end || !live || end.getAttribute("data-announce-end") === announcedEnd) return;
    announcedEnd = end.getAttribute("data-announce-end");
    live.textContent = end.textContent.replace(/\s+/g, " ").trim();
  }

  // ---- the hint (a practice game) -------------------------------------------------------------

  // A hint is for the table as it was when it was asked for (its data-version): once anything
  // has moved on (the player's own move, a bot's, a new hand) it is stale, and the panel empties.
  // A full frame of the same version (the heartbeat's) leaves it alone.
  function hintForget() {
    var panel = document.getElementById("hint-panel");
    var hint = panel && panel.querySelector("[data-hint]");
    if (hint && lastVersion > Number(hint.getAttribute("data-version"))) panel.textContent = "";
    hintMark();
  }

  // The tile the hint would throw, marked in the rack (one copy, as the throw is one tile): a
  // pointer, not a selection, so the player still picks it (or another) themselves.
  function hintMark() {
    document.querySelectorAll("#rack .tile.is-hinted").forEach(function (tile) {
      tile.classList.remove("is-hinted");
    });
    var hint = document.querySelector("#hint-panel [data-hint][data-tile]");
    if (!hint) return;
    var tile = document.querySelector('#rack .slot .tile[data-tile="' + hint.getAttribute("data-tile") + '"]');
    if (tile) tile.classList.add("is-hinted");
  }

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var panel = document.getElementById("hint-panel");
    if (!panel || event.target !== panel) return;
    var hint = panel.querySelector("[data-hint]");
    // a refusal carries no version: it is for the table as the page shows it
    if (hint && !hint.hasAttribute("data-version")) hint.setAttribute("data-version", String(lastVersion));
    hintForget();
  });

  // the chat form is emptied once its message has gone (a listener here, not hx-on: the
  // Content-Security-Policy allows no code in the page)
  document.body.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target.closest ? event.target.closest("#chat-form") : null;
    if (form) form.reset();
  });

  document.body.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    connStatus("");
  });

  document.body.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event && event.detail.event.code;
    if (!document.getElementById("table-page")) return;
    page.classList.remove("is-live");
    connStatus(page.getAttribute("data-msg-reconnecting"));
    // The extension retries by itself after an abnormal close (1006, 1011-1013); a server that
    // shut down cleanly (1000, 1001: a restart) is retried here. 4xxx closes are deliberate.
    if (code === 1000 || code === 1001 || code === 1005) {
      window.setTimeout(function () {
        if (socket) socket.reconnect();
      }, 500 + Math.random() * 1500);
    }
  });

  document.body.addEventListener("htmx:wsBeforeMessage", function (event) {
    var html = event.detail.message;
    if (dragging && (tagOf(html, "table-version") || tagOf(html, "rack-data") || tagOf(html, "my-moves"))) {
      // swapping the board now would pull the drop targets from under the pointer
      missed = true;
      event.preventDefault();
      return;
    }
    if (!frameFits(html)) {
      event.preventDefault();
      return;
    }
    leaveKeep();
  });

  // "Leave the game" is in every full frame, swapped in closed: a player reading what leaving
  // costs would see it shut under them at the next frame. Open (and focused) it stays.
  var leaveWas = null;
  function leaveKeep() {
    var el = document.getElementById("game-leave");
    leaveWas = el && el.open ? { focus: el.contains(document.activeElement) } : null;
  }

  function leaveRestore() {
    var el = document.getElementById("game-leave");
    if (!leaveWas || !el || el.tagName !== "DETAILS") return;
    if (!el.open) {
      el.open = true;
      if (leaveWas.focus) el.querySelector("summary").focus();
    }
    leaveWas = null;
  }

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    heardAt = Date.now();
    leaveRestore();
    // the board now comes from the socket: moves sent from here will be heard
    page.classList.add("is-live");
    afterFrame();
  });

  function connStatus(text) {
    var el = document.getElementById("conn-status");
    if (el) el.textContent = text || "";
    page.classList.toggle("is-offline", !!text);
  }

  // ---- countdowns ----------------------------------------------------------------------------

  function tick() {
    var format = page.getAttribute("data-msg-seconds") || "%s s";
    document.querySelectorAll("[data-countdown-to]").forEach(function (el) {
      var to = Number(el.getAttribute("data-countdown-to"));
      var left = Math.max(0, Math.ceil((to - (Date.now() + skew)) / 1000));
      var text = el.querySelector("[data-countdown-text]") || el;
      text.textContent = format.replace("%s", left);
      var total = Number(el.getAttribute("data-countdown-total"));
      if (total) el.style.setProperty("--left", String(Math.min(1, left / total)));
      el.classList.toggle("is-low", left <= 5);
    });
  }

  window.setInterval(tick, 250);
  function heartbeat() {
    var board = document.getElementById("table-board");
    var live = board && /\bstatus-(starting|playing)\b/.test(board.className);
    var every = live
      ? Number(page.getAttribute("data-heartbeat-ms")) || HEARTBEAT_MS
      : Number(page.getAttribute("data-heartbeat-quiet-ms")) || HEARTBEAT_QUIET_MS;
    if (Date.now() - heardAt < every) return;
    heardAt = Date.now();
    sync();
  }

  window.setInterval(heartbeat, 1000);

  rackSortables();
  afterFrame();
})();
