#!/usr/bin/env bash
# Transcoding for browsers, through `juke serve`: the time from the request to the first bytes
# of a 5-minute WMA and WavPack track transcoded to Opus, beside ffmpeg's own time to its first
# output byte run directly (the floor, in the same run); then library search latency alone and
# while 8 transcodes run without pause, and their ratio. Targets: first bytes under 1 s; search
# p99 with 8 transcodes within noise of the floor that any lowest-class background work sets.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/transcode
rm -rf "$WORK"; mkdir -p "$WORK/music"
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v curl >/dev/null || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; fi
swift build -c release --product juke >/dev/null
echo "== making a 5-minute WMA and WavPack track"
ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=440:duration=300" -f lavfi -i "sine=frequency=660:duration=300" \
  -filter_complex amerge -ac 2 -ar 44100 -c:a wmav2 -b:a 192k -metadata title="Five Minutes" "$WORK/music/five.wma"
ffmpeg -nostdin -loglevel error -y -i "$WORK/music/five.wma" -c:a wavpack -metadata title="Five Packed Minutes" "$WORK/music/five.wv"
python3 Benchmarks/reference/transcode_load.py "$PWD/.build/release/juke" "$WORK"
