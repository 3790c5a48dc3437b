// Quicker input on a phone, on every form: steppers, digits only, and nothing hidden under the hand form's bar.
import { $, byId, inside, on } from "./dom.js";
import { say } from "./words.js";

// Steppers: the - and + buttons beside a number (a count: 0 or more) change it by one, up to its
// data-max, and fire "input" so the live preview follows. A step never goes the other way: + on a
// number typed past the most (5 red 3s of four) leaves it as typed, for its message to be read.
on("click", (event) => {
  const button = inside(event, "button.step");
  const input = button && byId(button.dataset.for);
  if (!input) return;
  const now = parseInt(input.value, 10) || 0, step = +button.dataset.step;
  input.value = Math[step > 0 ? "max" : "min"](now, Math.min(+input.dataset.max || Infinity, Math.max(0, now + step)));
  input.dispatchEvent(new Event("input", { bubbles: true }));
  keepAboveTheBar(button);
});

// Number fields take digits (a Count may also start with a minus sign; 1,300 and 1.300 are read as typed). Anything
// else typed or pasted stays in the box as it came, and is said in that field's own message slot until it is put
// right: a letter dropped as it was typed turned "1O5" into 15, silently. Save is refused for it, on the phone's check
// and the server's alike.
// A choice tapped in a count's row (0-4) empties the number box beside it, which would otherwise be the one meant.
// A number with a sign (the Count) and its − / + say the same figure: a minus typed in the box turns the sign to −,
// rubbed out to + again; a tap on + takes a typed minus away, so the signs flip it both ways (the box keeps the rest).
const MINUS = /^\s*[-\u2212]/;
on("input", ({ target: input }) => {
  const data = input.dataset, form = input.form;
  if (!data) return;
  if (data.box) byId(data.box).value = "";
  const box = input.name?.endsWith("_sign") && form.elements.namedItem(input.name.slice(0, -5));
  if (box && input.value === "+") {
    box.value = box.value.replace(MINUS, "");
    delete box.dataset.minus;
  }
  if (!input.classList?.contains("digits")) return;
  const sign = data.sign, typed = MINUS.test(input.value), rest = sign ? input.value.replace(MINUS, "") : input.value;
  if (sign) {
    if (typed || data.minus) form.elements.namedItem(input.name + "_sign").value = typed ? "-" : "+";
    data.minus = typed || "";
  }
  const stray = [...new Set(rest.replace(/[0-9.,\s]/g, ""))].join("");
  const slot = byId(input.id + "-error");
  if (!stray) {
    if (slot && input.dataset.refused && slot.textContent === input.dataset.refused) slot.textContent = "";
    delete input.dataset.refused;
    return;
  }
  // Kept while the field holds it, across live previews (handform.js, handpage.js).
  input.dataset.refused = say("digits", { typed: stray }) + (sign ? " " + say("minus") : "");
  if (slot) slot.textContent = input.dataset.refused;
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
