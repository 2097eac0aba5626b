/* The replay of a finished game: step through its log, position by position.
 *
 * The page embeds every frame the server replayed (games/selectors/replay.py):
 * frame 0 is the start, frame n the game after entry n, with the engine's
 * legal moves for the card played and the player's choice. Buttons, the
 * arrow keys (Home/End) and the slider step; the position is kept in the
 * address (?ply=N), so a link opens the same position. The distance chart
 * is drawn here so that it marks the position shown and a tap on it jumps.
 */
import { describeEntry, judgeMarks } from "./table/text.js";

{
  const S = document.getElementById("strings").dataset;
  const R = document.getElementById("replay-strings").dataset;
  const config = JSON.parse(document.getElementById("replay-config").textContent);
  const frames = config.frames;
  const last = frames.length - 1;
  const singles = config.singles;
  const $ = (id) => document.getElementById(id);
  const NS = "http://www.w3.org/2000/svg";
  const seatName = (s) => S["seat" + s] || s;
  const colourName = (c) => (c.length === 2 ? S["area" + c.charAt(0) + c.charAt(1).toLowerCase()] || c : seatName(c));
  const sideName = (side) => (singles ? seatName(side.charAt(0)) : side === "YB" ? S.yb : S.rg);
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  const words = (frame) => describeEntry(frame.text, frame.events, S, colourName);
  let ply = Math.min(Math.max(config.ply | 0, 0), last);

  function svg(tag, attrs, parent) {
    const node = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach((k) => node.setAttribute(k, attrs[k]));
    if (parent) parent.appendChild(node);
    return node;
  }

  /* The chart of both sides' remaining distance, the position shown marked. */
  const chart = $("distance-chart");
  const W = 320, H = 120, PAD = 6;
  const top = Math.max(1, ...frames.map((f) => Math.max(f.distance.YB, f.distance.RG)));
  const x = (i) => PAD + (last ? (i * (W - 2 * PAD)) / last : 0);
  const y = (d) => H - PAD - (d * (H - 2 * PAD)) / top;
  function drawChart() {
    while (chart.firstChild) chart.removeChild(chart.firstChild);
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "chart-bg" }, chart);
    ["YB", "RG"].forEach((team) => {
      const points = frames.map((f, i) => x(i).toFixed(1) + "," + y(f.distance[team]).toFixed(1)).join(" ");
      svg("polyline", { points: points, class: "chart-line chart-" + team }, chart);
    });
    svg("line", { id: "chart-mark", x1: x(ply), x2: x(ply), y1: 0, y2: H, class: "chart-mark" }, chart);
  }
  chart.addEventListener("click", (event) => {
    const box = chart.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    show(Math.round(((at - PAD) / (W - 2 * PAD)) * last));
  });

  /* The whole log, each entry a link to its position. */
  const log = $("replay-log");
  // Entries a judge voided (or whose ruling was undone) are struck through, as on the table's log.
  const marks = judgeMarks(frames.slice(1).map((f) => ({ seq: f.seq, text: f.text })));
  frames.slice(1).forEach((f, i) => {
    const li = document.createElement("li");
    li.value = i + 1;
    const a = document.createElement("a");
    a.href = "?ply=" + (i + 1);
    const said = i + 1 + ". " + words(f);
    const mark = marks[String(f.seq)];
    if (mark === "void" || mark === "undone") {
      li.classList.add(mark === "void" ? "voided" : "undone");
      const struck = document.createElement("s");
      struck.textContent = said;
      a.appendChild(struck);
    } else a.textContent = said;
    a.addEventListener("click", (event) => { event.preventDefault(); show(i + 1); });
    li.appendChild(a);
    if (f.judge) li.classList.add("judge-entry");
    log.appendChild(li);
  });

  function showChoice(frame) {
    const box = $("ply-choice");
    box.hidden = !frame.seat;
    if (!frame.seat) return;
    const list = $("choice-list");
    list.textContent = "";
    const values = { seat: seatName(frame.seat), card: frame.card, count: frame.legal_count };
    if (!frame.card) {
      $("choice-title").textContent = R.noMove;
      $("choice-more").hidden = true;
      return;
    }
    $("choice-title").textContent = fill(frame.legal_count === 1 ? R.choiceOne : R.choice, values);
    frame.legal.forEach((move) => {
      const li = document.createElement("li");
      li.textContent = describeEntry(frame.seat + " " + move, [], S, colourName).replace(/^[^:]+: /, "");
      const code = document.createElement("code");
      code.textContent = move;
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(code);
      if (move === frame.chosen) {
        li.classList.add("chosen");
        const mark = document.createElement("strong");
        mark.textContent = " ← " + R.chosen;
        li.appendChild(mark);
      }
      list.appendChild(li);
    });
    const more = $("choice-more");
    const notes = [];
    if (frame.legal_count > frame.legal.length) notes.push(fill(R.listed, { listed: frame.legal.length, count: frame.legal_count }));
    if (!frame.chosen_legal) notes.push(R.notLegal);
    more.hidden = !notes.length;
    more.textContent = notes.join(" ");
  }

  function showRulings(frame) {
    const box = $("ply-rulings");
    const rulings = (config.rulings.at || {})[String(frame.seq)] || [];
    box.hidden = !rulings.length;
    box.textContent = "";
    rulings.forEach((r) => {
      const p = document.createElement("p");
      const b = document.createElement("strong");
      b.textContent = R.ruling + ": " + r.label;
      p.appendChild(b);
      if (r.reason) p.appendChild(document.createTextNode(" — " + r.reason));
      box.appendChild(p);
    });
  }

  function show(next) {
    ply = Math.min(Math.max(next | 0, 0), last);
    const frame = frames[ply];
    window.PartnersBoard.render($("board"), { ruleset: config.ruleset, position: frame.position, locked: frame.locked }, {});
    $("ply-label").textContent = ply ? fill(R.entryOf, { n: ply, last: last }) : R.start;
    $("ply-slider").value = String(ply);
    $("ply-first").disabled = $("ply-prev").disabled = ply === 0;
    $("ply-next").disabled = $("ply-last").disabled = ply === last;
    const said = $("ply-words");
    said.textContent = ply ? words(frame) : R.start;
    said.classList.toggle("judge-entry", !!frame.judge);
    showChoice(frame);
    showRulings(frame);
    const turn = $("turn");
    turn.textContent = frame.to_move ? S.toMove + ": " + seatName(frame.to_move) + (config.players[frame.to_move] ? " (\u2068" + config.players[frame.to_move] + "\u2069)" : "") : "";
    $("winner-text").hidden = !frame.winner;
    if (frame.winner) $("winner-text").textContent = sideName(frame.winner) + " " + S.won;
    $("dist-yb").textContent = frame.distance.YB;
    $("dist-rg").textContent = frame.distance.RG;
    const mark = document.getElementById("chart-mark");
    if (mark) { mark.setAttribute("x1", x(ply)); mark.setAttribute("x2", x(ply)); }
    Array.prototype.forEach.call(log.children, (li, i) => {
      const current = i + 1 === ply;
      li.classList.toggle("current", current);
      if (current) li.firstChild.setAttribute("aria-current", "step");
      else li.firstChild.removeAttribute("aria-current");
    });
    // Keep the entry in view inside the log's own box; the page itself stays where it is.
    const current = log.children[ply - 1];
    if (current) {
      const top = current.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
      if (top < log.scrollTop) log.scrollTop = top;
      else if (top + current.offsetHeight > log.scrollTop + log.clientHeight) log.scrollTop = top + current.offsetHeight - log.clientHeight;
    }
    const url = new URL(window.location.href);
    url.searchParams.set("ply", String(ply));
    window.history.replaceState(null, "", url);
  }

  $("ply-first").addEventListener("click", () => show(0));
  $("ply-prev").addEventListener("click", () => show(ply - 1));
  $("ply-next").addEventListener("click", () => show(ply + 1));
  $("ply-last").addEventListener("click", () => show(last));
  $("ply-slider").addEventListener("input", (event) => show(Number(event.target.value)));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // The slider steps by itself with these keys (and says so to a screen reader).
    if (((event.target && event.target.tagName) || "") === "INPUT") return;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  // Partners DUO: the sides are the two players.
  $("side-yb").textContent = sideName("YB");
  $("side-rg").textContent = sideName("RG");
  drawChart();
  show(ply);
}
