/* Judge dashboard: polls the dashboard JSON every second and updates the
 * page in place (no reload), most urgent table first. New alerts flash,
 * vibrate and beep (after "Sound on", as browsers require a tap first).
 * Data comes from <script type="application/json"> blocks (CSP-safe).
 *
 * Polls are conditional (If-None-Match): 304 means the copy we have still
 * holds. The answer may be a shared copy up to a second old, so running
 * clocks are counted on from its server_time to when the latest answer left
 * the server (X-Server-Time, epoch seconds) plus half the round trip, and
 * then by the monotonic timer; the device's wall clock is never used.
 */
(function () {
  "use strict";

  var POLL_MS = 1000;
  var cfg = JSON.parse(document.getElementById("judge-config").textContent);
  var T = cfg.texts;
  var alertsEl = document.getElementById("judge-alerts");
  var tablesEl = document.getElementById("judge-tables");
  var statusEl = document.getElementById("judge-status");
  var soundBtn = document.getElementById("judge-sound");
  var csrf = document.querySelector("#judge-csrf input[name=csrfmiddlewaretoken]").value;
  var seenAlerts = null; // ids known so far; null until the first render
  var audio = null;
  var cards = {};
  var etag = cfg.etag || null;
  var current = null; // the dashboard shown
  var runS = 0; // server seconds from current.server_time to the latest answer's arrival
  var syncedAt = performance.now();

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, key) { return values[key]; });
  }

  function fmt(seconds) {
    var s = Math.max(0, Math.round(seconds));
    var m = Math.floor(s / 60);
    var r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  function epoch(iso) {
    // At most milliseconds: not every browser parses six decimals.
    return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1")) / 1000;
  }

  function sync(served, halfTrip) {
    var gap = served - epoch(current.server_time) + halfTrip;
    runS = isFinite(gap) && gap > 0 ? gap : 0;
    syncedAt = performance.now();
  }

  function clockNow(c) {
    // A running clock moves on at its speed; every other clock stands still.
    if (c.status !== "running") { return { remaining: c.remaining_s, elapsed: c.elapsed_s }; }
    var run = (runS + (performance.now() - syncedAt) / 1000) * c.speed;
    return { remaining: Math.max(0, c.remaining_s - run), elapsed: Math.min(c.limit_s, c.elapsed_s + run) };
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function urlFor(template, id, suffix) {
    return template.replace("/0/", "/" + id + "/") + (suffix || "");
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(body || {})
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) {
          var msg = (data.error && data.error.message) || data.detail || ("HTTP " + r.status);
          throw new Error(msg);
        }
        return data;
      });
    });
  }

  function beep() {
    if (navigator.vibrate) { navigator.vibrate([300, 150, 300]); }
    if (!audio) { return; }
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.2;
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  }

  soundBtn.addEventListener("click", function () {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !audio) { audio = new Ctx(); }
    if (audio && audio.state === "suspended") { audio.resume(); }
    soundBtn.setAttribute("aria-pressed", "true");
    beep();
  });

  function predictionText(p) {
    if (!p || !p.known) { return T.unknown; }
    if (p.stuck) { return T.stuck; }
    if (p.overrun_s > 0) { return fill(T.overrun, { minutes: Math.ceil(p.overrun_s / 60) }); }
    return T.on_time;
  }

  var alertItems = {};

  function makeAlert(a) {
    var li = el("li", "judge-alert judge-alert--" + a.kind + (a.open ? "" : " judge-alert--done"));
    li.id = "alert-" + a.id;
    li.setAttribute("data-alert-kind", a.kind);
    var what = T.table + " " + a.table + " · " + a.kind_label;
    if (a.rank) { what += " · " + fill(T.rank, { rank: a.rank }); }
    li.appendChild(el("span", "judge-alert__what", what));
    li.appendChild(el("span", "muted", a.raised_at_local));
    if (a.kind === "alert") { li.appendChild(el("span", "judge-alert__prediction", predictionText(a.prediction))); }
    if (a.open) {
      var btn = el("button", "judge-alert__button", T.on_my_way);
      btn.type = "button";
      btn.addEventListener("click", function () {
        btn.disabled = true;
        post(urlFor(cfg.ack_url, a.id)).then(function () { poll(); }, function (err) {
          btn.disabled = false;
          showStatus(err.message);
        });
      });
      li.appendChild(btn);
    } else {
      li.appendChild(el("span", "judge-alert__ack",
        fill(T.acknowledged_by, { name: a.acknowledged_by, time: a.acknowledged_at_local })));
    }
    return li;
  }

  function renderAlerts(alerts) {
    var fresh = false;
    var keep = {};
    alerts.forEach(function (a, i) {
      // Rebuild an item only when what it shows changed (keeps a tap in progress).
      var sig = [a.open, a.acknowledged_by, a.rank, a.kind_label].join("|");
      var item = alertItems[a.id];
      if (!item || item.sig !== sig) {
        var li = makeAlert(a);
        if (item) {
          if (item.li.classList.contains("judge-alert--new")) { li.classList.add("judge-alert--new"); }
          item.li.replaceWith(li);
        }
        item = alertItems[a.id] = { li: li, sig: sig };
      }
      keep[a.id] = true;
      if (seenAlerts && !seenAlerts[a.id]) { item.li.classList.add("judge-alert--new"); fresh = true; }
      if (alertsEl.children[i] !== item.li) { alertsEl.insertBefore(item.li, alertsEl.children[i] || null); }
    });
    Object.keys(alertItems).forEach(function (id) {
      if (!keep[id]) { alertItems[id].li.remove(); delete alertItems[id]; }
    });
    Array.prototype.slice.call(alertsEl.children).forEach(function (child) {
      if (!child.id) { child.remove(); }
    });
    if (!alerts.length) { alertsEl.appendChild(el("li", "muted", T.no_alerts)); }
    if (fresh) { beep(); }
    seenAlerts = keep;
  }

  function makeCard(t) {
    var card = { root: el("li", "judge-table") };
    card.root.id = "table-" + t.game_id;
    var head = el("div", "judge-table__head");
    card.no = el("span", "judge-table__no");
    card.status = el("span", "judge-table__status");
    head.appendChild(card.no);
    head.appendChild(card.status);
    card.pairs = el("div", "judge-table__pairs");
    var clock = el("div", "judge-table__clock");
    card.remaining = el("span", "judge-table__remaining");
    card.elapsed = el("span", "muted");
    card.moves = el("span", "muted");
    clock.appendChild(card.remaining);
    clock.appendChild(card.elapsed);
    clock.appendChild(card.moves);
    card.note = el("div", "muted judge-table__note");
    var controls = el("form", "judge-table__controls");
    card.toggle = el("button", "secondary");
    card.toggle.type = "button";
    card.minutes = el("input");
    card.minutes.type = "number";
    card.minutes.min = "1";
    card.minutes.max = "60";
    card.minutes.value = "5";
    card.minutes.setAttribute("aria-label", T.minutes);
    card.reason = el("input");
    card.reason.type = "text";
    card.reason.maxLength = 300;
    card.reason.placeholder = T.reason;
    card.reason.setAttribute("aria-label", T.reason);
    card.extend = el("button", "secondary", T.extend);
    card.extend.type = "submit";
    controls.appendChild(card.toggle);
    controls.appendChild(card.minutes);
    controls.appendChild(card.reason);
    controls.appendChild(card.extend);
    card.error = el("div", "judge-table__error");
    card.error.setAttribute("role", "alert");
    [head, card.pairs, clock, card.note, controls, card.error].forEach(function (n) { card.root.appendChild(n); });
    var base = urlFor(cfg.clock_url, t.game_id);
    function act(suffix, body, button) {
      card.error.textContent = "";
      button.disabled = true;
      post(base + suffix, body).then(function () {
        card.reason.value = "";
        button.disabled = false;
        poll();
      }, function (err) { button.disabled = false; card.error.textContent = err.message; });
    }
    card.toggle.addEventListener("click", function () {
      var paused = card.root.getAttribute("data-status") === "paused";
      act(paused ? "resume/" : "pause/", { reason: card.reason.value }, card.toggle);
    });
    controls.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!card.reason.value.trim()) { card.error.textContent = T.reason_required; return; }
      act("extend/", { minutes: parseInt(card.minutes.value, 10), reason: card.reason.value }, card.extend);
    });
    return card;
  }

  function showClock(card) {
    var now = clockNow(card.t.clock);
    card.remaining.textContent = T.remaining + " " + fmt(now.remaining);
    card.elapsed.textContent = T.elapsed + " " + fmt(now.elapsed);
  }

  function updateCard(card, t) {
    var c = t.clock;
    var open = t.alerts.filter(function (a) { return a.open; });
    card.t = t;
    card.root.className = "judge-table judge-table--" + t.status +
      (open.length ? " judge-table--alert" : "") +
      (open.some(function (a) { return a.kind === "limit"; }) ? " judge-table--limit" : "");
    card.root.setAttribute("data-status", t.status);
    card.no.textContent = T.table + " " + t.table;
    card.status.textContent = t.status_label;
    card.pairs.textContent = T.yb + ": " + t.pair_yb + " — " + T.rg + ": " + t.pair_rg;
    showClock(card);
    card.moves.textContent = T.moves + " " + t.moves +
      (t.progress !== null && t.progress !== undefined ? " · " + T.progress + " " + Math.round(t.progress * 100) + " %" : "");
    var notes = c.extensions.map(function (x) { return fill(T.extended, x); });
    if (open.length && open[0].kind === "alert") { notes.unshift(predictionText(t.prediction)); }
    card.note.textContent = notes.join(" · ");
    var canControl = t.status === "running" || t.status === "paused";
    card.toggle.textContent = t.status === "paused" ? T.resume : T.pause;
    card.toggle.hidden = !canControl;
    card.extend.hidden = card.minutes.hidden = card.reason.hidden = !canControl;
  }

  function renderTables(tables) {
    if (!tables.length) {
      tablesEl.textContent = "";
      cards = {};
      tablesEl.appendChild(el("li", "muted", T.no_tables));
      return;
    }
    var keep = {};
    tables.forEach(function (t, i) {
      var card = cards[t.game_id] || (cards[t.game_id] = makeCard(t));
      keep[t.game_id] = true;
      updateCard(card, t);
      // Move only what is out of place, so a judge typing keeps the focus.
      if (tablesEl.children[i] !== card.root) { tablesEl.insertBefore(card.root, tablesEl.children[i] || null); }
    });
    Object.keys(cards).forEach(function (id) {
      if (!keep[id]) { cards[id].root.remove(); delete cards[id]; }
    });
    Array.prototype.slice.call(tablesEl.children).forEach(function (child) {
      if (!child.id) { child.remove(); }
    });
  }

  function render(data, served, halfTrip) {
    current = data;
    sync(isNaN(served) ? epoch(data.server_time) : served, halfTrip);
    renderAlerts(data.alerts);
    renderTables(data.tables);
  }

  function tick(served, halfTrip) {
    // Nothing changed but time: count the clocks on.
    if (!isNaN(served)) { sync(served, halfTrip); }
    Object.keys(cards).forEach(function (id) { showClock(cards[id]); });
  }

  function showStatus(text) {
    statusEl.textContent = text || "";
    statusEl.hidden = !text;
  }

  var timer = null;
  var inflight = false;
  var again = false;
  function poll() {
    // One request at a time; a poll asked for meanwhile runs right after.
    if (inflight) { again = true; return; }
    inflight = true;
    clearTimeout(timer);
    var headers = { Accept: "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    var sent = performance.now();
    fetch(cfg.dashboard_url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        var served = parseFloat(r.headers.get("X-Server-Time"));
        var halfTrip = (performance.now() - sent) / 2000;
        if (r.status === 304) { showStatus(""); tick(served, halfTrip); return; }
        if (!r.ok) { throw new Error(r.status); }
        return r.json().then(function (data) {
          etag = r.headers.get("ETag");
          showStatus("");
          render(data, served, halfTrip);
        });
      })
      .catch(function () { showStatus(T.offline); tick(NaN, 0); })
      .then(function () {
        inflight = false;
        if (again) { again = false; poll(); } else { timer = setTimeout(poll, POLL_MS); }
      });
  }

  render(JSON.parse(document.getElementById("judge-initial").textContent), cfg.server_now, 0);
  timer = setTimeout(poll, POLL_MS);
})();
