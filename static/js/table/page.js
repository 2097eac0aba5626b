/* The table page itself: the data it was served with (json_script blocks and
 * data-* attributes, CSP), small helpers to build its parts, and the service
 * worker that keeps it for a reload offline. */
import "../board.js";

export const $ = (id) => document.getElementById(id);
export const config = JSON.parse($("table-config").textContent);
// The service worker's kept copy of this page, shown offline (sync.js takes the state stored since).
config.kept_copy = $("device").dataset.page === "kept";
export const S = Object.assign({}, $("strings").dataset, $("table-strings").dataset);
export const Board = window.PartnersBoard;
export const messages = {
  engine: config.rules.messages,
  colours: config.rules.colours,
  gameOver: S.gameOver,
  afterRefused: S.afterRefused,
  offline: S.offline,
};
export const ORIENTATION_KEY = "dmp-table-orientation-" + config.game_id;
// The judge's ruling this device acknowledged last (its id): it stays hidden after a reload.
export const RULING_KEY = "dmp-table-ruling-seen-" + config.game_id;

export function txt(node, value) { node.textContent = value; return node; }
export function make(tag, cls, text, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}
export function button(parent, label, cls, onClick) {
  const b = make("button", cls, label, parent);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

/* The service worker that keeps this page and its files for a reload offline (scope /t/). */
export function keepForOffline() {
  if (!config.worker_url || !("serviceWorker" in navigator)) return;
  const first = !navigator.serviceWorker.controller; // this page came before the worker: ask it to keep one
  navigator.serviceWorker.register(config.worker_url)
    .then(() => navigator.serviceWorker.ready)
    .then((reg) => { if (first && reg.active) reg.active.postMessage({ keep: location.href }); })
    .catch(() => { /* no worker: online as before */ });
}
