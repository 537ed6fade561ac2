"""Juke's tag readers beside mutagen on mutagen's own test corpus (its tests/data, from its
source distribution, fetched into .build at the version installed; not committed).

For every file: `juke tags --json` must answer within 10 s without crashing (a refusal with
an error is an answer). For every file mutagen reads (an audio format with a length): Juke
must read it too and agree on title, artist, album (first value, trimmed) and duration (within
0.1 s or 1%). Prints each difference and why, then the counts; --min N fails the run when
fewer than N files agree.

Usage: python Scripts/tags-agreement.py <juke binary> [--min N] [--corpus DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tarfile

import mutagen
from mutagen.id3 import ID3
import bounded_run  # noqa: E402 - beside this script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus(directory):
    """mutagen's tests/data for the installed version, downloaded once."""
    if directory:
        return directory
    version = mutagen.version_string
    target = os.path.join(ROOT, ".build", "peer-corpus", f"mutagen-{version}")
    data = os.path.join(target, "tests", "data")
    if os.path.isdir(data):
        return data
    os.makedirs(os.path.dirname(target), exist_ok=True)
    download = os.path.join(ROOT, ".build", "peer-corpus", "sdist")
    subprocess.run([sys.executable, "-m", "pip", "download", "-q", f"mutagen=={version}", "--no-deps", "--no-binary", ":all:",
                    "-d", download], check=True)
    archive = os.path.join(download, f"mutagen-{version}.tar.gz")
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if "/tests/data/" in m.name and m.isfile()]
        tar.extractall(os.path.dirname(target), members=members, filter="data")
    return data


def first(value):
    if value is None:
        return None
    if isinstance(value, list):
        value = value[0] if value else None
    if value is None:
        return None
    # Several values in one (APEv2 and Vorbis write them NUL-separated): the first.
    text = str(value).strip("\x00").split("\x00")[0].strip()
    return text or None


def reference(path):
    """What mutagen reads: None when it does not read the file as audio."""
    try:
        f = mutagen.File(path)
    except Exception:
        return None
    if f is None or getattr(f, "info", None) is None or not getattr(f.info, "length", None):
        return None
    out = {"duration": float(f.info.length), "type": type(f).__name__}
    tags = f.tags
    keys = {
        "title": ["TIT2", "title", "Title", "\xa9nam", "TITLE"],
        "artist": ["TPE1", "artist", "Artist", "Author", "\xa9ART", "ARTIST"],
        "album": ["TALB", "album", "Album", "WM/AlbumTitle", "\xa9alb", "ALBUM"],
    }
    for field, names in keys.items():
        value = None
        if tags is not None:
            for name in names:
                try:
                    if name in tags:
                        raw = tags[name]
                        raw = getattr(raw, "text", raw)
                        if isinstance(raw, list) and raw and hasattr(raw[0], "value"):
                            raw = [r.value for r in raw]
                        value = first(raw)
                        break
                except (KeyError, ValueError, TypeError):
                    continue
        out[field] = value
    return out


def juke(binary, path):
    try:
        run = bounded_run.run([binary, "tags", "--json", path], 10, capture_output=True, text=True)
    except bounded_run.Hang:
        return "hang", None
    if run.returncode not in (0, 1) or not run.stdout.strip():
        return "crash", run.stderr[-300:]
    line = json.loads(run.stdout.strip().splitlines()[-1])
    return ("error", line["error"]) if "error" in line else ("read", line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("juke")
    parser.add_argument("--min", type=int, default=0)
    parser.add_argument("--corpus")
    args = parser.parse_args()
    data = corpus(args.corpus)
    files = sorted(os.path.join(data, name) for name in os.listdir(data) if os.path.isfile(os.path.join(data, name)))
    agree, differ, bad, compared = 0, [], [], 0
    for path in files:
        name = os.path.basename(path)
        outcome, juke_read = juke(args.juke, path)
        if outcome in ("hang", "crash"):
            bad.append(f"{name}: {outcome} {juke_read or ''}")
            continue
        ref = reference(path)
        if ref is None:
            continue
        compared += 1
        if outcome == "error":
            differ.append(f"{name} ({ref['type']}): mutagen reads it, Juke refuses: {juke_read}")
            continue
        problems = []
        for field in ("title", "artist", "album"):
            if ref[field] != first(juke_read.get(field)):
                problems.append(f"{field} {juke_read.get(field)!r} vs {ref[field]!r}")
        ours = juke_read.get("duration")
        if ours is None or abs(ours - ref["duration"]) > max(0.1, 0.01 * ref["duration"]):
            problems.append(f"duration {ours} vs {ref['duration']:.3f}")
        if problems:
            differ.append(f"{name} ({ref['type']}): " + "; ".join(problems))
        else:
            agree += 1
    for line in differ:
        print("differs:", line)
    for line in bad:
        print("FAILED:", line)
    print(f"mutagen {mutagen.version_string} corpus: {len(files)} files; mutagen reads {compared}; "
          f"Juke agrees on title, artist, album and duration for {agree}; {len(bad)} crashes or hangs")
    if bad or agree < args.min:
        sys.exit(1)


if __name__ == "__main__":
    main()
