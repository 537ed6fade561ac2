#!/bin/bash
# Issue 51: a library of 100,000 tracks answers like one of 100. One run, side by side:
# Juke on 1,000 and 100,000 generated MP3 files and on 1,000,000 tracks written as rows,
# supysonic 0.7.2 on the same 100,000 files; every album order, artists, tracks, searches and
# one album's tracks under 16 connections (wrk), first and deep pages; scan, rescan, start, the
# first search after a start; the slowest page and search while 100,000 files are added to a
# running server; resident memory. Prints the table and the issue's ratios at the end.
#
# usage: Scripts/bench-library.sh [--skip-build] [--postgres] [--no-million] [--no-supysonic]
#   --skip-build    use .build/release/juke as it is
#   --postgres      Juke's file libraries (1k, 100k, the add) also on PostgreSQL (a
#                   throwaway server from Scripts/postgres.sh, default settings)
#   --no-million    leave out the 1,000,000 rows (writing them takes 15-40 minutes, once)
#   --no-supysonic  leave out supysonic (its scan of 100,000 files takes minutes)
# Environment: JUKE_BENCH_LIBRARIES (default /tmp/juke51): where the generated libraries are
#   kept between runs (never in git): files-1k/, files-100k/ (make_library.py), rows-1m.sqlite
#   (CatalogPageBenchmark.writesALargeLibraryForAServer, through the scanner's store path).
#   WRK_SECONDS (default 5): each call's load. SUPYSONIC_REUSE=1: serve the supysonic
#   database of an earlier run (its scan time is then that run's, and said so).
# Needs: wrk, sqlite3, supysonic and gunicorn (apt-get install -y wrk sqlite3 supysonic gunicorn).
# The machine is shared and noisy: compare figures only within one run; the load average is
# printed with each column.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=1 POSTGRES=0 MILLION=1 SUPYSONIC=1
for arg in "$@"; do
  case $arg in
    --skip-build) BUILD=0 ;;
    --postgres) POSTGRES=1 ;;
    --no-million) MILLION=0 ;;
    --no-supysonic) SUPYSONIC=0 ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
  esac
done
for tool in wrk sqlite3; do command -v $tool >/dev/null || { echo "needs $tool: apt-get install -y $tool" >&2; exit 1; }; done
if [ $SUPYSONIC = 1 ]; then
  command -v supysonic-server >/dev/null && /usr/bin/python3 -c 'import gunicorn' 2>/dev/null \
    || { echo "needs supysonic and gunicorn: apt-get install -y supysonic gunicorn (or --no-supysonic)" >&2; exit 1; }
fi
LIB=${JUKE_BENCH_LIBRARIES:-/tmp/juke51}
OUT=$(mktemp -d /tmp/juke51-results.XXXXXX)
mkdir -p "$LIB"
LOAD=Benchmarks/reference/library_load.py
step() { echo "== $(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2; }

if [ $BUILD = 1 ]; then
  step "release build"
  swift build -c release --product juke >&2
fi
BIN=$PWD/.build/release/juke
[ -x "$BIN" ] || { echo "no $BIN: run without --skip-build" >&2; exit 1; }

for n in 1000 100000; do
  dir=$LIB/files-$((n / 1000))k
  if [ ! -d "$dir" ]; then
    step "writing $n MP3 files to $dir"
    rm -rf "$dir.partial"
    python3 Benchmarks/reference/make_library.py $n "$dir.partial" >&2
    mv "$dir.partial" "$dir"
  fi
done

if [ $MILLION = 1 ] && [ ! -f "$LIB/rows-1m.complete" ]; then
  # Written once and kept: a debug test build, then the test run again (each run stops before
  # the suite's five minutes, every batch kept) until the million are there.
  step "1,000,000 tracks as rows through LibraryStore.apply (debug test build)"
  swift build --build-tests >&2
  start=$(date +%s)
  while true; do
    JUKE_CATALOG_BENCH=none JUKE_CATALOG_BENCH_DB=$LIB/rows-1m.sqlite JUKE_CATALOG_BENCH_TRACKS=1000000 \
      swift test --skip-build --filter writesALargeLibraryForAServer > "$LIB/rows-1m.last" 2>&1 || true
    cat "$LIB/rows-1m.last" >> "$LIB/rows-1m.log"
    written=$(grep -o '^[0-9]* tracks in .*' "$LIB/rows-1m.last" || true)
    [ -n "$written" ] || { tail -20 "$LIB/rows-1m.last" >&2; exit 1; }
    step "$written"
    case $written in *complete*) break ;; esac
  done
  echo "written in $(($(date +%s) - start)) s of debug-build test runs" >> "$LIB/rows-1m.log"
  touch "$LIB/rows-1m.complete"
fi

if [ $POSTGRES = 1 ]; then
  source Scripts/postgres.sh
  start_postgres max_connections=300
  trap stop_postgres EXIT
  db() { psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null; echo "${PG_URL%/postgres}/$1"; }
fi

echo "Juke $(git rev-parse --short HEAD), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), load at the start $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/machine.txt" >&2
step "Juke, 1,000 files"
python3 $LOAD juke "1k files" --bin "$BIN" --library "$LIB/files-1k" "$OUT/1-juke-1k.json"
step "Juke, 100,000 files"
python3 $LOAD juke "100k files" --bin "$BIN" --library "$LIB/files-100k" "$OUT/2-juke-100k.json"
step "Juke, 100,000 files added to a running server holding 1,000"
python3 $LOAD juke-add "100k added while serving" --bin "$BIN" --base "$LIB/files-1k" --add "$LIB/files-100k" "$OUT/3-juke-add.json"
if [ $MILLION = 1 ]; then
  step "Juke, 1,000,000 rows"
  python3 $LOAD juke-rows "1M rows" --bin "$BIN" --sqlite "$LIB/rows-1m.sqlite" "$OUT/4-juke-1m.json"
fi
if [ $POSTGRES = 1 ]; then
  step "Juke on PostgreSQL, 1,000 files"
  python3 $LOAD juke "1k files, PostgreSQL" --bin "$BIN" --library "$LIB/files-1k" --database "$(db juke51_1k)" "$OUT/5-juke-pg-1k.json"
  step "Juke on PostgreSQL, 100,000 files"
  python3 $LOAD juke "100k files, PostgreSQL" --bin "$BIN" --library "$LIB/files-100k" --database "$(db juke51_100k)" "$OUT/6-juke-pg-100k.json"
  step "Juke on PostgreSQL, 100,000 files added while serving"
  python3 $LOAD juke-add "100k added while serving, PostgreSQL" --bin "$BIN" --base "$LIB/files-1k" --add "$LIB/files-100k" \
    --database "$(db juke51_add)" "$OUT/7-juke-pg-add.json"
fi
if [ $SUPYSONIC = 1 ]; then
  SUPY=$LIB/supysonic-100k
  [ "${SUPYSONIC_REUSE:-0}" = 1 ] || rm -rf "$SUPY"
  step "supysonic, 100,000 files"
  python3 $LOAD supysonic "100k files" --library "$LIB/files-100k" --work "$SUPY" "$OUT/8-supysonic-100k.json"
fi
echo "load at the end $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt" >&2
cat "$OUT/machine.txt"
python3 $LOAD table "$OUT"/*.json | tee "$OUT/table.md"
echo "(results in $OUT)"
