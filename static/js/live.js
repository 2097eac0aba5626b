/* Public live view of a table and the hall screen: poll the JSON API and redraw.
 *
 * The live view asks for its table's lean state (no legal moves) with the
 * ETag of the state it shows: an unchanged table answers 304 without a body.
 * The hall screen makes one request per poll for every table: the hall API
 * carries each table's clock, fed to clock.js (which then fetches nothing).
 */
(function () {
  "use strict";
  var S = (document.getElementById("strings") || { dataset: {} }).dataset;
  function $(id) { return document.getElementById(id); }
  function txt(node, value) { if (node) node.textContent = value; }
  function seatName(s) { return S["seat" + s] || s; }
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
      ["Y", "R", "B", "G"].forEach(function (s) {
        var li = document.createElement("li");
        li.className = "seat-" + s + (s === state.to_move ? " current" : "");
        txt(li, seatName(s) + ": " + state.hand_sizes[s] + " " + S.cardsLeft);
        hands.appendChild(li);
      });
      var win = $("winner-text");
      win.hidden = !state.winner;
      if (state.winner) txt(win, (state.winner === "YB" ? S.yb : S.rg) + " " + S.won);
      var log = $("log");
      log.textContent = "";
      (state.entries || []).slice(-20).reverse().forEach(function (e) {
        var li = document.createElement("li");
        txt(li, e.seq + ". " + e.text + "  #" + e.short_hash);
        log.appendChild(li);
      });
    }
    render();
    var etag = config.state_etag || null;
    setInterval(function () {
      if (document.hidden) return;
      var headers = { "Accept": "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(config.state_url, { headers: headers, cache: "no-store" }).then(function (r) {
        if (r.status === 304) return null; // nothing the page shows has changed
        if (!r.ok) throw new Error(String(r.status));
        return r.json().then(function (data) { etag = r.headers.get("ETag"); return data; });
      }).then(function (data) {
        if (data && data.seq !== undefined) { state = data; render(); }
      }).catch(function () { /* keep the last view; try again on the next tick */ });
    }, 3000);
  }

  function hall(config) {
    var busy = false;
    function poll() {
      if (busy) return;
      busy = true;
      var sent = performance.now();
      fetch(config.hall_url, { headers: { "Accept": "application/json" }, cache: "no-store" })
        .then(function (r) {
          if (!r.ok) throw new Error(String(r.status));
          // When the answer left the server (a shared copy may be older than that).
          var served = parseFloat(r.headers.get("X-Server-Time"));
          return r.json().then(function (data) {
            update(data, isNaN(served) ? epoch(data.server_time) : served, (performance.now() - sent) / 2000);
          });
        })
        .catch(function () { /* keep the last view; try again on the next tick */ })
        .then(function () { busy = false; });
    }
    function update(data, served, halfTrip) {
      // A new round has other tables: draw the page again.
      if (data.round !== config.round) { window.location.reload(); return; }
      (data.tables || []).forEach(function (t) {
        var row = document.querySelector('.hall-table[data-game="' + t.game_id + '"]');
        if (!row) return;
        var clock = row.querySelector("[data-clock-feed]");
        if (clock && t.clock && window.PartnersClock) {
          // The clock was read at its server_time; it is that much older now.
          window.PartnersClock.feed(clock, t.clock, served - epoch(t.clock.server_time) + halfTrip);
        }
        ["YB", "RG"].forEach(function (team) {
          var bar = row.querySelector('progress[data-team="' + team + '"]');
          if (bar) { bar.value = t.progress[team]; txt(bar, t.progress[team] + "%"); }
          txt(row.querySelector('[data-locked="' + team + '"]'), t.locked[team]);
        });
        txt(row.querySelector('[data-field="seq"]'), t.seq);
        txt(row.querySelector('[data-field="winner"]'), t.winner ? " · " + (t.winner === "YB" ? S.yb : S.rg) + " " + S.won : "");
      });
    }
    poll();
    setInterval(function () { if (!document.hidden) poll(); }, 10000);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  }

  var liveConfig = $("live-config");
  if (liveConfig) liveTable(JSON.parse(liveConfig.textContent));
  var hallConfig = $("hall-config");
  if (hallConfig) hall(JSON.parse(hallConfig.textContent));
})();
