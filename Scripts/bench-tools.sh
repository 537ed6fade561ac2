#!/usr/bin/env bash
# What a crowd asking for ffmpeg's work costs everyone else (issue 49): /health and a library
# search while 200 clients ask for blurred covers, clips and transcodes over and over, beside
# the same server idle in the same run (the ratio); the programs alive under the server (never
# more than its tool slots) and its resident memory. Against the release build (JUKE_BINARY
# picks another); JUKE_BENCH_IDLE_CLIENTS=0 runs the clients at normal priority.
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 -c 'import pytest' 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pytest >/dev/null; }
if [ -z "${JUKE_BINARY:-}" ]; then
  swift build -c release --product juke >/dev/null
  JUKE_BINARY="$PWD/.build/release/juke"
fi
JUKE_BINARY="$JUKE_BINARY" /usr/bin/python3 Benchmarks/reference/tool_load.py "$@"
