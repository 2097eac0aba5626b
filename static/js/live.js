/* Public live view of a table and the hall screen: poll the JSON API and redraw.
 *
 * The live view asks for its table's lean state (no legal moves) with the
 * ETag of the state it shows: an unchanged table answers 304 without a body.
 * The hall screen makes one request per poll for every table: the hall API
 * carries each table's clock, fed to clock.js (which then fetches nothing).
 * Both poll through poller.js.
 */
import { Poller } from "./poller.js";

{
  var S = (document.getElementById("strings") || { dataset: {} }).dataset;
  function $(id) { return document.getElementById(id); }
  function txt(node, value) { if (node) node.textContent = value; }
  function seatName(s) { return S["seat" + s] || s; }
  /* The winning side: a team ("YB"), or in Partners DUO a player (Y plays the YB side). */
  function sideName(side, duo) { return duo ? seatName(side.charAt(0)) : side === "YB" ? S.yb : S.rg; }
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
      var duo = state.ruleset === "duo";
      (duo ? ["Y", "R"] : ["Y", "R", "B", "G"]).forEach(function (s) {
        var li = document.createElement("li");
        li.className = "seat-" + s + (s === state.to_move ? " current" : "");
        txt(li, seatName(s) + ": " + state.hand_sizes[s] + " " + S.cardsLeft);
        hands.appendChild(li);
      });
      var win = $("winner-text");
      win.hidden = !state.winner;
      if (state.winner) txt(win, sideName(state.winner, duo) + " " + S.won);
      var log = $("log");
      log.textContent = "";
      (state.entries || []).slice(-20).reverse().forEach(function (e) {
        var li = document.createElement("li");
        txt(li, e.seq + ". " + e.text + "  #" + e.short_hash);
        log.appendChild(li);
      });
    }
    render();
    new Poller({
      url: config.state_url,
      interval: 3000,
      etag: config.state_etag || null,
      credentials: "same-origin",
      onData: function (data) {
        if (!data || data.seq === undefined) return false;
        state = data;
        render();
      }
    }).start();
  }

  function hall(config) {
    var duo = ($("hall") || { dataset: {} }).dataset.ruleset === "duo";
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
        txt(row.querySelector('[data-field="winner"]'), t.winner ? " · " + sideName(t.winner, duo) + " " + S.won : "");
      });
    }
    new Poller({
      url: config.hall_url,
      interval: 10000,
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
