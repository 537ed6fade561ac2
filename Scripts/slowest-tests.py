#!/usr/bin/env python3
"""Prints, from a pytest JUnit XML report, the browser pass's total test time and its five
slowest files with their time, one per line: test.sh keeps them for the summary at the end of
the run, where CI's log (which shows only its end) still has them. Prints nothing for a
report that is missing or unreadable: the summary is for reading, never a verdict."""
import collections
import sys
import xml.etree.ElementTree as ElementTree


def main(path, name):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError):
        return 0
    files = collections.Counter()
    for case in root.iter("testcase"):
        files[case.get("classname", "").rsplit(".", 1)[-1]] += float(case.get("time", "0") or 0)
    print(f"the {name} browser pass: {len(files)} files, {sum(files.values()):.0f} s of test time in all; the slowest:")
    for module, seconds in files.most_common(5):
        print(f"  {seconds:6.0f} s  {module}.py")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
