// Build the scripts the app serves from their readable sources in assets/js/ (`npm run build`; docs/architecture.md).
//
//   static/js/scorepad.min.js  assets/js/main.js and the ES modules it imports (rules.js, the offline queue, the
//                              sheet, the hand form, the new-game page...), bundled by esbuild into one classic
//                              script (an IIFE: one function scope, so the templates load it as before), then
//                              minified by terser, which shortens every name in that scope. Loaded with defer.
//   static/js/early.min.js     early.js alone, minified: it runs in <head>, before the page is drawn.
//
// Why both: esbuild is the usual bundler for ES modules (maintained, fast, no configuration beyond the options
// below); terser's passes make the bundle 0.5 KB smaller under brotli than esbuild's own minifier, and the budget
// for all our scripts is tight. The output directory defaults to static/js; tests/test_built_scripts.py builds into
// a temporary one and compares. Same sources + same esbuild and terser (the exact versions in package.json) = the
// same bytes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { minify } from "terser";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] || join(root, "static", "js");
const source = (name) => readFileSync(join(root, "assets", "js", name), "utf8");

const BUNDLE = {
  entryPoints: [join(root, "assets", "js", "main.js")],
  absWorkingDir: root,
  bundle: true,
  format: "iife",
  target: "es2020",
  charset: "utf8",
  legalComments: "none",
  banner: { js: '"use strict";' },  // modules are strict; so is the script they become
  logLevel: "warning",
  write: false,
};
const OPTIONS = {
  ecma: 2020,
  compress: { passes: 3, unsafe_arrows: true, unsafe_methods: true, toplevel: true },
  mangle: { toplevel: true },
  format: { comments: false },
};

const bundle = (await build(BUNDLE)).outputFiles[0].text;
mkdirSync(out, { recursive: true });
for (const [name, code] of [["scorepad.min.js", bundle], ["early.min.js", source("early.js")]]) {
  const result = await minify(code, OPTIONS);
  writeFileSync(join(out, name), result.code + "\n");
}
