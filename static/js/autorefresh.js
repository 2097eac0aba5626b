/* Live public pages: re-fetch the page's fragment while the tab is visible.
 * Markup: <div data-autorefresh="URL" data-autorefresh-seconds="20">…</div>
 * No inline script (CSP); a failed fetch keeps the last good content. */
(function () {
  "use strict";
  var MIN_SECONDS = 10;

  function setUp(box) {
    var url = box.getAttribute("data-autorefresh");
    var seconds = Math.max(MIN_SECONDS, parseInt(box.getAttribute("data-autorefresh-seconds"), 10) || 20);
    var last = 0;
    var busy = false;

    function refresh() {
      if (busy || document.visibilityState !== "visible") { return; }
      busy = true;
      fetch(url, { credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html !== null && html !== box.innerHTML) { box.innerHTML = html; }
          last = Date.now();
        })
        .catch(function () { /* offline for a moment: try again next tick */ })
        .then(function () { busy = false; });
    }

    last = Date.now();
    window.setInterval(function () {
      if (Date.now() - last >= seconds * 1000) { refresh(); }
    }, 1000);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && Date.now() - last >= seconds * 1000) { refresh(); }
    });
  }

  document.querySelectorAll("[data-autorefresh]").forEach(setUp);
})();
