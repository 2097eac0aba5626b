/* Public live view of a table and the hall screen: poll the JSON API and redraw. */
(function () {
  "use strict";
  var S = (document.getElementById("strings") || { dataset: {} }).dataset;
  function $(id) { return document.getElementById(id); }
  function txt(node, value) { if (node) node.textContent = value; }
  function getJSON(url) {
    return fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); });
  }
  function seatName(s) { return S["seat" + s] || s; }

  function liveTable(config) {
    var state = JSON.parse($("table-state").textContent);
    function render() {
      window.PartnersBoard.render($("board"), state, {});
      txt($("short-hash"), state.short_hash);
      txt($("seq"), state.seq);
      var turn = $("turn");
      if (state.to_move) {
        var name = (config.players || {})[state.to_move] || "";
        txt(turn, S.toMove + ": " + seatName(state.to_move) + (name ? " (" + name + ")" : ""));
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
    setInterval(function () {
      getJSON(config.state_url).then(function (data) {
        if (data.seq !== state.seq || data.last_hash !== state.last_hash || data.status !== state.status) {
          state = data;
          render();
        }
      }).catch(function () { /* keep the last view; try again on the next tick */ });
    }, 3000);
  }

  function hall(config) {
    function update(data) {
      // A new round has other tables: draw the page again.
      if (data.round !== config.round) { window.location.reload(); return; }
      (data.tables || []).forEach(function (t) {
        var row = document.querySelector('.hall-table[data-game="' + t.game_id + '"]');
        if (!row) return;
        ["YB", "RG"].forEach(function (team) {
          var bar = row.querySelector('progress[data-team="' + team + '"]');
          if (bar) { bar.value = t.progress[team]; txt(bar, t.progress[team] + "%"); }
          txt(row.querySelector('[data-locked="' + team + '"]'), t.locked[team]);
        });
        txt(row.querySelector('[data-field="seq"]'), t.seq);
        txt(row.querySelector('[data-field="winner"]'), t.winner ? " · " + (t.winner === "YB" ? S.yb : S.rg) + " " + S.won : "");
      });
    }
    setInterval(function () { getJSON(config.hall_url).then(update).catch(function () {}); }, 10000);
  }

  var liveConfig = $("live-config");
  if (liveConfig) liveTable(JSON.parse(liveConfig.textContent));
  var hallConfig = $("hall-config");
  if (hallConfig) hall(JSON.parse(hallConfig.textContent));
})();
