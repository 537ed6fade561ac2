"""A real `juke serve` with a small known library, for the Subsonic client tests."""
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

import pytest

JUKE = os.environ.get("JUKE_BINARY", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "juke"))

# The library every test checks answers against: (title, artist, album, genre, year, track).
SONGS = [
    ("Ode to Joy", "Ludwig van Beethoven", "Symphonies", "Classical", 1824, 1),
    ("Für Elise", "Ludwig van Beethoven", "Symphonies", "Classical", 1810, 2),
    ("Greensleeves", "Traditional", "Old Songs", "Folk", 1580, 1),
    ("The Entertainer", "Scott Joplin", "Rags", "Ragtime", 1902, 1),
    ("Maple Leaf Rag", "Scott Joplin", "Rags", "Ragtime", 1899, 2),
]
# Songs with words in their tags: plain (ID3 USLT) and synced (ID3 SYLT: start in ms, line).
LYRICS = {"Greensleeves": "Alas, my love, you do me wrong\nTo cast me off discourteously"}
SYNCED_LYRICS = {"Maple Leaf Rag": [(0, "Ragtime"), (1500, "Maple leaf")]}
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001"
                    "0d0a2db40000000049454e44ae426082")


def _frame(name, text):
    body = b"\x03" + text.encode("utf-8")  # UTF-8
    return name.encode() + struct.pack(">I", len(body)) + b"\x00\x00" + body


def _id3(title, artist, album, genre, year, track):
    frames = b"".join([
        _frame("TIT2", title), _frame("TPE1", artist), _frame("TALB", album), _frame("TCON", genre),
        _frame("TDRC", str(year)), _frame("TRCK", str(track)),
    ])
    if title in LYRICS:  # UTF-8, language, empty descriptor, text
        body = b"\x03" + b"eng" + b"\x00" + LYRICS[title].encode()
        frames += b"USLT" + struct.pack(">I", len(body)) + b"\x00\x00" + body
    if title in SYNCED_LYRICS:  # UTF-8, language, ms stamps, lyrics, empty descriptor, (text, time)...
        body = b"\x03" + b"eng" + b"\x02\x01" + b"\x00"
        body += b"".join(text.encode() + b"\x00" + struct.pack(">I", ms) for ms, text in SYNCED_LYRICS[title])
        frames += b"SYLT" + struct.pack(">I", len(body)) + b"\x00\x00" + body
    picture = b"\x00" + b"image/png\x00" + b"\x03" + b"\x00" + PNG
    frames += b"APIC" + struct.pack(">I", len(picture)) + b"\x00\x00" + picture
    size = len(frames)
    synchsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
    return b"ID3\x04\x00\x00" + synchsafe + frames


def write_wav(path, tags, seconds=1):
    """A short mono 8 kHz WAV whose tags are in an `id3 ` chunk (what Juke reads)."""
    rate = 8000
    samples = b"".join(struct.pack("<h", (i * 37) % 20000 - 10000) for i in range(rate * seconds))
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    tag = _id3(*tags)
    if len(tag) % 2:
        tag += b"\x00"
    chunks = b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
    chunks += b"id3 " + struct.pack("<I", len(tag)) + tag
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WAVE" + chunks)


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
    """`juke serve` on a fresh data folder with SONGS scanned in, an admin and a guest."""

    def __init__(self, extra_args=()):
        self.data_dir = tempfile.mkdtemp(prefix="juke-subsonic-")
        music = os.path.join(self.data_dir, "music")
        os.makedirs(music)
        for i, song in enumerate(SONGS):
            write_wav(os.path.join(music, f"{i}.wav"), song)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.data_dir, "server.log"), "w")
        database_args, self.drop_database = client_database()
        args = [JUKE, "serve", "--port", str(self.port), "--data-dir", self.data_dir, "--no-demo", "--log-level", "debug", *database_args, *extra_args]
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
        status, body = request(self.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "web password 1"})
        assert status == 201, body
        self.admin = body["token"]
        status, body = request(self.base, "POST", "/api/v1/auth/register", {"username": "guest", "password": "web password 2"})
        assert status == 201, body
        self.guest = body["token"]
        status, body = request(self.base, "POST", "/api/v1/library/folders", {"path": music}, token=self.admin)
        assert status in (200, 201, 202), body
        deadline = time.time() + 120
        while time.time() < deadline:
            status, body = request(self.base, "GET", "/api/v1/library/status", token=self.admin)
            if body["track_count"] >= len(SONGS) and all(s["phase"] in ("done", "failed") for s in body["scans"]):
                break
            time.sleep(0.3)
        assert body["track_count"] == len(SONGS), body

    def log_text(self):
        self.log.flush()
        return open(self.log.name).read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)
        if self.drop_database:
            self.drop_database()


@pytest.fixture(scope="session")
def juke():
    server = Juke()
    yield server
    server.stop()
