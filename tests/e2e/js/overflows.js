() => {
  // What sticks out of the page at this size, as readable lines
  // (tests/e2e/test_public_pages_fit_a_phone.py says what counts).
  const width = document.documentElement.clientWidth;
  const found = [];
  const sticking = new Set();
  const name = (el) => {
    const classes = typeof el.className === 'string' ? el.className.trim().split(/\s+/) : [];
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + classes.map((c) => c && '.' + c).join('');
  };
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const scroller = (el) => {
    const style = getComputedStyle(el);
    return ['auto', 'scroll'].includes(style.overflowX)
      && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'));
  };
  if (document.documentElement.scrollWidth > width) {
    found.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  }
  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el)) continue;
    let inScroller = false;
    for (let up = el.parentElement; up && !inScroller; up = up.parentElement) inScroller = scroller(up);
    if (inScroller) continue;
    const box = el.getBoundingClientRect();
    const outer = ![...sticking].some((out) => out.contains(el));
    if (box.right > width + 1 && getComputedStyle(el).position !== 'fixed' && outer) {
      sticking.add(el);
      found.push(`${name(el)} ends at ${Math.round(box.right)}px`);
    }
    const style = getComputedStyle(el);
    if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
      found.push(`${name(el)} is cut off: "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  for (const el of document.body.querySelectorAll('table, pre, svg, img')) {
    if (!shown(el)) continue;
    for (let box = el; box && box !== document.body; box = box.parentElement) {
      if (box.scrollWidth > box.clientWidth + 1 && !(box instanceof SVGElement)) {
        const sizes = `${box.scrollWidth} > ${box.clientWidth}px`;
        if (!scroller(box)) found.push(`${name(el)} overflows ${name(box)} (${sizes})`);
        break;
      }
    }
  }
  return [...new Set(found)].slice(0, 8);
}
