#!/usr/bin/env bash
# Builds Juke (release) and runs it on its embedded defaults: http://127.0.0.1:8080, an
# SQLite database and the demo library in ./data. Extra arguments go to `juke serve`.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product juke
exec .build/release/juke serve "$@"
