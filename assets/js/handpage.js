// The hand page (games/hand.html): drafts kept on the phone, Cancel, Save and what became of it; the hand's figures
// worked out on the phone as each entry is made (rules.js); and with no answer to Save in time, the hand kept on the
// phone to be sent later (docs/architecture.md, "Hands entered offline").
import { $, $$, byId, copyOf, el, inside, isHandForm, newId, now, on } from "./dom.js";
import { checkHand, scoreGame, scoreOneHand, signed } from "./rules.js";
import { KEPT } from "./status.js";
import { say } from "./words.js";
import {
  freshest, isConflict, newItem, notConflicts, pageGame, playerOfSeat, putItem, queuedFor, withHands,
} from "./store.js";
import { fillForm, markField, readForm, setField, showProblems, summarize } from "./handform.js";
import { fillFigures } from "./sheet.js";
import { WAIT_MS, rebase, refresh, registerBackgroundSync } from "./sync.js";

// A hand being typed is kept on the phone until it is saved or cancelled: a reload, a
// pull-to-refresh or the browser dropping the tab does not lose it. The key carries the game's
// version, so a draft never lands on a game that changed since.
const DRAFT_PREFIX = "scorepad-draft:";
const draftKey = (form) => DRAFT_PREFIX + form.getAttribute("action") + ":" + form.elements.version.value;
export function forgetDrafts(action) {  // every draft of the form that posts to `action`
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
// After a sync the scoresheet loads again with the game's new version (sync.js afterSync): what is being typed in
// its next hand's form is carried over the reload (in this tab's sessionStorage), and is that form's draft again.
const CARRIED = "scorepad-carried";
export function carryTyping() {
  const form = $("#next-hand form.hand-form"), entries = form && JSON.stringify(entriesOf(form));
  if (!entries || entries === openedWith) return;
  try { sessionStorage.setItem(CARRIED, JSON.stringify([form.getAttribute("action"), entries])); } catch (e) { /* none */ }
}
function carried(form) {
  try {
    const [action, entries] = JSON.parse(sessionStorage.getItem(CARRIED)) || [];
    sessionStorage.removeItem(CARRIED);
    return action === form.getAttribute("action") ? JSON.parse(entries) : null;
  } catch (e) {
    return null;
  }
}
function restoreDraft(form) {
  let saved = carried(form);
  try { saved ??= JSON.parse(localStorage.getItem(draftKey(form))); } catch (e) { /* none */ }
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
// The bar says the first problem in at most three lines: a tap on it goes to the field it is about, where it is said
// in full (and so are the others, "marked above").
on("click", (event) => {
  const field = inside(event, ".entry-bar .preview-problem") && $("form.hand-form [aria-invalid='true']");
  if (field) { field.scrollIntoView({ block: "center" }); field.focus(); }
});
// A save answered with the next page: its drafts are done with. (When the answer replaces the
// page, htmx reports it from <body>, the form being gone: hence the action remembered here.)
let savingAction = null, landed = -2e3;  // and when that answer came (performance.now())
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
  if (event.detail.successful) {
    forgetDrafts(savingAction);
    landed = performance.now();
  }
  savingAction = null;
});
on("htmx:afterSettle", () => {
  // A form that came back (refused, or the game changed meanwhile) may carry a new version:
  // its entries are the draft now.
  // (Not the next hand's empty form on the sheet a Save landed on: nothing typed there yet.)
  const form = $("form.hand-form");
  if (form && !form.closest("#next-hand")) {
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

// --- With hands waiting on the phone, or none of the answer in time ------------------------------
// The hand as read from the form, if the rules take it as hand `position` after `before` (else its problems shown).
export function checkedHand(form, doc, before, position) {
  const read = readForm(form, doc, position);
  const problems = read.problems.length ? read.problems : checkHand(withHands(doc, before), read.hand, position);
  if (problems.length) showProblems(form, problems);
  return problems.length ? null : read.hand;
}
let formMode = null;  // {editing: item} when the form edits a waiting hand, {queue: true} when hands already wait
// The waiting hand named after "#" (#waiting=<id>, or #local-… on a game started here), in `items`.
function named(items, pattern) {
  const match = pattern.exec(location.hash), id = match && decodeURIComponent(match[1]);
  return id && items.find((i) => i.id === id);
}
// What this form's figures are worked out on (a promise of {doc, position, totals}): the game as the phone has it,
// with the hands waiting before this one; the form of a stored hand, on the stored hands.
let basis = null;
// The form for the next hand knows the stored hands only: with hands waiting, it is for a later one.
export function handFormShowsPlace(game, items) {
  const form = $("form.hand-form"), mine = items.filter((i) => i.gameId === game.id);
  const editing = named(mine, /^#waiting=(.+)$/), stored = game.position === null;
  const before = stored ? [] : editing ? mine.slice(0, mine.indexOf(editing)) : notConflicts(mine);
  formMode = stored ? null : editing ? { editing } : mine.length ? { queue: true } : null;
  basis = freshest(game).then((fresh) => {
    const doc = withHands(fresh.doc, before), position = stored ? game.at : doc.hands.length;
    return { doc, position, totals: position ? scoreGame(doc).hands[position - 1].sides.map((s) => s.cumulative) : null };
  });
  basis.tag = byId("game-document");
  return basis.then(({ doc, position }) => {
    if (!mine.length || stored) return;
    const number = position + 1;
    const heading = $(".hand-head :is(h1, h2)"), label = $(".save-label", form), info = $(".hand-info");
    // The words are the page's, in its language (games/hand.html, show.html, _hand_form.html), "#" the number.
    const words = heading?.dataset.waiting ? heading.dataset : null;
    if (words) heading.textContent = ((editing && words.editing) || words.waiting).replace("#", number);
    if (label) label.textContent = editing ? label.dataset.editing || label.textContent : label.textContent.replace(/\d+/, number);
    const score = scoreGame(doc);
    if (info && score.next_dealer !== undefined) {  // <template id="offline-hand-info"> (games/hand.html)
      info.replaceChildren(playerOfSeat(doc, score.next_dealer), copyOf("offline-hand-info"));
      $$("strong", info).forEach((figure, s) => { figure.textContent = score.min_count[s]; });
    }
    if (editing && !form.dataset.filled) {
      form.dataset.filled = "true";
      fillForm(form, editing.hand);
      summarize(form);  // what is set under "More" is said beside it, as the server's form says it
      forgetDrafts(form.getAttribute("action"));
      if (editing.errors?.length) showProblems(form, editing.errors);
      figuresOnThePhone(form);
    }
  });
}

// Keep the hand on the phone, checked first, as the server would; under `key` when its Save carried one.
async function keepHand(form, game, key) {
  const [fresh, mine] = await Promise.all([freshest(game), queuedFor(game.id)]);
  const editing = formMode?.editing && mine.find((i) => i.id === formMode.editing.id);
  const before = notConflicts(editing ? mine.slice(0, mine.indexOf(editing)) : mine);
  const last = mine[mine.length - 1];
  const position = editing ? editing.position : last ? last.position + 1 : fresh.doc.hands.length;
  const hand = checkedHand(form, fresh.doc, before, position);
  if (!hand) return false;
  const item = editing || newItem(game.id, last ? last.baseVersion : fresh.version, position);
  item.hand = hand;
  item.updatedAt = now();
  if (key) item.key = key;
  if (editing && isConflict(editing)) {  // fixed: placed on the game as it is now
    await putItem(item);
    await rebase(game.id, item.id);
  } else {
    item.state = "waiting";
    await putItem(item);
  }
  forgetDrafts(form.getAttribute("action"));
  registerBackgroundSync();
  location.assign(game.showUrl + KEPT);  // the copy on the phone, at once: the server may be slow to answer
  return true;
}

// The next hand's form on the scoresheet (games/show.html): Save with nothing entered stores nothing and stays on the
// sheet, saying so beside Save (its words: data-blank). A second tap of the Save just used lands here at worst: within
// 1.5 s of that save's answer (the sheet's controls take no tap for the first second: .settling) it is let go without
// a word, which would read as if the hand just saved was lost.
on("submit", (event) => {
  const form = event.target, game = pageGame(), blank = form.dataset?.blank;
  if (!isHandForm(form) || !blank || !game || event.submitter?.getAttribute("formaction")) return;
  const read = readForm(form, game.doc, game.position ?? 0);
  if (read.problems.length || read.hand.sides.some((entry) => Object.keys(entry).length)) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (performance.now() - landed > 1500) byId("preview")?.replaceChildren(el("p", { class: "preview-problem" }, blank));
}, true);

// With hands already waiting (or a waiting hand open), Save keeps the hand in the queue behind them
// at once: sent straight to the server it would be stored before them.
on("submit", (event) => {
  const form = event.target, game = pageGame();
  if (!isHandForm(form) || !formMode || event.submitter?.getAttribute("formaction") || !game) return;  // formaction: "Check the figures"
  event.preventDefault();
  event.stopImmediatePropagation();
  keepHand(form, game);
}, true);

// No answer to Save of the next hand in time (no connection, or none yet): the hand waits on the phone, under the
// key its post carried, and is sent once in the background (stored once, whichever arrives first). A stored hand's
// change can't wait: the form stays as typed and says so.
async function saveGotNoAnswer(event) {
  const form = event.detail?.elt, game = isHandForm(form) && pageGame(), status = byId("connection-status");
  if (!game) return;
  const kept = game.position !== null && await keepHand(form, game, form.dataset.key);
  if (!kept) {
    status.textContent = game.position === null ? status.dataset.notSaved : status.dataset.notKept;  // games/hand.html
    status.dataset.saving = "true";
  }
}
for (const type of ["htmx:sendError", "htmx:timeout"]) on(type, saveGotNoAnswer);
// Save of the next hand gives up in under 1 s (its form's data-wait: 700 ms), under an Idempotency-Key that its copy
// on the phone will carry; any other Save and the preview after 4 s.
on("htmx:configRequest", (event) => {
  const elt = event.detail.elt;
  if (isHandForm(elt) && elt.dataset.wait) {
    event.detail.timeout = +elt.dataset.wait;
    event.detail.headers["Idempotency-Key"] = elt.dataset.key = elt.dataset.key || "offline-" + newId();
  } else if (elt?.closest?.("form.hand-form")) event.detail.timeout = WAIT_MS;
});

// The hand's figures as each entry is made, worked out here (templates/games/hand.html's <template
// id="offline-side-figures"> and "offline-preview": each side's Base and Count, the bar's figures), and the rules'
// problems beside their fields, without moving the focus. The server's preview (a request 400 ms after typing
// stops) confirms them, whenever it answers; one still on its way when the hand changes is dropped.
function figuresOnThePhone(form) {
  const preview = $("[hx-post]", form);
  if (preview && window.htmx) htmx.trigger(preview, "htmx:abort");
  // (Worked out again for a form the server sent back, refused or with the game changed: a new game document.)
  (basis?.tag === byId("game-document") ? basis : refresh().then(() => basis)).then(({ doc, position, totals }) => {
    form = $("form.hand-form");  // the one on the page by now (a refused Save swaps in another)
    const read = readForm(form, doc, position);
    const blank = read.hand.sides.every((entry) => !Object.keys(entry).length);
    const problems = read.problems.length || blank ? read.problems : checkHand(doc, read.hand, position);
    showProblems(form, problems, true);
    // A problem on some sides: the others' figures stay, scored with those sides left empty (as the server's preview).
    const aside = blank ? null : sidesInQuestion(doc, problems, read.hand);
    const hand = aside && { sides: read.hand.sides.map((entry, s) => (aside.has(s) ? {} : entry)) };
    const sides = hand && scoreOneHand(doc, hand, position, totals).sides;
    doc.sides.forEach((side, s) => byId("side-figures-" + s)?.replaceChildren(...sides && !aside.has(s) ? [copyOf("offline-side-figures")] : []));
    if (sides) {
      byId("preview").replaceChildren(copyOf("offline-preview"));
      fillFigures(form, sides);
      for (const s of aside) $(`#preview tr[data-side='${s}']`)?.replaceChildren(...[$("th", $(`#preview tr[data-side='${s}']`)), copyOf("offline-side-problem")]);
    }
    sayTheEnd(doc, !problems.length && !blank && position === doc.hands.length && read.hand);
  });
}
// The sides a problem is marked on (a Set), when another side's figures can be told: none when a problem is with the
// whole hand or on every side, when no other side has anything entered yet, or in a wipeout game (one side's special
// hand zeroes the others).
function sidesInQuestion(doc, problems, hand) {
  const aside = new Set();
  for (const problem of problems) {
    for (const field of problem.involves?.length ? problem.involves : [problem.field]) {
      const side = /^sides\.(\d+)\./.exec(field || "");
      if (!side) return null;
      aside.add(+side[1]);
    }
  }
  const told = hand.sides.some((entry, s) => !aside.has(s) && Object.keys(entry).length);
  return told && !(aside.size && doc.rules?.wipeout) ? aside : null;
}
// "This hand ends the game: Us win 8,620 to 7,155." when the next hand `hand` ends it (the server's words, on
// #hand-ends-game's data-win and data-share); nothing otherwise.
function sayTheEnd(doc, hand) {
  const line = byId("hand-ends-game");
  if (!line) return;
  const score = hand && scoreGame({ ...doc, hands: [...doc.hands, hand] });
  if (!score || score.status !== "finished") {
    line.textContent = "";
    return;
  }
  const and = " " + say("and") + " ", winners = score.winners, names = (list) => list.map((s) => doc.sides[s].name).join(and);
  const others = score.totals.map((t, s) => s).filter((s) => !winners.includes(s));
  const words = (others.length ? line.dataset.win : line.dataset.share).replace("{won}", names(winners))
    .replace("{figure}", signed(score.totals[winners[0]])).replace("{others}", others.map((s) => signed(score.totals[s])).join(and));
  line.textContent = words;
}
for (const type of ["input", "change"]) {
  on(type, (event) => {
    const form = inside(event, "form.hand-form");
    if (form) figuresOnThePhone(form);
  });
}

