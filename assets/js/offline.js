// Scorepad offline: hands entered with no connection wait on the phone (IndexedDB) and are sent once
// when it returns (docs/architecture.md, "Hands entered offline"). Part of static/js/scorepad.min.js
// (scripts/build_js.mjs), after rules.js and scorepad.js, whose functions and helpers it uses.
//
// - The hand form's figures are worked out here as each entry is made (rules.js); the server's preview confirms.
// - Save on the hand form carries an Idempotency-Key; with no answer within 0.7 s (the request fails, or hangs) the
//   hand is kept in the queue under that same key, with the game version it was entered against and its place,
//   after the same checks as the server (checkHand, rules.js), and the scoresheet opens from the phone's copy.
// - The scoresheet shows each waiting hand in its place with provisional figures from scoreGame,
//   marked "not yet synced"; a waiting hand can be edited or deleted.
// - The queue is sent in order on every page load, on the "online" event, on a timer while a page is
//   open, and when the service worker relays a Background Sync. The server stores each hand once
//   (scorepad/sync.py); a hand it can no longer place is shown with the reason, to re-apply, fix or
//   discard. Never dropped.
//
// navigator.onLine is never trusted: a phone on dead Wi-Fi believes it is online. A request that gets no
// answer is what says the connection is gone, and one answered that it works (the connection indicator).

// The database's name never changes: a new version of the app (a new service worker, a new copy of
// this script) opens the same queue, so an update never strands a hand. The queue is carried over
// rather than holding the update back: the worker keeps nothing of it, and a schema change is made
// in onupgradeneeded below, keeping what is stored.
const DB_NAME = "scorepad-offline";
const QUEUE = "queue";  // hands waiting: {id, gameId, seq, key, baseVersion, position, hand, state, reason}
const GAMES = "games";  // the latest game document the phone has seen: {id, version, doc, seenAt}
const WAIT_MS = 4000;  // the preview, Start, and Save of a stored hand (which cannot wait on the phone)
const SEND_TIMEOUT_MS = 8000;  // a queued hand sent with no answer in this time: tried again later
const RETRY_EVERY_MS = 20000;  // while a page is open and hands wait

// --- IndexedDB --------------------------------------------------------------------------------
let dbPromise = null;
function openDb() {
  dbPromise = dbPromise || new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);  // throws (and so rejects) where there is no IndexedDB
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(QUEUE)) db.createObjectStore(QUEUE, { keyPath: "id" }).createIndex("gameId", "gameId");
      if (!db.objectStoreNames.contains(GAMES)) db.createObjectStore(GAMES, { keyPath: "id" });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return dbPromise;
}
// One transaction on one store; `work(store)` may return a request, whose result it then resolves to.
function tx(storeName, mode, work) {
  return openDb().then((db) => new Promise((resolve, reject) => {
    const transaction = db.transaction(storeName, mode);
    const request = work(transaction.objectStore(storeName));
    transaction.oncomplete = () => resolve(request?.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  }));
}
const allQueued = () => tx(QUEUE, "readonly", (store) => store.getAll()).then((items) => items.sort((a, b) => a.seq - b.seq));
const queuedFor = (gameId) => allQueued().then((items) => items.filter((i) => i.gameId === gameId));
const putItems = (items) => tx(QUEUE, "readwrite", (store) => { items.forEach((item) => store.put(item)); });
const putItem = (item) => putItems([item]);
const deleteItem = (id) => tx(QUEUE, "readwrite", (store) => { store.delete(id); });
const getItem = (id) => tx(QUEUE, "readonly", (store) => store.get(id));
const keptGame = (gameId) => tx(GAMES, "readonly", (store) => store.get(gameId));
const allKeptGames = () => tx(GAMES, "readonly", (store) => store.getAll());
const putGame = (kept) => tx(GAMES, "readwrite", (store) => { store.put(kept); });
function keepGame(doc, version) {
  if (!doc?.id || typeof version !== "number") return Promise.resolve();
  return tx(GAMES, "readwrite", (store) => {
    const request = store.get(doc.id);
    request.onsuccess = () => {
      const kept = request.result;
      if (!kept || kept.version <= version) store.put({ id: doc.id, version, doc, seenAt: now() });
    };
  });
}
const now = () => new Date().toISOString();
const newId = () => crypto.randomUUID?.() ||  // only where the page came over https
  Date.now().toString(36) + "-" + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
const isConflict = (item) => item.state === "conflict";
const notConflicts = (items) => items.filter((i) => !isConflict(i));

// --- The game on this page -------------------------------------------------------------------
// The scoresheet and the hand form carry the game document as data (a JSON script tag, never run),
// with the version it is at and where it lives (data-show-url, data-hand-url, data-rules-url).
function pageGame() {
  const tag = byId("game-document");
  if (!tag) return null;
  const data = tag.dataset;
  try {
    return { ...data, id: data.gameId, doc: JSON.parse(tag.textContent), version: parseInt(data.version, 10),
      position: data.position === undefined ? null : parseInt(data.position, 10), at: parseInt(data.at, 10) };
  } catch (e) { return null; }
}
// The newest document the phone has ({doc, version}): the page's own, or one a later answer from the server brought.
const freshest = (game) => keptGame(game.id).catch(() => null)
  .then((kept) => (kept && kept.version > game.version ? kept : game));

// The game with the waiting hands after its stored ones (each hand's inputs only: the rules work out the rest).
function withHands(doc, items) {
  const copy = JSON.parse(JSON.stringify(doc));
  copy.hands = (doc.hands || []).map((hand) => ({ sides: hand.sides.map(({ result, ...entry }) => entry) }))
    .concat(items.map((item) => item.hand));
  return copy;
}
function playerOfSeat(doc, seat) {
  const sides = doc.sides;
  return sides[seat % sides.length].players[Math.floor(seat / sides.length)];
}
const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
const sideNames = (doc) => doc.sides.map((side) => side.name).join(" v ");

// --- The connection indicator -------------------------------------------------------------
// #sync-status (base.html, its words the server's, in its data-*: "#" the number, "|" before the plural) says one
// thing at a time: sending (hands going, the server answering), no connection (the last request got no answer:
// it failed, or nothing came in time), hands needing the scorekeeper, hands waiting on the phone (the connection
// not known to be down), or online. Only what requests did moves it, never navigator.onLine. `answered` is null
// while not known: a copy the phone opened at once because Save gave up waiting ("#kept", keepHand).
const KEPT = "#kept";
const net = { answered: servedCopy() ? (location.hash === KEPT ? null : false) : true, sending: 0, waiting: 0, conflicts: 0 };
if (location.hash === KEPT) history.replaceState(history.state, "", location.pathname);
const told = (words, n) => words.split("|")[+(n !== 1)].replace("#", n);
function say() {
  const status = byId("sync-status");
  if (!status) return;
  const words = status.dataset, { answered, sending, waiting, conflicts } = net;
  const [kind, text] = sending && answered ? ["sending", told(words.sending, sending)]
    : answered === false ? ["offline", waiting ? told(words.offlineWaiting, waiting)
      : isNaN(figuresAsOf) ? words.offline : words.asOf + clockTime(figuresAsOf)]
    : conflicts ? ["conflict", told(words.conflict, conflicts)]
    : waiting ? ["waiting", told(words.waiting, waiting)]
    : ["online", words.online];
  status.dataset.state = kind;
  status.textContent = text || "";
  status.hidden = !text;
}
const heard = (answered) => {
  net.answered = answered;
  say();
};
// Any answer from the server (a 500 too) says the connection works; none (an abort of ours included) says nothing.
on("htmx:afterRequest", (event) => {
  if (!event.detail.xhr?.status) return;
  if (event.detail.successful) figuresAsOf = new Date();
  heard(true);
});
for (const type of ["htmx:sendError", "htmx:timeout"]) on(type, () => heard(false));
function countQueue(items) {
  net.waiting = notConflicts(items).length;
  net.conflicts = items.length - net.waiting;
}

// --- Sending the queue ----------------------------------------------------------------------
// A POST that gives up when no answer comes within `ms`. answerOf: its status and JSON body ({} if none).
function post(url, body, headers, ms = SEND_TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return fetch(url, { method: "POST", credentials: "same-origin", headers, body, signal: controller.signal })
    .then((response) => {
      heard(true);
      return response;
    }, (error) => {
      heard(false);
      throw error;
    })
    .finally(() => clearTimeout(timer));
}
const answerOf = (response) => response.json().catch(() => ({})).then((body) => ({ status: response.status, body }));
const send = (item) => post("/sync/games/" + encodeURIComponent(item.gameId) + "/hands",
  JSON.stringify({ hand: item.hand, base_version: item.baseVersion, position: item.position }),
  { "Content-Type": "application/json", "Idempotency-Key": item.key }).then(answerOf);

const touched = {};  // games the server answered for in this page's life
// One pass at a time: a call while a pass runs (a tap on Re-apply, "online" during the page-load pass)
// makes another pass after it, so nothing entered meanwhile waits for the timer.
let passes = Promise.resolve(false);
const syncAll = () => (passes = passes.then(syncOnce, syncOnce));
const syncNow = () => syncAll().then(afterSync);
function syncOnce() {
  const lock = navigator.locks?.request ? (work) => navigator.locks.request("scorepad-sync", work) : (work) => work();
  return lock(async () => {
    await createLocalGames();
    let items = await allQueued();
    countQueue(items);
    // A game started here that is not on the server yet holds its hands back (createLocalGames).
    items = items.filter((i) => !isLocal(i.gameId));
    net.sending = notConflicts(items).length;
    say();
    let applied = 0;
    for (const gameId of new Set(items.map((i) => i.gameId))) {
      const outcome = await syncGame(items.filter((i) => i.gameId === gameId));
      applied += outcome.applied;
      if (outcome.offline) break;
    }
    return applied > 0;
  }).catch(() => false).then(async (appliedAny) => {
    net.sending = 0;
    await refresh();
    return appliedAny;
  });
}
// One game's hands, in order; a hand in conflict holds back those after it.
async function syncGame(items) {
  const outcome = { applied: 0, offline: false };
  for (const [i, item] of items.entries()) {
    if (isConflict(item)) break;
    let answer;
    try {
      answer = await send(item);
    } catch (e) {
      outcome.offline = true;  // no answer: the connection is gone for now
      break;
    }
    const body = answer.body || {}, status = answer.status, version = body.version;
    if (body.game && typeof version === "number") keepGame(body.game, version);
    if (body.outcome) touched[item.gameId] = true;
    if (body.outcome === "applied") {
      outcome.applied += 1;
      // The hands after it were entered on the same game: they now follow the version this one made.
      const later = items.slice(i + 1).filter((l) => l.baseVersion === item.baseVersion);
      later.forEach((l) => { l.baseVersion = version; });
      await deleteItem(item.id);
      await putItems(later);
      net.sending -= 1;
      net.waiting -= 1;
      say();
      continue;
    }
    if (body.outcome === "conflict" || body.outcome === "refused" || [400, 403, 404].includes(status)) {
      item.state = "conflict";
      item.reason = body.reason || "The server could not take this hand (error " + status + ").";
      item.errors = body.errors || [];
      if (typeof version === "number") {
        item.currentVersion = version;
        item.currentHands = body.game?.hands ? body.game.hands.length : null;
      }
      await putItem(item);
    }
    break;  // a conflict, or a server error: tried again later, as it is
  }
  return outcome;
}
// A conflicting hand placed on the game as it is now: it and the hands after it follow the current version.
async function rebase(gameId, fromId) {
  const items = await queuedFor(gameId);
  const start = items.findIndex((i) => i.id === fromId);
  if (start < 0) return;
  const { currentVersion: version, currentHands: count } = items[start];
  const rest = items.slice(start);
  rest.forEach((item, n) => {
    if (typeof version === "number") item.baseVersion = version;
    if (typeof count === "number") item.position = count + n;
    item.state = "waiting";
    delete item.reason;
    delete item.errors;
  });
  await putItems(rest);
}

// --- The scoresheet: waiting hands in their place, provisional figures -------------------------
async function refresh() {
  try {
    const items = await allQueued();
    countQueue(items);
    say();
    const game = pageGame();
    if (!game) await Promise.all([showLocalGame(), listLocalGames()]);
    else if ($("form.hand-form")) await handFormShowsPlace(game, items);
    else showOnScoresheet(game, items.filter((i) => i.gameId === game.id));
  } catch (e) {
    say();
  }
}

// A copy of the markup the server drew for this script in <template id="…">: the whole of it, or its first element.
// Made in this document (not the template's, which has no address), so that a link's .hash can be set on it.
const copyOf = (id) => document.importNode(byId(id).content, true);
const copyOne = (id) => copyOf(id).firstElementChild;
// Each figure's cell under `root` (class base, count, hand-total or cumulative), from sides[its data-side].
function fillFigures(root, sides) {
  for (const key of ["base", "count", "total", "cumulative"]) {
    $$("." + (key === "total" ? "hand-total" : key), root).forEach((cell) => {
      cell.textContent = signed(sides[cell.closest("[data-side]").dataset.side][key]);
    });
  }
}
// A row (two sides) or a group of rows (three) is put in its table.
const addRow = (table, row) => (row.tagName === "TBODY" ? table : $("tbody", table)).append(row);

function showOnScoresheet(game, items) {
  $$(".waiting-hand, .not-saved, .provisional-note").forEach((node) => node.remove());
  $$(".provisional").forEach((node) => node.classList.remove("provisional"));
  const waiting = notConflicts(items), conflicts = items.filter(isConflict);
  if (conflicts.length) showConflicts(game, conflicts);
  const sheet = byId("scoresheet"), doc = withHands(game.doc, waiting), score = scoreGame(doc), link = $("a.sticky-action");
  if (link) {  // the next hand counts those waiting (the server's own words when none wait); none after a finish
    link.hidden = score.status === "finished";
    link.textContent = "Enter hand " + (doc.hands.length + 1);
  }
  if (!sheet) return;
  const data = sheet.dataset;
  if (!data.original) data.original = sheet.innerHTML;  // the server's own figures
  if (waiting.length || data.provisional) sheet.innerHTML = data.original;
  delete data.provisional;
  if (waiting.length) {
    data.provisional = "true";
    showWaiting(sheet, doc, score, waiting);
  }
}
// The waiting hands (the last of doc's) in the sheet's grid, made if it has none yet, each with its figures and
// actions; then the standings with them.
function showWaiting(sheet, doc, score, items) {
  const stored = doc.hands.length - items.length;
  let table = $("table.grid", sheet);
  if (!table) {
    const empty = $("p.empty", sheet);
    table = emptyTable(doc);
    if (empty) empty.replaceWith(table);
    else sheet.append(table);
  }
  items.forEach((item, n) => addRow(table, waitingRow(doc, score.hands[stored + n], stored + n + 1, item)));
  standings(sheet, doc, score, items.length);
}

// The scoresheet's grid with no hand yet (<template id="empty-grid-2"> or "-3", templates/_scoresheet.html).
function emptyTable(doc) {
  const table = copyOne("empty-grid-" + doc.sides.length);
  $$("th:empty", table).forEach((cell, s) => { cell.textContent = doc.sides[s].name; });
  return table;
}

// A waiting hand's row (two sides) or rows (three), as the server draws a hand's (<template id="waiting-row-2"> or
// "-3"), with its figures; beside it, where the template has them, Edit (which opens the hand form, or on a game
// started here fills the form below the sheet) and Delete.
function waitingRow(doc, handScore, number, item) {
  const row = forItem(copyOne("waiting-row-" + doc.sides.length), item);
  row.id = "hand-" + number;
  $$(".hand-number, .visually-hidden", row).forEach((slot) => slot.append(number));  // "Hand 2", "Edit hand 2"
  $(".dealer", row).prepend(playerOfSeat(doc, handScore.dealer));
  fillFigures(row, handScore.sides);
  return row;
}
// A waiting hand's markup names it: its id on the node and its buttons (data-item), and after "#" on its links to
// the hand form (#waiting=<id>).
function forItem(node, item) {
  [node, ...$$("button", node)].forEach((each) => { each.dataset.item = item.id; });
  $$("a", node).forEach((link) => { link.hash = "waiting=" + item.id; });
  return node;
}

// The standings' lines for figures with waiting hands: who deals next; who won and that they are provisional are
// <template id="waiting-winner">, "waiting-note" and "no-hands-note" (templates/_scoresheet.html).
const nextDeal = (doc, score) => ["Hand " + (doc.hands.length + 1) + ": ",
  el("strong", {}, playerOfSeat(doc, score.next_dealer)), " deals \u00b7 playing to " + signed(doc.rules.target)];

function standings(sheet, doc, score, waitingCount) {
  const section = $(".standings", sheet);
  if (!section) return;
  section.classList.add("provisional");
  const finished = score.status === "finished";
  $$(".total-card", sheet).forEach((card, s) => {
    const total = $(".total-figure", card), min = $(".min-count", card), figure = $(".min-count-figure", card);
    if (total) total.textContent = signed(score.totals[s]);
    card.classList.toggle("is-winner", finished && score.winners.includes(s));
    if (min) min.hidden = finished;
    if (figure && !finished) figure.textContent = score.min_count[s];
  });
  $$(".winner, .tie", section).forEach((node) => node.remove());
  if (finished && score.winner != null) {
    const line = copyOne("waiting-winner");
    $("strong", line).prepend(doc.sides[score.winner].name);
    section.prepend(line);
  }
  const next = $(".next-deal", section);
  if (next) {
    next.hidden = finished;
    next.replaceChildren(...nextDeal(doc, score));
  }
  const note = copyOne(waitingCount ? "waiting-note" : "no-hands-note");
  if (waitingCount) note.prepend("Figures with " + plural(waitingCount, "hand", "hands"));
  section.append(note);
}

// The card for hands the server could not place (<template id="not-saved">, games/show.html): each with its
// reason and, where this phone keeps score, Re-apply, Fix it and Discard.
function showConflicts(game, conflicts) {
  const sheet = byId("scoresheet"), card = copyOne("not-saved"), one = $(".conflict", card);
  $("h2", card).append(plural(conflicts.length, "hand needs", "hands need") + " you");
  one.replaceWith(...conflicts.map((item) => {
    const div = forItem(one.cloneNode(true), item);
    $("strong", div).append(item.position + 1 + ": ");
    $("p", div).append(describe(game.doc, item.hand));
    $(".conflict-reason", div).textContent = item.reason;
    return div;
  }));
  if (sheet) sheet.before(card);
  else byId("main").prepend(card);
}
function describe(doc, hand) {
  return hand.sides.map((entry, s) => {
    const name = doc.sides[s] ? doc.sides[s].name : "Side " + (s + 1);
    if (entry.special_hand) return name + ": special hand";
    const parts = [];
    if (entry.natural_canastas) parts.push(entry.natural_canastas + " natural");
    if (entry.mixed_canastas) parts.push(entry.mixed_canastas + " mixed");
    if (entry.red_threes) parts.push(entry.red_threes + " red 3s");
    if (entry.went_out) parts.push("went out");
    if (entry.count !== undefined) parts.push("Count " + signed(entry.count));
    else if (entry.cards) parts.push("Count by the grid");
    if (entry.reported_base !== undefined) parts.push("Base " + signed(entry.reported_base));
    return name + " " + (parts.join(", ") || "nothing");
  }).join("; ");
}

on("click", async (event) => {
  const target = inside(event, ".delete-waiting, .discard-waiting, .reapply-waiting");
  if (!target) return;
  const id = target.dataset.item;
  if (target.classList.contains("reapply-waiting")) {
    await rebase(pageGame().id, id);
    syncNow();
    return;
  }
  if (!confirm(target.dataset.confirm)) return;  // the question is the button's (templates/_scoresheet.html, games/show.html)
  const item = await getItem(id);
  await deleteItem(id);
  if (item) {
    // The waiting hands after it move up one place.
    const later = (await queuedFor(item.gameId)).filter((i) => i.seq > item.seq && i.baseVersion === item.baseVersion);
    later.forEach((i) => { i.position -= 1; });
    await putItems(later);
  }
  refresh();
});

// --- The hand form --------------------------------------------------------------------------
// The form's entries as the API's hand body: the same reading as scorepad/forms.py (HandForm.hand_json).
function wholeNumber(text) {
  text = (text || "").trim().replace(/\u2212/g, "-");
  if (!text) return { value: null };
  if (/^-?\d{1,3}([.,\s]\d{3})+$/.test(text)) text = text.replace(/[.,\s]/g, "");
  if (!/^-?\d+$/.test(text)) return { error: "Enter a whole number, like 3." };
  return { value: parseInt(text, 10) };
}
const withSign = (number, sign) => (sign === "-" && number > 0 ? -number : number);
// Read on their own below: the special hand, the choices, the Count (count, count_mode, count_sign), the reported Base
// (with its sign) and the counting grid's cells.
const SET_APART = /^(special_hand|wild_canasta|has_melded|count.*|reported_base.*|melded_.*|in_hand_.*)$/;
function readForm(form, doc, position) {
  const problems = [];
  const sides = doc.sides.map((side, s) => {
    const prefix = "s" + s + "-", values = {}, checked = {};
    for (const input of form.elements) {
      if (!input.name?.startsWith(prefix)) continue;
      const name = input.name.slice(prefix.length);
      if (input.type === "checkbox") checked[name] = input.checked;
      else if (input.type !== "radio" || input.checked) values[name] = input.value;
    }
    const number = (name, signedField) => {  // each field is read once
      const read = wholeNumber(values[name]), at = { field: "sides." + s + "." + name, id: prefix + name };
      if (read.error) problems.push({ ...at, message: read.error });
      else if (!signedField && read.value < 0) problems.push({ ...at, message: "Can't be less than 0." });
      return read.error ? null : read.value;
    };
    if (values.special_hand) return { special_hand: values.special_hand };
    const entry = {};
    const reported = number("reported_base", true);
    if (reported != null) {
      entry.reported_base = withSign(reported, values.reported_base_sign);
    } else {
      for (const name of Object.keys(values)) {
        const n = !SET_APART.test(name) && number(name);
        if (n) entry[name] = n;
      }
      for (const name of Object.keys(checked)) if (!SET_APART.test(name) && checked[name]) entry[name] = true;
      if (values.wild_canasta) entry.wild_canasta = values.wild_canasta;
      if (values.has_melded) entry.has_melded = values.has_melded === "yes";
    }
    if (checked.count_mode) {
      const cards = { melded: {}, in_hand: {} };
      for (const name of Object.keys(values)) {
        const match = /^(melded|in_hand)_(.+)$/.exec(name), n = match && number(name);
        if (n) cards[match[1]][match[2]] = n;
      }
      entry.cards = cards;
    } else {
      const count = number("count", true);
      if (count !== null) entry.count = withSign(count, values.count_sign);
    }
    return entry;
  });
  if (form.elements.namedItem("perfect_cut")?.checked) {
    sides[gameOf(doc).cutterSide(position)].perfect_cut = true;
  }
  return { hand: { sides }, problems };
}
// Put a stored side entry back into the form: the same as SideForm.fill.
function fillForm(form, hand) {
  for (const input of form.elements) {
    if (!/^s\d+-/.test(input.name || "")) continue;
    if (input.type === "checkbox") input.checked = false;
    else if (input.type === "radio") input.checked = input.value === "+";
    else if (input.type !== "hidden") input.value = "";
  }
  const cut = form.elements.namedItem("perfect_cut");
  if (cut) cut.checked = hand.sides.some((e) => e.perfect_cut);
  hand.sides.forEach((entry, s) => {
    const p = "s" + s + "-", set = (name, value) => setField(form, p + name, value);
    for (const [name, value] of Object.entries(entry)) {
      if (name === "has_melded") set(name, value ? "yes" : "no");
      else if (name === "reported_base" || name === "count") {
        set(name + "_sign", value < 0 ? "-" : "+");
        set(name, String(Math.abs(value)));
      } else if (name === "cards") {
        set("count_mode", true);
        for (const where of ["melded", "in_hand"]) {
          for (const [kind, n] of Object.entries(value[where] || {})) set(where + "_" + kind, String(n));
        }
      } else if (name !== "perfect_cut") set(name, typeof value === "boolean" ? value : String(value));
    }
  });
}

// A problem's field ("sides.1.red_threes") is the form's field "s1-red_threes" (forms.py field_for).
function fieldId(field) {
  const [head, side, name, where, kind] = String(field || "").split(".");
  if (head !== "sides" || !name) return null;
  if (name === "perfect_cut") return name;
  return "s" + side + "-" + (name !== "cards" ? name : kind ? where + "_" + kind : "count");
}
// quiet: while the scorekeeper types (the preview worked out on the phone), focus stays where it is.
function showProblems(form, problems, quiet) {
  // A keystroke refused where it was typed stays said until that field takes one (scorepad.js).
  $$(".field-error[id$='-error']", form).forEach((slot) => { slot.textContent = byId(slot.id.slice(0, -6))?.dataset.refused || ""; });
  $$("[aria-invalid]:not([data-refused])", form).forEach((input) => input.removeAttribute("aria-invalid"));
  const leftovers = [];
  for (const problem of problems) {
    const fields = problem.involves?.length ? problem.involves : [problem.field];
    let placed = false;
    for (const field of fields) {
      const id = problem.id && fields.length === 1 ? problem.id : fieldId(field);
      const slot = id && byId(id + "-error"), input = id && byId(id);
      if (!slot || !input) continue;
      if (!slot.textContent.includes(problem.message)) {
        slot.textContent = (slot.textContent ? slot.textContent + " " : "") + problem.message;
      }
      markField(input, slot, true);
      placed = true;
    }
    if (!placed) leftovers.push(problem.message);
  }
  const top = byId("form-errors");
  if (top) {
    top.textContent = "";
    if (leftovers.length) top.append(el("ul", {}, leftovers.map((message) => el("li", {}, message))));
  }
  const preview = byId("preview");
  if (preview && problems.length) {
    preview.replaceChildren(el("p", { class: "preview-problem" }, problems[0].message +
      (problems.length > 1 ? " (and " + (problems.length - 1) + " more, marked above)" : "")));
  }
  if (!quiet) $("[aria-invalid='true']", form)?.focus();
}

// The hand as read from the form, if the rules take it as hand `position` after `before` (else its problems shown).
function checkedHand(form, doc, before, position) {
  const read = readForm(form, doc, position);
  const problems = read.problems.length ? read.problems : checkHand(withHands(doc, before), read.hand, position);
  if (problems.length) showProblems(form, problems);
  return problems.length ? null : read.hand;
}
const newItem = (gameId, baseVersion, position) => ({ id: newId(), gameId, seq: Date.now() + Math.random(),
  key: "offline-" + newId(), baseVersion, position, createdAt: now() });

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
function handFormShowsPlace(game, items) {
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
    const heading = $(".hand-head h1"), label = $(".save-label", form), info = $(".hand-info");
    if (heading) heading.textContent = (editing ? "Edit hand " : "Hand ") + number + " (not yet synced)";
    if (label) label.textContent = editing ? "Save changes" : "Save hand " + number;
    const score = scoreGame(doc);
    if (info && score.next_dealer !== undefined) {  // <template id="offline-hand-info"> (games/hand.html)
      info.replaceChildren(playerOfSeat(doc, score.next_dealer), copyOf("offline-hand-info"));
      $$("strong", info).forEach((figure, s) => { figure.textContent = score.min_count[s]; });
    }
    if (editing && !form.dataset.filled) {
      form.dataset.filled = "true";
      fillForm(form, editing.hand);
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
    const sides = !problems.length && !blank && scoreOneHand(doc, read.hand, position, totals).sides;
    doc.sides.forEach((side, s) => byId("side-figures-" + s)?.replaceChildren(...sides ? [copyOf("offline-side-figures")] : []));
    if (sides) {
      byId("preview").replaceChildren(copyOf("offline-preview"));
      fillFigures(form, sides);
    }
  });
}
for (const type of ["input", "change"]) {
  on(type, (event) => {
    const form = inside(event, "form.hand-form");
    if (form) figuresOnThePhone(form);
  });
}

// --- Games started with no connection (docs/architecture.md, "Games started offline") --------------
// Start on the new-game page that gets no answer (the request fails, or nothing within 4 s) keeps the
// game on the phone: the form's fields as entered, for the server to read with its own new-game form
// when the connection returns (POST /sync/games, once: an Idempotency-Key drawn here), and a game
// document for the provisional figures, from the rules the page was rendered with (#new-game-rules).
// The game lives in store GAMES under a local id ("local-…"), its hands in the queue like any other
// game's; its scoresheet is /offline/game#<local id>, a page kept on the phone that this script fills.
const LOCAL = "local-";
const isLocal = (gameId) => String(gameId).startsWith(LOCAL);
const localShellUrl = (id) => "/offline/game#" + encodeURIComponent(id);
// The game document the form describes, as NewGameForm.document_json reads it: sides, players, first
// dealer; the rules as the page shows them, or the chosen preset's when it was chosen offline (the
// page could not fetch its values: the server fills them from the preset too, see startOffline).
function newGameDocument(fields, data) {
  const players = fields.get("players") || "4", problems = [];
  const sideCount = players === "6" ? 3 : 2, perSide = players === "2" ? 1 : 2;
  const field = (name) => (fields.get(name) || "").trim();
  const sides = Array.from({ length: sideCount }, (_, s) => {
    const name = field("side" + s + "_name");
    if (!name) problems.push("Give side " + (s + 1) + " a name.");
    return { name, players: Array.from({ length: perSide }, (_, p) => {
      const player = field("player" + s + "_" + p);
      if (!player) problems.push("Give player " + (p + 1) + " of side " + (s + 1) + " a name.");
      return player;
    }) };
  });
  const preset = fields.get("preset") || data.rules_from;
  const samePreset = preset === data.rules_from && data.rules;
  const rules = JSON.parse(JSON.stringify(samePreset ? data.rules : data.presets[preset] || data.presets.modern));
  if (samePreset) {
    const target = wholeNumber(fields.get("target"));
    if (target.error || (target.value !== null && target.value < 5)) problems.push("Points to win: enter a whole number of 5 or more.");
    else if (target.value !== null) rules.target = target.value;
  }
  let dealer = parseInt(fields.get("first_dealer") || "0", 10);
  if (!(dealer >= 0 && dealer < sideCount * perSide)) dealer = 0;
  return { problems, doc: { format: "scorepad-game", version: 1, rules, sides, first_dealer: dealer, hands: [] } };
}
async function startOffline(form, data, key) {
  const fields = new URLSearchParams(new FormData(form));  // as the browser would post them
  const made = newGameDocument(fields, data);
  if (made.problems.length) {
    const slot = byId("new-game-offline-error");
    if (slot) slot.textContent = "No connection, and the game can't start as it is: " + made.problems.join(" ") +
      " Your entries are still here.";
    return;
  }
  if (fields.get("preset") !== data.rules_from) {
    // The table rules shown are another preset's: the server takes the chosen preset's, as offline here.
    for (const input of $$("#game_rules [name]")) {
      if (input.name !== "rules_from" && input.name !== "set_from") fields.delete(input.name);
    }
  }
  const id = LOCAL + newId();
  await putGame({ id, version: 0, doc: made.doc, seenAt: now(), local: { key, fields: fields.toString(), createdAt: now() } });
  registerBackgroundSync();
  location.assign(localShellUrl(id));
}
// Start: tried on the server first, with the same 4 s as Save; with no answer the game starts here.
// The try carries the key the game will be sent with later: had the server started it after all
// (the answer was only late), the game sent later is that one, never a second.
on("submit", (event) => {
  const form = event.target, submitter = event.submitter, rulesTag = byId("new-game-rules");
  if (!form.matches?.("form.new-game") || form.dataset.sendAsIs === "true") return;
  if (submitter?.name || !rulesTag) return;  // a preset's values, or rules saved: the server's work
  let data;
  try { data = JSON.parse(rulesTag.textContent); } catch (e) { return; }
  event.preventDefault();
  const key = "offline-game-" + newId(), body = new URLSearchParams(new FormData(form));  // Start's own, unnamed, adds nothing
  body.set("offline_key", key);
  post(form.getAttribute("action"), body, undefined, WAIT_MS).then((response) => {
    if (response.ok && response.redirected) return location.assign(response.url);
    // The server answered with the page again (a problem to fix): sent as usual, to show it.
    form.dataset.sendAsIs = "true";
    if (form.requestSubmit) form.requestSubmit(submitter || undefined);
    else form.submit();
  }, () => startOffline(form, data, key));
}, true);

// Each game started here reaches the server once, before its hands: they then follow the real game.
async function createLocalGames() {
  const games = (await allKeptGames()).filter((g) => g.local);
  await Promise.all(games.filter((g) => g.local.created).map(followTheGame));
  for (const kept of games.filter((g) => !g.local.created)) await createLocalGame(kept).catch(() => {});
}
// The hands of a game started here follow it to its real id. Done again on every pass: a tab closed
// between keeping the game as created and moving its hands must never strand them.
async function followTheGame(kept) {
  const items = await queuedFor(kept.id), created = kept.local.created;
  items.forEach((item) => {
    item.gameId = created.id;
    item.baseVersion = created.version;
  });
  if (items.length) await putItems(items);
}
async function createLocalGame(kept) {
  const { status, body } = await post("/sync/games", kept.local.fields,
    { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": kept.local.key }).then(answerOf);
  if (body.outcome === "created" && body.id) {
    kept.local.created = { id: body.id, showUrl: body.show_url, version: body.version };
    delete kept.local.reason;
    await putGame(kept);
    await keepGame(body.game, body.version);
    await followTheGame(kept);
  } else if (status >= 400 && status < 500) {  // refused: shown on its sheet, kept
    kept.local.reason = body.reason || "The server could not start this game (error " + status + ").";
    await putGame(kept);
  }  // else a server error: tried again later
}

// --- The scoresheet of a game started here: /offline/game#<local id> ------------------------------
let localEditing = null;  // the waiting hand open in the form, if any
const localGameId = () => {
  const match = /^#(local-.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
};
function hintOf(doc, name) {  // forms.py HandForm.hint: "(+2,500)", "(−1,500 each)"
  // For the side: the special canastas and going out concealed; against it: the penalties (rules.js).
  const worth = PENALTIES.includes(name) ? -1 : ["sevens_canasta", "aces_canasta", "concealed"].includes(name) ? 1 : 0;
  const value = worth * (doc.rules.values[valueOf(name)] || 0);
  return value ? "(" + (value > 0 ? "+" : "") + signed(value) + (KIND[name] === "i" ? " each" : "") + ")" : "";
}
// The hand form's side panels, drawn by the server for up to three sides with every entry a game can have
// (templates/offline_game.html, <template id="offline-hand-fields">): this game's sides, named, and only the
// entries its rules give a value (rules.js has, as HandForm.shown), each with what it is worth, and the game's
// own special hands and wild-card canastas, by name and value.
function handFields(doc) {
  const fields = copyOf("offline-hand-fields"), rules = doc.rules, game = gameOf(doc);
  const wild = Object.fromEntries(Object.keys(WILD).map((kind) => [kind, rules.values["wild_canasta_" + kind]]));
  const options = (name, values, keys) =>  // each of `keys` by its name, with its value
    keys.map((key) => new Option(name(key) + " (" + signed(values[key]) + ")", key));
  $$(".side-panel", fields).forEach((panel, s) => {
    const side = doc.sides[s];
    if (!side) return panel.remove();
    $$(".side-name", panel).forEach((slot) => { slot.textContent = side.name; });
    $(".sign", panel).setAttribute("aria-label", side.name + ": plus or minus");
    $(".special-hand-choice", panel).append(...options(specialHandName, rules.special_hands,
      Object.keys(rules.special_hands)));
    $(`[name='s${s}-wild_canasta']`, panel).append(...options((kind) => WILD[kind], wild,
      Object.keys(WILD).filter((kind) => wild[kind] > 0)));
  });
  for (const input of $$("[name]", fields)) {  // each field's name is its id: "s0-dirty_sevens", "perfect_cut"
    const name = input.name.replace(/^s\d-/, ""), hint = $(`[for='${input.name}'] small`, fields);
    if (!has(game, name)) input.closest(".field")?.remove();
    else if (hint) hint.textContent = hintOf(doc, name);
  }
  $$("details.more", fields).forEach((more) => $(".field", more) || more.remove());
  return fields;
}
// What is set under a side's "More", in words beside it (forms.py HandForm.summary): nothing set is out of sight.
function summarizeMore(form) {
  for (const more of $$("details.more", form)) {
    const said = [];
    for (const input of $$("input, select", more)) {
      const name = LABEL[input.name.slice(3)], value = input.value.trim();  // "s0-dirty_sevens": Players dirty with 7s
      if (input.type === "checkbox") {
        if (input.checked) said.push(name);
      } else if (input.tagName === "SELECT") {
        const chosen = input.selectedOptions[0].text;
        if (value) said.push(/has_melded$/.test(input.name) ? name + ": " + chosen : chosen);
      } else if (value && value !== "0") {
        said.push(name + ": " + value);
      }
    }
    $(".more-summary", more).textContent = said.join(" \u00b7 ");
  }
}
for (const type of ["input", "change"]) {
  on(type, (event) => {
    const form = inside(event, "form.offline-hand-form");
    if (form) summarizeMore(form);
  });
}
async function showLocalGame() {
  const root = byId("offline-game");
  if (!root) return;
  const id = localGameId(), refused = byId("not-started"), form = $("form.offline-hand-form", root);
  const [kept, items] = id ? await Promise.all([keptGame(id), queuedFor(id)]) : [];
  if (!kept?.local) {
    byId("not-on-this-phone").hidden = false;
    return;
  }
  if (kept.local.created) return location.replace(kept.local.created.showUrl);
  const doc = kept.doc, reason = kept.local.reason, title = sideNames(doc);
  $("h1", root).textContent = title;
  document.title = title + " \u00b7 Scorepad";
  refused.hidden = !reason;
  $(".reason", refused).textContent = reason || "";
  const full = withHands(doc, items), score = scoreGame(full), finished = score.status === "finished";
  // The standings, drawn in the page as on a scoresheet (templates/_scoresheet.html) for up to three sides: this
  // game's, with the figures as on a scoresheet with hands waiting, and the grid.
  const sheet = byId("scoresheet");
  $$(".total-card", sheet).forEach((card, s) => {
    const side = doc.sides[s];
    if (!side) return card.remove();
    $(".side-name", card).textContent = side.name;
    $(".side-players", card).textContent = side.players.join(" & ");
  });
  $(".totals", sheet).classList.add("side-count-" + doc.sides.length);
  $$(".provisional-note, .grid", sheet).forEach((node) => node.remove());
  if (items.length) showWaiting(sheet, full, score, items);
  else standings(sheet, full, score, 0);
  sheet.hidden = false;
  // The form for the next hand (or the waiting hand being changed).
  const panels = $(".offline-hand-sides", form);
  if (!panels.children.length) panels.append(handFields(doc));
  const editing = localEditing && items.find((i) => i.id === localEditing);
  const number = editing ? editing.position + 1 : items.length + 1;
  const cut = $("[for=perfect_cut] small", form);
  if (cut) {
    cut.textContent = "(+" + points(doc.rules.values.perfect_cut) + ", exactly 52 cards: " +
      playerOfSeat(doc, gameOf(doc).cutter(number - 1)) + " cut)";
  }
  summarizeMore(form);
  form.hidden = finished && !editing;
  $(".offline-hand-heading", form).textContent = editing ? "Edit hand " + number + " (not yet synced)" : "Hand " + number;
  $(".save-offline-hand", form).textContent = editing ? "Save changes" : "Save hand " + number;
  $(".cancel-edit", form).hidden = !editing;
}
// The home page lists them: a game started here can be found again before it reaches the server.
async function listLocalGames() {
  const section = byId("started-offline");
  if (!section) return;
  const [kept, queued] = await Promise.all([allKeptGames(), allQueued()]);
  const games = kept.filter((g) => g.local && !g.local.created);
  $("ul", section).replaceChildren(...games.map((game) => el("li", {},
    el("a", { href: localShellUrl(game.id) }, sideNames(game.doc)),
    " · " + plural(queued.filter((i) => i.gameId === game.id).length, "hand", "hands") + ", not yet synced")));
  section.hidden = !games.length;
}
async function keepLocalHand(form) {
  const id = localGameId();
  const [kept, mine] = await Promise.all([keptGame(id), queuedFor(id)]);
  if (!kept) return;
  const editing = localEditing && mine.find((i) => i.id === localEditing);
  const position = editing ? editing.position : mine.length;
  const hand = checkedHand(form, kept.doc, editing ? mine.slice(0, mine.indexOf(editing)) : mine, position);
  if (!hand) return;
  const item = editing || newItem(id, 0, position);
  Object.assign(item, { hand, state: "waiting", updatedAt: now() });
  await putItem(item);
  resetLocalForm(form);
  registerBackgroundSync();
  syncAll();  // the connection may be back: the game goes to the server, then its sheet opens
  scrollTo(0, 0);
}
function resetLocalForm(form) {
  localEditing = null;
  form.reset();
  showProblems(form, []);
}
on("submit", (event) => {
  const form = event.target;
  if (!form.matches?.("form.offline-hand-form")) return;
  event.preventDefault();
  keepLocalHand(form);
});
on("click", async (event) => {
  const target = inside(event, ".edit-local, .cancel-offline-edit");
  if (!target) return;
  const form = $("form.offline-hand-form");
  if (target.classList.contains("cancel-offline-edit")) {
    resetLocalForm(form);
    showLocalGame();
    return;
  }
  const item = await getItem(target.dataset.item);
  if (!item) return;
  localEditing = item.id;
  fillForm(form, item.hand);
  await showLocalGame();
  form.scrollIntoView();
});

// --- Background Sync, when the browser has it (never the only way) ------------------------------
function registerBackgroundSync() {
  navigator.serviceWorker?.ready.then((registration) => registration.sync?.register("scorepad-sync")).catch(() => {});
}
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data?.sync) syncNow();
});

// --- When to send --------------------------------------------------------------------------
// After a sync the server's figures replace the provisional ones: the scoresheet is loaded again.
function afterSync(appliedAny) {
  const game = pageGame();
  if (game && !$("form.hand-form") && touched[game.id] && (appliedAny || servedCopy())) location.reload();
  return appliedAny;
}
function start() {
  const game = pageGame();
  if (game && !servedCopy()) {
    keepGame(game.doc, game.version).catch(() => {});
    // A scorekeeper's scoresheet, however the phone got its rights, is kept on the phone with this game's hand
    // form, afresh (they change with each hand), asked here: the worker may not have served this very page (its
    // first visit, the visit that took over with a link, or one it took control of while it loaded). (Its rules
    // page is in the page's data-keep: kept once.)
    if (!$("form.hand-form") && game.handUrl) {
      keep(game.handUrl);
      keep(game.showUrl);
    }
  }
  refresh().then(syncNow);
  setInterval(() => {
    if (net.waiting) syncNow();
  }, RETRY_EVERY_MS);
}
addEventListener("online", syncNow);  // a hint to try now, no more: only an answer says the connection works
addEventListener("hashchange", () => {
  if ($("form.hand-form")) location.reload();
});
if (document.readyState === "loading") on("DOMContentLoaded", start);
else start();

window.ScorepadOffline = { syncNow };
