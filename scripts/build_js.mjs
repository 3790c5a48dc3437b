// Build the scripts the app serves from their readable sources in assets/js/ (`npm run build`; docs/architecture.md).
//
//   static/js/scorepad.min.js  rules.js + scorepad.js + offline.js, in that order, as one script: one function's
//                              body, so the three share their helpers (el, points, plural...) and terser
//                              shortens every name in them. Loaded with defer on every page.
//   static/js/early.min.js     early.js alone: it runs in <head>, before the page is drawn.
//
// The output directory defaults to static/js; tests/test_built_scripts.py builds into a temporary one and
// compares. Same sources + same terser (the exact version in package.json) = the same bytes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { minify } from "terser";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] || join(root, "static", "js");
const source = (name) => readFileSync(join(root, "assets", "js", name), "utf8");

const OPTIONS = {
  ecma: 2020,
  compress: { passes: 3, unsafe_arrows: true, unsafe_methods: true, toplevel: true },
  mangle: { toplevel: true },
  format: { comments: false },
};

const BUNDLE = ["rules.js", "scorepad.js", "offline.js"];
const bundle = `(() => {\n"use strict";\n${BUNDLE.map(source).join("\n")}\n})();\n`;

mkdirSync(out, { recursive: true });
for (const [name, code] of [["scorepad.min.js", bundle], ["early.min.js", source("early.js")]]) {
  const result = await minify(code, OPTIONS);
  writeFileSync(join(out, name), result.code + "\n");
}
