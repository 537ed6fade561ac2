#!/usr/bin/env bash
# Fuzzes the tag readers with libFuzzer, seeded with the test fixtures. (Adding
# --sanitize=address lost the coverage counters with this toolchain, leaving a blind fuzzer;
# the readers are safe Swift with bounds checks, so a bad index traps and is reported.)
# The matching engine's fuzzer feeds the normalizer, the folding, the scorers, the guess
# judge and the catalog index arbitrary text, seeded with the judged guesses.
# The chapter reader's fuzzer starts from the chapter fixtures (M4B with QuickTime and Nero
# lists, MP3 with CHAP/CTOC) and checks that whatever it reads is playable.
# The stream framing fuzzer feeds the radio relay's readers (HTTP/ICY heads, chunked coding,
# ICY metadata, Ogg pages, the sniffer, playlists, HLS rewriting) bytes cut at a point the input picks, and
# checks the cut changes nothing.
# The feed fuzzer feeds the feed reader any bytes, whole and in pieces, and checks both read alike.
# The article fuzzer feeds the web page extractor, the ePub reader (ZIP, inflate), the PDF reader, the text reader
# and feed discovery any bytes, seeded with issue 37's shapes too (repeated references, deep nesting, stray end
# tags); like every fuzzer here it runs under -rss_limit_mb and -timeout, so a blow-up is a finding.
# The workout fuzzer feeds the FIT, TCX and GPX readers and the strap's measurement parser any bytes,
# and checks that what is read writes again and reads back.
# Usage: Scripts/fuzz.sh [seconds] [tags|chapters|matching|streams|feeds|articles|workouts]   (default 60 s, tags).
# Crashes are written to Fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"
SECONDS_TO_RUN=${1:-60}
case "${2:-tags}" in
  tags)
    swift build -c release --sanitize=fuzzer --product TagReaderFuzzer
    mkdir -p corpus crashes
    cp -n ../Tests/MediaFormatsTests/Fixtures/*.{mp3,m4a,flac,ogg,opus,wav,aiff,wma,wv} corpus/ 2>/dev/null || true
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
  streams)
    swift build -c release --sanitize=fuzzer --product StreamFramingFuzzer
    mkdir -p corpus-streams crashes
    # Seeds: a head with ICY metadata, a chunked body, and the Ogg fixtures.
    printf '\x10HTTP/1.1 200 OK\r\nicy-metaint: 16\r\n\r\n0123456789abcdef\x02StreamTitle='"'"'A - B'"'"';\0\0\0\0\0\0\0\0\0' > corpus-streams/icy
    printf '\x07HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n' > corpus-streams/chunked
    printf '\x03#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="k"\n#EXTINF:6,\nseg.ts\n' > corpus-streams/hls
    cp -n ../Tests/MediaFormatsTests/Fixtures/*.{ogg,opus} corpus-streams/ 2>/dev/null || true
    .build/release/StreamFramingFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-streams ;;
  feeds)
    swift build -c release --sanitize=fuzzer --product FeedFuzzer
    mkdir -p corpus-feeds crashes
    # Seeds: feedparser's test feeds, each behind a byte that picks the piece size.
    mapfile -t seeds < <(find ../Tests/FeedsTests/Fixtures/feedparser-tests -name '*.xml' | sort | head -400)
    for f in "${seeds[@]}"; do
      out="corpus-feeds/$(basename "$(dirname "$f")")-$(basename "$f")"
      [ -e "$out" ] || { printf '\x07' > "$out"; cat "$f" >> "$out"; }
    done
    # And a transcript in each format and a chapters file (the same bytes go to every reader).
    printf '\x05WEBVTT\n\n00:00.500 --> 00:02.000 align:start\n<v Ann>Hello &amp; welcome</v>\n' > corpus-feeds/vtt
    printf '\x03\n1\n00:00:01,000 --> 00:00:04,500\n<i>Once</i> upon\n\n2\n00:00:05,000 --> 00:00:07,000\nthe end\n' > corpus-feeds/srt
    printf '\x09{"segments":[{"speaker":"Ann","startTime":0.5,"endTime":3.2,"body":"Hello"}]}' > corpus-feeds/transcript-json
    printf '\x02{"version":"1.2.0","chapters":[{"startTime":0,"title":"Intro"},{"startTime":65.5,"title":"Poem","toc":false}]}' > corpus-feeds/chapters-json
    .build/release/FeedFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-feeds ;;
  workouts)
    swift build -c release --sanitize=fuzzer --product WorkoutFuzzer
    mkdir -p corpus-workouts crashes
    # Seeds: python-fitparse's FIT files (the small ones whole, the large cut to 64 kB), and a TCX and a GPX.
    for f in ../Tests/WorkoutsTests/Fixtures/fitparse/*.{fit,FIT}; do
      out="corpus-workouts/$(basename "$f")"
      [ -e "$out" ] || head -c 65536 "$f" > "$out"
    done
    cp -n ../Tests/WorkoutsTests/Fixtures/workouts/* corpus-workouts/ 2>/dev/null || true
    # Issue 37's shapes as workouts: elements nested past the walk's depth, stray end tags.
    python3 -c 'import sys; open("corpus-workouts/tcx-deep-stray", "wb").write(b"<TrainingCenterDatabase>" + b"<Lap>" * 3000 + b"</zz>" * 3000)'
    python3 -c 'import sys; open("corpus-workouts/tcx-stray", "wb").write(b"<TrainingCenterDatabase><Activities><Activity><Lap><Track>" + b"</zz>" * 5000 + b"<Trackpoint><Time>2024-05-01T10:00:00Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>")'
    .build/release/WorkoutFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-workouts ;;
  articles)
    swift build -c release --sanitize=fuzzer --product ArticleFuzzer
    mkdir -p corpus-articles crashes
    # Seeds: the saved pages (cut to 64 kB, the most the fuzzer feeds) and a text file.
    for f in ../Tests/ArticlesTests/Fixtures/readability-pages/*.html; do
      out="corpus-articles/$(basename "$f")"
      [ -e "$out" ] || head -c 65536 "$f" > "$out"
    done
    cp -n ../Tests/ArticlesTests/Fixtures/books/*.{epub,pdf} corpus-articles/ 2>/dev/null || true
    printf 'A Title\n\nCHAPTER I\n\nIt was a dark\nand stormy night.\n\n# Two\n\nThe end.\n' > corpus-articles/text
    # PDFs of issue 37's shapes, under the 64 kB the fuzzer feeds: one Flate stream listed 30 times,
    # objects that never close, arrays nested past the lexer's depth, and a bfrange map of millions.
    python3 - <<'PY'
import zlib
def pdf(objects):
    out = b"%PDF-1.7\n" + b"".join(b"%d 0 obj\n" % n + body + b"\nendobj\n" for n, body in objects)
    return out + b"trailer\n<< /Root 1 0 R >>\n%%EOF\n"
def stream(data, extra=b""):
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"
head = [(1, b"<< /Type /Catalog /Pages 2 0 R >>"), (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")]
font = (5, b"<< /Type /Font /Subtype /Type0 /BaseFont /X /ToUnicode 6 0 R >>")
page = lambda contents: (3, b"<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 5 0 R >> >> /Contents " + contents + b" >>")
zeros = stream(zlib.compress(bytes(8 << 20), 9), b"/Filter /FlateDecode")
cmap = b"194 beginbfrange\n" + b"".join(b"<%04X0000> <%04XFFFF> <0041>\n" % (h, h) for h in range(194)) + b"endbfrange"
text = stream(b"BT /F1 12 Tf 72 700 Td <00000041> Tj ET")
seeds = {
    "pdf-repeated-stream": pdf(head + [page(b"[" + b"4 0 R " * 30 + b"]"), (4, zeros), font, (6, stream(b""))]),
    "pdf-open-objects": b"%PDF-1.4\n" + b"1 0 obj [ " * 5000,
    "pdf-deep-nesting": pdf(head + [page(b"4 0 R"), (4, stream(b"[" * 20000 + b"<<" * 20000)), font, (6, stream(b""))]),
    "pdf-bfrange-map": pdf(head + [page(b"4 0 R"), (4, text), font, (6, stream(cmap))]),
}
# Pages and a book of the same issue's shapes: nesting past the tree's depth, stray end tags,
# and a spine that lists one chapter twenty times.
import io, zipfile
seeds["html-deep-nesting"] = b"<html><body>" + b"<div>" * 12000 + b"<p>The only paragraph, at the bottom.</p></body></html>"
seeds["html-stray-end-tags"] = b"<span>" * 5000 + b"</zz>" * 5000 + b"<p>Text after them, long enough to be read.</p>"
book = io.BytesIO()
with zipfile.ZipFile(book, "w") as z:
    z.writestr("mimetype", "application/epub+zip")
    z.writestr("META-INF/container.xml", '<container><rootfiles><rootfile full-path="c.opf"/></rootfiles></container>')
    z.writestr("c.opf", '<package><manifest><item id="c" href="c.xhtml"/></manifest><spine>' + '<itemref idref="c"/>' * 20 + "</spine></package>")
    z.writestr("c.xhtml", "<html><body><p>" + "All work and no play. " * 20000 + "</p></body></html>", compress_type=zipfile.ZIP_DEFLATED)
seeds["epub-repeated-spine"] = book.getvalue()
for name, data in seeds.items():
    assert len(data) <= 65536, name
    open("corpus-articles/" + name, "wb").write(data)
PY
    .build/release/ArticleFuzzer -max_total_time="$SECONDS_TO_RUN" -timeout=5 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix=crashes/ -print_final_stats=1 corpus-articles ;;
  *) echo "usage: Scripts/fuzz.sh [seconds] [tags|chapters|matching|streams|feeds|articles]"; exit 2 ;;
esac
