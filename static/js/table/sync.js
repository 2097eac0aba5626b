/* The table's link to the server: the queue of entries, sending, polling.
 *
 * Every confirmed entry goes into a queue kept in localStorage (per game):
 * {client_id, text}. The queue is sent in order, one entry at a time, each
 * with the sequence number of the last entry the server has (expected_seq);
 * a retry sends the same client_id, so the server never stores an entry
 * twice. While entries wait, the page shows them as played (game.js).
 *
 * When the server's log moved on (409 stale: a judge's entry, another
 * device) the page takes its state and plays the queue on it again: the
 * first entry that no longer fits, and every entry after it (made in a game
 * that no longer is), move to the "not stored" list with the reason. They
 * are never dropped: the players send one again or remove it. The server
 * refusing an entry (422) does the same.
 *
 * Idle, the state is read every 5 s with the ETag of the state shown
 * (If-None-Match: a 304 while nothing changed), through poller.js; while
 * entries wait, that tick sends them instead.
 *
 * The last state the server gave (and its ETag) is kept next to the queue,
 * in the same write: a reload offline (the page from the service worker's
 * copy, docs/move-log.md "Offline reload") shows the board as the device
 * last knew it, with the queue played on it. A page from the server brings
 * the latest truth and its state wins; a kept copy of the page (the worker
 * marks it: #device data-page="kept") is older than the state this device
 * stored since, so the stored state wins.
 */
import { Poller } from "../poller.js";
import { explain, project } from "./game.js";

const POLL_MS = 5000;
const RETRY_MS = 4000;

function uid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
}

export class Sync {
  constructor({ config, state, messages, onChange }) {
    this.config = config;
    this.messages = messages;
    this.onChange = onChange;
    this.key = "dmp-table-" + config.game_id;
    this.store = this.load();
    const kept = this.store.server;
    const fromCopy = !!(config.kept_copy && kept && kept.state && kept.state.seq !== undefined);
    this.server = fromCopy ? kept.state : state;
    this.poller = new Poller({
      url: config.urls.state,
      interval: POLL_MS,
      etag: (fromCopy ? kept.etag : config.state_etag) || null,
      credentials: "omit",
      before: () => {
        if (this.queue.length) {
          this.flush();
          return false;
        }
        return !this.sending;
      },
      onData: (data, info) => this.polled(data, info.response.headers.get("ETag")),
      onNotModified: () => this.polled(null), // log head, status, result and confirmations as shown
      onError: (error) => {
        if (error.status) this.polled(null); // the server answered: online, nothing to take
        else if (!this.offline) { this.online = false; this.changed(); }
      },
    });
    this.online = navigator.onLine !== false;
    this.sending = false;
    this.retryTimer = null;
    this.lang = document.documentElement.lang || "da";
    if (!fromCopy) this.save();
  }

  load() {
    try {
      const kept = JSON.parse(localStorage.getItem(this.key));
      if (kept && Array.isArray(kept.queue)) return { queue: kept.queue, refused: kept.refused || [], server: kept.server || null };
    } catch (e) { /* a damaged copy: start empty */ }
    return { queue: [], refused: [], server: null };
  }
  save() {
    const server = { state: this.server, etag: this.poller.etag };
    try {
      localStorage.setItem(this.key, JSON.stringify({ queue: this.store.queue, refused: this.store.refused, server }));
    } catch (e) {
      // Storage full: the queue matters more than the copy of the state.
      localStorage.setItem(this.key, JSON.stringify({ queue: this.store.queue, refused: this.store.refused }));
    }
  }
  get queue() { return this.store.queue; }
  get refused() { return this.store.refused; }
  get offline() { return !this.online || navigator.onLine === false; }

  start() {
    window.addEventListener("online", () => { this.online = true; this.flush(); this.changed(); });
    window.addEventListener("offline", () => { this.online = false; this.changed(); });
    this.poller.start();
    this.recheck();
    this.flush();
  }
  changed() { this.onChange(); }

  enqueue(text) {
    this.queue.push({ client_id: uid(), text });
    this.save();
    this.flush();
    this.changed();
  }

  /* Take the server's ``state`` (with its ETag, when it came from a read or a submission). */
  adopt(state, tag) {
    if (!state || state.seq === undefined) return;
    this.server = state;
    this.poller.etag = tag || null;
    this.save();
  }

  /* Play the queue on the server's state; move what no longer fits to the refused list. */
  recheck() {
    const view = project(this.server, this.queue, this.config.rules);
    if (!view.failed) return;
    const [first, ...after] = this.queue.splice(view.failed.index);
    const why = explain(view.failed.error, this.messages);
    this.refuse(first, why.message, why.rule);
    after.forEach((item) => this.refuse(item, this.messages.afterRefused, ""));
    this.save();
  }
  refuse(item, message, rule) {
    this.refused.push({ text: item.text, message, rule });
  }

  post(url, body) {
    body.lang = this.lang;
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    }).then((r) => r.json().catch(() => ({})).then((data) => ({ status: r.status, data })));
  }

  flush() {
    if (this.sending || !this.queue.length || !this.config.writable) return;
    if (navigator.onLine === false) { this.online = false; this.changed(); return; }
    this.sending = true;
    const item = this.queue[0];
    const body = { client_id: item.client_id, expected_seq: this.server.seq, text: item.text };
    this.post(this.config.urls.entries, body).then((res) => {
      this.sending = false;
      this.online = true;
      const err = res.data && res.data.error;
      if (res.status === 201 || res.status === 200) {
        this.queue.shift();
        // The answer carries the legal moves and the ETag of the state the
        // device reads (?tail=20): no read needed, the next poll is a 304.
        this.adopt(res.data.state, res.data.state_etag);
      } else if (res.status === 409 && err && err.code === "stale_sequence") {
        this.adopt(err.state);
        this.recheck();
      } else if ([400, 403, 409, 422].includes(res.status)) {
        // The server refuses this entry: it and the entries made after it wait for the players.
        const [first, ...after] = this.queue.splice(0);
        this.refuse(first, err ? err.message : String(res.status), err ? (err.rule || err.code) : "");
        after.forEach((rest) => this.refuse(rest, this.messages.afterRefused, ""));
        if (err && err.state) this.adopt(err.state);
      } else {
        this.online = false;
        this.retryLater();
      }
      this.save();
      this.changed();
      if (this.queue.length && this.online) this.flush();
      else if (this.server.legal_entries === null) this.poll();
    }).catch(() => {
      this.sending = false;
      this.online = false;
      this.retryLater();
      this.changed();
    });
  }
  retryLater() {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.flush(); }, RETRY_MS);
  }

  poll() {
    this.poller.now();
  }
  /* A state read answered: ``data`` is the new state (null: nothing to take). */
  polled(data, tag) {
    const was = this.offline;
    this.online = true;
    if (data && data.seq !== undefined && !this.queue.length) {
      this.adopt(data, tag);
      this.changed();
      return true;
    }
    if (was) this.changed();
    return false;
  }

  /* Read the whole state now (not conditionally): after a refusal the server knows better. */
  refresh() {
    this.poller.etag = null;
    this.poll();
  }

  /* A write other than an entry (take-back, confirmation): its answer is the new state. */
  write(url, body) {
    return this.post(url, Object.assign({ client_id: uid() }, body)).then((res) => {
      if (res.status === 200) {
        this.adopt(res.data);
        this.changed();
        this.poll();
        return null;
      }
      return (res.data && res.data.error) || { message: String(res.status) };
    }, () => {
      this.online = false;
      this.changed();
      return { message: this.messages.offline };
    });
  }

  removeRefused(i) {
    this.refused.splice(i, 1);
    this.save();
    this.changed();
  }
}
