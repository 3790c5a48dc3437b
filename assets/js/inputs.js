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

// Number fields take digits only (a Count may also start with a minus sign). Anything else is
// refused where it was typed, and said in that field's own message slot; the server refuses it
// too, for a phone without this script.
// A choice tapped in a count's row (0-4) empties the number box beside it, which would otherwise be the one meant.
on("input", ({ target }) => {
  if (target.dataset) delete target.dataset.refused;
  if (target.dataset?.box) byId(target.dataset.box).value = "";
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
  slot.textContent = input.dataset.refused = say("digits", { typed: event.data }) + (sign ? " " + say("minus") : "");
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
