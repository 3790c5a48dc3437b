{#- Scorepad service worker (comments are Jinja's: a phone is not sent them). Served by a Flask route from /sw.js so its scope is the whole app. #}
const CACHE_NAME = {{ version|tojson }};  {#- follows the static files' content, and ends with the language (pwa.py) #}
const LANGUAGE = {{ language|tojson }};
const CACHE_PREFIX = "scorepad-";
const PRECACHE = {{ precache|tojson }};
const OFFLINE_URL = {{ offline_url|tojson }};
{#- The phone's words in this worker's language (web.phone_words: its scripts' messages and labels), by their tag. #}
const WORDS_URL = {{ words_url|tojson }};
const WORDS_PATH = WORDS_URL.split("?")[0];
const STATIC_PREFIX = {{ static_prefix|tojson }};
{#- Pages worth keeping offline: home, scoresheets, scoreboards, each game's rules page, and the form for #}
{#- a game's next hand (a hand saved with no connection waits on the phone: assets/js/offline.js). Never #}
{#- the form that edits a stored hand: that needs the server. #}
const PAGES_TO_KEEP = {{ page_patterns|tojson }}.map((pattern) => new RegExp(pattern));
{#- On bad Wi-Fi, wait this long for the network before showing the copy on the phone. #}
const NETWORK_TIMEOUT_MS = 4000;
{#- A page asked to be kept (a message, below) that has not come in this time is not kept: on hanging Wi-Fi the #}
{#- request would hold one of the browser's few connections to the server that a hand waiting to be sent needs. #}
const KEEP_TIMEOUT_MS = 15000;
{#- A page's <html> tag says where it came from (templates/base.html); a copy is marked on its way out. #}
const FROM_NETWORK = 'data-served="network"';
const FROM_COPY = 'data-served="copy"';
const RENDERED_AT = /data-rendered-at="([^"]*)"/;

self.addEventListener("install", (event) => {
  {#- Install only once the app's shell is stored, so the first offline visit already works. #}
  event.waitUntil(caches.open(CACHE_NAME)
    .then((cache) => cache.addAll([...PRECACHE, OFFLINE_URL, WORDS_URL]))
    .then(() => self.skipWaiting()));
});

{#- An update never strands a hand. Hands waiting to be sent live in IndexedDB ("scorepad-offline", a #}
{#- name that never changes), which no version of this worker touches: a new worker may take over at once #}
{#- and the pages it serves read the same queue. What it would lose is the pages kept for offline, so #}
{#- they are carried over from the older caches before those are deleted: a phone that updates and then #}
{#- loses its connection can still open its scoresheet and enter the waiting hands' successors. A cache of #}
{#- another language (the phone chose a new one: a new worker) has its pages fetched anew in this one. #}
function carryPagesOver(oldNames) {
  return caches.open(CACHE_NAME).then((cache) => Promise.all(oldNames.map((name) => caches.open(name)
    .then((old) => old.keys().then((requests) => Promise.all(requests
      .filter((request) => keepsPage(new URL(request.url)))
      .map((request) => cache.match(request).then((have) => have
        || fresherCopy(request, old, !name.endsWith("-" + LANGUAGE))
        .then((response) => response && cache.put(request, response))))))))));
}
{#- A scorekeeper's pages that only a new version can draw right (they name its scripts and hold the markup its #}
{#- scripts fill: the new-game page, the offline scoresheet) are fetched anew, as is every page kept in another #}
{#- language; the old copy only if that fails (nothing kept is lost). #}
const FETCHED_ANEW = new Set({{ fetched_anew|tojson }});
function fresherCopy(request, old, otherLanguage) {
  if (!otherLanguage && !FETCHED_ANEW.has(new URL(request.url).pathname)) return old.match(request);
  return fetch(request.url, { credentials: "same-origin" })
    .then((response) => (response.ok && !response.redirected ? response : old.match(request)))
    .catch(() => old.match(request));
}

self.addEventListener("activate", (event) => {
  {#- Delete only this app's older caches; other apps on the same origin keep theirs. #}
  event.waitUntil(
    caches.keys()
      .then((names) => names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE_NAME))
      .then((old) => carryPagesOver(old).catch(() => {}).then(() => Promise.all(old.map((name) => caches.delete(name)))))
      .then(() => self.clients.claim())
  );
});

{#- Background Sync, where the browser has it: the open pages send the queue (offline.js). It is never #}
{#- the only way: the pages also send on load, on "online" and on a timer. #}
self.addEventListener("sync", (event) => {
  if (event.tag !== "scorepad-sync") return;
  event.waitUntil(self.clients.matchAll({ type: "window" })
    .then((clients) => clients.forEach((client) => client.postMessage({ sync: true }))));
});

{#- Never an address with a key after "#" (the scorekeeper's link): the copy would be filed under it. #}
function keepsPage(url) {
  return PAGES_TO_KEEP.some((pattern) => pattern.test(url.pathname)) && !url.search && !url.hash;
}

{#- Pages: network first, so figures are never stale when the Wi-Fi works. After a few seconds #}
{#- without an answer, or with no connection, the last copy kept on the phone (then the offline page). #}
{#- `servable`: the copy may be shown, even where the address carries "#…" and is not kept under it (a waiting #}
{#- hand opened to edit: /games/<id>/hands/new#waiting=…, offline.js). #}
function networkFirst(event, keep, servable = keep) {
  const request = event.request;
  const network = fetch(request);
  if (keep) {
    {#- Registered now, not once the answer comes: on slow Wi-Fi the copy is shown first, and a late #}
    {#- answer must still replace the copy (the event may no longer be extended by then). #}
    event.waitUntil(network.then((response) => keepPage(request, response)).catch(() => {}));
  }
  const kept = () => (servable ? keptCopy(request) : Promise.resolve(undefined));
  let timer;
  const slow = new Promise((resolve) => { timer = setTimeout(resolve, NETWORK_TIMEOUT_MS); }).then(kept);
  return Promise.race([network.catch(() => undefined), slow])
    .then((first) => first || network)
    .catch(() => kept().then((copy) => copy || caches.match(OFFLINE_URL)))
    .finally(() => clearTimeout(timer));
}

{#- A redirect's page is another address's; a page marked no-store is this moment's alone (one that offers Undo: #}
{#- the page asks for a copy without it, fetched by the "message" handler below). #}
function keepable(response) {
  return response.ok && !response.redirected && !/no-store/.test(response.headers.get("Cache-Control") || "");
}

{#- Stored exactly as the server sent it: a copy is marked only when it is served (keptCopy). #}
function keepPage(request, response) {
  if (!keepable(response)) return undefined;
  return store(request, response.clone());  {#- cloned now, before the page reads the body #}
}

{#- Copies are written one at a time, and never over a newer one of the same game: an answer that comes in late #}
{#- (asked for while hand 1 stood, answered after its Undo) would bring back what the scoresheet no longer has. #}
{#- A scoresheet's ETag starts with its game's revision (W/"7-<hash>": delivery.page_tag); other pages, last in wins. #}
let writing = Promise.resolve();
const revision = (response) => Number((/^W\/"(\d+)-[0-9a-f]{12}"$/.exec(response?.headers.get("ETag") || "") || [])[1]);
function store(key, response) {
  const write = writing.then(() => caches.open(CACHE_NAME)).then((cache) => cache.match(key)
    .then((have) => (revision(have) > revision(response) ? undefined : cache.put(key, response))));
  writing = write.catch(() => {});
  return write;
}

{#- The copy kept on the phone, marked as one. The page cannot learn from navigator.onLine that it is #}
{#- old: a phone on dead Wi-Fi still believes it is online and may never fire "offline", and on slow #}
{#- Wi-Fi it is online. So the worker, the only one that knows, says so in the page itself #}
{#- (data-served="copy", read by scorepad.js) and in a header for whoever looks at the response. #}
function keptCopy(request) {
  {#- By its address without "#…": a navigation to /games/<id>/hands/new#waiting=… (a waiting hand opened #}
  {#- to edit, offline.js) is the same page. #}
  return caches.match(request.url.split("#")[0]).then((kept) => kept && kept.text().then((body) => {
    const headers = new Headers(kept.headers);
    headers.delete("Content-Length");  {#- the body changes length #}
    headers.delete("Content-Encoding");  {#- and is already decoded #}
    headers.set("Scorepad-Copy", (body.match(RENDERED_AT) || [])[1] || "unknown");
    return new Response(body.replace(FROM_NETWORK, FROM_COPY),
      { status: kept.status, statusText: kept.statusText, headers });
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;  {#- entries are saved by the server only; never answer a POST from a cache #}
  }
  if (request.mode === "navigate") {
    const page = new URL(url);
    page.hash = "";
    const servable = keepsPage(page);
    {#- "#kept" (offline.js): Save got no answer in time and the hand waits on the phone, so its scoresheet opens #}
    {#- from the copy kept on the phone at once, rather than after 4 s of hanging Wi-Fi; the network only without one. #}
    event.respondWith(url.hash === "#kept" && servable
      ? keptCopy(request).then((copy) => copy || networkFirst(event, false, true))
      : networkFirst(event, keepsPage(url), servable));
    return;
  }
  if (url.pathname === WORDS_PATH) {
    {#- The words by their tag: the copy kept, else the network; with no answer, the words this worker keeps (a page #}
    {#- kept from an older version names older ones: its messages said, rather than none). #}
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)
      .catch(() => caches.match(WORDS_URL).then((words) => words || Response.error()))));
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    {#- Static files are addressed by a hash of their content: a stored copy is always right. #}
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE_NAME).then((cache) => cache.put(request, copy)));
      }
      return response;
    })));
  }
});

{#- A hand saved through htmx arrives as a background request the worker does not keep: the page #}
{#- asks for a fresh copy of the scoresheet it now shows, so the copy kept for offline is never behind. #}
{#- A page also names what its phone's next step needs offline (base.html's data-keep: a scorekeeper's pages name #}
{#- the new-game page, the offline scoresheet and htmx): kept if the phone has no copy yet (`ifAbsent`). #}
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string") return;
  const url = new URL(path, self.location.origin);
  const isStatic = url.pathname.startsWith(STATIC_PREFIX);
  if (url.origin !== self.location.origin || !(keepsPage(url) || isStatic)) return;
  const key = isStatic ? url.href : url;
  event.waitUntil(caches.match(key)
    {#- Scorepad-Keep: a copy for offline, not a visit (the server leaves the phone's Undo alone and shows none). Past #}
    {#- the browser's own cache: a request held there makes the page's next visit to the same address wait behind it. #}
    .then((have) => (have && (event.data.ifAbsent || isStatic) ? undefined
      : fetch(url, { credentials: "same-origin", headers: { "Scorepad-Keep": "offline" }, cache: "no-store",
        signal: AbortSignal.timeout(KEEP_TIMEOUT_MS) })
      .then((response) => keepable(response) && store(key, response))))
    .catch(() => {}));
});
