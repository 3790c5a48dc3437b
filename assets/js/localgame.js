// The scoresheet of a game started on this phone (/offline/game#<local id>, templates/offline_game.html), filled from
// IndexedDB with figures from scoreGame until the game reaches the server; and the home page's list of such games
// (docs/architecture.md, "Games started offline").
import { $, $$, byId, copyOf, el, inside, now, on } from "./dom.js";
import { say, told } from "./words.js";
import { gameOf, has, points, scoreGame, signed } from "./rules.js";
import {
  allKeptGames, allQueued, getItem, keptGame, localShellUrl, newItem, playerOfSeat, putItem, queuedFor, sideNames,
  withHands,
} from "./store.js";
import { fillForm, keyOf, showProblems, summarize } from "./handform.js";
import { checkedHand } from "./handpage.js";
import { showWaiting, standings } from "./sheet.js";
import { registerBackgroundSync, syncAll } from "./sync.js";

let localEditing = null;  // the waiting hand open in the form, if any
const localGameId = () => {
  const match = /^#(local-.+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
};
// What an entry is worth in this game, as the hand form says it beside its label ("(+2,500)", "(−1,500 each)"): its
// data-worth names the value ("-" before it: taken off), a number's is for each.
function hintOf(doc, input) {
  const [, minus, key] = /^(-?)(.*)$/.exec(input.dataset.worth || "");
  const value = (minus ? -1 : 1) * (doc.rules.values[key] || 0);
  return value ? say(input.type === "text" ? "each" : "worth", { sign: value > 0 ? "+" : "\u2212", worth: Math.abs(value) }) : "";
}
// The hand form's side panels, drawn by the server for up to three sides with every entry a game can have
// (templates/offline_game.html, <template id="offline-hand-fields">): this game's sides, named, and only the
// entries its rules give a value (rules.js has, as HandForm.shown), each with what it is worth, and of the chips of
// every special hand and wild-card canasta, the game's own, each with its value.
function handFields(doc) {
  const fields = copyOf("offline-hand-fields"), rules = doc.rules, game = gameOf(doc);
  $$(".side-panel", fields).forEach((panel, s) => {
    const side = doc.sides[s];
    if (!side) return panel.remove();
    $$(".side-name", panel).forEach((slot) => { slot.textContent = side.name; });
    $(".sign", panel).setAttribute("aria-label", side.name + say("pm"));
  });
  for (const chip of $$("[data-choice]:not([value=''],[data-kind])", fields)) {
    const worth = chip.dataset.part ? rules.special_hands[chip.value] : rules.values["wild_canasta_" + chip.value];
    if (worth > 0) chip.nextElementSibling.append(" (" + points(worth) + ")");
    else chip.parentNode.remove();
  }
  for (const input of $$("[name]", fields)) {  // each field's name is its id: "s0-dirty_sevens", "perfect_cut"
    const hint = $(`[for='${input.name}'] small`, fields);
    if (!has(game, keyOf(input))) input.closest(".field")?.remove();
    else if (hint) hint.textContent = hintOf(doc, input);
  }
  $$("details.more", fields).forEach((more) => $(".field", more) || more.remove());
  return fields;
}
for (const type of ["input", "change"]) {
  on(type, (event) => {
    const form = inside(event, "form.offline-hand-form");
    if (form) summarize(form);
  });
}
export async function showLocalGame() {
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
    cut.textContent = say("cutAt", { points: points(doc.rules.values.perfect_cut),
      cutter: playerOfSeat(doc, gameOf(doc).cutter(number - 1)) });
  }
  summarize(form);
  form.hidden = finished && !editing;
  $(".offline-hand-heading", form).textContent = say(editing ? "edit" : "hand", { number });
  $(".save-offline-hand", form).textContent = say(editing ? "saveC" : "save", { number });
  $(".cancel-edit", form).hidden = !editing;
}
// The home page lists them: a game started here can be found again before it reaches the server.
export async function listLocalGames() {
  const section = byId("started-offline");
  if (!section) return;
  const [kept, queued] = await Promise.all([allKeptGames(), allQueued()]);
  const games = kept.filter((g) => g.local && !g.local.created);
  $("ul", section).replaceChildren(...games.map((game) => el("li", {},
    el("a", { href: localShellUrl(game.id) }, sideNames(game.doc)),
    " · " + told("unsent", queued.filter((i) => i.gameId === game.id).length))));
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

