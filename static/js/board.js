/* The Partners board as SVG, drawn from a position (NOTATION.md) — no inline styles (CSP).
 *
 * Ring of 60 places clockwise: YS Y1..Y14 RS R1..R14 BS B1..B14 GS G1..G14.
 * Goal circles XM4..XM1 run inward before each start field; start circles
 * (home) sit inside the ring after it. Every pawn carries its seat's letter,
 * so colour is never the only cue.
 *
 * Partners DUO (docs/rulesets/duo.md B1-B3) is the same ring with four home
 * areas YK RK YO RO in the seats' quarters (codes YKS, YK1..YK14, YKM3..YKM1,
 * YKH), three goal circles each and two colours: a knob pawn (K) is round, a
 * hole pawn (O) square with a hole, and every pawn carries its player's
 * letter, so neither colour nor shape is the only cue. A DUO state is told by
 * its ruleset or by its position's keys.
 *
 * window.PartnersBoard.render(svg, state, opts):
 *   opts.selected    locations ringed (the pawns picked)
 *   opts.hints       locations whose pawns may be tapped next, ringed lightly
 *   opts.provisional locations of pawns placed by entries not yet stored (dashed)
 *   opts.rotate      degrees to turn the board (a seat towards the viewer);
 *                    texts stay upright
 *   opts.marks       the move previewed before it is confirmed (boardMarks in
 *                    static/js/table/text.js): {moves: [{from, to, colour}],
 *                    hits: [{loc, colour}], swaps: [loc]}. Each moved pawn is
 *                    drawn again at its landing field (a ghost pawn in a solid
 *                    ring, .land-mark) with an arrow from where it stands; a
 *                    pawn knocked home is crossed out (.hit-mark, an X), moved
 *                    out beside its field when a pawn lands there; a swapped
 *                    pawn is framed by a diamond (.swap-mark). Shapes and
 *                    letters, so colour is never the only cue.
 *   opts.onTap(loc)  a tap on a place or pawn
 *   opts.targets     with onTap: hit-test instead — a tap goes to the nearest
 *                    of these locations within opts.reach CSS px (default 24)
 *                    of its drawing, preferring opts.preferred ones; so a
 *                    target is far larger than its 15 px drawing
 * window.PartnersBoard.rotationFor(seat): the rotation that puts ``seat``'s
 *   start circle at the bottom (DUO: the player's knob area, YK or RK).
 * window.PartnersBoard.areasOf(state): the colours (seats, or DUO areas) of a
 *   state's position, in board order.
 *
 * A classic script without import/export, so it also loads as a module (the
 * table device imports it; the live view, hall and review load it plainly).
 */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var SEATS = ["Y", "R", "B", "G"];
  var AREAS = ["YK", "RK", "YO", "RO"];  // DUO: in the seats' quarters, clockwise (B1)
  var R_RING = 44;
  var FIELD_R = 2.05;
  var RADIUS = { home: 4.6, start: 2.5, goal: 1.9, field: FIELD_R };

  function angleOf(index) { return Math.PI + (index * 2 * Math.PI) / 60; }
  function polar(r, a) { return [r * Math.cos(a), r * Math.sin(a)]; }

  var COORDS = {};
  var KIND = {};
  SEATS.forEach(function (s, c) {
    COORDS[s + "S"] = polar(R_RING, angleOf(c * 15));
    KIND[s + "S"] = "start";
    for (var k = 1; k <= 14; k++) {
      COORDS[s + k] = polar(R_RING, angleOf(c * 15 + k));
      KIND[s + k] = "field";
    }
    var ga = angleOf(c * 15 - 0.5);
    for (var m = 4; m >= 1; m--) {
      COORDS[s + "M" + m] = polar(R_RING - 5.5 - (4 - m) * 5, ga);
      KIND[s + "M" + m] = "goal";
    }
    COORDS[s + "H"] = polar(R_RING - 11, angleOf(c * 15 + 3.5));
    KIND[s + "H"] = "home";
    // The printed rulebook's own 15: the same space as XS for X's pawns arriving
    // before House, drawn just inside it (docs/rulesets/rulebook.md B6).
    COORDS[s + "15"] = polar(R_RING - 4.6, angleOf(c * 15 - 0.2));
    KIND[s + "15"] = "field";
  });
  // DUO: the same places under the areas' codes; three goal circles (M3 outermost).
  AREAS.forEach(function (a, c) {
    var s = SEATS[c];
    ["S", "H"].concat(range(1, 14), ["M1", "M2", "M3"]).forEach(function (k) {
      COORDS[a + k] = COORDS[s + k];
      KIND[a + k] = KIND[s + k];
    });
  });
  var LABEL_AT = AREAS.map(function (a, c) { return polar(R_RING - 18.5, angleOf(c * 15 + 3.5)); });

  function range(from, to) {
    var out = [];
    for (var k = from; k <= to; k++) out.push(k);
    return out;
  }

  /* The DUO board: a page names the ruleset's board (its facts), else the
   * position's colours tell (a DUO position has the areas YK RK YO RO). */
  function isDuo(state) {
    if (!state) return false;
    if (state.board) return state.board === "duo";
    return !!(state.position && state.position.YK);
  }

  function areasOf(state) { return isDuo(state) ? AREAS.slice() : SEATS.slice(); }

  /* DUO pawns locked in an area: on M1, M2, … up to the first empty circle (F1). */
  function duoLocked(pawns, area) {
    var out = [];
    for (var m = 1; m <= 3 && pawns.indexOf(area + "M" + m) >= 0; m++) out.push(area + "M" + m);
    return out;
  }
  var HOME_OFFSETS = [[-1.9, -1.9], [1.9, -1.9], [-1.9, 1.9], [1.9, 1.9]];

  function rotationFor(seat) {
    var c = SEATS.indexOf(seat);
    if (c < 0) return 0;
    // The start circle's angle (degrees, clockwise from the right) to 90° (down).
    var deg = 90 - (180 + (c * 15 + 3.5) * 6);
    return ((deg % 360) + 360) % 360;
  }

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function label(parent, x, y, text, cls, rotate) {
    var attrs = { x: x.toFixed(2), y: (y + 0.8).toFixed(2), "class": cls };
    if (rotate) attrs.transform = "rotate(" + (-rotate) + " " + x.toFixed(2) + " " + y.toFixed(2) + ")";
    el("text", attrs, parent).textContent = text;
  }

  function place(svg, loc, cls, text, r, rotate) {
    var p = COORDS[loc];
    var g = el("g", { "class": "place " + cls, "data-loc": loc }, svg);
    el("circle", { cx: p[0].toFixed(2), cy: p[1].toFixed(2), r: r || FIELD_R }, g);
    if (text) label(g, p[0], p[1], text, "num", rotate);
    el("title", {}, g).textContent = loc;
    return g;
  }

  /* A pawn: its body in its colour (DUO hole pawns square with a hole) and, with
     ``letter``, its player's letter (upright however the board turns). */
  function pawnShape(g, x, y, colour, duo, letter, rotate) {
    if (duo && colour.charAt(1) === "O") {
      // A hole pawn: square (turning with the board, so pawns side by side never overlap),
      // with a light hole that carries the letter.
      el("rect", { x: (x - 1.7).toFixed(2), y: (y - 1.7).toFixed(2), width: 3.4, height: 3.4, rx: 0.5, "class": "body" }, g);
      el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: 1.2, "class": "hole" }, g);
    } else {
      el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: 1.6, "class": "body" }, g);
    }
    if (letter) label(g, x, y - 0.05, duo ? colour.charAt(0) : colour, "pawn-letter", rotate);
  }

  /* A point moved ``by`` board units away from the centre (out of the ring). */
  function outward(x, y, by) {
    var r = Math.hypot(x, y) || 1;
    return [x * (r + by) / r, y * (r + by) / r];
  }

  /* Is the pawn of ``colour`` on ``loc`` knocked home by the move previewed? Once per pawn. */
  function hitAt(marks, loc, colour) {
    if (!marks) return false;
    for (var i = 0; i < marks.hits.length; i++) {
      var h = marks.hits[i];
      if (h.loc === loc && h.colour === colour && !h.drawn) { h.drawn = true; return true; }
    }
    return false;
  }

  /* The preview of a move on top of the pawns: arrows, ghost pawns at the
     landing fields, crosses on the pawns knocked home, diamonds on swapped pawns. */
  function drawMarks(root, marks, hitMarks, duo, rotate, letters) {
    if (!marks) return;
    var layer = el("g", { "class": "preview-marks" }, root);
    marks.moves.forEach(function (m) {
      var a = COORDS[m.from], b = COORDS[m.to];
      if (!a || !b) return;
      var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
      var end = Math.max(0, len - 3.3) / len;
      var start = Math.min(len, 2.2) / len;
      el("line", {
        x1: (a[0] + dx * start).toFixed(2), y1: (a[1] + dy * start).toFixed(2),
        x2: (a[0] + dx * end).toFixed(2), y2: (a[1] + dy * end).toFixed(2),
        "class": "move-arrow", "data-from": m.from, "data-to": m.to, "marker-end": "url(#arrow-head)",
      }, layer);
    });
    marks.swaps.forEach(function (loc) {
      var p = COORDS[loc];
      if (!p) return;
      var g = el("g", { "class": "swap-mark", "data-loc": loc }, layer);
      var d = 3.6;
      el("path", {
        d: "M" + (p[0] - d).toFixed(2) + " " + p[1].toFixed(2) + " L" + p[0].toFixed(2) + " " + (p[1] - d).toFixed(2) +
          " L" + (p[0] + d).toFixed(2) + " " + p[1].toFixed(2) + " L" + p[0].toFixed(2) + " " + (p[1] + d).toFixed(2) + " Z",
      }, g);
      el("title", {}, g).textContent = loc + " ⇄";
    });
    marks.moves.forEach(function (m) {
      var p = COORDS[m.to];
      if (!p) return;
      var g = el("g", { "class": "land-mark seat-fill-" + m.colour.charAt(0) + (duo ? " duo-" + m.colour.charAt(1) : ""),
        "data-loc": m.to, "data-from": m.from }, layer);
      el("circle", { cx: p[0].toFixed(2), cy: p[1].toFixed(2), r: 2.75, "class": "land-ring" }, g);
      pawnShape(g, p[0], p[1], m.colour, duo, duo || letters, rotate);
      el("title", {}, g).textContent = m.from + " → " + m.to;
    });
    hitMarks.forEach(function (h) {
      // An X over the pawn, upright however the board turns, open in the middle so its letter stays readable.
      var g = el("g", { "class": "hit-mark", "data-loc": h.loc, "data-colour": h.colour,
        transform: "rotate(" + (-rotate) + " " + h.x.toFixed(2) + " " + h.y.toFixed(2) + ")" }, layer);
      var inner = 0.95, outer = 2.35;
      [[1, 1], [1, -1], [-1, 1], [-1, -1]].forEach(function (d) {
        var attrs = {
          x1: (h.x + d[0] * inner).toFixed(2), y1: (h.y + d[1] * inner).toFixed(2),
          x2: (h.x + d[0] * outer).toFixed(2), y2: (h.y + d[1] * outer).toFixed(2),
        };
        el("line", Object.assign({ "class": "hit-halo" }, attrs), g);
      });
      [[1, 1], [1, -1], [-1, 1], [-1, -1]].forEach(function (d) {
        el("line", {
          x1: (h.x + d[0] * inner).toFixed(2), y1: (h.y + d[1] * inner).toFixed(2),
          x2: (h.x + d[0] * outer).toFixed(2), y2: (h.y + d[1] * outer).toFixed(2), "class": "hit-cross",
        }, g);
      });
      el("title", {}, g).textContent = h.loc + " ✕";
    });
  }

  function defs(svg) {
    var d = el("defs", {}, svg);
    var m = el("marker", {
      id: "arrow-head", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2,
      orient: "auto-start-reverse", markerUnits: "strokeWidth",
    }, d);
    el("path", { d: "M0 0 L10 5 L0 10 Z", "class": "arrow-head" }, m);
  }

  function render(svg, state, opts) {
    opts = opts || {};
    var selected = opts.selected || [];
    var hints = opts.hints || [];
    var provisional = opts.provisional || [];
    var rotate = opts.rotate || 0;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (opts.marks) defs(svg);
    var root = el("g", { "class": "board-root", transform: "rotate(" + rotate + ")" }, svg);
    el("circle", { cx: 0, cy: 0, r: R_RING, "class": "ring" }, root);
    var rulebook = !!(state && state.ruleset === "rulebook");
    var duo = isDuo(state);
    var colours = areasOf(state);
    colours.forEach(function (s, c) {
      var tint = duo ? s.charAt(0) : s;  // DUO: the player's colour
      // The rulebook counts the start space: 0 for its owner (B6), 0/15 for the others.
      place(root, s + "S", "start seat-bg-" + tint, rulebook ? "0" : "S", RADIUS.start, rotate);
      if (rulebook) place(root, s + "15", "field own-15", "15", FIELD_R, rotate);
      for (var k = 1; k <= 14; k++) place(root, s + k, "field", String(k), FIELD_R, rotate);
      for (var m = 1; m <= (duo ? 3 : 4); m++) place(root, s + "M" + m, "goal seat-ring-" + tint, "", RADIUS.goal, rotate);
      place(root, s + "H", "home seat-ring-" + tint, "", RADIUS.home, rotate);
      if (duo) label(root, LABEL_AT[c][0], LABEL_AT[c][1], s, "area-label", rotate);
    });
    var position = (state && state.position) || {};
    var locked = (state && state.locked) || {};
    var marks = opts.marks || null;
    var landed = {};
    if (marks) marks.moves.forEach(function (m) { landed[m.to] = true; });
    var hitMarks = [];
    colours.forEach(function (s) {
      var pawns = position[s] || [];
      var lockedHere = duo ? duoLocked(pawns, s) : (locked[s] || []);
      var player = s.charAt(0);
      var homeN = 0;
      var seen = {};
      pawns.forEach(function (loc) {
        var p = COORDS[loc];
        if (!p) return;
        var x = p[0], y = p[1];
        if (loc === s + "H") { x += HOME_OFFSETS[homeN][0]; y += HOME_OFFSETS[homeN][1]; homeN++; }
        else if (seen[loc]) { x += 0.9 * seen[loc]; y -= 0.9 * seen[loc]; }
        seen[loc] = (seen[loc] || 0) + 1;
        var isLocked = lockedHere.indexOf(loc) >= 0;
        var hit = hitAt(marks, loc, s);
        if (hit && landed[loc]) {
          // A pawn lands where this one is knocked home from: this one steps out beside its field.
          var out = outward(x, y, 5);
          x = out[0]; y = out[1];
        }
        var cls = "pawn seat-fill-" + player + (isLocked ? " locked" : "") + (duo ? " duo-" + s.charAt(1) : "");
        if (selected.indexOf(loc) >= 0) cls += " selected";
        else if (hints.indexOf(loc) >= 0) cls += " hint";
        if (provisional.indexOf(loc) >= 0) cls += " provisional";
        if (hit) cls += " is-hit";
        var g = el("g", { "class": cls, "data-loc": loc }, root);
        pawnShape(g, x, y, s, duo, duo || opts.letters, rotate);
        el("title", {}, g).textContent = loc + (isLocked ? " 🔒" : "");
        if (hit) hitMarks.push({ loc: loc, colour: s, x: x, y: y });
      });
    });
    drawMarks(root, marks, hitMarks, duo, rotate, opts.letters);
    selected.forEach(function (loc) {
      if (!COORDS[loc]) return;
      el("circle", { cx: COORDS[loc][0].toFixed(2), cy: COORDS[loc][1].toFixed(2), r: 3.2, "class": "sel-ring" }, root);
    });
    hints.forEach(function (loc) {
      if (!COORDS[loc] || selected.indexOf(loc) >= 0) return;
      el("circle", { cx: COORDS[loc][0].toFixed(2), cy: COORDS[loc][1].toFixed(2), r: 2.9, "class": "hint-ring" }, root);
    });
    svg.__board = { root: root, opts: opts };
    if (opts.onTap && !svg.dataset.bound) {
      svg.dataset.bound = "1";
      svg.addEventListener("click", function (ev) { tapped(svg, ev); });
    }
  }

  function tapped(svg, ev) {
    var board = svg.__board;
    if (!board || !board.opts.onTap) return;
    var opts = board.opts;
    var loc = null;
    if (opts.targets) {
      loc = nearest(svg, ev.clientX, ev.clientY, opts.targets, opts.preferred || [], opts.reach || 24);
    } else {
      var node = ev.target.closest ? ev.target.closest("[data-loc]") : null;
      loc = node ? node.getAttribute("data-loc") : null;
    }
    if (loc) opts.onTap(loc);
  }

  /* The target nearest to a tap, within ``reach`` CSS px of the edge of its
     drawing (a preferred target wins a near tie), or null. */
  function nearest(svg, clientX, clientY, targets, preferred, reach) {
    var board = svg.__board;
    var ctm = board && board.root.getScreenCTM();
    if (!ctm) return null;
    var pt = svg.createSVGPoint();
    pt.x = clientX;
    pt.y = clientY;
    var at = pt.matrixTransform(ctm.inverse());
    var scale = Math.sqrt(ctm.a * ctm.a + ctm.b * ctm.b);  // CSS px per board unit
    var best = null, bestScore = Infinity;
    targets.forEach(function (loc) {
      var p = COORDS[loc];
      if (!p) return;
      var gap = Math.max(0, Math.hypot(at.x - p[0], at.y - p[1]) - RADIUS[KIND[loc]]) * scale;
      if (gap > reach) return;
      var score = gap - (preferred.indexOf(loc) >= 0 ? 8 : 0);
      if (score < bestScore) { best = loc; bestScore = score; }
    });
    return best;
  }

  window.PartnersBoard = {
    render: render, coords: COORDS, rotationFor: rotationFor, nearest: nearest, areasOf: areasOf, isDuo: isDuo,
  };
})();
