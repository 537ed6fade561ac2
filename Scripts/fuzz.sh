#!/usr/bin/env bash
# Fuzzes the tag readers with libFuzzer, seeded with the test fixtures. (Adding
# --sanitize=address lost the coverage counters with this toolchain, leaving a blind fuzzer;
# the readers are safe Swift with bounds checks, so a bad index traps and is reported.)
# The matching engine's fuzzer feeds the normalizer, the folding, the scorers, the guess
# judge and the catalog index arbitrary text, seeded with the judged guesses.
# The chapter reader's fuzzer starts from the chapter fixtures (M4B with QuickTime and Nero
# lists, MP3 with CHAP/CTOC) and checks that whatever it reads is playable.
# Usage: Scripts/fuzz.sh [seconds] [tags|chapters|matching]   (default 60 s, tags).
# Crashes are written to Fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
SECONDS_TO_RUN=${1:-60}
case "${2:-tags}" in
  tags)
    swift build -c release --sanitize=fuzzer --product TagReaderFuzzer
    mkdir -p corpus crashes
    cp -n ../Tests/MediaFormatsTests/Fixtures/*.{mp3,m4a,flac,ogg,opus,wav} corpus/ 2>/dev/null || true
    cp -n ../Tests/MediaFormatsTests/Fixtures/damaged/* corpus/ 2>/dev/null || true
    .build/release/TagReaderFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus ;;
  chapters)
    swift build -c release --sanitize=fuzzer --product ChapterReaderFuzzer
    mkdir -p corpus-chapters crashes
    cp -n ../Tests/MediaFormatsTests/Fixtures/chapters/*.{m4b,mp3} corpus-chapters/ 2>/dev/null || true
    .build/release/ChapterReaderFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-chapters ;;
  matching)
    swift build -c release --sanitize=fuzzer --product MatchingFuzzer
    mkdir -p corpus-matching crashes
    # One seed per judged guess: "guess<NUL>answer".
    n=0
    grep -v '^#' ../Tests/MatchingTests/Oracle/judged-guesses.tsv | while IFS=$'\t' read -r _ guess answer _; do
      n=$((n + 1)); printf '%s\0%s' "$guess" "$answer" > "corpus-matching/judged-$n"
    done
    .build/release/MatchingFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=512 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-matching ;;
  *) echo "usage: Scripts/fuzz.sh [seconds] [tags|chapters|matching]"; exit 2 ;;
esac
