// Sending what waits on the phone (docs/architecture.md, "Hands entered offline", "Games started offline"): each
// game started here first, then the hands, in order per game, on every page load, on "online", every 20 s while a
// page is open and hands wait, and when the service worker relays a Background Sync. The server stores each once
// (scorepad/sync.py); a hand it can no longer place is kept with the reason, to re-apply, fix or discard. Never dropped.
// A request that gets no answer is what says the connection is gone, never navigator.onLine.
import { $, byId, on, keep, servedCopy } from "./dom.js";
import { heard, net, say } from "./status.js";
import { say as words, wordsReady } from "./words.js";
import {
  allKeptGames, allQueued, deleteItem, isConflict, isLocal, keepGame, notConflicts, pageGame, putGame, putItem,
  putItems, queuedFor,
} from "./store.js";
import { showOnScoresheet } from "./sheet.js";
import { carryTyping, handFormShowsPlace } from "./handpage.js";
import { listLocalGames, showLocalGame } from "./localgame.js";

export const WAIT_MS = 4000;  // the preview, Start, and Save of a stored hand (which cannot wait on the phone)
const SEND_TIMEOUT_MS = 8000;  // a queued hand sent with no answer in this time: tried again later
const RETRY_EVERY_MS = 20000;  // while a page is open and hands wait

function countQueue(items) {
  net.waiting = notConflicts(items).length;
  net.conflicts = items.length - net.waiting;
}

// A POST that gives up when no answer comes within `ms`. answerOf: its status and JSON body ({} if none).
export function post(url, body, headers, ms = SEND_TIMEOUT_MS) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return fetch(url, { method: "POST", credentials: "same-origin", headers, body, signal: controller.signal })
    .then((response) => {
      heard(true);
      return response;
    }, (error) => {
      heard(controller.signal.aborted && "slow");  // no answer in time, or none at all
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
export const syncAll = () => (passes = passes.then(syncOnce, syncOnce));
export const syncNow = () => syncAll().then(afterSync);
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
      item.reason = body.reason || words("noTake", { code: status });
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
export async function rebase(gameId, fromId) {
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
    kept.local.reason = body.reason || words("noStart", { code: status });
    await putGame(kept);
  }  // else a server error: tried again later
}

// What the page shows of what waits: the scoresheet's waiting hands, the hand form's place, a game started here.
export async function refresh() {
  try {
    await wordsReady;  // what it shows says words: the page's (words.js)
    const items = await allQueued();
    countQueue(items);
    say();
    const game = pageGame();
    if (!game) return await Promise.all([showLocalGame(), listLocalGames()]);
    if ($("form.hand-form")) await handFormShowsPlace(game, items);
    if (byId("scoresheet")) showOnScoresheet(game, items.filter((i) => i.gameId === game.id));  // the next hand's form sits on it
  } catch (e) {
    say();
  }
}

// --- Background Sync, when the browser has it (never the only way) ------------------------------
export function registerBackgroundSync() {
  navigator.serviceWorker?.ready.then((registration) => registration.sync?.register("scorepad-sync")).catch(() => {});
}
navigator.serviceWorker?.addEventListener("message", (event) => {
  if (event.data?.sync) syncNow();
});

// --- When to send --------------------------------------------------------------------------
// After a sync the server's figures replace the provisional ones: the scoresheet is loaded again (with the next
// hand's form at its foot, games/show.html; never the hand page itself, which would lose what is being typed).
function afterSync(appliedAny) {
  const game = pageGame(), handPage = $("form.hand-form") && !byId("scoresheet");
  if (game && !handPage && touched[game.id] && (appliedAny || servedCopy())) {
    carryTyping();
    location.reload();
  }
  return appliedAny;
}
export function start() {
  const game = pageGame();
  if (game && !servedCopy()) {
    keepGame(game.doc, game.version).catch(() => {});
    // A scorekeeper's scoresheet, however the phone got its rights, is kept on the phone with this game's hand
    // form, afresh (they change with each hand), asked here: the worker may not have served this very page (its
    // first visit, the visit that took over with a link, or one it took control of while it loaded). (Its rules
    // page is in the page's data-keep: kept once.)
    if (byId("scoresheet") && game.handUrl) {
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

window.ScorepadOffline = { syncNow };
