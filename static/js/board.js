/* The Partners board as SVG, drawn from a position (NOTATION.md) — no inline styles (CSP).
 *
 * Ring of 60 places clockwise: YS Y1..Y14 RS R1..R14 BS B1..B14 GS G1..G14.
 * Goal circles XM4..XM1 run inward before each start field; start circles
 * (home) sit inside the ring after it. window.PartnersBoard.render(svg, state, opts):
 * opts.selected (locations ringed), opts.hints (locations whose pawns may be
 * tapped next, ringed lightly), opts.onTap(loc).
 */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var SEATS = ["Y", "R", "B", "G"];
  var R_RING = 44;
  var FIELD_R = 2.05;

  function angleOf(index) { return Math.PI + (index * 2 * Math.PI) / 60; }
  function polar(r, a) { return [r * Math.cos(a), r * Math.sin(a)]; }

  var COORDS = {};
  SEATS.forEach(function (s, c) {
    COORDS[s + "S"] = polar(R_RING, angleOf(c * 15));
    for (var k = 1; k <= 14; k++) COORDS[s + k] = polar(R_RING, angleOf(c * 15 + k));
    var ga = angleOf(c * 15 - 0.5);
    for (var m = 4; m >= 1; m--) COORDS[s + "M" + m] = polar(R_RING - 5.5 - (4 - m) * 5, ga);
    var ha = angleOf(c * 15 + 3.5);
    COORDS[s + "H"] = polar(R_RING - 11, ha);
  });
  var HOME_OFFSETS = [[-1.9, -1.9], [1.9, -1.9], [-1.9, 1.9], [1.9, 1.9]];

  function el(name, attrs, parent) {
    var node = document.createElementNS(NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function place(svg, loc, cls, label, r) {
    var p = COORDS[loc];
    var g = el("g", { "class": "place " + cls, "data-loc": loc }, svg);
    el("circle", { cx: p[0].toFixed(2), cy: p[1].toFixed(2), r: r || FIELD_R }, g);
    if (label) {
      var t = el("text", { x: p[0].toFixed(2), y: (p[1] + 0.8).toFixed(2), "class": "num" }, g);
      t.textContent = label;
    }
    el("title", {}, g).textContent = loc;
    return g;
  }

  function render(svg, state, opts) {
    opts = opts || {};
    var selected = opts.selected || [];
    var hints = opts.hints || [];
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    el("circle", { cx: 0, cy: 0, r: R_RING, "class": "ring" }, svg);
    SEATS.forEach(function (s) {
      place(svg, s + "S", "start seat-bg-" + s, "S", 2.5);
      for (var k = 1; k <= 14; k++) place(svg, s + k, "field", String(k));
      for (var m = 1; m <= 4; m++) place(svg, s + "M" + m, "goal seat-ring-" + s, "", 1.9);
      place(svg, s + "H", "home seat-ring-" + s, "", 4.6);
    });
    var position = (state && state.position) || {};
    var locked = (state && state.locked) || {};
    SEATS.forEach(function (s) {
      var pawns = position[s] || [];
      var homeN = 0;
      var seen = {};
      pawns.forEach(function (loc) {
        var p = COORDS[loc];
        if (!p) return;
        var x = p[0], y = p[1];
        if (loc === s + "H") { x += HOME_OFFSETS[homeN][0]; y += HOME_OFFSETS[homeN][1]; homeN++; }
        else if (seen[loc]) { x += 0.9 * seen[loc]; y -= 0.9 * seen[loc]; }
        seen[loc] = (seen[loc] || 0) + 1;
        var isLocked = (locked[s] || []).indexOf(loc) >= 0;
        var cls = "pawn seat-fill-" + s + (isLocked ? " locked" : "");
        if (selected.indexOf(loc) >= 0) cls += " selected";
        else if (hints.indexOf(loc) >= 0) cls += " hint";
        var g = el("g", { "class": cls, "data-loc": loc }, svg);
        el("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: 1.6 }, g);
        el("title", {}, g).textContent = loc + (isLocked ? " 🔒" : "");
      });
    });
    selected.forEach(function (loc) {
      if (!COORDS[loc]) return;
      el("circle", { cx: COORDS[loc][0].toFixed(2), cy: COORDS[loc][1].toFixed(2), r: 3.2, "class": "sel-ring" }, svg);
    });
    hints.forEach(function (loc) {
      if (!COORDS[loc] || selected.indexOf(loc) >= 0) return;
      el("circle", { cx: COORDS[loc][0].toFixed(2), cy: COORDS[loc][1].toFixed(2), r: 2.9, "class": "hint-ring" }, svg);
    });
    if (opts.onTap && !svg.dataset.bound) {
      svg.dataset.bound = "1";
      svg.addEventListener("click", function (ev) {
        var node = ev.target.closest ? ev.target.closest("[data-loc]") : null;
        if (node && svg.__onTap) svg.__onTap(node.getAttribute("data-loc"));
      });
    }
    svg.__onTap = opts.onTap || null;
  }

  window.PartnersBoard = { render: render, coords: COORDS };
})();
