/* What the table shows: the server's state with the entries still waiting to
 * be stored played on top of it, and the check of a new entry.
 *
 * The server's state is the truth. Entries confirmed but not yet stored (in
 * flight, or queued offline) are played by the engine's mirror (rules.js):
 * the board, the seat to move, the hand counts and the legal moves then
 * follow them at once, marked provisional until the server has them. A
 * listed legal move of the server's own state takes its effect from the
 * state's legal_effects (the engine's); everything else from the mirror.
 */
import * as rules from "./rules.js";
import { splitSeat, tidy } from "./text.js";

/* The projection of ``server`` with ``queue`` played on it:
   {state, game, applied, failed: {index, error} | null, mirrored}. */
export function project(server, queue, tableRules) {
  const mirrored = !!tableRules && tableRules.ruleset === server.ruleset &&
    server.ruleset === rules.MIRRORED_RULESET && server.deal_number !== undefined;
  if (!mirrored) return { state: server, game: null, applied: 0, failed: null, mirrored };
  let game = rules.gameFromState(server, tableRules);
  let applied = 0;
  let failed = null;
  for (const item of queue) {
    try {
      game = rules.playEntry(game, item.text).game;
      applied += 1;
    } catch (error) {
      if (!(error instanceof rules.RuleError)) throw error;
      failed = { index: applied, error };
      break;
    }
  }
  let state = server;
  if (applied) {
    state = Object.assign({}, server, rules.stateOf(game), {
      seq: server.seq + applied,
      legal_entries: rules.legalEntries(game),
      legal_effects: null,
    });
  } else if (!server.legal_entries) {
    // An answer to a write carries no legal moves: the mirror knows them.
    state = Object.assign({}, server, { legal_entries: rules.legalEntries(game) });
  }
  return { state, game, applied, failed, mirrored };
}

/* Locations where pawns stand only because of entries not yet stored. */
export function provisionalLocs(server, state) {
  if (state === server) return [];
  const out = [];
  rules.SEATS.forEach((s) => {
    const before = (server.position[s] || []).slice();
    (state.position[s] || []).forEach((loc) => {
      const i = before.indexOf(loc);
      if (i >= 0) before.splice(i, 1);
      else out.push(loc);
    });
  });
  return out;
}

/* The effect string of ``move`` from the server's legal_effects, if listed there. */
function listedEffect(move, view) {
  const packed = view.state.legal_effects;
  const entries = view.state.legal_entries;
  if (view.applied || !packed || !packed.effects || !entries) return null;
  const card = move.split(":")[0];
  const i = (entries[card] || []).indexOf(move);
  const index = i < 0 ? undefined : (packed.by_card[card] || [])[i];
  return index === undefined ? null : packed.effects[index];
}

/* Check an entry (typed or made by tapping) for the seat to move in ``view``.
   {ok, entry (seat first, canonical), effect} or {ok: false, error: {message,
   rule}}; null when only the server can tell (a ruleset without a mirror). */
export function check(text, view, messages) {
  const parts = splitSeat(tidy(text));
  const seat = parts.seat || view.state.to_move;
  if (!seat) return { ok: false, error: { message: messages.gameOver, rule: "W1" } };
  const entry = seat + " " + parts.rest;
  const listed = parts.seat === null || parts.seat === view.state.to_move ? listedEffect(parts.rest, view) : null;
  if (listed !== null && !/>/.test(parts.rest)) return { ok: true, entry, effect: listed };
  if (!view.game) return null;
  try {
    const played = rules.playEntry(view.game, entry);
    return { ok: true, entry: played.text, effect: played.effect };
  } catch (error) {
    if (!(error instanceof rules.RuleError)) throw error;
    return { ok: false, error: explain(error, messages) };
  }
}

/* A mirror refusal in the engine's words: {message, rule}. */
export function explain(error, messages) {
  const said = rules.message(error, messages.engine, messages.colours);
  return { message: said.text, rule: said.rule };
}
