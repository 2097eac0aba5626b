/* Entry texts on the table device: tidying what was typed, effects, judge marks. */

import { CARDS } from "./rules.js";

export { CARDS, SEATS } from "./rules.js";

/* What a player typed, in the notation's spacing and case ("7: b5+3 g11+4" → "7: B5+3 G11+4"). */
export function tidy(text) {
  return text.trim().replace(/\s+/g, " ").replace(/\s*:\s*/, ": ").replace(/\s*<>\s*/g, "<>")
    .toUpperCase().replace(": IN", ": in");
}

/* "R 5: R3+5" → {seat: "R", rest: "5: R3+5"}; without a seat, seat is null. */
export function splitSeat(text) {
  const m = /^([YRBG]) (.*)$/.exec(text);
  return m ? { seat: m[1], rest: m[2] } : { seat: null, rest: text };
}

/* The cards shown in a discard, in card order: "X: 2 9 5" → "X: 2 5 9". */
export function discardText(cards) {
  return "X: " + cards.slice().sort((a, b) => CARDS.indexOf(a) - CARDS.indexOf(b)).join(" ");
}

/* Locations a move starts from ("7: B5+3 G11+4" → ["B5", "G11"]; "J: Y3<>R10" → both; DUO "9: YK3<>RO7"). */
export function movedFrom(move) {
  const body = move.split(": ")[1] || "";
  if (body === "in" || body.startsWith("in ")) return []; // "11: in", DUO "1: in YK"
  return body.split(/<>| /).map((part) => part.replace(/[+-]\d+(>[A-Z0-9]+)?$/, ""));
}

/* Effect string (docs/move-log.md): "Y3>Y8 Y8>RH hR@Y8 lY@YM1 wYB". */
export function parseEffect(text) {
  const eff = { moves: [], events: [], winner: null };
  (text || "").split(" ").filter(Boolean).forEach((t) => {
    if (t.indexOf(">") > 0) {
      const [from, to] = t.split(">");
      eff.moves.push({ from, to });
    } else if (t.charAt(0) === "w") {
      eff.winner = t.slice(1);
    } else {
      const [colour, at] = t.slice(1).split("@");
      eff.events.push({ type: t.charAt(0) === "h" ? "hit" : "lock", colour, at });
    }
  });
  return eff;
}

/* Entry number → "void", "kept" or "undone" from the judge entries
   (docs/judging.md; the engine's entry_marks). */
export function judgeMarks(entries) {
  const undone = new Set();
  entries.forEach((e) => {
    const m = /^! UNDO ([\d ]+)$/.exec(e.text);
    if (m) m[1].split(" ").forEach((n) => undone.add(Number(n)));
  });
  const marks = {};
  entries.forEach((e) => {
    if (undone.has(e.seq)) return;
    const m = /^! VOID ([\d ]+?)(?: KEEP ([\d ]+))?$/.exec(e.text);
    if (!m) return;
    (m[2] || "").split(" ").filter(Boolean).forEach((n) => { if (marks[n] !== "void") marks[n] = "kept"; });
    m[1].split(" ").forEach((n) => { marks[n] = "void"; });
  });
  undone.forEach((n) => { marks[n] = "undone"; });
  return marks;
}

/* What the board draws of a move before it is confirmed (board.js opts.marks),
   from its effect string: every moved pawn with its landing field and colour,
   every pawn knocked home (it ends on a start circle it did not start on),
   and with a swap (``move`` names "A<>B") both pawns swapped.
   ``colours`` are the position's colours (seats, or DUO areas). */
export function boardMarks(effect, move, position, colours) {
  const marks = { moves: [], hits: [], swaps: [] };
  const colourAt = (loc) => colours.find((c) => (position[c] || []).includes(loc)) || loc.replace(/(S|H|\d+|M\d)$/, "");
  const swap = (move || "").indexOf("<>") > 0;
  let moved = parseEffect(effect).moves;
  if (swap && moved.length < 2) {
    // Two pawns of one colour swapped leave the colour's places as they were: the move says which.
    const [a, b] = movedFrom(move);
    moved = [{ from: a, to: b }, { from: b, to: a }];
  }
  moved.forEach((mv) => {
    const colour = colourAt(mv.from);
    if (/H$/.test(mv.to) && !/H$/.test(mv.from)) marks.hits.push({ loc: mv.from, colour });
    else {
      marks.moves.push({ from: mv.from, to: mv.to, colour });
      if (swap) marks.swaps.push(mv.from);
    }
  });
  return marks;
}

/* The server's preview answer ({changes: [{colour, from, to}]}) as an effect
   string, pairing the pawns of a colour in order. */
export function serverEffect(answer) {
  const tokens = [];
  (answer.changes || []).forEach((c) => {
    c.from.forEach((from, i) => { if (c.to[i]) tokens.push(from + ">" + c.to[i]); });
  });
  return tokens.join(" ");
}

/* A judge entry in words, as the printed game record says it (printing/timeline.py):
   "! VOID 12 13 KEEP 14" → "Entries voided: 12, 13; kept without moving: 14",
   "! RESULT RG TIME" → "Decided on time: Red/Green wins". ``W`` the page's strings
   (templates/games/_strings.html), ``name`` names a seat or DUO area. An entry it
   cannot read: null (the caller shows the notation). */
export function describeJudgeEntry(text, W, name) {
  const m = /^! ?([A-Z][A-Z0-9]*)((?: \S+)*)$/.exec((text || "").trim());
  if (!m) return null;
  const kind = m[1];
  const args = m[2].split(" ").filter(Boolean);
  const fill = (template, values) => Object.keys(values).reduce((t, k) => t.split("{" + k + "}").join(values[k]), template || "");
  const list = (xs) => xs.join(", ");
  const seat = args[0] ? name(args[0]) : "";
  if (kind === "UPHOLD" && args.length) return fill(W.judgeUphold, { number: args[0] });
  if (kind === "VOID" && args.length) {
    const k = args.indexOf("KEEP");
    const said = fill(W.judgeVoid, { numbers: list(k < 0 ? args : args.slice(0, k)) });
    return k < 0 ? said : said + "; " + fill(W.judgeKeep, { numbers: list(args.slice(k + 1)) });
  }
  if (kind === "SET") return W.judgeSet || null;
  if (kind === "P1" && seat) return fill(W.judgeP1, { seat });
  if (kind === "P2" && args.length === 2) return fill(W.judgeP2, { seat, field: args[1] });
  if ((kind === "P3" || kind === "P4") && seat) {
    const said = fill(W.judgePenalty, { penalty: kind, seat });
    return args.length > 1 ? said + "; " + fill(W.judgeForced, { move: args.slice(1).join(" ") }) : said;
  }
  if (kind === "WARN" && seat) return fill(W.judgeWarn, { seat });
  if (kind === "UNDO" && args.length) return fill(W.judgeUndo, { numbers: list(args) });
  if (kind === "RESULT" && args.length) {
    const team = args[0].length === 2 ? W[args[0].toLowerCase()] || args[0] : name(args[0]);
    return fill(args[1] === "TIME" ? W.judgeTime : W.judgeAward, { team });
  }
  return null;
}

/* An entry in words for people who do not read the notation (the public live view):
   "B 8: in" → "Blue plays 8: a new pawn enters on the start field";
   "R X: 1 3 7" → "Red discards the hand: 1, 3, 7". ``events`` are the entry's
   hits and locks ({type, colour, at}); ``W`` the page's strings (templates/games/_strings.html)
   and ``name`` names a seat or DUO area. Judge entries in words too; anything unknown stays as written. */
export function describeEntry(text, events, W, name) {
  const m = /^([YRBG]) ([^:]+): ?(.*)$/.exec(text || "");
  if (!m) {
    if ((text || "").charAt(0) !== "!") return text;
    return W.judgeEntry + ": " + (describeJudgeEntry(text, W, name) || text.slice(1).trim());
  }
  const [, seat, card, body] = m;
  if (card === "X") {
    return W.discards.replace("{seat}", name(seat)) + ": " + body.split(" ").filter(Boolean).join(", ");
  }
  const parts = [];
  const enter = /^in(?: ([A-Z]{2}))?$/.exec(body);
  if (enter) {
    parts.push(enter[1] ? W.entersArea.replace("{area}", name(enter[1])) : W.enters);
  } else if (body.indexOf("<>") > 0) {
    const [a, b] = body.split("<>");
    parts.push(W.swap.replace("{a}", a).replace("{b}", b));
  } else {
    body.split(" ").filter(Boolean).forEach((step) => {
      const s = /^([A-Z0-9]+?)([+-])(\d+)(?:>([A-Z0-9]+))?$/.exec(step);
      if (!s) { parts.push(step); return; }
      const word = s[2] === "+" ? W.forward : W.backward;
      let said = word.replace("{from}", s[1]).replace("{n}", s[3]);
      if (s[4]) said += " " + W.to.replace("{to}", s[4]);
      parts.push(said);
    });
  }
  (events || []).forEach((e) => {
    parts.push(name(e.colour) + " " + (e.type === "hit" ? W.hit : W.lock) + " " + e.at);
  });
  return W.plays.replace("{seat}", name(seat)).replace("{card}", card) + ": " + parts.join("; ");
}
