"""Juke as an installed web app: the manifest and service worker pass Chromium's installability
checks, and with the network switched off (DevTools network emulation) the shell opens each app
and says what needs the network."""
import json
import tempfile
import urllib.request

from selenium.webdriver.common.by import By

from conftest import JukeServer, request
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
