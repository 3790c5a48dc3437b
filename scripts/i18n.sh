#!/usr/bin/env bash
# The one catalogue of Scorepad's words (docs/i18n.md): extract every string from the Python modules and the
# templates (babel.cfg) into translations/messages.pot, merge it into each language's messages.po (new strings
# come in untranslated: tests/test_languages.py fails until each is translated), and compile the .mo files the
# app reads. `scripts/i18n.sh compile` only compiles (scripts/test.sh does, before the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel=.venv/bin/pybabel
if [ "${1:-}" != "compile" ]; then
  # Keywords: the rules' Message and Plural (scorepad/rules/errors.py) and Flask-Babel's lazy_gettext, besides gettext's own.
  "$pybabel" -q extract -F babel.cfg -k lazy_gettext -k Message -k Plural:1,2 --no-location --sort-output \
    --project=Scorepad --copyright-holder="Scorepad" --msgid-bugs-address="" -o translations/messages.pot .
  "$pybabel" -q update -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete
fi
"$pybabel" -q compile --statistics -d translations
