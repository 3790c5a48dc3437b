// Scorepad's own script: quicker input on a phone. Every page works without it.
(function () {
  "use strict";

  // Steppers: the - and + buttons beside a number change it by one, within its data-min and
  // data-max, and fire "input" so the live preview follows.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.step");
    if (!button) return;
    var input = document.getElementById(button.dataset.for);
    if (!input) return;
    var value = parseInt(input.value, 10);
    if (isNaN(value)) value = 0;
    value += parseInt(button.dataset.step, 10);
    var min = input.dataset.min === undefined ? -Infinity : parseInt(input.dataset.min, 10);
    var max = input.dataset.max === undefined ? Infinity : parseInt(input.dataset.max, 10);
    input.value = Math.min(max, Math.max(min, value));
    input.dispatchEvent(new Event("input", { bubbles: true }));
    keepAboveTheBar(button);
  });

  // Number fields take digits only (a Count may also start with a minus sign). Anything else is
  // refused where it was typed, and said in that field's own message slot; the server refuses it
  // too, for a phone without this script.
  function sayAtField(input, message) {
    var slot = document.getElementById(input.id + "-error");
    if (!slot) return;
    input.dataset.refused = message;  // kept until the field takes a keystroke, across live previews
    slot.textContent = message;
    input.setAttribute("aria-invalid", "true");
  }
  document.addEventListener("input", function (event) {
    if (event.target.dataset) delete event.target.dataset.refused;
  });
  document.addEventListener("beforeinput", function (event) {
    var input = event.target;
    if (!input.classList || !input.classList.contains("digits") || event.data === null) return;
    var allowed = input.dataset.sign ? /^[-\u2212]?[0-9]*$/ : /^[0-9]*$/;
    var start = input.selectionStart === null ? input.value.length : input.selectionStart;
    var end = input.selectionEnd === null ? input.value.length : input.selectionEnd;
    var after = input.value.slice(0, start) + event.data + input.value.slice(end);
    if (allowed.test(after)) return;
    event.preventDefault();
    sayAtField(input, "Digits only here: \u201c" + event.data + "\u201d can't be part of a number." +
      (input.dataset.sign ? " For a minus Count, tap \u2212." : ""));
  });

  // The bar at the bottom of the hand form never covers what is being tapped or typed: a control
  // that lands under it (focus, a stepper's tap, the keyboard opening) is scrolled up above it.
  function keepAboveTheBar(element) {
    var bar = document.querySelector(".entry-bar");
    if (!bar || !element || !element.closest || !element.closest("form.hand-form") || bar.contains(element)) return;
    var box = element.getBoundingClientRect();
    var barTop = bar.getBoundingClientRect().top;
    if (box.bottom > barTop - 8) window.scrollBy(0, box.bottom - barTop + 16);
  }
  document.addEventListener("focusin", function (event) { keepAboveTheBar(event.target); });
  window.addEventListener("resize", function () { keepAboveTheBar(document.activeElement); });

  // New game: the first-dealer list names the players as they are typed, without a trip to the
  // server that could replace the list under the scorekeeper's finger.
  document.addEventListener("input", function (event) {
    var form = event.target.closest("form.new-game");
    if (!form || !/^(side\d_name|player\d_\d)$/.test(event.target.name)) return;
    var labels = [];
    form.querySelectorAll("select.seat-names option").forEach(function (option) {
      var side = option.dataset.side, player = option.dataset.player;
      var playerName = (form.elements["player" + side + "_" + player].value || "").trim() ||
        "Player " + (+player + 1) + " of side " + (+side + 1);
      var sideName = (form.elements["side" + side + "_name"].value || "").trim() || "Side " + (+side + 1);
      option.textContent = playerName + " (" + sideName + ")";
      labels.push(option.textContent);
    });
    var order = document.getElementById("seat-order");
    if (order) order.textContent = labels.join(", ");
  });

  // The scorekeeper's link: the phone's share sheet where there is one, else the clipboard.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.share-link");
    if (!button) return;
    var link = button.dataset.link;
    function selectIt() {  // no share sheet or clipboard (plain http): select the link to copy by hand
      var field = document.getElementById("scorekeeper-link");
      field.focus();
      field.select();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
      button.textContent = copied ? "Link copied" : "Link selected: copy it from the box above";
    }
    if (navigator.share) {
      navigator.share({ title: "Scorepad: keep score", url: link }).catch(function () {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(link).then(function () { button.textContent = "Link copied"; }, selectIt);
    } else {
      selectIt();
    }
  });

  // The scorekeeper's link carries its key after "#" (/games/<id>#key=…): a browser never sends that part to
  // a server, so the key stays out of addresses in logs and caches. Here it is handed over by POST, taken out
  // of the address (and so out of the history), and the page reloads with this phone's rights. Without this
  // script the scoresheet offers a box to paste the link into instead. The link may also be opened on the
  // scoresheet already showing, where only the part after "#" changes and the page does not load again.
  function claimKeyInAddress() {
    var found = /^#key=([A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!found) return;
    var clean = location.pathname + location.search;
    var form = document.querySelector("form.claim-key");
    if (!form) {  // this phone keeps score already: nothing to claim
      history.replaceState(history.state, "", clean);
      return;
    }
    var body = new URLSearchParams();
    body.set("key", found[1]);
    fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin", redirect: "manual" })
      .then(function () {
        history.replaceState(history.state, "", clean);
        location.reload();
      }, function () {
        // No answer: the key stays in the address, so reloading once the Wi-Fi is back tries again.
        var slot = document.getElementById("offline-banner");
        if (slot) {
          slot.textContent = "No connection: this phone couldn't take over the scoresheet. Reload when the Wi-Fi is back.";
          slot.hidden = false;
        }
      });
  }
  document.addEventListener("DOMContentLoaded", claimKeyInAddress);
  window.addEventListener("hashchange", claimKeyInAddress);

  // Print the scoresheet: the print stylesheet leaves only the paper grid.
  document.addEventListener("click", function (event) {
    if (event.target.closest("button.print-page")) window.print();
  });

  // A hand being typed is kept on the phone until it is saved or cancelled: a reload, a
  // pull-to-refresh or the browser dropping the tab does not lose it. The key carries the game's
  // version, so a draft never lands on a game that changed since.
  var DRAFT_PREFIX = "scorepad-draft:";
  function draftKey(form) {
    return DRAFT_PREFIX + form.getAttribute("action") + ":" + form.elements.version.value;
  }
  function forgetDrafts(action) {  // every draft of the form that posts to `action`
    try {
      Object.keys(localStorage).forEach(function (key) {
        if (key.indexOf(DRAFT_PREFIX + action + ":") === 0) localStorage.removeItem(key);
      });
    } catch (e) { /* storage unavailable: nothing kept, nothing to forget */ }
  }
  function keepDraft(form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "version") return;
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked) values.push([el.name, el.value]);
      } else if (el.tagName !== "BUTTON") {
        values.push([el.name, el.value]);
      }
    });
    try { localStorage.setItem(draftKey(form), JSON.stringify(values)); } catch (e) { /* full or private */ }
  }
  function restoreDraft(form) {
    var saved;
    try { saved = JSON.parse(localStorage.getItem(draftKey(form)) || "null"); } catch (e) { saved = null; }
    if (!Array.isArray(saved)) return;
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "checkbox") el.checked = false;
    });
    saved.forEach(function (pair) {
      var item = Array.isArray(pair) && form.elements.namedItem(pair[0]);
      if (!item) return;
      var elements = item instanceof RadioNodeList ? Array.prototype.slice.call(item) : [item];
      elements.forEach(function (el) {
        if (el.type === "checkbox" || el.type === "radio") { if (el.value === pair[1]) el.checked = true; }
        else el.value = pair[1];
      });
    });
    var note = document.getElementById("draft-note");
    if (note) note.hidden = false;
    var first = form.querySelector("input:not([type=hidden])");
    if (first) first.dispatchEvent(new Event("change", { bubbles: true }));  // refresh the figures
  }
  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.hand-form");
    if (!form) return;
    openedWith = entriesOf(form);
    restoreDraft(form);
  });
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.closest && event.target.closest("form.hand-form");
      if (form) keepDraft(form);
    });
  });
  // An offer that lasts a few seconds (Undo after a save) goes away by itself.
  function hideLater(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-hide-after]").forEach(function (el) {
      setTimeout(function () { el.remove(); }, parseInt(el.dataset.hideAfter, 10));
    });
  }
  document.addEventListener("DOMContentLoaded", function () { hideLater(document); });
  document.addEventListener("htmx:load", function (event) { hideLater(event.detail.elt); });

  // Cancel throws away what was typed: when anything was, it asks first.
  var openedWith = null;  // the form's entries as the page opened it
  function entriesOf(form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "version" || el.tagName === "BUTTON") return;
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      values.push(el.name + "=" + el.value);
    });
    return values.join("&");
  }
  document.addEventListener("click", function (event) {
    var cancel = event.target.closest("a.cancel-hand");
    var form = document.querySelector("form.hand-form");
    if (!cancel || !form) return;
    if (entriesOf(form) !== openedWith &&
        !window.confirm("Leave this hand without saving? What you typed will be lost.")) {
      event.preventDefault();
      return;
    }
    forgetDrafts(form.getAttribute("action"));
  });
  // A save answered with the next page: its drafts are done with. (When the answer replaces the
  // page, htmx reports it from <body>, the form being gone: hence the action remembered here.)
  var savingAction = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.matches && elt.matches("form.hand-form")) savingAction = elt.getAttribute("action");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (savingAction === null || event.detail.elt.closest && event.detail.elt.closest("[hx-post]:not(form)")) return;
    if (event.detail.successful) forgetDrafts(savingAction);
    savingAction = null;
  });
  // A form that came back (refused, or the game changed meanwhile) may carry a new version:
  // its entries are the draft now.
  document.addEventListener("htmx:afterSettle", function () {
    var form = document.querySelector("form.hand-form");
    if (!form) return;
    forgetDrafts(form.getAttribute("action"));
    keepDraft(form);
  });

  // After the live preview, mark in red exactly the inputs whose error slot holds a message
  // (the preview swaps only the messages, so the typing field keeps its focus), and open a side's
  // "More" when a problem is in it, so that no problem is out of sight.
  document.addEventListener("htmx:afterSettle", function () {
    document.querySelectorAll(".field-error[id$='-error']").forEach(function (slot) {
      var input = document.querySelector("[aria-describedby='" + slot.id + "']");
      if (!input) return;
      if (!slot.textContent.trim() && input.dataset.refused) slot.textContent = input.dataset.refused;
      var problem = slot.textContent.trim() !== "";
      if (problem) input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
      var more = slot.closest("details.more");
      if (problem && more) more.open = true;
    });
  });

  // Once Save is tapped, no live preview may follow it (the blur that comes with the tap fires
  // one): it would land on the next page. A failed save lets previews run again.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.matches && elt.matches("form.hand-form")) {
      elt.dataset.saving = "true";
      var preview = elt.querySelector("[hx-post]");
      if (preview) htmx.trigger(preview, "htmx:abort");
    } else if (elt.closest && elt.closest("form.hand-form[data-saving]")) {
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (elt.matches && elt.matches("form.hand-form")) delete elt.dataset.saving;
  });

  // No connection (or no answer in time): the hand form stays exactly as typed, and says why.
  function connectionLost(event) {
    var status = document.getElementById("connection-status");
    if (!status) return;
    var saving = event.detail && event.detail.elt && event.detail.elt.tagName === "FORM";
    if (saving) {
      status.textContent = "No connection: the hand may not have been saved. Your entries are still here; " +
        "tap Save again when the Wi-Fi is back (a hand is never stored twice).";
      status.dataset.saving = "true";
    } else if (!status.dataset.saving) {  // never hide that a save failed
      status.textContent = "No connection: the figures above may be out of date.";
    }
  }
  document.addEventListener("htmx:sendError", connectionLost);
  document.addEventListener("htmx:timeout", connectionLost);
  document.addEventListener("htmx:afterRequest", function (event) {
    var status = document.getElementById("connection-status");
    if (!status || !event.detail.xhr || event.detail.xhr.status === 0) return;  // no answer at all
    var code = event.detail.xhr.status;
    var saving = event.detail.elt.tagName === "FORM";
    var refused = !event.detail.successful && code !== 409 && code !== 422;  // an answer not swapped in
    var advice = code === 403 || code === 404
      ? " Open the scoresheet again from the home page."
      : " Try again in a moment.";
    if (saving && refused) {
      status.textContent = "The server could not save the hand (error " + code + "). Your entries are still here." + advice;
      status.dataset.saving = "true";
    } else if (refused && !status.dataset.saving) {
      status.textContent = "The figures could not be worked out (error " + code + ")." + advice;
    } else if (saving || !status.dataset.saving) {  // only the form's own answer clears a failed save
      status.textContent = "";
      delete status.dataset.saving;
    }
  });

  // "No connection: figures as of 20:14" when the figures on screen may be old. The service worker
  // is the one that knows: it marks a page it answered with the copy kept on the phone, whether there
  // was no connection or no answer in time (data-served="copy", see sw.js). navigator.onLine cannot
  // be trusted for this: a phone on dead Wi-Fi still believes it is online and may never fire
  // "offline", and on slow Wi-Fi it is online. The time is the server's, from when it made the page.
  var page = document.documentElement;
  var figuresAsOf = new Date(page.dataset.renderedAt);  // Invalid Date on a page without figures
  var fromCopy = page.dataset.served === "copy";
  function twoDigits(number) { return (number < 10 ? "0" : "") + number; }
  function clockTime(date) {  // HH:MM on the phone's clock, and the day too when it is not today
    var time = twoDigits(date.getHours()) + ":" + twoDigits(date.getMinutes());
    var now = new Date();
    if (date.toDateString() === now.toDateString()) return time;
    var day = { day: "numeric", month: "short" };
    if (date.getFullYear() !== now.getFullYear()) day.year = "numeric";
    return date.toLocaleDateString(page.lang || undefined, day) + ", " + time;
  }
  function showNoConnection() {
    var banner = document.getElementById("offline-banner");
    if (!banner || isNaN(figuresAsOf)) return;  // the offline page says so itself
    banner.textContent = "No connection: figures as of " + clockTime(figuresAsOf);
    banner.hidden = false;
  }
  function hideNoConnection() {
    var banner = document.getElementById("offline-banner");
    if (banner) banner.hidden = true;
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (fromCopy) showNoConnection();
  });
  // The server answered (the scoreboard refreshing itself, say): what it sent is current.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    fromCopy = false;
    figuresAsOf = new Date();
    hideNoConnection();
  });
  // Extra hints, never the only source: a request that got no answer, and the phone's own idea of
  // its connection. "online" proves nothing about the server, so it never hides a copy's banner.
  document.addEventListener("htmx:sendError", showNoConnection);
  document.addEventListener("htmx:timeout", showNoConnection);
  window.addEventListener("offline", showNoConnection);
  window.addEventListener("online", function () {
    if (!fromCopy) hideNoConnection();
  });

  // A page shown through htmx (a saved hand) was never seen by the service worker: ask it to keep it.
  document.addEventListener("htmx:pushedIntoHistory", function (event) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ keep: event.detail.path });
  });

  // The service worker keeps the app and the last-seen scoresheets readable with bad Wi-Fi.
  if ("serviceWorker" in navigator) {
    var script = document.currentScript;
    var url = script && script.dataset.sw;
    if (url) {
      window.addEventListener("load", function () {
        navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {});
      });
    }
  }
})();
