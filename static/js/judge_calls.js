/* Judge dashboard: open judge calls, polled every 2 s; "Take the call" tells
 * the table who is coming; "Replay and rule" opens the table's review page at
 * the entry the table pointed at. CSP-safe: data via data-* attributes.
 * Polls are conditional (If-None-Match): 304 leaves the list as it is.
 */
import { Poller } from "./poller.js";

const list = document.getElementById("judge-calls");
if (list) {
  var S = document.getElementById("judge-calls-strings").dataset;
  var csrfInput = document.querySelector("#judge-csrf input[name=csrfmiddlewaretoken]");
  var csrf = csrfInput ? csrfInput.value : "";

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function take(id) {
    fetch(list.dataset.takeUrl.replace("/0/", "/" + id + "/"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf, "Accept": "application/json" }
    }).then(poll).catch(function () {});
  }

  function render(calls) {
    while (list.firstChild) list.removeChild(list.firstChild);
    if (!calls.length) { list.appendChild(el("li", "muted", S.none)); return; }
    calls.forEach(function (c) {
      var li = el("li", "judge-call judge-call-" + c.status);
      li.dataset.callId = c.id;
      li.appendChild(el("strong", "", S.table + " " + c.table));
      li.appendChild(el("span", "", " · " + c.created_at_local));
      if (c.seq) li.appendChild(el("code", "", " " + S.entry + " " + c.seq + ": " + c.entry));
      if (c.reason) li.appendChild(el("p", "", c.reason));
      if (c.taken_by) li.appendChild(el("p", "muted", S.coming + " " + c.taken_by));
      else {
        var b = el("button", "take-call", S.take);
        b.type = "button";
        b.addEventListener("click", function () { take(c.id); });
        li.appendChild(b);
      }
      var a = el("a", "button secondary review-link", S.review);
      a.href = c.review_url;
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  var poller = new Poller({
    url: list.dataset.url,
    interval: 2000,
    onData: function (data) {
      if (!data.calls) return false;
      render(data.calls);
    }
  });
  function poll() { return poller.now(); }
  poller.start({ immediate: true });
}
