// scorepad/rules.py in the browser, for hands entered offline (docs/architecture.md): every value from the
// game's own rules; held to the Python answers by tests/vectors/rules.json (scripts/rule_vectors.py).
// An ES module of static/js/scorepad.min.js (scripts/build_js.mjs): the other modules import what the export list at
// the end names, and window.ScorepadRules gives the figures and checks to the tests.
// The rules as data (assets/js/catalogue.json, written by scripts/rule_docs.py from rules.phone_json in
// scorepad/rules/catalogue.py and built into the bundle), so that nothing here restates them: each priced entry
// [entry, value, sign, value it is charged instead of or null], scored by one step (rules.priced), and the value
// behind each entry a game has only where that value is above 0 (rules.Rules.has); the side entries [name, kind,
// label] in rules.SIDE_FIELDS's order (kind: i number, f number or null, b boolean, m boolean or null, s name, c
// grid); the counting grid [kind, points, label, cards per deck]; the names of the wild-card canastas, the presets
// and the special hands. In the bundle, not in every page: pages stay small, and the phone keeps it with the script.
import CATALOGUE from "./catalogue.json";
const { fields: FIELDS, cards: CARDS, wild: WILD, presets: PRESETS, special_hands: SPECIAL_HANDS } = CATALOGUE;
const NAMES = FIELDS.map((f) => f[0]);
const LABEL = Object.fromEntries(FIELDS.map((f) => [f[0], f[2]]));
const KIND = Object.fromEntries(FIELDS);
const PRICED = CATALOGUE.priced;
const VALUE_OF = CATALOGUE.gates;
const valueOf = (name) => VALUE_OF[name] || name;
const PENALTIES = PRICED.filter((p) => p[2] < 0).map((p) => p[0]);
// rules.most_of: the most of an entry one side can have in a hand (a switch: 1).
const mostOf = (game, name, players) => ({ dirty_sevens: players, dirty_aces: players, threes_in_hand: 2 * game.threes,
  red_threes_in_hand: game.threes, failed_go_out_asks: 50, failed_pile_takes: 50 })[name] ?? 1;
// One priced entry's points per unit: its value, less the value it is charged instead of.
const unitOf = (v, p) => v[p[1]] - (p[3] ? v[p[3]] : 0);
const GAME_OVER = "This game is over: no more hands can be added.";  // the API's 409
const MOST_HANDS = 200;  // document.MOST_HANDS

const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const sum = (list, f) => list.reduce((total, x, i) => total + f(x, i), 0);
const points = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");  // Python's {:,}
const signed = (n) => (n < 0 ? "\u2212" + points(-n) : points(n));
const set = (v) => v !== 0 && v !== false && v !== null;  // not (0, False, None)
// Python's repr() of a key.
const quoted = (text) => {
  text = text.replace(/\\/g, "\\\\");
  return text.includes("'") && !text.includes('"') ? `"${text}"` : `'${text.replace(/'/g, "\\'")}'`;
};
const specialHandName = (key) => {
  if (own(SPECIAL_HANDS, key)) return SPECIAL_HANDS[key];
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
  const rules = doc.rules, sides = doc.sides, decks = sides.length === 3 ? 3 : 2;
  const seats = sum(sides, (s) => s.players.length);
  const dealer = (n) => ((doc.first_dealer || 0) + n) % seats;
  return {
    rules, sides, decks, dealer, modern: rules.preset !== "classic", ofRank: 4 * decks, threes: 2 * decks,
    start: doc.brought_forward || sides.map(() => 0), // each side's total before hand 1 (brought forward from paper)
    wildCards: 6 * decks, hands: (doc.hands || []).map((hand) => hand.sides.map(entryOf)),
    cutter: (n) => (dealer(n) + seats - 1) % seats, cutterSide: (n) => ((dealer(n) + seats - 1) % seats) % sides.length,
    limit: (kind) => decks * CARDS.find((c) => c[0] === kind)[3]
  };
}
// rules.Rules.has
function has(game, name) {
  const values = game.rules.values;
  if (name === "black_threes") return game.modern;
  if (name === "has_melded") return !game.modern;
  if (name === "wild_canasta") return Object.keys(WILD).some((kind) => values["wild_canasta_" + kind] > 0);
  if (name === "perfect_cut") return game.rules.perfect_cut && values.perfect_cut > 0;
  if (name === "special_hand") return Object.keys(game.rules.special_hands).length > 0;
  return own(VALUE_OF, name) ? values[VALUE_OF[name]] > 0 : true;
}
const wildValue = (game, kind) => (own(WILD, kind) ? game.rules.values["wild_canasta_" + kind] : 0);

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
// message] for s = {game, i (side), e (entry), n (hand)}; a hand check [message, fields involved].
const SIDE_CHECKS = [
  (s) => entered(s.e).filter((name) => name !== "perfect_cut" && !has(s.game, name)).map((name) =>  // §5.10
    [name, `${LABEL[name]}: not part of this game's rules (${PRESETS[s.game.rules.preset] || s.game.rules.preset}).`
    ]),
  (s) => {  // §5.1
    const out = [], most = s.game.threes, players = s.game.sides[s.i].players.length;
    for (const [name, kind, label] of FIELDS) {
      const value = s.e[name];
      if (name === "red_threes" || name === "black_threes") {
        if (value < 0 || value > most) out.push([name, `${label}: a side can have 0 to ${most}.`]);
      } else if (kind === "i" && value < 0) out.push([name, `${label}: can't be negative.`]);
    }
    for (const name of ["dirty_sevens", "dirty_aces"]) {
      if (s.e[name] > players) {
        out.push([name, `${LABEL[name]}: the side has only ${players} player${players > 1 ? "s" : ""}.`]);
      }
    }
    for (const name of ["failed_go_out_asks", "failed_pile_takes"]) {
      if (s.e[name] > 50) out.push([name, `${LABEL[name]}: more than 50 in one hand? Check the number.`]);
    }
    if (s.e.red_threes_in_hand > most) {
      out.push(["red_threes_in_hand", `Red 3s left in hand: there are only ${most} in the pack.`]);
    }
    return out;
  },
  (s) => {  // §5.10
    const kind = s.e.wild_canasta;
    if (kind !== null && !own(WILD, kind)) {
      return [["wild_canasta", "Wild-card canasta: choose seven 2s, four jokers and three 2s, or another mix."]];
    }
    return kind !== null && has(s.game, "wild_canasta") && !wildValue(s.game, kind)
      ? [["wild_canasta", `Wild-card canasta of ${WILD[kind]}: this game doesn't play it.`]] : [];
  },
  (s) => (s.e.special_hand !== null && s.game.modern && !own(s.game.rules.special_hands, s.e.special_hand)  // §5.10
    ? [["special_hand", specialHandName(s.e.special_hand) + " is not a special hand allowed in this game."]] : [])
];
const CONSISTENCY_CHECKS = [
  (s) => ((has(s.game, "threes_in_hand") || !has(s.game, "last_draw_three")) &&  // §5.1
    s.e.last_draw_three && s.e.threes_in_hand < 1
    ? [["last_draw_three", "The last card was a 3 left in hand: count it in 3s left in hand too."]] : []),
  (s) => [["sevens", "sevens_canasta", "sevens"], ["pure aces", "aces_canasta", "aces"],  // §5.5
    ["wild cards", "wild_canasta", "wild"]].filter((k) => s.e[k[1]] !== false && s.e[k[1]] !== null &&
      s.e["incomplete_" + k[2]]).map((k) =>
    ["incomplete_" + k[2], `A side with a closed ${k[0]} canasta can't also have an unfinished ${k[0]} meld.`]),
  (s) => {  // §5.12
    const base = s.e.reported_base, out = [];
    if (base === null) return out;
    const others = entered(s.e).filter((name) => !["reported_base", "count", "cards"].includes(name));
    if (others.length) {
      out.push(["reported_base", "Base as reported: give the side's Base as one figure or as its entries (" +
        others.map((name) => LABEL[name]).join(", ") + "), not both."]);
    }
    const [lowest, highest] = baseLimits(s.game, s.i);
    if (base % 5) out.push(["reported_base", "Base as reported: it must be a multiple of 5."]);
    else if (base < lowest || base > highest) {
      out.push(["reported_base",
        `Base as reported: in this game a side's Base is between ${signed(lowest)} and ${points(highest)}.`]);
    }
    return out;
  }
];
const ENTRY_CHECKS = [
  (s) => {  // §5.4
    const e = s.e, need = s.game.rules.canastas_to_go_out, out = [];
    if (e.went_out && canastas(e) < need) {
      out.push(["went_out", `Going out needs ${{ 1: "a closed canasta", 2: "two closed canastas" }[need] ||
        need + " closed canastas"}.`]);
    }
    if (e.went_out && (e.incomplete_sevens || e.incomplete_aces || e.incomplete_wild)) {
      out.push(["went_out", "Can't go out with an unfinished sevens, aces or wild-card meld on the table."]);
    }
    return out;
  },
  (s) => (s.e.has_melded === false && (canastas(s.e) || s.e.went_out)  // §4 Red 3s
    ? [["has_melded", "A side with a canasta, or that went out, has melded."]] : []),
  (s) => (s.e.concealed && !s.e.went_out ? [["concealed", "Concealed is only for a side that went out."]] : []),
  (s) => {  // §5.9
    if (!s.e.perfect_cut) return [];
    if (!s.game.rules.perfect_cut) return [["perfect_cut", "This game doesn't play the perfect-cut bonus."]];
    const cutter = s.game.cutterSide(s.n);
    return cutter === s.i ? [] : [["perfect_cut",
      `Only the cutter's side (${s.game.sides[cutter].name}) can have the perfect cut this hand.`]];
  }
];
const COUNT_CHECKS = [
  (s) => {  // §5.8
    const out = [];
    if (s.e.cards === null) return out;
    if (s.e.count !== null) out.push(["count", "Give the Count as one number or as the counting grid, not both."]);
    for (const where of ["melded", "in_hand"]) {
      for (const [kind, , label] of CARDS) {
        const number = s.e.cards[where][kind], path = `cards.${where}.${kind}`, limit = s.game.limit(kind);
        if (kind === "black_threes" && s.game.modern && number) {
          out.push([path, "Black 3s are never melded or counted in modern canasta."]);
        } else if (number < 0) out.push([path, label + ": can't be negative."]);
        else if (number > limit) out.push([path, `${label}: the pack has only ${limit}.`]);
      }
    }
    return out;
  },
  (s) => {  // §5.7
    const game = s.game, count = sideCount(game, s.e);
    const pack = sum(CARDS, (c) => (c[0] === "black_threes" && game.modern ? 0 : game.limit(c[0]) * c[1]));
    if (count % 5) return [["count", "The Count must be a multiple of 5."]];
    if (Math.abs(count) > pack) {
      return [["count", `The Count can't be more than the whole pack's ${points(pack)} points.`]];
    }
    return game.rules.count_without_canasta === "negative" && !canastas(s.e) && count > 0 &&
      s.e.reported_base === null
      ? [["count", "A side with no canasta counts every card against it: its Count can't be above 0."]] : [];
  }
];

// rules.base_limits
function baseLimits(game, i) {
  const rules = game.rules, v = rules.values, players = game.sides[i].players.length;
  const threes = game.modern ? Math.max(rules.all_eight_threes || 0, 2 * Math.max(...rules.threes))
    : Math.max(...Array.from({ length: game.threes + 1 }, (_, n) => classicRedThrees(game, n)));
  const canastas = 11 * game.decks * Math.max(v.natural_canasta, v.mixed_canasta) + v.sevens_canasta +
    v.aces_canasta + Math.max(...Object.keys(WILD).map((kind) => v["wild_canasta_" + kind]));
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
    ["red ", ["red_threes", "red_threes_in_hand"], game.threes], ["black ", ["black_threes"], game.threes],
    ["", ["red_threes", "black_threes", "threes_in_hand", "red_threes_in_hand"], 2 * game.threes]
  ].flatMap(([colour, names, limit]) => {
    const held = sum(hand, (e) => sum(names, (name) => e[name]));
    return held > limit ? [[`The sides account for ${held} ${colour}3s; the pack has only ${limit}.`,
      sidesWith(hand, names)]] : [];
  }),
  (game, hand) => {  // §5.3
    const out = [], wentOut = sidesWith(hand, ["went_out"]), specials = sidesWith(hand, ["special_hand"]);
    if (wentOut.length > 1) out.push(["Only one side can go out.", wentOut]);
    if (specials.length > 1) out.push(["Only one special hand can end a hand.", specials]);
    if (specials.length && wentOut.length) {
      out.push(["Nobody goes out in a hand that ends with a special hand.", specials.concat(wentOut)]);
    }
    return out;
  },
  (game, hand) => [["last_draw_three", "hold the last card of the stock"], ["perfect_cut", "have the perfect cut"],
    ["sevens_canasta", "close a sevens canasta"], ["aces_canasta", "close a pure aces canasta"],  // §5.5, §5.9
    ["wild_canasta", "close a wild-card canasta"]]
    .map(([name, what]) => [`Only one side can ${what}.`, sidesWith(hand, [name])])
    .filter((finding) => finding[1].length > 1),
  (game, hand) => {  // §5.6
    const naturals = sum(hand, (e) => e.natural_canastas), mixed = sum(hand, (e) => e.mixed_canastas);
    const involved = sidesWith(hand, ["natural_canastas", "mixed_canastas"]);
    if (game.modern) {
      const limit = (10 - hand.some((e) => e.aces_canasta)) * Math.floor(game.ofRank / 5);
      return naturals + mixed > limit
        ? [[`${naturals + mixed} natural and mixed canastas: the pack can make at most ${limit}.`, involved]] : [];
    }
    const wildLeft = game.wildCards - sum(hand, (e) => 7 * (e.wild_canasta !== null) + 3 * e.incomplete_wild);
    return classicCanastasPossible(naturals, mixed, game.ofRank, wildLeft) ? [] : [[`${naturals} natural and ` +
      `${mixed} mixed canastas: the pack can't make them all (a natural canasta is seven cards of a rank; a ` +
      "mixed one at least four of a rank and a wild card).", involved]];
  },
  (game, hand) => [  // §5.8
    ["sevens", "sevens", "a sevens canasta", "7s", game.ofRank], ["aces", "aces", "a pure aces canasta", "aces",
      game.ofRank], ["wild cards", "wild", "a wild-card canasta", "", game.wildCards]
  ].map(([what, key, closedOne, dirty, limit]) => {
    const names = [key === "wild" ? "wild_canasta" : key + "_canasta", "incomplete_" + key,
      dirty ? "dirty_" + key : "mixed_canastas"];
    const need = sum(hand, (e) => 7 * set(e[names[0]]) + 3 * e[names[1]] + (dirty ? 3 : 1) * e[names[2]]);
    return need > limit && [`Too many ${what}: together the sides' entries need at least ${need} (${closedOne} is ` +
      `7, an unfinished ${key} meld 3 or more, ${dirty ? `a player dirty with ${dirty} holds 3` :
      "each mixed canasta 1"}), but the pack has ${limit}.`, sidesWith(hand, names)];
  }).filter(Boolean),
  (game, hand) => CARDS.map(([kind, , label]) => {  // §5.8
    const held = hand.map((e) => (e.cards === null ? 0 : e.cards.melded[kind] + e.cards.in_hand[kind]));
    return sum(held, (n) => n) > game.limit(kind) && [`The counting grids hold ${sum(held, (n) => n)} ` +
      `${label.toLowerCase()}; the pack has only ${game.limit(kind)}.`,
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
  .map((key) => ({ field: prefix + key, message: `Unknown field ${quoted(key)}.` }));
const numberProblem = (value, label) => (!Number.isInteger(value) ? label + ": enter a whole number."
  : Math.abs(value) > 100000 ? label + ": that number is far too big for one hand." : null);
function shapeProblems(body, sides) {
  if (!isObject(body)) {
    return [{ field: "sides", message: 'A hand gives one entry for each side: {"sides": [...]}.' }];
  }
  if (!Array.isArray(body.sides)) {
    return [{ field: "sides", message: 'A hand gives one entry for each side: "sides" is a list.' }];
  }
  const problems = unknown(body, ["sides", "note", "dealer"], "");
  if (body.sides.length !== sides) {
    return problems.concat([{ field: "sides", message: `A hand has one entry for each of the ${sides} sides.` }]);
  }
  const refuse = (field, message) => message && problems.push({ field, message });
  body.sides.forEach((data, i) => {
    const path = `sides.${i}.`;
    if (!isObject(data)) {
      return refuse(path.slice(0, -1),
        'A side\'s entry lists what it scored, like {"natural_canastas": 2, "count": 120}.');
    }
    problems.push(...unknown(data, NAMES.concat(["result"]), path));
    for (const [name, kind, label] of FIELDS) {
      const value = data[name], at = path + name;
      if (value === undefined || value === null) continue;
      if (kind === "i" || kind === "f") refuse(at, numberProblem(value, label));
      else if (kind === "b" || kind === "m") refuse(at, typeof value !== "boolean" && label + ": true or false.");
      else if (kind === "s") {
        refuse(at, typeof value !== "string" &&
          `${label}: give its name, like "${name === "wild_canasta" ? "deuces" : "pairs"}".`);
      } else if (!isObject(value)) {
        refuse(at, 'Counting grid: give the cards melded and the cards left in hand ("melded", "in_hand").');
      } else {
        problems.push(...unknown(value, ["melded", "in_hand"], at + "."));
        for (const where of ["melded", "in_hand"]) {
          const counts = value[where];
          if (counts === undefined || counts === null) continue;
          if (!isObject(counts)) {
            refuse(`${at}.${where}`, 'Counting grid: give the number of each kind of card, like {"jokers": 1}.');
            continue;
          }
          problems.push(...unknown(counts, CARDS.map((c) => c[0]), `${at}.${where}.`));
          for (const [card, , cardLabel] of CARDS) {
            if (counts[card] != null) refuse(`${at}.${where}.${card}`, numberProblem(counts[card], cardLabel));
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
  if (position === stored.length && play(game, stored)[0].winners.length) return [{ field: "", message: GAME_OVER }];
  if (!(position >= 0 && position <= stored.length)) {
    return [{ field: "",
      message: `This game has ${stored.length} hand(s); there is no hand ${position} (hands count from 0).` }];
  }
  if (position === stored.length && position >= MOST_HANDS) {
    return [{ field: "sides", message: `Hand ${position + 1}: a game holds at most ${MOST_HANDS} hands, and this ` +
      "one has them all. Start a new game to play on." }];
  }
  let problems = shapeProblems(body, game.sides.length);
  if (problems.length) return problems;
  const hand = body.sides.map(entryOf);
  problems = ruleProblems(game, hand, position);
  if (problems.length || position === stored.length) return problems;
  const hands = stored.slice();
  hands[position] = hand;  // store._check_sequence: the game must not end before its last hand (§5.14)
  const ended = play(game, hands)[1];
  return ended !== null && ended < hands.length - 1 ? [{ field: `hands.${ended + 1}`, message:
    `With this change the game would end after hand ${ended + 1}, so the ${hands.length - 1 - ended} hand(s) ` +
    "after it can't follow. Delete them first." }] : [];
}

/** A hand body's figures as hand n, after each side's cumulative `before`. */
function scoreOneHand(doc, body, n, before) {
  const game = gameOf(doc);
  return scoreHand(game, body.sides.map(entryOf), n, before || game.start);
}

// For the tests (tests/e2e/test_rules_js.py): the figures and the checks, and the tables held to rules.py's own.
window.ScorepadRules = {
  scoreGame, checkHand,
  tables: { fields: LABEL, cards: CARDS, wild: WILD, presets: PRESETS, specialHands: SPECIAL_HANDS }
};

export { WILD, checkHand, gameOf, has, points, scoreGame, scoreOneHand, signed, specialHandName };
