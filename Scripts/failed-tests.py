#!/usr/bin/env python3
"""Prints the node ids of the tests a pytest JUnit XML report lists as failed or errored, one
per line, so that test.sh can run them again one at a time. Exits 1 when the report cannot be
read, so that a run that crashed before its report is never taken as "nothing failed"."""
import sys
import xml.etree.ElementTree as ElementTree


def main(path):
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        print(f"cannot read {path}: {error}", file=sys.stderr)
        return 1
    for case in root.iter("testcase"):
        if case.find("failure") is None and case.find("error") is None:
            continue
        # classname "Tests.Browser.test_x" and name "test_y[param]" -> Tests/Browser/test_x.py::test_y[param]
        module = case.get("classname", "").replace(".", "/") + ".py"
        print(f"{module}::{case.get('name', '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
