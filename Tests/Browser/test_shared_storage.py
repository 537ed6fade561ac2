"""Several servers, one set of files: two `juke serve` processes with data folders of their
own, one PostgreSQL database and one S3-compatible bucket (SeaweedFS). What a person gives
one server plays from the other, is gone for both once removed, and a store that stops
while a file comes in loses nothing and plays again once it is back."""
import http.client
import http.server
import json
import os
import subprocess
import threading
import urllib.parse
import urllib.request

import pytest

from bucket import SeaweedFS
from conftest import JukeServer, create_postgres_database, request
from helpers import sign_in

EPISODE_BYTES = None


def make_book(path, seconds, title, bitrate="64k"):
    """An MP3 audiobook of `seconds` with two chapters (ID3 CHAP frames), made by ffmpeg."""
    meta = path + ".txt"
    half = seconds * 500
    with open(meta, "w") as f:
        f.write(f";FFMETADATA1\ntitle={title}\nartist=Juke Tests\n"
                f"[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND={half}\ntitle=One\n"
                f"[CHAPTER]\nTIMEBASE=1/1000\nSTART={half}\nEND={seconds * 1000}\ntitle=Two\n")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"anoisesrc=duration={seconds}:amplitude=0.1", "-i", meta,
                    "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-ac", "1", "-c:a", "libmp3lame", "-b:a", bitrate,
                    "-id3v2_version", "3", path], check=True)
    with open(path, "rb") as f:
        return f.read()


def upload(base, token, data, filename):
    req = urllib.request.Request(f"{base}/api/v1/dual/books?filename={filename}", data=data, method="POST")
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/octet-stream")
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def get(base, path, token, headers=None):
    req = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token, **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


class PodcastHost:
    """A show's host on loopback: its feed and one episode's MP3."""

    def __init__(self, folder):
        self.episode = make_book(os.path.join(folder, "episode.mp3"), 8, "Episode One")
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/feed.xml":
                    body = (f"""<?xml version="1.0"?><rss version="2.0"><channel><title>Shared Show</title><link>{host.base}/</link>
<description>A show for two servers.</description><item><title>Episode One</title><guid>ep-1</guid>
<pubDate>Sat, 28 Nov 2026 10:00:00 GMT</pubDate><enclosure url="{host.base}/episode.mp3" length="{len(host.episode)}" type="audio/mpeg"/>
</item></channel></rss>""").encode()
                    kind = "application/rss+xml"
                elif self.path == "/episode.mp3":
                    body, kind = host.episode, "audio/mpeg"
                else:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """SeaweedFS, a PostgreSQL database, a podcast host and two servers on them."""
    root = tmp_path_factory.mktemp("shared")
    store = SeaweedFS(str(root))
    database, drop = create_postgres_database()
    host = PodcastHost(str(root))
    servers = []
    try:
        for name in ("a", "b"):
            (root / name).mkdir()
            servers.append(JukeServer(str(root / name), database=database, demo=False, env=SeaweedFS.environment(),
                                      extra_args=store.server_args() + ["--web-allow-private-networks"]))
        status, body = request(servers[0].base, "POST", "/api/v1/auth/register", {"username": "sharer", "password": "sharer password"})
        assert status == 201, body
        yield {"store": store, "a": servers[0], "b": servers[1], "token": body["token"], "host": host, "root": root}
    finally:
        for server in servers:
            server.stop()
        host.stop()
        store.stop()
        drop()


def scratch_files(server):
    folder = os.path.join(server.data_dir, "scratch")
    return [os.path.join(d, f) for d, _, files in os.walk(folder) for f in files]


def test_a_book_given_to_one_server_plays_and_seeks_on_the_other_and_goes_from_both(stack, browser, tmp_path):
    a, b, token, store = stack["a"], stack["b"], stack["token"], stack["store"]
    book = make_book(str(tmp_path / "book.mp3"), 40, "Shared Book")
    status, added = upload(a.base, token, book, "Shared%20Book.mp3")
    assert status == 201, added
    book_id = added["id"]
    # Stored in the bucket under the prefix, by key; on neither server's disk.
    keys = store.keys("media/dual/books/")
    assert len(keys) == 1 and keys[0].endswith(".mp3"), keys
    assert not scratch_files(a), scratch_files(a)
    assert not os.path.exists(os.path.join(a.data_dir, "dual", "books"))

    # The second server lists it and plays it: whole, a range, and a seek's validators.
    status, shelf = request(b.base, "GET", "/api/v1/dual/books", token=token)
    assert status == 200 and [item["id"] for item in shelf["items"]] == [book_id], shelf
    audio = f"/api/v1/dual/books/{book_id}/audio"
    status, headers, whole = get(b.base, audio, token)
    assert status == 200 and whole == book and headers["Accept-Ranges"] == "bytes"
    status, ranged_headers, part = get(b.base, audio, token, {"Range": "bytes=65536-131071"})
    assert status == 206 and part == book[65536:131072], (status, len(part))
    assert ranged_headers["Content-Range"] == f"bytes 65536-131071/{len(book)}"
    assert get(b.base, audio, token, {"If-None-Match": headers["ETag"]})[0] == 304
    status, _, stale = get(b.base, audio, token, {"Range": "bytes=0-9", "If-Range": '"other"'})
    assert status == 200 and stale == book, "a changed file's range is not served as the old one's"
    # A chapter cut from the bucket's copy by ffmpeg on the second server (through a
    # presigned address), then kept in the shared cache for the first.
    status, _, chapter = get(b.base, f"/api/v1/dual/books/{book_id}/chapters/1/audio", token)
    assert status == 200 and 0 < len(chapter) < len(book) * 0.7, (status, len(chapter))
    assert len(store.keys("media/cache/")) == 1
    status, _, again = get(a.base, f"/api/v1/dual/books/{book_id}/chapters/1/audio", token)
    assert status == 200 and again == chapter, "the first server copies the second's cut"

    # A person on the second server plays and seeks it in the browser.
    sign_in(browser, b, "sharer", "sharer password")
    played = browser.execute_async_script("""
        const [url, done] = [arguments[0], arguments[arguments.length - 1]];
        const audio = new Audio(url);
        audio.muted = true;
        audio.addEventListener("error", () => done("error " + (audio.error && audio.error.code)));
        audio.addEventListener("loadedmetadata", () => { audio.currentTime = 30; }, { once: true });
        audio.addEventListener("seeked", () => {
          audio.play().then(() => setTimeout(() => done({ at: audio.currentTime, duration: audio.duration }), 800),
                            (e) => done("play " + e));
        }, { once: true });
    """, b.base + audio)
    assert isinstance(played, dict), played
    assert abs(played["duration"] - 40) < 1 and 30 <= played["at"] < 34, played

    # Removed on the second server: gone for the first, and from the bucket.
    assert request(b.base, "DELETE", f"/api/v1/dual/books/{book_id}", token=token)[0] == 204
    assert get(a.base, audio, token)[0] == 404
    assert store.keys("media/dual/books/") == []


def test_an_episode_one_server_downloaded_plays_from_the_other(stack):
    a, b, token, store, host = stack["a"], stack["b"], stack["token"], stack["store"], stack["host"]
    status, show = request(a.base, "POST", "/api/v1/dual/podcasts", {"url": host.base + "/feed.xml"}, token=token)
    assert status in (200, 201), show
    status, episodes = request(a.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=token)
    assert status == 200 and len(episodes["items"]) == 1, episodes
    episode = episodes["items"][0]["id"]
    status, started = request(a.base, "POST", f"/api/v1/dual/episodes/{episode}/download", token=token)
    assert status in (200, 202), started
    deadline = __import__("time").time() + 60
    while True:
        listed = request(b.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=token)[1]["items"][0]
        if (listed.get("download") or {}).get("status") == "ready":
            break
        assert __import__("time").time() < deadline, listed
        __import__("time").sleep(0.3)
    assert len(store.keys("media/dual/podcasts/")) == 1
    host.stop()  # the host gone: the copy is what plays
    status, headers, audio = get(b.base, f"/api/v1/dual/episodes/{episode}/audio", token)
    assert status == 200 and audio == host.episode, (status, len(audio))
    status, _, part = get(b.base, f"/api/v1/dual/episodes/{episode}/audio", token, {"Range": "bytes=1000-1999"})
    assert status == 206 and part == host.episode[1000:2000]
    stack["episode"] = episode


def test_the_store_stopped_mid_upload_keeps_nothing_and_everything_plays_once_back(stack, tmp_path):
    a, b, token, store = stack["a"], stack["b"], stack["token"], stack["store"]
    kept = make_book(str(tmp_path / "kept.mp3"), 20, "Kept Book")
    status, kept_book = upload(a.base, token, kept, "kept.mp3")
    assert status == 201, kept_book
    before = store.keys("media/")
    big = make_book(str(tmp_path / "big.mp3"), 200, "Big Book", bitrate="320k")
    assert len(big) > 5_000_000

    # The body comes in pieces; the store stops after the first.
    url = urllib.parse.urlparse(a.base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=120)
    connection.putrequest("POST", "/api/v1/dual/books?filename=big.mp3")
    connection.putheader("Authorization", "Bearer " + token)
    connection.putheader("Content-Type", "application/octet-stream")
    connection.putheader("Content-Length", str(len(big)))
    connection.endheaders()
    connection.send(big[:1_000_000])
    store.kill()
    for start in range(1_000_000, len(big), 1_000_000):
        connection.send(big[start:start + 1_000_000])
    answer = connection.getresponse()
    body = json.loads(answer.read())
    connection.close()
    assert answer.status == 503, body
    assert "could not be stored" in body["message"] and "nothing was kept" in body["message"], body
    # Nothing half-kept: not on the shelf, not in the server's scratch folder.
    status, shelf = request(b.base, "GET", "/api/v1/dual/books", token=token)
    assert [item["title"] for item in shelf["items"]] == ["Kept Book"], shelf
    assert not scratch_files(a), scratch_files(a)
    # While the store is down, playing says so rather than hanging.
    assert get(b.base, f"/api/v1/dual/books/{kept_book['id']}/audio", token)[0] == 503

    # Back: nothing was stored, nothing is pending, and everything plays on both servers.
    store.start()
    assert store.keys("media/") == before
    assert store.pending_uploads() == []
    for server in (a, b):
        status, _, audio = get(server.base, f"/api/v1/dual/books/{kept_book['id']}/audio", token)
        assert status == 200 and audio == kept
        if "episode" in stack:
            assert get(server.base, f"/api/v1/dual/episodes/{stack['episode']}/audio", token)[0] == 200
