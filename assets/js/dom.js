// The small helpers every module of Scorepad's script shares (main.js lists the modules).

export const byId = (id) => document.getElementById(id);
export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => root.querySelectorAll(selector);
export const on = (type, handler, capture) => document.addEventListener(type, handler, capture);
// The element matching `selector` that the event happened in, if any.
export const inside = (event, selector) => event.target.closest?.(selector);
export const isHandForm = (elt) => elt?.matches?.("form.hand-form");
// el("p", { class: "note" }, "text", child, [more children]): an element; null, false and "" children are left out.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.flat().filter((child) => child || child === 0));
  return node;
}
export const page = document.documentElement;
// A copy of the markup the server drew for the script in <template id="…">: the whole of it, or its first element.
// Made in this document (not the template's, which has no address), so that a link's .hash can be set on it.
export const copyOf = (id) => document.importNode(byId(id).content, true);
export const copyOne = (id) => copyOf(id).firstElementChild;
export const now = () => new Date().toISOString();
export const newId = () => crypto.randomUUID?.() ||  // only where the page came over https
  Date.now().toString(36) + "-" + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);

// When the figures on screen were made, for "No connection: figures as of 20:14" (status.js). The service worker is
// the one that knows a page is its copy: it marks a page it answered with the copy kept on the phone, whether there
// was no connection or no answer in time (data-served="copy", see sw.js). navigator.onLine cannot be trusted for
// this: a phone on dead Wi-Fi still believes it is online. The time is the server's, from when it made the page.
export const servedCopy = () => page.dataset.served === "copy";

// The service worker keeps a page for offline (sw.js): `ifAbsent`, only if it has no copy yet. Asked once a worker is
// active rather than once it controls the page, so on the very first visit too.
export const keep = (url, ifAbsent) => navigator.serviceWorker?.ready.then((registration) =>
  registration.active.postMessage({ keep: url, ifAbsent }));
