#!/usr/bin/env bash
# Builds Juke (release) and runs it on its embedded defaults: http://127.0.0.1:8080, an
# SQLite database and the demo library in ./data. Extra arguments go to `juke serve`.
# Dual Player's spoken demo audiobook needs espeak-ng and ffmpeg: they are installed here
# when missing, and poppler-utils, whose pdftotext reads PDFs' text for articles (Juke starts
# without them too, and says so; PDFs are then read by its own reader).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v espeak-ng >/dev/null 2>&1 || missing+=(espeak-ng)
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)   # reads PDFs' text (Juke's own reader otherwise)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null \
      || echo "Could not install ${missing[*]}: Dual Player's spoken demo will be skipped." >&2
  else
    echo "Install ${missing[*]} (as root: apt-get install ${missing[*]}) for Dual Player's spoken demo audiobook." >&2
  fi
fi
swift build -c release --product juke
exec .build/release/juke serve "$@"
