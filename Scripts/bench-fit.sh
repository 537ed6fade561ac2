#!/usr/bin/env bash
# FIT parsing: every file of python-fitparse's test set that fitparse reads
# (Tests/WorkoutsTests/Fixtures/fitparse), decoded whole by Juke (median of 20 rounds),
# fitparse (median of 3) and fitdecode (median of 5) in the same run, with the same counts
# of messages and heart-rate records (a record without a time is no sample), and the ratios; targets >= 50x fitparse, >= 10x fitdecode.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=Tests/WorkoutsTests/Fixtures/fitparse
TOOLS=$(Scripts/tools-venv.sh fitparse=fitparse fitdecode=fitdecode)
swift build -c release --product JukeBench >/dev/null
LIST=$(mktemp)
trap 'rm -f "$LIST"' EXIT
# The files both references read whole (the damaged ones are left out of the timing).
"$TOOLS/bin/python" - "$FILES" > "$LIST" <<'PY'
import glob, os, sys, warnings
import fitparse
warnings.simplefilter("ignore")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.fit"))):
    try:
        list(fitparse.FitFile(path).get_messages())
        print(os.path.abspath(path))
    except Exception:
        pass
PY
cat $(cat "$LIST") > /dev/null   # warm the page cache

juke=$(.build/release/JukeBench fit "$LIST" 20); echo "$juke"
reference=$("$TOOLS/bin/python" - "$LIST" <<'PY'
import sys, time, warnings
import fitdecode, fitparse
warnings.simplefilter("ignore")
paths = open(sys.argv[1]).read().split()
blobs = [open(p, "rb").read() for p in paths]

def with_fitparse():
    messages = records = 0
    for blob in blobs:
        for m in fitparse.FitFile(blob).get_messages():
            messages += 1
            if m.name == "record" and m.get_value("heart_rate") and m.get_value("timestamp") is not None:
                records += 1
    return messages, records

def with_fitdecode():
    messages = records = 0
    for blob in blobs:
        with fitdecode.FitReader(blob, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
            for frame in reader:
                if isinstance(frame, fitdecode.FitDataMessage):
                    messages += 1
                    if (frame.name == "record" and frame.get_value("heart_rate", fallback=None)
                            and frame.get_value("timestamp", fallback=None) is not None):
                        records += 1
    return messages, records

for name, fn, rounds in (("fitparse", with_fitparse, 3), ("fitdecode", with_fitdecode, 5)):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        counts = fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"{name}: {len(blobs)} files, {counts[0]} messages, {counts[1]} heart-rate records; median {times[len(times) // 2]:.1f} ms ({rounds} rounds)")
PY
)
echo "$reference"
python3 - "$juke" "$reference" <<'PY'
import re, sys
ours = float(re.search(r"median ([0-9.]+) ms", sys.argv[1]).group(1))
ours_records = re.search(r"(\d+) heart-rate records", sys.argv[1]).group(1)
for line in sys.argv[2].splitlines():
    name = line.split(":")[0]
    theirs = float(re.search(r"median ([0-9.]+) ms", line).group(1))
    records = re.search(r"(\d+) heart-rate records", line).group(1)
    target = 50 if name == "fitparse" else 10
    same = "the same heart-rate records" if records == ours_records else f"DIFFERENT record counts ({records} vs Juke's {ours_records})"
    print(f"== FIT parsing: Juke {theirs / ours:.1f}x {name}'s speed (target >= {target}x), {same}")
PY
