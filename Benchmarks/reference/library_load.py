#!/usr/bin/env python3
"""Issue 51's end-to-end benchmark: a library's pages, searches and scans through HTTP, Juke
beside supysonic on the same files (run by Scripts/bench-library.sh, which builds, makes the
libraries and calls these steps in one run, then `table`).

usage:
  library_load.py juke LABEL --bin JUKE --library FOLDER [--database URL] OUT.json
      a fresh data folder: `juke library add` timed (the scan), `juke library scan` timed (the
      rescan, nothing changed), plays written to a third of the albums, `juke serve` timed
      to /health, the first search after the start, then every call under load, then memory.
  library_load.py juke-rows LABEL --bin JUKE --sqlite FILE OUT.json
      the same calls on a library already written (rows, no files): a copy of FILE served.
  library_load.py juke-add LABEL --bin JUKE --base FOLDER --add FOLDER [--database URL] OUT.json
      a server holding BASE is asked to add ADD (POST /api/v1/library/folders); while it
      scans, a page poller and a search poller each ask every 100 ms: the slowest of each.
  library_load.py supysonic LABEL --library FOLDER --work DIR OUT.json
      supysonic 0.7.2 (Debian's) on an SQLite database in DIR: the folder added and scanned
      with supysonic-cli (timed; a DIR already scanned is reused, its recorded time kept),
      served by gunicorn (2 processes of 8 threads), the Subsonic calls nearest Juke's.
  library_load.py table OUT.json...
      the figures side by side, with the issue's ratios.

Load: `wrk -t2 -c16 -d${WRK_SECONDS:-5}s --latency` on each call after one request that checks
its answer (status 200 and what it holds). p50 and p99 are wrk's; throughput is requests/s.
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

WRK_SECONDS = os.environ.get("WRK_SECONDS", "5")
CONNECTIONS = 16
PASSWORD = "correct horse battery"
SUPY_AUTH = "u=bench&p=benchpass&v=1.16.1&c=bench&f=json"

# The searches, by library kind: the generated files' words (make_library.py) or the rows'
# (CatalogPageBenchmark: "Song 3 of 1234" by "Artist 308" on "Album 1234").
SEARCHES = {
    "files": [("search, a common word", "love"), ("search, two words, the last a prefix", "midnight riv"),
              ("search, a typo", "midnihgt")],
    "rows": [("search, a common word", "song"), ("search, two words, the last a prefix", "artist 12"),
             ("search, a typo", "sonf")],
}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def get(port, path, headers=None, timeout=600):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    c.request("GET", path, headers=headers or {})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


def post(port, path, payload, headers=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("POST", path, json.dumps(payload), {"Content-Type": "application/json", **(headers or {})})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


def milliseconds(text):
    m = re.match(r"([\d.]+)(us|ms|s|m)$", text)
    value, unit = float(m.group(1)), m.group(2)
    return value * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def wrk(port, path, header=None):
    """wrk's p50, p99 and requests/s on one call; errors counted (non-2xx, socket errors)."""
    command = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{WRK_SECONDS}s", "--latency", "--timeout", "30s"]
    if header:
        command += ["-H", header]
    out = subprocess.run(command + [f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True).stdout
    p50 = milliseconds(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = milliseconds(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = 0
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return {"p50": p50, "p99": p99, "rps": rps, "errors": errors}


def memory(pids):
    """VmRSS and VmHWM in MB, summed over these processes."""
    rss = hwm = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss += int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm += int(line.split()[1])
    return {"rss_mb": round(rss / 1024, 1), "hwm_mb": round(hwm / 1024, 1)}


def timed(command, **kwargs):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)
    return time.monotonic() - start


# MARK: Juke

class Juke:
    def __init__(self, binary, data, database=None):
        self.binary, self.data, self.database = binary, data, database
        self.port = free_port()
        self.process = None

    def options(self):
        return ["--data-dir", self.data] + (["--database", self.database] if self.database else [])

    def cli(self, *args):
        return timed([self.binary, *args, *self.options()])

    def start(self):
        """Starts `juke serve`; the seconds to its /health."""
        log = open(os.path.join(self.data, "serve.log"), "ab")
        start = self.spawned = time.monotonic()
        self.process = subprocess.Popen(
            [self.binary, "serve", *self.options(), "--no-demo", "--port", str(self.port), "--log-level", "warning"],
            stdout=log, stderr=log)
        while True:
            try:
                if get(self.port, "/health", timeout=5)[0] == 200:
                    return time.monotonic() - start
            except OSError:
                pass
            if self.process.poll() is not None:
                raise SystemExit(f"juke serve ended: see {self.data}/serve.log")
            time.sleep(0.02)

    def sign_in(self):
        status, body = post(self.port, "/api/v1/auth/register", {"username": "bench", "password": PASSWORD})
        if status != 201:
            status, body = post(self.port, "/api/v1/auth/login", {"username": "bench", "password": PASSWORD})
        self.header = "Authorization: Bearer " + json.loads(body)["token"]
        self.headers = {"Authorization": self.header.split(": ", 1)[1]}

    def json(self, path):
        status, body = get(self.port, path, self.headers)
        if status != 200:
            raise SystemExit(f"{path}: {status} {body[:300]!r}")
        return json.loads(body)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def juke_calls(juke, kind):
    """(label, path, what the answer must hold) of every call measured: every album order
    first, deep by offset and deep by `after` (the `next` a client paging there would send),
    a genre's and a decade's albums, the A-Z jump, artists, tracks in both orders, one
    album's tracks, searches."""
    # The machine's floor under the same load: a route that reads nothing (wrk and the server
    # share two cores, so 16 connections wait on each other whatever a call does).
    calls = [("floor: /health, no work", "/health", None)]

    def pages(label, base, with_after=True):
        first = juke.json(base + "&limit=50")
        total = first["total"]
        calls.append((f"{label}, first", base + "&limit=50", total))
        deep = max(total - 50, 0)
        calls.append((f"{label}, deep by offset ({deep:,})", base + f"&limit=50&offset={deep}", total))
        if with_after and total > 50:
            before = juke.json(base + f"&limit=50&offset={max(total - 100, 0)}")
            calls.append((f"{label}, deep by after", base + "&limit=50&after=" + before["next"], total))
        return first

    for order in ["artist", "name", "year", "newest", "frequent", "recent"]:
        pages(f"albums by {order}", f"/api/v1/catalog/albums?sort={order}")
    calls.append(("albums random", "/api/v1/catalog/albums?sort=random&limit=50", None))
    genre = juke.json("/api/v1/catalog/genres")[0]["value"]
    pages("albums of a genre", "/api/v1/catalog/albums?genre=" + urllib.parse.quote(genre))
    pages("albums of 1990-1999", "/api/v1/catalog/albums?from_year=1990&to_year=1999")
    calls.append(("albums from M (A-Z jump)", "/api/v1/catalog/albums?sort=name&from=m&limit=50", None))
    pages("artists", "/api/v1/catalog/artists?x=1")
    calls.append(("artists from M (A-Z jump)", "/api/v1/catalog/artists?from=m&limit=50", None))
    pages("tracks by artist", "/api/v1/catalog/tracks?sort=artist")
    pages("tracks newest", "/api/v1/catalog/tracks?sort=newest")
    middle = juke.json("/api/v1/catalog/albums?sort=artist&limit=1&offset=" + str(juke.json("/api/v1/catalog/albums?limit=1")["total"] // 2))
    calls.append(("one album's tracks", "/api/v1/catalog/tracks?album_id=" + middle["items"][0]["id"] + "&limit=50", None))
    for label, q in SEARCHES[kind]:
        calls.append((label, "/api/v1/catalog/search?limit=50&q=" + urllib.parse.quote(q), None))
    return calls


def measure_calls(juke, kind, result):
    result["calls"] = {}
    for label, path, _ in juke_calls(juke, kind):
        status, body = get(juke.port, path, juke.headers)
        items = len(json.loads(body).get("items", [])) if status == 200 else 0
        if status != 200 or (items == 0 and path != "/health"):
            print(f"  warning: {label}: {status}, {items} items: {body[:200]!r}", file=sys.stderr)
        figures = wrk(juke.port, path, juke.header)
        figures["items"] = items
        result["calls"][label] = figures
        print(f"  {label}: p50 {figures['p50']:.2f} ms, p99 {figures['p99']:.2f} ms, {figures['rps']:.0f}/s"
              + (f", {figures['errors']} errors" if figures["errors"] else ""), file=sys.stderr)


def write_plays(juke, database):
    """Plays for every third album (so `frequent` and `recent` have pages): the tracks' counts
    and the albums' rows and order keys, made as CatalogKeys makes them (the count or the
    time counted down, then the album's artist order key)."""
    if database and database.startswith("postgres"):
        statements = [
            "UPDATE tracks SET play_count = 1 + (abs(hashtext(id)) % 20), last_played_at = 1700000000 + (abs(hashtext(id)) % 1000000) "
            "WHERE album_id IN (SELECT id FROM albums WHERE abs(hashtext(id)) % 3 = 0)",
            "UPDATE albums SET play_count = p.n, last_played_at = p.last FROM (SELECT album_id, SUM(play_count) AS n, MAX(last_played_at) AS last "
            "FROM tracks WHERE play_count > 0 GROUP BY album_id) p WHERE albums.id = p.album_id",
            "UPDATE albums SET order_frequent = lpad((999999999999 - play_count)::text, 12, '0') || chr(1) || order_artist, "
            "order_recent = lpad((9999999999999 - round(last_played_at * 1000))::bigint::text, 13, '0') || chr(1) || order_artist "
            "WHERE last_played_at IS NOT NULL",
        ]
        subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", database], input=";\n".join(statements) + ";\n", text=True, check=True)
        return
    statements = [
        "UPDATE tracks SET play_count = 1 + (unicode(substr(id, 1, 1)) + unicode(substr(id, 2, 1))) % 20, "
        "last_played_at = 1700000000 + (unicode(substr(id, 3, 1)) * 7919 + unicode(substr(id, 4, 1)) * 104729) % 1000000 "
        "WHERE album_id IN (SELECT id FROM albums WHERE unicode(substr(id, 5, 1)) % 3 = 0)",
        "UPDATE albums SET play_count = (SELECT SUM(play_count) FROM tracks WHERE album_id = albums.id), "
        "last_played_at = (SELECT MAX(last_played_at) FROM tracks WHERE album_id = albums.id) "
        "WHERE id IN (SELECT album_id FROM tracks WHERE play_count > 0)",
        "UPDATE albums SET order_frequent = printf('%012d', 999999999999 - play_count) || char(1) || order_artist, "
        "order_recent = printf('%013d', 9999999999999 - CAST(round(last_played_at * 1000) AS INTEGER)) || char(1) || order_artist "
        "WHERE last_played_at IS NOT NULL",
    ]
    subprocess.run(["sqlite3", os.path.join(juke.data, "juke.sqlite")], input=";\n".join(statements) + ";\n", text=True, check=True)


def wait_for_index(juke, kind):
    """Seconds from the start until the search index answers (built in the background; the
    database answers meanwhile, without typo correction): until a typo comes back corrected.
    Nothing is measured before, so that the build does not share the cores with the calls."""
    start = time.monotonic()
    typo = "/api/v1/catalog/search?limit=50&q=" + urllib.parse.quote(SEARCHES[kind][2][1])
    while not juke.json(typo).get("approximate"):
        if time.monotonic() - start > 600:
            raise SystemExit("the search index was not built within 10 minutes")
        time.sleep(0.1)
    return time.monotonic() - juke.spawned


def serve_and_measure(juke, kind, result):
    result["health_s"] = juke.start()
    result["rss_at_health"] = memory([juke.process.pid])
    juke.sign_in()
    start = time.monotonic()
    status, _ = get(juke.port, "/api/v1/catalog/search?limit=50&q=" + urllib.parse.quote(SEARCHES[kind][0][1]), juke.headers)
    result["first_search_s"] = time.monotonic() - start
    result["index_ready_s"] = wait_for_index(juke, kind)
    result["load_start"] = loadavg()
    measure_calls(juke, kind, result)
    result["load_end"] = loadavg()
    result["memory"] = memory([juke.process.pid])
    result["tracks"] = juke.json("/api/v1/catalog/tracks?limit=1")["total"]
    result["albums"] = juke.json("/api/v1/catalog/albums?limit=1")["total"]
    result["artists"] = juke.json("/api/v1/catalog/artists?limit=1")["total"]


def juke_files(label, args, out):
    data = tempfile.mkdtemp(prefix=f"juke51-{label}-")
    juke = Juke(args["--bin"], data, args.get("--database"))
    result = {"label": label, "kind": "files", "engine": "juke", "database": "postgres" if juke.database else "sqlite"}
    try:
        result["load_scan"] = loadavg()
        result["scan_s"] = juke.cli("library", "add", args["--library"])
        result["rescan_s"] = juke.cli("library", "scan")
        print(f"{label}: scan {result['scan_s']:.1f} s, rescan {result['rescan_s']:.2f} s", file=sys.stderr)
        write_plays(juke, juke.database)
        serve_and_measure(juke, "files", result)
    finally:
        juke.stop()
    json.dump(result, open(out, "w"), indent=1)
    shutil.rmtree(data, ignore_errors=True)


def juke_rows(label, args, out):
    data = tempfile.mkdtemp(prefix=f"juke51-{label}-")
    for suffix in ["", "-wal"]:
        if os.path.exists(args["--sqlite"] + suffix):
            shutil.copy(args["--sqlite"] + suffix, os.path.join(data, "juke.sqlite" + suffix))
    juke = Juke(args["--bin"], data)
    result = {"label": label, "kind": "rows", "engine": "juke", "database": "sqlite"}
    try:
        write_plays(juke, None)
        serve_and_measure(juke, "rows", result)
    finally:
        juke.stop()
    json.dump(result, open(out, "w"), indent=1)
    shutil.rmtree(data, ignore_errors=True)


class Poller(threading.Thread):
    """Asks its calls in turn every 100 ms (or as soon as the one before answers, when it
    took longer) until stopped; keeps each latency and the answers that were not 200."""

    def __init__(self, port, headers, paths):
        super().__init__(daemon=True)
        self.port, self.headers, self.paths = port, headers, paths
        self.times, self.failures, self.slowest = [], 0, ("", 0.0)
        self.done = threading.Event()

    def run(self):
        i = 0
        while not self.done.is_set():
            path = self.paths[i % len(self.paths)]
            i += 1
            start = time.monotonic()
            try:
                status, _ = get(self.port, path, self.headers, timeout=120)
            except OSError:
                status = 0
            elapsed = (time.monotonic() - start) * 1000
            self.times.append(elapsed)
            if elapsed > self.slowest[1]:
                self.slowest = (path, elapsed)
            if status != 200:
                self.failures += 1
            self.done.wait(max(0.0, 0.1 - elapsed / 1000))

    def figures(self):
        times = sorted(self.times)
        return {"count": len(times), "p50": statistics.median(times), "p99": times[int(len(times) * 0.99) - 1] if len(times) >= 100 else times[-1],
                "max": times[-1], "slowest": self.slowest[0], "failures": self.failures}


def juke_add(label, args, out):
    data = tempfile.mkdtemp(prefix=f"juke51-{label}-")
    juke = Juke(args["--bin"], data, args.get("--database"))
    result = {"label": label, "kind": "files", "engine": "juke", "database": "postgres" if juke.database else "sqlite"}
    try:
        juke.cli("library", "add", args["--base"])
        juke.start()
        juke.sign_in()
        wait_for_index(juke, "files")
        before = juke.json("/api/v1/library/status")["track_count"]
        pages = ["/api/v1/catalog/albums?sort=artist&limit=50", "/api/v1/catalog/albums?sort=newest&limit=50",
                 "/api/v1/catalog/artists?limit=50", "/api/v1/catalog/tracks?sort=newest&limit=50",
                 "/api/v1/catalog/albums?sort=name&from=m&limit=50"]
        searches = ["/api/v1/catalog/search?limit=50&q=" + q for q in ["love", "midnight%20riv", "midnihgt"]]
        page_poller, search_poller = Poller(juke.port, juke.headers, pages), Poller(juke.port, juke.headers, searches)
        result["load_start"] = loadavg()
        page_poller.start()
        search_poller.start()
        time.sleep(2)  # the pollers' figures before the add, on the library as it was
        start = time.monotonic()
        status, body = post(juke.port, "/api/v1/library/folders", {"path": os.path.abspath(args["--add"])}, juke.headers)
        if status != 202:
            raise SystemExit(f"add folder: {status} {body[:300]!r}")
        while True:
            time.sleep(0.5)
            state = juke.json("/api/v1/library/status")
            if state["scans"] and all(s["phase"] in ("done", "failed") for s in state["scans"]):
                break
            if not state["scans"] and state["track_count"] > before:
                break
        result["scan_s"] = time.monotonic() - start
        page_poller.done.set()
        search_poller.done.set()
        page_poller.join()
        search_poller.join()
        result["load_end"] = loadavg()
        result["tracks_before"], result["tracks"] = before, state["track_count"]
        result["pages_during_add"], result["searches_during_add"] = page_poller.figures(), search_poller.figures()
        result["memory"] = memory([juke.process.pid])
        print(f"{label}: {before} -> {state['track_count']} tracks in {result['scan_s']:.1f} s; pages {result['pages_during_add']}; "
              f"searches {result['searches_during_add']}", file=sys.stderr)
    finally:
        juke.stop()
    json.dump(result, open(out, "w"), indent=1)
    shutil.rmtree(data, ignore_errors=True)


# MARK: supysonic

def supysonic(label, args, out):
    work = os.path.abspath(args["--work"])
    library = os.path.abspath(args["--library"])
    os.makedirs(os.path.join(work, "cache"), exist_ok=True)
    with open(os.path.join(work, "supysonic.conf"), "w") as f:
        f.write(f"[base]\ndatabase_uri = sqlite:///{work}/supysonic.db\nscanner_extensions = mp3\n"
                f"[webapp]\ncache_dir = {work}/cache\nlog_level = WARNING\nmount_webui = off\n"
                f"[daemon]\nsocket = {work}/daemon.sock\nrun_watcher = no\n")
    result = {"label": label, "kind": "files", "engine": "supysonic", "database": "sqlite"}
    scanned = os.path.join(work, "scan.json")
    if os.path.exists(scanned):
        result.update(json.load(open(scanned)))
        result["scan_reused"] = True
    else:
        result["load_scan"] = loadavg()
        subprocess.run(["supysonic-cli", "folder", "add", "music", library], cwd=work, check=True, stdout=subprocess.DEVNULL)
        result["scan_s"] = timed(["supysonic-cli", "folder", "scan", "--foreground", "music"], cwd=work)
        result["load_scan_end"] = loadavg()
        subprocess.run(["supysonic-cli", "user", "add", "bench", "-p", "benchpass"], cwd=work, check=True, stdout=subprocess.DEVNULL)
        # Plays on every third album, as for Juke: the tracks' counts and last plays.
        subprocess.run(["sqlite3", os.path.join(work, "supysonic.db")],
                       input="UPDATE track SET play_count = 1 + (unicode(substr(hex(id), 1, 1)) + unicode(substr(hex(id), 2, 1))) % 20, "
                             "last_play = datetime(1700000000 + (unicode(substr(hex(id), 3, 1)) * 7919) % 1000000, 'unixepoch') "
                             "WHERE album_id IN (SELECT id FROM album WHERE unicode(substr(hex(id), 5, 1)) % 3 = 0);\n", text=True, check=True)
        json.dump({k: result[k] for k in ["scan_s", "load_scan", "load_scan_end"]}, open(scanned, "w"))
        print(f"{label}: supysonic scan {result['scan_s']:.1f} s", file=sys.stderr)
    port = free_port()
    log = open(os.path.join(work, "serve.log"), "ab")
    server = subprocess.Popen(["supysonic-server", "-S", "gunicorn", "-h", "127.0.0.1", "-p", str(port), "--processes", "2", "--threads", "8"],
                              cwd=work, stdout=log, stderr=log)
    try:
        start = time.monotonic()
        while True:
            try:
                if get(port, "/rest/ping.view?" + SUPY_AUTH, timeout=5)[0] == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None:
                raise SystemExit(f"supysonic-server ended: see {work}/serve.log")
            time.sleep(0.05)
        result["health_s"] = time.monotonic() - start

        def answer(path):
            status, body = get(port, path)
            data = json.loads(body)["subsonic-response"]
            if status != 200 or data.get("status") != "ok":
                raise SystemExit(f"{path}: {status} {body[:300]!r}")
            return data

        def rest(view, query=""):
            return f"/rest/{view}.view?{SUPY_AUTH}" + (("&" + query) if query else "")

        start = time.monotonic()
        answer(rest("search3", "query=love&artistCount=0&albumCount=0&songCount=50"))
        result["first_search_s"] = time.monotonic() - start
        albums = result["albums"] = int(subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"), "SELECT COUNT(*) FROM album"],
                                                       capture_output=True, text=True, check=True).stdout)
        played = int(subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"),
                                     "SELECT COUNT(DISTINCT album_id) FROM track WHERE last_play IS NOT NULL"],
                                    capture_output=True, text=True, check=True).stdout)
        tracks = result["tracks"] = int(subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"), "SELECT COUNT(*) FROM track"],
                                                       capture_output=True, text=True, check=True).stdout)
        genre = subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"), "SELECT genre FROM track GROUP BY genre ORDER BY genre LIMIT 1"],
                               capture_output=True, text=True, check=True).stdout.strip()
        in_genre = int(subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"),
                                       f"SELECT COUNT(DISTINCT album_id) FROM track WHERE genre = '{genre}'"],
                                      capture_output=True, text=True, check=True).stdout)
        in_decade = int(subprocess.run(["sqlite3", os.path.join(work, "supysonic.db"),
                                        "SELECT COUNT(*) FROM (SELECT album_id FROM track GROUP BY album_id HAVING MIN(year) BETWEEN 1990 AND 1999)"],
                                       capture_output=True, text=True, check=True).stdout)
        some_album = answer(rest("getAlbumList2", f"type=alphabeticalByArtist&size=1&offset={albums // 2}"))["albumList2"]["album"][0]["id"]
        calls = []
        for order, kind, query, total in [("artist", "alphabeticalByArtist", "", albums), ("name", "alphabeticalByName", "", albums),
                                          ("year", "byYear", "&fromYear=0&toYear=9999", albums), ("newest", "newest", "", albums),
                                          ("frequent", "frequent", "", albums), ("recent", "recent", "", played)]:
            calls.append((f"albums by {order}, first", rest("getAlbumList2", f"type={kind}&size=50&offset=0" + query)))
            deep = max(total - 50, 0)
            calls.append((f"albums by {order}, deep by offset ({deep:,})", rest("getAlbumList2", f"type={kind}&size=50&offset={deep}" + query)))
        calls.append(("albums random", rest("getAlbumList2", "type=random&size=50")))
        g = urllib.parse.quote(genre)
        calls.append(("albums of a genre, first", rest("getAlbumList2", f"type=byGenre&genre={g}&size=50&offset=0")))
        calls.append((f"albums of a genre, deep by offset ({max(in_genre - 50, 0):,})",
                      rest("getAlbumList2", f"type=byGenre&genre={g}&size=50&offset={max(in_genre - 50, 0)}")))
        calls.append(("albums of 1990-1999, first", rest("getAlbumList2", "type=byYear&fromYear=1990&toYear=1999&size=50&offset=0")))
        calls.append((f"albums of 1990-1999, deep by offset ({max(in_decade - 50, 0):,})",
                      rest("getAlbumList2", f"type=byYear&fromYear=1990&toYear=1999&size=50&offset={max(in_decade - 50, 0)}")))
        calls.append(("artists (getArtists: all of them at once)", rest("getArtists")))
        calls.append(("tracks, first (search3 with an empty query)", rest("search3", "query=&artistCount=0&albumCount=0&songCount=50&songOffset=0")))
        calls.append((f"tracks, deep by offset ({tracks - 50:,}) (search3, empty query)",
                      rest("search3", f"query=&artistCount=0&albumCount=0&songCount=50&songOffset={tracks - 50}")))
        calls.append(("one album's tracks", rest("getAlbum", "id=" + some_album)))
        for label_, q in SEARCHES["files"]:
            calls.append((label_, rest("search3", "query=" + urllib.parse.quote(q) + "&artistCount=0&albumCount=0&songCount=50")))
        result["load_start"] = loadavg()
        result["calls"] = {}
        for label_, path in calls:
            answer(path)
            figures = wrk(port, path)
            result["calls"][label_] = figures
            print(f"  supysonic {label_}: p50 {figures['p50']:.2f} ms, p99 {figures['p99']:.2f} ms, {figures['rps']:.1f}/s"
                  + (f", {figures['errors']} errors" if figures["errors"] else ""), file=sys.stderr)
        result["load_end"] = loadavg()
        children = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True).stdout.split()
        result["memory"] = memory([server.pid] + [int(p) for p in children])
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
    json.dump(result, open(out, "w"), indent=1)


# MARK: the table

def table(paths):
    results = [json.load(open(p)) for p in paths]
    columns = [r for r in results if "calls" in r]
    adds = [r for r in results if "pages_during_add" in r]

    labels = []
    for r in columns:
        for label in r["calls"]:
            short = re.sub(r" \([\d,]+\)", "", label)
            if short not in labels:
                labels.append(short)

    def find(r, short):
        for key, value in r["calls"].items():
            if re.sub(r" \([\d,]+\)", "", key) == short:
                return value
        return None

    out = []
    out.append("| call (p50 ms / p99 ms / requests/s, 16 connections) | " + " | ".join(
        f"{r['engine'].capitalize() if r['engine'] == 'juke' else r['engine']} {r['label']}" for r in columns) + " |")
    out.append("|---|" + "---|" * len(columns))
    for short in labels:
        cells = []
        for r in columns:
            c = find(r, short)
            cells.append("" if c is None else f"{c['p50']:.2f} / {c['p99']:.2f} / {c['rps']:,.0f}" + (f" ({c['errors']} errors)" if c["errors"] else ""))
        out.append(f"| {short} | " + " | ".join(cells) + " |")
    rows = [("tracks, albums, artists", lambda r: f"{r.get('tracks', 0):,}, {r.get('albums', 0):,}, {r.get('artists', '')}" if r.get("tracks") else ""),
            ("scan (s)", lambda r: (f"{r['scan_s']:.1f}" + (f" (before this run, load {r['load_scan']})" if r.get("scan_reused") else ""))
             if "scan_s" in r else ""),
            ("rescan, nothing changed (s)", lambda r: f"{r['rescan_s']:.2f}" if "rescan_s" in r else ""),
            ("start to /health (s)", lambda r: f"{r['health_s']:.2f}" if "health_s" in r else ""),
            ("first search after the start (s)", lambda r: f"{r['first_search_s']:.3f}" if "first_search_s" in r else ""),
            ("search index built, from the start (s)", lambda r: f"{r['index_ready_s']:.2f}" if "index_ready_s" in r else ""),
            ("resident memory after the calls, MB (peak)", lambda r: f"{r['memory']['rss_mb']:.0f} ({r['memory']['hwm_mb']:.0f})" if "memory" in r else ""),
            ("load average during the calls", lambda r: f"{r.get('load_start', '')} → {r.get('load_end', '')}")]
    for name, f in rows:
        out.append(f"| {name} | " + " | ".join(f(r) for r in columns) + " |")
    print("\n".join(out))

    for r in adds:
        p, s = r["pages_during_add"], r["searches_during_add"]
        print(f"\nWhile {r['tracks'] - r['tracks_before']:,} tracks were added to a running server ({r['label']}; {r['tracks_before']:,} before; "
              f"scan {r['scan_s']:.1f} s; load {r['load_start']} → {r['load_end']}; resident after {r['memory']['rss_mb']:.0f} MB, peak {r['memory']['hwm_mb']:.0f} MB):")
        print(f"- pages: {p['count']} asked, p50 {p['p50']:.1f} ms, p99 {p['p99']:.1f} ms, slowest {p['max']:.1f} ms ({p['slowest']}), {p['failures']} not 200")
        print(f"- searches: {s['count']} asked, p50 {s['p50']:.1f} ms, p99 {s['p99']:.1f} ms, slowest {s['max']:.1f} ms ({s['slowest']}), {s['failures']} not 200")

    by = {(r["engine"], r["label"]): r for r in columns}
    small = next((r for r in columns if r["engine"] == "juke" and r["label"].startswith("1k")), None)
    if small:
        print("\nThe issue's ratios (p50 of the deep page over p50 of the same order's first page on 1k; goal <= 2x at 100k, <= 3x at 1M).")
        print("Where that first page holds fewer rows on 1k (a genre's or a decade's 8 or 18 albums) it is no page to compare")
        print("a full one with: the base is then a full first page of the same kind (albums by name, tracks by artist), said so.")
        print("\n| deep page | base on 1k | " + " | ".join(r["label"] for r in columns if r["engine"] == "juke" and r is not small) + " |")
        print("|---|---|" + "---|" * len([r for r in columns if r["engine"] == "juke" and r is not small]))
        for short in labels:
            if "deep" not in short:
                continue
            base = short.split(", deep")[0] + ", first"
            first = find(small, base)
            full = {"albums": "albums by name, first", "tracks": "tracks by artist, first", "artists": "artists, first"}.get(short.split(" ")[0])
            if first and full and first.get("items", 50) < 50 and find(small, full):
                base, first = full + " (full page)", find(small, full)
            if not first:
                continue
            cells = []
            for r in columns:
                if r["engine"] != "juke" or r is small:
                    continue
                deep = find(r, short)
                cells.append(f"{deep['p50'] / first['p50']:.2f}x" if deep else "")
            print(f"| {short} | {base} | " + " | ".join(cells) + " |")
        for r in columns:
            if r["engine"] == "juke" and r["label"].startswith("100k"):
                worst = max(r["calls"].items(), key=lambda kv: kv[1]["p99"])
                over = [k for k, v in r["calls"].items() if v["p99"] > 20]
                print(f"\n{r['label']}: the slowest p99 {worst[1]['p99']:.2f} ms ({worst[0]}); over 20 ms: {', '.join(over) if over else 'none'}")
                floor = r["calls"].get("floor: /health, no work")
                if floor:
                    print(f"The floor in the same run (/health, which reads nothing, under the same 16 connections): p50 {floor['p50']:.2f} ms, "
                          f"p99 {floor['p99']:.2f} ms, {floor['rps']:,.0f}/s; the slowest browsing p99 is {worst[1]['p99'] / floor['p99']:.1f}x the floor's.")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    command = sys.argv[1]
    if command == "table":
        table(sys.argv[2:])
        return
    label, rest = sys.argv[2], sys.argv[3:]
    args = {}
    while len(rest) > 1 and rest[0].startswith("--"):
        args[rest[0]] = rest[1]
        rest = rest[2:]
    out = rest[0]
    {"juke": juke_files, "juke-rows": juke_rows, "juke-add": juke_add, "supysonic": supysonic}[command](label, args, out)


if __name__ == "__main__":
    main()
