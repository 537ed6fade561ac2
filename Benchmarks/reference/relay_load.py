"""The radio relay under load: 200 listeners of one 128 kbit/s station, and one listener that
stops reading, against Juke's relay and, in the same run, Icecast 2 relaying the same station.

One process plays the station (paced MP3 at 16,000 bytes/s with ICY titles, looped) and a fake
Radio Browser; the relay under test takes one connection to it and serves the listeners. What
is measured, per relay: the CPU time of the relay's process over a 30 s window (as a share of
one core), each listener's received rate over that window, and whether the stalled listener
was dropped (its connection closed by the relay) while the others kept the station's pace.

Usage: relay_load.py JUKE_BINARY WORK_DIR [LISTENERS]
"""
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RATE = 16_000  # bytes per second: 128 kbit/s
METAINT = 16_000
STATION = "96062a7b-0601-11e8-ae97-52543be04c81"
WARMUP, WINDOW, AFTER = 8.0, 30.0, 20.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Station(BaseHTTPRequestHandler):
    audio = b""
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def json(self, value):
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        port = self.server.server_address[1]
        stream = f"http://127.0.0.1:{port}/stream.mp3"
        if self.path.startswith("/json/servers"):
            return self.json([{"name": f"127.0.0.1:{port}/rb"}])
        if self.path.startswith("/rb/json/url/"):
            return self.json({"ok": True, "url": stream})
        if not self.path.startswith("/stream.mp3"):
            self.send_response(404)
            self.end_headers()
            return
        icy = self.headers.get("Icy-MetaData") == "1"
        self.send_response(200)
        self.send_header("Content-Type", "audio/mpeg")
        self.send_header("icy-name", "Bench FM")
        if icy:
            self.send_header("icy-metaint", str(METAINT))
        self.end_headers()
        data, sent, start, n = self.audio, 0, time.monotonic(), 0
        try:
            while True:
                # Paced: 1/8 s of audio, eight times a second, on the station's own clock.
                piece = data[sent % len(data):][:RATE // 8]
                if len(piece) < RATE // 8:
                    piece += data[:RATE // 8 - len(piece)]
                out, i = b"", 0
                while i < len(piece):
                    take = min(len(piece) - i, METAINT - sent % METAINT)
                    out += piece[i:i + take]
                    sent += take
                    i += take
                    if icy and sent % METAINT == 0:
                        block = f"StreamTitle='Bench Artist - Song {sent // METAINT}';".encode()
                        block += b"\0" * (-len(block) % 16)
                        out += bytes([len(block) // 16]) + block
                self.wfile.write(out)
                self.wfile.flush()
                n += 1
                time.sleep(max(0, start + n / 8 - time.monotonic()))
        except (BrokenPipeError, ConnectionResetError):
            return


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def listener(port, path, headers, stats, index):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    assert b" 200 " in head.split(b"\r\n")[0], head[:200]
    total = 0
    while True:
        data = await reader.read(65536)
        if not data:
            break
        total += len(data)
        stats[index].append((time.monotonic(), total))


def stalled_socket(port, path, headers):
    """A listener that stops reading: a small receive window, never read."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode())
    return s


def was_dropped(s):
    """Drains the stalled socket: the relay dropped it if the stream ends within a few seconds."""
    s.settimeout(0.5)
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline:
        try:
            if not s.recv(1 << 20):
                return True
        except socket.timeout:
            continue
        except ConnectionResetError:
            return True
    return False


def rate_in(samples, start, end):
    before = [total for t, total in samples if t <= start]
    inside = [total for t, total in samples if t <= end]
    if not inside:
        return 0.0
    return (inside[-1] - (before[-1] if before else 0)) / (end - start)


async def load(name, pid, port, path, headers, listeners):
    stats = [[] for _ in range(listeners)]
    tasks = []
    for i in range(listeners):
        tasks.append(asyncio.create_task(listener(port, path, headers, stats, i)))
        if i % 20 == 19:
            await asyncio.sleep(0.05)
    stalled = stalled_socket(port, path, headers)
    await asyncio.sleep(WARMUP)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(WINDOW)
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(AFTER)  # the stalled listener's backlog (512 KB, 32 s) runs out
    t2 = time.monotonic()
    dropped = await asyncio.get_running_loop().run_in_executor(None, was_dropped, stalled)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    rates = sorted(rate_in(s, t0, t2) for s in stats)
    share = (cpu1 - cpu0) / (t1 - t0)
    result = {"relay": name, "cpu_share": share, "listeners": listeners, "min_rate": rates[0], "median_rate": rates[len(rates) // 2],
              "stalled_dropped": dropped}
    print(f"{name}: {listeners} listeners + 1 stalled; CPU {share * 100:.2f}% of one core over {WINDOW:.0f} s; "
          f"listener rate min {rates[0]:.0f} B/s, median {rates[len(rates) // 2]:.0f} B/s (station {RATE} B/s) "
          f"through the stall; stalled listener dropped: {'yes' if dropped else 'NO'}", flush=True)
    return result


def wait_http(url, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1).read(1)
            return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not answer")


def run_juke(binary, work, station_port, listeners):
    data = os.path.join(work, "juke-data")
    shutil.rmtree(data, ignore_errors=True)
    os.makedirs(data)
    port = free_port()
    log = open(os.path.join(work, "juke.log"), "w")
    proc = subprocess.Popen([binary, "serve", "--data-dir", data, "--port", str(port), "--no-demo", "--log-level", "error",
                             "--radio-browser-url", f"http://127.0.0.1:{station_port}/json/servers", "--radio-allow-private-streams"],
                            stdout=log, stderr=log)
    try:
        wait_http(f"http://127.0.0.1:{port}/health")
        body = json.dumps({"username": "bench", "password": "bench password"}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/auth/register", data=body, headers={"Content-Type": "application/json"})
        token = json.load(urllib.request.urlopen(req))["token"]
        return asyncio.run(load("juke", proc.pid, port, f"/api/v1/dual/radio/stations/{STATION}/listen",
                                {"Authorization": f"Bearer {token}"}, listeners))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


ICECAST_CONFIG = """<icecast>
  <location>bench</location><admin>bench@localhost</admin>
  <limits><clients>2000</clients><sources>4</sources><queue-size>524288</queue-size><client-timeout>30</client-timeout>
    <header-timeout>15</header-timeout><source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
  <authentication><source-password>bench</source-password><relay-password>bench</relay-password>
    <admin-user>admin</admin-user><admin-password>bench</admin-password></authentication>
  <hostname>127.0.0.1</hostname>
  <listen-socket><port>{port}</port><bind-address>127.0.0.1</bind-address></listen-socket>
  <relay><server>127.0.0.1</server><port>{station}</port><mount>/stream.mp3</mount><local-mount>/relay.mp3</local-mount>
    <on-demand>0</on-demand><relay-shoutcast-metadata>1</relay-shoutcast-metadata></relay>
  <fileserve>1</fileserve>
  <paths><basedir>/usr/share/icecast2</basedir><logdir>{logs}</logdir><webroot>/usr/share/icecast2/web</webroot>
    <adminroot>/usr/share/icecast2/admin</adminroot></paths>
  <logging><accesslog>access.log</accesslog><errorlog>error.log</errorlog><loglevel>2</loglevel></logging>
  <security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>
</icecast>
"""


def run_icecast(work, station_port, listeners):
    binary = shutil.which("icecast2")
    if not binary:
        print("icecast2: not installed; no reference this run", flush=True)
        return None
    logs = os.path.join(work, "icecast-logs")
    os.makedirs(logs, exist_ok=True)
    os.chmod(logs, 0o777)
    port = free_port()
    config = os.path.join(work, "icecast.xml")
    open(config, "w").write(ICECAST_CONFIG.format(port=port, station=station_port, logs=logs))
    proc = subprocess.Popen([binary, "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(b"GET /relay.mp3 HTTP/1.0\r\n\r\n")
                    if b" 200 " in s.recv(200):
                        break
            except OSError:
                pass
            time.sleep(0.5)
        return asyncio.run(load("icecast2 (reference)", proc.pid, port, "/relay.mp3", {}, listeners))
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def main():
    binary, work = sys.argv[1], sys.argv[2]
    listeners = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    os.makedirs(work, exist_ok=True)
    tone = os.path.join(work, "tone.mp3")
    if not os.path.exists(tone):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=30", "-b:a", "128k",
                        "-id3v2_version", "0", "-write_xing", "0", "-f", "mp3", tone], check=True)
    Station.audio = open(tone, "rb").read()
    station = ThreadingHTTPServer(("127.0.0.1", 0), Station)
    station.daemon_threads = True
    threading.Thread(target=station.serve_forever, daemon=True).start()
    port = station.server_address[1]
    juke = run_juke(binary, work, port, listeners)
    icecast = run_icecast(work, port, listeners)
    ok = juke["cpu_share"] < 0.10 and juke["stalled_dropped"] and juke["min_rate"] >= 0.95 * RATE
    if icecast:
        print(f"ratio: Juke's relay uses {juke['cpu_share'] / max(icecast['cpu_share'], 1e-9):.2f}x Icecast's CPU for the same listeners")
    print(f"targets (under 10% of one core; the stalled listener dropped; every other listener at >= 95% of the station's rate): "
          f"{'met' if ok else 'NOT met'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
