// The one connection indicator (#sync-status, base.html; docs/architecture.md, "Hands entered offline").
//
// It says one thing at a time, in its words the server's (its data-*: "#" the number, "|" before the plural):
// sending (hands going, the server answering), no connection (the last request failed), a slow connection (the last
// request got no answer in time: still waiting, the hands kept on the phone), hands needing the scorekeeper, hands
// waiting on the phone (the connection not known to be down), or online. Only what requests did moves it, never
// navigator.onLine: a phone on dead Wi-Fi believes it is online.
// `answered` is true, false (failed), "slow", or null while not known: a copy the phone opened at once because Save
// gave up waiting ("#kept").
import { byId, on, page, servedCopy } from "./dom.js";

export const KEPT = "#kept";
export const net = { answered: servedCopy() ? (location.hash === KEPT ? null : false) : true, sending: 0, waiting: 0, conflicts: 0 };
if (location.hash === KEPT) history.replaceState(history.state, "", location.pathname);

let figuresAsOf = new Date(page.dataset.renderedAt);  // Invalid Date on a page without figures
function clockTime(date) {  // HH:MM on the phone's clock, and the day too when it is not today
  const time = date.toTimeString().slice(0, 5), now = new Date();  // "20:14:05 GMT+0100 (…)"
  if (date.toDateString() === now.toDateString()) return time;
  const day = { day: "numeric", month: "short" };
  if (date.getFullYear() !== now.getFullYear()) day.year = "numeric";
  return date.toLocaleDateString(page.lang || undefined, day) + ", " + time;
}

const told = (words, n) => words.split("|")[+(n !== 1)].replace("#", n);
export function say() {
  const status = byId("sync-status");
  if (!status) return;
  const words = status.dataset, { answered, sending, waiting, conflicts } = net;
  const [kind, text] = sending && answered === true ? ["sending", told(words.sending, sending)]
    : answered === false ? ["offline", waiting ? told(words.offlineWaiting, waiting)
      : isNaN(figuresAsOf) ? words.offline : words.asOf + clockTime(figuresAsOf)]
    : answered === "slow" ? [answered, waiting ? told(words.slowWaiting, waiting) : words.slow]
    : conflicts ? ["conflict", told(words.conflict, conflicts)]
    : waiting ? ["waiting", told(words.waiting, waiting)]
    : ["online", words.online];
  status.dataset.state = kind;
  status.textContent = text || "";
  status.hidden = !text;
}
export const heard = (answered) => {
  net.answered = answered;
  say();
};
// Any answer from the server (a 500 too) says the connection works; none (an abort of ours included) says nothing.
on("htmx:afterRequest", (event) => {
  if (!event.detail.xhr?.status) return;
  if (event.detail.successful) figuresAsOf = new Date();
  heard(true);
});
// No answer in time is a slow connection; only a request that failed says there is none.
on("htmx:sendError", () => heard(false));
on("htmx:timeout", () => heard("slow"));
