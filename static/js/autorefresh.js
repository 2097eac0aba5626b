/* Live public pages: re-fetch the page's fragment while the tab is visible.
 * Markup: <div data-autorefresh="URL" data-autorefresh-seconds="20"
 *   data-autorefresh-push="/push/event/<slug>/">…</div> (the push stream: re-fetched
 *   when the event's pages change, docs/push.md).
 * No inline script (CSP); a failed fetch keeps the last good content, and a
 * 304 (the fragment's ETag still holds) leaves it as it is. */
import { Poller } from "./poller.js";

const MIN_SECONDS = 10;

function setUp(box) {
  const seconds = Math.max(MIN_SECONDS, parseInt(box.getAttribute("data-autorefresh-seconds"), 10) || 20);
  new Poller({
    url: box.getAttribute("data-autorefresh"),
    interval: seconds * 1000,
    as: "text",
    push: { url: box.getAttribute("data-autorefresh-push"), kinds: ["pages"] },
    headers: { "X-Requested-With": "fetch" },
    onData(html) {
      if (html !== box.innerHTML) box.innerHTML = html;
    },
  }).start();
}

document.querySelectorAll("[data-autorefresh]").forEach(setUp);
