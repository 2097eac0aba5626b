/* Judge dashboard: polls the dashboard JSON every second and updates the
 * page in place (no reload), most urgent table first. Open alerts come in
 * groups by mark ("60 minutes — time is up: tables 3, 7, 12"), each with
 * "on my way" for one table or for the whole group; acknowledged alerts fold
 * away. New alerts flash, vibrate and beep (when the device's sound switch
 * is on; browsers require a tap before audio).
 * Data comes from <script type="application/json"> blocks (CSP-safe).
 *
 * Polls are conditional (If-None-Match): 304 means the copy we have still
 * holds. The answer may be a shared copy up to a second old, so running
 * clocks are counted on from its server_time to when the latest answer left
 * the server (X-Server-Time, epoch seconds) plus half the round trip, and
 * then by the monotonic timer; the device's wall clock is never used.
 * The polling itself is poller.js.
 */
import { Poller } from "./poller.js";

{

  var POLL_MS = 1000;
  var cfg = JSON.parse(document.getElementById("judge-config").textContent);
  var T = cfg.texts;
  var alertsEl = document.getElementById("judge-alerts");
  var ackedEl = document.getElementById("judge-acknowledged");
  var ackedSummary = ackedEl.querySelector("summary");
  var ackedList = document.getElementById("judge-acknowledged-list");
  var tablesEl = document.getElementById("judge-tables");
  var statusEl = document.getElementById("judge-status");
  var soundBtn = document.getElementById("judge-sound");
  var csrf = document.querySelector("#judge-csrf input[name=csrfmiddlewaretoken]").value;
  var seenAlerts = null; // ids known so far; null until the first render
  var audio = null;
  var cards = {};
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
    if (!soundOn || !audio) { return; }
    var osc = audio.createOscillator();
    var gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.2;
    osc.connect(gain);
    gain.connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  }

  // The sound switch is kept per device (localStorage), so a judge's phone
  // stays silent or loud across reloads. Browsers start audio only after a
  // tap: a switch restored "on" wakes its audio at the first tap on the page.
  var SOUND_KEY = "judge-dashboard-sound";
  var soundOn = false;

  function stored() {
    try { return window.localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
  }

  function store(on) {
    try { window.localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* private mode: kept for this page only */ }
  }

  function wakeAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx && !audio) { audio = new Ctx(); }
    if (audio && audio.state === "suspended") { audio.resume(); }
  }

  function showSound() {
    soundBtn.setAttribute("aria-pressed", soundOn ? "true" : "false");
    soundBtn.textContent = soundOn ? soundBtn.dataset.on : soundBtn.dataset.off;
  }

  soundBtn.addEventListener("click", function () {
    soundOn = !soundOn;
    store(soundOn);
    showSound();
    if (soundOn) { wakeAudio(); beep(); }
  });
  soundOn = stored();
  showSound();
  if (soundOn) {
    var firstTap = function () {
      if (soundOn) { wakeAudio(); }
      document.removeEventListener("pointerdown", firstTap, true);
      document.removeEventListener("keydown", firstTap, true);
    };
    document.addEventListener("pointerdown", firstTap, true);
    document.addEventListener("keydown", firstTap, true);
  }

  var alertItems = {}; // id -> {li, sig}: a tile is rebuilt only when what it shows changed
  var groupItems = {}; // group key -> {li, head, count, tables, ack, list, more, moreList}
  var TILES_SHOWN = 12; // a group's first tiles; the rest behind "show all"

  function ackButton(label, ids, cls) {
    var btn = el("button", cls, label);
    btn.type = "button";
    btn.addEventListener("click", function () {
      btn.disabled = true;
      var done = function () { poll(); };
      var fail = function (err) { btn.disabled = false; showStatus(err.message); };
      if (ids.length === 1) { post(urlFor(cfg.ack_url, ids[0])).then(done, fail); }
      else { post(cfg.ack_all_url, { ids: ids }).then(done, fail); }
    });
    return btn;
  }

  function makeTile(kind, e) {
    var li = el("li", "alert-tile alert-tile--" + kind);
    li.id = "alert-" + e.id;
    li.setAttribute("data-alert-kind", kind);
    var link = el("a", "alert-tile__table", T.table + " " + e.table);
    link.href = "#table-" + e.game_id;
    li.appendChild(link);
    li.appendChild(el("span", "alert-tile__why", e.short || ""));
    var btn = ackButton(T.on_my_way, e.ids, "alert-tile__ack secondary");
    btn.setAttribute("aria-label", fill(T.on_my_way_to, { table: e.table }));
    li.appendChild(btn);
    return li;
  }

  function tile(kind, e) {
    var sig = [kind, e.short, e.table, e.ids.join(",")].join("|");
    var item = alertItems[e.id];
    if (!item || item.sig !== sig) {
      var li = makeTile(kind, e);
      if (item) { item.li.replaceWith(li); }
      item = alertItems[e.id] = { li: li, sig: sig };
    }
    return item.li;
  }

  function makeGroup(g) {
    var li = el("li", "alert-group alert-group--" + g.kind);
    li.id = "alert-group-" + g.key;
    var head = el("div", "alert-group__head");
    var title = el("h3", "alert-group__title", g.label);
    var count = el("span", "alert-group__count");
    title.appendChild(document.createTextNode(" "));
    title.appendChild(count);
    head.appendChild(title);
    var group = { li: li, head: head, count: count, ack: null };
    group.tables = el("p", "alert-group__tables");
    group.list = el("ol", "alert-group__tiles");
    group.more = el("details", "alert-group__more");
    group.moreSummary = el("summary", "");
    group.moreList = el("ol", "alert-group__tiles");
    group.more.appendChild(group.moreSummary);
    group.more.appendChild(group.moreList);
    [head, group.tables, group.list, group.more].forEach(function (n) { li.appendChild(n); });
    return group;
  }

  function fillList(list, nodes) {
    nodes.forEach(function (node, i) {
      if (list.children[i] !== node) { list.insertBefore(node, list.children[i] || null); }
    });
    while (list.children.length > nodes.length) { list.removeChild(list.lastChild); }
  }

  function updateGroup(group, g) {
    var n = g.entries.length;
    var ids = [];
    g.entries.forEach(function (e) { ids.push.apply(ids, e.ids); });
    group.count.textContent = fill(n === 1 ? T.tables_one : T.tables_many, { count: n });
    var numbers = g.entries.map(function (e) { return e.table; }).sort(function (a, b) { return a - b; });
    group.tables.textContent = T.tables_label + " " + numbers.join(", ");
    group.tables.hidden = n === 1; // its one tile names the table
    var ackLabel = n === 1 ? T.on_my_way : fill(T.on_my_way_all, { count: n });
    var ackSig = ids.join(",");
    if (!group.ack || group.ackSig !== ackSig) {
      var btn = ackButton(ackLabel, ids, "alert-group__ack");
      if (group.ack) { group.ack.replaceWith(btn); } else { group.head.appendChild(btn); }
      group.ack = btn;
      group.ackSig = ackSig;
    }
    // One table: its tile holds the only button needed.
    group.ack.hidden = n === 1;
    var tiles = g.entries.map(function (e) { return tile(g.kind, e); });
    fillList(group.list, tiles.slice(0, TILES_SHOWN));
    fillList(group.moreList, tiles.slice(TILES_SHOWN));
    group.more.hidden = n <= TILES_SHOWN;
    group.moreSummary.textContent = fill(T.show_more, { count: n - TILES_SHOWN });
  }

  function renderAlerts(data) {
    var fresh = false;
    var keepAlerts = {};
    var shown = {};
    data.alerts.forEach(function (a) {
      keepAlerts[a.id] = true;
      if (seenAlerts && !seenAlerts[a.id]) { fresh = true; }
    });
    var keepGroups = {};
    var nodes = data.alert_groups.map(function (g) {
      var group = groupItems[g.key] || (groupItems[g.key] = makeGroup(g));
      keepGroups[g.key] = true;
      updateGroup(group, g);
      g.entries.forEach(function (e) { shown[e.id] = true; });
      var isNew = g.entries.some(function (e) {
        return seenAlerts && e.ids.some(function (id) { return !seenAlerts[id]; });
      });
      if (isNew) {
        group.li.classList.remove("alert-group--new");
        void group.li.offsetWidth; // restart the flash
        group.li.classList.add("alert-group--new");
      }
      return group.li;
    });
    Object.keys(groupItems).forEach(function (key) {
      if (!keepGroups[key]) { groupItems[key].li.remove(); delete groupItems[key]; }
    });
    Object.keys(alertItems).forEach(function (id) {
      if (!shown[id]) { delete alertItems[id]; }
    });
    if (!nodes.length) { nodes = [el("li", "muted", T.no_alerts)]; }
    fillList(alertsEl, nodes);
    renderAcknowledged(data.alerts.filter(function (a) { return !a.open; }));
    if (fresh) { beep(); }
    seenAlerts = keepAlerts;
  }

  function renderAcknowledged(done) {
    ackedEl.hidden = !done.length;
    ackedSummary.textContent = fill(T.acknowledged, { count: done.length });
    var sig = done.map(function (a) { return a.id + a.acknowledged_by; }).join(",");
    if (ackedList.getAttribute("data-sig") === sig) { return; }
    ackedList.setAttribute("data-sig", sig);
    ackedList.textContent = "";
    done.forEach(function (a) {
      var li = el("li", "");
      li.id = "alert-" + a.id;
      li.appendChild(el("span", "", T.table + " " + a.table + " · " + a.kind_label + " · "));
      li.appendChild(el("span", "judge-alert__ack",
        fill(T.acknowledged_by, { name: a.acknowledged_by, time: a.acknowledged_at_local })));
      ackedList.appendChild(li);
    });
  }

  function makeCard(t) {
    var card = { root: el("li", "judge-table") };
    card.root.id = "table-" + t.game_id;
    var head = el("div", "judge-table__head");
    card.no = el("span", "judge-table__no");
    card.status = el("span", "judge-table__status");
    card.remaining = el("span", "judge-table__remaining");
    head.appendChild(card.no);
    head.appendChild(card.status);
    head.appendChild(card.remaining);
    card.pairs = el("div", "judge-table__pairs");
    card.facts = el("div", "muted judge-table__facts");
    card.note = el("div", "judge-table__note");
    var links = el("div", "judge-table__links");
    var review = el("a", "button secondary judge-table__review", T.review);
    review.href = urlFor(cfg.review_url, t.game_id);
    links.appendChild(review);
    var clockBox = el("details", "judge-table__clockbox");
    card.clockSummary = el("summary", "", T.clock_controls);
    clockBox.appendChild(card.clockSummary);
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
    clockBox.appendChild(controls);
    card.clockBox = clockBox;
    card.error = el("div", "judge-table__error");
    card.error.setAttribute("role", "alert");
    links.appendChild(clockBox);
    [head, card.pairs, card.facts, card.note, links, card.error].forEach(function (n) { card.root.appendChild(n); });
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
    card.remaining.textContent = fmt(now.remaining);
    card.remaining.setAttribute("aria-label", T.remaining + " " + fmt(now.remaining));
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
    if (!card.elapsed) {
      card.elapsed = el("span", "");
      card.moves = el("span", "");
      card.facts.appendChild(card.elapsed);
      card.facts.appendChild(card.moves);
    }
    showClock(card);
    card.moves.textContent = " · " + T.moves + " " + t.moves +
      (t.progress !== null && t.progress !== undefined ? " · " + T.progress + " " + Math.round(t.progress * 100) + " %" : "");
    var notes = c.extensions.map(function (x) { return fill(T.extended, x); });
    var live = t.status === "running" || t.status === "paused";
    if (t.prediction_label && live) { notes.unshift(t.prediction_label); }
    card.note.textContent = notes.join(" · ");
    card.note.hidden = !notes.length;
    var canControl = t.status === "running" || t.status === "paused";
    card.toggle.textContent = t.status === "paused" ? T.resume : T.pause;
    card.clockBox.hidden = !canControl;
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
    renderAlerts(data);
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

  var poller = new Poller({
    url: cfg.dashboard_url,
    interval: POLL_MS,
    push: { url: cfg.push_url },
    etag: cfg.etag || null,
    onData: function (data, info) { showStatus(""); render(data, info.served, info.halfTrip); },
    onNotModified: function (info) { showStatus(""); tick(info.served, info.halfTrip); },
    onError: function () { showStatus(T.offline); tick(NaN, 0); }
  });
  function poll() { return poller.now(); }

  render(JSON.parse(document.getElementById("judge-initial").textContent), cfg.server_now, 0);
  poller.start();
}
