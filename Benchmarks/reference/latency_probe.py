"""What a request costs others while a server is loaded: /health alternating with a second
request the benchmark names, each timed from send to last byte, and the median and p99 of
those times. Shared by the load benchmarks (hostile uploads, tool slots)."""
import statistics
import time

from conftest import request


def latencies(server, token, samples, second_path):
    """`samples` times, alternating /health and `second_path(i)` (signed in with `token`)."""
    out = []
    for i in range(samples):
        began = time.perf_counter()
        if i % 2 == 0:
            status, _ = request(server.base, "GET", "/health")
        else:
            status, _ = request(server.base, "GET", second_path(i), token=token)
        out.append(time.perf_counter() - began)
        assert status == 200, status
    return out


def summary(values):
    """(median, p99) of `values`."""
    values = sorted(values)
    return statistics.median(values), values[int(len(values) * 0.99) - 1]
