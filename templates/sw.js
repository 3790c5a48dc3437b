// Scorepad service worker. Served by a Flask route from /sw.js so its scope is the whole app.
const VERSION = {{ version|tojson }};
const CACHE_NAME = VERSION;
const CACHE_PREFIX = "scorepad-";
const PRECACHE = {{ precache|tojson }};
const OFFLINE_URL = PRECACHE[PRECACHE.length - 1];

self.addEventListener("install", (event) => {
  // Install only once the app's shell is stored, so the first offline visit already works.
  event.waitUntil(caches.open(CACHE_NAME).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
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

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return; // entries are saved by the server only; never answer a POST from a cache
  }
  if (request.mode === "navigate") {
    // Pages: network first, so figures are never stale when the Wi-Fi works; the last copy
    // (then the offline page) when it does not, so a scoresheet stays readable at the table.
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (response.ok) {
            const copy = response.clone();
            caches.open(CACHE_NAME).then((cache) => cache.put(request, copy));
          }
          return response;
        })
        .catch(() => caches.match(request).then((cached) => cached || caches.match(OFFLINE_URL)))
    );
    return;
  }
  if (new URL(request.url).pathname.startsWith("/static/")) {
    // Static files: the stored copy at once (fast on bad Wi-Fi), refreshed in the background
    // so a changed stylesheet reaches the phone on the next visit.
    event.respondWith(caches.open(CACHE_NAME).then((cache) => cache.match(request).then((cached) => {
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        fresh.catch(() => {});
        return cached;
      }
      return fresh;
    })));
  }
});
