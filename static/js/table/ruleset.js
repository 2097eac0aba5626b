/* What the table device needs to know of a ruleset to draw it and to make
 * entries by tapping: the seats, the colours of a position, the cards, which
 * card enters, splits and swaps, and the ids of the rules the page names.
 *
 * The facts come from the engine's registry of rulesets, generated into
 * ruleset_data.js (`python manage.py ruleset_js`; docs/engine.md). The rules
 * themselves stay with the engine: the server's legal moves and refusals, or
 * the mirror (rules.js).
 */
import { RULESETS } from "./ruleset_data.js";

const DEFAULT = "dm2023";

function factsOf(state) {
  return RULESETS[(state && state.ruleset) || DEFAULT] || RULESETS[DEFAULT];
}

/* The ruleset is played on the Partners DUO board (areas YK RK YO RO). */
export function isDuo(state) {
  return !!state && !!state.ruleset && factsOf(state).board === "duo";
}

/* The facts of the state's ruleset; its seats as the state names them (docs/api.md). */
export function rulesetOf(state) {
  const facts = factsOf(state);
  const seats = state && Array.isArray(state.seats) ? state.seats : facts.seats;
  return Object.assign({}, facts, { seats: seats, enter: new Set(facts.enter) });
}

/* Every colour of the position, in board order. */
export function allColours(state) {
  return factsOf(state).colours;
}

/* The card kinds of the ruleset's deck, in card order (the page's rules data: C1). */
export function deckOf(state, tableRules) {
  if (tableRules && Array.isArray(tableRules.cards)) return tableRules.cards;
  return factsOf(state).cards;
}
