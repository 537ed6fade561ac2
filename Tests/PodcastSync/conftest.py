"""A real `juke serve` and a small podcast host beside it, for the podcast sync tests."""
import http.server
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

import pytest

JUKE = os.environ.get("JUKE_BINARY", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "juke"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        raw = e.read()
        return e.code, json.loads(raw) if raw else None


class PodcastHost:
    """Two shows, each with two episodes (12:31 and 12:32 long), on a local port."""

    def __init__(self):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        host = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                name = self.path.strip("/").removesuffix(".xml")
                if name not in ("show-a", "show-b"):
                    self.send_error(404)
                    return
                items = "".join(
                    f"""<item><title>{name} episode {n}</title><guid isPermaLink="false">{name}-{n}</guid>
                    <pubDate>Mon, 0{n} Jun 2026 10:00:00 GMT</pubDate><itunes:duration>12:3{n}</itunes:duration>
                    <enclosure url="{host.base}/{name}/{n}.mp3" type="audio/mpeg" length="1000"/></item>"""
                    for n in (1, 2))
                body = f"""<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
                <channel><title>{name}</title><link>{host.base}/</link><description>A show</description>{items}</channel></rss>""".encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def feed(self, name):
        return f"{self.base}/{name}.xml"

    def episode(self, name, n):
        return f"{self.base}/{name}/{n}.mp3"

    def stop(self):
        self.server.shutdown()


def client_database():
    """The database a server of these tests uses: the data folder's SQLite file ((), None), or
    with JUKE_CLIENT_DATABASE=postgres a fresh database on the throwaway cluster test.sh starts
    (JUKE_TEST_POSTGRES_URL): its `--database` arguments and a function that drops it. The same
    clients then run against each database, as the issue asks."""
    if os.environ.get("JUKE_CLIENT_DATABASE", "sqlite") != "postgres":
        return [], None
    base = os.environ.get("JUKE_TEST_POSTGRES_URL")
    if not base:
        pytest.fail("JUKE_CLIENT_DATABASE=postgres needs JUKE_TEST_POSTGRES_URL (Scripts/test.sh sets both)")
    name = "juke_clients_" + os.urandom(6).hex()
    subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True)

    def drop():
        subprocess.run(["psql", base, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)

    return ["--database", base.rsplit("/", 1)[0] + "/" + name], drop


class Juke:
    """`juke serve` on a fresh data folder (feeds on this machine allowed), with two accounts
    and an app password each."""

    def __init__(self):
        self.data_dir = tempfile.mkdtemp(prefix="juke-podcast-sync-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.data_dir, "server.log"), "w")
        database_args, self.drop_database = client_database()
        args = [JUKE, "serve", "--port", str(self.port), "--data-dir", self.data_dir, "--no-demo", "--log-level", "debug", *database_args,
                "--web-allow-private-networks", "--podcast-search-url", "off"]
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if request(self.base, "GET", "/health")[0] == 200:
                    break
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"juke serve exited: {open(self.log.name).read()}")
            time.sleep(0.2)
        self.tokens, self.passwords = {}, {}
        for name in ("ann", "bob"):
            status, body = request(self.base, "POST", "/api/v1/auth/register", {"username": name, "password": f"web password of {name}"})
            assert status == 201, body
            self.tokens[name] = body["token"]
            status, body = request(self.base, "POST", "/api/v1/auth/subsonic/app-password", token=self.tokens[name])
            assert status == 201, body
            self.passwords[name] = body["password"]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)
        if self.drop_database:
            self.drop_database()


@pytest.fixture(scope="module")
def host():
    h = PodcastHost()
    yield h
    h.stop()


@pytest.fixture(scope="module")
def juke():
    j = Juke()
    yield j
    j.stop()
