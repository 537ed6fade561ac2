"""What the worst uploads cost everyone else, through `juke serve` (Scripts/bench-hostile.sh,
issue 37): the latency of /health and of a signed-in request while four clients upload the
shapes of issue 37 over and over (each refused within its budget), beside the same requests
on the same server idle, measured in the same run; the ratio is the cost. Also each shape's
time to its refusal and the server's resident peak.

The floor is the idle server: on a shared machine an absolute latency says little, the ratio
to the idle server measured minutes apart says how much the readers take from the rest.
"""
import os
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from conftest import JukeServer, request  # noqa: E402
from test_hostile_uploads import SHAPES, peak_resident_mb, upload  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import latency_probe as probe  # noqa: E402

SAMPLES = 400


def latencies(server, token, samples):
    """Alternating /health and /api/v1/auth/me, each timed from send to last byte."""
    return probe.latencies(server, token, samples, lambda i: "/api/v1/auth/me")


summary = probe.summary


def main():
    with tempfile.TemporaryDirectory(prefix="juke-bench-hostile-") as folder:
        server = JukeServer(folder, demo=False)
        try:
            status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "bench", "password": "bench password"})
            assert status == 201, account
            token = account["token"]
            bodies = [(name, path, make()) for name, path, make, _ in SHAPES]

            # Each shape's refusal, alone on the server: the median of 5.
            print("refusal of each shape, alone (median of 5):")
            for name, path, body in bodies:
                times = []
                for _ in range(5):
                    began = time.perf_counter()
                    status, answer = upload(server.base, token, path, body)
                    times.append(time.perf_counter() - began)
                    assert status == 422, (name, status, answer)
                print(f"  {name:24s} {len(body) / 1024:7.0f} KB  {statistics.median(times) * 1000:8.1f} ms")

            latencies(server, token, 50)  # warm
            idle = latencies(server, token, SAMPLES)

            stop = threading.Event()
            counts = {"422": 0, "503": 0}

            def attack(offset):
                i = offset
                while not stop.is_set():
                    _, path, body = bodies[i % len(bodies)]
                    status, _ = upload(server.base, token, path, body)
                    counts["503" if status == 503 else "422"] += 1
                    i += 1

            attackers = [threading.Thread(target=attack, args=(n,)) for n in range(4)]
            for thread in attackers:
                thread.start()
            time.sleep(1)
            loaded = latencies(server, token, SAMPLES)
            stop.set()
            for thread in attackers:
                thread.join()

            idle_median, idle_p99 = summary(idle)
            loaded_median, loaded_p99 = summary(loaded)
            print(f"\n/health and /api/v1/auth/me, {SAMPLES} requests each way:")
            print(f"  idle server:          median {idle_median * 1000:7.2f} ms   p99 {idle_p99 * 1000:7.2f} ms")
            print(f"  4 hostile uploaders:  median {loaded_median * 1000:7.2f} ms   p99 {loaded_p99 * 1000:7.2f} ms")
            print(f"  ratio (loaded / idle): median {loaded_median / idle_median:.2f}x   p99 {loaded_p99 / idle_p99:.2f}x")
            print(f"  uploads meanwhile: {counts['422']} refused as too big or damaged, {counts['503']} told to come back (503)")
            print(f"  server resident peak: {peak_resident_mb(server.process.pid):.0f} MB")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
