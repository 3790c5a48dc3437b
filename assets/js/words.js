// What the script says, in the page's language (docs/i18n.md): the server's words, sent as data, never written here.
// /messages.<lang>.json (web.phone_words, named by the script tag's data-words, kept by the service worker): each
// message by a short key, a template with {name}s as the rules' Message keeps them ("{label}: can't be negative."),
// a count's words as [one, many]; the labels of the entries (f), cards (c), wild-card canastas (w), presets (r) and
// special hands (s); g the digits' group separator, p where 0 takes the singular; k the rules' catalogue (rules.js).
export const words = { g: ",", m: {}, f: {}, c: {}, w: {}, r: {}, s: {}, k: null };
export const useWords = (data) => Object.assign(words, data);
const url = document.currentScript?.dataset.words;
export const wordsReady = (url ? fetch(url).then((answer) => answer.json()).then(useWords) : Promise.resolve()).catch(() => {});

// A whole number as the page's language writes it (web.number): 1,685 and −2,060; 1.685 in Spanish.
export const num = (n) => (n < 0 ? "\u2212" : "") + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, words.g);
// The message `key` with its values put in, as web.translated does: in English a number as str.format writes it
// ({total:,} grouped), in another language every number as the language writes it.
export const say = (key, values = {}) => (words.m[key] ?? key).replace(/\{(\w+)(:,)?\}/g, (all, name, comma) => {
  const value = values[name];
  if (typeof value !== "number") return value ?? all;
  return words.g !== "," ? num(value) : !comma ? String(value) : value < 0 ? "-" + num(-value) : num(value);
});
// A count's words (key: [one, many]) for n, with {count} and the other values put in.
export const told = (key, n, values) => {
  const forms = words.m[key] || [key, key];
  return say(forms[words.p ? +(n > 1) : +(n !== 1)], { count: n, ...values });
};
