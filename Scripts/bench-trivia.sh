#!/usr/bin/env bash
# TuneTrivia under load: one party game with JUKE_BENCH_PLAYERS (10,000) players, each on a
# WebSocket, against `juke serve` on SQLite and then on a throwaway PostgreSQL. The load
# client is `JukeBench trivia-load` (Benchmarks/JukeBench/TriviaLoad.swift).
# JUKE_BENCH_DATABASES="sqlite" or "postgres" runs one of the two; JUKE_BENCH_REVEALS (1-5,
# 3 by default) is how many rounds each game plays, each ending in a measured reveal.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}
swift build -c release --product JukeBench >/dev/null
echo "== TuneTrivia: one party game, ${JUKE_BENCH_PLAYERS:-10000} players on WebSockets, on SQLite and on PostgreSQL"
echo "   (targets: the reveal reaches every player within 100 ms at p99, measured at the server;"
echo "    1,000 guesses a second accepted with p99 under 20 ms; the reveal is compared with this"
echo "    machine's floor: the same sends with plain write(2), measured after each game)"
swift build -c release --product juke >/dev/null
ulimit -n "$(ulimit -Hn)"   # ten thousand sockets on each side
source Scripts/postgres.sh
trap stop_postgres EXIT
trivia_load() {  # $1 = database, $2 = data folder
  local port pid
  port=$(free_port)
  rm -rf "$2"; mkdir -p "$2"
  .build/release/juke serve --data-dir "$2" --database "$1" --port "$port" --log-level error > "$2/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
  .build/release/JukeBench trivia-load "$port" "$1" "${JUKE_BENCH_PLAYERS:-10000}" 1000 > "$2/load.txt" \
    || { cat "$2/load.txt"; kill "$pid"; cat "$2/server.log"; return 1; }
  grep -v '^floor-input:' "$2/load.txt"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  # The machine's floor for the same reveal, now that the server is gone: the same number of
  # connections and bytes with plain write(2), and the reveal's p99 divided by it.
  local players bytes server clients
  read -r _ players bytes server clients < <(grep '^floor-input:' "$2/load.txt")
  .build/release/JukeBench loopback-floor "$players" "$bytes" "$server" "$clients"
}
for database in ${JUKE_BENCH_DATABASES:-sqlite postgres}; do
  case $database in
    sqlite)
      echo "-- SQLite"
      trivia_load "sqlite://$WORK/trivia-sqlite/juke.sqlite" "$WORK/trivia-sqlite" ;;
    postgres)
      echo "-- PostgreSQL"
      # A fresh cluster has no WAL segments to recycle yet, so the backend that commits
      # into a new one first writes 16 MB of zeros to it: 100-250 ms on this machine's
      # disk, every answer in flight waiting (seen in a profile of the run). A cluster
      # that has run through a few checkpoints mostly recycles old segments instead.
      start_postgres max_connections=200 wal_init_zero=off
      trivia_load "$PG_URL" "$WORK/trivia-postgres" ;;
  esac
done
