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
  cards: ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12"], // C1
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

/* The facts of the state's ruleset; its seats as the state names them (docs/api.md). */
export function rulesetOf(state) {
  const facts = isDuo(state) ? DUO : FOUR_SEATS;
  return state && Array.isArray(state.seats) ? Object.assign({}, facts, { seats: state.seats }) : facts;
}

/* Every colour of the position, in board order. */
export function allColours(state) {
  return isDuo(state) ? ["YK", "RK", "YO", "RO"] : SEATS;
}

/* The card kinds of the ruleset's deck, in card order (the page's rules data: C1). */
export function deckOf(state, tableRules) {
  if (tableRules && Array.isArray(tableRules.cards)) return tableRules.cards;
  return isDuo(state) ? DUO.cards : CARDS;
}
