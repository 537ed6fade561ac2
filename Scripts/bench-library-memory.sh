#!/bin/bash
# Resident memory of `juke serve` on a 100,000-track library (issue 51), after the search
# index is built, pages of every order are browsed and 20 searches are made.
#
# The library: JUKE_CATALOG_BENCH=none JUKE_CATALOG_BENCH_DB=/tmp/lib/juke.sqlite \
#   swift test --skip-build --filter writesALargeLibraryForAServer   (100,000 tracks through
#   the scanner's store path; it stops before its 5-minute limit, each batch kept, and goes on
#   from there when run again: run it until it prints "complete").
# usage: Scripts/bench-library-memory.sh <juke binary> <label> <port> <library.sqlite>
# SETTLE: seconds to let the index build before browsing (default 90).
set -u
BIN=$1; LABEL=$2; PORT=$3; LIBRARY=$4
D=$(mktemp -d /tmp/juke-memory-$LABEL.XXXXXX)
cp "$LIBRARY" $D/juke.sqlite
$BIN serve --data-dir $D --no-demo --port $PORT --no-pin-event-loops --log-level warning > $D/log 2>&1 &
PID=$!
echo $PID > $D/pid
t0=$(date +%s.%N)
until curl -sf localhost:$PORT/health >/dev/null; do sleep 0.2; done
t1=$(date +%s.%N)
rss() { grep -E "VmRSS|VmHWM" /proc/$PID/status | awk '{printf "%s %d MB  ", $1, $2/1024}'; echo; }
echo "$LABEL: /health after $(echo "$t1 - $t0" | bc) s; $(rss)"
TOKEN=$(curl -s -X POST localhost:$PORT/api/v1/auth/register -H 'content-type: application/json' -d '{"username":"bench","password":"correct horse battery"}' | python3 -c 'import sys,json; print(json.load(sys.stdin).get("token",""))')
H="Authorization: Bearer $TOKEN"
s=$(date +%s.%N); curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/search?q=song&limit=20"; e=$(date +%s.%N)
echo "$LABEL: first search $(echo "$e - $s" | bc) s; $(rss)"
sleep ${SETTLE:-90}
echo "$LABEL: after settling; $(rss)"
for sort in artist name year newest random; do
  for off in 0 5000 9950; do curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/albums?sort=$sort&limit=50&offset=$off"; done
done
for off in 0 1000 2400; do curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/artists?limit=50&offset=$off"; done
for off in 0 50000 99950; do curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/tracks?limit=50&offset=$off"; done
curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/genres"; curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/years"
for q in a b be bea song track ar artist rock jazz 1999 "artist 1" "the" "al" "album 7" "x" "so tr" "liv" "sonf" "trak"; do
  curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/search?q=$(python3 -c "import urllib.parse,sys; print(urllib.parse.quote(sys.argv[1]))" "$q")&limit=50"
done
s=$(date +%s.%N); curl -s -o /dev/null -H "$H" "localhost:$PORT/api/v1/catalog/search?q=song&limit=20"; e=$(date +%s.%N)
echo "$LABEL: after browsing and 20 searches (last search $(echo "$e - $s" | bc) s); $(rss)"
kill $PID; wait $PID 2>/dev/null
rm -rf $D
