#!/usr/bin/env bash
# Install everything the tests need (a virtualenv with the test extras, and Chromium for the
# browser tests), then run the whole suite: rules, routes, API and browser tests.
# The README's test command and CI's .ci/run both call this script.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian's own python3 needs its venv module installed separately.
if ! python3 -c "import ensurepip" >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-venv >/dev/null
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'

# Chromium: Debian's package where apt is there (Playwright's browser download is not always
# reachable); otherwise Playwright's own build. The browser tests never skip: no browser, no pass.
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  else
    .venv/bin/python -m playwright install chromium
  fi
fi

exec .venv/bin/python -m pytest "$@"
