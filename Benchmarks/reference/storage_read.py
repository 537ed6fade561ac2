"""A book read from the shared bucket beside the same book from the data folder, through
`juke serve`, in one run (Scripts/bench-storage.sh).

Two servers on one machine: one keeps files in its data folder (the default), the other in
an S3-compatible bucket (SeaweedFS on loopback). The same book is uploaded to each, then,
alternating between them:
1. first byte: a player's opening GET of the whole file, timed to the first byte of the body;
2. a seek: a 64 KB Range read at a random offset, timed to its last byte.
Beside them, the same first byte and 64 KB read straight from the bucket (signed GETs, no
Juke in between): the floor of any server that reads from it. Medians of each, with the ratios.
"""
import http.client
import json
import os
import random
import statistics
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from bucket import ACCESS_KEY, SECRET, signed, signed_request  # noqa: E402
import urllib.request  # noqa: E402
from conftest import JukeServer, request  # noqa: E402

ROUNDS = int(os.environ.get("JUKE_BENCH_ROUNDS", "60"))
SEEK = 64 * 1024


def upload(server, token, data):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    c.request("POST", "/api/v1/dual/books?filename=book.mp3", data, {"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream"})
    r = c.getresponse()
    body = r.read()
    c.close()
    assert r.status == 201, body[:300]
    return json.loads(body)["id"]


def first_byte(port, token, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    began = time.perf_counter()
    c.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    r = c.getresponse()
    assert r.status == 200, r.status
    assert len(r.read(1)) == 1
    took = time.perf_counter() - began
    c.close()
    return took


def seek(port, token, path, offset):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    began = time.perf_counter()
    c.request("GET", path, headers={"Authorization": f"Bearer {token}", "Range": f"bytes={offset}-{offset + SEEK - 1}"})
    r = c.getresponse()
    data = r.read()
    took = time.perf_counter() - began
    assert r.status == 206 and len(data) == SEEK, (r.status, len(data))
    c.close()
    return took


def main():
    juke, work, book_path, endpoint, bucket = sys.argv[1:6]
    with open(book_path, "rb") as f:
        book = f.read()
    env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET)
    folders = [os.path.join(work, name) for name in ("local", "bucket")]
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
    local = JukeServer(folders[0], demo=False, binary=juke)
    remote = JukeServer(folders[1], demo=False, binary=juke, env=env,
                        extra_args=["--storage", f"s3://{bucket}/bench", "--s3-endpoint", endpoint])
    try:
        paths = {}
        for server in (local, remote):
            token = request(server.base, "POST", "/api/v1/auth/register", {"username": "bench", "password": "bench password"})[1]["token"]
            paths[server.port] = (token, f"/api/v1/dual/books/{upload(server, token, book)}/audio")
        # The object's key in the bucket, for the direct reads.
        listing = signed(endpoint, "GET", "/" + bucket, "list-type=2&prefix=bench%2Fdual%2Fbooks%2F")[1].decode()
        key = listing.split("<Key>")[1].split("</Key>")[0]
        direct_path = "/" + bucket + "/" + urllib.parse.quote(key)

        rng = random.Random(7)
        times = {"local first": [], "bucket first": [], "local seek": [], "bucket seek": [], "direct seek": [], "direct first": []}
        for _ in range(ROUNDS):
            offset = rng.randrange(0, len(book) - SEEK)
            for name, server in (("local", local), ("bucket", remote)):
                token, path = paths[server.port]
                times[f"{name} first"].append(first_byte(server.port, token, path))
                times[f"{name} seek"].append(seek(server.port, token, path, offset))
            began = time.perf_counter()
            with urllib.request.urlopen(signed_request(endpoint, "GET", direct_path), timeout=60) as whole:
                assert len(whole.read(1)) == 1
                times["direct first"].append(time.perf_counter() - began)
            began = time.perf_counter()
            status, data = signed(endpoint, "GET", direct_path, headers={"Range": f"bytes={offset}-{offset + SEEK - 1}"})
            times["direct seek"].append(time.perf_counter() - began)
            assert status == 206 and data == book[offset:offset + SEEK], status

        def ms(name):
            return statistics.median(times[name]) * 1000

        print(f"book: {len(book) / 1e6:.1f} MB MP3; {ROUNDS} rounds, each server in turn; medians")
        print(f"first byte:      data folder {ms('local first'):.2f} ms   bucket {ms('bucket first'):.2f} ms"
              f"   ratio {ms('bucket first') / ms('local first'):.2f}x;   the bucket's first byte directly {ms('direct first'):.2f} ms")
        print(f"64 KB seek read: data folder {ms('local seek'):.2f} ms   bucket {ms('bucket seek'):.2f} ms"
              f"   ratio {ms('bucket seek') / ms('local seek'):.2f}x;"
              f"   the bucket read directly {ms('direct seek'):.2f} ms (Juke adds {ms('bucket seek') - ms('direct seek'):.2f} ms)")
    finally:
        local.stop()
        remote.stop()


if __name__ == "__main__":
    main()
