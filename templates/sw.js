// Scorepad service worker. Served by a Flask route from /sw.js so its scope is the whole app.
const CACHE_NAME = {{ version|tojson }};  // follows the static files' content
const CACHE_PREFIX = "scorepad-";
const PRECACHE = {{ precache|tojson }};
const OFFLINE_URL = {{ offline_url|tojson }};
const STATIC_PREFIX = {{ static_prefix|tojson }};
// Pages worth keeping for reading offline: home, scoresheets and scoreboards. Never a form:
// a hand typed into a stale form could not be saved anyway.
const PAGES_TO_KEEP = {{ page_patterns|tojson }}.map((pattern) => new RegExp(pattern));
// On bad Wi-Fi, wait this long for the network before showing the copy on the phone.
const NETWORK_TIMEOUT_MS = 4000;

self.addEventListener("install", (event) => {
  // Install only once the app's shell is stored, so the first offline visit already works.
  event.waitUntil(caches.open(CACHE_NAME)
    .then((cache) => cache.addAll([...PRECACHE, OFFLINE_URL]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // Delete only this app's older caches; other apps on the same origin keep theirs.
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
  );
});

function keepsPage(url) {
  return PAGES_TO_KEEP.some((pattern) => pattern.test(url.pathname)) && !url.search;
}

// Pages: network first, so figures are never stale when the Wi-Fi works. After a few seconds
// without an answer, or with no connection, the last copy kept on the phone (then the offline page).
function networkFirst(event, keep) {
  const request = event.request;
  const network = fetch(request).then((response) => {
    if (keep && response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE_NAME).then((cache) => cache.put(request, copy)));
    }
    return response;
  });
  const slow = new Promise((resolve) => setTimeout(resolve, NETWORK_TIMEOUT_MS))
    .then(() => (keep ? caches.match(request) : undefined));
  return Promise.race([network.catch(() => undefined), slow])
    .then((first) => first || network)
    .catch(() => (keep ? caches.match(request) : Promise.resolve(undefined))
      .then((cached) => cached || caches.match(OFFLINE_URL)));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return; // entries are saved by the server only; never answer a POST from a cache
  }
  if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, keepsPage(url)));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    // Static files are addressed by a hash of their content: a stored copy is always right.
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE_NAME).then((cache) => cache.put(request, copy)));
      }
      return response;
    })));
  }
});

// A hand saved through htmx arrives as a background request the worker does not keep: the page
// asks for a fresh copy of the scoresheet it now shows, so the copy kept for offline is never behind.
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string") return;
  const url = new URL(path, self.location.origin);
  if (url.origin !== self.location.origin || !keepsPage(url)) return;
  event.waitUntil(fetch(url, { credentials: "same-origin" })
    .then((response) => response.ok && caches.open(CACHE_NAME).then((cache) => cache.put(url, response)))
    .catch(() => {}));
});
