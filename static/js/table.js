/* Table page: log moves with the engine on the server, keep working offline.
 *
 * Every entry goes through a queue kept in localStorage (keyed by game):
 * {client_id, text, expected_seq}. The queue is sent in order; a retry sends
 * the same client_id, so the server never stores an entry twice. On a 409
 * (stale) the page takes the server's state and re-checks the queue: the
 * next entry exactly against the legal moves the server sent, later ones
 * provisionally. Entries that became illegal are shown, never dropped.
 *
 * The preview (pawns moved, hits, locks, winner) comes from the state's
 * legal_effects, online and offline; the server's /preview/ is asked only
 * when they are missing or the entry is not a listed legal move (then the
 * engine names the rule). A 7 is composed part by part: tap a pawn, pick
 * its steps, tap the next pawn; only steps that still lead to a legal 7
 * (prefixes of legal_entries["7"]) are offered.
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
  var pick = newPick(null);

  function $(id) { return document.getElementById(id); }
  /* parts: the 7's parts so far [{loc, n}]; pending: the pawn tapped for the next part. */
  function newPick(card) {
    return { card: card, locs: [], move: null, discard: [], showAll: false, parts: [], pending: null, msg: "" };
  }
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

  // --- effects of legal entries (state.legal_effects) ------------------------
  /* Effect string (docs/move-log.md): "Y3>Y8 Y8>RH hR@Y8 lY@YM1 wYB". */
  function parseEffect(text) {
    var eff = { moves: [], events: [], winner: null };
    text.split(" ").filter(Boolean).forEach(function (t) {
      if (t.indexOf(">") > 0) {
        var ft = t.split(">");
        eff.moves.push({ from: ft[0], to: ft[1] });
      } else if (t.charAt(0) === "w") {
        eff.winner = t.slice(1);
      } else {
        var ca = t.slice(1).split("@");
        eff.events.push({ type: t.charAt(0) === "h" ? "hit" : "lock", colour: ca[0], at: ca[1] });
      }
    });
    return eff;
  }
  /* The effect of a canonical move in ``st``, or null when the state does not carry it. */
  function effectOf(move, st) {
    var packed = st.legal_effects;
    if (!packed || !packed.effects || !packed.by_card || !st.legal_entries) return null;
    var card = move.split(":")[0];
    var i = (st.legal_entries[card] || []).indexOf(move);
    var index = (packed.by_card[card] || [])[i];
    if (i < 0 || index === undefined || packed.effects[index] === undefined) return null;
    return parseEffect(packed.effects[index]);
  }
  /* Colour of the pawn standing on ``loc`` in ``position`` (T1: one colour per field). */
  function colourAt(position, loc) {
    var seats = ["Y", "R", "B", "G"];
    for (var k = 0; k < seats.length; k++) {
      if ((position[seats[k]] || []).indexOf(loc) >= 0) return seats[k];
    }
    return loc.charAt(0);
  }
  /* A written destination (">Y8") must be where that step's pawn lands (or is hit home). */
  function destinationsMatch(rest, eff, position) {
    var body = rest.split(": ")[1] || "";
    return body.split(" ").every(function (step) {
      var m = /^([A-Z0-9]+)[+-]\d+>([A-Z0-9]+)$/.exec(step);
      if (!m) return true;
      var colour = colourAt(position, m[1]);
      return eff.moves.some(function (mv) { return mv.from === m[1] && mv.to === m[2]; }) ||
        eff.events.some(function (e) { return e.type === "hit" && e.at === m[2] && e.colour === colour; });
    });
  }
  function showEffect(lines, eff, position) {
    lines.textContent = "";
    var byColour = {};
    var order = [];
    eff.moves.forEach(function (mv) {
      if (/H$/.test(mv.to)) return;  // hit home: the hit line says it
      var c = colourAt(position, mv.from);
      if (!byColour[c]) { byColour[c] = []; order.push(c); }
      byColour[c].push(mv.from + " → " + mv.to);
    });
    order.forEach(function (c) { li(lines, seatName(c) + ": " + byColour[c].join(", "), "effect-move"); });
    eff.events.forEach(function (e) {
      li(lines, seatName(e.colour) + " " + (e.type === "hit" ? S.hit : S.lock) + " " + e.at, "event-" + e.type);
    });
    if (eff.winner) li(lines, (eff.winner === "YB" ? S.yb : S.rg) + " " + S.won, "event-lock");
  }

  // --- the 7, part by part ----------------------------------------------------
  function sevenText(parts) {
    return "7: " + parts.map(function (p) { return p.loc + "+" + p.n; }).join(" ");
  }
  function sevenUsed(parts) {
    return parts.reduce(function (a, p) { return a + p.n; }, 0);
  }
  /* What may come next after ``parts``: {known, next: {loc: {n: true}}, complete}.
   * Without legal moves (not yet read after a write) every count is offered. */
  function sevenOptions(parts) {
    var list = state.legal_entries ? (state.legal_entries["7"] || []) : null;
    var done = parts.map(function (p) { return p.loc + "+" + p.n; });
    var out = { known: list !== null, next: {}, complete: false };
    if (list === null) return out;
    var text = sevenText(parts);
    list.forEach(function (mv) {
      var steps = mv.slice(3).split(" ");
      if (steps.length < done.length) return;
      for (var k = 0; k < done.length; k++) if (steps[k] !== done[k]) return;
      if (steps.length === done.length) { out.complete = out.complete || mv === text; return; }
      var m = /^([A-Z0-9]+)\+(\d+)$/.exec(steps[done.length]);
      if (!m) return;
      (out.next[m[1]] = out.next[m[1]] || {})[m[2]] = true;
    });
    return out;
  }
  function sevenTap(loc) {
    pick.msg = "";
    pick.move = null;
    $("preview").hidden = true;
    if (pick.pending === loc) { pick.pending = null; render(); return; }
    var opts = sevenOptions(pick.parts);
    if (sevenUsed(pick.parts) >= 7 || (opts.known && !opts.next[loc])) {
      pick.pending = null;
      pick.msg = S.sevenNoPawn;
    } else {
      pick.pending = loc;
    }
    render();
  }
  function sevenStep(n) {
    pick.parts.push({ loc: pick.pending, n: n });
    pick.pending = null;
    pick.msg = "";
    var opts = sevenOptions(pick.parts);
    var text = sevenText(pick.parts);
    render();
    if (opts.complete || (!opts.known && sevenUsed(pick.parts) === 7)) choose(text);
  }
  function sevenBack() {
    if (pick.pending) pick.pending = null;
    else pick.parts.pop();
    pick.msg = "";
    pick.move = null;
    $("preview").hidden = true;
    hideError();
    render();
  }
  function renderSeven() {
    var box = $("seven");
    if (!box) return;
    var on = pick.card === "7" && !pick.showAll;
    box.hidden = !on;
    if (!on) return;
    var used = sevenUsed(pick.parts);
    var left = 7 - used;
    var opts = sevenOptions(pick.parts);
    txt($("seven-text"), pick.parts.length ? sevenText(pick.parts) : "7:");
    txt($("seven-left"), "· " + left + " " + S.sevenLeft);
    var steps = $("seven-steps");
    steps.textContent = "";
    var hint = "";
    if (pick.pending) {
      hint = S.sevenSteps + " (" + pick.pending + ")";
      var allowed = opts.next[pick.pending] || {};
      for (var n = 1; n <= left; n++) {
        var ok = !opts.known || !!allowed[n];
        var b = button(steps, String(n), "step-btn" + (ok ? "" : " dead"), sevenStep.bind(null, n));
        b.setAttribute("data-steps", String(n));
        if (!ok) { b.disabled = true; b.title = S.sevenDead; b.setAttribute("aria-label", n + " — " + S.sevenDead); }
      }
    } else if (left > 0 && !opts.complete && (!opts.known || Object.keys(opts.next).length)) {
      hint = pick.parts.length ? S.sevenTap : S.sevenTapFirst;
    }
    txt($("seven-hint"), hint);
    $("seven-hint").hidden = !hint;
    var msg = $("seven-msg");
    msg.hidden = !pick.msg;
    txt(msg, pick.msg || "");
    $("seven-back").disabled = !pick.parts.length && !pick.pending;
  }
  /* Pawns that may take the next part of the 7 (ringed on the board). */
  function sevenHints() {
    if (pick.card !== "7" || pick.showAll || pick.pending) return [];
    var opts = sevenOptions(pick.parts);
    return opts.known ? Object.keys(opts.next) : [];
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
          // The answer carries the legal moves and the ETag of this state as the
          // device reads it (?tail=20): no read needed, the next poll is a 304.
          setState(res.data.state, res.data.state_etag);
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
  /* The ETag of ``state`` when it came from a read of the state or from a
     submission's answer (``state_etag``); any other state (another write's
     answer) has none, so the next read gets it in full. */
  var stateTag = config.state_etag || null;
  function refresh() {
    if (sending) return;
    var headers = { "Accept": "application/json" };
    if (stateTag) headers["If-None-Match"] = stateTag;
    fetch(config.urls.state, { headers: headers, credentials: "omit", cache: "no-store" })
      .then(function (r) {
        // 304: log head, status, result and confirmations are as we have them.
        if (r.status === 304) return { data: null, tag: stateTag };
        return r.json().then(function (data) { return { data: data, tag: r.ok ? r.headers.get("ETag") : null }; });
      })
      .then(function (res) {
        setOnline(true);
        var data = res.data;
        if (data && data.seq !== undefined && !store.queue.length) { setState(data, res.tag); save(); render(); }
        else if (store.queue.length) flush();
      })
      .catch(function () { setOnline(false); });
  }
  /* Answers to writes leave out the legal moves (null): read the state for them. */
  function setState(s, tag) {
    if (!s || s.seq === undefined) return;
    state = s;
    stateTag = tag || null;
    if (state.legal_entries === null && !store.queue.length) setTimeout(refresh, 0);
  }

  // --- entering a move ------------------------------------------------------
  function resetPick() {
    pick = newPick(null);
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
    if (pick.card === "7" && !pick.showAll) { sevenTap(loc); return; }
    var i = pick.locs.indexOf(loc);
    if (i >= 0) pick.locs.splice(i, 1);
    else if (pick.card === "J") pick.locs.push(loc);
    else pick.locs = [loc];
    pick.move = null;
    var list = candidates();
    if (list.length === 1) choose(list[0]);
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
    var full = (seat ? seat + " " : "") + text;
    var written = /[+-]\d+>/.test(text);  // a destination to check (">Y8")
    var eff = text.indexOf("X:") === 0 ? null : effectOf(canonicalMove(text), state);
    if (!online || navigator.onLine === false) {
      // Offline: the next entry is checked exactly against the last known state,
      // and its effect comes from the state the server sent with it.
      var local = checkLocal(full, state);
      if (local.ok && eff && written && !destinationsMatch(text, eff, state.position)) {
        local = { ok: false, message: S.destMismatch };
      }
      if (!local.ok) {
        box.hidden = true;
        showError({ message: local.message, rule: "" });
        return local;
      }
      if (eff) showEffect(lines, eff, state.position);
      else li(lines, S.previewOffline);
      return local;
    }
    // Online: a listed legal move is shown from its effect, without asking the server;
    // a written destination, a discard or an entry not listed goes to the engine there.
    if (eff && !written && checkLocal(full, state).ok) {
      showEffect(lines, eff, state.position);
      return { ok: true };
    }
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
        pick = newPick(c);
        hideError();
        $("preview").hidden = true;
        render();
        if (state.legal_entries && !(legal[c] || []).length) showError({ message: S.noLegal });
      });
      b.setAttribute("data-card", c);
    });
    button(wrap, S.discard, "card discard-btn" + (pick.card === "X" ? " active" : ""), function () {
      pick = newPick("X");
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
    $("pawn-hint").hidden = !picking || (pick.card === "7" && !pick.showAll);
    $("show-legal").hidden = !picking || pick.showAll;
    $("discard").hidden = pick.card !== "X";
    if (!picking) return;
    if (pick.card === "7" && !pick.showAll) return;  // the 7 picker (renderSeven)
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
    var all = state.entries || [];
    var rulings = judgeMarks(all);
    var entries = all.slice(-12).reverse();
    store.queue.slice().reverse().forEach(function (q) { li(log, q.text + " … " + S.waiting, "queued"); });
    entries.forEach(function (e) { log.appendChild(logItem(e, rulings)); });
    txt($("short-hash"), state.short_hash);
    txt($("seq"), state.seq);
    var tb = $("take-back");
    if (tb) tb.hidden = !state.seq || store.queue.length > 0 || (state.result && state.result.finished);
  }
  /* Judge entries ("! VOID 12 14 KEEP 13", docs/judging.md): which entries they void or keep. */
  function judgeMarks(entries) {
    var marks = { voided: {}, kept: {} };
    entries.forEach(function (e) {
      var m = /^! VOID ([\d ]+?)(?: KEEP ([\d ]+))?$/.exec(e.text);
      if (!m) return;
      m[1].split(" ").forEach(function (n) { marks.voided[n] = true; });
      (m[2] || "").split(" ").filter(Boolean).forEach(function (n) { marks.kept[n] = true; });
    });
    return marks;
  }
  function logItem(e, marks) {
    var item = document.createElement("li");
    item.setAttribute("data-seq", e.seq);
    var judge = e.text.indexOf("!") === 0;
    var voided = !!marks.voided[e.seq];
    var kept = !!marks.kept[e.seq];
    var cls = [];
    if (judge) {
      cls.push("judge-entry");
      var label = document.createElement("span");
      label.className = "judge-label";
      txt(label, S.judgeRuling + ": ");
      item.appendChild(document.createTextNode(e.seq + ". "));
      item.appendChild(label);
      item.appendChild(document.createTextNode(e.text.replace(/^! /, "")));
    } else {
      var body = document.createElement(voided ? "s" : "span");
      body.className = "entry-text";
      txt(body, e.seq + ". " + e.text);
      item.appendChild(body);
    }
    item.appendChild(document.createTextNode("  #" + e.short_hash));
    if (voided || kept) {
      cls.push(voided ? "voided" : "kept");
      var note = document.createElement("span");
      note.className = "entry-note";
      txt(note, " — " + (voided ? S.voided : S.kept));
      item.appendChild(note);
    }
    item.className = cls.join(" ");
    return item;
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
    var selected = pick.card === "7" && !pick.showAll
      ? pick.parts.map(function (p) { return p.loc; }).concat(pick.pending ? [pick.pending] : [])
      : pick.locs;
    window.PartnersBoard.render($("board"), state, { selected: selected, hints: sevenHints(), onTap: onTap });
    renderTurn();
    renderWinner();
    renderCards();
    renderSeven();
    renderCandidates();
    renderDiscard();
    renderLog();
    renderRefused();
    renderStatus();
  }

  // --- wiring ---------------------------------------------------------------
  function bind(id, event, fn) { var n = $(id); if (n) n.addEventListener(event, fn); }
  bind("show-legal", "click", function () { pick.showAll = true; render(); });
  bind("seven-back", "click", sevenBack);
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
