// The screen stays on while a scorekeeper's sheet or hand form is open (the pages whose #game-document names where
// a hand is entered): the Screen Wake Lock, where the phone has it, taken again when the page comes back and let go
// when it is hidden. "Keep the screen on" on the scoresheet turns it off, remembered on this phone.
import { $, byId, on } from "./dom.js";

const SETTING = "scorepad-keep-screen-on";
let off;
try { off = localStorage.getItem(SETTING) === "off"; } catch (e) { /* private browsing: on, for this page */ }
let lock = null;  // the request for the lock, until the lock is let go

function update() {
  if (!(navigator.wakeLock && $("#game-document[data-hand-url]") && !off && document.visibilityState === "visible")) {
    lock?.then((sentinel) => sentinel?.release());
    lock = null;
  } else if (!lock) {
    const request = lock = navigator.wakeLock.request("screen").then((sentinel) => {
      // Let go by the phone itself (a low battery, say): taken again the next time the page is shown.
      sentinel.addEventListener("release", () => { if (lock === request) lock = null; });
      return sentinel;
    }, () => { if (lock === request) lock = null; });  // refused: the screen sleeps as usual
  }
}

// The setting's switch, drawn hidden on the scoresheet: shown where the phone can keep its screen on.
function ready() {
  const box = byId("keep-screen-on");
  if (box && navigator.wakeLock) {
    box.checked = !off;
    box.closest(".keep-screen-on").hidden = false;
  }
  update();
}

on("change", (event) => {
  if (event.target.id !== "keep-screen-on") return;
  off = !event.target.checked;
  try { localStorage.setItem(SETTING, off ? "off" : "on"); } catch (e) { /* private browsing: this page only */ }
  update();
});
on("visibilitychange", update);
on("htmx:load", ready);  // a page brought in by htmx (the scoresheet after a hand is saved)
if (document.readyState === "loading") on("DOMContentLoaded", ready);
else ready();
