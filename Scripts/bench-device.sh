#!/usr/bin/env bash
# Saving on the device (Dual Player, issue 28): a save into Cache Storage beside a plain fetch
# of the same file (the floor), and a seek read from the device beside one from the network,
# each the median of 7 in the same run, in headless Chromium against the release build.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v ffmpeg >/dev/null || missing+=(ffmpeg)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
/usr/bin/python3 -c 'import selenium' 2>/dev/null || missing+=(python3-selenium)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; fi
swift build -c release --product juke >/dev/null
JUKE_BINARY="$PWD/.build/release/juke" /usr/bin/python3 Benchmarks/reference/device_save.py
