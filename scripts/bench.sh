#!/usr/bin/env bash
# The benchmark (docs/performance.md): installs what it needs (the bench extra: locust; gunicorn; Playwright
# with Debian's Chromium), then runs scripts/bench.py on a temporary SQLite database and, where PostgreSQL's
# server programs are installed, on a throw-away PostgreSQL server started as scripts/test.sh starts its own
# (a new cluster in a temporary directory, on 127.0.0.1, removed at the end). Arguments go to scripts/bench.py
# (--seconds N: the length of each run, 20 by default; --games N: 10,000 by default).
#
#   bash scripts/bench.sh --club [...]   the club-night load instead (scripts/club_bench.py: tables, phones and
#                                        wall screens, driven by scripts/club_load.mjs on
#                                        undici, which npm ci installs; its own arguments after --club)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/postgres.sh
source scripts/postgres.sh

python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e '.[bench,postgres,test]'
if [ "${1:-}" != "--club" ] && [ ! -x /usr/bin/chromium ]; then
  echo "The first-visit bytes are measured in Debian's Chromium: apt-get install chromium" >&2
  exit 1
fi

pg_args=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] && command -v pg_ctl >/dev/null 2>&1; then
  pg_bin=$(dirname "$(command -v pg_ctl)")
fi
if [ -n "$pg_bin" ]; then
  # A production-like server: durable commits (fsync on), unlike the test suite's throw-away one.
  if start_throwaway_postgres "$pg_bin"; then
    pg_args=(--postgres "$pg_url")
  else
    echo "PostgreSQL did not start: SQLite only" >&2
  fi
else
  echo "No PostgreSQL server programs (apt-get install postgresql): SQLite only" >&2
fi

if [ "${1:-}" = "--club" ]; then
  shift
  npm ci --no-audit --no-fund --loglevel=error  # the load: scripts/club_load.mjs, on undici
  .venv/bin/python scripts/club_bench.py "${pg_args[@]}" "$@"
else
  .venv/bin/python scripts/bench.py "${pg_args[@]}" "$@"
fi
