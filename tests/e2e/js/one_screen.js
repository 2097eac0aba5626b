() => {
  // Is the table device on one screen? No scroll, its parts inside the
  // viewport, no button of the entry smaller than 40x40 CSS px.
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const inside = (node) => {
    const b = node.getBoundingClientRect();
    return b.width > 0 && b.top >= -0.5 && b.left >= -0.5 && b.bottom <= vh + 0.5 && b.right <= vw + 0.5;
  };
  const small = [];
  const buttons = "#cards button, #seven-steps button, #candidates button, .action-row button";
  document.querySelectorAll(buttons).forEach((b) => {
    const r = b.getBoundingClientRect();
    if (r.width && (r.width < 40 || r.height < 40)) small.push(`${b.textContent} ${r.width}x${r.height}`);
  });
  const doc = document.scrollingElement;
  return {
    scroll: window.scrollY,
    overflows: doc.scrollHeight > vh + 1 || doc.scrollWidth > vw + 1,
    cards: inside(document.getElementById("cards")),
    confirm: inside(document.getElementById("confirm-move")),
    board: inside(document.getElementById("board")),
    turn: inside(document.getElementById("turn")),
    small,
  };
}
