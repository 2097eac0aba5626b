/* One poller for every page that keeps itself up to date (docs/move-log.md, "Polling").
 *
 *   import { Poller } from "./poller.js";
 *   const poller = new Poller({ url, interval: 5000, onData(body, info) { … } });
 *   poller.start();
 *
 * What every poll does:
 * - a conditional GET: the ETag of the last answer goes out as If-None-Match;
 *   a 304 calls onNotModified and keeps what the page shows;
 * - one request at a time: now() during a request polls again right after it;
 * - a tab in the background polls nothing; when it is visible again, a poll
 *   that fell due meanwhile is made at once;
 * - errors (network, offline, any status other than 2xx and 304) call
 *   onError and wait twice as long each time, up to maxInterval; the first
 *   answer brings the interval back, and so does the browser going online
 *   (which polls at once); an error from an answer carries its ``status``;
 * - stop() ends it (a finished print job, a page that moved on);
 * - push: {url, kinds} listens on a Server-Sent Events stream (docs/push.md):
 *   each pushed change of one of ``kinds`` (all kinds without it) polls at
 *   once, and while the stream is open the regular poll is slowed to
 *   PUSHED_MS as a safety net. Where EventSource is missing, or the stream
 *   fails or is refused (204: push is off here), polling goes on as before;
 *   the browser reconnects by itself and resumes from the last event seen.
 *   ``push.settle`` (ms): an answer the server shares for a moment after a
 *   change (the hall, HALL_CACHE_SECONDS) may predate the change that was
 *   pushed, so a pushed change also polls once more that long after the last one.
 *
 * Callbacks get ``info``: {response, served, halfTrip}. ``served`` is the
 * X-Server-Time header (epoch seconds when the answer left the server, NaN
 * without it) and ``halfTrip`` half the round trip in seconds, for pages that
 * count a clock on from the server's time. onData returning false keeps the
 * previous ETag (the page did not take this answer).
 */

const DEFAULT_MAX_MS = 30000;
const PUSHED_MS = 60000;

export class Poller {
  constructor({
    url,
    interval,
    maxInterval,
    etag = null,
    headers = {},
    credentials = "same-origin",
    as = "json",
    before = null,
    onData = null,
    onNotModified = null,
    onError = null,
    push = null,
  }) {
    this.url = url;
    this.interval = interval;
    this.maxInterval = Math.max(interval, maxInterval || Math.min(interval * 8, DEFAULT_MAX_MS));
    this.etag = etag;
    this.headers = headers;
    this.credentials = credentials;
    this.as = as;
    this.before = before;
    this.onData = onData;
    this.onNotModified = onNotModified;
    this.onError = onError;
    this.push = push && push.url ? push : null;
    this.source = null;
    this.pushed = false; // a push stream is open: the poll is only a safety net
    this.failures = 0;
    this.timer = null;
    this.inflight = false;
    this.again = false;
    this.due = false; // a poll fell due while the tab was hidden
    this.settleTimer = null; // the poll after a pushed change's shared moment
    this.running = false;
    this.onVisible = () => {
      if (!document.hidden && this.due) this.now();
    };
    this.onOnline = () => {
      this.failures = 0;
      this.now();
    };
  }

  /* Start polling: at once with {immediate: true}, else after one interval. */
  start({ immediate = false } = {}) {
    if (this.running) return this;
    this.running = true;
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    if (immediate) this.now();
    else this.schedule();
    this.listen();
    return this;
  }

  /* Open the push stream, if the page has one and the browser can. */
  listen() {
    if (!this.push || typeof window.EventSource !== "function") return;
    const source = new EventSource(this.push.url);
    this.source = source;
    source.onopen = () => {
      this.pushed = true;
      this.changed(); // what changed before the stream opened
    };
    source.onmessage = (event) => {
      let kind = "";
      try {
        kind = JSON.parse(event.data).kind;
      } catch (error) {
        kind = "";
      }
      if (kind === "reset" || !this.push.kinds || this.push.kinds.indexOf(kind) >= 0) this.changed();
    };
    source.onerror = () => {
      // Reconnecting, or refused for good (CLOSED): poll at the usual pace meanwhile.
      if (source.readyState === 2) this.source = null;
      if (this.pushed) {
        this.pushed = false;
        this.schedule();
      }
    };
  }

  /* A pushed change: poll now, or as soon as the tab is visible again. */
  changed() {
    if (document.hidden) this.due = true;
    else this.now();
    if (this.push && this.push.settle) {
      clearTimeout(this.settleTimer);
      this.settleTimer = setTimeout(() => this.settled(), this.push.settle);
    }
  }

  /* The settle poll: like a pushed change, without scheduling another. */
  settled() {
    this.settleTimer = null;
    if (!this.running) return;
    if (document.hidden) this.due = true;
    else this.now();
  }

  stop() {
    if (this.source) this.source.close();
    this.source = null;
    this.pushed = false;
    this.running = false;
    clearTimeout(this.timer);
    clearTimeout(this.settleTimer);
    this.settleTimer = null;
    this.timer = null;
    this.again = false;
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
  }

  /* The delay before the next poll: the interval, doubled for each error in a row. */
  get delay() {
    if (this.pushed) return Math.max(this.interval, PUSHED_MS);
    return Math.min(this.interval * 2 ** this.failures, this.maxInterval);
  }

  schedule() {
    clearTimeout(this.timer);
    if (this.running) this.timer = setTimeout(() => this.tick(), this.delay);
  }

  tick() {
    this.timer = null;
    if (document.hidden) {
      this.due = true; // paused until the tab is visible again
      return;
    }
    this.now();
  }

  /* Poll now (one request at a time: during one, poll again right after it). */
  now() {
    if (!this.running) return Promise.resolve();
    if (this.inflight) {
      this.again = true;
      return Promise.resolve();
    }
    this.due = false;
    clearTimeout(this.timer);
    this.timer = null;
    if (this.before && this.before() === false) {
      this.schedule();
      return Promise.resolve();
    }
    this.inflight = true;
    return this.fetch().then(() => {
      this.inflight = false;
      if (this.again) {
        this.again = false;
        this.now();
      } else this.schedule();
    });
  }

  fetch() {
    const headers = Object.assign(this.as === "json" ? { Accept: "application/json" } : {}, this.headers);
    if (this.etag) headers["If-None-Match"] = this.etag;
    const sent = performance.now();
    const url = typeof this.url === "function" ? this.url() : this.url;
    return fetch(url, { headers, credentials: this.credentials, cache: "no-store" })
      .then((response) => {
        const info = {
          response,
          served: parseFloat(response.headers.get("X-Server-Time")),
          halfTrip: (performance.now() - sent) / 2000,
        };
        if (response.status === 304) {
          this.failures = 0;
          if (this.onNotModified) this.onNotModified(info);
          return;
        }
        if (!response.ok) throw Object.assign(new Error(String(response.status)), { status: response.status });
        return (this.as === "json" ? response.json() : response.text()).then((body) => {
          this.failures = 0;
          const tag = response.headers.get("ETag");
          const taken = this.onData ? this.onData(body, info) : undefined;
          if (taken !== false) this.etag = tag;
        });
      })
      .catch((error) => {
        this.failures += 1;
        if (this.onError) this.onError(error);
      });
  }
}
