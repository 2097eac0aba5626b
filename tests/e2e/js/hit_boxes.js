() => {
  // Around every target of the board (pawns, start circles, start fields),
  // the 40x40 CSS px box: a tap anywhere in it must reach a target, and never
  // one whose drawing is farther than this one's.
  const svg = document.getElementById("board");
  const pawns = [...svg.querySelectorAll(".pawn")].map((p) => p.dataset.loc);
  // The start circles and start fields of every colour drawn (seats, or DUO's areas).
  const starts = [...svg.querySelectorAll(".place.home, .place.start")].map((p) => p.dataset.loc);
  const targets = [...new Set(pawns.concat(starts))];
  const centreOf = (loc) => {
    const b = svg.querySelector(`.place[data-loc="${loc}"] circle`).getBoundingClientRect();
    return [b.x + b.width / 2, b.y + b.height / 2, b.width / 2];
  };
  const gap = (loc, x, y) => {
    const [cx, cy, r] = centreOf(loc);
    return Math.max(0, Math.hypot(x - cx, y - cy) - r);
  };
  let isolated = 0;
  const problems = [];
  for (const loc of targets) {
    const [cx, cy] = centreOf(loc);
    let all = true;
    for (const dx of [-20, 0, 20]) {
      for (const dy of [-20, 0, 20]) {
        const [x, y] = [cx + dx, cy + dy];
        const got = window.PartnersBoard.nearest(svg, x, y, targets, [], 24);
        if (got === null) problems.push(`${loc} ${dx},${dy}: nothing`);
        else if (gap(got, x, y) > gap(loc, x, y) + 0.5) problems.push(`${loc} ${dx},${dy}: ${got}`);
        if (got !== loc) all = false;
      }
    }
    if (all) isolated += 1;
  }
  return { targets: targets.length, isolated, problems };
}
