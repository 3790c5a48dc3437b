// Scorepad's own script, built into static/js/scorepad.min.js (scripts/build_js.mjs, docs/architecture.md): quicker
// input on a phone, and the offline queue. Every page works without it. Each module registers its own listeners when
// it is evaluated; the bundle evaluates them in the order of these imports (their own imports first).
import "./rules.js";  // the rules in the browser (and window.ScorepadRules for the tests)
import "./inputs.js";  // steppers, digits only, the hand form's bar
import "./shell.js";  // the scorekeeper's link, printing, the service worker
import "./handpage.js";  // the hand page: drafts, Save, figures on the phone, a hand kept on the phone
import "./sheet.js";  // the scoresheet's waiting hands and conflicts
import "./localgame.js";  // a game started on this phone
import "./newgame.js";  // the new-game page, and Start with no connection
import "./wakelock.js";  // the screen kept on while the scorekeeper's pages are open
import "./share.js";  // Share: the scoreboard link and room code
import { on } from "./dom.js";
import { start } from "./sync.js";  // sending what waits on the phone

// Last, once every module is ready: the first pass of the queue (what it shows waits for the page's words: words.js).
if (document.readyState === "loading") on("DOMContentLoaded", start);
else start();
