/* Table page: call a judge, see who is coming and every ruling.
 *
 * Polls the table's judge status every 5 s, conditionally (If-None-Match:
 * 304 leaves the box as it is). A call carries a client id kept
 * in localStorage until the server answers, so a double tap or a retry after
 * a lost connection never makes two calls (the server also keeps one open
 * call per table). Data attributes only (CSP-safe).
 */
import { Poller } from "./poller.js";
import { describeJudgeEntry } from "./table/text.js";

const box = document.getElementById("judge-box");
if (box) {
  var url = box.dataset.url;
  var S = document.getElementById("judge-strings").dataset;
  // The game's words (seat names, judge entries): templates/games/_strings.html.
  var W = (document.getElementById("strings") || { dataset: {} }).dataset;
  function colourName(c) {
    return c.length === 2 ? W["area" + c.charAt(0) + c.charAt(1).toLowerCase()] || c : W["seat" + c] || c;
  }
  var KEY = "dmp-judge-call-" + box.dataset.game;
  var form = document.getElementById("judge-call-form");
  var statusEl = document.getElementById("judge-call-status");
  var listEl = document.getElementById("judge-rulings");
  var errorEl = document.getElementById("judge-error");
  var lang = document.documentElement.lang || "da";

  function uid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  function showError(text) { errorEl.textContent = text; errorEl.hidden = !text; }

  function render(data) {
    var call = data.call;
    if (call) {
      var text = call.taken_by ? S.coming.split("{name}").join(call.taken_by) : S.waiting;
      if (call.paused_clock) text += " " + S.paused;
      statusEl.textContent = text;
      statusEl.hidden = false;
      if (form) form.hidden = true;
    } else {
      statusEl.hidden = true;
      if (form) form.hidden = false;
    }
    while (listEl.firstChild) listEl.removeChild(listEl.firstChild);
    if (!data.rulings.length) {
      var none = document.createElement("li");
      none.className = "muted";
      none.textContent = S.none;
      listEl.appendChild(none);
    }
    data.rulings.forEach(function (r) {
      var li = document.createElement("li");
      li.className = "ruling ruling-" + r.kind;
      var head = document.createElement("strong");
      head.textContent = r.kind_label + (r.rule ? " (" + r.rule + ")" : "");
      li.appendChild(head);
      r.entries.forEach(function (e) {
        var said = document.createElement("span");
        said.textContent = " · " + e.seq + ". " + (describeJudgeEntry(e.text, W, colourName) || e.text);
        li.appendChild(said);
      });
      var meta = document.createElement("span");
      meta.className = "muted";
      meta.textContent = " · " + S.by + " " + r.judge + " " + r.created_at_local;
      li.appendChild(meta);
      var why = document.createElement("p");
      why.textContent = r.reason;
      li.appendChild(why);
      listEl.appendChild(li);
    });
  }

  var poller = new Poller({
    url: url,
    interval: 5000,
    credentials: "omit",
    headers: { "Accept-Language": lang },
    onData: function (data) {
      if (!data || !data.rulings) return false;
      render(data);
    }
  });

  function send(pending) {
    return fetch(url, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "Accept-Language": lang },
      body: JSON.stringify(pending)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) {
          localStorage.removeItem(KEY);
          showError((data.error && data.error.message) || S.offline);
          return;
        }
        localStorage.removeItem(KEY);
        showError("");
        poller.etag = null; // the box now shows this answer, not the one the tag names
        render(data);
      });
    }).catch(function () { showError(S.offline); });
  }

  if (form) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var pending = JSON.parse(localStorage.getItem(KEY) || "null");
      if (!pending) {
        var seq = document.getElementById("judge-call-seq").value;
        pending = {
          client_id: uid(),
          reason: document.getElementById("judge-call-reason").value,
          seq: seq ? parseInt(seq, 10) : null
        };
        localStorage.setItem(KEY, JSON.stringify(pending));
      }
      send(pending);
    });
  }
  var leftover = JSON.parse(localStorage.getItem(KEY) || "null");
  poller.start({ immediate: !leftover });
  if (leftover) send(leftover);
}
