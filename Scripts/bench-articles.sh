#!/usr/bin/env bash
# Article extraction: the 36 saved pages of Tests/ArticlesTests/Fixtures/readability-pages
# (Mozilla's Readability test pages, 4.8 MB) extracted by Juke (median of 5 rounds) beside
# readability-lxml (median of 3) in the same run, with the ratio; target >= 10x. Then the
# agreement of their texts (Scripts/article-agreement.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PAGES=Tests/ArticlesTests/Fixtures/readability-pages
TOOLS=$(Scripts/tools-venv.sh readability=readability-lxml lxml_html_clean=lxml_html_clean)
swift build -c release --product JukeBench >/dev/null
swift build -c release --product juke >/dev/null
cat "$PAGES"/*.html > /dev/null   # warm the page cache

juke=$(.build/release/JukeBench articles "$PAGES" 5); echo "$juke"
reference=$("$TOOLS/bin/python" - "$PAGES" <<'PY'
import os, sys, time
from readability import Document
folder = sys.argv[1]
pages = [open(os.path.join(folder, p), "rb").read() for p in sorted(os.listdir(folder)) if p.endswith(".html")]
times = []
for _ in range(3):
    start = time.perf_counter()
    for page in pages:
        Document(page).summary(html_partial=True)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"readability-lxml: {len(pages)} pages; median {times[1]:.1f} ms, best {times[0]:.1f} ms (3 rounds)")
PY
)
echo "$reference"
python3 - "$juke" "$reference" <<'PY'
import re, sys
ours = float(re.search(r"median ([0-9.]+) ms", sys.argv[1]).group(1))
theirs = float(re.search(r"median ([0-9.]+) ms", sys.argv[2]).group(1))
print(f"== article extraction: Juke {theirs / ours:.1f}x readability-lxml's speed (target >= 10x)")
PY
"$TOOLS/bin/python" Scripts/article-agreement.py .build/release/juke "$PAGES"
