"""`juke serve` stops promptly on SIGTERM (issue 39: it took 20-80 s), as systemd, Docker and a
terminal's Ctrl-C ask it to: on its defaults in a new data folder, where the first start is
still writing its demo library, book and show, and with live clients connected."""
import base64
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest
from conftest import DEMO_TRACKS, JukeServer, request

# A failure guard only: the figure itself is printed (pytest -s) and is a few seconds.
GUARD_SECONDS = 15


@pytest.fixture
def data_folder():
    """A new data folder, as a first start has: the demo is made in it."""
    path = tempfile.mkdtemp(prefix="juke-shutdown-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


def stop(server):
    """SIGTERM, then the seconds until the process has ended (killed past the guard)."""
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(timeout=GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        server.process.kill()
        server.process.wait()
        raise AssertionError(f"juke serve was still running {GUARD_SECONDS} s after SIGTERM:\n{log(server)[-3000:]}")
    finally:
        server.log.close()
    elapsed = time.monotonic() - started
    print(f"juke serve exited {elapsed:.2f} s after SIGTERM")
    return code, elapsed


def log(server):
    with open(server.log.name, encoding="utf-8") as f:
        return f.read()


def open_websocket(base, path, token):
    """A WebSocket opened by hand (the handshake, nothing more): the socket, once upgraded."""
    host, port = base.replace("http://", "").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, f"the upgrade was refused: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    return sock


def open_event_stream(base, path, token):
    """A server-sent event stream opened by hand: the socket, once the 200 has come."""
    host, port = base.replace("http://", "").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, f"no answer: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return sock


def closed_by_server(sock):
    """Whether the server has closed the connection: reads what is left until the end."""
    sock.settimeout(GUARD_SECONDS)
    try:
        while sock.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    finally:
        sock.close()


def test_a_first_start_stops_within_seconds_on_sigterm_and_the_next_start_finishes_the_demo(data_folder):
    data = data_folder
    # Its defaults: the demo library, book and show are made on this first start (a minute of
    # synthesis, espeak-ng and ffmpeg), and the stop comes while they are: made here, never
    # copied from the run's made demo media.
    server = JukeServer(data, demo_template=False)
    code, elapsed = stop(server)
    assert code == 0, log(server)[-3000:]
    assert elapsed < GUARD_SECONDS
    # What the stop cut short is finished by the next start: the whole demo library plays.
    again = JukeServer(data, demo_template=False)
    try:
        status, body = request(again.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "admin password"})
        assert status == 201, body
        again.wait_for_tracks(body["token"], DEMO_TRACKS)
    finally:
        code, _ = stop(again)
    assert code == 0


def test_live_connections_are_closed_and_do_not_hold_the_server(data_folder):
    data = data_folder
    server = JukeServer(data)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "host", "password": "host password"})
        assert status == 201, body
        token = body["token"]
        status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Last orders", "num_songs": 5}, token=token)
        assert status == 201, game
        status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "Closing set"}, token=token)
        assert status == 201, session
        live = [
            open_websocket(server.base, f"/api/v1/tunetrivia/sessions/{game['id']}/ws", token),
            open_event_stream(server.base, f"/api/v1/tunetrivia/sessions/{game['id']}/events", token),
            open_event_stream(server.base, f"/api/v1/back2back/sessions/{session['id']}/events", token),
        ]
    except BaseException:
        server.stop()
        raise
    code, elapsed = stop(server)
    assert code == 0, log(server)[-3000:]
    assert elapsed < GUARD_SECONDS
    assert all(closed_by_server(sock) for sock in live)
