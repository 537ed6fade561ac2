#!/usr/bin/env bash
# Feed parsing: a 5 MB podcast feed with 2,000 episodes (itunes and Podcasting 2.0 tags, show
# notes in CDATA), read by Juke's parser (in memory, 64 kB pieces, median of 10) beside
# feedparser (median of 3) in the same run, with the ratio; target >= 50x. Then memory: the
# largest resident size of `juke feed --json` on that feed and on a 50 MB one (20,000
# episodes), which must be about the same (bounded, not growing with the feed).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${JUKE_BENCH_DIR:-/tmp/juke-bench}/feeds
mkdir -p "$WORK"
TOOLS=$(Scripts/tools-venv.sh feedparser=feedparser)
python3 - "$WORK" <<'PY'
import os, sys
work = sys.argv[1]
def feed(path, items):
    if os.path.exists(path):
        return
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" '
                'xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">\n'
                '<channel><title>The Long Show</title><link>https://example.org/</link><language>en</language>'
                '<itunes:author>Juke</itunes:author><itunes:image href="https://example.org/cover.jpg"/>\n')
        notes = "<p>In this episode we talk about things &amp; other things, with links and a list.</p>" * 24
        for i in range(items, 0, -1):
            f.write(f'<item><title>Episode {i}: A title with an &amp; and “quotes”</title>'
                    f'<guid isPermaLink="false">episode-{i}</guid><link>https://example.org/episodes/{i}</link>'
                    f'<pubDate>Mon, {1 + i % 28:02d} Jan 2024 06:{i % 60:02d}:00 +0000</pubDate>'
                    f'<enclosure url="https://cdn.example.org/episodes/{i}.mp3" length="{30000000 + i}" type="audio/mpeg"/>'
                    f'<itunes:duration>{i % 3}:{i % 60:02d}:{i % 60:02d}</itunes:duration><itunes:episode>{i}</itunes:episode>'
                    f'<itunes:explicit>no</itunes:explicit><podcast:transcript url="https://example.org/{i}.vtt" type="text/vtt"/>'
                    f'<description>Short notes for episode {i}.</description><content:encoded><![CDATA[{notes}]]></content:encoded></item>\n')
        f.write("</channel></rss>\n")
    os.rename(path + ".tmp", path)
feed(os.path.join(work, "feed-5mb.xml"), 2000)
feed(os.path.join(work, "feed-50mb.xml"), 20000)
PY
swift build -c release --product JukeBench >/dev/null
swift build -c release --product juke >/dev/null
for f in feed-5mb feed-50mb; do ls -l "$WORK/$f.xml" | awk '{printf "== %s: %.1f MB\n", $NF, $5 / 1e6}'; done
cat "$WORK"/feed-*.xml > /dev/null   # warm the page cache

juke=$(.build/release/JukeBench feeds "$WORK/feed-5mb.xml" 10); echo "$juke"
reference=$("$TOOLS/bin/python" - "$WORK/feed-5mb.xml" <<'PY'
import sys, time, feedparser
data = open(sys.argv[1], "rb").read()
times = []
for _ in range(3):
    start = time.perf_counter()
    d = feedparser.parse(data)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"feedparser {feedparser.__version__}: {len(d.entries)} items; median {times[1]:.1f} ms (3 rounds)")
PY
); echo "$reference"
python3 - "$juke" "$reference" <<'PY'
import re, sys
juke = float(re.search(r"median ([0-9.]+) ms", sys.argv[1]).group(1))
ref = float(re.search(r"median ([0-9.]+) ms", sys.argv[2]).group(1))
print(f"ratio: Juke is {ref / juke:.0f}x feedparser's throughput (target >= 50x: {'met' if ref / juke >= 50 else 'NOT met'})")
PY
for f in feed-5mb feed-50mb; do
  /usr/bin/time -f "%M" -o "$WORK/$f.rss" .build/release/juke feed --json "$WORK/$f.xml" > "$WORK/$f.json"
done
python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
small, large = (int(open(f"{work}/{f}.rss").read().split()[-1]) for f in ("feed-5mb", "feed-50mb"))
items = len(json.load(open(f"{work}/feed-50mb.json"))["items"])
print(f"memory: juke feed --json peaks at {small / 1024:.1f} MB on 5 MB and {large / 1024:.1f} MB on 50 MB ({items} items): "
      f"{'bounded' if large < small * 1.5 else 'GROWS with the feed'}")
PY
