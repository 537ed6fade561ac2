#!/usr/bin/env bash
# Fuzzes the tag readers with libFuzzer, seeded with the test fixtures. (Adding
# --sanitize=address lost the coverage counters with this toolchain, leaving a blind fuzzer;
# the readers are safe Swift with bounds checks, so a bad index traps and is reported.)
# Usage: Scripts/fuzz.sh [seconds]   (default 60). Crashes are written to Fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
SECONDS_TO_RUN=${1:-60}
swift build -c release --sanitize=fuzzer --product TagReaderFuzzer
mkdir -p corpus crashes
cp -n ../Tests/MediaFormatsTests/Fixtures/*.{mp3,m4a,flac,ogg,opus,wav} corpus/ 2>/dev/null || true
cp -n ../Tests/MediaFormatsTests/Fixtures/damaged/* corpus/ 2>/dev/null || true
.build/release/TagReaderFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
  -artifact_prefix=crashes/ -print_final_stats=1 corpus
