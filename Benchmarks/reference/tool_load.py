"""What a crowd asking for ffmpeg's work costs everyone else, through one `juke serve` (issue 49):
the latency of /health and of a library search while 200 clients at once ask, over and over,
for blurred covers, clips and transcodes, beside the same requests on the same server idle,
measured in the same run; the ratio is the cost. Meanwhile the ffmpeg processes alive under the
server are counted (they must never outnumber its tool slots) and its resident memory is read.

Usage: JUKE_BINARY=.build/debug/juke python3 Benchmarks/reference/tool_load.py [clients] [games]

The 200 clients run in a process of their own (their Python threads would otherwise share one
interpreter lock with the timing thread and time themselves); each asks in turn for the current
round's blurred cover and clip of one of a few TuneTrivia games (the same few covers and clips:
the first request makes them, the rest are served from what was kept), or for a transcode of a
demo track from a start second that differs request to request (a seek's transcode: a new
ffmpeg each time, the pressure on the slots), reading every answer to its end.
"""
import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from conftest import DEMO_TRACKS, JukeServer, request  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import latency_probe as probe  # noqa: E402

SAMPLES = 400
# JUKE_BENCH_IDLE_CLIENTS=0: the clients at normal priority, competing with the server for the cores.
IDLE_CLIENTS = os.environ.get("JUKE_BENCH_IDLE_CLIENTS", "1") != "0"
WORDS = ["moon", "sonata", "waltz", "blues", "night", "song", "dance", "air", "march", "prelude", "rain", "love"]


def latencies(server, token, samples):
    """Alternating /health and a library search, each timed from send to last byte."""
    return probe.latencies(server, token, samples, lambda i: f"/api/v1/catalog/search?q={WORDS[i // 2 % len(WORDS)]}&limit=20")


summary = probe.summary


def fetch(url, token):
    """Status and Retry-After seconds (or None), having read the whole body (a transcode
    streams until ffmpeg ends)."""
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=120) as response:
            while response.read(65536):
                pass
            return response.status, None
    except urllib.error.HTTPError as error:
        error.read()
        retry = error.headers.get("Retry-After")
        return error.code, float(retry) if retry and retry.isdigit() else None
    except Exception:  # noqa: BLE001 - a connection the server dropped counts as a failure
        return 0, None


def crowd(base, token, targets, tracks, clients, kinds, pause, stop_file, results, honour_retry=False):
    """`clients` threads asking for `kinds` in turn, `pause` seconds between one answer and the
    next question, until `stop_file` exists; the statuses seen per kind, in `results`. With
    `honour_retry`, a refused request (503) waits the answer's Retry-After before the next, as
    Juke's pages do; otherwise it asks again at once."""
    if IDLE_CLIENTS:
        # Standing for phones on other machines (as Scripts/bench-transcode.sh's listeners):
        # on this 2-core machine the clients would otherwise take a core from the server.
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    counts = {}
    lock = threading.Lock()

    def client(n):
        rng = random.Random(n)
        i = n
        while not os.path.exists(stop_file):
            kind = kinds[i % len(kinds)]
            if kind == "transcode":
                track = tracks[rng.randrange(len(tracks))]
                start = rng.randrange(1, max(2, int(track["duration"]) - 5))
                url = f"{base}/api/v1/catalog/tracks/{track['id']}/audio?plays={track['plays']}&start={start}"
            else:
                url = base + targets[i % len(targets)] + "/" + kind
            status, retry_after = fetch(url, token)
            with lock:
                key = f"{kind} {status}"
                counts[key] = counts.get(key, 0) + 1
            i += 1
            if honour_retry and retry_after:
                time.sleep(retry_after * (0.5 + rng.random()))
            elif pause:
                time.sleep(pause * (0.5 + rng.random()))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.update(counts)


def tools_alive(server_pid):
    """ffmpeg (and other tools') processes whose parent is the server."""
    alive = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            if int(fields[1]) == server_pid:
                alive += 1
        except (OSError, IndexError, ValueError):
            pass
    return alive


def resident_mb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    clients = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    with tempfile.TemporaryDirectory(prefix="juke-bench-tools-") as folder:
        server = JukeServer(folder)
        try:
            status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "bench", "password": "bench password"})
            assert status == 201, account
            token = account["token"]
            server.wait_for_tracks(token, DEMO_TRACKS)
            player = request(server.base, "POST", "/api/v1/auth/register", {"username": "player", "password": "player password"})[1]["token"]
            status, page = request(server.base, "GET", "/api/v1/catalog/tracks?limit=200", token=token)
            assert status == 200, page
            tracks = []
            for track in page["items"]:
                fmt = (track.get("format") or "").lower()
                if track.get("duration") and track["duration"] > 10:
                    # A codec the track is not in: the server transcodes it.
                    tracks.append({"id": track["id"], "duration": track["duration"], "plays": "opus" if fmt == "mp3" else "mp3"})
            assert tracks, page
            targets = []
            for n in range(games):
                status, game = request(
                    server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": f"Load {n}", "num_songs": 5, "seconds_per_song": 30}, token=token)
                assert status == 201, game
                base = f"/api/v1/tunetrivia/sessions/{game['id']}"
                assert request(server.base, "POST", base + "/rounds/auto-generate", token=token)[0] == 200
                assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player)[0] == 200
                assert request(server.base, "POST", base + "/start", token=token)[0] == 200
                rounds = request(server.base, "GET", base + "/rounds", token=token)[1]
                current = next(r for r in rounds if r["round_number"] == 1)
                targets.append(f"{base}/rounds/{current['id']}")

            latencies(server, token, 50)  # warm
            idle = latencies(server, token, SAMPLES)
            idle_rss = resident_mb(server.process.pid, "VmRSS")

            idle_median, idle_p99 = summary(idle)
            print(f"/health and a library search, {SAMPLES} requests each way, {len(tracks)} tracks, {games} games, {clients} clients{' at SCHED_IDLE' if IDLE_CLIENTS else ''}:")
            print(f"  idle server: median {idle_median * 1000:.2f} ms, p99 {idle_p99 * 1000:.2f} ms, resident {idle_rss:.0f} MB", flush=True)
            phases = [
                ("cover, clip and transcode, no pause", ("cover", "clip", "transcode"), 0),
                ("cover and clip only (made once, then kept: no program), no pause", ("cover", "clip"), 0),
                ("cover, clip and transcode, about 1 s between answers", ("cover", "clip", "transcode"), 1.0),
                ("cover, clip and transcode, no pause but a refusal's Retry-After waited, as Juke's pages do", ("cover", "clip", "transcode"), "retry"),
            ]
            for number, (label, kinds, pause) in enumerate(phases):
                honour_retry = pause == "retry"
                pause = 0 if honour_retry else pause
                stop_file = os.path.join(folder, f"stop-{number}")
                manager = multiprocessing.Manager()
                results = manager.dict()
                load = multiprocessing.Process(target=crowd, args=(server.base, token, targets, tracks, clients, kinds, pause, stop_file, results, honour_retry))
                watching = threading.Event()
                watch = {"most": 0, "samples": 0, "rss": 0.0}

                def watcher():
                    while not watching.is_set():
                        watch["most"] = max(watch["most"], tools_alive(server.process.pid))
                        watch["rss"] = max(watch["rss"], resident_mb(server.process.pid, "VmRSS"))
                        watch["samples"] += 1
                        time.sleep(0.02)

                monitor = threading.Thread(target=watcher)
                monitor.start()
                load.start()
                time.sleep(5)  # every client has asked at least once
                loaded = latencies(server, token, SAMPLES)
                open(stop_file, "w").close()
                load.join()
                watching.set()
                monitor.join()
                loaded_median, loaded_p99 = summary(loaded)
                print(f"- {label}:")
                print(f"  median {loaded_median * 1000:.2f} ms, p99 {loaded_p99 * 1000:.2f} ms: {loaded_median / idle_median:.2f}x and {loaded_p99 / idle_p99:.2f}x idle")
                print(f"  answers meanwhile: {json.dumps(dict(sorted(results.items())))}")
                print(f"  programs alive under the server, most at once: {watch['most']} ({watch['samples']} looks, every 20 ms)")
                print(f"  server resident, most: {watch['rss']:.0f} MB; load average {os.getloadavg()[0]:.1f}", flush=True)
                manager.shutdown()
            print(f"server resident peak (VmHWM): {resident_mb(server.process.pid, 'VmHWM'):.0f} MB")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
