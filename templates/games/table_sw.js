/* The table device's service worker (scope /t/): the table page survives a reload offline.
 *
 * Served by games.views.table_worker from this template; MANIFEST (the
 * static files the table page loads, and a hash of their contents) is
 * written in by the server, so a deploy that changes a file changes this
 * text and the browser installs the new worker (docs/move-log.md "Offline
 * reload", docs/decisions.md).
 *
 * - Table pages (/t/<token>/, a navigation this device made itself):
 *   network first; the answer is kept (the last few tables opened here), the
 *   kept copy answers when the network does not.
 * - The page's static files: network first as well (their names carry no
 *   hash, so a kept copy must never win over a reachable server); all are
 *   fetched when the worker installs, and kept per version.
 * - Everything else (the JSON API, every POST, the code form /t/): not
 *   touched. The last known state and the queue are the page's own
 *   (localStorage, static/js/table/sync.js).
 */
const MANIFEST = {{ manifest_json|safe }};
const STATIC_CACHE = "dmp-table-static-" + MANIFEST.version;
const PAGE_CACHE = "dmp-table-pages";
const PAGE_LIMIT = 4; // a player's tables of the last rounds, not every table ever opened
const WAIT_MS = 4000; // a network that does not answer: the kept copy, if any, after this
const SCOPE = new URL(self.registration.scope).pathname; // "/t/"
const ASSETS = new Set(MANIFEST.assets);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then((cache) => cache.addAll(MANIFEST.assets.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("dmp-table-static-") && n !== STATIC_CACHE).map((n) => caches.delete(n))
      ))
      .then(() => self.clients.claim())
  );
});

/* A table page: the scope, then one path segment (the token), then a slash. */
function isTablePage(url) {
  if (!url.pathname.startsWith(SCOPE)) return false;
  return /^[^/]+\/$/.test(url.pathname.slice(SCOPE.length));
}

function keepable(response) {
  return response.status === 200 && !response.redirected && response.type === "basic";
}

/* A kept table page says so (the page then takes the state the device stored since). */
function markKept(response) {
  return response.text().then((html) => new Response(
    html.replace('data-page="server"', 'data-page="kept"'),
    { status: response.status, statusText: response.statusText, headers: response.headers }
  ));
}

/* The network's answer, else (failed, or silent for WAIT_MS) the copy kept under ``key``. */
function networkFirst(event, cacheName, key, onKept, mark) {
  const request = event.request;
  return caches.open(cacheName).then((cache) => new Promise((resolve) => {
    let done = false;
    const answer = (response) => { if (!done) { done = true; resolve(response); } };
    const kept = () => cache.match(key).then((hit) => (hit && mark ? mark(hit) : hit));
    const timer = setTimeout(() => kept().then((hit) => { if (hit) answer(hit); }), WAIT_MS);
    fetch(request).then((response) => {
      clearTimeout(timer);
      if (keepable(response)) {
        const copy = response.clone(); // now: the page reads the body as soon as it is answered
        const writing = cache.delete(key).then(() => cache.put(key, copy)).then(() => onKept && onKept(cache));
        // The worker stays up until the copy is written (unless the kept copy answered already).
        try { event.waitUntil(writing); } catch (e) { /* the event is over; the write goes on */ }
      }
      answer(response);
    }, () => {
      clearTimeout(timer);
      kept().then((hit) => answer(hit || Response.error()));
    });
  }));
}

/* Only the last PAGE_LIMIT table pages stay (keys come back in the order they were put). */
function trimPages(cache) {
  return cache.keys().then((keys) => Promise.all(keys.slice(0, Math.max(0, keys.length - PAGE_LIMIT)).map((k) => cache.delete(k))));
}

/* The page that came before this worker asks for a copy of itself ({keep: its URL}). */
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (typeof data.keep !== "string") return;
  const url = new URL(data.keep, self.location.href);
  if (url.origin !== self.location.origin || !isTablePage(url)) return;
  const key = url.origin + url.pathname;
  event.waitUntil(caches.open(PAGE_CACHE).then((cache) => fetch(key, { credentials: "same-origin" }).then((response) => {
    if (!keepable(response)) return null;
    return cache.delete(key).then(() => cache.put(key, response)).then(() => trimPages(cache));
  })).catch(() => null));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && isTablePage(url)) {
    // One copy per table, whatever the query (?lang=…): the key is the path alone.
    event.respondWith(networkFirst(event, PAGE_CACHE, url.origin + url.pathname, trimPages, markKept));
  } else if (ASSETS.has(url.pathname)) {
    event.respondWith(networkFirst(event, STATIC_CACHE, url.origin + url.pathname));
  }
});
