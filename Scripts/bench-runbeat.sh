#!/usr/bin/env bash
# RunBeat in a gym: JUKE_BENCH_RUNNERS (1,000) runners, each with a workout and a WebSocket,
# streaming a heart-rate sample a second for JUKE_BENCH_SECONDS (60), against `juke serve`
# on SQLite and then on a throwaway PostgreSQL. The load client is `JukeBench runbeat-load`
# (Benchmarks/JukeBench/RunBeatLoad.swift): it measures each sample to the cue it triggers,
# and as the same run's floor each ping to its pong on the same connections.
# Target: sample-to-cue p99 <= 50 ms in the steady state.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}
swift build -c release --product JukeBench >/dev/null
swift build -c release --product juke >/dev/null
ulimit -n "$(ulimit -Hn)"
source Scripts/postgres.sh
trap stop_postgres EXIT
runbeat_load() {  # $1 = database, $2 = data folder
  local port pid
  port=$(free_port)
  rm -rf "$2"; mkdir -p "$2"
  .build/release/juke serve --data-dir "$2" --database "$1" --port "$port" --no-demo --log-level error > "$2/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
  .build/release/JukeBench runbeat-load "$port" "$1" "${JUKE_BENCH_RUNNERS:-1000}" "${JUKE_BENCH_SECONDS:-60}" \
    || { kill "$pid"; cat "$2/server.log"; return 1; }
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
for database in ${JUKE_BENCH_DATABASES:-sqlite postgres}; do
  case $database in
    sqlite)
      echo "-- SQLite"
      runbeat_load "sqlite://$WORK/runbeat-sqlite/juke.sqlite" "$WORK/runbeat-sqlite" ;;
    postgres)
      echo "-- PostgreSQL"
      start_postgres fsync=off max_connections=200 >/dev/null
      runbeat_load "$PG_URL" "$WORK/runbeat-postgres" ;;
  esac
done
