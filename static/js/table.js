/* Table page: log moves with the engine on the server, keep working offline.
 *
 * Every entry goes through a queue kept in localStorage (keyed by game):
 * {client_id, text, expected_seq}. The queue is sent in order; a retry sends
 * the same client_id, so the server never stores an entry twice. On a 409
 * (stale) the page takes the server's state and re-checks the queue: the
 * next entry exactly against the legal moves the server sent, later ones
 * provisionally. Entries that became illegal are shown, never dropped.
 */
(function () {
  "use strict";
  var config = JSON.parse(document.getElementById("table-config").textContent);
  var S = document.getElementById("strings").dataset;
  var CARDS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J"];
  var LOC_ORDER = (function () {
    var order = {}, i = 0;
    ["Y", "R", "B", "G"].forEach(function (s) {
      [s + "H", s + "S"].forEach(function (l) { order[l] = i++; });
      for (var k = 1; k <= 14; k++) order[s + k] = i++;
      for (var m = 1; m <= 4; m++) order[s + "M" + m] = i++;
    });
    return order;
  })();
  var KEY = "dmp-table-" + config.game_id;
  var lang = document.documentElement.lang || "da";

  var store = load();
  // The page was just served, so the server's state is the latest truth.
  var state = JSON.parse(document.getElementById("table-state").textContent);
  var online = navigator.onLine !== false;
  var sending = false;
  var pick = { card: null, locs: [], move: null, discard: [], showAll: false };

  function $(id) { return document.getElementById(id); }
  function load() {
    try { return JSON.parse(localStorage.getItem(KEY)) || { queue: [], refused: [] }; }
    catch (e) { return { queue: [], refused: [] }; }
  }
  function save() {
    store.state = state;
    localStorage.setItem(KEY, JSON.stringify(store));
  }
  function uid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function txt(node, value) { node.textContent = value; return node; }
  function li(parent, value, cls) {
    var n = document.createElement("li");
    if (cls) n.className = cls;
    txt(n, value);
    parent.appendChild(n);
    return n;
  }
  function button(parent, label, cls, onClick) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls || "";
    txt(b, label);
    b.addEventListener("click", onClick);
    parent.appendChild(b);
    return b;
  }
  function seatName(s) { return S["seat" + s] || s; }

  // --- canonical text and local checks -------------------------------------
  function tidy(text) {
    var t = text.trim().replace(/\s+/g, " ").replace(/\s*:\s*/, ": ").replace(/\s*<>\s*/g, "<>");
    t = t.toUpperCase().replace(": IN", ": in");
    return t;
  }
  function splitSeat(t) {
    var m = /^([YRBG]) (.*)$/.exec(t);
    return m ? { seat: m[1], rest: m[2] } : { seat: null, rest: t };
  }
  function canonicalMove(rest) {
    var m = /^(\d{1,2}|J): (.*)$/.exec(rest);
    if (!m) return rest;
    var body = m[2].replace(/>[A-Z0-9]+/g, "");
    var swap = /^([A-Z0-9]+)<>([A-Z0-9]+)$/.exec(body);
    if (swap && LOC_ORDER[swap[1]] > LOC_ORDER[swap[2]]) body = swap[2] + "<>" + swap[1];
    return m[1] + ": " + body;
  }
  function canonicalDiscard(rest) {
    var cards = rest.slice(2).trim().split(" ").filter(Boolean);
    cards.sort(function (a, b) { return CARDS.indexOf(a) - CARDS.indexOf(b); });
    return "X: " + cards.join(" ");
  }
  /* Exact check of the next entry against the last known state. */
  function checkLocal(text, st) {
    var parts = splitSeat(tidy(text));
    if (!st.to_move) return { ok: false, message: S.gameOver };
    if (!st.legal_entries) return { ok: true, provisional: true };
    if (parts.seat && parts.seat !== st.to_move) return { ok: false, message: S.localIllegal };
    var legal = st.legal_entries || {};
    if (parts.rest.indexOf("X:") === 0) {
      var cards = canonicalDiscard(parts.rest).slice(3).split(" ").filter(Boolean);
      var playable = cards.some(function (c) { return (legal[c] || []).length > 0; });
      var ok = !playable && cards.length === st.hand_sizes[st.to_move] &&
        cards.every(function (c) { return CARDS.indexOf(c) >= 0; });
      return ok ? { ok: true } : { ok: false, message: S.localDiscard };
    }
    var move = canonicalMove(parts.rest);
    var card = move.split(":")[0];
    var list = legal[card] || [];
    return list.indexOf(move) >= 0 ? { ok: true } : { ok: false, message: S.localIllegal };
  }

  // --- network -------------------------------------------------------------
  function post(url, body) {
    body.lang = lang;
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store"
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        return { status: r.status, data: data };
      });
    });
  }
  function setOnline(flag) {
    online = flag;
    renderStatus();
  }
  function enqueue(text) {
    var expected = state.seq + store.queue.length;
    store.queue.push({ client_id: uid(), text: text, expected_seq: expected });
    save();
    renderStatus();
    flush();
  }
  function revalidate() {
    // After the server's state replaced ours: check the next entry exactly;
    // move those that became illegal to the refused list (shown, not dropped).
    while (store.queue.length) {
      var check = checkLocal(store.queue[0].text, state);
      if (check.ok) break;
      var item = store.queue.shift();
      store.refused.push({ text: item.text, message: check.message, rule: "" });
    }
    store.queue.forEach(function (item, i) { item.expected_seq = state.seq + i; });
    save();
  }
  function flush() {
    if (sending || !store.queue.length || !config.writable) { renderStatus(); return; }
    if (navigator.onLine === false) { setOnline(false); return; }
    sending = true;
    renderStatus();
    var item = store.queue[0];
    post(config.urls.entries, { client_id: item.client_id, expected_seq: item.expected_seq, text: item.text })
      .then(function (res) {
        sending = false;
        setOnline(true);
        var err = res.data && res.data.error;
        if (res.status === 201 || res.status === 200) {
          store.queue.shift();
          setState(res.data.state);
        } else if (res.status === 409 && err && err.code === "stale_sequence") {
          setState(err.state);
          revalidate();
        } else if (res.status === 422 || res.status === 409 || res.status === 403 || res.status === 400) {
          store.queue.shift();
          store.refused.push({ text: item.text, message: err ? err.message : String(res.status), rule: err ? (err.rule || err.code) : "" });
          if (err && err.state) setState(err.state);
          store.queue.forEach(function (q, i) { q.expected_seq = state.seq + i; });
          showError(err);
        } else {
          setOnline(false);
          return retryLater();
        }
        save();
        render();
        if (store.queue.length) flush();
      })
      .catch(function () { sending = false; setOnline(false); retryLater(); });
  }
  var retryTimer = null;
  function retryLater() {
    renderStatus();
    if (retryTimer) return;
    retryTimer = setTimeout(function () { retryTimer = null; flush(); }, 4000);
  }
  function refresh() {
    if (sending) return;
    fetch(config.urls.state, { headers: { "Accept": "application/json" }, credentials: "omit", cache: "no-store" })
      .then(function (r) { return r.json(); })
      .then(function (data) {
        setOnline(true);
        if (data && data.seq !== undefined && !store.queue.length) { setState(data); save(); render(); }
        else if (store.queue.length) flush();
      })
      .catch(function () { setOnline(false); });
  }
  /* Answers to writes leave out the legal moves (null): read the state for them. */
  function setState(s) {
    if (!s || s.seq === undefined) return;
    state = s;
    if (state.legal_entries === null && !store.queue.length) setTimeout(refresh, 0);
  }

  // --- entering a move ------------------------------------------------------
  function resetPick() {
    pick = { card: null, locs: [], move: null, discard: [], showAll: false };
  }
  function candidates() {
    if (!pick.card) return [];
    var list = (state.legal_entries || {})[pick.card] || [];
    if (pick.showAll || !pick.locs.length) return pick.showAll ? list : [];
    return list.filter(function (mv) {
      var body = mv.split(": ")[1];
      if (body === "in") return pick.locs.some(function (l) { return /H$/.test(l); });
      var from = body.split(/<>| /).map(function (p) { return p.replace(/[+-]\d+$/, ""); });
      return pick.locs.every(function (l) { return from.indexOf(l) >= 0; });
    });
  }
  function onTap(loc) {
    if (!pick.card || pick.card === "X" || !config.writable) return;
    var i = pick.locs.indexOf(loc);
    if (i >= 0) pick.locs.splice(i, 1);
    else if (pick.card === "7" || pick.card === "J") pick.locs.push(loc);
    else pick.locs = [loc];
    pick.move = null;
    var list = candidates();
    if (list.length === 1 && pick.card !== "7") choose(list[0]);
    else render();
  }
  function choose(move) {
    pick.move = move;
    hideError();
    preview(move);
  }
  /* Show what ``text`` would do; the entry sent names the seat when it is known. */
  function preview(text) {
    var parts = splitSeat(tidy(text));
    var seat = parts.seat || (store.queue.length ? null : state.to_move);
    text = parts.rest;
    var box = $("preview");
    box.hidden = false;
    txt($("preview-entry"), (seat ? seat + " " : "") + text);
    var lines = $("preview-lines");
    lines.textContent = "";
    if (store.queue.length) {
      var check0 = { ok: true };
      li(lines, S.provisional);
      return check0;
    }
    if (!online || navigator.onLine === false) {
      // Offline: the next entry is checked exactly against the last known state.
      var local = checkLocal((seat ? seat + " " : "") + text, state);
      if (!local.ok) {
        box.hidden = true;
        showError({ message: local.message, rule: "" });
        return local;
      }
      li(lines, S.previewOffline);
      return local;
    }
    // Online: the engine on the server answers, with its rule id when it refuses.
    post(config.urls.preview, { text: (seat ? seat + " " : "") + text }).then(function (res) {
      if (res.status !== 200) {
        if (res.data && res.data.error) { box.hidden = true; showError(res.data.error); }
        return;
      }
      lines.textContent = "";
      res.data.changes.forEach(function (c) {
        li(lines, seatName(c.colour) + ": " + c.from.join(", ") + " → " + c.to.join(", "));
      });
      res.data.events.forEach(function (e) {
        li(lines, seatName(e.colour) + " " + (e.type === "hit" ? S.hit : S.lock) + " " + e.at, "event-" + e.type);
      });
      if (res.data.winner) li(lines, (res.data.winner === "YB" ? S.yb : S.rg) + " " + S.won, "event-lock");
    }).catch(function () { setOnline(false); li(lines, S.previewOffline); });
    return { ok: true };
  }
  function confirmMove() {
    var text = $("preview-entry").textContent;
    $("preview").hidden = true;
    resetPick();
    enqueue(text);
    render();
  }

  // --- rendering ------------------------------------------------------------
  function renderStatus() {
    var n = store.queue.length;
    var node = $("net-status");
    var off = !online || navigator.onLine === false;
    node.className = "net-status " + (off ? "offline" : (n ? "syncing" : "online"));
    var label = off ? S.offline : (n ? S.syncing : S.online);
    if (n) label += " — " + n + " " + S.waiting;
    txt(node, label);
  }
  function showError(err) {
    var box = $("error");
    if (!box || !err) return;
    box.hidden = false;
    box.textContent = "";
    var p = document.createElement("p");
    txt(p, err.message || "");
    box.appendChild(p);
    var rule = err.rule || (err.code && /^[A-Z]\d*$/.test(err.code) ? err.code : "");
    if (rule) {
      var small = document.createElement("small");
      small.className = "rule";
      txt(small, S.rule + " " + rule);
      box.appendChild(small);
    }
  }
  function hideError() { var b = $("error"); if (b) b.hidden = true; }

  function renderTurn() {
    var turn = $("turn");
    if (state.winner) {
      txt(turn, S.gameOver + ": " + (state.winner === "YB" ? S.yb : S.rg) + " " + S.won);
    } else if (state.to_move) {
      var name = (config.players || {})[state.to_move] || "";
      txt(turn, S.toMove + ": " + seatName(state.to_move) + (name ? " (" + name + ")" : ""));
      turn.className = "turn seat-" + state.to_move;
    }
    var hands = $("hands");
    hands.textContent = "";
    ["Y", "R", "B", "G"].forEach(function (s) {
      var n = (state.hand_sizes || {})[s];
      var item = li(hands, seatName(s) + ": " + n + " " + S.cardsLeft + (state.dealer === s ? " · " + S.dealer : ""), "seat-" + s);
      if (s === state.to_move) item.className += " current";
    });
  }
  function renderWinner() {
    var box = $("winner-box");
    if (!box) return;
    box.hidden = !state.winner;
    if (!state.winner) return;
    txt($("winner-text"), (state.winner === "YB" ? S.yb : S.rg) + " " + S.won);
    document.querySelectorAll(".confirm-btn").forEach(function (b) {
      var side = b.getAttribute("data-side");
      var done = state.confirmations && state.confirmations[side];
      b.disabled = !!done || !config.writable;
      b.classList.toggle("done", !!done);
    });
    $("result-done").hidden = !(state.result && state.result.finished);
  }
  function renderCards() {
    var wrap = $("cards");
    if (!wrap) return;
    wrap.textContent = "";
    var legal = state.legal_entries || {};
    CARDS.forEach(function (c) {
      if (state.legal_entries && !(c in legal)) return;
      var b = button(wrap, c, "card" + (pick.card === c ? " active" : ""), function () {
        pick = { card: c, locs: [], move: null, discard: [], showAll: false };
        hideError();
        $("preview").hidden = true;
        render();
        if (state.legal_entries && !(legal[c] || []).length) showError({ message: S.noLegal });
      });
      b.setAttribute("data-card", c);
    });
    button(wrap, S.discard, "card discard-btn" + (pick.card === "X" ? " active" : ""), function () {
      pick = { card: "X", locs: [], move: null, discard: [], showAll: false };
      hideError();
      $("preview").hidden = true;
      render();
    }).setAttribute("data-card", "X");
    var disabled = !state.to_move || !config.writable;
    wrap.querySelectorAll("button").forEach(function (b) { b.disabled = disabled; });
  }
  function renderCandidates() {
    var wrap = $("candidates");
    if (!wrap) return;
    wrap.textContent = "";
    var picking = pick.card && pick.card !== "X";
    $("pawn-hint").hidden = !picking;
    $("show-legal").hidden = !picking || pick.showAll;
    $("discard").hidden = pick.card !== "X";
    if (!picking) return;
    var list = candidates();
    if (pick.locs.length && !list.length) { txt(wrap, S.noMatch); return; }
    list.forEach(function (mv) {
      button(wrap, mv, "candidate secondary" + (pick.move === mv ? " active" : ""), function () { choose(mv); })
        .setAttribute("data-move", mv);
    });
  }
  function renderDiscard() {
    var wrap = $("discard-cards");
    if (!wrap) return;
    wrap.textContent = "";
    CARDS.forEach(function (c) {
      button(wrap, c, "card", function () { pick.discard.push(c); renderDiscard(); });
    });
    txt($("discard-text"), canonicalDiscard("X: " + pick.discard.join(" ")));
  }
  function renderLog() {
    var log = $("log");
    log.textContent = "";
    var entries = (state.entries || []).slice(-12).reverse();
    store.queue.slice().reverse().forEach(function (q) { li(log, q.text + " … " + S.waiting, "queued"); });
    entries.forEach(function (e) {
      var item = li(log, e.seq + ". " + e.text + "  #" + e.short_hash);
      item.setAttribute("data-seq", e.seq);
    });
    txt($("short-hash"), state.short_hash);
    txt($("seq"), state.seq);
    var tb = $("take-back");
    if (tb) tb.hidden = !state.seq || store.queue.length > 0 || (state.result && state.result.finished);
  }
  function renderRefused() {
    var box = $("refused-box");
    if (!box) return;
    box.hidden = !store.refused.length;
    var list = $("refused");
    list.textContent = "";
    store.refused.forEach(function (r, i) {
      var item = li(list, r.text + " — " + r.message + (r.rule ? " (" + S.rule + " " + r.rule + ")" : ""));
      button(item, S.remove, "link", function () { store.refused.splice(i, 1); save(); render(); });
    });
  }
  function render() {
    window.PartnersBoard.render($("board"), state, { selected: pick.locs, onTap: onTap });
    renderTurn();
    renderWinner();
    renderCards();
    renderCandidates();
    renderDiscard();
    renderLog();
    renderRefused();
    renderStatus();
  }

  // --- wiring ---------------------------------------------------------------
  function bind(id, event, fn) { var n = $(id); if (n) n.addEventListener(event, fn); }
  bind("show-legal", "click", function () { pick.showAll = true; render(); });
  bind("confirm-move", "click", confirmMove);
  bind("cancel-move", "click", function () { $("preview").hidden = true; resetPick(); render(); });
  bind("discard-clear", "click", function () { pick.discard = []; renderDiscard(); });
  bind("discard-ok", "click", function () {
    if (!pick.discard.length) return;
    choose(canonicalDiscard("X: " + pick.discard.join(" ")));
  });
  bind("typed-form", "submit", function (ev) {
    ev.preventDefault();
    var value = $("typed").value;
    if (!value.trim()) return;
    hideError();
    // Sent as typed (tidied): the server also checks a written destination (">Y8").
    if (!preview(tidy(value)).ok) return;
    $("typed").value = "";
  });
  bind("take-back", "click", function () {
    if (!window.confirm(S.takeBackConfirm)) return;
    post(config.urls["take-back"], { client_id: uid(), seq: state.seq }).then(function (res) {
      if (res.status === 200) { setState(res.data); save(); render(); hideError(); }
      else showError(res.data.error);
    }).catch(function () { setOnline(false); });
  });
  document.querySelectorAll(".confirm-btn").forEach(function (b) {
    b.addEventListener("click", function () {
      post(config.urls.confirm, { client_id: uid(), pair_side: b.getAttribute("data-side") }).then(function (res) {
        if (res.status === 200) { setState(res.data); save(); render(); }
        else showError(res.data.error);
      }).catch(function () { setOnline(false); });
    });
  });
  window.addEventListener("online", function () { setOnline(true); flush(); });
  window.addEventListener("offline", function () { setOnline(false); });
  setInterval(function () { if (store.queue.length) flush(); else refresh(); }, 5000);

  render();
  flush();
})();
