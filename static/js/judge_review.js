/* Judge review page: draws the board of the replay step (data from a
 * json_script block; no inline script or style, CSP-safe). Moved pawns and
 * hit pawns of the entry are ringed. Stepping is plain links (?at=n).
 */
(function () {
  "use strict";
  var node = document.getElementById("review-board-data");
  var svg = document.getElementById("review-board");
  if (!node || !svg || !window.PartnersBoard) return;
  var data = JSON.parse(node.textContent);
  window.PartnersBoard.render(svg, data, { selected: data.highlight || [] });
})();
