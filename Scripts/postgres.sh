# A throwaway PostgreSQL on a free loopback port, for the tests and the benchmarks.
# Source it, then: start_postgres [extra postgres -c settings...]; it sets PG_URL. Call
# stop_postgres when done (an EXIT trap). Installs nothing: the callers do.

find_pg_bin() {
  for dir in $(command -v initdb >/dev/null 2>&1 && dirname "$(command -v initdb)") /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" -o -x "/usr/lib/postgresql/15/bin/postgres" ] && { echo "$dir"; return; }
  done
}

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_postgres() {
  PG_BIN=$(find_pg_bin)
  PG_DIR=$(mktemp -d /tmp/juke-pg.XXXXXX)
  PG_PORT=$(free_port)
  local options="-p $PG_PORT -k /tmp -c listen_addresses=127.0.0.1"
  for setting in "$@"; do options+=" -c $setting"; done
  if [ "$(id -u)" -eq 0 ]; then chown postgres "$PG_DIR"; fi
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres >/dev/null
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o "$options" start >/dev/null
  PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  if [ -f "$PG_DIR/data/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$PG_DIR"
}
