#!/usr/bin/env python3
"""Juke's FIT reader beside python-fitparse (and fitdecode where fitparse refuses a file) on
python-fitparse's own test files: every file read by `juke workout` without a crash, and
where the reference reads a file, the same heart-rate records (timestamp and bpm, zeros left
out: a strap without skin contact). Then Juke's own exports: each workout written as FIT is
read by fitparse with the same records, and written as TCX is read back by Juke the same.

Usage: workout-agreement.py <juke binary> <folder of .fit files> [--min N]
Exits 1 when a file crashes Juke, when fewer than N files agree, or an export disagrees."""
import calendar
import glob
import json
import os
import subprocess
import sys
import tempfile
import warnings

import fitdecode
import fitparse
import bounded_run  # noqa: E402 - beside this script

FIT_EPOCH = 631065600


def unix(timestamp):
    """fitparse's timestamp: a datetime, or the raw number when it is below 0x10000000 (the
    protocol's "seconds since the device was switched on", which Juke reads as FIT time)."""
    if isinstance(timestamp, int):
        return timestamp + FIT_EPOCH
    return calendar.timegm(timestamp.utctimetuple())

warnings.simplefilter("ignore")


def reference(path):
    """(which reader, [(unix seconds, bpm)]) or (None, why) when neither reads the file."""
    try:
        records = []
        for message in fitparse.FitFile(path).get_messages("record"):
            bpm, ts = message.get_value("heart_rate"), message.get_value("timestamp")
            if bpm and ts is not None:
                records.append((unix(ts), bpm))
        return "fitparse", sorted(records)
    except Exception as error:  # noqa: BLE001 - fitparse's refusals are the point here
        why = f"{type(error).__name__}: {error}"
    try:
        records = []
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED) as reader:
            for frame in reader:
                if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record" and frame.has_field("heart_rate"):
                    bpm, ts = frame.get_value("heart_rate"), frame.get_value("timestamp", fallback=None)
                    if bpm and ts is not None:
                        records.append((unix(ts), bpm))
        return "fitdecode", sorted(records)
    except Exception as error:  # noqa: BLE001
        return None, why + f"; fitdecode: {type(error).__name__}"


def juke(binary, path, *extra):
    try:
        run = bounded_run.run([binary, "workout", "--json", "--records", *extra, path], 60, capture_output=True, text=True)
    except bounded_run.Hang:
        return "crash", "hang: past a minute of CPU"
    if run.returncode < 0 or run.returncode > 1:
        return "crash", run.stderr.strip()[-300:]
    if run.returncode == 1:
        return "refused", run.stderr.strip()
    return "read", json.loads(run.stdout.splitlines()[-1])


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    minimum = int(sys.argv[sys.argv.index("--min") + 1]) if "--min" in sys.argv else 0
    files = sorted(glob.glob(os.path.join(folder, "*.fit")) + glob.glob(os.path.join(folder, "*.FIT")))
    agree = compared = crashes = exports = export_failures = 0
    for path in files:
        name = os.path.basename(path)
        status, result = juke(binary, path)
        if status == "crash":
            crashes += 1
            print(f"CRASH {name}: {result}")
            continue
        which, expected = reference(path)
        if which is None:
            print(f"  {name}: neither reference reads it ({expected}); Juke {status}" + (f" ({result['damage']})" if status == "read" and result["damage"] else ""))
            continue
        compared += 1
        # Juke gives the records in time order (a multisport file has a few out of order).
        got = sorted(tuple(r) for r in result["records"]) if status == "read" else []
        if got == expected:
            agree += 1
            print(f"  {name}: {len(got)} heart-rate records, as {which}")
        else:
            print(f"DIFFER {name}: Juke {len(got)} records, {which} {len(expected)}")
        if status == "read" and got:
            exports += 1
            with tempfile.TemporaryDirectory() as tmp:
                fit, tcx = os.path.join(tmp, "out.fit"), os.path.join(tmp, "out.tcx")
                subprocess.run([binary, "workout", "--to", "fit", "--output", fit, path], capture_output=True, check=True, timeout=60)
                subprocess.run([binary, "workout", "--to", "tcx", "--output", tcx, path], capture_output=True, check=True, timeout=60)
                fit_records = [
                    (unix(m.get_value("timestamp")), m.get_value("heart_rate"))
                    for m in fitparse.FitFile(fit).get_messages("record")
                ]
                _, tcx_read = juke(binary, tcx)
                tcx_records = sorted(tuple(r) for r in tcx_read["records"])
                if sorted(fit_records) != got or tcx_records != got:
                    export_failures += 1
                    print(f"EXPORT DIFFERS {name}: FIT read by fitparse {len(fit_records)}, TCX read back {len(tcx_records)}, of {len(got)}")
    print(f"{agree} of {compared} files agree with the reference on heart-rate records; {len(files) - compared} read by neither; "
          f"{crashes} crashes; {exports - export_failures} of {exports} exports read back the same")
    if crashes or agree < minimum or export_failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
