/* The table device: one screen to log a game at the table, also offline.
 *
 * Modules: rules.js (the engine's move rules and deal, mirrored), game.js
 * (the server's state with the waiting entries played on it; checking an
 * entry), picker.js (card → pawn → confirm), sync.js (queue, sending,
 * polling), text.js (entry texts), page.js (the page's data and DOM
 * helpers, the offline worker), words.js (seats, effects and log entries in
 * words), ruling.js (the judge's ruling shown). This file holds what is
 * being entered, wires it to the page and draws it.
 */
import { check, project, provisionalLocs } from "./game.js";
import { $, Board, button, config, keepForOffline, make, messages, ORIENTATION_KEY, S, txt } from "./page.js";
import * as picker from "./picker.js";
import { acknowledgeRuling, renderRuling } from "./ruling.js";
import { allColours, deckOf, isDuo, rulesetOf } from "./ruleset.js";
import { Sync } from "./sync.js";
import { boardMarks, discardText, judgeMarks, movedFrom, parseEffect, serverEffect, splitSeat, tidy } from "./text.js";
import { colourName, effectLines, fill, logItem, seatName, teamName } from "./words.js";

let pick = picker.newPick(null);
let view = null; // the projection drawn last (game.js)
let error = null; // {message, rule} shown in the tray
let preview = null; // {entry, effect} of the move chosen
let orientation = localStorage.getItem(ORIENTATION_KEY) || "turn";
let previewAsked = 0; // a server preview in flight (rulesets without a mirror)
let nudge = ""; // a hint for a tap that came too early
let takeBackError = null; // the server's refusal of a take-back, until the log changes

const sync = new Sync({ config, state: JSON.parse($("table-state").textContent), messages, onChange: render });

// --- entering a move -------------------------------------------------------------------

function clearPick(card) {
  pick = picker.newPick(card || null);
  error = null;
  preview = null;
  nudge = "";
}

/* A card with no legal move: said once (the error box), and nothing else opens. */
function noMoveWith(card) {
  return !!card && card !== "X" && !picker.legalOf(view.state, card).length;
}

function chooseCard(card) {
  clearPick(card);
  if (noMoveWith(card)) error = { message: S.noLegal, rule: "" };
  render();
}

function onTap(loc) {
  if (!config.writable || !view.state.to_move) return;
  error = null;
  preview = null;
  nudge = "";
  if (!pick.card || pick.card === "X") {
    nudge = S.cardFirst;
    render();
    return;
  }
  if (noMoveWith(pick.card)) {
    error = { message: S.noLegal, rule: "" };
    render();
    return;
  }
  const facts = rulesetOf(view.state);
  if (pick.card === facts.split) {
    if (!picker.sevenTap(pick, loc, view.state)) pick.msg = fill(S.sevenNoPawn, { card: pick.card });
    else pick.msg = "";
    render();
    return;
  }
  picker.tapPawn(pick, loc, view.state);
  const swap = pick.card === facts.swap;
  if (swap && pick.locs.length === 1 && isDuo(view.state)) {
    // DUO's 9: the pawn's 9 forward at once; a second pawn tapped makes it a swap (C5).
    if (pick.candidates.length === 1) choose(pick.candidates[0]);
    else if (!picker.canSwap(pick, view.state)) explainMeant(picker.meantMove(pick.card, loc, view.state));
    render();
    return;
  }
  if (swap && pick.locs.length < 2) {
    if (pick.locs.length === 1 && !picker.legalOf(view.state, pick.card).some((m) => movedFrom(m).includes(pick.locs[0]))) {
      explainMeant(picker.meantMove(pick.card, pick.locs[0], view.state));
    }
    render();
    return;
  }
  if (pick.candidates.length === 1) choose(pick.candidates[0]);
  else if (!pick.candidates.length) {
    const meant = swap ? picker.swapText(pick.locs[0], pick.locs[1], view.state) : picker.meantMove(pick.card, loc, view.state);
    explainMeant(meant);
  }
  render();
}

/* A tap no legal move uses: why not, in the engine's words, exactly as if it had been typed. */
function explainMeant(move) {
  pick.locs = [];
  const verdict = check(move, view, messages);
  if (verdict === null) serverPreview(move);
  else if (!verdict.ok) error = verdict.error;
}

function choose(move) {
  const verdict = check(move, view, messages);
  if (verdict === null) { serverPreview(move); return; }
  if (!verdict.ok) { error = verdict.error; preview = null; pick.move = null; return; }
  pick.move = splitSeat(verdict.entry).rest;
  preview = { entry: verdict.entry, effect: verdict.effect };
  error = null;
}

/* Only for a ruleset the page has no mirror of: the engine on the server checks it. */
function serverPreview(move) {
  if (sync.offline) { preview = { entry: view.state.to_move + " " + move, effect: null }; pick.move = move; return; }
  preview = null;
  pick.move = null;
  const asked = ++previewAsked;
  sync.post(config.urls.preview, { text: view.state.to_move + " " + move }).then((res) => {
    if (asked !== previewAsked) return;
    if (res.status === 200) {
      pick.move = move;
      preview = { entry: view.state.to_move + " " + res.data.entry.replace(/^[YRBG] /, ""), effect: null, server: res.data };
    } else if (res.data && res.data.error) {
      error = { message: res.data.error.message, rule: res.data.error.rule || "" };
    }
    render();
  });
}

function confirmMove() {
  if (!preview || !pick.move) return;
  const entry = preview.entry;
  clearPick(null);
  sync.enqueue(entry);
}

function sevenStep(n) {
  picker.sevenStep(pick, n, view.state);
  pick.msg = "";
  if (pick.move) choose(pick.move);
  render();
}

function discardCard(card) {
  pick.discard.push(card);
  preview = null;
  error = null;
  pick.move = null;
  const hand = view.state.hand_sizes[view.state.to_move];
  if (pick.discard.length >= hand) choose(discardText(pick.discard));
  render();
}

// --- drawing ----------------------------------------------------------------------------

function boardRotation(state) {
  if (orientation === "none") return 0;
  if (orientation === "turn") return Board.rotationFor(state.to_move || config.last_turn || "Y");
  return Board.rotationFor(orientation);
}

function renderBoard() {
  const state = view.state;
  const selected = pick.card === rulesetOf(state).split
    ? pick.parts.map((p) => p.loc).concat(pick.pending ? [pick.pending] : [])
    : pick.locs;
  const hints = picker.hintsFor(pick, state);
  const pawns = [];
  allColours(state).forEach((s) => { pawns.push(...(state.position[s] || []), s + "H", s + "S"); });
  Board.render($("board"), state, {
    selected,
    marks: previewMarks(state),
    hints,
    provisional: provisionalLocs(sync.server, state),
    rotate: boardRotation(state),
    letters: true,
    onTap,
    targets: [...new Set(pawns)],
    preferred: hints,
  });
}

/* The move previewed, for the board to draw before it is confirmed (a discard moves nothing). */
function previewMarks(state) {
  if (!preview || preview.entry.indexOf(" X:") > 0) return null;
  const effect = preview.effect !== null ? preview.effect : preview.server ? serverEffect(preview.server) : null;
  if (!effect) return null;
  return boardMarks(effect, splitSeat(preview.entry).rest, state.position, allColours(state));
}

function renderTurn() {
  const state = view.state;
  const turn = $("turn");
  turn.textContent = "";
  turn.className = "turn";
  if (state.winner) {
    make("strong", "", S.gameOver, turn);
  } else if (state.status === "time_up") {
    make("strong", "", S.timeIsUp, turn);
  } else if (state.to_move) {
    make("span", "seat-chip seat-bg-" + state.to_move, state.to_move, turn);
    make("strong", "", fill(S.isToMove, { seat: seatName(state.to_move) }), turn);
    if (view.applied) make("span", "provisional-tag", S.provisionalTurn, turn);
    const name = (config.players || {})[state.to_move];
    if (name) make("span", "player", "· " + name, turn);
  }
  const hands = $("hands");
  hands.textContent = "";
  rulesetOf(state).seats.forEach((s) => {
    const item = make("li", "hand" + (s === state.to_move ? " current" : ""), "", hands);
    make("span", "seat-chip small seat-bg-" + s, s, item);
    make("span", "count", String(state.hand_sizes[s]), item);
    item.title = seatName(s) + ": " + state.hand_sizes[s] + " " + S.cardsLeft;
    item.setAttribute("aria-label", item.title);
  });
  txt($("deal"), fill(S.dealInfo, {
    seat: seatName(state.dealer), n: state.deal_number || 1, k: config.rules.deals_per_dealer,
  }));
}

function renderStatus() {
  const n = sync.queue.length;
  const node = $("net-status");
  const off = sync.offline;
  node.className = "net-status " + (off ? "offline" : n ? "syncing" : "online");
  let label = off ? S.offline : n ? S.sending : S.online;
  if (n) label += " · " + n;
  txt(node, label);
  node.title = n ? label + " " + S.waiting : label;
}

function renderTray() {
  const state = view.state;
  // Entries not stored: said plainly, first of all.
  const conflict = $("conflict");
  conflict.hidden = !sync.refused.length;
  conflict.textContent = "";
  if (sync.refused.length) {
    const first = sync.refused[0];
    make("strong", "", S.notStored + ": ", conflict);
    make("code", "", first.text, conflict);
    make("span", "", " — " + first.message + (first.rule ? " (" + S.rule + " " + first.rule + ")" : ""), conflict);
    button(conflict, S.seeLog + (sync.refused.length > 1 ? " (" + sync.refused.length + ")" : ""), "link", () => openSheet("log"));
  }
  const box = $("error");
  box.hidden = !error;
  box.textContent = "";
  if (error) {
    make("span", "", error.message, box);
    if (error.rule) make("strong", "rule", " (" + S.rule + " " + error.rule + ")", box);
  }
  // The preview of the chosen move.
  $("preview").hidden = !preview;
  const lines = $("preview-lines");
  lines.textContent = "";
  if (preview) {
    txt($("preview-entry"), preview.entry);
    if (preview.entry.indexOf(" X:") > 0) make("span", "effect-move", " — " + seatName(preview.entry[0]) + " " + S.discards, lines);
    else if (preview.effect !== null) {
      effectLines(preview.effect, state).forEach((line, i) => make("span", line.cls, (i ? "; " : " — ") + line.text, lines));
    } else if (preview.server) {
      (preview.server.events || []).forEach((e) => make("span", "event-" + e.type, " — " + colourName(e.colour) + " " + (e.type === "hit" ? S.hit : S.lock) + " " + e.at, lines));
    }
  }
  // The 7 picker, the choice between several moves, the discard.
  renderSeven();
  const facts = rulesetOf(state);
  const cands = $("candidates");
  cands.textContent = "";
  const several = pick.card && pick.card !== facts.split && pick.candidates.length > 1;
  if (several) {
    pick.candidates.forEach((mv) => {
      button(cands, candidateLabel(mv), "candidate secondary" + (pick.move === mv ? " active" : ""), () => { choose(mv); render(); })
        .setAttribute("data-move", mv);
    });
  }
  $("discard").hidden = pick.card !== "X";
  txt($("discard-text"), discardText(pick.discard));
  $("discard-undo").disabled = !pick.discard.length;
  // One line that says what to do next.
  let hint = "";
  const duoNine = isDuo(state) && pick.card === facts.swap && pick.locs.length < 2;
  if (!state.to_move) hint = "";
  else if (duoNine && picker.canSwap(pick, state)) hint = preview ? S.tapSwapOrConfirm : S.tapSwapSecond;
  else if (preview) hint = S.confirmHint;
  else if (!pick.card) hint = view.applied && sync.offline ? fill(S.queueNote, { n: view.applied }) : S.pickCard;
  else if (pick.card === "X") hint = S.tapDiscard;
  else if (duoNine) hint = S.tapPawnOrSwap;
  else if (pick.card === facts.swap) hint = pick.locs.length ? S.tapSwapSecond : S.tapSwap;
  else if (pick.card === facts.split) hint = "";
  else if (several) hint = S.chooseOne;
  else hint = facts.enter.has(pick.card) ? S.tapEnter : S.tapPawn;
  txt($("hint"), nudge || (error && !preview ? "" : hint));
  $("hint").hidden = !$("hint").textContent;
}

/* "1: B5+14 → R5": a move with where its pawn ends, to choose between moves of one pawn. */
function candidateLabel(move) {
  const verdict = check(move, view, messages);
  const moved = verdict && verdict.ok ? parseEffect(verdict.effect).moves : [];
  return moved.length === 1 ? move + " → " + moved[0].to : move;
}

function renderSeven() {
  const box = $("seven");
  // Not for a split typed (or chosen from the legal list) whole: its preview says it all.
  const typedWhole = !!preview && !pick.parts.length && !pick.pending;
  const on = pick.card === rulesetOf(view.state).split && !noMoveWith(pick.card) && !typedWhole;
  box.hidden = !on;
  if (!on) return;
  const used = picker.sevenUsed(pick.parts);
  const left = Number(pick.card) - used;
  const opts = picker.sevenOptions(pick, view.state);
  txt($("seven-text"), pick.parts.length ? picker.sevenText(pick.parts, pick.card) : pick.card + ":");
  txt($("seven-left"), left + " " + S.sevenLeft);
  const hint = pick.pending ? S.sevenSteps + " (" + pick.pending + ")"
    : pick.move || pick.msg ? "" : pick.parts.length ? S.sevenTap : S.sevenTapFirst;
  txt($("seven-hint"), hint);
  $("seven-hint").hidden = !hint;
  const steps = $("seven-steps");
  steps.textContent = "";
  if (pick.pending) {
    const allowed = opts.next[pick.pending] || {};
    for (let n = 1; n <= left; n++) {
      const ok = !!allowed[n];
      const b = button(steps, String(n), "step-btn" + (ok ? "" : " dead"), () => sevenStep(n));
      b.setAttribute("data-steps", String(n));
      const dead = fill(S.sevenDead, { card: pick.card });
      if (!ok) { b.disabled = true; b.title = dead; b.setAttribute("aria-label", n + " — " + dead); }
    }
  }
  const msg = $("seven-msg");
  msg.hidden = !pick.msg;
  txt(msg, pick.msg || "");
  $("seven-back").disabled = !pick.parts.length && !pick.pending;
}

function renderCards() {
  const wrap = $("cards");
  wrap.textContent = "";
  const legal = view.state.legal_entries || {};
  const discarding = pick.card === "X";
  // Every card of the deck keeps its place for the whole game: one not in the
  // hands (all played) is shown disabled, so no button moves between turns.
  deckOf(view.state, config.rules).forEach((c) => {
    const gone = !discarding && !!view.state.legal_entries && !(c in legal);
    const active = !discarding && pick.card === c;
    const b = button(wrap, c, "card" + (active ? " active" : "") + (gone ? " gone" : ""), () => (discarding ? discardCard(c) : chooseCard(c)));
    b.setAttribute("data-card", c);
    b.setAttribute("aria-pressed", String(active));
    if (gone) { b.disabled = true; b.title = S.cardGone; b.setAttribute("aria-label", c + " — " + S.cardGone); }
  });
  const x = button(wrap, S.discardHand, "card discard-btn" + (discarding ? " active" : ""), () => chooseCard(discarding ? null : "X"));
  x.setAttribute("data-card", "X");
  x.setAttribute("aria-pressed", String(discarding));
  $("confirm-move").disabled = !preview || !pick.move;
  $("cancel-move").disabled = !pick.card;
}

function renderResult(mode) {
  const state = view.state;
  $("result").hidden = mode === "play";
  if (mode === "play") return;
  const note = $("result-note");
  note.hidden = true;
  $("confirm-step").hidden = mode !== "won" || view.applied > 0;
  $("result-done").hidden = !(state.result && state.result.finished);
  if (mode === "won") {
    txt($("result-text"), teamName(state.winner, state) + " " + S.won);
    if (view.applied) { note.hidden = false; txt(note, S.wonProvisional); }
  } else if (mode === "timeup") txt($("result-text"), fill(S.timeUp, { rule: rulesetOf(state).rules.timeUp }));
  else if (state.result && state.result.finished && state.result.winner) {
    txt($("result-text"), teamName(state.result.winner, state) + " " + S.won);
  } else txt($("result-text"), S.roundClosed);
  txt($("final-hash"), state.short_hash);
  document.querySelectorAll(".confirm-btn").forEach((b) => {
    const done = state.confirmations && state.confirmations[b.dataset.side];
    b.disabled = !!done || !config.writable;
    b.classList.toggle("done", !!done);
    b.setAttribute("aria-pressed", String(!!done));
  });
}

function renderLog() {
  const server = sync.server;
  const log = $("log");
  log.textContent = "";
  const entries = server.entries || [];
  const marks = judgeMarks(entries);
  sync.queue.slice().reverse().forEach((q) => make("li", "queued", q.text + " … " + S.waiting, log));
  entries.slice(-12).reverse().forEach((e) => log.appendChild(logItem(e, marks)));
  txt($("short-hash"), server.short_hash);
  txt($("seq"), String(server.seq));
  // Take-back: the table's own last entry only (RULES J2).
  const tb = $("take-back");
  if (tb) {
    const last = entries[entries.length - 1];
    const finished = server.result && server.result.finished;
    const judgeLast = !!last && last.text.indexOf("!") === 0;
    tb.hidden = !last || sync.queue.length > 0 || finished || judgeLast || !config.writable;
    if (takeBackError && takeBackError.seq !== server.seq) takeBackError = null;
    const note = $("take-back-note");
    const said = takeBackError ? takeBackError.text : judgeLast && !finished ? S.takeBackJudge : "";
    note.hidden = !said;
    txt(note, said);
  }
  const box = $("refused-box");
  box.hidden = !sync.refused.length;
  const list = $("refused");
  list.textContent = "";
  sync.refused.forEach((r, i) => {
    const item = make("li", "", "", list);
    make("code", "", r.text, item);
    make("span", "", " — " + r.message + (r.rule ? " (" + S.rule + " " + r.rule + ")" : ""), item);
    const actions = make("span", "refused-actions", "", item);
    if (config.writable) button(actions, S.sendAgain, "secondary small", () => sendAgain(i));
    button(actions, S.remove, "secondary small", () => sync.removeRefused(i));
  });
}

function renderLegalList() {
  const list = $("legal-list");
  if (!list) return;
  list.textContent = "";
  const card = pick.card && pick.card !== "X" ? pick.card : null;
  $("legal-none").hidden = !!card;
  if (!card) return;
  picker.legalOf(view.state, card).forEach((mv) => {
    button(list, mv, "candidate secondary", () => { closeSheet(); choose(mv); render(); }).setAttribute("data-move", mv);
  });
}

function modeOf(state) {
  if (state.winner || (state.result && state.result.finished)) return "won";
  if (state.status === "time_up") return "timeup";
  if (!config.writable) return "closed";
  return "play";
}

function render() {
  view = project(sync.server, sync.queue, config.rules);
  if (view.failed) { sync.recheck(); view = project(sync.server, sync.queue, config.rules); }
  if (view.state.to_move) config.last_turn = view.state.to_move;
  const mode = modeOf(view.state);
  $("device").dataset.mode = mode;
  if (mode !== "play" && pick.card) clearPick(null);
  renderRuling(sync.server);
  renderBoard();
  renderTurn();
  renderStatus();
  renderTray();
  renderCards();
  renderResult(mode);
  renderLog();
  renderLegalList();
}

// --- the sheet: log, judge, typing, settings -----------------------------------------

/* The sheet is a modal <dialog>: the browser keeps the focus in it and closes it on Escape. */
function openSheet(tab) {
  const sheet = $("sheet");
  if (tab === "type" && !config.writable) tab = "settings";
  if (!sheet.open) sheet.showModal();
  sheet.querySelectorAll("[role=tab]").forEach((t) => {
    const on = t.dataset.tab === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    if (on) t.focus();
  });
  sheet.querySelectorAll(".sheet-panel").forEach((p) => { p.hidden = p.dataset.panel !== tab; });
  render();
}
function closeSheet() {
  if ($("sheet").open) $("sheet").close();
}

function sendAgain(i) {
  const item = sync.refused[i];
  const verdict = check(item.text, view, messages);
  if (verdict && !verdict.ok) { error = verdict.error; closeSheet(); render(); return; }
  sync.refused.splice(i, 1);
  sync.enqueue(verdict ? verdict.entry : item.text);
}

function typed(ev) {
  ev.preventDefault();
  const value = $("typed").value;
  if (!value.trim()) return;
  const text = tidy(value);
  const parts = splitSeat(text);
  const box = $("typed-error");
  const verdict = check(text, view, messages);
  const discarding = parts.rest.startsWith("X:");
  clearPick(discarding ? "X" : parts.rest.split(":")[0]);
  if (discarding) pick.discard = parts.rest.slice(2).split(" ").filter(Boolean);
  if (verdict && !verdict.ok) {
    box.hidden = false;
    txt(box, verdict.error.message + (verdict.error.rule ? " (" + S.rule + " " + verdict.error.rule + ")" : ""));
    render();
    return;
  }
  box.hidden = true;
  $("typed").value = "";
  closeSheet();
  if (verdict === null) serverPreview(parts.rest);
  else { pick.move = splitSeat(verdict.entry).rest; preview = { entry: verdict.entry, effect: verdict.effect }; }
  render();
}

function wire() {
  document.querySelectorAll("[data-sheet]").forEach((b) => b.addEventListener("click", () => openSheet(b.dataset.sheet)));
  document.querySelectorAll("#sheet [role=tab]").forEach((t) => t.addEventListener("click", () => openSheet(t.dataset.tab)));
  $("sheet-close").addEventListener("click", closeSheet);
  // A tap on the backdrop (outside the sheet's box) closes it too.
  $("sheet").addEventListener("click", (ev) => { if (ev.target === $("sheet")) closeSheet(); });
  $("confirm-move").addEventListener("click", confirmMove);
  $("ruling-dismiss").addEventListener("click", () => { acknowledgeRuling(); render(); });
  $("cancel-move").addEventListener("click", () => { clearPick(null); render(); });
  $("seven-back").addEventListener("click", () => { picker.sevenBack(pick); pick.msg = ""; preview = null; error = null; render(); });
  $("discard-undo").addEventListener("click", () => { pick.discard.pop(); preview = null; pick.move = null; error = null; render(); });
  const form = $("typed-form");
  if (form) form.addEventListener("submit", typed);
  const tb = $("take-back");
  if (tb) tb.addEventListener("click", () => {
    if (!window.confirm(S.takeBackConfirm)) return;
    const seq = sync.server.seq;
    sync.write(config.urls["take-back"], { seq }).then((err) => {
      if (!err) return;
      // Shown until the log changes; the state is read at once (a ruling may have come in).
      takeBackError = { seq, text: err.message + (err.rule ? " (" + S.rule + " " + err.rule + ")" : "") };
      sync.refresh();
      render();
    });
  });
  document.querySelectorAll(".confirm-btn").forEach((b) => b.addEventListener("click", () => {
    sync.write(config.urls.confirm, { pair_side: b.dataset.side }).then((err) => {
      const note = $("result-note");
      note.hidden = !err;
      if (err) txt(note, err.message);
    });
  }));
  document.querySelectorAll("input[name=orientation]").forEach((r) => {
    r.checked = r.value === orientation;
    r.addEventListener("change", () => {
      orientation = r.value;
      localStorage.setItem(ORIENTATION_KEY, orientation);
      render();
    });
  });
}

wire();
render();
sync.start();
keepForOffline();
