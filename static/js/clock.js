/* Live game clocks. Every element with data-clock-url gets a countdown.
 *
 * The server is the clock: each element fetches its clock JSON on load and
 * every 15 s (data-clock-sync-s), keeps the offset between the server's time
 * and the device's, and counts locally in between at the clock's speed.
 * The device's own clock is only used to measure time *since the last sync*,
 * never for the absolute time, so every device shows the same clock.
 * No inline script needed (CSP): include with <script src=... defer>.
 */
(function () {
  "use strict";

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
    this.url = el.getAttribute("data-clock-url");
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

  Clock.prototype.sync = function () {
    var self = this;
    var sent = performance.now();
    return fetch(this.url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (data) {
        // Half the round trip has passed since the server read its clock.
        var now = performance.now();
        self.state = data;
        self.syncedAt = now - (now - sent) / 2;
        self.el.classList.remove("game-clock--offline");
        self.render();
      })
      .catch(function () { self.el.classList.add("game-clock--offline"); });
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
      // The server flips the game to time up; fetch it soon.
      if (!this.pendingSync) {
        var self = this;
        this.pendingSync = setTimeout(function () { self.pendingSync = null; self.sync(); }, 1000);
      }
    }
    this.time.textContent = fmt(now.remaining);
    this.label.textContent = s.status === status ? (s.status_label || "") : "";
    var el = this.el;
    ["running", "paused", "time_up", "stopped", "not_started"].forEach(function (name) {
      el.classList.toggle("game-clock--" + name, name === status);
    });
    el.classList.toggle("game-clock--alert", status === "running" && now.elapsed >= s.alert_s);
    el.setAttribute("data-clock-status", status);
  };

  function start() {
    var clocks = [];
    document.querySelectorAll("[data-clock-url]").forEach(function (el) {
      var clock = new Clock(el);
      clocks.push(clock);
      clock.sync();
      setInterval(function () { clock.sync(); }, clock.syncMs);
    });
    if (clocks.length) {
      setInterval(function () { clocks.forEach(function (c) { c.render(); }); }, TICK_MS);
      document.addEventListener("visibilitychange", function () {
        if (!document.hidden) { clocks.forEach(function (c) { c.sync(); }); }
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
