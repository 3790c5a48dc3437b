// Every page: the scorekeeper's link (share, claim), printing, and the service worker that keeps the app readable
// with bad Wi-Fi (sw.js).
import { $, byId, inside, keep, on } from "./dom.js";
import { say } from "./words.js";

// The scorekeeper's link: the phone's share sheet where there is one, else the clipboard.
on("click", (event) => {
  const button = inside(event, "button.share-link");
  if (!button) return;
  const link = button.dataset.link;
  const selectIt = () => {  // no share sheet or clipboard (plain http): select the link to copy by hand
    const field = byId("scorekeeper-link");
    field.focus();
    field.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { /* not copied */ }
    button.textContent = say(copied ? "got" : "picked");
  };
  if (navigator.share) navigator.share({ title: say("title"), url: link }).catch(() => {});
  else if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => { button.textContent = say("got"); }, selectIt);
  else selectIt();
});

// The scorekeeper's link carries its key after "#" (/games/<id>#key=…): a browser never sends that part to
// a server, so the key stays out of addresses in logs and caches. Here it is handed over by POST, taken out
// of the address (and so out of the history), and the page reloads with this phone's rights. Without this
// script the scoresheet offers a box to paste the link into instead. The link may also be opened on the
// scoresheet already showing, where only the part after "#" changes and the page does not load again.
function claimKeyInAddress() {
  const found = /^#key=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!found) return;
  const form = $("form.claim-key");
  const clean = () => history.replaceState(history.state, "", location.pathname + location.search);
  if (!form) return clean();  // this phone keeps score already: nothing to claim
  fetch(form.getAttribute("action"), { method: "POST", body: new URLSearchParams({ key: found[1] }),
    credentials: "same-origin", redirect: "manual" }).then(() => {
    clean();
    location.reload();
  }, () => {
    // No answer: the key stays in the address, so reloading once the Wi-Fi is back tries again (the connection
    // indicator says so, in its words: base.html).
    const slot = byId("sync-status");
    slot.textContent = slot.dataset.noClaim;
    slot.dataset.state = "offline";
    slot.hidden = false;
  });
}
on("DOMContentLoaded", claimKeyInAddress);
addEventListener("hashchange", claimKeyInAddress);

// Print the scoresheet: the print stylesheet leaves only the paper grid.
on("click", (event) => {
  if (inside(event, "button.print-page")) print();
});

// A page shown through htmx (a saved hand) was never seen by the service worker: ask it to keep it.
on("htmx:pushedIntoHistory", (event) => keep(event.detail.path));
// Nor one that offers Undo: it is never kept (no-store), so the worker keeps a copy made without it.
on("DOMContentLoaded", () => $("form.undo") && keep(location.pathname));

// The service worker keeps the app and the last-seen scoresheets readable with bad Wi-Fi. A scorekeeper's page
// also names what the phone needs for its next step offline (base.html's data-keep: the new-game page, the offline
// scoresheet, htmx): the worker keeps each if it has no copy yet.
const serviceWorkerUrl = document.currentScript?.dataset.sw;
if (navigator.serviceWorker && serviceWorkerUrl) {
  addEventListener("load", () => {
    navigator.serviceWorker.register(serviceWorkerUrl, { scope: "/" }).catch(() => {});
    for (const url of (document.body.dataset.keep || "").split(" ")) if (url) keep(url, true);
  });
}
