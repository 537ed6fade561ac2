#!/usr/bin/env bash
# Juke's benchmarks, each run beside its reference in the same invocation, with ratios.
#   tag reading of 10,000 files of every format Juke scans (warm cache): Juke vs TagLib (libtag) vs mutagen
#   unchanged rescan of 10,000 files: target under 2 s
#   library search over 100,000 tracks: target p99 under 10 ms
#   fuzz.ratio for all pairs of 1,500 x 1,500 strings: Juke vs RapidFuzz's cdist, every score compared
#   one query against 1,000,000 catalog entries: Juke's index vs RapidFuzz's extractOne (p50 2 ms, p99 10 ms)
#   TuneTrivia: 10,000 players in one game, reveal and guess latencies (Scripts/bench-trivia.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}
COUNT=${JUKE_BENCH_FILES:-10000}

missing=()
[ -f /usr/include/taglib/fileref.h ] || missing+=(libtag1-dev)
command -v g++ >/dev/null || missing+=(g++)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; fi
TOOLS=$(Scripts/tools-venv.sh mutagen=mutagen rapidfuzz=rapidfuzz numpy=numpy)
PY="$TOOLS/bin/python"

echo "== preparing $COUNT files in $WORK/files (copies of the tag fixtures, every format)"
rm -rf "$WORK/files"; mkdir -p "$WORK/files"
fixtures=(Tests/MediaFormatsTests/Fixtures/*.{mp3,m4a,flac,ogg,opus,wav,aiff,wma,wv})
# Formats ffmpeg cannot write (Monkey's Audio, Musepack, DSF) come from mutagen's test files,
# fetched into .build as the agreement test does (never committed).
MUTAGEN_DATA=$("$PY" - <<'PY'
import importlib.util
spec = importlib.util.spec_from_file_location("agreement", "Scripts/tags-agreement.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(module.corpus(None))
PY
)
fixtures+=("$MUTAGEN_DATA/mac-399.ape" "$MUTAGEN_DATA/click.mpc" "$MUTAGEN_DATA/sv8_header.mpc" "$MUTAGEN_DATA/with-id3.dsf")
for ((i = 0; i < COUNT; i++)); do
  src=${fixtures[$((i % ${#fixtures[@]}))]}
  dir="$WORK/files/$((i / 500))"
  mkdir -p "$dir"
  cp "$src" "$dir/$i.${src##*.}"
done
find "$WORK/files" -type f | sort > "$WORK/list.txt"

echo "== building"
swift build -c release --product JukeBench >/dev/null
g++ -O2 -o "$WORK/taglib_read" Benchmarks/reference/taglib_read.cpp $(pkg-config --cflags --libs taglib)

echo "== tag reading (best of 3 rounds, warm cache)"
cat "$WORK/list.txt" | xargs cat > /dev/null   # warm the page cache
juke=$(.build/release/JukeBench tags "$WORK/files" 3); echo "$juke"
taglib=$("$WORK/taglib_read" 3 < "$WORK/list.txt"); echo "$taglib"
mutagen=$("$PY" Benchmarks/reference/mutagen_read.py 3 < "$WORK/list.txt"); echo "$mutagen"
rate() { sed -E 's/.*\(([0-9]+) files\/s\).*/\1/' <<<"$1"; }
python3 - "$(rate "$juke")" "$(rate "$taglib")" "$(rate "$mutagen")" <<'PY'
import sys
j, t, m = map(float, sys.argv[1:])
print(f"ratio: Juke is {j / t:.2f}x TagLib and {j / m:.2f}x mutagen (files per second)")
PY

echo "== Indel similarity (fuzz.ratio), all pairs of 1,500 x 1,500 strings up to 64 characters, one core"
rf=$("$PY" Benchmarks/reference/rapidfuzz_cdist.py "$WORK/indel.txt" 1500); echo "$rf"
jk=$(.build/release/JukeBench indel "$WORK/indel.txt" 1500); echo "$jk"
pps() { sed -nE '1s/.*\(([0-9,]+) pairs\/s\).*/\1/p' <<<"$1" | tr -d ,; }
python3 -c "import sys; print(f'ratio: Juke is {int(sys.argv[1]) / int(sys.argv[2]):.2f}x rapidfuzz cdist (pairs per second, one core)')" "$(pps "$jk")" "$(pps "$rf")"

echo "== unchanged rescan (target under 2 s)"
.build/release/JukeBench rescan "$WORK/files"

echo "== search over 100,000 tracks (target p99 under 10 ms)"
.build/release/JukeBench search 100000 3000

echo "== one query against 1,000,000 catalog entries (targets p50 2 ms, p99 10 ms)"
reference=$("$PY" Benchmarks/reference/rapidfuzz_extract.py "$WORK/catalog.txt" 1000000 500); echo "$reference"
.build/release/JukeBench catalog "$WORK/catalog.txt" "$(sed -E 's/.*p50 ([0-9.]+) ms.*/\1/' <<<"$reference")"

echo "== the guess judge: the judged table's guesses, each judged as a TuneTrivia answer is (no reference tool judges guesses)"
.build/release/JukeBench judge Tests/MatchingTests/Oracle/judged-guesses.tsv 50

# TuneTrivia under load (its own script, to run alone as well).
Scripts/bench-trivia.sh
