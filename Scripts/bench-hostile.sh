#!/usr/bin/env bash
# What the worst uploads of issue 37 cost everyone else: /health and a signed-in request while
# four clients upload them over and over, beside the same server idle in the same run (the
# ratio), each shape's time to its refusal, and the server's resident peak; against the
# release build (JUKE_BINARY picks another).
set -euo pipefail
cd "$(dirname "$0")/.."
/usr/bin/python3 -c 'import pytest' 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-pytest >/dev/null; }
if [ -z "${JUKE_BINARY:-}" ]; then
  swift build -c release --product juke >/dev/null
  JUKE_BINARY="$PWD/.build/release/juke"
fi
JUKE_BINARY="$JUKE_BINARY" /usr/bin/python3 Benchmarks/reference/hostile_latency.py
