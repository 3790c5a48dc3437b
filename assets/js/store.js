// What the phone keeps (docs/architecture.md, "Hands entered offline"): IndexedDB's queue of hands waiting and the
// newest game document seen of each game; and the game the page carries.
//
// The database's name never changes: a new version of the app (a new service worker, a new copy of this script)
// opens the same queue, so an update never strands a hand. The queue is carried over rather than holding the update
// back: the worker keeps nothing of it, and a schema change is made in onupgradeneeded below, keeping what is stored.
import { byId, newId, now } from "./dom.js";

const DB_NAME = "scorepad-offline";
const QUEUE = "queue";  // hands waiting: {id, gameId, seq, key, baseVersion, position, hand, state, reason}
const GAMES = "games";  // the latest game document the phone has seen: {id, version, doc, seenAt}

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
export const allQueued = () => tx(QUEUE, "readonly", (store) => store.getAll()).then((items) => items.sort((a, b) => a.seq - b.seq));
export const queuedFor = (gameId) => allQueued().then((items) => items.filter((i) => i.gameId === gameId));
export const putItems = (items) => tx(QUEUE, "readwrite", (store) => { items.forEach((item) => store.put(item)); });
export const putItem = (item) => putItems([item]);
export const deleteItem = (id) => tx(QUEUE, "readwrite", (store) => { store.delete(id); });
export const getItem = (id) => tx(QUEUE, "readonly", (store) => store.get(id));
export const keptGame = (gameId) => tx(GAMES, "readonly", (store) => store.get(gameId));
export const allKeptGames = () => tx(GAMES, "readonly", (store) => store.getAll());
export const putGame = (kept) => tx(GAMES, "readwrite", (store) => { store.put(kept); });
export function keepGame(doc, version) {
  if (!doc?.id || typeof version !== "number") return Promise.resolve();
  return tx(GAMES, "readwrite", (store) => {
    const request = store.get(doc.id);
    request.onsuccess = () => {
      const kept = request.result;
      if (!kept || kept.version <= version) store.put({ id: doc.id, version, doc, seenAt: now() });
    };
  });
}
export const isConflict = (item) => item.state === "conflict";
export const notConflicts = (items) => items.filter((i) => !isConflict(i));
export const newItem = (gameId, baseVersion, position) => ({ id: newId(), gameId, seq: Date.now() + Math.random(),
  key: "offline-" + newId(), baseVersion, position, createdAt: now() });

// A game started on this phone lives under a local id ("local-…") until the server has it (newgame.js, sync.js).
export const LOCAL = "local-";
export const isLocal = (gameId) => String(gameId).startsWith(LOCAL);
export const localShellUrl = (id) => "/offline/game#" + encodeURIComponent(id);

// --- The game on this page -------------------------------------------------------------------
// The scoresheet and the hand form carry the game document as data (a JSON script tag, never run),
// with the version it is at and where it lives (data-show-url, data-hand-url, data-rules-url).
export function pageGame() {
  const tag = byId("game-document");
  if (!tag) return null;
  const data = tag.dataset;
  try {
    return { ...data, id: data.gameId, doc: JSON.parse(tag.textContent), version: parseInt(data.version, 10),
      position: data.position === undefined ? null : parseInt(data.position, 10), at: parseInt(data.at, 10) };
  } catch (e) { return null; }
}
// The newest document the phone has ({doc, version}): the page's own, or one a later answer from the server brought.
export const freshest = (game) => keptGame(game.id).catch(() => null)
  .then((kept) => (kept && kept.version > game.version ? kept : game));

// The game with the waiting hands after its stored ones (each hand's inputs only: the rules work out the rest).
export function withHands(doc, items) {
  const copy = JSON.parse(JSON.stringify(doc));
  copy.hands = (doc.hands || []).map((hand) => ({ sides: hand.sides.map(({ result, ...entry }) => entry) }))
    .concat(items.map((item) => item.hand));
  return copy;
}
export function playerOfSeat(doc, seat) {
  const sides = doc.sides;
  return sides[seat % sides.length].players[Math.floor(seat / sides.length)];
}
export const sideNames = (doc) => doc.sides.map((side) => side.name).join(" v ");
