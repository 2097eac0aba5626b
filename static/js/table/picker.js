/* Making an entry by tapping: card → pawn → confirm.
 *
 * A Pick is what the players have tapped so far. Taps on the board arrive as
 * locations (the board hit-tests to the nearest pawn or place). The moves
 * offered are the legal moves of the view (the server's, or the mirror's
 * while entries wait to be stored): one candidate is chosen at once, several
 * are offered as buttons, none gets the engine's refusal of the move the tap
 * means ("5: Y3+5"), exactly as if it had been typed. Entering takes the start
 * circle or the start field; a split card (the 7; DUO's 4) is composed part
 * by part (only counts that can still end in a legal move are offered); a
 * swap takes two pawns. DUO's 9 moves the pawn tapped 9 forward, or swaps it
 * with a second pawn tapped (docs/rulesets/duo.md C5).
 */
import { LID } from "./rules.js";
import { isDuo, rulesetOf } from "./ruleset.js";
import { SEATS, movedFrom } from "./text.js";

const FIRST_STEP = { "1": 1, "2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "12": 12, "13": 13 };
const DUO_AREAS = ["YK", "RK", "YO", "RO"];
const DUO_GOAL = { M1: 16, M2: 17, M3: 18 };

export function newPick(card) {
  return {
    card: card || null, // "1".."13", "J", "X" (discard) or null
    locs: [], // tapped locations (one, or two for a swap)
    parts: [], // the 7 so far: [{loc, n}]
    pending: null, // the pawn tapped for the 7's next part
    discard: [], // cards shown, for a discard
    candidates: [], // moves offered for the taps
    move: null, // the move chosen (without the seat)
    msg: "", // why a pawn cannot take the 7's next part
  };
}

/* The colour the seat to move plays: its own, or its partner's once its four are locked (S3). */
function activeColour(state) {
  const seat = state.to_move;
  if (!seat) return null;
  const partner = SEATS[(SEATS.indexOf(seat) + 2) % 4];
  return ((state.locked || {})[seat] || []).length === 4 ? partner : seat;
}

/* The areas (or the colour) whose start circle or start field a tap may enter from. */
function enterColours(state) {
  return isDuo(state) ? [state.to_move + "K", state.to_move + "O"] : [activeColour(state)];
}

/* The colour of a start circle or start field tapped: "YKH" → "YK", "BS" → "B". */
function startColour(loc) {
  const m = /^([A-Z]{1,2}?)[HS]$/.exec(loc);
  return m ? m[1] : null;
}

/* A DUO location's order in the engine (area, then H S 1..n M1..M3): a swap names its lower first. */
function duoLid(code) {
  const area = DUO_AREAS.indexOf(code.slice(0, 2));
  const k = code.slice(2);
  const within = k === "H" ? 0 : k === "S" ? 1 : k in DUO_GOAL ? DUO_GOAL[k] : Number(k) + 1;
  return area * 19 + within;
}

/* The area an "in" move enters ("1: in YK" → "YK"), or the colour for "11: in". */
function enteredColour(move, colour) {
  const m = /: in(?: (\w+))?$/.exec(move);
  return m ? m[1] || colour : null;
}

export function legalOf(state, card) {
  return (state.legal_entries || {})[card] || [];
}

/* Does ``move`` use the tapped locations? "in" is made by the start circle or the start field. */
function usesTaps(move, locs, colour) {
  const entered = enteredColour(move, colour);
  if (entered) return locs.length === 1 && (locs[0] === entered + "H" || locs[0] === entered + "S");
  const from = movedFrom(move);
  return locs.every((loc) => from.includes(loc));
}

/* The move a tap on ``loc`` means when no legal move uses it: the engine says why not. */
export function meantMove(card, loc, state) {
  const facts = rulesetOf(state);
  const colour = startColour(loc);
  const own = colour !== null && enterColours(state).includes(colour);
  if (facts.enter.has(card) && own) return card + ": in" + (isDuo(state) ? " " + colour : "");
  if (isDuo(state)) return card + ": " + loc + "+" + (FIRST_STEP[card] || Number(card));
  if (card === "11") return "11: " + loc + "+11";
  if (card === "4") return "4: " + loc + "-4";
  if (card === "7") return "7: " + loc + "+7";
  if (card === "J") {
    const other = Object.values(state.position).flat().find((l) => l !== loc && /\d$/.test(l) &&
      Object.values(state.position).flat().filter((x) => x === l).length === 1);
    return swapText(loc, other || loc);
  }
  return card + ": " + loc + "+" + FIRST_STEP[card];
}

export function swapText(a, b, state) {
  if (isDuo(state)) return duoLid(a) <= duoLid(b) ? `9: ${a}<>${b}` : `9: ${b}<>${a}`;
  return LID[a] <= LID[b] ? `J: ${a}<>${b}` : `J: ${b}<>${a}`;
}

/* Tap on ``loc`` with an ordinary card or the swap: the candidates it leaves. */
export function tapPawn(pick, loc, state) {
  const swapping = pick.card === rulesetOf(state).swap;
  if (swapping) {
    const i = pick.locs.indexOf(loc);
    if (i >= 0) pick.locs.splice(i, 1);
    else pick.locs = pick.locs.length >= 2 ? [loc] : [...pick.locs, loc];
  } else {
    pick.locs = [loc];
  }
  pick.move = null;
  const colour = activeColour(state);
  pick.candidates = pick.locs.length ? legalOf(state, pick.card).filter((m) => usesTaps(m, pick.locs, colour)) : [];
  if (swapping && pick.locs.length === 2) {
    const wanted = swapText(pick.locs[0], pick.locs[1], state);
    pick.candidates = pick.candidates.filter((m) => m === wanted);
  } else if (swapping && isDuo(state)) {
    // One pawn tapped with DUO's 9: its 9 steps forward; a second tap makes it a swap.
    pick.candidates = pick.candidates.filter((m) => m.indexOf("<>") < 0);
  }
  return pick;
}

/* Can the one pawn tapped swap with another (DUO's 9 waits for a second tap)? */
export function canSwap(pick, state) {
  if (pick.card !== rulesetOf(state).swap || pick.locs.length !== 1) return false;
  return legalOf(state, pick.card).some((m) => m.indexOf("<>") > 0 && movedFrom(m).includes(pick.locs[0]));
}

/* Where the players should tap next: the locations legal moves of the card start from. */
export function hintsFor(pick, state) {
  if (!pick.card || pick.card === "X") return [];
  if (pick.card === rulesetOf(state).split) return sevenOptions(pick, state).pawns;
  const colour = activeColour(state);
  const out = new Set();
  const second = pick.locs.length === 1 && pick.card === rulesetOf(state).swap;
  legalOf(state, pick.card).forEach((m) => {
    const entered = enteredColour(m, colour);
    if (entered) out.add(entered + "H");
    else if (second && m.indexOf("<>") > 0 && !movedFrom(m).includes(pick.locs[0])) return;
    else movedFrom(m).forEach((loc) => out.add(loc));
  });
  pick.locs.forEach((loc) => out.delete(loc));
  return [...out];
}

// --- the split card (the 7; DUO's 4), part by part -------------------------------

export function sevenText(parts, card) {
  return (card || "7") + ": " + parts.map((p) => p.loc + "+" + p.n).join(" ");
}
export function sevenUsed(parts) {
  return parts.reduce((sum, p) => sum + p.n, 0);
}

/* What may follow the parts so far: {next: {loc: {n: true}}, pawns, complete}. */
export function sevenOptions(pick, state) {
  const done = pick.parts.map((p) => p.loc + "+" + p.n);
  const out = { next: {}, pawns: [], complete: false };
  const text = sevenText(pick.parts, pick.card);
  legalOf(state, pick.card).forEach((mv) => {
    const steps = mv.split(": ")[1].split(" ");
    if (steps.length < done.length) return;
    for (let k = 0; k < done.length; k++) if (steps[k] !== done[k]) return;
    if (steps.length === done.length) { out.complete = out.complete || mv === text; return; }
    const m = /^([A-Z0-9]+)\+(\d+)$/.exec(steps[done.length]);
    if (m) (out.next[m[1]] = out.next[m[1]] || {})[m[2]] = true;
  });
  out.pawns = pick.pending ? [] : Object.keys(out.next);
  return out;
}

/* Tap a pawn for the 7's next part: true if it may take one (its step counts are offered). */
export function sevenTap(pick, loc, state) {
  pick.move = null;
  if (pick.pending === loc) { pick.pending = null; return true; }
  const opts = sevenOptions(pick, state);
  pick.pending = opts.next[loc] ? loc : null;
  return !!pick.pending;
}

/* The 7 is complete once a legal 7 ends with the parts so far. */
export function sevenStep(pick, n, state) {
  pick.parts.push({ loc: pick.pending, n });
  pick.pending = null;
  pick.move = sevenOptions(pick, state).complete ? sevenText(pick.parts, pick.card) : null;
  return pick;
}

export function sevenBack(pick) {
  if (pick.pending) pick.pending = null;
  else pick.parts.pop();
  pick.move = null;
  return pick;
}
