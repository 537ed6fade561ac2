#!/usr/bin/env bash
# The chapters of a 10-hour M4B with 120 chapters (AAC at 22.05 kHz, both chapter lists, as
# ffmpeg writes them): Juke's reader beside ffprobe (one process per file, as a media server
# that shells out pays) and mutagen (chpl only), in the same run, with the ratios. Targets:
# at most 0.1 ms per file warm and at most 64 KB read, with the same chapters as ffprobe.
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/chapters
mkdir -p "$WORK"
command -v ffmpeg >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ffmpeg >/dev/null; }
TOOLS=$(Scripts/tools-venv.sh mutagen=mutagen)
BOOK="$WORK/ten-hours.m4b"
if [ ! -f "$BOOK" ]; then
  echo "== making $BOOK (10 hours, 120 chapters)"
  python3 - "$WORK/chapters.txt" <<'PY'
import sys
lines = [";FFMETADATA1", "title=Ten Hours"]
for i in range(120):
    lines += ["[CHAPTER]", "TIMEBASE=1/1000", "START=%d" % (i * 300000), "END=%d" % ((i + 1) * 300000),
              "title=Chapter %d: In Which Something Happens (%d)" % (i + 1, i * 7)]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
  ffmpeg -loglevel error -y -f lavfi -i anullsrc=r=22050:cl=mono -i "$WORK/chapters.txt" \
    -map 0 -map_metadata 1 -map_chapters 1 -t 36000 -c:a aac -b:a 16k "$WORK/making.m4b"
  mv "$WORK/making.m4b" "$BOOK"
fi
swift build -c release --product JukeBench >/dev/null
ls -l "$BOOK" | awk '{printf "== %s: %.1f MB\n", $NF, $5 / 1e6}'
cat "$BOOK" > /dev/null   # warm the page cache

juke=$(.build/release/JukeBench chapters "$BOOK" 2000 "$WORK/juke.json"); echo "$juke"
start=$(date +%s%N)
for _ in $(seq 20); do ffprobe -v error -show_chapters -of json "$BOOK" > "$WORK/ffprobe.json"; done
ffprobe_ms=$(( ($(date +%s%N) - start) / 20000 ))
echo "ffprobe: one process per file; mean ${ffprobe_ms} µs per file (20 runs)" | sed 's/µs/us/'
mutagen=$("$TOOLS/bin/python" Benchmarks/reference/mutagen_chapters.py "$BOOK" 50); echo "$mutagen"

python3 - "$WORK/juke.json" "$WORK/ffprobe.json" "$juke" "$ffprobe_ms" "$mutagen" <<'PY'
import json, re, sys
juke = json.load(open(sys.argv[1]))
probe = json.load(open(sys.argv[2]))["chapters"]
same = len(juke["chapters"]) == len(probe) and all(
    j["title"] == p["tags"]["title"] and abs(j["start"] - float(p["start_time"])) < 0.001 for j, p in zip(juke["chapters"], probe))
median = float(re.search(r"median ([0-9.]+) ms", sys.argv[3]).group(1))
read = int(re.search(r"(\d+) bytes in", sys.argv[3]).group(1))
ffprobe_ms = int(sys.argv[4]) / 1000
mutagen = float(re.search(r"median ([0-9.]+) ms", sys.argv[5]).group(1))
print(f"same chapters as ffprobe: {'yes' if same else 'NO'} ({len(juke['chapters'])} vs {len(probe)})")
print(f"ratio: Juke is {ffprobe_ms / median:.0f}x faster than ffprobe and {mutagen / median:.0f}x faster than mutagen per file")
print(f"targets: {median:.4f} ms per file (<= 0.1 ms: {'met' if median <= 0.1 else 'NOT met'}), "
      f"{read} bytes read (<= 65536: {'met' if read <= 65536 else 'NOT met'})")
sys.exit(0 if same and read <= 65536 else 1)
PY
