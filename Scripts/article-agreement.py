#!/usr/bin/env python3
"""Juke's article extraction against readability-lxml's on saved web pages (Mozilla's
Readability test pages, Tests/ArticlesTests/Fixtures/readability-pages): for each page, the
words of the body each extracts (lower-cased, as a multiset), then the share of readability's
words that Juke's text has (recall) and the share of Juke's words that readability's has
(precision), summed over all pages. Fails under --min for either.

Usage: Scripts/article-agreement.py <juke binary> <pages folder> [--min 0.9] [--verbose]
(run with the tools venv's Python: readability-lxml and lxml_html_clean)."""
import collections
import json
import os
import re
import subprocess
import sys

import lxml.html
from readability import Document

WORD = re.compile(r"\w+", re.UNICODE)


def words(text):
    return collections.Counter(w.lower() for w in WORD.findall(text))


def reference(html):
    summary = Document(html).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    juke, folder = args[0], args[1]
    minimum = float(sys.argv[sys.argv.index("--min") + 1]) if "--min" in sys.argv else 0.0
    verbose = "--verbose" in sys.argv
    pages = sorted(p for p in os.listdir(folder) if p.endswith(".html"))
    shared = ours_total = ref_total = 0
    rows = []
    for page in pages:
        path = os.path.join(folder, page)
        with open(path, "rb") as f:
            html = f.read()
        ref = words(reference(html))
        run = subprocess.run([juke, "article", "--json", path], capture_output=True, text=True, timeout=60)
        if run.returncode != 0:
            print(f"{page}: juke failed: {run.stderr.strip()}")
            ours = collections.Counter()
        else:
            article = json.loads(run.stdout)
            ours = words(" ".join(p for c in article["chapters"] for p in c["paragraphs"]))
        common = sum((ours & ref).values())
        shared += common
        ours_total += sum(ours.values())
        ref_total += sum(ref.values())
        recall = common / max(1, sum(ref.values()))
        precision = common / max(1, sum(ours.values()))
        rows.append((page, recall, precision, sum(ours.values()), sum(ref.values())))
    for page, recall, precision, n_ours, n_ref in rows:
        if verbose or recall < 0.8 or precision < 0.8:
            print(f"  {page:28s} found {recall:5.1%} of readability's {n_ref:6d} words; {precision:5.1%} of Juke's {n_ours:6d} are readability's")
    recall = shared / max(1, ref_total)
    precision = shared / max(1, ours_total)
    print(f"== articles: {len(pages)} pages; Juke found {recall:.1%} of readability-lxml's words and {precision:.1%} of Juke's words are "
          f"readability-lxml's ({ours_total} words against {ref_total})")
    if recall < minimum or precision < minimum:
        print(f"FAIL: below {minimum:.0%}")
        sys.exit(1)


if __name__ == "__main__":
    main()
