#!/usr/bin/env python3
"""Every module a target imports is one it declares in its package's manifest.

SwiftPM on Linux lets a target import any module that happens to be built before it (a
dependency of a dependency), and its `--explicit-target-dependency-import-check` does not
check anything on Linux (tried with Swift 6.3, both build systems: an undeclared import
builds). An undeclared import is a dependency nobody sees in Package.swift or in
docs/ARCHITECTURE.md, and it breaks the day the module that brought it in drops it. So
the test command reads each package's manifest (`swift package dump-package`) and every
source file's imports, and fails on an import that is neither a declared target or product
nor a module of the toolchain.

A product's module is the product's name: true of every product Juke uses (a product that
differs would show here as an undeclared import, not as a silent pass).

docs/ARCHITECTURE.md's module table says what each target imports; with `--architecture FILE`
its last column is checked against the first package's manifest too (Juke's own modules only),
so the map and Package.swift cannot drift apart.

Usage: check-imports.py [--architecture FILE] PACKAGE_DIR [PACKAGE_DIR ...]; exit 1 on any
undeclared import or disagreement.
"""
import json
import os
import re
import subprocess
import sys

# The toolchain's own modules: Swift's standard library and Foundation, the C library, and
# the test frameworks.
TOOLCHAIN = {
    "Swift", "_Concurrency", "_StringProcessing", "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "Dispatch", "Synchronization", "Observation", "RegexBuilder", "Glibc", "Musl",
    "Darwin", "WinSDK", "Android", "os", "Testing", "XCTest", "PackagePlugin", "PackageDescription", "CryptoKit",
}

IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"
)


def declared(target):
    names = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def default_path(package_dir, target):
    if target.get("path"):
        return os.path.join(package_dir, target["path"])
    folder = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return os.path.join(package_dir, folder, target["name"])


def imports(path):
    for root, _, files in os.walk(path):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            file = os.path.join(root, name)
            with open(file, encoding="utf-8") as source:
                in_string = False  # inside a multi-line string literal (generated code is text)
                for number, line in enumerate(source, 1):
                    match = None if in_string else IMPORT.match(line)
                    if match:
                        yield file, number, match.group(1)
                    if line.count('"""') % 2 == 1:
                        in_string = not in_string


def check(package_dir):
    manifest = manifest_of(package_dir)
    problems = []
    checked = 0
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary"):
            continue
        allowed = declared(target) | TOOLCHAIN | {target["name"]}
        for file, number, module in imports(default_path(package_dir, target)):
            checked += 1
            if module not in allowed:
                problems.append(f"{os.path.relpath(file)}:{number}: {target['name']} imports {module}, which its manifest does not declare")
    return checked, problems


def manifest_of(package_dir):
    return json.loads(
        subprocess.run(["swift", "package", "--package-path", package_dir, "dump-package"], check=True, capture_output=True, text=True).stdout
    )


ROW = re.compile(r"^\| `([A-Za-z0-9]+)` \|.*\| ([^|]+) \|$")


def check_architecture(file, package_dir):
    """The table's rows against the manifest: a row per target, each with its Juke imports."""
    manifest = manifest_of(package_dir)
    names = {t["name"] for t in manifest["targets"] if t["type"] != "test"}
    declared_juke = {t["name"]: {d for d in declared(t) if d in names} for t in manifest["targets"] if t["type"] != "test"}
    rows = {}
    with open(file, encoding="utf-8") as page:
        for line in page:
            match = ROW.match(line.strip())
            if match and match.group(1) in names:
                rows[match.group(1)] = set(re.findall(r"`([A-Za-z0-9]+)`", match.group(2)))
    problems = [f"{file}: no row for {name}" for name in sorted(names - rows.keys())]
    for name, listed in sorted(rows.items()):
        if listed != declared_juke[name]:
            missing, extra = sorted(declared_juke[name] - listed), sorted(listed - declared_juke[name])
            problems.append(f"{file}: {name}'s row differs from Package.swift (missing {missing}, not declared {extra})")
    return problems


def main(arguments):
    architecture = None
    if arguments[:1] == ["--architecture"]:
        architecture, arguments = arguments[1], arguments[2:]
    packages = arguments or ["."]
    total, problems = 0, []
    for package in packages:
        checked, found = check(package)
        total += checked
        problems += found
    if architecture:
        problems += check_architecture(architecture, packages[0])
    for problem in problems:
        print(problem)
    if total == 0:
        print("no import was read: is the package path right?")
        return 1
    print(f"{total} imports read in {len(packages)} package(s); {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
