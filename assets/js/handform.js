// The hand form and the hand it describes, both ways, read from the form's own markup (docs/architecture.md, "Hands
// entered offline"): no field is named here. A side's fields are named s<side>-<field>; each input says what it is:
//
//   its entry's key       its name after "s<side>-", or data-key (a path: "cards.melded.aces")
//   its kind              a checkbox is true when ticked; a row of named choices (data-choice radios) its value when one
//                         is chosen (data-kind="yes-no": true or false); a number is a whole number, entered when not
//                         0, or with data-sign one that takes its sign from the radios named <name>_sign, entered when
//                         given
//   its part (data-part)  "alone": when chosen, the side's only entry (a special hand); "instead": when given, the
//                         side's entries are set aside (a reported Base); "count", "grid": the Count as a number or by
//                         the counting grid, whichever the "mode" checkbox says; none: an entry
//   data-credit="cutter"  the whole hand's (the perfect cut), credited to the cutter's side
//   data-also             a problem's field that lands on this input too ("cards": the Count)
import { $, $$, byId, el } from "./dom.js";
import { gameOf, signed } from "./rules.js";
import { say } from "./words.js";

const SIDE = /^s(\d+)-/;
export const keyOf = (input) => input.dataset.key || input.name.replace(SIDE, "");
const partOf = (input) => input.dataset.part || "";
// A radio is read only when chosen and one of a row of named choices (data-choice: a special hand, a wild-card canasta).
const sideInputs = (form, s) => [...form.elements].filter((input) => input.name?.startsWith("s" + s + "-") &&
  (input.type !== "radio" || input.checked && input.dataset.choice));
const signOf = (form, input) => form.elements.namedItem(input.name + "_sign");
// Put `value` at `path` ("cards.melded.aces", "sides.0.players.1": a list) in `object`; get it back.
export function put(object, path, value) {
  const keys = path.split("."), last = keys.pop();
  keys.forEach((key, i) => { object = object[key] = object[key] || (/^\d/.test(keys[i + 1] ?? last) ? [] : {}); });
  if (last !== undefined && value !== undefined) object[last] = value;
}
const got = (object, path) => path.split(".").reduce((o, key) => o?.[key], object);

// A typed whole number (1,300 and 1.300 too; a minus sign as typed on a phone): {value} (null when blank) or {error}.
export function wholeNumber(text) {
  text = (text || "").trim().replace(/\u2212/g, "-");
  if (!text) return { value: null };
  if (/^-?\d{1,3}([.,\s]\d{3})+$/.test(text)) text = text.replace(/[.,\s]/g, "");
  if (!/^-?\d+$/.test(text)) return { error: say("like", { example: 3 }) };
  return { value: parseInt(text, 10) };
}

// The form's entries as the API's hand body ({hand, problems}): what the server reads from the same form.
export function readForm(form, doc, position) {
  const problems = [];
  const read = (input, s) => {  // an input's value, or undefined when nothing is entered
    if (input.type === "checkbox") return input.checked || undefined;
    if (input.type === "radio") return !input.value ? undefined : input.dataset.kind === "yes-no" ? input.value === "yes" : input.value;
    // A count's number box (spaces are nothing typed, as the server reads them), else the choice ticked in its row
    // (0-4) of the same name.
    const { value, error } = wholeNumber(input.value.trim() || $(`[name='${input.name}_pick']:checked`, form)?.value), at = { field: "sides." + s + "." + keyOf(input), id: input.id };
    const signed = input.dataset.sign;
    if (error) problems.push({ ...at, message: error });
    else if (!signed && value < 0) problems.push({ ...at, message: say("less", { min: 0 }) });
    else if (signed && value !== null) return signOf(form, input)?.value === "-" && value > 0 ? -value : value;
    else if (value) return value;
  };
  const sides = doc.sides.map((side, s) => {
    const inputs = sideInputs(form, s), entry = {}, part = (name) => inputs.filter((i) => partOf(i) === name);
    const alone = part("alone").find((input) => read(input, s) !== undefined);
    if (alone) return { [keyOf(alone)]: read(alone, s) };
    const putAll = (list) => list.forEach((input) => put(entry, keyOf(input), read(input, s)));
    putAll(part("instead"));
    if (!Object.keys(entry).length) putAll(part(""));
    const mode = part("mode")[0];
    if (mode?.checked) {
      putAll(part("grid"));  // {cards: {melded: {}, in_hand: {}}} at least, as the server reads it
    } else putAll(part("count"));
    return entry;
  });
  for (const input of $$("[data-credit=cutter]", form)) {
    if (input.checked) sides[gameOf(doc).cutterSide(position)][keyOf(input)] = true;
  }
  // The hand's note ("misdeal"), as the server reads it, held to the server's most (its box's maxlength, which stops
  // typing but not a note put back in the box), in its words (data-long; only the hand form has a note box).
  const box = form.elements.namedItem("note"), note = box?.value.trim(), length = [...note || ""].length;
  if (length > box?.maxLength) problems.push({ id: box.id, message: say(box.dataset.long, { length }) });
  return { hand: note ? { sides, note } : { sides }, problems };
}

// Set the form's fields (a RadioNodeList names several) to the value of `name`: `value` for text and
// select, ticked when `value` is theirs (or true) for checkboxes and radios.
export function setField(form, name, value) {
  const item = form.elements.namedItem(name);
  if (value === "" && item instanceof RadioNodeList) return;  // a count's empty box after its choice, or no choice
  for (const input of item instanceof RadioNodeList ? item : item ? [item] : []) {
    if (input.type === "checkbox" || input.type === "radio") input.checked = value === true || value === input.value;
    else input.value = value;
  }
}
// Put a stored hand back into the form: what the server fills the same form with.
export function fillForm(form, hand) {
  for (const input of form.elements) {
    if (!SIDE.test(input.name || "")) continue;
    if (input.type === "checkbox") input.checked = false;
    else if (input.type === "radio") input.checked = /^[+0]?$/.test(input.value);  // +, 0, None
    else if (input.type !== "hidden") input.value = "";
  }
  for (const input of $$("[data-credit=cutter]", form)) input.checked = hand.sides.some((e) => e[keyOf(input)]);
  setField(form, "note", hand.note || "");
  hand.sides.forEach((entry, s) => {
    for (const input of sideInputs(form, s)) {
      const value = got(entry, keyOf(input));
      if (value === undefined) continue;
      if (input.type === "checkbox") input.checked = partOf(input) === "mode" || value === true;
      else if (input.dataset.kind === "yes-no") setField(form, input.name, value ? "yes" : "no");
      else if (input.dataset.sign) {
        setField(form, input.name + "_sign", value < 0 ? "-" : "+");
        input.value = String(Math.abs(value));
      } else if ($(`[name='${input.name}_pick'][value='${value}']`, form)) {  // a usual count: its choice in the row
        setField(form, input.name + "_pick", String(value));
        input.value = "";
      } else setField(form, input.name, String(value));
    }
  });
}

// The input a problem's field names ("sides.1.red_threes", "sides.0.cards.melded.aces"), or the nearest one that
// takes its problems (data-also: "sides.0.cards" is the Count's); null for a problem with the whole hand.
export function inputFor(form, field) {
  const [head, s, ...path] = String(field || "").split(".");
  for (; head === "sides" && path.length; path.pop()) {
    const key = path.join(".");
    const found = [...form.elements].find((input) => input.name && input.type !== "radio" && partOf(input) !== "mode" &&
      (input.name.startsWith("s" + s + "-") || input.dataset.credit) && (keyOf(input) === key || input.dataset.also === key));
    if (found) return found;
  }
  return null;
}

// An input with a problem (or none): aria-invalid, and its side's "More" opened.
export function markField(input, slot, problem) {
  if (problem) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
  const more = slot.closest("details");  // a side's "More", the hand's note
  if (problem && more) more.open = true;
}
// The problems beside their fields, the rest at the top of the form, the first beside Save. quiet: while the
// scorekeeper types (the preview worked out on the phone), focus stays where it is.
export function showProblems(form, problems, quiet) {
  // A keystroke refused where it was typed stays said until that field takes one (inputs.js).
  $$(".field-error[id$='-error']", form).forEach((slot) => { slot.textContent = byId(slot.id.slice(0, -6))?.dataset.refused || ""; });
  $$("[aria-invalid]:not([data-refused])", form).forEach((input) => input.removeAttribute("aria-invalid"));
  const leftovers = [];
  for (const problem of problems) {
    const fields = problem.involves?.length ? problem.involves : [problem.field];
    let placed = false;
    for (const field of fields) {
      const id = problem.id && fields.length === 1 ? problem.id : inputFor(form, field)?.id;
      const slot = id && byId(id + "-error"), input = id && byId(id);
      if (!slot || !input) continue;
      // A field holding what is not a number says only that (inputs.js), until it is put right.
      if (!input.dataset.refused && !slot.textContent.includes(problem.message)) {
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
    const first = problems[0];  // said as its field says it (inputs.js: what can't be part of a number)
    preview.replaceChildren(el("p", { class: "preview-problem" }, (byId(first.id || "")?.dataset.refused || first.message) +
      (problems.length > 1 ? " " + say("more", { number: problems.length - 1 }) : "")));
  }
  if (!quiet) $("[aria-invalid='true']", form)?.focus();
}

// What is set under each side's "More", in words beside it, as the server says it: nothing set is out of sight. Each
// entry by its label (without its hint), a number with its sign by its figure (the rows of named choices are never
// under "More").
export function summarize(form) {
  for (const more of $$("details.more", form)) {
    const said = [];
    for (const input of $$("input:not([type=radio])", more)) {
      const label = $(`label[for='${input.id}']`, more)?.cloneNode(true), value = input.value.trim();
      label?.querySelectorAll("small").forEach((hint) => hint.remove());
      const name = label?.textContent.trim();
      if (input.type === "checkbox") {
        if (input.checked) said.push(name);
      } else if (input.dataset.sign) {
        const number = wholeNumber(value).value;
        if (number != null) said.push(name + ": " + signed(signOf(form, input)?.value === "-" ? -number : number));
      } else if (value && value !== "0") {
        said.push(name + ": " + value);
      }
    }
    $(".more-summary", more).textContent = said.join(" \u00b7 ");
  }
}
