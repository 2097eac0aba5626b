() => {
  // WCAG AA: every visible text against what is behind it (4.5:1; 3:1 when
  // large), and the board's texts (field numbers, pawn letters) on their circles.
  const parse = (c) => {
    const m = (c.match(/[\d.]+/g) || []).map(Number);
    if (m.length < 3) return null; // "none"
    return m.length > 3 && m[3] === 0 ? null : m.slice(0, 3);
  };
  const lum = (rgb) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = (node) => {
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const bg = parse(getComputedStyle(n).backgroundColor);
      if (bg) return bg;
    }
    return [255, 255, 255];
  };
  const visible = (n) => {
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility !== "hidden";
  };
  const bad = [];
  document.querySelectorAll("body *:not(script):not(style):not(svg *)").forEach((n) => {
    const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own || !visible(n) || n.closest("[hidden]") || n.disabled) return;
    const s = getComputedStyle(n);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    const r = ratio(parse(s.color), background(n));
    if (r < (large ? 3 : 4.5)) bad.push(`${n.textContent.trim().slice(0, 30)} ${r.toFixed(2)}`);
  });
  document.querySelectorAll("#board text").forEach((t) => {
    // Behind a letter: a DUO hole pawn's hole, else its pawn or place; else the page.
    const g = t.parentElement;
    const shape = g.querySelector(":scope > .hole") || g.querySelector(":scope > circle, :scope > rect");
    const behind = (shape && parse(getComputedStyle(shape).fill)) || background(t.closest("svg"));
    const r = ratio(parse(getComputedStyle(t).fill), behind);
    if (r < 4.5) bad.push(`board ${t.textContent} ${r.toFixed(2)}`);
  });
  return [...new Set(bad)];
}
