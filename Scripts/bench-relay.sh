#!/usr/bin/env bash
# Dual Player's radio relay under load: 200 listeners of one 128 kbit/s station (a local paced
# MP3 stream with ICY titles) plus one listener that stops reading, through `juke serve`, and
# in the same run through Icecast 2 relaying the same station (the reference). Prints each
# relay's CPU share of one core, the listeners' rates through the stall, whether the stalled
# listener was dropped, and the ratio. Targets: Juke under 10% of one core; the stalled
# listener dropped; every other listener at the station's rate.
# JUKE_BENCH_LISTENERS changes the 200.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/relay
mkdir -p "$WORK"
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v icecast2 >/dev/null || missing+=(icecast2)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
swift build -c release --product juke >/dev/null
ulimit -n "$(ulimit -Hn)"
echo "== radio relay: ${JUKE_BENCH_LISTENERS:-200} listeners of one 128 kbit/s station + 1 stalled listener"
python3 Benchmarks/reference/relay_load.py "$PWD/.build/release/juke" "$WORK" "${JUKE_BENCH_LISTENERS:-200}"
