/* Public live view of a table and the hall screen: poll the JSON API and redraw.
 *
 * The live view asks for its table's lean state (no legal moves) with the
 * ETag of the state it shows: an unchanged table answers 304 without a body.
 * The hall screen makes one request per poll for every table: the hall API
 * carries each table's clock, fed to clock.js (which then fetches nothing).
 * Both poll through poller.js.
 */
import { Poller } from "./poller.js";
import { describeEntry } from "./table/text.js";

{
  var S = (document.getElementById("strings") || { dataset: {} }).dataset;
  function $(id) { return document.getElementById(id); }
  function txt(node, value) { if (node) node.textContent = value; }
  function seatName(s) { return S["seat" + s] || s; }
  /* A seat ("B"), or a DUO area ("YK"). */
  function colourName(c) { return c.length === 2 ? S["area" + c.charAt(0) + c.charAt(1).toLowerCase()] || c : seatName(c); }
  /* The winning side: a team ("YB"), or in Partners DUO a player (Y plays the YB side). */
  function sideName(side, singles) { return singles ? seatName(side.charAt(0)) : side === "YB" ? S.yb : S.rg; }
  /* Epoch seconds of an ISO time from the server (microseconds cut to what Date reads). */
  function epoch(iso) { return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1")) / 1000; }

  function liveTable(config) {
    var state = JSON.parse($("table-state").textContent);
    function render() {
      window.PartnersBoard.render($("board"), state, {});
      txt($("short-hash"), state.short_hash);
      txt($("seq"), state.seq);
      var turn = $("turn");
      if (state.to_move) {
        var name = (config.players || {})[state.to_move] || "";
        // The name in its own bidi isolate (U+2068 … U+2069): a right-to-left name
        // must not turn the brackets around it.
        var isolated = name ? " (\u2068" + name + "\u2069)" : "";
        txt(turn, S.toMove + ": " + seatName(state.to_move) + isolated);
      } else txt(turn, S.gameOver);
      var hands = $("hands");
      hands.textContent = "";
      // The ruleset's seats and sides come with the state (docs/api.md): in singles
      // (DUO) a side is one player, named by its colour.
      var singles = !!state.teams && state.teams.YB.length === 1;
      (state.seats || ["Y", "R", "B", "G"]).forEach(function (s) {
        var li = document.createElement("li");
        li.className = "seat-" + s + (s === state.to_move ? " current" : "");
        txt(li, seatName(s) + ": " + state.hand_sizes[s] + " " + S.cardsLeft);
        hands.appendChild(li);
      });
      var win = $("winner-text");
      win.hidden = !state.winner;
      if (state.winner) txt(win, sideName(state.winner, singles) + " " + S.won);
      var log = $("log");
      log.textContent = "";
      // In words; the notation and the hash on demand (the "show notation" box).
      (state.entries || []).slice(-20).reverse().forEach(function (e) {
        var li = document.createElement("li");
        var words = document.createElement("span");
        words.className = "entry-words";
        txt(words, e.seq + ". " + describeEntry(e.text, e.events, S, colourName));
        var notation = document.createElement("span");
        notation.className = "entry-notation notation-only";
        var code = document.createElement("code");
        txt(code, e.text);
        notation.appendChild(document.createTextNode(" · "));
        notation.appendChild(code);
        notation.appendChild(document.createTextNode(" #" + e.short_hash));
        li.appendChild(words);
        li.appendChild(notation);
        log.appendChild(li);
      });
    }
    var toggle = $("show-notation");
    function showNotation() { document.body.classList.toggle("show-notation", !!(toggle && toggle.checked)); }
    if (toggle) toggle.addEventListener("change", showNotation);
    showNotation();
    render();
    new Poller({
      url: config.state_url,
      interval: 3000,
      etag: config.state_etag || null,
      credentials: "same-origin",
      push: { url: config.push_url },
      onData: function (data) {
        if (!data || data.seq === undefined) return false;
        state = data;
        render();
      }
    }).start();
  }

  /* How urgent a table is, most urgent first: an open judge call, a judge on the
   * way, past the time limit, past the alert mark, paused, playing; finished last. */
  function urgency(t, ageS) {
    if (t.call === "open") return [0, "call-open"];
    if (t.call === "taken") return [1, "call-taken"];
    if (t.winner) return [6, ""];
    var c = t.clock;
    if (!c) return [5, ""];
    var elapsed = c.elapsed_s + (c.status === "running" ? Math.max(0, ageS) * (c.speed || 1) : 0);
    if (c.status === "time_up" || (c.limit_s && elapsed >= c.limit_s)) return [2, "limit"];
    if (c.alert_s && elapsed >= c.alert_s) return [3, "alert"];
    if (c.status === "paused") return [4, "paused"];
    return [5, ""];
  }

  /* The tables that fit the screen, page after page: every ``turn`` seconds the
   * next page, with "1/2" in the corner. A phone (narrow screen) scrolls instead. */
  function Pager(list, indicator, turnS) {
    this.list = list;
    this.indicator = indicator;
    this.turnS = turnS;
    this.page = 0;
    this.size = Infinity;
    var self = this;
    window.addEventListener("resize", function () { self.layout(); });
    if (turnS > 0) window.setInterval(function () { self.next(); }, turnS * 1000);
  }
  Pager.prototype.cards = function () { return Array.prototype.slice.call(this.list.children); };
  Pager.prototype.measure = function () {
    var cards = this.cards();
    if (!cards.length || window.innerWidth < 700 || !this.turnS) return Infinity;
    // Every card the same height (games.css): one row's height and the track count say it.
    // The tallest card sets the row height (a row is as tall as its tallest card).
    cards.forEach(function (card) { card.hidden = false; });
    var style = window.getComputedStyle(this.list);
    var cols = style.gridTemplateColumns.split(" ").filter(Boolean).length || 1;
    var gap = parseFloat(style.rowGap) || 0;
    var height = Math.max.apply(null, cards.map(function (card) { return card.getBoundingClientRect().height; }));
    var top = this.list.getBoundingClientRect().top + window.scrollY;
    var rows = Math.floor((window.innerHeight - top - 4 + gap) / (height + gap));
    return cols * Math.max(1, rows);
  };
  Pager.prototype.layout = function () {
    this.size = this.measure();
    this.show();
  };
  Pager.prototype.pages = function () {
    return this.size === Infinity ? 1 : Math.max(1, Math.ceil(this.cards().length / this.size));
  };
  Pager.prototype.show = function () {
    var pages = this.pages();
    if (this.page >= pages) this.page = 0;
    var from = this.page * this.size, to = from + this.size;
    this.cards().forEach(function (card, i) { card.hidden = i < from || i >= to; });
    if (this.indicator) {
      this.indicator.hidden = pages < 2;
      txt(this.indicator.querySelector('[data-field="page"]'), this.page + 1 + "/" + pages);
    }
  };
  Pager.prototype.next = function () {
    this.page = (this.page + 1) % this.pages();
    this.show();
  };

  function hall(config) {
    var list = $("hall");
    var singles = (list || { dataset: {} }).dataset.singles === "1";
    var H = ($("hall-strings") || { dataset: {} }).dataset;
    var marks = { "call-open": H.callOpen, "call-taken": H.callTaken, limit: H.limit };
    function markText(kind, t) {
      // "50+ min": past the alert mark, which an extension moves.
      if (kind === "alert") return Math.round(t.clock.alert_s / 60) + "+ min";
      if (kind === "paused") return t.clock.status_label || "";
      return marks[kind] || "";
    }
    // ?turn=N: seconds a page stays (0: no paging); 15 s by default.
    var asked = parseInt(new URLSearchParams(window.location.search).get("turn"), 10);
    var turnS = isNaN(asked) ? 15 : asked === 0 ? 0 : Math.min(600, Math.max(2, asked));
    var pager = list ? new Pager(list, $("hall-pages"), turnS) : null;
    function update(data, served, halfTrip) {
      // A new round has other tables: draw the page again.
      if (data.round !== config.round) { window.location.reload(); return; }
      var order = [];
      (data.tables || []).forEach(function (t) {
        var row = document.querySelector('.hall-table[data-game="' + t.game_id + '"]');
        if (!row) return;
        var age = t.clock ? served - epoch(t.clock.server_time) + halfTrip : 0;
        var clock = row.querySelector("[data-clock-feed]");
        if (clock && t.clock && window.PartnersClock) {
          // The clock was read at its server_time; it is that much older now.
          window.PartnersClock.feed(clock, t.clock, age);
        }
        ["YB", "RG"].forEach(function (team) {
          var bar = row.querySelector('progress[data-team="' + team + '"]');
          if (bar) { bar.value = t.progress[team]; txt(bar, t.progress[team] + "%"); }
          txt(row.querySelector('[data-locked="' + team + '"]'), t.locked[team]);
        });
        txt(row.querySelector('[data-field="moves"]'), t.moves);
        txt(row.querySelector('[data-field="winner"]'), t.winner ? " · " + sideName(t.winner, singles) + " " + S.won : "");
        var u = urgency(t, age);
        row.className = "hall-table" + (u[1] ? " hall-table--" + u[1] : "") + (t.winner ? " hall-table--done" : "");
        txt(row.querySelector('[data-field="mark"]'), u[1] ? markText(u[1], t) : "");
        order.push([u[0], t.table, row]);
      });
      // Most urgent first, then by table number: a table keeps its place until its urgency changes.
      order.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
      order.forEach(function (o) { list.appendChild(o[2]); });
      if (pager) pager.layout();
    }
    if (pager) pager.layout();
    new Poller({
      url: config.hall_url,
      interval: 10000,
      // The hall answer is shared for up to 2 s after a change (HALL_CACHE_SECONDS).
      push: { url: config.push_url, kinds: ["tables", "pages"], settle: 2500 },
      onData: function (data, info) {
        // When the answer left the server (a shared copy may be older than that).
        update(data, isNaN(info.served) ? epoch(data.server_time) : info.served, info.halfTrip);
      }
    }).start({ immediate: true });
  }

  var liveConfig = $("live-config");
  if (liveConfig) liveTable(JSON.parse(liveConfig.textContent));
  var hallConfig = $("hall-config");
  if (hallConfig) hall(JSON.parse(hallConfig.textContent));
}
