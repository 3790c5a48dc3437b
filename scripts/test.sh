#!/usr/bin/env bash
# Install everything the tests need (a virtualenv with the test extras and the PostgreSQL driver,
# Chromium for the browser tests, PostgreSQL), run ruff and mypy, then the whole suite (rules, routes,
# API and browser tests) twice: on SQLite, then on a throw-away PostgreSQL server this script starts
# and removes. Arguments go to every pytest run. The README's test command and CI's .ci/run call it.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/postgres.sh
source scripts/postgres.sh

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || $SUDO apt-get update -qq
  apt_updated=1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

# Debian's own python3 needs its venv module installed separately.
if ! python3 -c "import ensurepip" >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  apt_install python3-venv
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test,postgres]'

# Chromium: Debian's package where apt is there (Playwright's browser download is not always
# reachable); otherwise Playwright's own build. The browser tests never skip: no browser, no pass.
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null 2>&1; then
    apt_install chromium
  else
    .venv/bin/python -m playwright install chromium
  fi
fi

# Node and the pinned terser: tests/test_built_scripts.py rebuilds static/js/*.min.js from assets/js/ to compare.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi
npm ci --no-audit --no-fund --loglevel=error

# The catalogues of translations/ compiled from their .po files (docs/i18n.md), so the suite runs on them as
# written; GNU gettext's msgfmt counts them again in tests/test_languages.py.
bash scripts/i18n.sh compile
command -v msgfmt >/dev/null 2>&1 || apt_install gettext

# The checks maintainers expect before the tests: lint and format (ruff), types (mypy), and the layers of
# docs/architecture.md (import-linter's contracts in pyproject.toml).
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports

# PostgreSQL: Debian's package (PostgreSQL 15 on Debian 12) where apt is there, else a pg_ctl on the PATH.
# The tests get a server of their own, thrown away at the end: a new cluster in a temporary directory,
# run by an unprivileged user (postgres when this runs as root), listening on 127.0.0.1 on a free port
# with a random password; the system's own cluster, if any, is never used. tests/databases.py makes a
# fresh schema in it for each test. SCOREPAD_TEST_DATABASE_URL, if set, names a server to use instead.
pg_url="${SCOREPAD_TEST_DATABASE_URL:-}"
if [ -z "$pg_url" ]; then
  if ! compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null && ! command -v pg_ctl >/dev/null 2>&1 \
      && command -v apt-get >/dev/null 2>&1; then
    apt_install postgresql
  fi
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$pg_bin" ]; then
    pg_ctl_path=$(command -v pg_ctl) || { echo "PostgreSQL is needed for the tests: no pg_ctl found" >&2; exit 1; }
    pg_bin=$(dirname "$pg_ctl_path")
  fi
  # Durability is not wanted from a server that lives for one test run: no fsync makes it quicker.
  start_throwaway_postgres "$pg_bin" -c fsync=off -c synchronous_commit=off -c full_page_writes=off || exit 1
fi

# The suite on each database, in two runs: the tests without a browser, then the browser tests, each on two
# pytest-xdist workers (two cores' worth; each test has its own database and its own server either way; a file's
# tests stay on one worker). The browser tests wait on what the page shows, never on time, so a second browser
# beside them only slows them. On PostgreSQL, tests/conftest.py leaves out what would only repeat the SQLite run:
# the tests that reach no database, and the browser tests not marked both_databases (those where saves race, the
# phone's queue replays hands, or revisions matter are). Every run goes ahead, and any one failing fails the script
# (a run that selects no test, as when the arguments name only files of the other kind, is not a failure).
# Python's compiled files are written (a machine may say PYTHONDONTWRITEBYTECODE): each of the eight pytest
# processes would otherwise compile and rewrite every test module and Scorepad's own again, about half a minute each.
unset PYTHONDONTWRITEBYTECODE
status=0
run_pytest() {  # the database (SQLite or PostgreSQL), which tests (words), then pytest's arguments
  local what=$1 which=$2 rc=0
  shift 2
  echo "=== pytest on $what: $which"
  if [ "$what" = SQLite ]; then
    env -u SCOREPAD_TEST_DATABASE_URL .venv/bin/python -m pytest "$@" || rc=$?
  else
    SCOREPAD_TEST_DATABASE_URL="$pg_url" .venv/bin/python -m pytest "$@" || rc=$?
  fi
  [ "$rc" -eq 0 ] || [ "$rc" -eq 5 ] || [ "$status" -ne 0 ] || status=$rc
}
for database in SQLite PostgreSQL; do
  run_pytest "$database" "the tests without a browser" -m "not e2e" --numprocesses=2 --dist=loadfile "$@"
  run_pytest "$database" "the browser tests" -m e2e --numprocesses=2 --dist=loadfile "$@"
done
exit "$status"
