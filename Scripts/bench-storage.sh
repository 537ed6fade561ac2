#!/usr/bin/env bash
# A book read from an S3-compatible bucket (SeaweedFS on loopback) beside the same book from
# the data folder, through `juke serve`, in one run: a player's first byte and a 64 KB seek
# read, and the same seek read straight from the bucket (Benchmarks/reference/storage_read.py).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/storage
rm -rf "$WORK"; mkdir -p "$WORK"
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
# The servers are started as the browser tests start them (Tests/Browser/conftest.py, which imports selenium).
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; fi
swift build -c release --product juke >/dev/null
source Scripts/seaweedfs.sh
trap stop_seaweedfs EXIT
start_seaweedfs
echo "== making a 2-hour MP3 book (64 kbit/s)"
ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=330:duration=7200" -ac 1 -c:a libmp3lame -b:a 64k "$WORK/book.mp3"
/usr/bin/python3 Benchmarks/reference/storage_read.py "$PWD/.build/release/juke" "$WORK" "$WORK/book.mp3" "$S3_TEST_ENDPOINT" "$S3_TEST_BUCKET"
