/* What the table device needs to know of a ruleset to draw it and to make
 * entries by tapping: the seats, the colours each seat moves, the cards, which
 * card enters, splits and swaps, and the ids of the rules the page names.
 *
 * dm2023, fr and rulebook are four seats in two teams (RULES.md); Partners
 * DUO is two players, Y and R, each with a knob area and a hole area
 * (docs/rulesets/duo.md S1-S3, B1, C1-C7). The rules themselves stay with
 * the engine: the server's legal moves and refusals, or the mirror (rules.js).
 */
import { CARDS, SEATS } from "./rules.js";

const DUO = {
  seats: ["Y", "R"],
  enter: new Set(["1", "6", "8"]), // C3
  split: "4", // C6: 4 steps over pawns of one area
  swap: "9", // C5: 9 forward, or swap two pawns
  rules: { timeUp: "W2", gameOver: "W1" },
};
const FOUR_SEATS = {
  seats: SEATS,
  enter: new Set(["8", "11", "13"]), // RULES C3
  split: "7", // RULES C7
  swap: "J", // RULES C9
  rules: { timeUp: "W3", gameOver: "W1" },
};

export function isDuo(state) {
  return !!state && state.ruleset === "duo";
}

export function rulesetOf(state) {
  return isDuo(state) ? DUO : FOUR_SEATS;
}

/* The colours (position keys) a seat's pawns are listed under: a DUO player's two areas. */
export function coloursOf(seat, state) {
  return isDuo(state) ? [seat + "K", seat + "O"] : [seat];
}

/* Every colour of the position, in board order. */
export function allColours(state) {
  return isDuo(state) ? ["YK", "RK", "YO", "RO"] : SEATS;
}

/* The cards of the ruleset's deck, in card order: those it has copies of. */
export function deckOf(state, tableRules) {
  const copies = (tableRules && tableRules.copies) || {};
  if (isDuo(state)) return CARDS.filter((c) => copies[c] > 0);
  return CARDS;
}

/* The player a DUO area (or a seat colour) belongs to: "YK" → "Y". */
export function playerOf(colour) {
  return colour.charAt(0);
}
