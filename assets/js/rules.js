// scorepad/rules.py in the browser, for hands entered offline (docs/architecture.md): every value from the
// game's own rules; held to the Python answers by tests/vectors/rules.json (scripts/rule_vectors.py).
// An ES module of static/js/scorepad.min.js (scripts/build_js.mjs): the other modules import what the export list at
// the end names, and window.ScorepadRules gives the figures and checks to the tests.
// The rules as data (rules.phone_json in scorepad/rules/catalogue.py, sent with the page's words: words.js, k), so
// that nothing here restates them: each priced entry [entry, value, sign, value it is charged instead of or null],
// scored by one step (rules.priced), and the value behind each entry a game has only where that value is above 0
// (rules.Rules.has); the side entries [name, kind] in rules.SIDE_FIELDS's order (kind: i number, f number or null,
// b boolean, m boolean or null, s name, c grid); the counting grid [kind, points, cards per deck]; the kinds of
// wild-card canasta and the special hands. Their words (labels, names) and every message are the page's language's:
// a message is a key of web.PHONE_MESSAGES with its values, the same templates as the Python rules'.
import { num, say, told, useWords, words } from "./words.js";
let FIELDS, CARDS, WILD_KINDS, SPECIAL_HANDS, NAMES, KIND, PRICED, VALUE_OF;
function readCatalogue() {  // on the way into every figure and check (gameOf), once the data is in
  ({ fields: FIELDS, cards: CARDS, wild: WILD_KINDS, special_hands: SPECIAL_HANDS, priced: PRICED, gates: VALUE_OF } =
    words.k);
  NAMES = FIELDS.map((f) => f[0]);
  KIND = Object.fromEntries(FIELDS);
}
const LABEL = (name) => words.f[name];
// rules.most_of: the most of an entry one side can have in a hand (a switch: 1).
const mostOf = (game, name, players) => ({ dirty_sevens: players, dirty_aces: players, threes_in_hand: 2 * game.threes,
  red_threes_in_hand: game.threes, failed_go_out_asks: 50, failed_pile_takes: 50 })[name] ?? 1;
// One priced entry's points per unit: its value, less the value it is charged instead of.
const unitOf = (v, p) => v[p[1]] - (p[3] ? v[p[3]] : 0);
const MOST_HANDS = 200;  // document.MOST_HANDS

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const sum = (list, f) => list.reduce((total, x, i) => total + f(x, i), 0);
const points = num, signed = num;  // figures as the page's language writes them
const set = (v) => v !== 0 && v !== false && v !== null;  // not (0, False, None)
// Python's repr() of a key.
const quoted = (text) => {
  text = text.replace(/\\/g, "\\\\");
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/'/g, "\\'")}'`;
};
const specialHandName = (key) => {
  if (SPECIAL_HANDS.includes(key)) return words.s[key];
  const name = String(key).replace(/_/g, " ");
  return name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();
};

const defaultOf = (name) => ({ i: 0, b: false })[KIND[name]] ?? null;
const grid = (counts) => Object.fromEntries(CARDS.map((c) => [c[0], (counts && counts[c[0]]) || 0]));
// rules.SideEntry: every field, a missing one at its default.
const entryOf = (data) => {
  const entry = Object.fromEntries(NAMES.map((name) => [name, data[name] ?? defaultOf(name)]));
  if (entry.cards) entry.cards = { melded: grid(entry.cards.melded), in_hand: grid(entry.cards.in_hand) };
  return entry;
};
const entered = (entry) => NAMES.filter((name) => entry[name] !== defaultOf(name));
// rules.counted: a side that laid down a special hand scores that hand alone.
const counted = (e) => (e.special_hand === null ? e : entryOf({ special_hand: e.special_hand }));
const canastas = (e) => e.natural_canastas + e.mixed_canastas + e.sevens_canasta + e.aces_canasta +
  (e.wild_canasta !== null);

function gameOf(doc) {
  readCatalogue();
  const rules = doc.rules, sides = doc.sides, decks = sides.length === 3 ? 3 : 2;
  const seats = sum(sides, (s) => s.players.length);
  const dealer = (n) => ((doc.first_dealer || 0) + n) % seats;
  return {
    rules, sides, decks, dealer, modern: rules.preset !== "classic", ofRank: 4 * decks, threes: 2 * decks,
    start: doc.brought_forward || sides.map(() => 0), // each side's total before hand 1 (brought forward from paper)
    wildCards: 6 * decks, hands: (doc.hands || []).map((hand) => hand.sides.map(entryOf)),
    cutter: (n) => (dealer(n) + seats - 1) % seats, cutterSide: (n) => ((dealer(n) + seats - 1) % seats) % sides.length,
    limit: (kind) => decks * CARDS.find((c) => c[0] === kind)[2]
  };
}
// rules.Rules.has
function has(game, name) {
  const values = game.rules.values;
  if (name === "black_threes") return game.modern;
  if (name === "has_melded") return !game.modern;
  if (name === "wild_canasta") return WILD_KINDS.some((kind) => values["wild_canasta_" + kind] > 0);
  if (name === "perfect_cut") return game.rules.perfect_cut && values.perfect_cut > 0;
  if (name === "special_hand") return Object.keys(game.rules.special_hands).length > 0;
  return own(VALUE_OF, name) ? values[VALUE_OF[name]] > 0 : true;
}
const wildValue = (game, kind) => (WILD_KINDS.includes(kind) ? game.rules.values["wild_canasta_" + kind] : 0);

const cardPoints = (counts) => sum(CARDS, (c) => counts[c[0]] * c[1]);
function sideCount(game, e) {
  if (e.special_hand !== null) return 0;
  if (e.cards === null) return e.count || 0;
  const melded = cardPoints(e.cards.melded), inHand = cardPoints(e.cards.in_hand);
  return game.rules.count_without_canasta === "negative" && !canastas(e) && e.reported_base === null
    ? -(melded + inHand) : melded - inHand;
}
function classicRedThrees(game, n) {
  const red = game.rules.red_threes;
  if (game.decks === 2 && n === 4) return red.all_four;
  if (game.decks === 3 && (n === 5 || n === 6)) return n === 5 ? red.five : red.six;
  return red.each * n;
}
function threesValue(game, e) {
  const rules = game.rules, made = canastas(e);
  if (!game.modern) {
    const value = classicRedThrees(game, e.red_threes);
    return (e.has_melded ?? (made > 0 || sideCount(game, e) > 0)) ? value : -value;
  }
  const value = rules.all_eight_threes !== null && e.red_threes === 4 && e.black_threes === 4
    ? rules.all_eight_threes : rules.threes[e.red_threes] + rules.threes[e.black_threes];
  return made === 0 ? -value : made === 1 ? 0 : value;
}
function sideBase(game, e) {
  const rules = game.rules, v = rules.values, special = e.special_hand;
  if (special !== null) return own(rules.special_hands, special) ? rules.special_hands[special] : 0;
  if (e.reported_base !== null) return e.reported_base;
  return threesValue(game, e) + sum(PRICED, (p) => p[2] * unitOf(v, p) * e[p[0]]) +  // rules.priced
    (e.wild_canasta ? wildValue(game, e.wild_canasta) : 0) +
    (e.went_out ? (e.concealed ? v.going_out_concealed : v.going_out) : 0) +
    (e.perfect_cut && rules.perfect_cut ? v.perfect_cut : 0);
}
/** rules.minimum_count: in hand `hand` (0-based), by the list of Minimum Counts by hand where the game has one */
function minimumCount(rules, cumulative, hand) {
  const byHand = rules.minimum_counts_by_hand;
  if (byHand && byHand.length) return byHand[Math.min(hand, byHand.length - 1)];
  let requirement = rules.minimum_counts[0].minimum;
  for (const band of rules.minimum_counts.slice(1)) {
    if (band.from !== null && cumulative >= band.from) requirement = band.minimum;
  }
  return requirement;
}
function scoreHand(game, hand, n, before) {
  const special = hand.findIndex((e) => e.special_hand !== null);
  return {
    dealer: game.dealer(n),
    sides: hand.map((e, i) => {
      const wiped = game.rules.wipeout && special >= 0 && special !== i;
      const base = wiped ? 0 : sideBase(game, e), count = wiped ? 0 : sideCount(game, e);
      const cumulative = before[i] + base + count;
      const min_count_next = minimumCount(game.rules, cumulative, n + 1);
      return { base, count, total: base + count, cumulative, min_count_next };
    })
  };
}
// rules.game_over: after `played` hands (the last of a fixed number ends the game; tied leaders then share).
function winnersAfter(rules, totals, last, played) {
  const leader = Math.max(...totals), end = rules.hands_per_game != null && played >= rules.hands_per_game;
  if (leader < rules.target && !end) return [];
  const leaders = [...totals.keys()].filter((i) => totals[i] === leader);
  if (leaders.length === 1 || rules.tie === "shared") return leaders;
  const out = rules.tie === "went_out" ? leaders.filter((i) => last[i].went_out && last[i].special_hand === null) : [];
  return out.length || !end ? out : leaders;
}
// rules.score_game(check=False): [the figures, the hand that ended the game].
function play(game, hands) {
  let totals = game.start, winners = [], ended = null;
  const scored = hands.map((hand, n) => {
    const score = scoreHand(game, hand, n, totals);
    totals = score.sides.map((s) => s.cumulative);
    winners = winnersAfter(game.rules, totals, hand, n + 1);
    if (winners.length && ended === null) ended = n;
    return score;
  });
  return [{
    hands: scored, totals, min_count: totals.map((t) => minimumCount(game.rules, t, hands.length)),
    next_dealer: game.dealer(hands.length), status: winners.length ? "finished" : "in_progress",
    winner: winners.length === 1 ? winners[0] : null, winners
  }, ended];
}

/** The figures of a game document (as GET /api/games/<id> gives it; its outputs are ignored). */
const scoreGame = (doc) => { const game = gameOf(doc); return play(game, game.hands)[0]; };

// The checks of docs/rules.md section 5, in rules.py's order. A side check gives [path under the side,
// message] for s = {game, i (side), e (entry), n (hand)}; a hand check [message, fields involved]. A message is
// said in the page's language (words.js) from the key of its template and its values.
const SIDE_CHECKS = [
  (s) => entered(s.e).filter((name) => name !== "perfect_cut" && !has(s.game, name)).map((name) =>  // §5.10
    [name, say("notIn", { label: LABEL(name), preset: words.r[s.game.rules.preset] || s.game.rules.preset })]),
  (s) => {  // §5.1
    const out = [], most = s.game.threes, players = s.game.sides[s.i].players.length;
    for (const [name, kind] of FIELDS) {
      const value = s.e[name], label = LABEL(name);
      if (name === "red_threes" || name === "black_threes") {
        if (value < 0 || value > most) out.push([name, say("range", { label, most })]);
      } else if (kind === "i" && value < 0) out.push([name, say("neg", { label })]);
    }
    for (const name of ["dirty_sevens", "dirty_aces"]) {
      if (s.e[name] > players) out.push([name, say(players > 1 ? "players" : "player", { label: LABEL(name), players })]);
    }
    for (const name of ["failed_go_out_asks", "failed_pile_takes"]) {
      if (s.e[name] > 50) out.push([name, say("fifty", { label: LABEL(name) })]);
    }
    if (s.e.red_threes_in_hand > most) out.push(["red_threes_in_hand", say("redIn", { held: most })]);
    return out;
  },
  (s) => {  // §5.10
    const kind = s.e.wild_canasta;
    if (kind !== null && !WILD_KINDS.includes(kind)) return [["wild_canasta", say("wildK")]];
    return kind !== null && has(s.game, "wild_canasta") && !wildValue(s.game, kind)
      ? [["wild_canasta", say("wildX", { kind: words.w[kind] })]] : [];
  },
  (s) => (s.e.special_hand !== null && s.game.modern && !own(s.game.rules.special_hands, s.e.special_hand)  // §5.10
    ? [["special_hand", say("spec", { special_hand: specialHandName(s.e.special_hand) })]] : [])
];
const CONSISTENCY_CHECKS = [
  (s) => ((has(s.game, "threes_in_hand") || !has(s.game, "last_draw_three")) &&  // §5.1
    s.e.last_draw_three && s.e.threes_in_hand < 1 ? [["last_draw_three", say("last3")]] : []),
  (s) => [["sevens_canasta", "sevens", "shut7"], ["aces_canasta", "aces", "shutA"],  // §5.5
    ["wild_canasta", "wild", "shutW"]].filter((k) => s.e[k[0]] !== false && s.e[k[0]] !== null &&
      s.e["incomplete_" + k[1]]).map((k) => ["incomplete_" + k[1], say(k[2])]),
  (s) => {  // §5.12
    const base = s.e.reported_base, out = [];
    if (base === null) return out;
    const others = entered(s.e).filter((name) => !["reported_base", "count", "cards"].includes(name));
    if (others.length) out.push(["reported_base", say("base2", { listed: others.map(LABEL).join(", ") })]);
    const [lowest, highest] = baseLimits(s.game, s.i);
    if (base % 5) out.push(["reported_base", say("base5")]);
    else if (base < lowest || base > highest) {
      out.push(["reported_base", say("baseR", { lowest: num(lowest), highest })]);
    }
    return out;
  }
];
const ENTRY_CHECKS = [
  (s) => {  // §5.4
    const e = s.e, need = s.game.rules.canastas_to_go_out, out = [];
    if (e.went_out && canastas(e) < need) out.push(["went_out", say(need < 3 ? "out" + need : "outN", { need })]);
    if (e.went_out && (e.incomplete_sevens || e.incomplete_aces || e.incomplete_wild)) {
      out.push(["went_out", say("outM")]);
    }
    return out;
  },
  (s) => (s.e.has_melded === false && (canastas(s.e) || s.e.went_out)  // §4 Red 3s
    ? [["has_melded", say("melded")]] : []),
  (s) => (s.e.concealed && !s.e.went_out ? [["concealed", say("hid")]] : []),
  (s) => {  // §5.9
    if (!s.e.perfect_cut) return [];
    if (!s.game.rules.perfect_cut) return [["perfect_cut", say("noCut")]];
    const cutter = s.game.cutterSide(s.n);
    return cutter === s.i ? [] : [["perfect_cut", say("cutter", { cutter: s.game.sides[cutter].name })]];
  }
];
const COUNT_CHECKS = [
  (s) => {  // §5.8
    const out = [];
    if (s.e.cards === null) return out;
    if (s.e.count !== null) out.push(["count", say("count2")]);
    for (const where of ["melded", "in_hand"]) {
      for (const [kind] of CARDS) {
        const number = s.e.cards[where][kind], path = `cards.${where}.${kind}`, most = s.game.limit(kind);
        const label = words.c[kind];
        if (kind === "black_threes" && s.game.modern && number) out.push([path, say("black")]);
        else if (number < 0) out.push([path, say("neg", { label })]);
        else if (number > most) out.push([path, say("pack", { label, most })]);
      }
    }
    return out;
  },
  (s) => {  // §5.7
    const game = s.game, count = sideCount(game, s.e);
    const pack = sum(CARDS, (c) => (c[0] === "black_threes" && game.modern ? 0 : game.limit(c[0]) * c[1]));
    if (count % 5) return [["count", say("count5")]];
    if (Math.abs(count) > pack) return [["count", say("countX", { points: pack })]];
    return game.rules.count_without_canasta === "negative" && !canastas(s.e) && count > 0 &&
      s.e.reported_base === null ? [["count", say("count0")]] : [];
  }
];

// rules.base_limits
function baseLimits(game, i) {
  const rules = game.rules, v = rules.values, players = game.sides[i].players.length;
  const threes = game.modern ? Math.max(rules.all_eight_threes || 0, 2 * Math.max(...rules.threes))
    : Math.max(...Array.from({ length: game.threes + 1 }, (_, n) => classicRedThrees(game, n)));
  const canastas = 11 * game.decks * Math.max(v.natural_canasta, v.mixed_canasta) + v.sevens_canasta +
    v.aces_canasta + Math.max(...WILD_KINDS.map((kind) => v["wild_canasta_" + kind]));
  return [
    -(threes + sum(PRICED, (p) => (p[2] < 0 ? Math.max(0, unitOf(v, p)) * mostOf(game, p[0], players) : 0))),
    Math.max(threes + canastas + Math.max(v.going_out, v.going_out_concealed) + v.perfect_cut,
      ...Object.values(rules.special_hands), 0)
  ];
}

const sidesWith = (hand, names) => hand.flatMap((e, i) => names.filter((name) => set(e[name]))
  .map((name) => `sides.${i}.${name}`));
const HAND_CHECKS = [
  (game, hand) => [  // §5.2
    ["red3s", ["red_threes", "red_threes_in_hand"], game.threes], ["black3s", ["black_threes"], game.threes],
    ["all3s", ["red_threes", "black_threes", "threes_in_hand", "red_threes_in_hand"], 2 * game.threes]
  ].flatMap(([key, names, most]) => {
    const held = sum(hand, (e) => sum(names, (name) => e[name]));
    return held > most ? [[say(key, { held, most }), sidesWith(hand, names)]] : [];
  }),
  (game, hand) => {  // §5.3
    const out = [], wentOut = sidesWith(hand, ["went_out"]), specials = sidesWith(hand, ["special_hand"]);
    if (wentOut.length > 1) out.push([say("oneOut"), wentOut]);
    if (specials.length > 1) out.push([say("oneSp"), specials]);
    if (specials.length && wentOut.length) out.push([say("nobody"), specials.concat(wentOut)]);
    return out;
  },
  (game, hand) => [["last_draw_three", "oneLast"], ["perfect_cut", "oneCut"], ["sevens_canasta", "one7"],  // §5.5, §5.9
    ["aces_canasta", "oneA"], ["wild_canasta", "oneW"]]
    .map(([name, key]) => [say(key), sidesWith(hand, [name])])
    .filter((finding) => finding[1].length > 1),
  (game, hand) => {  // §5.6
    const naturals = sum(hand, (e) => e.natural_canastas), mixed = sum(hand, (e) => e.mixed_canastas);
    const involved = sidesWith(hand, ["natural_canastas", "mixed_canastas"]);
    if (game.modern) {
      const limit = (10 - hand.some((e) => e.aces_canasta)) * Math.floor(game.ofRank / 5);
      return naturals + mixed > limit ? [[say("fit", { canastas: naturals + mixed, limit }), involved]] : [];
    }
    const wildLeft = game.wildCards - sum(hand, (e) => 7 * (e.wild_canasta !== null) + 3 * e.incomplete_wild);
    return classicCanastasPossible(naturals, mixed, game.ofRank, wildLeft) ? []
      : [[say("classic", { naturals, mixed }), involved]];
  },
  (game, hand) => [  // §5.8
    ["many7", "sevens", game.ofRank, 1], ["manyA", "aces", game.ofRank, 1], ["manyW", "wild", game.wildCards]
  ].map(([message, key, most, dirty]) => {
    const names = [key === "wild" ? "wild_canasta" : key + "_canasta", "incomplete_" + key,
      dirty ? "dirty_" + key : "mixed_canastas"];
    const need = sum(hand, (e) => 7 * set(e[names[0]]) + 3 * e[names[1]] + (dirty ? 3 : 1) * e[names[2]]);
    return need > most && [say(message, { need, most }), sidesWith(hand, names)];
  }).filter(Boolean),
  (game, hand) => CARDS.map(([kind]) => {  // §5.8
    const held = hand.map((e) => (e.cards === null ? 0 : e.cards.melded[kind] + e.cards.in_hand[kind]));
    return sum(held, (n) => n) > game.limit(kind) &&
      [say("grids", { cards: words.c[kind], held: sum(held, (n) => n), most: game.limit(kind) }),
        held.flatMap((n, i) => (n ? [`sides.${i}.count`] : []))];
  }).filter(Boolean)
];

// rules._classic_canastas_possible
function classicCanastasPossible(naturals, mixed, perRank, wildCards) {
  if (naturals < 0 || mixed < 0 || naturals + mixed > 11 * perRank) return false;
  const options = [];
  for (let n = 0; n <= perRank / 7; n++) {
    const left = perRank - 7 * n;
    for (let m = 0; m <= left / 4; m++) options.push([n, m, 7 * m - Math.min(6 * m, left)]);
  }
  let best = new Map([["0,0", 0]]);
  for (let rank = 0; rank < 11; rank++) {
    const step = new Map();
    for (const [key, wild] of best) {
      const [a, b] = key.split(",").map(Number);
      for (const [n, m, w] of options) {
        const next = Math.min(a + n, naturals) + "," + Math.min(b + m, mixed);
        if (wild + w < (step.get(next) ?? wildCards + 1)) step.set(next, wild + w);
      }
    }
    best = step;
  }
  return (best.get(naturals + "," + mixed) ?? wildCards + 1) <= wildCards;
}

// rules.check_hand
function ruleProblems(game, hand, n) {
  const problems = [];
  hand.forEach((e, i) => {
    let checks = SIDE_CHECKS;
    if (e.special_hand === null || !game.modern) {
      checks = checks.concat(CONSISTENCY_CHECKS, e.reported_base !== null ? [] : ENTRY_CHECKS, COUNT_CHECKS);
    }
    for (const check of checks) {
      for (const [field, message] of check({ game, i, e, n })) {
        problems.push({ field: `sides.${i}.${field}`, message });
      }
    }
  });
  const entries = hand.map(counted);
  for (const check of HAND_CHECKS) {
    for (const [message, involves] of check(game, entries)) {
      problems.push(involves.length ? { field: "sides", message, involves } : { field: "sides", message });
    }
  }
  return problems;
}

// document.parse_hand (§5.15); JSON's 2.0 is 2 here.
const unknown = (data, allowed, prefix) => Object.keys(data).filter((key) => !allowed.includes(key))
  .map((key) => ({ field: prefix + key, message: say("unknown", { key: quoted(key) }) }));
const numberProblem = (value, label) => (!Number.isInteger(value) ? say("whole", { label })
  : Math.abs(value) > 100000 ? say("big", { label }) : null);
function shapeProblems(body, sides) {
  if (!isObject(body)) return [{ field: "sides", message: say("handS") }];
  if (!Array.isArray(body.sides)) return [{ field: "sides", message: say("sidesL") }];
  const problems = unknown(body, ["sides", "note", "dealer"], "");
  if (body.sides.length !== sides) return problems.concat([{ field: "sides", message: say("sides", { sides }) }]);
  const refuse = (field, message) => message && problems.push({ field, message });
  body.sides.forEach((data, i) => {
    const path = `sides.${i}.`;
    if (!isObject(data)) return refuse(path.slice(0, -1), say("sideS"));
    problems.push(...unknown(data, NAMES.concat(["result"]), path));
    for (const [name, kind] of FIELDS) {
      const value = data[name], at = path + name, label = LABEL(name);
      if (value === undefined || value === null) continue;
      if (kind === "i" || kind === "f") refuse(at, numberProblem(value, label));
      else if (kind === "b" || kind === "m") refuse(at, typeof value !== "boolean" && say("yesNo", { label }));
      else if (kind === "s") {
        refuse(at, typeof value !== "string" &&
          say("named", { label, example: name === "wild_canasta" ? "deuces" : "pairs" }));
      } else if (!isObject(value)) {
        refuse(at, say("gridS"));
      } else {
        problems.push(...unknown(value, ["melded", "in_hand"], at + "."));
        for (const where of ["melded", "in_hand"]) {
          const counts = value[where];
          if (counts === undefined || counts === null) continue;
          if (!isObject(counts)) {
            refuse(`${at}.${where}`, say("gridN"));
            continue;
          }
          problems.push(...unknown(counts, CARDS.map((c) => c[0]), `${at}.${where}.`));
          for (const [card] of CARDS) {
            if (counts[card] != null) refuse(`${at}.${where}.${card}`, numberProblem(counts[card], words.c[card]));
          }
        }
      }
    }
  });
  return problems;
}

/** The API's errors for this hand body POSTed (position == hands.length) or PUT at `position`:
 *  [{field, message}], with `involves` (each side's field) on a whole-hand problem. */
function checkHand(doc, body, position) {
  const game = gameOf(doc), stored = game.hands;
  if (position === stored.length && play(game, stored)[0].winners.length) return [{ field: "", message: say("over") }];
  if (!(position >= 0 && position <= stored.length)) {
    return [{ field: "", message: say("noHand", { hands: stored.length, n: position }) }];
  }
  if (position === stored.length && position >= MOST_HANDS) {
    return [{ field: "sides", message: say("full", { number: position + 1, most: MOST_HANDS }) }];
  }
  let problems = shapeProblems(body, game.sides.length);
  if (problems.length) return problems;
  const hand = body.sides.map(entryOf);
  problems = ruleProblems(game, hand, position);
  if (problems.length || position === stored.length) return problems;
  const hands = stored.slice();
  hands[position] = hand;  // store._check_sequence: the game must not end before its last hand (§5.14)
  const ended = play(game, hands)[1];
  return ended !== null && ended < hands.length - 1
    ? [{ field: `hands.${ended + 1}`, message: told("ends", hands.length - 1 - ended, { after: ended + 1 }) }] : [];
}

/** A hand body's figures as hand n, after each side's cumulative `before`. */
function scoreOneHand(doc, body, n, before) {
  const game = gameOf(doc);
  return scoreHand(game, body.sides.map(entryOf), n, before || game.start);
}

// For the tests (tests/e2e/test_rules_js.py): the figures and the checks, and the tables held to rules.py's own.
// useWords: the rules' data and the words to say the messages in (web.phone_words), as a page has them (data-words).
window.ScorepadRules = { scoreGame, checkHand, useWords };

export { checkHand, gameOf, has, points, scoreGame, scoreOneHand, signed };
