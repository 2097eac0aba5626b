/* What the device writes in words: seats, colours and teams, a move's effect in
 * the tray, an entry of the log (a judge's entry in words, struck through when
 * a judge voided it). */
import { make, S } from "./page.js";
import { allColours, isDuo } from "./ruleset.js";
import { describeJudgeEntry, parseEffect } from "./text.js";

export const seatName = (s) => S["seat" + s] || s;
/* A colour of the position: a seat, or a DUO area ("YK" → "Yellow knob"). */
export const colourName = (c) => (c.length === 2 ? S["area" + c.charAt(0) + c.charAt(1).toLowerCase()] || c : seatName(c));
/* A translated text with {name} placeholders filled in. */
export const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
/* The winning side: a team ("YB"), or a DUO player ("Y"; its side's team code "YB" as well). */
export const teamName = (t, state) => {
  if (isDuo(state)) return seatName(t.charAt(0));
  return t === "YB" ? S.yb : S.rg;
};

/* A move's effect as lines: each colour's pawns moved, hits and locks, the winner. */
export function effectLines(effect, state) {
  const eff = parseEffect(effect);
  const lines = [];
  const byColour = {};
  const colourAt = (loc) => allColours(state).find((s) => (state.position[s] || []).includes(loc)) || loc.charAt(0);
  eff.moves.forEach((mv) => {
    if (/H$/.test(mv.to)) return; // hit home: the hit line says it
    const c = colourAt(mv.from);
    (byColour[c] = byColour[c] || []).push(mv.from + " → " + mv.to);
  });
  Object.keys(byColour).forEach((c) => lines.push({ text: colourName(c) + ": " + byColour[c].join(", "), cls: "effect-move" }));
  eff.events.forEach((e) => lines.push({
    text: colourName(e.colour) + " " + (e.type === "hit" ? S.hit : S.lock) + " " + e.at, cls: "event-" + e.type,
  }));
  if (eff.winner) lines.push({ text: teamName(eff.winner, state) + " " + S.won, cls: "event-win" });
  return lines;
}

/* One entry of the log, with the judge's marks (judgeMarks). */
export function logItem(e, marks) {
  const item = document.createElement("li");
  item.setAttribute("data-seq", e.seq);
  const mark = marks[e.seq] || "";
  const judge = e.text.indexOf("!") === 0;
  if (judge) {
    item.className = "judge-entry" + (mark ? " " + mark : "");
    item.appendChild(document.createTextNode(e.seq + ". "));
    make("span", "judge-label", S.judgeRuling + ": ", item);
    make(mark === "undone" ? "s" : "span", "entry-text", describeJudgeEntry(e.text, S, colourName) || e.text.replace(/^! /, ""), item);
  } else {
    item.className = mark === "void" ? "voided" : mark;
    make(mark === "void" ? "s" : "span", "entry-text", e.seq + ". " + e.text, item);
  }
  item.appendChild(document.createTextNode("  #" + e.short_hash));
  if (mark) make("span", "entry-note", " — " + (mark === "void" ? S.voided : mark === "kept" ? S.kept : S.undone), item);
  return item;
}
