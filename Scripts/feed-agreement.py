#!/usr/bin/env python3
"""Juke's feed parser beside feedparser on feedparser's own well-formed test feeds: for each
feed, the feed's title and link and each item's title, link, enclosure URL and date, as
`juke feed --json` prints them and as feedparser reads them. Prints how many feeds agree on
all of these, and why the others differ; fails when fewer than --min agree, or when juke
crashes or hangs on any feed (well-formed or not).

Usage: feed-agreement.py <juke binary> <feedparser-tests folder> [--min N]   (run with a
Python that has feedparser: Scripts/tools-venv.sh feedparser=feedparser)"""
import argparse
import calendar
import concurrent.futures
import json
import os
import subprocess
import sys
import time

import feedparser
import bounded_run  # noqa: E402 - beside this script


def iso(parsed):
    if not parsed:
        return None
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(calendar.timegm(parsed)))


def reference(path):
    d = feedparser.parse(path)
    items = []
    for e in d.entries:
        enclosures = e.get("enclosures") or []
        items.append({
            "title": e.get("title"),
            "link": e.get("link"),
            "enclosure_url": enclosures[0].get("href") if enclosures else None,
            "published": iso(e.get("published_parsed") or e.get("updated_parsed") or e.get("created_parsed")),
        })
    return {"title": d.feed.get("title"), "link": d.feed.get("link"), "items": items}


def juke(binary, path):
    try:
        result = bounded_run.run([binary, "feed", "--json", path], 20, capture_output=True, text=True)
    except bounded_run.Hang:
        return "hang", None
    if result.returncode < 0 or result.returncode > 1:
        return f"crash (status {result.returncode}): {result.stderr[-300:]}", None
    if result.returncode == 1:
        return None, None  # not read as a feed: a clear error
    return None, json.loads(result.stdout)


def needs_http(path):
    """Tests whose expectation depends on HTTP headers the harness would have sent."""
    with open(path, "rb") as f:
        head = f.read(2000)
    return b"Header:" in head


def differences(ours, theirs):
    out = []
    if ours is None:
        return ["juke did not read it as a feed"]
    for field in ("title", "link"):
        if (ours.get(field) or None) != (theirs[field] or None):
            out.append(f"feed {field}: {ours.get(field)!r} vs {theirs[field]!r}")
    if len(ours["items"]) != len(theirs["items"]):
        out.append(f"{len(ours['items'])} items vs {len(theirs['items'])}")
        return out
    for n, (a, b) in enumerate(zip(ours["items"], theirs["items"])):
        for field in ("title", "link", "enclosure_url", "published"):
            if (a.get(field) or None) != (b[field] or None):
                out.append(f"item {n} {field}: {a.get(field)!r} vs {b[field]!r}")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("juke")
    parser.add_argument("fixtures")
    parser.add_argument("--min", type=int, default=0)
    parser.add_argument("--show", type=int, default=40)
    args = parser.parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.fixtures) for f in fs if f.endswith((".xml", ".rdf")))
    wellformed = [f for f in files if "/wellformed/" in f and not needs_http(f)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = dict(zip(files, pool.map(lambda f: juke(args.juke, f), files)))
    failures = [(f, problem) for f, (problem, _) in runs.items() if problem]
    agree, disagree = 0, []
    for f in wellformed:
        diff = differences(runs[f][1], reference(f))
        if diff:
            disagree.append((os.path.relpath(f, args.fixtures), diff))
        else:
            agree += 1
    print(f"feeds read without a crash or hang: {len(files) - len(failures)} of {len(files)}")
    print(f"well-formed feeds (HTTP-header tests left out): {len(wellformed)}; agreeing with feedparser "
          f"{feedparser.__version__} on titles, links, enclosure URLs and dates: {agree}")
    for name, diff in disagree[:args.show]:
        print(f"  {name}: {'; '.join(diff)[:300]}")
    if len(disagree) > args.show:
        print(f"  ... and {len(disagree) - args.show} more")
    for f, problem in failures:
        print(f"FAILED {f}: {problem}")
    if failures or agree < args.min:
        sys.exit(1)


if __name__ == "__main__":
    main()
