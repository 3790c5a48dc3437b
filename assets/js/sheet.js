// The scoresheet with hands waiting on the phone: each in its place with provisional figures from scoreGame
// (rules.js), marked "not yet synced", to edit or delete; and the hands the server could not place, to re-apply, fix
// or discard (docs/architecture.md, "Hands entered offline"). The markup is the server's (<template>s), filled here.
import { $, $$, byId, copyOne, el, inside, on } from "./dom.js";
import { scoreGame, signed } from "./rules.js";
import { say, told } from "./words.js";
import { deleteItem, getItem, isConflict, notConflicts, pageGame, playerOfSeat, putItems, queuedFor, withHands } from "./store.js";
import { rebase, refresh, syncNow } from "./sync.js";

// Each figure's cell under `root` (class base, count, hand-total or cumulative), from sides[its data-side].
export function fillFigures(root, sides) {
  for (const key of ["base", "count", "total", "cumulative"]) {
    $$("." + (key === "total" ? "hand-total" : key), root).forEach((cell) => {
      cell.textContent = signed(sides[cell.closest("[data-side]").dataset.side][key]);
    });
  }
}
// A row (two sides) or a group of rows (three) is put in its table.
const addRow = (table, row) => (row.tagName === "TBODY" ? table : $("tbody", table)).append(row);

export function showOnScoresheet(game, items) {
  $$(".waiting-hand, .not-saved, .provisional-note").forEach((node) => node.remove());
  $$(".provisional").forEach((node) => node.classList.remove("provisional"));
  const waiting = notConflicts(items), conflicts = items.filter(isConflict);
  if (conflicts.length) showConflicts(game, conflicts);
  const sheet = byId("scoresheet"), doc = withHands(game.doc, waiting), score = scoreGame(doc);
  // The next hand's form at the foot of the sheet (games/show.html): its number counts those waiting; none after a finish.
  $$("a.own-page").forEach((own) => { own.textContent = own.textContent.replace(/\d+/, doc.hands.length + 1); });
  const next = byId("next-hand");
  if (next) next.hidden = score.status === "finished";
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
export function showWaiting(sheet, doc, score, items) {
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
const nextDeal = (doc, score) => [say("handOf", { number: doc.hands.length + 1 }) + " ",
  el("strong", {}, playerOfSeat(doc, score.next_dealer)), ` ${say("deals")} \u00b7 ` +
  say("to", { target: signed(doc.rules.target) })];

export function standings(sheet, doc, score, waitingCount) {
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
  if (waitingCount) note.prepend(told("withN", waitingCount));
  section.append(note);
}

// The card for hands the server could not place (<template id="not-saved">, games/show.html): each with its
// reason and, where this phone keeps score, Re-apply, Fix it and Discard.
function showConflicts(game, conflicts) {
  const sheet = byId("scoresheet"), card = copyOne("not-saved"), one = $(".conflict", card);
  $("h2", card).append(told("needs", conflicts.length));
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
    const name = doc.sides[s] ? doc.sides[s].name : say("side", { number: s + 1 });
    if (entry.special_hand) return say("specOf", { name });
    const parts = ["natural", "mixed", "red"].flatMap((key, i) => {
      const n = entry[["natural_canastas", "mixed_canastas", "red_threes"][i]];
      return n ? [told(key, n)] : [];
    });
    if (entry.went_out) parts.push(say("out"));
    if (entry.count !== undefined) parts.push(say("countOf", { count: signed(entry.count) }));
    else if (entry.cards) parts.push(say("grid"));
    if (entry.reported_base !== undefined) parts.push(say("baseOf", { base: signed(entry.reported_base) }));
    return name + ": " + (parts.join(", ") || say("nothing"));
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
