"""A book's chapter cut out for a phone to keep, through `juke serve`, beside ffmpeg run
directly (Scripts/bench-chapter-cut.sh).

1. First request: 7 chapters of a 2-hour M4B, each asked for once (so each is cut, never the
   cache), timed from sending the request to the last byte of the answer; beside it, ffmpeg
   cutting the same chapter with the same options into a file (the floor: Juke's route is
   that ffmpeg run plus serving the file).
2. Again: the same 7 chapters asked for a second time (from the server's cache), beside the
   same number of bytes read from the book's own file by Range (serving a file, the floor).
Each figure is the median, with its reference measured in the same run.
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from conftest import JukeServer, request


def call(port, method, path, token, raw=None, headers=None):
    """A request whose body or answer is bytes (an upload, audio), not JSON."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request(method, path, raw, {"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream", **(headers or {})})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def timed_get(port, token, path, headers=None):
    began = time.perf_counter()
    status, data = call(port, "GET", path, token, headers=headers)
    took = time.perf_counter() - began
    assert status in (200, 206), (status, data[:200])
    return took, len(data)


def ffmpeg_cut(path, start, end, out):
    began = time.perf_counter()
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-ss", f"{start:.3f}", "-to", f"{end:.3f}", "-i", path,
                    "-map", "0:a:0", "-vn", "-sn", "-dn", "-c:a", "copy", "-map_metadata", "-1", "-map_chapters", "-1",
                    "-f", "ipod", "-movflags", "+faststart", out], check=True)
    return time.perf_counter() - began


def main():
    juke, work, book_path = sys.argv[1], sys.argv[2], sys.argv[3]
    data = os.path.join(work, "data")
    os.makedirs(data, exist_ok=True)
    server = JukeServer(data, demo=False, binary=juke)
    port = server.port
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "bench", "password": "bench password"})
        token = body["token"]
        with open(book_path, "rb") as f:
            status, body = call(port, "POST", "/api/v1/dual/books?filename=book.m4b", token, raw=f.read())
        assert status == 201, body[:300]
        book = json.loads(body)
        chapters = book["chapters"]
        picks = [1, 4, 7, 10, 13, 16, 19]
        base = f"/api/v1/dual/books/{book['id']}"

        first, floor, sizes = [], [], []
        with tempfile.TemporaryDirectory() as scratch:
            for i in picks:
                took, size = timed_get(port, token, f"{base}/chapters/{i}/audio")
                first.append(took)
                sizes.append(size)
                floor.append(ffmpeg_cut(book_path, chapters[i]["start"], chapters[i]["end"], os.path.join(scratch, f"{i}.m4a")))
        again, plain = [], []
        for i, size in zip(picks, sizes):
            again.append(timed_get(port, token, f"{base}/chapters/{i}/audio")[0])
            offset = size * i
            plain.append(timed_get(port, token, f"{base}/audio", headers={"Range": f"bytes={offset}-{offset + size - 1}"})[0])

        def ms(values):
            return statistics.median(values) * 1000

        print(f"book: {os.path.getsize(book_path) / 1e6:.1f} MB, {len(chapters)} chapters of {chapters[1]['end'] - chapters[1]['start']:.0f} s;"
              f" a chapter is {statistics.median(sizes) / 1e6:.2f} MB")
        print(f"first request (cut):   juke {ms(first):.1f} ms   ffmpeg cutting it directly {ms(floor):.1f} ms   ratio {ms(first) / ms(floor):.2f}x")
        print(f"again (cached):        juke {ms(again):.2f} ms   the same bytes of the book by Range {ms(plain):.2f} ms   ratio {ms(again) / ms(plain):.2f}x")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
