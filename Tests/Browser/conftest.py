"""Fixtures for the browser tests: real `juke serve` processes and headless Chromium."""
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
import uuid

import pytest
import trio
import trio_websocket
import urllib3
from selenium import webdriver
from selenium.common.exceptions import WebDriverException

JUKE = os.environ.get("JUKE_BINARY", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "juke"))
DEMO_TRACKS = 40


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, body=None, token=None):
    """A JSON request; returns (status, decoded body or None)."""
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


class EventStream:
    """A server-sent event stream read on a thread: `next_state(predicate)` waits for a
    `state` event whose JSON satisfies the predicate."""

    def __init__(self, base, path, token):
        import http.client
        import queue
        import threading
        host, port = base.replace("http://", "").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        self.connection.request("GET", path, headers={"Authorization": "Bearer " + token, "Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.read()
        self.events = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        event, data = None, []
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data.append(line[6:])
                elif line == "":
                    if event == "state":
                        self.events.put(json.loads("\n".join(data)))
                    event, data = None, []
        except Exception:
            pass

    def next_state(self, predicate, timeout=20):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                state = self.events.get(timeout=max(0.1, deadline - time.time()))
            except Exception:
                break
            if predicate(state):
                return state
        raise AssertionError("no matching state arrived")

    def close(self):
        self.connection.close()


# The demo media a server makes on its first start (the library's 47 synthesized pieces, Dual
# Player's spoken book and show: ~20 s of CPU in a debug build, for each of the ~20 servers a
# browser pass starts with the demo). Made once per run by a real server and copied into each
# new data folder, where the server finds the files and leaves them alone (it writes only the
# missing ones: DemoLibrary.generate, DemoBookService, DemoPodcastService), then scans and
# shelves them as on any first start. The session servers (`server` below) make their own, so
# the making itself stays tested in the browser too.
DEMO_MEDIA = ("demo-library", os.path.join("dual", "demo", "aesops-fables.m4b"), os.path.join("dual", "demo-podcast"))


def _demo_template():
    """The folder holding the demo media of this build of Juke, made by the first worker that
    asks (the others wait on a lock): keyed by the binary, so a new build makes it anew."""
    import fcntl
    import hashlib
    stat = os.stat(JUKE)
    key = hashlib.sha256(f"{os.path.realpath(JUKE)}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:16]
    template = os.path.join(tempfile.gettempdir(), f"juke-demo-template-{key}")
    with open(template + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(template, "complete")):
            shutil.rmtree(template, ignore_errors=True)
            making = tempfile.mkdtemp(prefix="juke-demo-making-")
            server = JukeServer(making, extra_args=["--sign-ups-per-address", "1000"], demo_template=False)
            try:
                _, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "template", "password": "template password"})
                server.wait_for_tracks(body["token"], DEMO_TRACKS)
                deadline = time.time() + 600
                # The book is shelved after its file is in place; the show's feed.xml is moved last.
                while time.time() < deadline:
                    books = request(server.base, "GET", "/api/v1/dual/books", token=body["token"])[1] or {}
                    if any(b["origin"] == "demo" for b in books.get("items", [])) and os.path.exists(os.path.join(making, "dual", "demo-podcast", "feed.xml")):
                        break
                    time.sleep(0.5)
                else:
                    raise RuntimeError("the demo book and show were not made")
            finally:
                server.stop()
            os.makedirs(template)
            for item in DEMO_MEDIA:
                source, target = os.path.join(making, item), os.path.join(template, item)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                (shutil.copytree if os.path.isdir(source) else shutil.copy2)(source, target)
            open(os.path.join(template, "complete"), "w").close()
            shutil.rmtree(making, ignore_errors=True)
    return template


def _copy_demo_media(data_dir):
    if os.path.exists(os.path.join(data_dir, "demo-library")):
        return  # a server started again on its own folder
    template = _demo_template()
    for item in DEMO_MEDIA:
        source, target = os.path.join(template, item), os.path.join(data_dir, item)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        (shutil.copytree if os.path.isdir(source) else shutil.copy2)(source, target)


class JukeServer:
    def __init__(self, data_dir, database=None, demo=True, extra_args=(), port=None, binary=None, env=None, demo_template=True):
        self.data_dir = data_dir
        # A new server with the demo starts from the run's made demo media (see DEMO_MEDIA), unless
        # it is another build of Juke (`binary`) or asked to make its own.
        if demo and demo_template and binary is None:
            _copy_demo_media(data_dir)
        # What the command line needs to work on this server's data.
        self.data_args = ["--data-dir", data_dir] + (["--database", database] if database else [])
        # A given port: the same server started again where its pages expect it.
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # `binary`: another build of Juke (an upgrade) on the same data.
        args = [binary or JUKE, "serve", "--port", str(self.port), "--data-dir", data_dir]
        if database:
            args += ["--database", database]
        if not demo:
            args.append("--no-demo")
        args += list(extra_args)
        self.log = open(os.path.join(data_dir, f"server-{self.port}.log"), "w")
        # `env`: the environment it starts with (a bucket's key), else the tests' own.
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if request(self.base, "GET", "/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                raise RuntimeError(f"juke serve exited: {open(self.log.name).read()}")
            time.sleep(0.2)
        raise RuntimeError("juke serve did not become healthy")

    def wait_for_tracks(self, token, count, timeout=600):
        # A bound for a bug, not a measure: with three browser workers, three servers make
        # their demo library (about a minute of CPU each), book and show at once on two cores.
        deadline = time.time() + timeout
        while time.time() < deadline:
            status, body = request(self.base, "GET", "/api/v1/library/status", token=token)
            if status == 200 and body["track_count"] >= count and all(s["phase"] in ("done", "failed") for s in body["scans"]):
                return body
            time.sleep(0.5)
        raise RuntimeError(f"library did not reach {count} tracks: {body}")

    def crash(self):
        """kill -9: no graceful shutdown, nothing flushed but what was committed."""
        self.process.kill()
        self.process.wait(timeout=15)
        self.log.close()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


POSTGRES_URL = os.environ.get("JUKE_TEST_POSTGRES_URL")


def require_postgres():
    """The throwaway cluster's URL; missing fails in CI and skips elsewhere (never passes)."""
    if not POSTGRES_URL:
        if os.environ.get("CI"):
            pytest.fail("JUKE_TEST_POSTGRES_URL is required in CI")
        pytest.skip("no PostgreSQL server (run Scripts/test.sh)")
    return POSTGRES_URL


def create_postgres_database():
    """A fresh database on the throwaway cluster; returns (its URL, a function that drops it)."""
    base = require_postgres()
    name = "juke_e2e_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True)

    def drop():
        subprocess.run(["psql", base, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], check=False)

    return base.rsplit("/", 1)[0] + "/" + name, drop


@pytest.fixture(params=["sqlite", "postgres"])
def database(request):
    """Each test that takes it runs on SQLite (None: the data folder's file) and on PostgreSQL."""
    if request.param == "sqlite":
        yield None
        return
    url, drop = create_postgres_database()
    yield url
    drop()


@pytest.fixture(scope="session")
def data_dir():
    path = tempfile.mkdtemp(prefix="juke-browser-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


BROWSER_DATABASE = os.environ.get("JUKE_BROWSER_DATABASE", "sqlite")


@pytest.fixture
def app_database():
    """The database a test's own server uses: SQLite (None), or with JUKE_BROWSER_DATABASE=postgres
    a fresh PostgreSQL database, so that the whole browser suite runs on both."""
    if BROWSER_DATABASE != "postgres":
        yield None
        return
    url, drop = create_postgres_database()
    yield url
    drop()


@pytest.fixture(scope="session")
def server(data_dir):
    """One server with the demo library, on SQLite or (JUKE_BROWSER_DATABASE=postgres) on a
    fresh PostgreSQL database; the first account made is its admin."""
    drop = None
    database = None
    if BROWSER_DATABASE == "postgres":
        database, drop = create_postgres_database()
    # Every file's tests sign up on this one server from one address: more than a party's 30.
    s = JukeServer(data_dir, database=database, extra_args=["--sign-ups-per-address", "1000"], demo_template=False)
    yield s
    s.stop()
    if drop:
        drop()


@pytest.fixture(scope="session")
def admin(server):
    status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "admin password"})
    assert status == 201, body
    server.wait_for_tracks(body["token"], DEMO_TRACKS)
    return {"username": "admin", "password": "admin password", "token": body["token"]}


# Every browser a test starts, quit when the test ends however it ends (`quit_leftover_drivers`):
# a test that failed before its own `quit` left Chromium running, and a run with many failures
# piled them up until ChromeDriver could no longer start. A browser kept across tests (a
# module's cache of them) is made with `lasting=True` and quit by its owner.
_drivers = []


@pytest.fixture(autouse=True)
def quit_leftover_drivers():
    yield
    while _drivers:
        driver = _drivers.pop()
        try:
            driver.quit()
        except Exception:
            pass


def start_chrome(options, tries=3):
    """Chromium under a new ChromeDriver, tried again when the driver is gone before it answers.
    Selenium picks the driver's port by binding port 0 and letting it go; another process (a
    parallel worker's driver, a Juke server) can take that port in between, and the new driver
    then fails, or the first request reaches a driver that is not ours and goes away."""
    for attempt in range(tries):
        try:
            return webdriver.Chrome(options=options)
        except (WebDriverException, urllib3.exceptions.HTTPError, ConnectionError):
            if attempt == tries - 1:
                raise
            time.sleep(1)


def make_driver(width=1280, height=900, mobile=False, lasting=False, service_worker=False):
    """A new headless Chromium, a phone (`mobile`: Chromium's emulation, which allows a window
    narrower than 500 px) or a computer. `lasting`: not quit when the test ends (a module's own).

    Without `service_worker` its pages see no service worker, as a phone does that opens Juke
    over plain http on the party's network (not a secure context): the worker is the PWA
    tests' subject (test_pwa_browser.py), and online it passes every request through untouched.
    Installing it made each new browser fetch and keep every page, script and icon: 13% of the
    browser tests' CPU, measured on two files."""
    options = webdriver.ChromeOptions()
    for arg in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--autoplay-policy=no-user-gesture-required",
                "--mute-audio", f"--window-size={width},{height}"]:
        options.add_argument(arg)
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = start_chrome(options)
    if not service_worker:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete Navigator.prototype.serviceWorker;"})
    if not lasting:
        _drivers.append(driver)
    return driver


@pytest.fixture
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


@pytest.fixture
def phone():
    driver = make_driver(375, 740, mobile=True)
    yield driver
    driver.quit()


class ServiceWorkerThrottle:
    """Slows the network as the page's service worker sees it. DevTools' throttling of the page
    does not reach requests its service worker makes, so this speaks DevTools' protocol to the
    browser, over its WebSocket, for as long as the `with` block lasts: it attaches to every
    service worker of `origin` (the browser stops an idle worker and starts a new one on the next
    request) and throttles each. The emulation ends when that connection closes."""

    def __init__(self, driver, origin, bytes_per_second):
        self.address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        self.origin = origin
        self.rate = bytes_per_second
        self.ready = threading.Event()
        self.done = threading.Event()
        self.error = None

    def __enter__(self):
        with urllib.request.urlopen(f"http://{self.address}/json/version") as r:
            url = json.load(r)["webSocketDebuggerUrl"]
        self.thread = threading.Thread(target=lambda: trio.run(self.hold, url), daemon=True)
        self.thread.start()
        assert self.ready.wait(30), f"no service worker of {self.origin} was throttled"
        if self.error:
            raise self.error
        return self

    async def hold(self, url):
        try:
            async with trio_websocket.open_websocket_url(url, max_message_size=64 << 20) as ws:
                number = 0
                pending = {}

                async def send(method, params, session=None):
                    nonlocal number
                    number += 1
                    message = {"id": number, "method": method, "params": params}
                    if session:
                        message["sessionId"] = session
                    pending[number] = method
                    await ws.send_message(json.dumps(message))

                await send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})
                while not self.done.is_set():
                    with trio.move_on_after(0.05):
                        message = json.loads(await ws.get_message())
                        if message.get("method") == "Target.attachedToTarget":
                            target = message["params"]["targetInfo"]
                            if target["type"] == "service_worker" and target["url"].startswith(self.origin):
                                session = message["params"]["sessionId"]
                                await send("Network.enable", {}, session)
                                await send("Network.emulateNetworkConditions", {
                                    "offline": False, "latency": 0, "downloadThroughput": self.rate, "uploadThroughput": -1}, session)
                        elif message.get("id") in pending:
                            method = pending.pop(message["id"])
                            if "error" in message:
                                raise AssertionError(f"{method}: {message['error']}")
                            if method == "Network.emulateNetworkConditions":
                                self.ready.set()
        except BaseException as error:  # handed to the test's thread
            self.error = error
            self.ready.set()

    def __exit__(self, kind, *_):
        self.done.set()
        self.thread.join(30)
        # A worker started later that could not be throttled fails the test (unless it failed already).
        if self.error and kind is None:
            raise self.error
