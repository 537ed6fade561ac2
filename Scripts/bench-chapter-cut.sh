#!/usr/bin/env bash
# A book's chapter cut out for a phone to keep (`/api/v1/dual/books/{id}/chapters/{n}/audio`),
# through `juke serve`: the first request (ffmpeg copies the chapter out, then the file is
# served) beside ffmpeg making the same cut run directly, and a second request (from the cache)
# beside the same bytes of the book read by Range, each pair in the same run. Target: the
# first within 1.5x of ffmpeg's own cut, the second within noise of serving a file.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/chapter-cut
rm -rf "$WORK"; mkdir -p "$WORK"
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
# The server is started as the browser tests start it (Tests/Browser/conftest.py, which imports selenium).
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; fi
swift build -c release --product juke >/dev/null
echo "== making a 2-hour M4B with 24 chapters of 5 minutes"
{
  echo ";FFMETADATA1"; echo "title=Two Hours"
  for i in $(seq 0 23); do
    echo "[CHAPTER]"; echo "TIMEBASE=1/1000"; echo "START=$((i * 300000))"; echo "END=$(((i + 1) * 300000))"; echo "title=Chapter $((i + 1))"
  done
} > "$WORK/chapters.txt"
ffmpeg -nostdin -loglevel error -y -f lavfi -i "sine=frequency=330:duration=7200" -i "$WORK/chapters.txt" -map 0:a -map_chapters 1 \
  -ac 1 -c:a aac -b:a 64k -f ipod "$WORK/book.m4b"
/usr/bin/python3 Benchmarks/reference/chapter_cut.py "$PWD/.build/release/juke" "$WORK" "$WORK/book.m4b"
