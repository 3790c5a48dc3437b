// Scorepad's own script: quicker input on a phone. Every page works without it.
// Part of static/js/scorepad.min.js (scripts/build_js.mjs): after rules.js, before offline.js, in one scope;
// the helpers just below serve offline.js too.

const byId = (id) => document.getElementById(id);
const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => root.querySelectorAll(selector);
const on = (type, handler, capture) => document.addEventListener(type, handler, capture);
// The element matching `selector` that the event happened in, if any.
const inside = (event, selector) => event.target.closest?.(selector);
const isHandForm = (elt) => elt?.matches?.("form.hand-form");
// el("p", { class: "note" }, "text", child, [more children]): an element; null, false and "" children are left out.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.flat().filter((child) => child || child === 0));
  return node;
}
const page = document.documentElement;

// Steppers: the - and + buttons beside a number change it by one, within its data-min and
// data-max, and fire "input" so the live preview follows.
on("click", (event) => {
  const button = inside(event, "button.step");
  const input = button && byId(button.dataset.for);
  if (!input) return;
  const { min, max } = input.dataset;
  const value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.step, 10);
  input.value = Math.min(max === undefined ? Infinity : +max, Math.max(min === undefined ? -Infinity : +min, value));
  input.dispatchEvent(new Event("input", { bubbles: true }));
  keepAboveTheBar(button);
});

// Number fields take digits only (a Count may also start with a minus sign). Anything else is
// refused where it was typed, and said in that field's own message slot; the server refuses it
// too, for a phone without this script.
on("input", (event) => {
  if (event.target.dataset) delete event.target.dataset.refused;
});
on("beforeinput", (event) => {
  const input = event.target, sign = input.dataset?.sign;
  if (!input.classList?.contains("digits") || event.data === null) return;
  const { value, selectionStart: start, selectionEnd: end } = input;
  const after = value.slice(0, start ?? value.length) + event.data + value.slice(end ?? value.length);
  if ((sign ? /^[-\u2212]?[0-9]*$/ : /^[0-9]*$/).test(after)) return;
  event.preventDefault();
  const slot = byId(input.id + "-error");
  if (!slot) return;
  // Kept until the field takes a keystroke, across live previews.
  slot.textContent = input.dataset.refused = "Digits only here: \u201c" + event.data + "\u201d can't be part of a number." +
    (sign ? " For a minus Count, tap \u2212." : "");
  input.setAttribute("aria-invalid", "true");
});

// The bar at the bottom of the hand form never covers what is being tapped or typed: a control
// that lands under it (focus, a stepper's tap, the keyboard opening) is scrolled up above it.
function keepAboveTheBar(element) {
  const bar = $(".entry-bar");
  if (!bar || !element?.closest?.("form.hand-form") || bar.contains(element)) return;
  const below = element.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
  if (below > -8) scrollBy(0, below + 16);
}
on("focusin", (event) => keepAboveTheBar(event.target));
addEventListener("resize", () => keepAboveTheBar(document.activeElement));

// New game: the first-dealer list names the players as they are typed, without a trip to the
// server that could replace the list under the scorekeeper's finger; and again when a new table size
// brings a new list, which the server drew from the names typed when it was asked (maybe none yet).
const nameSeats = (event) => {
  const form = inside(event, "form.new-game");
  if (!form || (event.type == "input" && !/^(side\d_name|player\d_\d)$/.test(event.target.name))) return;
  const typed = (name) => (form.elements[name].value || "").trim();
  const labels = [...$$("select.seat-names option", form)].map((option) => {
    const { side, player } = option.dataset;
    return (option.textContent = (typed(`player${side}_${player}`) || `Player ${+player + 1} of side ${+side + 1}`) +
      " (" + (typed(`side${side}_name`) || "Side " + (+side + 1)) + ")");
  });
  const order = byId("seat-order");
  if (order) order.textContent = labels.join(", ");
};
on("input", nameSeats);
on("htmx:afterSettle", nameSeats);
const newGameForm = $("form.new-game");  // names typed before this script ran (a slow phone) count too
if (newGameForm) nameSeats({ target: newGameForm });

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
    button.textContent = copied ? "Link copied" : "Link selected: copy it from the box above";
  };
  if (navigator.share) navigator.share({ title: "Scorepad: keep score", url: link }).catch(() => {});
  else if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => { button.textContent = "Link copied"; }, selectIt);
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

// A hand being typed is kept on the phone until it is saved or cancelled: a reload, a
// pull-to-refresh or the browser dropping the tab does not lose it. The key carries the game's
// version, so a draft never lands on a game that changed since.
const DRAFT_PREFIX = "scorepad-draft:";
const draftKey = (form) => DRAFT_PREFIX + form.getAttribute("action") + ":" + form.elements.version.value;
function forgetDrafts(action) {  // every draft of the form that posts to `action`
  try {
    for (const key of Object.keys(localStorage)) {
      if (key.startsWith(DRAFT_PREFIX + action + ":")) localStorage.removeItem(key);
    }
  } catch (e) { /* storage unavailable: nothing kept, nothing to forget */ }
}
// The form's entries as [name, value] pairs: ticked boxes only, never a button or the version.
const entriesOf = (form) => [...form.elements]
  .filter((field) => field.name && field.name !== "version" && field.tagName !== "BUTTON" &&
    (field.checked || (field.type !== "checkbox" && field.type !== "radio")))
  .map((field) => [field.name, field.value]);
function keepDraft(form) {
  try { localStorage.setItem(draftKey(form), JSON.stringify(entriesOf(form))); } catch (e) { /* full or private */ }
}
// Set the form's fields (a RadioNodeList names several) to the value of `name`: `value` for text and
// select, ticked when `value` is theirs (or true) for checkboxes and radios.
function setField(form, name, value) {
  const item = form.elements.namedItem(name);
  for (const input of item instanceof RadioNodeList ? item : item ? [item] : []) {
    if (input.type === "checkbox" || input.type === "radio") input.checked = value === true || value === input.value;
    else input.value = value;
  }
}
function restoreDraft(form) {
  let saved;
  try { saved = JSON.parse(localStorage.getItem(draftKey(form))); } catch (e) { /* none */ }
  if (!Array.isArray(saved)) return;
  for (const field of form.elements) if (field.type === "checkbox") field.checked = false;
  for (const pair of saved) if (Array.isArray(pair)) setField(form, pair[0], pair[1]);
  const note = byId("draft-note");
  if (note) note.hidden = false;
  $("input:not([type=hidden])", form)?.dispatchEvent(new Event("change", { bubbles: true }));  // refresh the figures
}
// Cancel throws away what was typed: when anything was, it asks first.
let openedWith = null;  // the form's entries as the page opened it
on("DOMContentLoaded", () => {
  const form = $("form.hand-form");
  if (!form) return;
  openedWith = JSON.stringify(entriesOf(form));
  restoreDraft(form);
});
for (const type of ["input", "change"]) {
  on(type, (event) => {
    const form = inside(event, "form.hand-form");
    if (form) keepDraft(form);
  });
}
on("click", (event) => {
  const form = $("form.hand-form"), cancel = inside(event, "a.cancel-hand");
  if (!cancel || !form) return;
  if (JSON.stringify(entriesOf(form)) !== openedWith && !confirm(cancel.dataset.confirm)) {  // its question: games/hand.html
    event.preventDefault();
    return;
  }
  forgetDrafts(form.getAttribute("action"));
});
// A save answered with the next page: its drafts are done with. (When the answer replaces the
// page, htmx reports it from <body>, the form being gone: hence the action remembered here.)
let savingAction = null;
// Once Save is tapped, no live preview may follow it (the blur that comes with the tap fires
// one): it would land on the next page. A failed save lets previews run again.
on("htmx:beforeRequest", (event) => {
  const elt = event.detail.elt;
  if (isHandForm(elt)) {
    savingAction = elt.getAttribute("action");
    elt.dataset.saving = "true";
    const preview = $("[hx-post]", elt);
    if (preview) htmx.trigger(preview, "htmx:abort");
  } else if (elt.closest?.("form.hand-form[data-saving]")) {
    event.preventDefault();
  }
});
on("htmx:afterRequest", (event) => {
  const elt = event.detail.elt;
  if (isHandForm(elt)) delete elt.dataset.saving;
  if (savingAction === null || elt.closest?.("[hx-post]:not(form)")) return;
  if (event.detail.successful) forgetDrafts(savingAction);
  savingAction = null;
});
on("htmx:afterSettle", () => {
  // A form that came back (refused, or the game changed meanwhile) may carry a new version:
  // its entries are the draft now.
  const form = $("form.hand-form");
  if (form) {
    forgetDrafts(form.getAttribute("action"));
    keepDraft(form);
  }
  // After the live preview, mark in red exactly the inputs whose error slot holds a message
  // (the preview swaps only the messages, so the typing field keeps its focus), and open a side's
  // "More" when a problem is in it, so that no problem is out of sight.
  for (const slot of $$(".field-error[id$='-error']")) {
    const input = $(`[aria-describedby='${slot.id}']`);
    if (!input) continue;
    if (!slot.textContent.trim() && input.dataset.refused) slot.textContent = input.dataset.refused;
    markField(input, slot, slot.textContent.trim() !== "");
  }
});
// An input with a problem (or none): aria-invalid, and its side's "More" opened.
function markField(input, slot, problem) {
  if (problem) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  const more = slot.closest("details.more");
  if (problem && more) more.open = true;
}

// An error answered to Save or to the preview: the hand form stays exactly as typed, and says why (in the words of
// #connection-status's data-*, games/hand.html). No answer at all is offline.js's (the one connection indicator).
on("htmx:afterRequest", (event) => {
  const status = byId("connection-status"), { xhr, elt, successful } = event.detail;
  if (!status || !xhr?.status) return;  // no answer at all
  const code = xhr.status, saving = elt.tagName === "FORM";
  const refused = !successful && code !== 409 && code !== 422;  // an answer not swapped in
  // The words are #connection-status's (games/hand.html), "#" standing for the error's code.
  const words = status.dataset, advice = " " + (code === 403 || code === 404 ? words.reopen : words.retry);
  if (saving && refused) {
    status.textContent = words.notStored.replace("#", code) + advice;
    status.dataset.saving = "true";
  } else if (refused && !status.dataset.saving) {
    status.textContent = words.notWorkedOut.replace("#", code) + advice;
  } else if (saving || !status.dataset.saving) {  // only the form's own answer clears a failed save
    status.textContent = "";
    delete status.dataset.saving;
  }
});

// When the figures on screen were made, for "No connection: figures as of 20:14" (offline.js). The service worker
// is the one that knows a page is its copy: it marks a page it answered with the copy kept on the phone, whether
// there was no connection or no answer in time (data-served="copy", see sw.js). navigator.onLine cannot be trusted
// for this: a phone on dead Wi-Fi still believes it is online. The time is the server's, from when it made the page.
const servedCopy = () => page.dataset.served === "copy";
let figuresAsOf = new Date(page.dataset.renderedAt);  // Invalid Date on a page without figures
function clockTime(date) {  // HH:MM on the phone's clock, and the day too when it is not today
  const time = date.toTimeString().slice(0, 5), now = new Date();  // "20:14:05 GMT+0100 (…)"
  if (date.toDateString() === now.toDateString()) return time;
  const day = { day: "numeric", month: "short" };
  if (date.getFullYear() !== now.getFullYear()) day.year = "numeric";
  return date.toLocaleDateString(page.lang || undefined, day) + ", " + time;
}

// The service worker keeps a page for offline (sw.js): `ifAbsent`, only if it has no copy yet. Asked once a worker is
// active rather than once it controls the page, so on the very first visit too.
const keep = (url, ifAbsent) => navigator.serviceWorker?.ready.then((registration) =>
  registration.active.postMessage({ keep: url, ifAbsent }));
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
