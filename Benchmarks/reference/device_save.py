"""Dual Player's "on this device", in headless Chromium against `juke serve`: saving a 20-minute
MP3 (DeviceShelf's path: fetch, tee, count, Cache Storage) beside the floor, the same file
fetched whole by the page and thrown away, in the same run; then a 64 kB read in the middle
(a seek) answered from the device by the service worker, beside the same read from the network.
The binary is JUKE_BINARY (Scripts/bench-device.sh passes the release build)."""
import os
import statistics
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Browser"))
from conftest import JukeServer, request, make_driver
from helpers import sign_in, wait

data = tempfile.mkdtemp(prefix="juke-bench-dev-")
music = os.path.join(data, "music"); os.makedirs(music)
subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1200", "-ac", "2",
                "-c:a", "libmp3lame", "-b:a", "192k", "-metadata", "title=Long Tone", os.path.join(music, "long.mp3")], check=True)
srv = os.path.join(data, "srv"); os.makedirs(srv)
server = JukeServer(srv, demo=False)
driver = make_driver()
try:
    status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "bench", "password": "bench password"})
    token = body["token"]
    request(server.base, "POST", "/api/v1/library/folders", {"path": music}, token=token)
    server.wait_for_tracks(token, 1)
    track = request(server.base, "GET", "/api/v1/catalog/tracks", token=token)[1]["items"][0]
    sign_in(driver, server, "bench", "bench password")
    driver.get(server.base + "/dual")
    wait(driver, 30).until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))
    url = track["audio_url"]
    run = lambda js: driver.execute_async_script("const done = arguments[arguments.length - 1];" + js)
    fetch_ms, save_ms, dev_seek, net_seek = [], [], [], []
    for i in range(7):
        fetch_ms.append(run(f"""const t = performance.now(); fetch('{url}', {{cache: 'no-store'}}).then(r => r.arrayBuffer()).then(b => done(performance.now() - t));"""))
        save_ms.append(run(f"""
          (async () => {{
            const cache = await caches.open('juke-device'); await cache.delete('{url}');
            const t = performance.now();
            const r = await fetch('{url}', {{cache: 'no-store'}});
            const [a, b] = r.body.tee();
            const put = cache.put('{url}', new Response(b, {{headers: {{'Content-Type': 'audio/mpeg'}}}}));
            const reader = a.getReader(); let n = 0;
            for (;;) {{ const {{value, done: end}} = await reader.read(); if (end) break; n += value.byteLength; }}
            await put; done(performance.now() - t);
          }})();"""))
        mid = 14_000_000
        dev_seek.append(run(f"""const t = performance.now(); fetch('{url}', {{headers: {{Range: 'bytes={mid}-{mid + 65535}'}}}}).then(r => r.arrayBuffer()).then(b => done([performance.now() - t, b.byteLength]))"""))
        net_seek.append(run(f"""(async () => {{ const cache = await caches.open('juke-device'); const kept = await cache.match('{url}'); await cache.delete('{url}');
            const t = performance.now(); const b = await (await fetch('{url}', {{cache: 'no-store', headers: {{Range: 'bytes={mid}-{mid + 65535}'}}}})).arrayBuffer();
            const ms = performance.now() - t; await cache.put('{url}', kept); done([ms, b.byteLength]); }})();"""))
    size = os.path.getsize(os.path.join(music, "long.mp3"))
    f, s = statistics.median(fetch_ms), statistics.median(save_ms)
    d, n = statistics.median(x[0] for x in dev_seek), statistics.median(x[0] for x in net_seek)
    assert all(x[1] == 65536 for x in dev_seek + net_seek)
    print(f"file {size/1e6:.1f} MB; fetch whole (floor) median {f:.0f} ms; save on device median {s:.0f} ms: {s/f:.2f}x the floor")
    print(f"64 kB seek read: from the device through the worker median {d:.1f} ms; from the network median {n:.1f} ms: {d/n:.2f}x")
finally:
    driver.quit(); server.stop()
