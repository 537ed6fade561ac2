#!/usr/bin/env bash
# Test and benchmark tooling in Python lives in a virtual environment of its own under
# .build (Debian's system Python refuses global pip installs); Juke itself needs no Python.
# Usage: Scripts/tools-venv.sh <module>=<pip package>...   prints the venv's directory,
# after installing whichever of the packages cannot be imported yet.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=.build/tools-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" >&2 2>/dev/null || {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$VENV" >&2
  }
fi
missing=()
for spec in "$@"; do
  "$VENV/bin/python" -c "import ${spec%%=*}" 2>/dev/null || missing+=("${spec#*=}")
done
if [ ${#missing[@]} -gt 0 ]; then "$VENV/bin/pip" install -q "${missing[@]}" >&2; fi
echo "$(pwd)/$VENV"
