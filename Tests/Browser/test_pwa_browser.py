"""Juke as an installed web app: the manifest and service worker pass Chromium's installability
checks, and with the network switched off (DevTools network emulation) the shell opens each app
and says what needs the network."""
import json
import os
import shutil
import subprocess
import tempfile
import urllib.request

from selenium.webdriver.common.by import By

from conftest import JUKE, JukeServer, request
from helpers import sign_in, wait

APPS = {"/tunetrivia": "TuneTrivia", "/back2back": "Back2Back", "/dual": "Dual Player", "/runbeat": "RunBeat"}


def shell_cached(driver):
    """The pages the worker keeps, once it controls the page and has warmed them."""
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      (async () => {
        if (!navigator.serviceWorker.controller) return done([]);
        const names = (await caches.keys()).filter((n) => n.startsWith('juke-shell-'));
        if (names.length !== 1) return done([]);
        const cache = await caches.open(names[0]);
        done((await cache.keys()).map((r) => new URL(r.url).pathname));
      })().catch(() => done([]));""")


def offline(driver, on):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": on, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_the_manifest_is_installable_and_lists_the_apps(server, admin, browser):
    status, _ = request(server.base, "GET", "/health")
    with urllib.request.urlopen(server.base + "/manifest.webmanifest") as r:
        assert r.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(r)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["short_name"] == "Juke"
    sizes = {(i["sizes"], i.get("purpose", "any")) for i in manifest["icons"]}
    assert ("192x192", "any") in sizes and ("512x512", "any") in sizes and ("512x512", "maskable") in sizes
    assert [s["url"] for s in manifest["shortcuts"]] == list(APPS)
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.base + icon["src"]) as r:
            assert r.status == 200 and r.headers["Content-Type"] == icon["type"]
    sign_in(browser, server, admin["username"], admin["password"])
    wait(browser, 30).until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))
    # Chromium's own checks: the manifest parses, and with the worker the page is installable.
    app_manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert app_manifest["errors"] == [], app_manifest["errors"]
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"]
    assert errors == [], errors


def test_offline_the_installed_shell_opens_every_app_and_says_what_needs_the_network(data_dir, app_database, browser):
    # A server of its own: "the network switched off" is both DevTools' offline mode for the
    # page and the server gone (DevTools' emulation does not reach the service worker's own
    # requests, and a phone in a tunnel reaches no server at all).
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=False)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "admin password"})
        assert status == 201, body
        sign_in(browser, server, "admin", "admin password")
        # Signed in and online, the worker keeps the home and the four apps' pages.
        wait(browser, 60).until(lambda d: set(APPS) | {"/"} <= set(shell_cached(d)))
        server.stop()
        offline(browser, True)
        assert browser.execute_script("return navigator.onLine") is False
        for path, name in APPS.items():
            browser.get(server.base + path)
            wait(browser).until(lambda d: d.execute_script("return document.readyState") == "complete")
            assert name in browser.title
            note = wait(browser).until(lambda d: d.find_element(By.ID, "offline-banner").text)
            assert "offline" in note.lower() and "network" in note.lower()
        # The API itself is not served from the device.
        failed = browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/api/v1/catalog/tracks').then(() => done(false), () => done(true));")
        assert failed is True
        # A page never opened says so instead of the browser's error page.
        browser.get(server.base + "/library")
        assert "You are offline" in wait(browser).until(lambda d: d.find_element(By.TAG_NAME, "h1").text)
        # Back online: the banner goes.
        server = JukeServer(server.data_dir, database=app_database, demo=False, port=server.port)
        offline(browser, False)
        browser.get(server.base + "/dual")
        wait(browser).until(lambda d: d.execute_script("return document.getElementById('offline-banner')?.hidden === true"))
    finally:
        server.stop()


def test_a_position_changed_offline_reaches_the_server_when_the_network_is_back(data_dir, app_database, browser):
    music = tempfile.mkdtemp(prefix="juke-pwa-music-", dir=data_dir)
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=60", "-ac", "2",
                    "-c:a", "libmp3lame", "-metadata", "title=Offline Tone", "-metadata", "artist=Tone Makers",
                    os.path.join(music, "tone.mp3")], check=True)
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=False)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "walker", "password": "walker password"})
        assert status == 201, body
        token = body["token"]
        assert request(server.base, "POST", "/api/v1/library/folders", {"path": music}, token=token)[0] in (200, 201, 202)
        server.wait_for_tracks(token, 1)
        track = request(server.base, "GET", "/api/v1/catalog/tracks", token=token)[1]["items"][0]["id"]
        sign_in(browser, server, "walker", "walker password")
        browser.get(server.base + "/dual")
        box = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-player .dual-search input"))
        box.send_keys("Offline Tone\n")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-player .dual-results button"))[0].click()
        wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.5)
        browser.execute_script("document.querySelector('#music-player .dual-audio').pause()")
        wait(browser, 60).until(lambda d: "/dual" in shell_cached(d))

        # The network goes; the listener moves to 0:40 and the page saves it on the device.
        server.stop()
        offline(browser, True)
        browser.execute_script("const s = document.querySelector('#music-player .dual-seek'); s.value = '40'; s.dispatchEvent(new Event('change'))")
        queued = wait(browser).until(lambda d: d.execute_script("return JSON.parse(localStorage.getItem('juke_dual_outbox') || '[]')"))
        assert queued[0]["item"] == f"track:{track}" and abs(queued[0]["seconds"] - 40) < 1

        # The network is back: the outbox goes, and the server keeps the position.
        server = JukeServer(server.data_dir, database=app_database, demo=False, port=server.port)
        offline(browser, False)

        def saved(_):
            status, body = request(server.base, "GET", f"/api/v1/dual/positions?items=track:{track}", token=token)
            kept = body.get("positions", []) if status == 200 else []
            return kept and abs(kept[0]["seconds"] - 40) < 1

        wait(browser, 30).until(saved)
        wait(browser).until(lambda d: d.execute_script("return JSON.parse(localStorage.getItem('juke_dual_outbox') || '[]').length") == 0)
    finally:
        server.stop()


def test_a_new_version_is_offered_and_starts_when_taken(data_dir, app_database, browser):
    # Two versions of Juke: this build, and a copy whose stylesheet differs (as an upgrade's
    # would). A copied executable finds the resource bundles beside it.
    build = os.path.dirname(os.environ.get("JUKE_BINARY", JUKE))
    copy = tempfile.mkdtemp(prefix="juke-v2-", dir=data_dir)
    shutil.copy(os.path.join(build, "juke"), os.path.join(copy, "juke"))
    for name in os.listdir(build):
        if name.endswith(".resources") and not name.endswith("Tests.resources"):
            shutil.copytree(os.path.join(build, name), os.path.join(copy, name))
    with open(os.path.join(copy, "Juke_JukePlatform.resources", "static", "css", "app.css"), "a") as f:
        f.write("\n/* version 2 */\n")
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=False)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "admin password"})
        assert status == 201, body
        sign_in(browser, server, "admin", "admin password")
        wait(browser, 30).until(lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))
        first = wait(browser).until(lambda d: shell_names(d))
        # The server is upgraded; the next visit finds the new version, installs it in the
        # background and says so, while the old one keeps the page.
        server.stop()
        server = JukeServer(server.data_dir, database=app_database, demo=False, port=server.port, binary=os.path.join(copy, "juke"))
        browser.get(server.base + "/")
        offer = wait(browser, 30).until(lambda d: d.find_element(By.ID, "update-banner").text)
        assert "new version of Juke is ready" in offer and "next time" in offer
        assert shell_names(browser)[0] == first[0], "the running version is not swapped under the page"
        # Taking it now: the new version takes over, the page reloads, the old cache is gone.
        browser.find_element(By.CSS_SELECTOR, "#update-banner button").click()
        wait(browser, 30).until(lambda d: shell_names(d) and shell_names(d) != first and len(shell_names(d)) == 1)
        assert browser.execute_script("return getComputedStyle(document.body) !== null")
    finally:
        server.stop()


def shell_names(driver):
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      caches.keys().then((names) => done(names.filter((n) => n.startsWith('juke-shell-')).sort()), () => done([]));""")
