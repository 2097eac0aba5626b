/* Live game clocks. Every element with data-clock-url or data-clock-feed gets a countdown.
 *
 * The server is the clock: a data-clock-url element fetches its clock JSON on
 * load and every 15 s (data-clock-sync-s); a data-clock-feed element fetches
 * nothing: another script pushes its states with
 * window.PartnersClock.feed(element, state, ageSeconds) (the hall screen reads
 * every table's clock from one hall API answer, live.js). Between states it
 * counts locally at the clock's speed from the moment the state was true on
 * the server: ageSeconds says how long before its arrival that was (a shared
 * copy of the hall answer may be up to 2 s old; the feeder works it out from
 * the state's server_time), so a cached answer never makes a clock jump.
 * The device's own clock is only used to measure time *since a state was
 * true*, never for the absolute time, so every device shows the same clock.
 * Fetched clocks poll through poller.js (paused while the tab is hidden,
 * slower after errors). No inline script needed (CSP): include with
 * <script type="module" src=...>.
 */
import { Poller } from "./poller.js";

{
  var SYNC_MS = 15000;
  var TICK_MS = 250;

  function fmt(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    var r = s % 60;
    var mm = (h > 0 && m < 10 ? "0" : "") + m;
    return (h > 0 ? h + ":" : "") + mm + ":" + (r < 10 ? "0" : "") + r;
  }

  function Clock(el) {
    this.el = el;
    this.url = el.getAttribute("data-clock-url"); // null: fed by another script
    this.syncMs = (parseFloat(el.getAttribute("data-clock-sync-s")) || SYNC_MS / 1000) * 1000;
    this.state = null;
    this.syncedAt = 0; // performance.now() at the last sync
    this.time = document.createElement("span");
    this.time.className = "game-clock__time";
    this.label = document.createElement("span");
    this.label.className = "game-clock__label";
    el.textContent = "";
    el.appendChild(this.time);
    el.appendChild(this.label);
    el.setAttribute("role", "timer");
    el.setAttribute("aria-live", "off");
  }

  /* Fetch the clock from the server now (and every syncMs from then on). */
  Clock.prototype.sync = function () {
    var self = this;
    if (!this.poller) {
      this.poller = new Poller({
        url: this.url,
        interval: this.syncMs,
        onData: function (data, info) {
          // Half the round trip has passed since the server read its clock.
          self.set(data, info.halfTrip);
        },
        onNotModified: function () { self.el.classList.remove("game-clock--offline"); },
        onError: function () { self.el.classList.add("game-clock--offline"); }
      });
      return this.poller.start({ immediate: true });
    }
    return this.poller.now();
  };

  /* state: the clock JSON; ageS: seconds between the state's server_time and now. */
  Clock.prototype.set = function (state, ageS) {
    this.state = state;
    this.syncedAt = performance.now() - (isFinite(ageS) && ageS > 0 ? ageS : 0) * 1000;
    this.el.classList.remove("game-clock--offline");
    this.render();
  };

  Clock.prototype.current = function () {
    var s = this.state;
    if (!s) { return null; }
    var elapsed = s.elapsed_s;
    if (s.status === "running") {
      elapsed += ((performance.now() - this.syncedAt) / 1000) * (s.speed || 1);
    }
    elapsed = Math.min(elapsed, s.limit_s);
    return { elapsed: elapsed, remaining: Math.max(0, s.limit_s - elapsed) };
  };

  Clock.prototype.render = function () {
    var s = this.state;
    var now = this.current();
    if (!s || !now) { return; }
    var status = s.status;
    if (status === "running" && now.remaining <= 0) {
      status = "time_up";
      // The server flips the game to time up; fetch it soon (a fed clock
      // hears it with the feeder's next state).
      if (this.url && !this.pendingSync) {
        var self = this;
        this.pendingSync = setTimeout(function () { self.pendingSync = null; self.sync(); }, 1000);
      }
    }
    this.time.textContent = fmt(now.remaining);
    var label = s.status === status ? (s.status_label || "") : "";
    // A page for spectators says what the time is: "58:38 left", the status only when not running.
    var left = this.el.getAttribute("data-clock-left");
    if (left) label = left + (status !== "running" && label ? " · " + label : "");
    this.label.textContent = label;
    var el = this.el;
    ["running", "paused", "time_up", "stopped", "not_started"].forEach(function (name) {
      el.classList.toggle("game-clock--" + name, name === status);
    });
    el.classList.toggle("game-clock--alert", status === "running" && now.elapsed >= s.alert_s);
    el.setAttribute("data-clock-status", status);
  };

  var clocks = [];
  var ticking = false;

  function clockOf(el) {
    if (!el.partnersClock) {
      el.partnersClock = new Clock(el);
      clocks.push(el.partnersClock);
      if (!ticking) {
        ticking = true;
        setInterval(function () { clocks.forEach(function (c) { c.render(); }); }, TICK_MS);
      }
    }
    return el.partnersClock;
  }

  window.PartnersClock = {
    feed: function (el, state, ageS) { if (el && state) { clockOf(el).set(state, ageS); } }
  };

  function start() {
    document.querySelectorAll("[data-clock-feed]").forEach(clockOf);
    document.querySelectorAll("[data-clock-url]").forEach(function (el) { clockOf(el).sync(); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
