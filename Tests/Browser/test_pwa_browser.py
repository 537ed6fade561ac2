"""Juke as an installed web app: the manifest and service worker pass Chromium's installability
checks, and with the network switched off (DevTools network emulation) the shell opens each app
and says what needs the network."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import JUKE, JukeServer, ServiceWorkerThrottle, make_driver, request
from helpers import click, close_dual_sheet, dual_screen, dual_sheet, sign_in, wait
from test_dual_player_articles import PAGE as ARTICLE
from test_runbeat_browser import end_workout, start_simulated

APPS = {"/tunetrivia": "TuneTrivia", "/back2back": "Back2Back", "/dual": "Dual Player", "/runbeat": "RunBeat"}


@pytest.fixture
def browser():
    """A computer's Chromium whose pages have the service worker: this file's subject (the
    other files' browsers go without, see `make_driver`)."""
    driver = make_driver(service_worker=True)
    yield driver
    driver.quit()


def samples_held(base, token):
    """The times of the heart-rate samples the server holds for the runner's newest workout."""
    status, workouts = request(base, "GET", "/api/v1/runbeat/workouts", None, token)
    if status != 200 or not workouts.get("workouts"):
        return []
    status, detail = request(base, "GET", f"/api/v1/runbeat/workouts/{workouts['workouts'][0]['id']}", None, token)
    return [s["t"] for s in detail.get("heart_rate") or []] if status == 200 else []


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


def reopen_dual_offline(driver, server):
    """The network goes (the server stops, DevTools say offline) and Dual Player is opened
    again from the device."""
    server.stop()
    offline(driver, True)
    driver.get(server.base + "/dual")
    wait(driver).until(lambda d: "Offline" in d.find_element(By.ID, "dual-status").text)


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
        notes = {}
        for path, name in APPS.items():
            browser.get(server.base + path)
            wait(browser).until(lambda d: d.execute_script("return document.readyState") == "complete")
            assert name in browser.title
            note = wait(browser).until(lambda d: d.find_element(By.ID, "offline-banner").text)
            assert "offline" in note.lower() and "network" in note.lower()
            # The note is the one the app's card declares, carried by its page.
            assert note == browser.execute_script("return document.body.dataset.offlineNote"), path
            notes[path] = note
        assert len(set(notes.values())) == len(APPS), notes
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
        dual_screen(browser, "library")
        box = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input"))
        box.send_keys("Offline Tone\n")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))[0].click()
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
        # Both versions' caches exist while the new one waits (sorted by name, so either may
        # come first); the worker running the page is still the old one.
        waiting = shell_names(browser)
        assert first[0] in waiting and len(waiting) == 2, waiting
        assert "juke-shell-" + running_version(browser) == first[0], "the running version is not swapped under the page"
        # Taking it now: the new version takes over, the page reloads, the old cache is gone.
        browser.find_element(By.CSS_SELECTOR, "#update-banner button").click()
        wait(browser, 30).until(lambda d: shell_names(d) and shell_names(d) != first and len(shell_names(d)) == 1)
        assert browser.execute_script("return getComputedStyle(document.body) !== null")
    finally:
        server.stop()


def running_version(driver):
    """The version of the worker that controls the page, as it says itself."""
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      const controller = navigator.serviceWorker.controller;
      if (!controller) return done(null);
      navigator.serviceWorker.addEventListener('message', (event) => {
        if (event.data?.type === 'version') done(event.data.version);
      }, { once: true });
      controller.postMessage({ type: 'version' });""")


def shell_names(driver):
    return driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      caches.keys().then((names) => done(names.filter((n) => n.startsWith('juke-shell-')).sort()), () => done([]));""")


def demo_feed_ready(base):
    try:
        with urllib.request.urlopen(base + "/dual/demo-podcast/feed.xml", timeout=10) as reply:
            return reply.status == 200
    except OSError:
        return False


def speech_audio(driver, prop):
    return driver.execute_script(f"return document.querySelector('#speech-player .dual-audio').{prop}")


def deck_keep(player):
    """The "Save on this device" button of a player's deck (an icon: its words are its title)."""
    return f"#{player}-player .dual-keep-slot .dual-keep"


def keep_words(driver, player):
    """What a deck's save button says (its title and label) and its state."""
    button = driver.find_element(By.CSS_SELECTOR, deck_keep(player))
    return button.get_attribute("title"), button.get_attribute("aria-label"), button.get_attribute("data-keep")


def test_a_saved_episode_and_song_play_offline_and_the_played_mark_waits_for_the_network(data_dir, app_database, browser):
    """The commuter's tunnel: an episode and a song saved on the device, then no network. The
    page opens from the device, both play (the episode with its chapters, speed, Boost and the
    lock screen), the episode plays to its end, is marked played on the device and removed
    from it, and the mark reaches the server when the network is back."""
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=True)
    try:
        wait(browser, 120).until(lambda d: demo_feed_ready(server.base))
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "commuter", "password": "commuter password"})
        assert status == 201, body
        token = body["token"]
        server.wait_for_tracks(token, 1)
        tracks = request(server.base, "GET", "/api/v1/catalog/tracks?limit=50", token=token)[1]["items"]
        song = next(t for t in tracks if t["format"] != "mp4")
        sign_in(browser, server, "commuter", "commuter password")
        browser.get(server.base + "/dual")
        wait(browser, 60).until(lambda d: "/dual" in shell_cached(d))

        # Online: subscribe to the demo show, save an episode from its row and a song from the player.
        dual_screen(browser, "podcasts")
        wait(browser).until(lambda d: "No podcasts yet" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
        click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-podcast-add summary")
        click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-podcast-demo")
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode")) == 3)
        row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode") if "Ozymandias" in r.text)
        episode_id = row.get_attribute("data-episode")
        row.find_element(By.CSS_SELECTOR, ".dual-keep").click()
        dual_screen(browser, "library")
        box = browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
        box.send_keys(song["title"] + "\n")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))[0].click()
        dual_screen(browser, "now")
        wait(browser).until(lambda d: keep_words(d, "music") == ("Save on this device", f"Save on this device: {song['title']}", "none"))
        click(browser, By.CSS_SELECTOR, deck_keep("music"))
        wait(browser, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-items .dual-device-item[data-status='saved']")) == 2)
        assert keep_words(browser, "music") == ("On this device · Remove", f"On this device · Remove: {song['title']}", "saved")
        space = browser.find_element(By.ID, "device-space").text
        assert "Saved here:" in space and "in 2 items" in space and "This browser lets Juke keep" in space, space
        click(browser, By.ID, "device-remove-played")
        browser.execute_script("document.querySelector('#music-player .dual-audio').pause()")

        # The network goes; the page opens from the device.
        reopen_dual_offline(browser, server)
        saved = {r.get_attribute("data-key"): r for r in browser.find_elements(By.CSS_SELECTOR, "#device-items .dual-device-item")}
        assert set(saved) == {f"episode:{episode_id}", f"track:{song['id']}"}, saved.keys()

        # The song and the episode play from the device, at the same time.
        saved[f"track:{song['id']}"].find_element(By.CSS_SELECTOR, ".dual-device-play").click()
        wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.5)
        browser.find_element(By.CSS_SELECTOR, f"#device-items [data-key='episode:{episode_id}'] .dual-device-play").click()
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > 0.5)
        start = speech_audio(browser, "currentTime")
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > start + 1)
        assert "Ozymandias" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text
        # Its chapters came with it; speed, Boost and the lock screen work as online.
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 3)
        Select(browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-speed")).select_by_value("1.5")
        wait(browser).until(lambda d: speech_audio(d, "playbackRate") == 1.5)
        click(browser, By.CSS_SELECTOR, "#speech-player .dual-mode label:has(input[name='speech-mode'][value='boost'])")
        wait(browser).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-path") == "webAudio")
        at = speech_audio(browser, "currentTime")
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > at + 1)
        assert browser.execute_script("return navigator.mediaSession.playbackState") == "playing"
        assert browser.execute_script("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.title")
        # A seek near the end: the episode plays out, is marked played on the device, and leaves it.
        browser.execute_script("const a = document.querySelector('#speech-player .dual-audio'); a.currentTime = a.duration - 1.5")
        wait(browser, 30).until(lambda d: d.execute_script(
            "return JSON.parse(localStorage.getItem('juke_dual_played') || '[]').some((m) => m.played)"))
        wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, f"#device-items [data-key='episode:{episode_id}']"))
        assert browser.find_elements(By.CSS_SELECTOR, f"#device-items [data-key='track:{song['id']}']"), "the song stays"

        # The network is back: the played mark reaches the server, and the outbox empties.
        server = JukeServer(server.data_dir, database=app_database, demo=True, port=server.port)
        offline(browser, False)

        def played(_):
            shows = request(server.base, "GET", "/api/v1/dual/podcasts", token=token)[1]["items"]
            episodes = request(server.base, "GET", f"/api/v1/dual/podcasts/{shows[0]['id']}/episodes", token=token)[1]["items"]
            return next(e for e in episodes if e["id"] == episode_id)["played"]

        wait(browser, 30).until(played)
        wait(browser).until(lambda d: d.execute_script("return localStorage.getItem('juke_dual_played')") == "[]")
        # The page that opened offline fills its lists from the server again.
        dual_screen(browser, "podcasts")
        wait(browser).until(lambda d: "Juke Readings" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
        assert "Offline" not in browser.find_element(By.ID, "dual-status").text
    finally:
        server.stop()


def test_a_workout_that_loses_the_network_records_on_through_a_reload_and_uploads_everything(data_dir, app_database, browser):
    """The runner's tunnel: the network goes mid-run (the server gone, DevTools offline). The
    page says once that cues are paused and records on; the page is even reloaded with no
    network, opens from the device and carries on from what it kept. When the network is back
    every sample reaches the history, none twice."""
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=False)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "runner", "password": "runner password"})
        assert status == 201, body
        token = body["token"]
        sign_in(browser, server, "runner", "runner password")
        browser.get(server.base + "/runbeat")
        wait(browser, 60).until(lambda d: "/runbeat" in shell_cached(d))
        start_simulated(browser, speed="10", plan="free")
        wait(browser).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
        # Some of the run is on the server before it dies.
        wait(browser).until(lambda d: len(samples_held(server.base, token)) >= 10)

        server.crash()
        offline(browser, True)
        wait(browser).until(lambda d: "Offline" in d.find_element(By.ID, "rb-link").text)
        unsent = lambda d: d.execute_script("return (JSON.parse(localStorage.getItem('runbeat-backlog') || 'null') || {pending: []}).pending")  # noqa: E731
        # Twenty samples recorded offline (two seconds at ten times speed): said once, not at each.
        wait(browser).until(lambda d: len(unsent(d)) >= 20)
        said = browser.execute_script("return window.__said")
        assert sum("cues are paused" in s for s in said) == 1, said

        # The page is reloaded with no network: it opens from the device and carries on.
        browser.execute_script("window.__old_page = true")
        browser.get(server.base + "/runbeat")
        assert browser.execute_script("return window.__old_page") is None, "the page was not reloaded"
        wait(browser).until(lambda d: "No network" in d.find_element(By.ID, "rb-run-note").text)
        assert browser.find_element(By.ID, "rb-run").is_displayed()
        recorded_offline = [s["t"] for s in unsent(browser)]
        wait(browser).until(lambda d: max(s["t"] for s in unsent(d)) > max(recorded_offline) + 5)

        backlog = {s["t"] for s in unsent(browser)}
        server = JukeServer(server.data_dir, database=app_database, demo=False, port=server.port)
        offline(browser, False)
        wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
        # The backlog reaches the server before the run ends.
        wait(browser, 60).until(lambda d: backlog <= set(samples_held(server.base, token)))
        end_workout(browser)
        wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
        assert browser.execute_script("return localStorage.getItem('runbeat-backlog')") is None

        _, workouts = request(server.base, "GET", "/api/v1/runbeat/workouts", None, token)
        detail = request(server.base, "GET", f"/api/v1/runbeat/workouts/{workouts['workouts'][0]['id']}", None, token)[1]
        times = [s["t"] for s in detail["heart_rate"]]
        assert len(times) == len(set(times)), "a sample stored twice"
        assert times == sorted(times)
        assert set(recorded_offline) <= set(times), "a sample recorded offline did not reach the history"
        # The recording has no gap but the reload itself (no page, no strap reading).
        gaps = [b - a for a, b in zip(times, times[1:]) if b - a > 1.01]
        assert len(gaps) <= 1, gaps
        assert detail["status"] == "ended" and detail["summary"]["samples"] == len(times)
    finally:
        server.stop()


def test_a_saved_book_and_spoken_article_play_offline_and_a_full_device_says_so(data_dir, app_database, browser):
    """An audiobook (its chapters travel with it) and an article read aloud by Juke's voice (its
    sentences and chapters with it) saved and played with no network; and a device with no
    room left says so, keeping nothing half-saved."""
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=True)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "reader", "password": "reader password"})
        assert status == 201, body
        token = body["token"]
        wait(browser, 120).until(lambda d: any(
            b["origin"] == "demo" for b in request(server.base, "GET", "/api/v1/dual/books", token=token)[1]["items"]))
        sign_in(browser, server, "reader", "reader password")
        browser.get(server.base + "/dual")
        wait(browser, 60).until(lambda d: "/dual" in shell_cached(d))

        # The demo audiobook, saved from the speech player.
        dual_screen(browser, "books")
        wait(browser).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
        click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main")
        wait(browser).until(lambda d: d.find_element(By.ID, "screen-now").is_displayed())
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
        click(browser, By.CSS_SELECTOR, deck_keep("speech"))
        wait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#device-items .dual-device-item[data-status='saved']"))
        book_key = browser.find_element(By.CSS_SELECTOR, "#device-items .dual-device-item").get_attribute("data-key")
        assert book_key.startswith("book:")

        # An article, spoken by Juke's voice, saved the same way.
        page = os.path.join(data_dir, "lighthouse.html")
        with open(page, "w") as f:
            f.write(ARTICLE)
        dual_screen(browser, "articles")
        browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-file").send_keys(page)
        wait(browser).until(lambda d: "Added “The Lighthouse Keeper”" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-note").text)
        click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-article-listen")
        wait(browser, 120).until(lambda d: speech_audio(d, "currentTime") > 0.5)
        dual_screen(browser, "now")
        wait(browser).until(lambda d: "article:" in d.find_element(By.CSS_SELECTOR, deck_keep("speech")).get_attribute("data-keep-key"))
        click(browser, By.CSS_SELECTOR, deck_keep("speech"))
        wait(browser, 60).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#device-items .dual-device-item[data-status='saved']")) == 2)
        browser.execute_script("document.querySelector('#speech-player .dual-audio').pause()")

        # On a slow network a save shows how far it has got, and Stop ends it keeping nothing.
        server.wait_for_tracks(token, 1)
        tracks = request(server.base, "GET", "/api/v1/catalog/tracks?limit=50", token=token)[1]["items"]
        song = next(t for t in tracks if t["format"] != "mp4")
        dual_screen(browser, "library")
        box = browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
        box.send_keys(song["title"] + "\n")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))[0].click()
        browser.execute_script("document.querySelector('#music-player .dual-audio').pause()")
        dual_screen(browser, "now")
        # What the player has loaded may be in the browser's HTTP cache, which no throttle slows.
        browser.execute_cdp_cmd("Network.clearBrowserCache", {})
        with ServiceWorkerThrottle(browser, server.base, 32 * 1024):
            click(browser, By.CSS_SELECTOR, deck_keep("music"))
            row = f"#device-items .dual-device-item[data-key='track:{song['id']}']"
            progress = wait(browser, 30).until(lambda d: d.execute_script(
                "const p = document.querySelector(arguments[0] + \"[data-status='saving'] progress\");"
                "return p && p.value > 0 ? {value: p.value, max: p.max, text: p.parentElement.textContent} : null", row))
            assert progress["value"] < progress["max"] and "%" in progress["text"], progress
            title, label, state = keep_words(browser, "music")
            assert title.startswith("Saving… ") and label.startswith("Saving… ") and state == "saving", "the player's button says so too"
            # The row is updated in place as the bytes come: its Stop button, found now, is
            # still the one shown once the progress has moved on.
            stop = browser.find_element(By.CSS_SELECTOR, f"{row} .dual-device-remove")
            assert stop.text == "Stop"
            wait(browser, 30).until(lambda d: d.execute_script(
                "const p = document.querySelector(arguments[0] + ' progress'); return p && p.value > arguments[1]", row, progress["value"]))
            stop.click()
            wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, row))
        assert not browser.execute_async_script(
            "caches.open('juke-device').then((c) => c.match(arguments[0])).then((r) => arguments[arguments.length - 1](Boolean(r)))",
            song["audio_url"]), "a stopped save keeps no bytes"
        assert keep_words(browser, "music") == ("Save on this device", f"Save on this device: {song['title']}", "none")

        # A device with no room left: the save says so and keeps nothing.
        usage = browser.execute_async_script("navigator.storage.estimate().then((e) => arguments[arguments.length - 1](e.usage))")
        browser.execute_cdp_cmd("Storage.overrideQuotaForOrigin", {"origin": server.base, "quotaSize": usage + 2000})
        click(browser, By.CSS_SELECTOR, deck_keep("music"))
        failed = wait(browser, 60).until(lambda d: d.find_element(By.CSS_SELECTOR, "#device-items .dual-device-item[data-status='failed']").text)
        assert "no more room" in failed, failed
        title, label, state = keep_words(browser, "music")
        assert "Try again" in title and "Try again" in label and state == "failed"
        browser.execute_cdp_cmd("Storage.overrideQuotaForOrigin", {"origin": server.base})
        browser.execute_script("document.querySelector('#music-player .dual-audio').pause()")

        # No network: both play from the device, the book by its chapters, the article with its sentences.
        reopen_dual_offline(browser, server)
        click(browser, By.CSS_SELECTOR, f"#device-items [data-key='{book_key}'] .dual-device-play")
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
        at = speech_audio(browser, "currentTime")
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > at + 1)
        article = next(r for r in browser.find_elements(By.CSS_SELECTOR, "#device-items .dual-device-item") if r.get_attribute("data-key").startswith("article:"))
        article.find_element(By.CSS_SELECTOR, ".dual-device-play").click()
        wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text == "The Lighthouse Keeper")
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li")) >= 8)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 2
        at = speech_audio(browser, "currentTime")
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > at + 1)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']"))

        # Signing out (offline too) leaves nothing of this person's on the device but the app itself.
        click(browser, By.ID, "logout")
        wait(browser).until(lambda d: d.execute_script("return location.pathname") == "/login")
        left = browser.execute_async_script("""
          const done = arguments[arguments.length - 1];
          (async () => {
            const names = await caches.keys();
            const shell = names.find((n) => n.startsWith('juke-shell-'));
            const kept = shell ? (await (await caches.open(shell)).keys()).map((r) => new URL(r.url).pathname) : [];
            done({names, kept, keys: Object.keys(localStorage)});
          })();""")
        assert "juke-device" not in left["names"], left
        assert not [k for k in left["keys"] if k.startswith("juke_dual_")], left["keys"]
        assert "/dual" not in left["kept"] and any(p.startswith("/static/") for p in left["kept"]), left["kept"]
    finally:
        server.stop()


def test_chapters_of_a_book_saved_one_by_one_play_offline_in_the_books_time(data_dir, app_database, browser):
    """The commuter with a long book keeps only the next chapters: two of the demo book's four,
    each cut by the server and saved from its row. Offline the book opens with them, says
    which chapters need the network, plays the saved ones from the device one after the
    other, removes a chapter once heard (as asked), and the position it keeps and sends when
    the network is back is the book's time, not the chapter file's."""
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=True)
    try:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "commuter", "password": "commuter password"})
        assert status == 201, body
        token = body["token"]
        book = wait(browser, 120).until(lambda d: next(
            (b for b in request(server.base, "GET", "/api/v1/dual/books", token=token)[1]["items"] if b["origin"] == "demo"), None))
        chapters = book["chapters"]
        sign_in(browser, server, "commuter", "commuter password")
        browser.get(server.base + "/dual")
        wait(browser, 60).until(lambda d: "/dual" in shell_cached(d))
        click(browser, By.ID, "device-remove-played")

        dual_screen(browser, "books")
        wait(browser).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
        click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main")
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
        # Each chapter's row in the chapters sheet has its own save button.
        dual_sheet(browser, "speech", "chapters")
        rows = browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")
        assert all(r.find_element(By.CSS_SELECTOR, ".dual-keep").text == "Save" for r in rows)
        browser.execute_script("document.querySelector('#speech-player .dual-audio').pause()")
        for index in (1, 2):
            browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")[index].find_element(By.CSS_SELECTOR, ".dual-keep").click()
        close_dual_sheet(browser, "speech", "chapters")
        keys = [f"chapter:{book['id']}/1", f"chapter:{book['id']}/2"]
        wait(browser, 60).until(lambda d: all(d.find_elements(By.CSS_SELECTOR, f"#device-items [data-key='{k}'][data-status='saved']") for k in keys))
        entries = browser.execute_script("return JSON.parse(localStorage.getItem('juke_dual_device'))")
        head = urllib.request.Request(server.base + f"/api/v1/dual/books/{book['id']}/audio", method="HEAD", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(head, timeout=10) as reply:
            whole = int(reply.headers["Content-Length"])
        sizes = [e["bytes"] for e in entries]
        assert all(0 < s < whole / 2 for s in sizes), (sizes, whole)
        assert "Audiobook chapter" in browser.find_element(By.CSS_SELECTOR, f"#device-items [data-key='{keys[0]}']").text
        browser.execute_script("document.querySelector('#speech-player .dual-audio').pause()")

        # No network: the book opens with its chapters; the two not saved say they need it.
        reopen_dual_offline(browser, server)
        click(browser, By.CSS_SELECTOR, f"#device-items [data-key='{keys[0]}'] .dual-device-play")
        wait(browser).until(lambda d: speech_audio(d, "src").endswith(f"/chapters/1/audio"))
        needs = [li.find_elements(By.CSS_SELECTOR, ".dual-needs-network") != [] for li in browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")]
        assert needs == [True, False, False, True], needs
        at = speech_audio(browser, "currentTime")
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > at + 1)
        assert wait(browser).until(lambda d: speech_audio(d, "paused") is False)

        # Near the end of chapter 2 (its own file, from 0): it plays on into chapter 3's file, and
        # the heard chapter leaves the device.
        length = chapters[1]["end"] - chapters[1]["start"]
        browser.execute_script(f"const s = document.querySelector('#speech-player .dual-seek'); s.value = '{length - 1.5}'; s.dispatchEvent(new Event('change'))")
        wait(browser, 30).until(lambda d: speech_audio(d, "src").endswith("/chapters/2/audio"))
        wait(browser).until(lambda d: speech_audio(d, "currentTime") > 1)
        wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, f"#device-items [data-key='{keys[0]}']"))
        assert browser.find_elements(By.CSS_SELECTOR, f"#device-items [data-key='{keys[1]}'][data-status='saved']")
        browser.execute_script("document.querySelector('#speech-player .dual-audio').pause()")

        # What the page keeps and queues is where chapter 3 is in the book (its file's time is
        # a second or two, the book's over a minute). The entry is first written as chapter 3
        # starts (its start, to the millisecond), then again at the pause: the pause's is awaited.
        third = chapters[2]
        queued = wait(browser).until(lambda d: [e for e in d.execute_script("return JSON.parse(localStorage.getItem('juke_dual_outbox') || '[]')")
                                                if e["item"] == f"book:{book['id']}#2" and e["seconds"] > third["start"]])
        assert third["start"] < queued[0]["seconds"] < third["end"], (queued, third)

        # The network is back: the server has the book's time.
        server = JukeServer(server.data_dir, database=app_database, demo=True, port=server.port)
        offline(browser, False)

        def kept(_):
            status, body = request(server.base, "GET", "/api/v1/dual/state", token=token)
            speech = body.get("speech") if status == 200 else None
            return speech and speech.get("item", {}).get("id") == book["id"] and third["start"] < speech["position"] < third["end"]

        wait(browser, 30).until(kept)
    finally:
        server.stop()


def test_another_account_signing_in_finds_none_of_the_last_ones_things(data_dir, app_database, browser):
    """A shared device: what one person's app pages kept (Dual Player's queue, RunBeat's unsent
    workout) is wiped when another account signs in on the platform's own sign-in page, whose
    script names no app: the keys are those the apps' cards declare (personalKeyPrefixes),
    carried by the apps' pages and the sign-in page, and remembered by the device. The
    device's own preferences stay."""
    server = JukeServer(tempfile.mkdtemp(prefix="juke-pwa-", dir=data_dir), database=app_database, demo=False)
    try:
        for name in ("first", "second"):
            status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": name, "password": name + " password"})
            assert status == 201, body
        sign_in(browser, server, "first", "first password")
        # An app's page declares its own keys.
        browser.get(server.base + "/runbeat")
        wait(browser).until(lambda d: d.execute_script("return document.readyState") == "complete")
        assert browser.execute_script("return document.body.dataset.personalKeys") == "runbeat-backlog"
        browser.get(server.base + "/")
        browser.execute_script("""
          localStorage.setItem('juke_dual_outbox', '[{"id": "x"}]');
          localStorage.setItem('juke_dual_device', '[]');
          localStorage.setItem('runbeat-backlog', '{"pending": [1]}');
          localStorage.setItem('juke.dual.readerVoice', 'Alex');
          // A device that has learnt no app's keys yet (kept from before they were declared).
          localStorage.removeItem('juke_personal_key_prefixes');""")
        # The first person's session ends without signing out (the cookie gone); the second signs in here.
        browser.delete_all_cookies()
        sign_in(browser, server, "second", "second password")
        keys = browser.execute_script("return Object.keys(localStorage)")
        assert not [k for k in keys if k.startswith("juke_dual_") or k == "runbeat-backlog"], keys
        assert "juke.dual.readerVoice" in keys, "a preference of the device itself stays"
        # The sign-in page carries every app's keys, and the device now remembers them.
        remembered = browser.execute_script("return JSON.parse(localStorage.getItem('juke_personal_key_prefixes') || '[]')")
        assert set(remembered) == {"juke_dual_", "runbeat-backlog"}, remembered
    finally:
        server.stop()
