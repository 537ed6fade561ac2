#!/usr/bin/env python3
"""Juke's PDF text beside poppler's pdftotext, with pypdf's beside it, on pypdf's own corpus of
real PDFs (its resources/ and sample-files/, from its source distribution, fetched into .build
at the version installed; never committed).

For every PDF pdftotext reads with words: the words (lower-cased, as a multiset) of pdftotext's
text, of `juke article --json` (with poppler, as Juke reads where poppler is installed, and
`--without-poppler`, Juke's own reader alone) and of pypdf's `extract_text()`; then each one's
agreement with pdftotext: a token F1, twice the shared words over both counts, summed over all
files. A reader that refuses or fails a file agrees on nothing there. Prints the figures per file
(--verbose) and the totals; exits non-zero when Juke with poppler is below --min or below
pypdf, or Juke's own reader is below --min-own. The floors are compared with the figures as
printed (to 0.01%), so a floor copied from the output holds.

Usage: Scripts/pdf-agreement.py <juke binary> [--min 0.99] [--min-own 0.8] [--corpus DIR] [--verbose]
(run with the tools venv's Python: pypdf)."""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tarfile

import logging

import pypdf
import bounded_run  # noqa: E402 - beside this script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORD = re.compile(r"\w+", re.UNICODE)


def corpus(directory):
    """pypdf's resources/ and sample-files/ for the installed version, downloaded once."""
    if directory:
        return [directory]
    version = pypdf.__version__
    target = os.path.join(ROOT, ".build", "peer-corpus", f"pypdf-{version}")
    folders = [os.path.join(target, name) for name in ("resources", "sample-files")]
    if not os.path.isdir(folders[0]):
        download = os.path.join(ROOT, ".build", "peer-corpus", "sdist")
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", f"pypdf=={version}", "--no-deps", "--no-binary", ":all:",
                        "-d", download], check=True)
        with tarfile.open(os.path.join(download, f"pypdf-{version}.tar.gz")) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and ("/resources/" in m.name or "/sample-files/" in m.name)]
            tar.extractall(os.path.dirname(target), members=members, filter="data")
    return [f for f in folders if os.path.isdir(f)]


def words(text):
    return collections.Counter(w.lower() for w in WORD.findall(text or ""))


def poppler(path):
    try:
        run = bounded_run.run(["pdftotext", "-enc", "UTF-8", "-q", path, "-"], 60, capture_output=True)
    except bounded_run.Hang:
        return ""
    return run.stdout.decode("utf-8", "replace") if run.returncode == 0 else ""


def juke(binary, path, own):
    try:
        run = bounded_run.run([binary, "article", "--json", path] + (["--without-poppler"] if own else []), 60, capture_output=True, text=True)
    except bounded_run.Hang:
        return None, "hang"
    if run.returncode != 0:
        return None, run.stderr.strip().splitlines()[-1][:120] if run.stderr.strip() else f"exit {run.returncode}"
    article = json.loads(run.stdout)
    return " ".join(p for c in article["chapters"] for p in c["paragraphs"]), None


def reference(path):
    try:
        reader = pypdf.PdfReader(path)
        return "\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception as error:  # pypdf refuses what it cannot read: it agrees on nothing there
        return ""


def main():
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings about damaged files are not figures
    parser = argparse.ArgumentParser()
    parser.add_argument("juke")
    parser.add_argument("--min", type=float, default=0.0)
    parser.add_argument("--min-own", type=float, default=0.0)
    parser.add_argument("--corpus")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    files = sorted(os.path.join(where, name) for folder in corpus(args.corpus) for where, _, names in os.walk(folder) for name in names
                   if name.lower().endswith(".pdf"))
    readers = ("juke", "juke-own", "pypdf")
    shared = dict.fromkeys(readers, 0)
    counted = dict.fromkeys(readers, 0)
    total_ref = 0
    compared = 0
    crashes = []
    for path in files:
        name = os.path.basename(path)
        ref = words(poppler(path))
        texts = {}
        notes = []
        for reader in ("juke", "juke-own"):
            text, failure = juke(args.juke, path, reader == "juke-own")
            if failure in ("hang",) or (failure or "").startswith("exit "):
                crashes.append(f"{name} ({reader}): {failure}")
            if failure:
                notes.append(f"{reader}: {failure}")
            texts[reader] = text or ""
        texts["pypdf"] = reference(path)
        if not ref:
            continue  # pdftotext reads no words (a scan, an encrypted file): nothing to agree on
        compared += 1
        total_ref += sum(ref.values())
        row = []
        for reader in readers:
            ours = words(texts[reader])
            common = sum((ours & ref).values())
            shared[reader] += common
            counted[reader] += sum(ours.values())
            f1 = 2 * common / max(1, sum(ours.values()) + sum(ref.values()))
            row.append(f"{reader} {f1:6.1%}")
        if args.verbose:
            print(f"  {os.path.relpath(path, os.path.dirname(os.path.dirname(path)))[:52]:52s} {sum(ref.values()):6d} words  " + "  ".join(row) + ("  (" + "; ".join(notes) + ")" if notes else ""))
    figures = {r: 2 * shared[r] / max(1, counted[r] + total_ref) for r in readers}
    print(f"== PDFs: {compared} of {len(files)} files with text to pdftotext ({total_ref} words); token F1 against pdftotext: "
          f"Juke {figures['juke']:.2%}, Juke's own reader {figures['juke-own']:.2%}, pypdf {figures['pypdf']:.2%}")
    failed = False
    for crash in crashes:
        print(f"FAIL: {crash}")
        failed = True
    # At the printed precision: a floor is the last measure as printed.
    printed, printed_own = round(figures["juke"], 4), round(figures["juke-own"], 4)
    if printed < args.min or figures["juke"] < figures["pypdf"]:
        print(f"FAIL: Juke below {args.min:.2%} or below pypdf")
        failed = True
    if printed_own < args.min_own:
        print(f"FAIL: Juke's own reader below {args.min_own:.2%}")
        failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
