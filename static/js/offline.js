// Scorepad offline: hands entered with no connection wait on the phone (IndexedDB) and are sent once
// when it returns (docs/architecture.md, "Hands entered offline").
//
// - Save on the hand form that gets no answer (the request fails, or nothing within 4 s) keeps the
//   hand in the queue with an Idempotency-Key, the game version it was entered against and its place,
//   after the same checks as the server (ScorepadRules.checkHand, static/js/rules.js).
// - The scoresheet shows each waiting hand in its place with provisional figures from
//   ScorepadRules.scoreGame, marked "not yet synced"; a waiting hand can be edited or deleted.
// - The queue is sent in order on every page load, on the "online" event, on a timer while a page is
//   open, and when the service worker relays a Background Sync. The server stores each hand once
//   (scorepad/sync.py); a hand it can no longer place is shown with the reason, to re-apply, fix or
//   discard. Never dropped.
//
// navigator.onLine is never trusted alone: a phone on dead Wi-Fi believes it is online. A request that
// gets no answer is what says the connection is gone.
(function () {
  "use strict";

  // The database's name never changes: a new version of the app (a new service worker, a new copy of
  // this script) opens the same queue, so an update never strands a hand. The queue is carried over
  // rather than holding the update back: the worker keeps nothing of it, and a schema change is made
  // in onupgradeneeded below, keeping what is stored.
  var DB_NAME = "scorepad-offline";
  var DB_VERSION = 1;
  var QUEUE = "queue";  // hands waiting: {id, gameId, seq, key, baseVersion, position, hand, state, reason}
  var GAMES = "games";  // the latest game document the phone has seen: {id, version, doc, seenAt}
  var SAVE_TIMEOUT_MS = 4000;  // no answer to Save in this time: the hand waits on the phone
  var SEND_TIMEOUT_MS = 8000;  // a queued hand sent with no answer in this time: tried again later
  var RETRY_EVERY_MS = 20000;  // while a page is open and hands wait
  var MINUS = "\u2212";

  // --- IndexedDB --------------------------------------------------------------------------------
  var dbPromise = null;
  function openDb() {
    if (dbPromise) return dbPromise;
    dbPromise = new Promise(function (resolve, reject) {
      if (!window.indexedDB) { reject(new Error("no IndexedDB")); return; }
      var request = indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains(QUEUE)) {
          db.createObjectStore(QUEUE, { keyPath: "id" }).createIndex("gameId", "gameId");
        }
        if (!db.objectStoreNames.contains(GAMES)) db.createObjectStore(GAMES, { keyPath: "id" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
    return dbPromise;
  }
  function tx(storeName, mode, work) {
    return openDb().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(storeName, mode);
        var result;
        transaction.oncomplete = function () { resolve(result); };
        transaction.onerror = function () { reject(transaction.error); };
        transaction.onabort = function () { reject(transaction.error); };
        work(transaction.objectStore(storeName), function (value) { result = value; });
      });
    });
  }
  function allQueued() {
    return tx(QUEUE, "readonly", function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () { done(request.result.sort(function (a, b) { return a.seq - b.seq; })); };
    });
  }
  function queuedFor(gameId) {
    return allQueued().then(function (items) { return items.filter(function (i) { return i.gameId === gameId; }); });
  }
  function putItems(items) {
    return tx(QUEUE, "readwrite", function (store) { items.forEach(function (item) { store.put(item); }); });
  }
  function deleteItem(id) {
    return tx(QUEUE, "readwrite", function (store) { store.delete(id); });
  }
  function getItem(id) {
    return tx(QUEUE, "readonly", function (store, done) {
      var request = store.get(id);
      request.onsuccess = function () { done(request.result); };
    });
  }
  function keepGame(doc, version) {
    if (!doc || !doc.id || typeof version !== "number") return Promise.resolve();
    return tx(GAMES, "readwrite", function (store) {
      var request = store.get(doc.id);
      request.onsuccess = function () {
        var kept = request.result;
        if (!kept || kept.version <= version) {
          store.put({ id: doc.id, version: version, doc: doc, seenAt: new Date().toISOString() });
        }
      };
    });
  }
  function keptGame(gameId) {
    return tx(GAMES, "readonly", function (store, done) {
      var request = store.get(gameId);
      request.onsuccess = function () { done(request.result); };
    });
  }
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }

  // --- The game on this page -------------------------------------------------------------------
  // The scoresheet and the hand form carry the game document as data (a JSON script tag, never run),
  // with the version it is at and where it lives.
  function pageGame() {
    var tag = document.getElementById("game-document");
    if (!tag) return null;
    try {
      return {
        doc: JSON.parse(tag.textContent),
        id: tag.dataset.gameId,
        version: parseInt(tag.dataset.version, 10),
        editable: tag.dataset.editable === "true",
        showUrl: tag.dataset.showUrl,
        handUrl: tag.dataset.handUrl,
        rulesUrl: tag.dataset.rulesUrl,
        position: tag.dataset.position === undefined ? null : parseInt(tag.dataset.position, 10),
      };
    } catch (e) { return null; }
  }
  // The newest document the phone has: the page's own, or one a later answer from the server brought.
  function freshest(game) {
    return keptGame(game.id).catch(function () { return null; }).then(function (kept) {
      if (kept && kept.version > game.version) return { doc: kept.doc, version: kept.version };
      return { doc: game.doc, version: game.version };
    });
  }
  var rules = function () { return window.ScorepadRules || null; };

  // The game with the waiting hands after its stored ones (each hand's inputs only: the rules work out the rest).
  function withHands(doc, items) {
    var copy = JSON.parse(JSON.stringify(doc));
    copy.hands = (doc.hands || []).map(inputsOf).concat(items.map(function (item) { return item.hand; }));
    return copy;
  }
  function inputsOf(hand) {
    return { sides: hand.sides.map(function (side) {
      var entry = {};
      Object.keys(side).forEach(function (key) { if (key !== "result") entry[key] = side[key]; });
      return entry;
    }) };
  }
  function points(value) {
    if (value === null || value === undefined) return "";
    var text = Math.abs(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return value < 0 ? MINUS + text : text;
  }
  function playerOfSeat(doc, seat) {
    var sides = doc.sides;
    return sides[seat % sides.length].players[Math.floor(seat / sides.length)];
  }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

  // --- Where the figures stand ---------------------------------------------------------------
  var state = { sending: false, lastTry: null, waiting: 0, conflicts: 0 };
  function say() {
    var status = document.getElementById("sync-status");
    if (!status) return;
    var fromCopy = document.documentElement.dataset.served === "copy";
    var kind, text;
    if (state.sending) {
      kind = "syncing";
      text = "Syncing: sending " + plural(state.waiting, "hand", "hands") + " to the server\u2026";
    } else if (state.conflicts) {
      kind = "conflict";
      text = plural(state.conflicts, "hand", "hands") + " could not be saved: see below." +
        (state.waiting ? " " + plural(state.waiting, "more hand waits", "more hands wait") + " behind it." : "");
    } else if (state.waiting && (state.lastTry === "offline" || fromCopy)) {
      kind = "offline";
      text = "Offline: " + plural(state.waiting, "hand", "hands") + " waiting on this phone, not yet synced.";
    } else if (state.waiting) {
      kind = "waiting";
      text = plural(state.waiting, "hand waits", "hands wait") + " on this phone to be sent: not yet synced.";
    } else if (fromCopy || state.lastTry === "offline") {
      kind = "offline";
      text = "Offline: nothing is waiting on this phone.";
    } else {
      kind = "online";
      text = "Online: every hand is saved on the server.";
    }
    status.dataset.state = kind;
    status.textContent = text;
    status.hidden = false;
  }
  function countQueue(items) {
    state.waiting = items.filter(function (i) { return i.state !== "conflict"; }).length;
    state.conflicts = items.length - state.waiting;
  }

  // --- Sending the queue ----------------------------------------------------------------------
  function syncUrl(gameId) { return "/sync/games/" + encodeURIComponent(gameId) + "/hands"; }
  function post(url, body, key) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(body),
      signal: controller ? controller.signal : undefined,
    }).finally(function () { clearTimeout(timer); });
  }
  function send(item) {
    return post(syncUrl(item.gameId), { hand: item.hand, base_version: item.baseVersion, position: item.position },
      item.key).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        return { status: response.status, body: body };
      });
    });
  }

  var touched = {};  // games the server answered for in this page's life
  // One pass at a time: a call while a pass runs (a tap on Re-apply, "online" during the page-load pass)
  // makes another pass after it, so nothing entered meanwhile waits for the timer.
  var passes = Promise.resolve(false);
  function syncAll() {
    passes = passes.then(syncOnce, syncOnce);
    return passes;
  }
  function syncOnce() {
    var lock = navigator.locks && navigator.locks.request
      ? function (work) { return navigator.locks.request("scorepad-sync", work); }
      : function (work) { return work(); };
    return lock(function () {
      var gamesOffline = false;
      return createLocalGames().then(function (offline) { gamesOffline = offline; }).then(allQueued).then(function (items) {
        countQueue(items);
        // A game started here that is not on the server yet holds its hands back (createLocalGames).
        items = items.filter(function (i) { return !isLocal(i.gameId); });
        var sendable = items.filter(function (i) { return i.state !== "conflict"; });
        if (!sendable.length) {
          if (gamesOffline) state.lastTry = "offline";
          say();
          return false;
        }
        state.sending = true;
        say();
        var games = [];
        items.forEach(function (i) { if (games.indexOf(i.gameId) < 0) games.push(i.gameId); });
        var offline = false;
        var applied = 0;
        return games.reduce(function (chain, gameId) {
          return chain.then(function () {
            if (offline) return undefined;
            return syncGame(items.filter(function (i) { return i.gameId === gameId; })).then(function (outcome) {
              if (outcome.offline) offline = true;
              applied += outcome.applied;
            });
          });
        }, Promise.resolve()).then(function () {
          state.lastTry = offline || gamesOffline ? "offline" : "online";
          return applied > 0;
        });
      });
    }).catch(function () { state.lastTry = "offline"; return false; })
      .then(function (appliedAny) {
        state.sending = false;
        return refresh().then(function () { return appliedAny; });
      });
  }
  // One game's hands, in order; a hand in conflict holds back those after it.
  function syncGame(items) {
    var outcome = { applied: 0, offline: false };
    var i = 0;
    function next() {
      if (i >= items.length) return Promise.resolve(outcome);
      var item = items[i];
      if (item.state === "conflict") return Promise.resolve(outcome);
      return send(item).then(function (answer) {
        var body = answer.body || {};
        if (body.game && typeof body.version === "number") keepGame(body.game, body.version);
        if (body.outcome) touched[item.gameId] = true;
        if (body.outcome === "applied") {
          outcome.applied += 1;
          // The hands after it were entered on the same game: they now follow the version this one made.
          var later = items.slice(i + 1).filter(function (l) { return l.baseVersion === item.baseVersion; });
          later.forEach(function (l) { l.baseVersion = body.version; });
          i += 1;
          return deleteItem(item.id).then(function () { return putItems(later); }).then(next);
        }
        if (body.outcome === "conflict" || body.outcome === "refused" || answer.status === 403 ||
            answer.status === 404 || answer.status === 400) {
          item.state = "conflict";
          item.reason = body.reason || "The server could not take this hand (error " + answer.status + ").";
          item.errors = body.errors || [];
          if (typeof body.version === "number") {
            item.currentVersion = body.version;
            item.currentHands = body.game && body.game.hands ? body.game.hands.length : null;
          }
          return putItems([item]).then(function () { return outcome; });
        }
        return outcome;  // a server error: tried again later, as it is
      }, function () {
        outcome.offline = true;  // no answer: the connection is gone for now
        return outcome;
      });
    }
    return next();
  }
  // A conflicting hand placed on the game as it is now: it and the hands after it follow the current version.
  function rebase(gameId, fromId) {
    return queuedFor(gameId).then(function (items) {
      var start = items.findIndex(function (i) { return i.id === fromId; });
      if (start < 0) return undefined;
      var head = items[start];
      var version = head.currentVersion, count = head.currentHands;
      var rest = items.slice(start);
      rest.forEach(function (item, n) {
        if (typeof version === "number") item.baseVersion = version;
        if (typeof count === "number") item.position = count + n;
        item.state = "waiting";
        delete item.reason;
        delete item.errors;
      });
      return putItems(rest);
    });
  }

  // --- The scoresheet: waiting hands in their place, provisional figures -------------------------
  function refresh() {
    return allQueued().then(function (items) {
      countQueue(items);
      say();
      var game = pageGame();
      if (!game) return Promise.all([showLocalGame(), listLocalGames()]);
      if (document.querySelector("form.hand-form")) return handFormShowsPlace(game, items);
      return showOnScoresheet(game, items.filter(function (i) { return i.gameId === game.id; }));
    }).catch(function () { say(); });
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs[name];
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  var FIGURES = [["base", "Base"], ["count", "Count"], ["total", "Hand"], ["cumulative", "Total"]];

  function showOnScoresheet(game, items) {
    document.querySelectorAll(".waiting-hand, .not-saved, .provisional-note").forEach(function (node) { node.remove(); });
    document.querySelectorAll(".provisional").forEach(function (node) { node.classList.remove("provisional"); });
    var waiting = items.filter(function (i) { return i.state !== "conflict"; });
    var conflicts = items.filter(function (i) { return i.state === "conflict"; });
    if (conflicts.length) showConflicts(game, conflicts);
    var sheet = document.getElementById("scoresheet");
    if (!sheet) return;
    if (!sheet.dataset.original) sheet.dataset.original = sheet.innerHTML;  // the server's own figures
    if (!waiting.length) {
      if (sheet.dataset.provisional) { sheet.innerHTML = sheet.dataset.original; delete sheet.dataset.provisional; }
      restoreEnterLink();
      return;
    }
    var R = rules();
    if (!R) {  // the rules are not on this phone: the hands wait, their figures come from the server
      sheet.prepend(el("p", { class: "provisional-note", role: "status",
        text: plural(waiting.length, "hand", "hands") + " not yet synced: figures once the server has them." }));
      return;
    }
    var doc = withHands(game.doc, waiting);
    var score = R.scoreGame(doc);
    var stored = (game.doc.hands || []).length;
    sheet.innerHTML = sheet.dataset.original;
    sheet.dataset.provisional = "true";
    var threeSides = doc.sides.length === 3;
    var table = sheet.querySelector("table.grid");
    if (!table) {
      var empty = sheet.querySelector("p.empty");
      table = emptyTable(doc, threeSides);
      if (empty) empty.replaceWith(table); else sheet.appendChild(table);
    }
    waiting.forEach(function (item, n) {
      var index = stored + n;
      var row = waitingRow(doc, score.hands[index], index, item, threeSides, game);
      if (threeSides) table.appendChild(row); else table.querySelector("tbody").appendChild(row);
    });
    standings(sheet, doc, score, waiting.length);
    enterLink(score, doc);
  }

  function emptyTable(doc, threeSides) {
    var head = el("tr", {}, [threeSides ? el("td") : el("th", { scope: "col", text: "Hand" })].concat(
      doc.sides.map(function (side) { return el("th", { scope: "col", text: side.name }); })));
    var table = el("table", { class: "grid side-count-" + doc.sides.length + (threeSides ? " grid-rows" : "") }, [
      el("caption", { class: "visually-hidden", text: "Every hand: Base, Count, hand total and running total of each side" }),
      el("thead", {}, [head]),
    ]);
    if (!threeSides) table.appendChild(el("tbody"));
    return table;
  }

  function handActions(item, game, number) {
    if (!game.editable) return [];
    function hidden() { return el("span", { class: "visually-hidden", text: " hand " + number }); }
    return [
      el("a", { class: "row-action edit-waiting", href: game.handUrl + "#waiting=" + item.id }, [document.createTextNode("Edit"), hidden()]),
      el("button", { type: "button", class: "link row-action danger delete-waiting", "data-item": item.id },
        [document.createTextNode("Delete"), hidden()]),
    ];
  }
  function mark() { return el("span", { class: "not-synced", text: "not yet synced" }); }

  function waitingRow(doc, handScore, index, item, threeSides, game) {
    var number = index + 1;
    var dealt = el("span", { class: "dealer", text: playerOfSeat(doc, handScore.dealer) + " dealt" });
    if (threeSides) {
      var body = el("tbody", { id: "hand-" + number, class: "waiting-hand", "data-item": item.id }, [
        el("tr", { class: "hand-heading" }, [el("th", { colspan: "4", scope: "rowgroup" }, [
          el("span", { class: "hand-number", text: "Hand " + number }), document.createTextNode(" "), dealt,
          document.createTextNode(" "), mark()].concat(handActions(item, game, number)))]),
      ]);
      FIGURES.forEach(function (figure) {
        body.appendChild(el("tr", { class: "figure-" + figure[0] }, [el("th", { scope: "row", text: figure[1] })].concat(
          handScore.sides.map(function (side, s) {
            return el("td", { "data-side": String(s), class: figure[0] === "total" ? "hand-total" : figure[0],
              text: points(side[figure[0]]) });
          }))));
      });
      return body;
    }
    return el("tr", { id: "hand-" + number, class: "waiting-hand", "data-item": item.id }, [
      el("th", { scope: "row" }, [el("span", { class: "hand-number", text: String(number) }), dealt, mark()]
        .concat(handActions(item, game, number))),
    ].concat(handScore.sides.map(function (side, s) {
      return el("td", { "data-side": String(s) }, [el("dl", { class: "figures" }, FIGURES.map(function (figure) {
        return el("div", figure[0] === "cumulative" ? { class: "running" } : {}, [
          el("dt", { text: figure[1] }),
          el("dd", { class: figure[0] === "total" ? "hand-total" : figure[0], text: points(side[figure[0]]) }),
        ]);
      }))]);
    })));
  }

  function standings(sheet, doc, score, waitingCount) {
    var section = sheet.querySelector(".standings");
    if (!section) return;
    section.classList.add("provisional");
    var finished = score.status === "finished";
    sheet.querySelectorAll(".total-card").forEach(function (card, s) {
      var total = card.querySelector(".total-figure");
      if (total) total.textContent = points(score.totals[s]);
      card.classList.toggle("is-winner", finished && score.winner === s);
      var min = card.querySelector(".min-count");
      if (min) min.hidden = finished;
      var figure = card.querySelector(".min-count-figure");
      if (figure && !finished) figure.textContent = String(score.min_count[s]);
    });
    section.querySelectorAll(".winner, .tie").forEach(function (node) { node.remove(); });
    var next = section.querySelector(".next-deal");
    if (finished && score.winner !== null && score.winner !== undefined) {
      section.prepend(el("p", { class: "winner", role: "status" }, [
        el("strong", { text: doc.sides[score.winner].name + " won" }), document.createTextNode(" "), mark()]));
    }
    if (next) {
      next.hidden = finished;
      next.textContent = "";
      next.append("Hand " + (doc.hands.length + 1) + ": ", el("strong", { text: playerOfSeat(doc, score.next_dealer) }),
        " deals \u00b7 playing to " + points(doc.rules.target));
    }
    section.appendChild(el("p", { class: "provisional-note", role: "status",
      text: "Figures with " + plural(waitingCount, "hand", "hands") + " not yet synced: provisional until the server has them." }));
  }

  function enterLink(score, doc) {
    var link = document.querySelector("a.sticky-action");
    if (!link) return;
    if (!link.dataset.text) link.dataset.text = link.textContent;
    link.hidden = score.status === "finished";
    link.textContent = "Enter hand " + (doc.hands.length + 1);
  }
  function restoreEnterLink() {
    var link = document.querySelector("a.sticky-action");
    if (link && link.dataset.text) { link.textContent = link.dataset.text; link.hidden = false; }
  }

  function showConflicts(game, conflicts) {
    var sheet = document.getElementById("scoresheet");
    var card = el("section", { class: "card not-saved", "aria-label": "Hands not saved" }, [
      el("h2", { text: "Not saved: " + plural(conflicts.length, "hand needs", "hands need") + " you" })]);
    conflicts.forEach(function (item) {
      var buttons = game.editable ? [
        el("button", { type: "button", class: "button reapply-waiting", "data-item": item.id, text: "Re-apply on the game as it is now" }),
        el("a", { class: "button fix-waiting", href: game.handUrl + "#waiting=" + item.id, text: "Fix it" }),
        el("button", { type: "button", class: "button discard-waiting", "data-item": item.id, text: "Discard it" }),
      ] : [];
      card.appendChild(el("div", { class: "conflict", "data-item": item.id }, [
        el("p", {}, [el("strong", { text: "Hand entered as hand " + (item.position + 1) + ": " }),
          document.createTextNode(describe(game.doc, item.hand))]),
        el("p", { class: "field-error conflict-reason", text: item.reason || "" }),
        el("div", { class: "actions" }, buttons),
      ]));
    });
    if (sheet) sheet.parentNode.insertBefore(card, sheet); else document.getElementById("main").prepend(card);
  }
  function describe(doc, hand) {
    return hand.sides.map(function (entry, s) {
      var name = doc.sides[s] ? doc.sides[s].name : "Side " + (s + 1);
      if (entry.special_hand) return name + ": special hand";
      var parts = [];
      if (entry.natural_canastas) parts.push(entry.natural_canastas + " natural");
      if (entry.mixed_canastas) parts.push(entry.mixed_canastas + " mixed");
      if (entry.red_threes) parts.push(entry.red_threes + " red 3s");
      if (entry.went_out) parts.push("went out");
      if (entry.count !== undefined) parts.push("Count " + points(entry.count));
      else if (entry.cards) parts.push("Count by the grid");
      if (entry.reported_base !== undefined) parts.push("Base " + points(entry.reported_base));
      return name + " " + (parts.join(", ") || "nothing");
    }).join("; ");
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest(".delete-waiting, .discard-waiting, .reapply-waiting");
    if (!target) return;
    var id = target.dataset.item;
    var game = pageGame();
    if (target.classList.contains("reapply-waiting")) {
      rebase(game.id, id).then(syncAll).then(afterSync);
      return;
    }
    var question = target.classList.contains("discard-waiting")
      ? "Discard this hand? It was never saved on the server, and will be lost."
      : "Delete this hand? It is not yet synced, and will be lost.";
    if (!window.confirm(question)) return;
    getItem(id).then(function (item) {
      return deleteItem(id).then(function () {
        if (!item) return undefined;
        // The waiting hands after it move up one place.
        return queuedFor(item.gameId).then(function (items) {
          var later = items.filter(function (i) { return i.seq > item.seq && i.baseVersion === item.baseVersion; });
          later.forEach(function (i) { i.position -= 1; });
          return putItems(later);
        });
      });
    }).then(refresh);
  });

  // --- The hand form --------------------------------------------------------------------------
  // The form's entries as the API's hand body: the same reading as scorepad/forms.py (HandForm.hand_json).
  function wholeNumber(text) {
    text = (text || "").trim().replace(/\u2212/g, "-");
    if (!text) return { value: null };
    if (/^-?\d{1,3}([.,\s]\d{3})+$/.test(text)) text = text.replace(/[.,\s]/g, "");
    if (!/^-?\d+$/.test(text)) return { error: "Enter a whole number, like 3." };
    return { value: parseInt(text, 10) };
  }
  function signed(number, sign) { return sign === "-" && number > 0 ? -number : number; }
  var SET_APART = /^(special_hand|wild_canasta|has_melded|count_mode|count_sign|count|reported_base|reported_base_sign|melded_.*|in_hand_.*)$/;
  function readForm(form, doc, position) {
    var sides = [], problems = [];
    for (var s = 0; s < doc.sides.length; s++) {
      var prefix = "s" + s + "-";
      var values = {}, checked = {}, numbers = {};
      Array.prototype.forEach.call(form.elements, function (input) {
        if (!input.name || input.name.indexOf(prefix) !== 0) return;
        var name = input.name.slice(prefix.length);
        if (input.type === "checkbox") { checked[name] = input.checked; return; }
        if (input.type === "radio") { if (input.checked) values[name] = input.value; return; }
        values[name] = input.value;
      });
      var grid = !!checked.count_mode;
      function number(name, signedField) {
        if (numbers[name] !== undefined) return numbers[name];
        var read = wholeNumber(values[name]);
        if (read.error) problems.push({ field: "sides." + s + "." + name, id: prefix + name, message: read.error });
        else if (!signedField && read.value !== null && read.value < 0) {
          problems.push({ field: "sides." + s + "." + name, id: prefix + name, message: "Can't be less than 0." });
        }
        numbers[name] = read.error ? null : read.value;
        return numbers[name];
      }
      function countJson() {
        if (grid) {
          var cards = { melded: {}, in_hand: {} };
          Object.keys(values).forEach(function (name) {
            var match = /^(melded|in_hand)_(.+)$/.exec(name);
            if (match) { var n = number(name); if (n) cards[match[1]][match[2]] = n; }
          });
          return { cards: cards };
        }
        var count = number("count", true);
        return count === null ? {} : { count: signed(count, values.count_sign) };
      }
      var entry = {};
      if (values.special_hand) {
        entry = { special_hand: values.special_hand };
      } else {
        var reported = number("reported_base", true);
        if (reported !== null && reported !== undefined) {
          entry.reported_base = signed(reported, values.reported_base_sign);
        } else {
          Object.keys(values).forEach(function (name) {
            if (SET_APART.test(name)) return;
            var n = number(name);
            if (n) entry[name] = n;
          });
          Object.keys(checked).forEach(function (name) { if (!SET_APART.test(name) && checked[name]) entry[name] = true; });
          if (values.wild_canasta) entry.wild_canasta = values.wild_canasta;
          if (values.has_melded) entry.has_melded = values.has_melded === "yes";
        }
        Object.assign(entry, countJson());
      }
      sides.push(entry);
    }
    var cut = form.elements.namedItem("perfect_cut");
    if (cut && cut.checked) {
      var seats = doc.sides.length * doc.sides[0].players.length;
      var cutter = (((doc.first_dealer + position) % seats) - 1 + seats) % seats;
      sides[cutter % doc.sides.length].perfect_cut = true;
    }
    return { hand: { sides: sides }, problems: problems };
  }
  // Put a stored side entry back into the form: the same as SideForm.fill.
  function fillForm(form, doc, hand) {
    Array.prototype.forEach.call(form.elements, function (input) {
      if (!/^s\d+-/.test(input.name || "")) return;
      if (input.type === "checkbox") input.checked = false;
      else if (input.type === "radio") input.checked = input.value === "+";
      else if (input.tagName === "SELECT") input.value = "";
      else if (input.type !== "hidden") input.value = "";
    });
    var cut = form.elements.namedItem("perfect_cut");
    if (cut) cut.checked = hand.sides.some(function (e) { return e.perfect_cut; });
    function set(name, value) {
      var item = form.elements.namedItem(name);
      if (!item) return;
      var inputs = item instanceof RadioNodeList ? Array.prototype.slice.call(item) : [item];
      inputs.forEach(function (input) {
        if (input.type === "radio") input.checked = input.value === value;
        else if (input.type === "checkbox") input.checked = value === true || value === input.value;
        else input.value = value;
      });
    }
    hand.sides.forEach(function (entry, s) {
      var p = "s" + s + "-";
      Object.keys(entry).forEach(function (name) {
        var value = entry[name];
        if (name === "perfect_cut") return;
        if (name === "has_melded") set(p + name, value ? "yes" : "no");
        else if (name === "reported_base") { set(p + "reported_base_sign", value < 0 ? "-" : "+"); set(p + name, String(Math.abs(value))); }
        else if (name === "count") { set(p + "count_sign", value < 0 ? "-" : "+"); set(p + "count", String(Math.abs(value))); }
        else if (name === "cards") {
          set(p + "count_mode", true);
          ["melded", "in_hand"].forEach(function (where) {
            Object.keys(value[where] || {}).forEach(function (kind) { set(p + where + "_" + kind, String(value[where][kind])); });
          });
        } else set(p + name, typeof value === "boolean" ? value : String(value));
      });
    });
  }

  // A problem's field ("sides.1.red_threes") is the form's field "s1-red_threes" (forms.py field_for).
  function fieldId(field) {
    var parts = String(field || "").split(".");
    if (parts[0] !== "sides" || parts.length < 3) return null;
    if (parts[2] === "perfect_cut") return "perfect_cut";
    if (parts[2] === "cards") return parts.length === 5 ? "s" + parts[1] + "-" + parts[3] + "_" + parts[4] : "s" + parts[1] + "-count";
    return "s" + parts[1] + "-" + parts[2];
  }
  // quiet: while the scorekeeper types (the preview worked out on the phone), focus stays where it is.
  function showProblems(form, problems, quiet) {
    form.querySelectorAll(".field-error[id$='-error']").forEach(function (slot) { slot.textContent = ""; });
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
    var leftovers = [];
    problems.forEach(function (problem) {
      var fields = (problem.involves && problem.involves.length ? problem.involves : [problem.field]);
      var placed = false;
      fields.forEach(function (field) {
        var id = problem.id && fields.length === 1 ? problem.id : fieldId(field);
        var slot = id && document.getElementById(id + "-error");
        var input = id && document.getElementById(id);
        if (!slot || !input) return;
        if (slot.textContent.indexOf(problem.message) < 0) slot.textContent = (slot.textContent ? slot.textContent + " " : "") + problem.message;
        input.setAttribute("aria-invalid", "true");
        var more = slot.closest("details.more");
        if (more) more.open = true;
        placed = true;
      });
      if (!placed) leftovers.push(problem.message);
    });
    var top = document.getElementById("form-errors");
    if (top) {
      top.textContent = "";
      if (leftovers.length) {
        top.appendChild(el("ul", {}, leftovers.map(function (m) { return el("li", { text: m }); })));
      }
    }
    var preview = document.getElementById("preview");
    if (preview && problems.length) {
      preview.textContent = "";
      preview.appendChild(el("p", { class: "preview-problem", text: problems[0].message +
        (problems.length > 1 ? " (and " + (problems.length - 1) + " more, marked above)" : "") }));
    }
    var first = form.querySelector("[aria-invalid='true']");
    if (first && !quiet) first.focus();
  }

  function forgetDrafts(form) {
    var prefix = "scorepad-draft:" + form.getAttribute("action") + ":";
    try {
      Object.keys(localStorage).forEach(function (key) { if (key.indexOf(prefix) === 0) localStorage.removeItem(key); });
    } catch (e) { /* nothing kept */ }
  }

  var formMode = null;  // {editing: item} when the form edits a waiting hand, {queue: true} when hands already wait
  function waitingIdFromHash() {
    var match = /^#waiting=(.+)$/.exec(location.hash);
    return match ? decodeURIComponent(match[1]) : null;
  }
  // The form for the next hand knows the stored hands only: with hands waiting, it is for a later one.
  function handFormShowsPlace(game, items) {
    var form = document.querySelector("form.hand-form");
    if (!form || game.position === null) return undefined;
    var mine = items.filter(function (i) { return i.gameId === game.id; });
    var waitingId = waitingIdFromHash();
    var editing = waitingId && mine.find(function (i) { return i.id === waitingId; });
    var before = editing ? mine.slice(0, mine.indexOf(editing)) : mine;
    before = before.filter(function (i) { return i.state !== "conflict" || editing; });
    formMode = editing ? { editing: editing } : (mine.length ? { queue: true } : null);
    if (!mine.length) return undefined;
    return freshest(game).then(function (fresh) {
      var position = editing ? editing.position : fresh.doc.hands.length + before.length;
      var number = position + 1;
      var heading = document.querySelector(".hand-head h1");
      if (heading) heading.textContent = (editing ? "Edit hand " : "Hand ") + number + " (not yet synced)";
      var label = form.querySelector(".save-label");
      if (label) label.textContent = editing ? "Save changes" : "Save hand " + number;
      var R = rules();
      if (R) {
        var score = R.scoreGame(withHands(fresh.doc, before));
        var info = document.querySelector(".hand-info");
        if (info && score.next_dealer !== undefined) {
          info.textContent = "";
          info.append(playerOfSeat(fresh.doc, score.next_dealer) + " deals \u00b7 Minimum Count ");
          fresh.doc.sides.forEach(function (side, s) {
            info.append(side.name + " ", el("strong", { text: String(score.min_count[s]) }), s < fresh.doc.sides.length - 1 ? ", " : "");
          });
          info.append(" (not yet synced)");
        }
      }
      if (editing && !form.dataset.filled) {
        form.dataset.filled = "true";
        fillForm(form, fresh.doc, editing.hand);
        forgetDrafts(form);
        if (editing.errors && editing.errors.length) showProblems(form, editing.errors);
      }
    });
  }

  // Keep the hand on the phone: checked first, as the server would.
  function keepHand(form, game) {
    return Promise.all([freshest(game), queuedFor(game.id)]).then(function (found) {
      var fresh = found[0], mine = found[1];
      var editing = formMode && formMode.editing ? mine.find(function (i) { return i.id === formMode.editing.id; }) : null;
      var before = editing ? mine.slice(0, mine.indexOf(editing)) : mine;
      var position = editing ? editing.position : fresh.doc.hands.length + before.filter(function (i) { return i.state !== "conflict"; }).length;
      if (!editing && mine.length) {
        var last = mine[mine.length - 1];
        position = last.position + 1;
      }
      var read = readForm(form, fresh.doc, position);
      var problems = read.problems;
      var R = rules();
      if (!problems.length && R) {
        problems = R.checkHand(withHands(fresh.doc, before.filter(function (i) { return i.state !== "conflict"; })),
          read.hand, position) || [];
      }
      if (problems.length) { showProblems(form, problems); return false; }
      var item = editing || {
        id: newId(),
        gameId: game.id,
        seq: Date.now() + Math.random(),
        key: "offline-" + newId(),
        baseVersion: mine.length ? mine[mine.length - 1].baseVersion : fresh.version,
        position: position,
        createdAt: new Date().toISOString(),
      };
      item.hand = read.hand;
      item.updatedAt = new Date().toISOString();
      if (editing && editing.state === "conflict") {  // fixed: placed on the game as it is now
        return putItems([item]).then(function () { return rebase(game.id, item.id); }).then(function () { return true; });
      }
      item.state = "waiting";
      return putItems([item]).then(function () { return true; });
    }).then(function (kept) {
      if (!kept) return false;
      forgetDrafts(form);
      registerBackgroundSync();
      location.assign(game.showUrl);
      return true;
    });
  }

  // With hands already waiting (or a waiting hand open), Save keeps the hand in the queue behind them
  // at once: sent straight to the server it would be stored before them.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.hand-form") || !formMode) return;
    var submitter = event.submitter;
    if (submitter && submitter.getAttribute("formaction")) return;  // "Check the figures"
    var game = pageGame();
    if (!game) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    keepHand(form, game);
  }, true);

  // No answer to Save (no connection, or none in 4 s): the hand waits on the phone.
  function saveGotNoAnswer(event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.matches && elt.matches("form.hand-form") ? elt : null;
    if (!form) return;
    var game = pageGame();
    if (!game || game.position === null || form.dataset.editing === "true") return;
    state.lastTry = "offline";
    var status = document.getElementById("connection-status");
    keepHand(form, game).then(function (kept) {
      if (!status) return;
      status.textContent = kept
        ? "No connection: the hand is kept on this phone, not yet synced."
        : "No connection, and this hand can't be kept as it is: see the messages above. Your entries are still here.";
    });
  }
  document.addEventListener("htmx:sendError", saveGotNoAnswer);
  document.addEventListener("htmx:timeout", saveGotNoAnswer);
  // Save waits 4 s, not htmx's 15: then the hand is kept on the phone.
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.matches && elt.matches("form.hand-form")) event.detail.timeout = SAVE_TIMEOUT_MS;
    if (previewOf(elt)) event.detail.timeout = SAVE_TIMEOUT_MS;  // the live preview, likewise
  });

  // The live preview (templates/games/hand.html: a request to the server as the hand is typed) that gets
  // no answer: each side's Base and Count, and the bar's figures, are worked out on the phone from the
  // game as it carries it (with the hands waiting before this one) and the hand as typed; the rules'
  // problems go beside their fields, as the server's would.
  function previewOf(elt) {
    if (!elt || !elt.matches || elt.tagName === "FORM" || !elt.hasAttribute("hx-post")) return null;
    return elt.closest("form.hand-form");
  }
  function previewOnThePhone(form, game) {
    var R = rules();
    if (!R) return Promise.resolve();
    return Promise.all([freshest(game), queuedFor(game.id).catch(function () { return []; })]).then(function (found) {
      var fresh = found[0];
      var mine = found[1].filter(function (i) { return i.state !== "conflict"; });
      var editing = formMode && formMode.editing;
      if (!editing && game.position === null) return;  // a stored hand being changed: the server's to say
      var before = editing ? mine.filter(function (i) { return i.seq < editing.seq; }) : mine;
      var position = editing ? editing.position : fresh.doc.hands.length + before.length;
      var doc = withHands(fresh.doc, before);
      var read = readForm(form, doc, position);
      var blank = read.hand.sides.every(function (entry) { return !Object.keys(entry).length; });
      var problems = read.problems.length || blank ? read.problems : R.checkHand(doc, read.hand, position) || [];
      showProblems(form, problems, true);
      var sides = problems.length || blank ? null : R.scoreHand(doc, read.hand, position, R.scoreGame(doc).totals).sides;
      doc.sides.forEach(function (side, s) {
        var slot = document.getElementById("side-figures-" + s);
        if (!slot) return;
        slot.textContent = "";
        if (sides) {
          slot.append("Base ", el("span", { class: "base", text: points(sides[s].base) }), " \u00b7 Count ",
            el("span", { class: "count", text: points(sides[s].count) }));
        }
      });
      var preview = document.getElementById("preview");
      if (preview && sides) {
        preview.textContent = "";
        preview.appendChild(el("table", { class: "preview-table" }, [
          el("caption", { class: "visually-hidden", text: "This hand: each side's hand total and new total, not yet synced" }),
          el("tbody", {}, sides.map(function (figures, s) {
            return el("tr", { "data-side": String(s) }, [el("th", { scope: "row", text: doc.sides[s].name }),
              el("td", { class: "hand-total", text: points(figures.total) }),
              el("td", { class: "cumulative", text: points(figures.cumulative) })]);
          })),
        ]));
      }
      var status = document.getElementById("connection-status");
      if (status && !status.dataset.saving) {
        status.textContent = "No connection: these figures are worked out on this phone, not yet synced.";
      }
    });
  }
  function previewGotNoAnswer(event) {
    var form = previewOf(event.detail && event.detail.elt);
    var game = form && pageGame();
    if (game) previewOnThePhone(form, game);
  }
  document.addEventListener("htmx:sendError", previewGotNoAnswer);
  document.addEventListener("htmx:timeout", previewGotNoAnswer);

  // --- Games started with no connection (docs/architecture.md, "Games started offline") --------------
  // Start on the new-game page that gets no answer (the request fails, or nothing within 4 s) keeps the
  // game on the phone: the form's fields as entered, for the server to read with its own new-game form
  // when the connection returns (POST /sync/games, once: an Idempotency-Key drawn here), and a game
  // document for the provisional figures, from the rules the page was rendered with (#new-game-rules).
  // The game lives in store GAMES under a local id ("local-…"), its hands in the queue like any other
  // game's; its scoresheet is /offline/game#<local id>, a page kept on the phone that this script fills.
  var LOCAL = "local-";
  function isLocal(gameId) { return String(gameId).indexOf(LOCAL) === 0; }
  function localShellUrl(id) { return "/offline/game#" + encodeURIComponent(id); }
  function newGameRules() {
    var tag = document.getElementById("new-game-rules");
    if (!tag) return null;
    try { return JSON.parse(tag.textContent); } catch (e) { return null; }
  }
  // The form's fields as the browser would post them (Start's own, without a name, adds nothing).
  function formFields(form) {
    return new URLSearchParams(new FormData(form));
  }
  // The game document the form describes, as NewGameForm.document_json reads it: sides, players, first
  // dealer; the rules as the page shows them, or the chosen preset's when it was chosen offline (the
  // page could not fetch its values: the server fills them from the preset too, see startOffline).
  function newGameDocument(fields, data) {
    var players = fields.get("players") || "4";
    var sideCount = players === "6" ? 3 : 2, perSide = players === "2" ? 1 : 2;
    var sides = [], problems = [];
    for (var s = 0; s < sideCount; s++) {
      var side = { name: (fields.get("side" + s + "_name") || "").trim(), players: [] };
      if (!side.name) problems.push("Give side " + (s + 1) + " a name.");
      for (var p = 0; p < perSide; p++) {
        var name = (fields.get("player" + s + "_" + p) || "").trim();
        if (!name) problems.push("Give player " + (p + 1) + " of side " + (s + 1) + " a name.");
        side.players.push(name);
      }
      sides.push(side);
    }
    var preset = fields.get("preset") || data.rules_from;
    var samePreset = preset === data.rules_from && data.rules;
    var gameRules = JSON.parse(JSON.stringify(samePreset ? data.rules : data.presets[preset] || data.presets.modern));
    if (samePreset) {
      var target = wholeNumber(fields.get("target") || "");
      if (target.error || (target.value !== null && target.value < 5)) problems.push("Points to win: enter a whole number of 5 or more.");
      else if (target.value !== null) gameRules.target = target.value;
    }
    var dealer = parseInt(fields.get("first_dealer") || "0", 10);
    if (!(dealer >= 0 && dealer < sideCount * perSide)) dealer = 0;
    return { problems: problems, doc: { format: "scorepad-game", version: 1, rules: gameRules, sides: sides,
      first_dealer: dealer, hands: [] } };
  }
  function startOffline(form, data, key) {
    var fields = formFields(form);
    var made = newGameDocument(fields, data);
    var slot = document.getElementById("new-game-offline-error");
    if (made.problems.length) {
      if (slot) slot.textContent = "No connection, and the game can't start as it is: " + made.problems.join(" ") +
        " Your entries are still here.";
      return Promise.resolve(false);
    }
    if (fields.get("preset") !== data.rules_from) {
      // The table rules shown are another preset's: the server takes the chosen preset's, as offline here.
      Array.prototype.forEach.call(document.querySelectorAll("#game_rules [name]"), function (input) {
        if (input.name !== "rules_from" && input.name !== "set_from") fields.delete(input.name);
      });
    }
    var id = LOCAL + newId();
    var kept = { id: id, version: 0, doc: made.doc, seenAt: new Date().toISOString(),
      local: { key: key, fields: fields.toString(), createdAt: new Date().toISOString() } };
    return tx(GAMES, "readwrite", function (store) { store.put(kept); }).then(function () {
      registerBackgroundSync();
      location.assign(localShellUrl(id));
      return true;
    });
  }
  // Start: tried on the server first, with the same 4 s as Save; with no answer the game starts here.
  // The try carries the key the game will be sent with later: had the server started it after all
  // (the answer was only late), the game sent later is that one, never a second.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.new-game") || form.dataset.sendAsIs === "true") return;
    var submitter = event.submitter;
    if (submitter && submitter.name) return;  // a preset's values, or rules saved: the server's work
    var data = newGameRules();
    if (!data || !window.fetch) return;
    event.preventDefault();
    var key = "offline-game-" + newId();
    var body = formFields(form);
    body.set("offline_key", key);
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, SAVE_TIMEOUT_MS);
    fetch(form.getAttribute("action"), { method: "POST", credentials: "same-origin", body: body,
      signal: controller ? controller.signal : undefined }).then(function (response) {
      clearTimeout(timer);
      if (response.ok && response.redirected) { location.assign(response.url); return; }
      // The server answered with the page again (a problem to fix): sent as usual, to show it.
      form.dataset.sendAsIs = "true";
      if (form.requestSubmit) form.requestSubmit(submitter || undefined); else form.submit();
    }, function () {
      clearTimeout(timer);
      state.lastTry = "offline";
      startOffline(form, data, key);
    });
  }, true);

  function allKeptGames() {
    return tx(GAMES, "readonly", function (store, done) {
      var request = store.getAll();
      request.onsuccess = function () { done(request.result); };
    });
  }
  // Each game started here reaches the server once, before its hands: they then follow the real game.
  function createLocalGames() {
    return allKeptGames().then(function (games) {
      var waiting = games.filter(function (g) { return g.local && !g.local.created; });
      var offline = false;
      var created = games.filter(function (g) { return g.local && g.local.created; });
      return Promise.all(created.map(followTheGame)).then(function () { return waiting; }).then(function (waiting) {
        return waiting.reduce(function (chain, kept) {
        return chain.then(function () {
          if (offline) return undefined;
          return createLocalGame(kept).then(null, function () { offline = true; });
        });
      }, Promise.resolve()).then(function () { return offline; });
      });
    });
  }
  // The hands of a game started here follow it to its real id. Done again on every pass: a tab closed
  // between keeping the game as created and moving its hands must never strand them.
  function followTheGame(kept) {
    return queuedFor(kept.id).then(function (items) {
      if (!items.length) return undefined;
      items.forEach(function (item) { item.gameId = kept.local.created.id; item.baseVersion = kept.local.created.version; });
      return putItems(items);
    });
  }
  function createLocalGame(kept) {
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch("/sync/games", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": kept.local.key },
      body: kept.local.fields,
      signal: controller ? controller.signal : undefined,
    }).finally(function () { clearTimeout(timer); }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (body.outcome === "created" && body.id) {
          kept.local.created = { id: body.id, showUrl: body.show_url, version: body.version };
          delete kept.local.reason;
          return tx(GAMES, "readwrite", function (store) { store.put(kept); })
            .then(function () { return keepGame(body.game, body.version); })
            .then(function () { return followTheGame(kept); });
        }
        if (response.status >= 400 && response.status < 500) {  // refused: shown on its sheet, kept
          kept.local.reason = body.reason || "The server could not start this game (error " + response.status + ").";
          return tx(GAMES, "readwrite", function (store) { store.put(kept); });
        }
        return undefined;  // a server error: tried again later
      });
    });
  }

  // --- The scoresheet of a game started here: /offline/game#<local id> ------------------------------
  var HAND_FIELDS = [["red_threes", "Red 3s"], ["black_threes", "Black 3s"], ["natural_canastas", "Natural canastas"],
    ["mixed_canastas", "Mixed canastas"]];
  var localEditing = null;  // the waiting hand open in the form, if any
  function localGameId() {
    var match = /^#(local-.+)$/.exec(location.hash);
    return match ? decodeURIComponent(match[1]) : null;
  }
  function numberField(id, label, hint) {
    return el("div", { class: "field number" }, [
      el("label", { for: id, text: label }),
      el("input", { id: id, name: id, type: "text", inputmode: "numeric", autocomplete: "off", "aria-describedby": id + "-error" }),
      hint ? el("p", { class: "hint", text: hint }) : null,
      el("p", { class: "field-error", id: id + "-error" }),
    ]);
  }
  // The same markup as the hand form's (templates/_forms.html switch).
  function switchField(id, label, hint) {
    return el("div", { class: "field switch" }, [
      el("label", { for: id }, [
        el("input", { type: "checkbox", role: "switch", id: id, name: id, value: "y", "aria-describedby": id + "-error" }),
        el("span", { class: "switch-track", "aria-hidden": "true" }),
        el("span", { class: "switch-label" }, [document.createTextNode(label), hint ? el("small", { text: " " + hint }) : null]),
      ]),
      el("p", { class: "field-error", id: id + "-error" }),
    ]);
  }
  function selectField(id, label, options, className) {
    return el("div", { class: "field select" }, [
      el("label", { for: id, text: label }),
      el("select", { id: id, name: id, class: className || "", "aria-describedby": id + "-error" }, options.map(function (o) {
        return el("option", { value: o[0], text: o[1] });
      })),
      el("p", { class: "field-error", id: id + "-error" }),
    ]);
  }
  // The entries under "More", as on the hand form (scorepad/forms.py RARE_ENTRIES; the paper way's reported
  // Base is left to the hand form online), each only where the game's rules give it a value: an entry worth
  // 0 is not offered (rules.Rules.has, mirrored by ScorepadRules.hasEntry). Labels and hints as forms.py's.
  var RARE_ENTRIES = ["special_hand", "sevens_canasta", "aces_canasta", "wild_canasta", "incomplete_sevens",
    "incomplete_aces", "incomplete_wild", "dirty_sevens", "dirty_aces", "threes_in_hand", "last_draw_three", "concealed",
    "has_melded", "red_threes_in_hand", "failed_go_out_asks", "failed_pile_takes"];
  var WORTH = { sevens_canasta: 1, aces_canasta: 1, concealed: [1, "going_out_concealed"], incomplete_sevens: -1,
    incomplete_aces: -1, incomplete_wild: -1, dirty_sevens: -1, dirty_aces: -1, threes_in_hand: [-1, "three_in_hand"],
    red_threes_in_hand: [-1, "red_three_in_hand"], failed_go_out_asks: [-1, "failed_go_out_ask"],
    failed_pile_takes: [-1, "failed_pile_take"] };
  function hintOf(doc, name, kind) {  // forms.py HandForm.hint: "(+2,500)", "(−1,500 each)"
    var worth = WORTH[name];
    if (!worth) return "";
    var value = (Array.isArray(worth) ? worth[0] : worth) * (doc.rules.values[Array.isArray(worth) ? worth[1] : name] || 0);
    if (!value) return "";
    return "(" + (value > 0 ? "+" : MINUS) + points(Math.abs(value)) + (kind === "i" ? " each" : "") + ")";
  }
  function moreEntries(doc, s, R) {
    var p = "s" + s + "-", labels = R.tables.fields, values = doc.rules.values;
    var fields = RARE_ENTRIES.filter(function (name) { return R.hasEntry(doc, name); }).map(function (name) {
      var kind = R.entryKind(name), hint = hintOf(doc, name, kind);
      if (name === "special_hand") {
        return selectField(p + name, labels[name], [["", "None"]].concat(Object.keys(doc.rules.special_hands).map(function (key) {
          return [key, (R.tables.specialHands[key] || key) + " (" + points(doc.rules.special_hands[key]) + ")"];
        })), "special-hand-choice");
      }
      if (name === "wild_canasta") {
        return selectField(p + name, labels[name], [["", "None"]].concat(Object.keys(R.tables.wild).filter(function (wild) {
          return values["wild_canasta_" + wild] > 0;
        }).map(function (wild) { return [wild, R.tables.wild[wild] + " (" + points(values["wild_canasta_" + wild]) + ")"]; })));
      }
      if (name === "has_melded") {
        return selectField(p + name, labels[name], [["", "Judge from the count"], ["yes", "Yes"], ["no", "No"]]);
      }
      if (kind === "b") return switchField(p + name, labels[name], hint);
      return numberField(p + name, labels[name] + (hint ? " " + hint : ""));
    });
    if (!fields.length) return null;
    return el("details", { class: "more" }, [
      el("summary", {}, [el("span", { class: "more-label", text: "More for " + doc.sides[s].name }),
        document.createTextNode(" "), el("span", { class: "more-summary", id: "more-summary-" + s })]),
    ].concat(fields));
  }
  // What is set under a side's "More", in words beside it (forms.py HandForm.summary): nothing set is out of sight.
  function summarizeMore(form) {
    form.querySelectorAll("details.more").forEach(function (more) {
      var said = [];
      more.querySelectorAll("input, select").forEach(function (input) {
        var label = more.querySelector("label[for='" + input.id + "']");
        var name = label ? (label.querySelector(".switch-label") || label).firstChild.textContent.trim() : input.name;
        if (input.type === "checkbox") { if (input.checked) said.push(name); }
        else if (input.tagName === "SELECT") {
          var chosen = input.selectedOptions[0].text;
          if (input.value) said.push(/has_melded$/.test(input.name) ? name + ": " + chosen : chosen);
        } else if (input.value.trim() && input.value.trim() !== "0") {
          said.push(name.replace(/ \(.*\)$/, "") + ": " + input.value.trim());
        }
      });
      var summary = more.querySelector(".more-summary");
      if (summary) summary.textContent = said.join(" \u00b7 ");
    });
  }
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form.offline-hand-form");
    if (form) summarizeMore(form);
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form.offline-hand-form");
    if (form) summarizeMore(form);
  });
  function sidePanel(doc, s, R) {
    var p = "s" + s + "-";
    var panel = el("fieldset", { class: "card side-panel", "data-side": String(s) }, [el("legend", { text: doc.sides[s].name })]);
    HAND_FIELDS.forEach(function (field) { panel.appendChild(numberField(p + field[0], field[1])); });
    panel.appendChild(switchField(p + "went_out", "Went out"));
    function sign(value, name) {
      var attrs = { type: "radio", name: p + "count_sign", value: value, "aria-label": name };
      if (value === "+") attrs.checked = "checked";
      return el("label", {}, [el("input", attrs), el("span", { "aria-hidden": "true", text: value === "+" ? "+" : MINUS })]);
    }
    panel.appendChild(el("div", { class: "count-number" }, [
      el("label", { for: p + "count", text: "Count" }),
      el("div", { class: "count-entry" }, [
        el("div", { class: "segmented sign", role: "radiogroup", "aria-label": doc.sides[s].name + ": plus or minus" },
          [sign("+", "plus"), sign("-", "minus")]),
        el("input", { id: p + "count", name: p + "count", type: "text", inputmode: "numeric", autocomplete: "off",
          class: "digits", placeholder: "0", "aria-describedby": p + "count-error" }),
      ]),
      el("p", { class: "field-error", id: p + "count-error" }),
    ]));
    var more = moreEntries(doc, s, R);
    if (more) panel.appendChild(more);
    return panel;
  }
  function showLocalGame() {
    var root = document.getElementById("offline-game");
    if (!root) return Promise.resolve();
    var id = localGameId();
    var problem = root.querySelector(".offline-game-problem");
    var form = root.querySelector("form.offline-hand-form");
    return Promise.all([id ? keptGame(id) : null, id ? queuedFor(id) : []]).then(function (found) {
      var kept = found[0], items = found[1];
      if (!kept || !kept.local) {
        problem.textContent = "This game is not on this phone. If it reached the server, it is under All games.";
        problem.hidden = false;
        return;
      }
      if (kept.local.created) { location.replace(kept.local.created.showUrl); return; }
      var doc = kept.doc;
      var title = doc.sides.map(function (side) { return side.name; }).join(" v ");
      root.querySelector("h1").textContent = title;
      document.title = title + " \u00b7 Scorepad";
      problem.hidden = !kept.local.reason;
      problem.textContent = kept.local.reason ? "The server could not start this game: " + kept.local.reason : "";
      var R = rules();
      if (!R) {
        problem.textContent = "The scoring rules are not on this phone yet: hands can't be entered offline.";
        problem.hidden = false;
        return;
      }
      var full = withHands(doc, items);
      var score = R.scoreGame(full);
      var finished = score.status === "finished";
      var sheet = document.getElementById("scoresheet");
      sheet.textContent = "";
      var cards = el("div", { class: "totals side-count-" + doc.sides.length }, doc.sides.map(function (side, s) {
        return el("div", { class: "total-card" + (finished && score.winners && score.winners.indexOf(s) >= 0 ? " is-winner" : ""), "data-side": String(s) }, [
          el("h2", { class: "side-name", text: side.name }),
          el("p", { class: "side-players", text: side.players.join(" & ") }),
          el("p", { class: "big-total" }, [el("span", { class: "visually-hidden", text: "Total " }), el("span", { class: "total-figure", text: points(score.totals[s]) })]),
          finished ? null : el("p", { class: "min-count" }, [document.createTextNode("Minimum Count "), el("strong", { class: "min-count-figure", text: String(score.min_count[s]) })]),
        ]);
      }));
      var section = el("section", { class: "standings provisional", "aria-label": "Standings" }, [cards]);
      if (finished && score.winner !== null && score.winner !== undefined) {
        section.prepend(el("p", { class: "winner", role: "status" }, [el("strong", { text: doc.sides[score.winner].name + " won" }), document.createTextNode(" "), mark()]));
      } else if (!finished) {
        section.appendChild(el("p", { class: "next-deal" }, [document.createTextNode("Hand " + (items.length + 1) + ": "),
          el("strong", { text: playerOfSeat(doc, score.next_dealer) }), document.createTextNode(" deals \u00b7 playing to " + points(full.rules.target))]));
      }
      section.appendChild(el("p", { class: "provisional-note", role: "status", text: items.length
        ? "Figures with " + plural(items.length, "hand", "hands") + " not yet synced: provisional until the server has them."
        : "No hands yet." }));
      sheet.appendChild(section);
      if (items.length) {
        var threeSides = doc.sides.length === 3;
        var table = emptyTable(full, threeSides);
        items.forEach(function (item, n) {
          var row = waitingRow(full, score.hands[n], n, item, threeSides, { editable: false });
          var place = row.querySelector("th");
          function hidden() { return el("span", { class: "visually-hidden", text: " hand " + (n + 1) }); }
          place.appendChild(el("button", { type: "button", class: "link row-action edit-local", "data-item": item.id },
            [document.createTextNode("Edit"), hidden()]));
          place.appendChild(el("button", { type: "button", class: "link row-action danger delete-waiting", "data-item": item.id },
            [document.createTextNode("Delete"), hidden()]));
          if (threeSides) table.appendChild(row); else table.querySelector("tbody").appendChild(row);
        });
        sheet.appendChild(table);
      }
      // The form for the next hand (or the waiting hand being changed).
      var panels = form.querySelector(".offline-hand-sides");
      if (!panels.children.length) {
        doc.sides.forEach(function (side, s) { panels.appendChild(sidePanel(doc, s, R)); });
        // The perfect cut is the whole hand's, credited to the cutter's side (readForm), as on the hand form.
        if (R.hasEntry(doc, "perfect_cut")) {
          panels.after(switchField("perfect_cut", "Perfect cut", "(+" + points(doc.rules.values.perfect_cut) + ", exactly 52 cards)"));
        }
      }
      var editing = localEditing && items.find(function (i) { return i.id === localEditing; });
      var number = editing ? editing.position + 1 : items.length + 1;
      var cut = form.querySelector("#perfect_cut + .switch-track + .switch-label small");
      if (cut) {
        var seats = doc.sides.length * doc.sides[0].players.length;
        var cutter = (((doc.first_dealer + number - 1) % seats) - 1 + seats) % seats;
        cut.textContent = " (+" + points(doc.rules.values.perfect_cut) + ", exactly 52 cards: " + playerOfSeat(doc, cutter) + " cut)";
      }
      summarizeMore(form);
      form.hidden = finished && !editing;
      form.querySelector(".offline-hand-heading").textContent = editing ? "Edit hand " + number + " (not yet synced)" : "Hand " + number;
      form.querySelector(".save-offline-hand").textContent = editing ? "Save changes" : "Save hand " + number;
      form.querySelector(".cancel-edit").hidden = !editing;
    });
  }
  // The home page lists them: a game started here can be found again before it reaches the server.
  function listLocalGames() {
    var section = document.getElementById("started-offline");
    if (!section) return Promise.resolve();
    return Promise.all([allKeptGames(), allQueued()]).then(function (found) {
      var games = found[0].filter(function (g) { return g.local && !g.local.created; });
      var list = section.querySelector("ul");
      list.textContent = "";
      games.forEach(function (kept) {
        var hands = found[1].filter(function (i) { return i.gameId === kept.id; }).length;
        list.appendChild(el("li", {}, [el("a", { href: localShellUrl(kept.id),
          text: kept.doc.sides.map(function (side) { return side.name; }).join(" v ") }),
          document.createTextNode(" · " + plural(hands, "hand", "hands") + ", not yet synced")]));
      });
      section.hidden = !games.length;
    });
  }
  function keepLocalHand(form) {
    var id = localGameId();
    return Promise.all([keptGame(id), queuedFor(id)]).then(function (found) {
      var kept = found[0], mine = found[1];
      if (!kept) return false;
      var editing = localEditing ? mine.find(function (i) { return i.id === localEditing; }) : null;
      var before = editing ? mine.slice(0, mine.indexOf(editing)) : mine;
      var position = editing ? editing.position : mine.length;
      var read = readForm(form, kept.doc, position);
      var problems = read.problems;
      var R = rules();
      if (!problems.length && R) problems = R.checkHand(withHands(kept.doc, before), read.hand, position) || [];
      if (problems.length) { showProblems(form, problems); return false; }
      var item = editing || { id: newId(), gameId: id, seq: Date.now() + Math.random(), key: "offline-" + newId(),
        baseVersion: 0, position: position, createdAt: new Date().toISOString() };
      item.hand = read.hand;
      item.state = "waiting";
      item.updatedAt = new Date().toISOString();
      return putItems([item]).then(function () { return true; });
    }).then(function (kept) {
      if (!kept) return;
      localEditing = null;
      form.reset();
      showProblems(form, []);
      registerBackgroundSync();
      syncAll();  // the connection may be back: the game goes to the server, then its sheet opens
      window.scrollTo(0, 0);
    });
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.offline-hand-form")) return;
    event.preventDefault();
    keepLocalHand(form);
  });
  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest(".edit-local, .cancel-offline-edit");
    if (!target) return;
    var form = document.querySelector("form.offline-hand-form");
    if (target.classList.contains("cancel-offline-edit")) {
      localEditing = null;
      form.reset();
      showProblems(form, []);
      showLocalGame();
      return;
    }
    getItem(target.dataset.item).then(function (item) {
      if (!item) return;
      localEditing = item.id;
      return keptGame(item.gameId).then(function (kept) {
        fillForm(form, kept.doc, item.hand);
        return showLocalGame();
      }).then(function () { form.scrollIntoView(); });
    });
  });

  // --- Background Sync, when the browser has it (never the only way) ------------------------------
  function registerBackgroundSync() {
    if (!navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("scorepad-sync");
      return undefined;
    }).catch(function () {});
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.sync) syncAll().then(afterSync);
    });
  }

  // --- When to send --------------------------------------------------------------------------
  // After a sync the server's figures replace the provisional ones: the scoresheet is loaded again.
  function afterSync(appliedAny) {
    var game = pageGame();
    var onSheet = game && !document.querySelector("form.hand-form") && touched[game.id];
    if (onSheet && (appliedAny || document.documentElement.dataset.served === "copy")) {
      location.reload();
    }
    return appliedAny;
  }
  function start() {
    var game = pageGame();
    if (game && document.documentElement.dataset.served !== "copy") {
      keepGame(game.doc, game.version).catch(function () {});
      // Keep this game's hand form and rules page on the phone too, for a hand entered offline.
      var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (worker && !document.querySelector("form.hand-form")) {
        [game.handUrl, game.rulesUrl].forEach(function (path) { if (path) worker.postMessage({ keep: path }); });
      }
    }
    refresh().then(syncAll).then(afterSync);
    setInterval(function () {
      if (state.waiting) syncAll().then(afterSync);
    }, RETRY_EVERY_MS);
  }
  window.addEventListener("online", function () { syncAll().then(afterSync); });
  window.addEventListener("offline", function () { state.lastTry = "offline"; say(); });
  window.addEventListener("hashchange", function () { if (document.querySelector("form.hand-form")) location.reload(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();

  window.ScorepadOffline = { syncNow: function () { return syncAll().then(afterSync); } };
})();
