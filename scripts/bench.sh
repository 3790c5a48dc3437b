#!/usr/bin/env bash
# The benchmark (README, "Performance"): installs what it needs (the bench extra: locust; gunicorn; Playwright
# with Debian's Chromium), then runs scripts/bench.py on a temporary SQLite database and, where PostgreSQL's
# server programs are installed, on a throw-away PostgreSQL server started as scripts/test.sh starts its own
# (a new cluster in a temporary directory, on 127.0.0.1, removed at the end). Arguments go to scripts/bench.py
# (--seconds N: the length of each run, 20 by default; --games N: 10,000 by default).
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e '.[bench,postgres,test]'
if [ ! -x /usr/bin/chromium ]; then
  echo "The first-visit bytes are measured in Debian's Chromium: apt-get install chromium" >&2
  exit 1
fi

pg_args=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ] && command -v pg_ctl >/dev/null 2>&1; then
  pg_bin=$(dirname "$(command -v pg_ctl)")
fi
if [ -n "$pg_bin" ]; then
  if [ "$(id -u)" -eq 0 ]; then  # root can't run postgres
    id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    as_pg() { runuser -u postgres -- "$@"; }
  else
    as_pg() { "$@"; }
  fi
  pg_dir=$(mktemp -d /tmp/scorepad-bench-pg.XXXXXX)
  stop_postgres() {
    if [ -f "$pg_dir/data/postmaster.pid" ]; then
      as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$pg_dir"
  }
  trap stop_postgres EXIT
  trap 'exit 130' INT TERM HUP
  [ "$(id -u)" -ne 0 ] || chown postgres: "$pg_dir"
  pg_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  pg_password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  (umask 077 && printf '%s\n' "$pg_password" >"$pg_dir/password")
  [ "$(id -u)" -ne 0 ] || chown postgres: "$pg_dir/password"
  as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --pwfile="$pg_dir/password" --auth=scram-sha-256 \
    --encoding=UTF8 --no-locale --no-sync >/dev/null
  rm -f "$pg_dir/password"
  # A production-like server: durable commits (fsync on), unlike the test suite's throw-away one.
  if as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" \
      -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir" -w -t 60 start >/dev/null; then
    PGPASSWORD="$pg_password" "$pg_bin/psql" -q -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres \
      -v ON_ERROR_STOP=1 -c "CREATE ROLE scorepad LOGIN PASSWORD '$pg_password'" \
      -c "CREATE DATABASE scorepad OWNER scorepad"
    pg_args=(--postgres "postgresql://scorepad:$pg_password@127.0.0.1:$pg_port/scorepad")
  else
    cat "$pg_dir/server.log" >&2
    echo "PostgreSQL did not start: SQLite only" >&2
  fi
else
  echo "No PostgreSQL server programs (apt-get install postgresql): SQLite only" >&2
fi

.venv/bin/python scripts/bench.py "${pg_args[@]}" "$@"
