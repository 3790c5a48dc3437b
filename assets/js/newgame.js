// The new-game page (games/new.html): the first-dealer list names the players as they are typed; and Start with no
// answer from the server starts the game on this phone (docs/architecture.md, "Games started offline").
import { $, $$, byId, inside, newId, now, on } from "./dom.js";
import { LOCAL, localShellUrl, putGame } from "./store.js";
import { put, wholeNumber } from "./handform.js";
import { say, wordsReady } from "./words.js";
import { WAIT_MS, post, registerBackgroundSync } from "./sync.js";

// New game: the first-dealer list names the players as they are typed, without a trip to the
// server that could replace the list under the scorekeeper's finger; and again when a new table size
// brings a new list, which the server drew from the names typed when it was asked (maybe none yet).
const nameSeats = (event) => {
  const form = inside(event, "form.new-game");
  if (!form || (event.type == "input" && !/^(side\d_name|player\d_\d)$/.test(event.target.name))) return;
  const typed = (name) => (form.elements[name].value || "").trim();
  const labels = [...$$("select.seat-names option", form)].map((option) => {
    const { side, player } = option.dataset;
    return (option.textContent = (typed(`player${side}_${player}`) || say("seat", { player: +player + 1, side: +side + 1 })) +
      " (" + (typed(`side${side}_name`) || say("side", { number: +side + 1 })) + ")");
  });
  const order = byId("seat-order");
  if (order) order.textContent = labels.join(", ");
};
on("input", nameSeats);
on("htmx:afterSettle", nameSeats);
// A total brought forward from paper is typed as it stands there: a minus sign (a side behind: −1,500) and thousands
// separators (3,000), which the field's pattern allows and the server reads. The digits-only filter of the other
// number fields (inputs.js) would refuse them as typed, so it is not asked for these.
on("beforeinput", (event) => {
  if (/^brought_forward\d$/.test(event.target.name || "")) event.stopImmediatePropagation();
}, true);
const newGameForm = $("form.new-game");  // names typed before this script ran (a slow phone) count too, in its words
if (newGameForm) wordsReady.then(() => nameSeats({ target: newGameForm }));

// --- Games started with no connection (docs/architecture.md, "Games started offline") --------------
// Start on the new-game page that gets no answer (the request fails, or nothing within 4 s) keeps the
// game on the phone: the form's fields as entered, for the server to read with its own new-game form
// when the connection returns (POST /sync/games, once: an Idempotency-Key drawn here), and a game
// document for the provisional figures, from the rules the page was rendered with (#new-game-rules).
// The game lives in store GAMES under a local id ("local-…"), its hands in the queue like any other
// game's; its scoresheet is /offline/game#<local id>, a page kept on the phone that this script fills.
// The game document the form describes, read from its markup: each field that the document takes names its place in
// it (data-doc: "sides.0.players.1", "first_dealer", "rules.target"), and only the fields shown count (the table
// chosen shows its sides and players). A name left blank is said in the field's data-missing; a number (data-least,
// its least) that is not one in its data-wrong. The rules are the page's (#new-game-rules), or the chosen preset's
// when it was chosen offline (the page could not fetch its values: the server fills them from the preset too, see
// startOffline); only then are the rules' fields on the page left out.
function newGameDocument(form, data) {
  const problems = [], preset = new FormData(form).get("preset") || data.rules_from;
  const samePreset = preset === data.rules_from && data.rules;
  const doc = { format: "scorepad-game", version: 1,
    rules: JSON.parse(JSON.stringify(samePreset ? data.rules : data.presets[preset] || data.presets.modern)),
    sides: [], first_dealer: 0, hands: [] };
  for (const input of $$("[data-doc]", form)) {
    const { doc: path, missing, least, wrong } = input.dataset;
    if (!input.getClientRects().length || (!samePreset && path.startsWith("rules."))) continue;
    let value = input.value.trim();
    if (least !== undefined) {
      const number = wholeNumber(value), wrongly = number.error || (number.value !== null && number.value < +least);
      if (wrongly && wrong) problems.push(wrong);
      if (wrongly || number.value === null) continue;
      value = number.value;
    } else if (!value && missing) problems.push(missing);
    put(doc, path, value);
  }
  const seats = doc.sides.reduce((n, side) => n + side.players.length, 0);
  if (!(doc.first_dealer < seats)) doc.first_dealer = 0;
  broughtForward(form, doc, problems);
  return { problems, doc };
}
// Each side's total brought forward from paper ("Moving a game from paper", folded away: fields brought_forward<side>,
// a blank counting 0, a minus sign as a phone types it), checked in the server's words (scorepad/rules/checks.py).
function broughtForward(form, doc, problems) {
  const totals = doc.sides.map((side, s) => {
    const { value, error } = wholeNumber(form.elements.namedItem("brought_forward" + s)?.value);
    const name = side.name || say("side", { number: s + 1 }), off = ((value % 5) + 5) % 5;
    if (error) problems.push(say("bfNum", { name }));
    else if (off) problems.push(say("bf5", { name, total: value, like: value - off }));
    else if (value >= doc.rules.target) problems.push(say("bfOver", { name, total: value, target: doc.rules.target }));
    return value || 0;
  });
  if (totals.some(Boolean)) doc.brought_forward = totals;
}
async function startOffline(form, data, key) {
  const fields = new URLSearchParams(new FormData(form));  // as the browser would post them
  const made = newGameDocument(form, data);
  if (made.problems.length) {
    const slot = byId("new-game-offline-error");  // its words: games/new.html ("#": the problems)
    if (slot) slot.textContent = slot.dataset.words.replace("#", made.problems.join(" "));
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
