/* The judge's rulings on the device: the newest one not yet acknowledged here,
 * with its kind, the judge and the reason; acknowledged per device (kept over
 * a reload). */
import { $, RULING_KEY, S, txt } from "./page.js";
import { fill } from "./words.js";

let rulings = []; // the latest rulings (the state's "rulings"; a write's answer has none)

export function renderRuling(server) {
  if (server && Array.isArray(server.rulings)) rulings = server.rulings;
  const seen = Number(localStorage.getItem(RULING_KEY) || 0);
  const last = rulings.length ? rulings[rulings.length - 1] : null;
  const box = $("ruling");
  box.hidden = !last || last.id <= seen;
  if (box.hidden) return;
  txt($("ruling-what"), S["ruling" + last.kind.charAt(0).toUpperCase() + last.kind.slice(1)] || last.kind);
  txt($("ruling-by"), last.judge ? "· " + fill(S.rulingBy, { name: last.judge }) : "");
  txt($("ruling-reason"), last.reason ? fill(S.rulingReason, { reason: last.reason }) : "");
  txt($("ruling-log"), (last.log || []).join(" · "));
  box.dataset.rulingId = String(last.id);
}

export function acknowledgeRuling() {
  localStorage.setItem(RULING_KEY, $("ruling").dataset.rulingId || "0");
}
