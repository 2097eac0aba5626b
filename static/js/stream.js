/* The stream overlay: one table for a streaming tool's browser source (1920×1080).
 *
 * Everything the overlay shows goes through one function, applyStreamState(data):
 * the table on the stream (or none), the board, the four names with their
 * seats, the clock (time left), the remaining distance of both sides and the
 * last moves in words. Today a poller feeds it the small feed answer every
 * couple of seconds; a pushed event carrying the same answer can call it just
 * the same (window.PartnersStream.apply). The organiser switching tables is
 * just another answer: nothing is reloaded.
 */
import { Poller } from "./poller.js";
import { describeEntry } from "./table/text.js";

const S = document.getElementById("strings").dataset;
const T = document.getElementById("stream-strings").dataset;
const config = JSON.parse(document.getElementById("stream-config").textContent);
const $ = (id) => document.getElementById(id);
const seatName = (s) => S["seat" + s] || s;
const colourName = (c) => (c.length === 2 ? S["area" + c.charAt(0) + c.charAt(1).toLowerCase()] || c : seatName(c));
const epoch = (iso) => Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1")) / 1000;
let shown = { game: undefined, seq: undefined };

function text(node, value) { if (node) node.textContent = value; }

function drawSeats(data) {
  const list = $("stream-seats");
  list.textContent = "";
  data.seats.forEach((seat) => {
    const li = document.createElement("li");
    li.className = "stream-seat" + (seat === data.to_move ? " to-move" : "");
    li.dataset.seat = seat;
    const chip = document.createElement("span");
    chip.className = "seat-chip seat-bg-" + seat;
    chip.textContent = seat;
    const label = document.createElement("span");
    label.className = "stream-seat-name";
    const who = document.createElement("bdi");
    who.textContent = data.players[seat] || "";
    label.appendChild(document.createTextNode(seatName(seat) + ": "));
    label.appendChild(who);
    li.appendChild(chip);
    li.appendChild(label);
    list.appendChild(li);
  });
}

function drawDistance(data) {
  const singles = config.singles;
  ["YB", "RG"].forEach((team) => {
    const row = document.querySelector('.stream-team[data-team="' + team + '"]');
    // The players are named by their seats above; the side's colours are enough here.
    text(row.querySelector('[data-field="name"]'), singles ? seatName(team.charAt(0)) : team === "YB" ? T.teamYb : T.teamRg);
    text(row.querySelector('[data-field="distance"]'), data.distance[team]);
    const bar = row.querySelector('[data-field="bar"]');
    bar.max = data.distance_full || 1;
    bar.value = Math.min(data.distance[team], bar.max);
  });
}

function drawMoves(data) {
  const list = $("stream-moves");
  list.textContent = "";
  data.entries.slice().reverse().forEach((e) => {
    const li = document.createElement("li");
    li.textContent = e.seq + ". " + describeEntry(e.text, e.events, S, colourName);
    if (e.text.charAt(0) === "!") li.className = "judge-entry";
    list.appendChild(li);
  });
}

/* Show ``data`` (the feed's answer); ``ageS``: how long ago it was true on the server. */
export function applyStreamState(data, ageS) {
  const none = !data || !data.game;
  $("stream-none").hidden = !none;
  $("stream-table").hidden = none;
  document.body.dataset.game = none ? "" : String(data.game);
  if (none) {
    text($("stream-title"), "");
    window.PartnersBoard.render($("board"), { board: config.board, position: {}, locked: {} }, {});
    shown = { game: null, seq: null };
    return;
  }
  text($("stream-title"), T.title.replace("{table}", data.table).replace("{round}", data.round));
  if (shown.game !== data.game || shown.seq !== data.seq) {
    window.PartnersBoard.render($("board"), data, {});
    drawMoves(data);
  }
  drawSeats(data);
  drawDistance(data);
  const winner = $("stream-winner");
  winner.hidden = !data.winner;
  if (data.winner) {
    const side = config.singles ? seatName(data.winner.charAt(0)) : data.winner === "YB" ? T.teamYb : T.teamRg;
    text(winner, side + " " + S.won);
  }
  if (window.PartnersClock && data.clock) window.PartnersClock.feed($("stream-clock"), data.clock, ageS || 0);
  shown = { game: data.game, seq: data.seq };
}

window.PartnersStream = { apply: applyStreamState };

applyStreamState(JSON.parse($("stream-initial").textContent), 0);
new Poller({
  url: config.feed_url,
  interval: config.interval_ms,
  credentials: "same-origin",
  onData: (data, info) => {
    const served = isNaN(info.served) ? epoch(data.server_time) : info.served;
    applyStreamState(data, data.clock ? served - epoch(data.server_time) + info.halfTrip : 0);
  }
}).start();
