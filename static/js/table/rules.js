/* The engine's move execution and deal flow, mirrored for the table device.
 *
 * The server's engine (games/engine) is the truth and checks every entry. This
 * mirror lets the page go on offline: after an entry is queued it plays that
 * entry here, so the board shows the position, the turn passes to the right
 * seat and the hand counts follow the deal (RULES D1-D6), and the next entry
 * can be checked, previewed and its refusal explained with the engine's own
 * words. It follows games/engine/rules.py (walk, place, execute), game.py
 * (play, discard, advance) and notation.py line for line; a browser test
 * compares it with the engine on thousands of positions of self-play games
 * (tests/e2e/test_table_rules_mirror.py). Only the ruleset dm2023 is
 * mirrored: for any other the page checks offline entries on sync only.
 *
 * Locations are the engine's integer ids (lid = colour * 20 + k: k = 0 start
 * circle, 1 start field, 2..15 fields 1..14, 16..19 goal circles M1..M4); a
 * pawn of colour c has a path index (0 start field, 1..56 the track, 57..60
 * M4..M1). Refusals are thrown as RuleError(key, params): the key of the
 * engine's message catalogue (games/engine/errors.py), formatted by
 * message() with the catalogue the page was given.
 */

export const SEATS = ["Y", "R", "B", "G"];
export const CARDS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J"];
export const MIRRORED_RULESET = "dm2023";
const TEAM_OF_C = ["YB", "RG", "YB", "RG"];
const ENTER_CARDS = new Set(["8", "11", "13"]);
const FORWARD = {
  "1": [1, 14], "2": [2], "3": [3], "5": [5], "6": [6], "8": [8], "9": [9],
  "10": [10], "12": [12], "13": [13],
};
const E_F1 = -2, E_F5_FIRST = -3, E_F5_BOTH = -4;
const NLOC = 80, NFIELDS = 56;

// --- the board as tables (games/engine/board.py) ----------------------------

function code(lid) {
  const c = Math.floor(lid / 20), k = lid % 20, s = SEATS[c];
  if (k === 0) return s + "H";
  if (k === 1) return s + "S";
  if (k <= 15) return s + (k - 1);
  return s + "M" + (k - 15);
}
const CODES = Array.from({ length: NLOC }, (_, i) => code(i));
export const LID = Object.fromEntries(CODES.map((c, i) => [c, i]));
const IS_RING = CODES.map((_, i) => i % 20 >= 2 && i % 20 <= 15);
const IS_GOAL = CODES.map((_, i) => i % 20 >= 16);
const ringLid = (r) => { r = ((r % NFIELDS) + NFIELDS) % NFIELDS; return Math.floor(r / 14) * 20 + 2 + (r % 14); };
const startLid = (c) => c * 20 + 1;
const goalLid = (c, m) => c * 20 + 15 + m;
const PATH = [0, 1, 2, 3].map((c) => [
  startLid(c),
  ...Array.from({ length: NFIELDS }, (_, i) => ringLid(c * 14 + i)),
  goalLid(c, 4), goalLid(c, 3), goalLid(c, 2), goalLid(c, 1),
]);
const PIDX = PATH.map((path, c) => {
  const t = new Array(NLOC).fill(-2);
  t[c * 20] = -1;
  path.forEach((lid, p) => { t[lid] = p; });
  return t;
});
/* Other colours' start fields passed moving forward n from path p (T4). */
function crossings(c, p, n) {
  const end = Math.min(p + n, 56);
  return [1, 2, 3].filter((j) => p <= 14 * j && 14 * j < end).map((j) => startLid((c + j) % 4));
}
/* [target path index, start fields crossed] moving n backward from path p. */
function back(c, p, n) {
  if (!n) return [p, []];
  const crossed = [];
  let r;
  if (p === 0) { r = c * 14 - 1; n -= 1; } else r = c * 14 + p - 1;
  r = ((r % NFIELDS) + NFIELDS) % NFIELDS;
  for (let k = 0; k < n; k++) {
    if (r % 14 === 0 && Math.floor(r / 14) !== c) crossed.push(startLid(Math.floor(r / 14)));
    r = (r - 1 + NFIELDS) % NFIELDS;
  }
  return [((r - c * 14) % NFIELDS + NFIELDS) % NFIELDS + 1, crossed];
}

// --- refusals -----------------------------------------------------------------

export class RuleError extends Error {
  constructor(key, params) {
    super(key);
    this.key = key;
    this.params = params || {};
  }
}
const refuse = (key, params) => new RuleError(key, params);

/* The engine's message for ``err`` from its catalogue ({key: [rule, template]},
   the page's language) and the colour names ({en: {Y: …}, da: {Y: …}}). */
export function message(err, catalogue, colours) {
  const entry = catalogue[err.key];
  if (!entry) return { rule: "", text: err.key };
  const p = Object.assign({}, err.params);
  ["seat", "turn"].forEach((name) => {
    if (p[name] === undefined) return;
    p[name + "_en"] = colours.en[p[name]] || p[name];
    p[name + "_da"] = colours.da[p[name]] || p[name];
  });
  if (p.why_da === undefined) p.why_da = p.why || "";
  const text = entry[1].replace(/\{(\w+)(!r)?\}/g, (_, name, repr) =>
    repr ? "'" + String(p[name]) + "'" : String(p[name]));
  return { rule: entry[0], text: text.charAt(0).toUpperCase() + text.slice(1) };
}

// --- the integer board (rules.Board) --------------------------------------------

function lockedN(cnt, c) {
  const b = c * 20 + 16;
  let n = 0;
  while (n < 4 && cnt[b + n]) n++;
  return n;
}
class Board {
  constructor(locs) {
    this.locs = locs.slice();
    this.cnt = new Array(NLOC).fill(0);
    this.owner = CODES.map((_, i) => (IS_RING[i] ? -1 : Math.floor(i / 20)));
    this.locs.forEach((lid, i) => { this.cnt[lid] += 1; this.owner[lid] = i >> 2; });
  }
  copy() {
    const b = Object.create(Board.prototype);
    b.locs = this.locs.slice(); b.cnt = this.cnt.slice(); b.owner = this.owner.slice();
    return b;
  }
  active(c) { return lockedN(this.cnt, c) < 4 ? c : (c + 2) % 4; }
  teamWon(c) { return lockedN(this.cnt, c) === 4 && lockedN(this.cnt, (c + 2) % 4) === 4; }
  winner() { return this.teamWon(0) ? "YB" : this.teamWon(1) ? "RG" : null; }
}

function finish(cnt, c, src, g, steps, moved) {
  const pm = PATH[c];
  let d = 1;
  const blocked = (ng) => ng > 60 || (ng >= 57 && cnt[pm[ng]] && pm[ng] !== src);
  while (steps) {
    let ng = g + d;
    if (blocked(ng)) {
      if (!moved) return E_F5_FIRST;
      d = -d;
      ng = g + d;
      if (blocked(ng)) return E_F5_BOTH;
    }
    steps -= 1;
    if (ng === 56) {
      if (!steps) return 56;
      const [t, crossed] = back(c, 56, steps);
      for (const s of crossed) if (cnt[s]) return -100 - s;
      return t;
    }
    g = ng;
    moved = true;
  }
  return g;
}
function walkForward(cnt, c, src, p, n) {
  if (p <= 56) {
    for (const s of crossings(c, p, n)) if (cnt[s]) return -100 - s;
    const t = p + n;
    if (t <= 56) return t;
    if (cnt[PATH[c][57]]) return E_F1;
    return finish(cnt, c, src, 57, t - 57, true);
  }
  return finish(cnt, c, src, p, n, false);
}
function walkBack(cnt, c, p, n) {
  const [t, crossed] = back(c, p, n);
  for (const s of crossed) if (cnt[s]) return -100 - s;
  return t;
}
/* Put pawn i (colour c) on ``dest`` applying T2 and F2. */
function place(b, i, c, dest, events) {
  const { locs, cnt, owner } = b;
  cnt[locs[i]] -= 1;
  if (IS_RING[dest]) {
    const n = cnt[dest];
    if (n && owner[dest] !== c) {
      const oc = owner[dest];
      if (n === 1) {
        let j = oc * 4;
        while (locs[j] !== dest) j++;
        locs[j] = oc * 20;
        cnt[oc * 20] += 1;
        locs[i] = dest;
        owner[dest] = c;
        if (events) events.push(["hit", oc, dest]);
        return;
      }
      locs[i] = c * 20;
      cnt[c * 20] += 1;
      if (events) events.push(["hit", c, dest]);
      return;
    }
    locs[i] = dest;
    cnt[dest] += 1;
    owner[dest] = c;
    return;
  }
  locs[i] = dest;
  cnt[dest] += 1;
  if (events && IS_GOAL[dest] && (dest % 20) - 15 <= lockedN(cnt, c)) events.push(["lock", c, dest]);
}

// --- applying one move (rules.execute) -----------------------------------------

function walkError(codeN, c, src) {
  if (codeN <= -100) return refuse("t4", { at: CODES[-codeN - 100] });
  if (codeN === E_F1) return refuse("f1", { at: CODES[goalLid(c, 4)] });
  if (codeN === E_F5_FIRST) return refuse("f5_first", { at: CODES[src] });
  return refuse("f5_both", { at: CODES[src] });
}
function pawnAt(b, seat, c, lid, moved) {
  if (b.cnt[lid] === 0) throw refuse("no_pawn", { at: CODES[lid], seat: SEATS[seat] });
  if (b.owner[lid] !== c) throw refuse("not_yours", { at: CODES[lid], seat: SEATS[seat] });
  if (lid === c * 20) throw refuse("c8_home", { at: CODES[lid] });
  if (IS_GOAL[lid] && (lid % 20) - 15 <= lockedN(b.cnt, c)) throw refuse("f3", { at: CODES[lid] });
  for (let i = c * 4; i < c * 4 + 4; i++) {
    if (b.locs[i] === lid && (!moved || !moved[i])) return i;
  }
  throw refuse("c7_twice", { at: CODES[lid] });
}
function step(b, seat, c, lid, n, moved, events, destCheck) {
  const i = pawnAt(b, seat, c, lid, moved);
  const p = PIDX[c][lid];
  let d;
  if (n < 0) {
    if (p > 56) throw refuse("f7", { at: CODES[lid] });
    d = walkBack(b.cnt, c, p, -n);
  } else d = walkForward(b.cnt, c, lid, p, n);
  if (d < 0) throw walkError(d, c, lid);
  const target = 60 - lockedN(b.cnt, c);
  const dest = PATH[c][d];
  if (d >= 57 && p >= 57 && d !== target) throw refuse("f6", { at: CODES[lid], to: CODES[dest] });
  if (destCheck >= 0 && destCheck !== dest) throw refuse("dest", { got: CODES[dest], want: CODES[destCheck] });
  place(b, i, c, dest, events);
  if (moved) moved[i] = true;
  return d;
}
function swap(b, x, y) {
  for (const lid of [x, y]) {
    if (!IS_RING[lid]) throw refuse(IS_GOAL[lid] ? "f7" : "c9_field", { at: CODES[lid] });
  }
  if (x === y) throw refuse("c9_same");
  for (const lid of [x, y]) {
    if (!b.cnt[lid]) throw refuse("c9_empty", { at: CODES[lid] });
    if (b.cnt[lid] > 1) throw refuse("c9_protected", { at: CODES[lid] });
  }
  const i = b.locs.indexOf(x), j = b.locs.indexOf(y);
  b.locs[i] = y; b.locs[j] = x;
  const o = b.owner[x]; b.owner[x] = b.owner[y]; b.owner[y] = o;
}
function seven(b, seat, c, move, events) {
  let total = 0;
  for (const [, n] of move.steps) {
    if (n < 1) throw refuse("c7_part");
    total += n;
  }
  if (total > 7) throw refuse("c7_sum", { total });
  const moved = new Array(16).fill(false);
  const partner = (seat + 2) % 4;
  const last = move.steps.length - 1;
  for (let x = 0; x <= last; x++) {
    const [lid, n] = move.steps[x];
    const d = step(b, seat, c, lid, n, moved, events, move.dests ? move.dests[x] : -1);
    if (d >= 57 && lockedN(b.cnt, c) === 4) {
      if (b.teamWon(seat)) {
        if (x !== last) throw refuse("w1", { team: seat % 2 === 0 ? "YB" : "RG" });
        return;
      }
      if (c === seat) c = partner;
    }
  }
  if (total !== 7) throw refuse("c7_sum", { total });
}
function execute(b, seat, move) {
  const events = [];
  if (move.card === "J" || move.kind === "swap") {
    if (move.card !== "J" || move.kind !== "swap") throw refuse("c9_card");
    swap(b, move.swap[0], move.swap[1]);
    return events;
  }
  const c = b.active(seat);
  if (move.kind === "in") {
    if (move.card === "7") throw refuse("c7_in");
    if (!ENTER_CARDS.has(move.card)) throw refuse("c8_card");
    const h = c * 20;
    if (!b.cnt[h]) throw refuse("c8_none", { at: CODES[h] });
    place(b, b.locs.indexOf(h, c * 4), c, h + 1, null);
    return events;
  }
  if (move.card === "7") { seven(b, seat, c, move, events); return events; }
  if (move.card === "11") throw refuse("c5_11");
  const [lid, n] = move.steps[0];
  const more = move.steps.length > 1;
  if (move.card === "4") {
    if (more || n !== -4) throw refuse("c4");
  } else if (more || !FORWARD[move.card].includes(n)) {
    const key = move.card === "1" ? "c3" : ENTER_CARDS.has(move.card) ? "c5" : "c2";
    throw refuse(key, { card: move.card });
  }
  step(b, seat, c, lid, n, null, events, move.dests ? move.dests[0] : -1);
  return events;
}

// --- notation (notation.py) ------------------------------------------------------

const LOC_RE = "[YRBG](?:H|S|M[1-4]|1[0-4]|[1-9])";
const STEP_RE = new RegExp(`^(${LOC_RE})([+-])(\\d{1,2})(?:>(${LOC_RE}))?$`);
const SWAP_RE = new RegExp(`^(${LOC_RE})<>(${LOC_RE})$`);
const syntax = (what, why, whyDa) => refuse("syntax", { what, why, why_da: whyDa });
const stepText = (lid, n) => CODES[lid] + (n > 0 ? "+" : "-") + Math.abs(n);

/* A move as the engine reads it: {card, kind, steps: [[lid, n]], swap, dests, text}. */
function parseMove(text) {
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts.length < 2 || !parts[0].endsWith(":")) {
    throw syntax(text, "expected 'card: action', e.g. '5: Y3+5'", "forventede 'kort: handling', f.eks. '5: Y3+5'");
  }
  const card = parts[0].slice(0, -1);
  if (card === "X") {
    throw syntax(text, "a discard ('X: …') is a game-record entry, not a move",
      "et afkast ('X: …') er en post i spillet, ikke et træk");
  }
  if (!CARDS.includes(card)) {
    throw syntax(text, `unknown card '${card}' (cards are 1–13 and J)`, `ukendt kort '${card}' (kortene er 1–13 og J)`);
  }
  const actions = parts.slice(1);
  if (actions.length === 1 && actions[0] === "in") return { card, kind: "in", text: card + ": in" };
  if (actions.length === 1 && actions[0].includes("<>")) {
    const m = SWAP_RE.exec(actions[0]);
    if (!m) throw syntax(text, "a swap is written 'A<>B' with two locations", "et byt skrives 'A<>B' med to felter");
    const pair = [LID[m[1]], LID[m[2]]].sort((a, b) => a - b);
    return { card, kind: "swap", swap: pair, text: `${card}: ${CODES[pair[0]]}<>${CODES[pair[1]]}` };
  }
  const steps = [], dests = [];
  for (const a of actions) {
    const m = STEP_RE.exec(a);
    if (!m) {
      throw syntax(text, `cannot read the step '${a}' (write e.g. Y3+5 or RS-4)`,
        `kan ikke læse delen '${a}' (skriv f.eks. Y3+5 eller RS-4)`);
    }
    const n = parseInt(m[3], 10);
    steps.push([LID[m[1]], m[2] === "+" ? n : -n]);
    dests.push(m[4] ? LID[m[4]] : -1);
  }
  return {
    card, kind: "steps", steps, dests: dests.some((d) => d >= 0) ? dests : null,
    text: card + ": " + steps.map(([lid, n]) => stepText(lid, n)).join(" "),
  };
}
function parseDiscard(text) {
  const parts = text.split(/\s+/).filter(Boolean);
  if (parts[0] !== "X:" || parts.length < 2) {
    throw syntax(text, "a discard is written 'X: ' and the cards shown", "et afkast skrives 'X: ' og de viste kort");
  }
  for (const c of parts.slice(1)) if (!CARDS.includes(c)) throw syntax(text, `unknown card '${c}'`, `ukendt kort '${c}'`);
  const cards = parts.slice(1).sort((a, b) => CARDS.indexOf(a) - CARDS.indexOf(b));
  return { cards, text: "X: " + cards.join(" ") };
}
/* "R 5: R3+5" → {seat index, action, text (canonical, seat first)}. */
function parseEntry(text) {
  const t = text.trim();
  const space = t.indexOf(" ");
  const seat = space < 0 ? t : t.slice(0, space);
  if (!SEATS.includes(seat)) {
    throw syntax(text, "an entry starts with the seat Y, R, B or G", "en post starter med pladsen Y, R, B eller G");
  }
  const rest = t.slice(space + 1).trim();
  const action = rest.startsWith("X:") ? Object.assign(parseDiscard(rest), { kind: "discard" }) : parseMove(rest);
  return { seat: SEATS.indexOf(seat), action, text: seat + " " + action.text };
}

// --- legal moves (rules.gen_moves) ---------------------------------------------

/* Every legal move of ``card`` for ``seat``, canonical texts in the engine's order. */
function legalMoves(board, seat, card) {
  if (card === "7") return sevens(board, seat);
  const { cnt } = board;
  if (card === "J") {
    const singles = [...new Set(board.locs)].filter((l) => IS_RING[l] && cnt[l] === 1).sort((a, b) => a - b);
    const out = [];
    singles.forEach((a, x) => singles.slice(x + 1).forEach((b) => out.push(`J: ${CODES[a]}<>${CODES[b]}`)));
    return out;
  }
  const c = lockedN(cnt, seat) < 4 ? seat : (seat + 2) % 4;
  const out = [];
  if (ENTER_CARDS.has(card) && cnt[c * 20]) out.push(card + ": in");
  if (card === "11") return out;
  const target = 60 - lockedN(cnt, c);
  const own = [...new Set(board.locs.slice(c * 4, c * 4 + 4))].sort((a, b) => a - b);
  for (const lid of own) {
    const p = PIDX[c][lid];
    if (card === "4") {
      if (p >= 0 && p <= 56 && walkBack(cnt, c, p, 4) >= 0) out.push(`4: ${stepText(lid, -4)}`);
      continue;
    }
    if (p < 0 || p > target) continue;
    for (const n of FORWARD[card]) {
      const d = walkForward(cnt, c, lid, p, n);
      if (d < 0) break;
      if (d >= 57 && p >= 57 && d !== target) continue;
      out.push(`${card}: ${stepText(lid, n)}`);
    }
  }
  return out;
}
/* Every split of a 7 (C7), depth first in the engine's order (pawns by
   location, parts ascending), each part played on a copy of the board. */
function sevens(board, seat) {
  const out = [];
  const search = (b, c, rem, moved, parts) => {
    const target = 60 - lockedN(b.cnt, c);
    const cands = [...new Set(b.locs.slice(c * 4, c * 4 + 4).filter((lid, k) => {
      const p = PIDX[c][lid];
      return !moved[c * 4 + k] && p >= 0 && p <= target;
    }))].sort((x, y) => x - y);
    for (const lid of cands) {
      const p = PIDX[c][lid];
      for (let k = 1; k <= rem; k++) {
        const d = walkForward(b.cnt, c, lid, p, k);
        if (d < 0) break;
        if (d >= 57 && p >= 57 && d !== target) continue;
        const done = [...parts, stepText(lid, k)];
        if (k === rem) { out.push(done); continue; }
        const next = b.copy(), nextMoved = moved.slice();
        step(next, seat, c, lid, k, nextMoved, null, -1);
        if (d === target && target === 57) {
          // c's fourth pawn locks: the team wins, or the partner takes the rest (C7)
          if (c !== seat || lockedN(next.cnt, (seat + 2) % 4) === 4) out.push(done);
          else search(next, (seat + 2) % 4, rem - k, nextMoved, done);
          continue;
        }
        search(next, c, rem - k, nextMoved, done);
      }
    }
  };
  search(board, board.active(seat), 7, new Array(16).fill(false), []);
  return out.map((parts) => "7: " + parts.join(" "));
}

/* Legal moves per card for the seat to move, as the server's ``legal_entries``:
   every card kind not yet played or discarded as often as the deck has it. */
export function legalEntries(g) {
  if (g.winner || g.toMove < 0) return {};
  const out = {};
  CARDS.forEach((card) => {
    if (g.seen[card] < g.rules.copies[card]) out[card] = legalMoves(g.board, g.toMove, card);
  });
  return out;
}

// --- the game: turn, deal, cards (game.py) ---------------------------------------

/* A mutable game from the server's state and the ruleset's deal settings. */
export function gameFromState(state, rules) {
  const locs = [];
  SEATS.forEach((s) => (state.position[s] || []).forEach((l) => locs.push(LID[l])));
  return {
    board: new Board(locs),
    rules,
    hands: SEATS.map((s) => state.hand_sizes[s]),
    seen: Object.assign(Object.fromEntries(CARDS.map((c) => [c, 0])), state.cards_seen || {}),
    dealer: SEATS.indexOf(state.dealer),
    dealNumber: state.deal_number || 1,
    penalised: new Set((state.penalised || []).map((s) => SEATS.indexOf(s))),
    toMove: state.to_move ? SEATS.indexOf(state.to_move) : -1,
    winner: state.winner || null,
  };
}
function copyGame(g) {
  return Object.assign({}, g, {
    board: g.board.copy(), hands: g.hands.slice(), seen: Object.assign({}, g.seen),
    penalised: new Set(g.penalised),
  });
}
function deal(g) {
  g.hands = [0, 1, 2, 3].map((s) => (g.penalised.has(s) ? g.rules.penalty_hand_size : g.rules.hand_size));
  g.penalised = new Set();
  g.toMove = (g.dealer + 1) % 4;
}
function advance(g, seat) {
  for (const k of [1, 2, 3, 4]) {
    const s = (seat + k) % 4;
    if (g.hands[s]) { g.toMove = s; return; }
  }
  // D5: every hand is empty
  if (g.dealNumber < g.rules.deals_per_dealer) g.dealNumber += 1;
  else {
    g.dealer = (g.dealer + 1) % 4;
    g.dealNumber = 1;
    g.seen = Object.fromEntries(CARDS.map((c) => [c, 0]));
  }
  deal(g);
}
function checkTurn(g, seat) {
  if (g.winner) throw refuse("w1", { team: g.winner });
  if (seat !== g.toMove) throw refuse("d2", { seat: SEATS[seat], turn: SEATS[g.toMove] });
}
/* The effect string of a played entry (games/engine/effects.py). */
function effectOf(before, after, events, won) {
  const tokens = [];
  before.forEach((x, i) => { if (x !== after[i]) tokens.push(CODES[x] + ">" + CODES[after[i]]); });
  events.forEach(([kind, c, lid]) => tokens.push(kind[0] + SEATS[c] + "@" + CODES[lid]));
  if (won) tokens.push("w" + won);
  return tokens.join(" ");
}

/* Play one entry ("R 5: R3+5", "B X: 2 9"): the next game and what the entry
   did ({game, text, effect}); throws RuleError and leaves ``g`` unchanged. */
export function playEntry(g, text) {
  const entry = parseEntry(text);
  const next = copyGame(g);
  const seat = entry.seat;
  const action = entry.action;
  checkTurn(next, seat);
  const before = next.board.locs.slice();
  if (action.kind === "discard") {
    const cards = action.cards;
    if (cards.length !== next.hands[seat]) throw refuse("d4_size", { n: next.hands[seat], shown: cards.length });
    for (const card of new Set(cards)) {
      const n = next.seen[card];
      if (n + cards.filter((c) => c === card).length > next.rules.copies[card]) throw refuse("d6", { card, n });
    }
    for (const card of new Set(cards)) {
      const moves = legalMoves(next.board, seat, card);
      if (moves.length) throw refuse("d4_playable", { seat: SEATS[seat], card, move: moves[0] });
    }
    cards.forEach((c) => { next.seen[c] += 1; });
    next.hands[seat] = 0;
    advance(next, seat);
    return { game: next, text: entry.text, effect: "" };
  }
  const n = next.seen[action.card];
  if (n >= next.rules.copies[action.card]) throw refuse("d6", { card: action.card, n });
  const events = execute(next.board, seat, action);
  next.seen[action.card] = n + 1;
  next.hands[seat] -= 1;
  let won = null;
  if (events.length && next.board.teamWon(seat)) {
    won = TEAM_OF_C[seat];
    next.winner = won;
    next.toMove = -1;
  } else advance(next, seat);
  return { game: next, text: entry.text, effect: effectOf(before, next.board.locs, events, won) };
}

/* The state fields a page draws, from a game of this mirror. */
export function stateOf(g) {
  const position = {}, locked = {};
  SEATS.forEach((s, c) => {
    position[s] = g.board.locs.slice(c * 4, c * 4 + 4).sort((a, b) => a - b).map((l) => CODES[l]);
    locked[s] = Array.from({ length: lockedN(g.board.cnt, c) }, (_, m) => CODES[goalLid(c, m + 1)]);
  });
  return {
    position, locked,
    to_move: g.toMove < 0 ? null : SEATS[g.toMove],
    dealer: SEATS[g.dealer],
    deal_number: g.dealNumber,
    hand_sizes: Object.fromEntries(SEATS.map((s, c) => [s, g.hands[c]])),
    cards_seen: Object.assign({}, g.seen),
    penalised: [...g.penalised].sort().map((c) => SEATS[c]),
    winner: g.winner,
  };
}
