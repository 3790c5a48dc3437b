# A throw-away PostgreSQL server, sourced by scripts/test.sh and scripts/bench.sh (not run on its own).
#
# start_throwaway_postgres PG_BIN [SERVER OPTIONS...]: a new cluster in a temporary directory, run by an
# unprivileged user (postgres when this runs as root), listening on 127.0.0.1 on a free port with a random
# password; the system's own cluster, if any, is never used. On success it sets pg_url to a database owned by
# a role that is no superuser (as in production) and stops and removes the server when the script exits; on
# failure it prints the server's log and returns 1.
start_throwaway_postgres() {
  pg_bin=$1
  shift
  if [ "$(id -u)" -eq 0 ]; then  # root can't run postgres
    id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    as_pg() { runuser -u postgres -- "$@"; }
  else
    as_pg() { "$@"; }
  fi
  pg_dir=$(mktemp -d /tmp/scorepad-pg.XXXXXX)
  stop_postgres() {
    if [ -f "$pg_dir/data/postmaster.pid" ]; then
      as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$pg_dir"
  }
  trap stop_postgres EXIT
  trap 'exit 130' INT TERM HUP  # the EXIT trap then stops the server
  [ "$(id -u)" -ne 0 ] || chown postgres: "$pg_dir"
  local port password
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  password=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
  (umask 077 && printf '%s\n' "$password" >"$pg_dir/password")
  [ "$(id -u)" -ne 0 ] || chown postgres: "$pg_dir/password"
  as_pg "$pg_bin/initdb" -D "$pg_dir/data" -U postgres --pwfile="$pg_dir/password" --auth=scram-sha-256 \
    --encoding=UTF8 --no-locale --no-sync >/dev/null
  rm -f "$pg_dir/password"
  if ! as_pg "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $pg_dir $*" -w -t 60 start >/dev/null; then
    cat "$pg_dir/server.log" >&2
    return 1
  fi
  PGPASSWORD="$password" "$pg_bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE scorepad LOGIN CREATEDB PASSWORD '$password'" -c "CREATE DATABASE scorepad OWNER scorepad"
  pg_url="postgresql://scorepad:$password@127.0.0.1:$port/scorepad"
}
