"""RunBeat's data as a runner and a coach see it: the summary's time-in-zone bars drawn (not
refused by the page's Content-Security-Policy) with rows for every second of the workout, a
damaged FIT file's impossible heart rates left out and said, the same file imported twice
kept once, a deleted workout restorable with Undo (also after a reload), GPX export, a coach's
card of a runner whose page closed marked stale, and Spotify's connect saying first that it
needs the network (the device offline, or Spotify out of the server's reach). Each test works through the pages' own elements (ids and classes that
runbeat-summary.js, runbeat-history.js, runbeat-coach.js and runbeat-spotify.js draw)."""
import json
import os
import subprocess
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import JUKE, JukeServer, request
from helpers import click, register, sign_in, wait
from test_design_system import axe_violations


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of its own without the demo library (none of these tests plays music, and
    writing it costs minutes on a busy machine)."""
    s = JukeServer(str(tmp_path_factory.mktemp("runbeat-data")), demo=False)
    register(s, "owner")  # the first account is the admin; the tests' runners are not
    yield s
    s.stop()


def post_file(server, path, data, token):
    req = urllib.request.Request(server.base + path, data=data, method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def get_bytes(server, path, token):
    req = urllib.request.Request(server.base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.headers, r.read()


def tcx(samples):
    """A TCX of (seconds, bpm) from 2024-05-01 06:00:00Z."""
    def at(t):
        return f"2024-05-01T{6 + t // 3600:02d}:{t // 60 % 60:02d}:{t % 60:02d}Z"
    points = "".join(f"<Trackpoint><Time>{at(t)}</Time><HeartRateBpm><Value>{bpm}</Value></HeartRateBpm></Trackpoint>" for t, bpm in samples)
    return ('<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">'
            f'<Activities><Activity Sport="Running"><Id>{at(0)}</Id><Track>{points}</Track></Activity></Activities></TrainingCenterDatabase>').encode()


def csp_errors(driver):
    """The console's Content-Security-Policy refusals since the last read."""
    return [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"] or "Content-Security-Policy" in e["message"]]


def runner_with_zones(server, name):
    account = register(server, name)
    # Age 40, resting 60: zones from 120, 132, 144, 156, 168 to 180.
    status, body = request(server.base, "PUT", "/api/v1/runbeat/profile", {"age": 40, "resting": 60, "formula": "fox"}, account["token"])
    assert status == 200, body
    return account["token"]


# 38 minutes: 10 below zone 1, 26 in zone 3, a minute with no heart rate, 30 s over the
# maximum, 30 s in zone 4: the 38:00 workout whose zones made 28:00.
THIRTY_EIGHT = ([(t, 100) for t in range(0, 600)] + [(t, 150) for t in range(600, 2160)]
                + [(t, 185) for t in range(2220, 2250)] + [(t, 160) for t in range(2250, 2281)])


def test_the_summary_draws_its_bars_and_lists_every_second(server, browser):
    token = runner_with_zones(server, "zoned")
    status, workout = post_file(server, "/api/v1/runbeat/workouts/files?filename=long%20run.tcx", tcx(THIRTY_EIGHT), token)
    assert status == 201, workout
    sign_in(browser, server, "zoned", "zoned password")
    csp_errors(browser)
    browser.get(server.base + f"/runbeat/workouts/{workout['id']}")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".rb-zone-time tr")) >= 6)
    rows = browser.execute_script("""
        return [...document.querySelectorAll('.rb-zone-time tr')].map((tr) => ({
          label: tr.querySelector('th').innerText, seconds: Number(tr.querySelector('.rb-zone-seconds').dataset.seconds),
          text: tr.querySelector('.rb-zone-seconds').innerText,
          bar: tr.querySelector('.rb-bar').getBoundingClientRect().width, cell: tr.querySelector('.rb-bar').parentElement.getBoundingClientRect().width }));""")
    labels = [r["label"] for r in rows]
    assert labels == ["Below zone 1", "Zone 1", "Zone 2", "Zone 3", "Zone 4", "Zone 5", "Above zone 5", "No heart rate"], labels
    by = {r["label"]: r for r in rows}
    # Every second in one row: they add up to the 38:00 the page shows as the workout's time.
    assert sum(r["seconds"] for r in rows) == 2280
    assert by["Below zone 1"]["text"] == "10:00" and by["No heart rate"]["text"] == "0:56"
    assert "Time\n38:00" in browser.find_element(By.CSS_SELECTOR, ".rb-facts").text
    # The bars are drawn to scale (they were 1 px: their inline style was refused).
    for r in rows:
        assert abs(r["bar"] - r["cell"] * r["seconds"] / 2280) <= 2, r
    assert by["Zone 3"]["bar"] > 100
    assert csp_errors(browser) == []
    assert axe_violations(browser) == []
    os.makedirs(".build/screenshots", exist_ok=True)
    browser.save_screenshot(".build/screenshots/runbeat-summary-zones.png")
    # No RunBeat page has its styles or scripts refused.
    for path in ["/runbeat", "/runbeat/history", "/runbeat/coach", f"/runbeat/workouts/{workout['id']}"]:
        browser.get(server.base + path)
        wait(browser).until(lambda d: d.execute_script("return document.readyState") == "complete")
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "main"))
        assert csp_errors(browser) == [], path


def flipped_fit(tmp_path):
    """A run written as FIT by Juke's own command, its checksum then broken (as flipped bytes
    break it), with three samples reading 249 bpm and one 12."""
    samples = [(t, 249 if t in (100, 101, 102) else 12 if t == 300 else 130 + t // 20) for t in range(600)]
    source = tmp_path / "run.tcx"
    source.write_bytes(tcx(samples))
    fit = tmp_path / "flipped run.fit"
    subprocess.run([JUKE, "workout", "--to", "fit", "--output", str(fit), str(source)], check=True, capture_output=True)
    data = bytearray(fit.read_bytes())
    data[-1] ^= 0xFF
    fit.write_bytes(bytes(data))
    return fit


def test_a_damaged_file_is_read_without_impossible_heart_rates_and_kept_once(server, browser, tmp_path):
    register(server, "importer")
    fit = flipped_fit(tmp_path)
    sign_in(browser, server, "importer", "importer password")
    browser.get(server.base + "/runbeat/history")
    wait(browser).until(lambda d: "No workouts yet" in d.find_element(By.ID, "rb-workouts").text)
    browser.find_element(By.ID, "rb-import-file").send_keys(str(fit))
    wait(browser).until(lambda d: "heart-rate samples" in d.find_element(By.ID, "rb-import-note").text)
    note = browser.find_element(By.ID, "rb-import-note").text
    assert "596 heart-rate samples" in note and "4 samples outside 30–240 bpm left out" in note, note
    assert "checksum" in note
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rb-workouts li[data-workout]")) == 1)
    # The same file again: the workout it made, said so, and not a second one.
    browser.find_element(By.ID, "rb-import-file").send_keys(str(fit))
    wait(browser).until(lambda d: "Already in your workouts" in d.find_element(By.ID, "rb-import-note").text)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rb-workouts li[data-workout]")) == 1
    click(browser, By.CSS_SELECTOR, "#rb-import-note a")
    wait(browser).until(lambda d: "Peak heart rate" in d.find_element(By.CSS_SELECTOR, ".rb-summary-body").text)
    body = browser.find_element(By.CSS_SELECTOR, ".rb-summary-body").text
    assert "Peak heart rate\n159 bpm" in body, body
    assert "4 samples outside 30–240 bpm left out" in browser.find_element(By.CSS_SELECTOR, ".rb-dropped").text


def test_a_deleted_workout_comes_back_with_undo_even_after_a_reload(server, browser):
    account = register(server, "deleter")
    token = account["token"]
    status, workout = post_file(server, "/api/v1/runbeat/workouts/files?filename=tempo.tcx", tcx([(t, 140) for t in range(300)]), token)
    assert status == 201, workout
    sign_in(browser, server, "deleter", "deleter password")
    browser.get(server.base + f"/runbeat/workouts/{workout['id']}")
    wait(browser).until(lambda d: "Time in each zone" in d.find_element(By.CSS_SELECTOR, ".rb-summary-body").text)
    # No positions, so no GPX (a route): said beside FIT and TCX, and refused by the server too.
    assert not browser.find_elements(By.CSS_SELECTOR, ".rb-export-gpx")
    assert "no positions" in browser.find_element(By.CSS_SELECTOR, ".rb-no-gpx").text
    try:
        get_bytes(server, f"/runbeat/workouts/{workout['id']}/export.gpx", token)
        raise AssertionError("a GPX without positions was written")
    except urllib.error.HTTPError as refused:
        assert refused.code == 409 and json.loads(refused.read())["error"] == "no_positions"

    click(browser, By.ID, "rb-delete")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".rb-deleted"))
    assert "Deleted tempo." in browser.find_element(By.CSS_SELECTOR, ".rb-deleted").text
    wait(browser).until(lambda d: "No workouts yet" in d.find_element(By.ID, "rb-workouts").text)
    assert axe_violations(browser) == []
    # Reloaded within the window: still deleted, still undoable.
    browser.refresh()
    wait(browser).until(lambda d: "No workouts yet" in d.find_element(By.ID, "rb-workouts").text)
    assert request(server.base, "GET", f"/api/v1/runbeat/workouts/{workout['id']}", None, token)[0] == 404
    click(browser, By.CSS_SELECTOR, ".rb-deleted .rb-undo")
    wait(browser).until(lambda d: "is back in your workouts" in d.find_element(By.CSS_SELECTOR, ".rb-deleted").text)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rb-workouts li[data-workout]")) == 1)
    assert request(server.base, "GET", f"/api/v1/runbeat/workouts/{workout['id']}", None, token)[0] == 200
    # Once undone, a reload does not offer Undo again.
    browser.refresh()
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rb-workouts li[data-workout]")) == 1)
    assert browser.find_elements(By.CSS_SELECTOR, ".rb-deleted") == []


def test_a_coach_sees_a_runner_whose_page_closed_as_stale(server, browser, phone):
    coach = register(server, "stalecoach")
    runner = runner_with_zones(server, "staler")
    status, opened = request(server.base, "POST", "/api/v1/runbeat/classes", {"name": "Track night"}, coach["token"])
    assert status == 201, opened
    status, workout = request(server.base, "POST", "/api/v1/runbeat/workouts", {"plan_id": "free", "class_code": opened["code"]}, runner)
    assert status == 201, workout
    # The runner's page: its live connection sends a heart rate of 150 for a while.
    sign_in(phone, server, "staler", "staler password")
    phone.get(server.base + "/runbeat/history")
    phone.execute_script("""
        const ws = new WebSocket(`ws://${location.host}/api/v1/runbeat/workouts/${arguments[0]}/live`);
        window.__ws = ws;
        ws.onopen = () => ws.send(JSON.stringify({ type: "samples", t: 20, samples: Array.from({ length: 20 }, (_, i) => ({ seq: i, t: i + 1, bpm: 150 })) }));
    """, workout["id"])
    sign_in(browser, server, "stalecoach", "stalecoach password")
    browser.get(server.base + f"/runbeat/coach?code={opened['code']}")
    wait(browser).until(lambda d: "150 bpm" in d.find_element(By.ID, "rb-runners").text)
    card = lambda: browser.find_element(By.CSS_SELECTOR, f".rb-runner[data-workout='{workout['id']}']")
    assert "stale" not in card().get_attribute("class")
    assert "Zone 3" in card().text
    # The page closes: nothing more comes. The card says since when and is dimmed.
    phone.quit()
    wait(browser, 60).until(lambda d: "stale" in card().get_attribute("class"))
    text = card().text
    assert "Not heard from: last seen" in text and "s ago" in text, text
    assert "150 bpm" in text  # the last heart rate heard, shown as old
    seconds = int(text.split("last seen ")[1].split(" s ago")[0])
    assert seconds >= 15
    wait(browser, 10).until(lambda d: int(card().text.split("last seen ")[1].split(" s ago")[0]) > seconds)
    assert browser.execute_script("return getComputedStyle(arguments[0]).opacity", card()) != "1"
    assert axe_violations(browser) == []
    request(server.base, "POST", f"/api/v1/runbeat/workouts/{workout['id']}/end", {"elapsed": 30}, runner)


class FakeAccounts(BaseHTTPRequestHandler):
    """Spotify's accounts service as far as reaching it goes: any answer at all."""

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_HEAD


@pytest.fixture
def spotify(tmp_path):
    """A server with a Spotify app whose accounts service is a local stand-in the test can
    take down (as the internet goes)."""
    accounts = ThreadingHTTPServer(("127.0.0.1", 0), FakeAccounts)
    threading.Thread(target=accounts.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{accounts.server_address[1]}"
    s = JukeServer(str(tmp_path), demo=False,
                   extra_args=["--spotify-client-id", "juke-offline-test", "--spotify-accounts-url", base, "--spotify-api-url", base + "/v1"])
    yield s, accounts
    s.stop()
    accounts.server_close()


def test_connect_spotify_says_it_needs_the_network_and_shows_connecting(spotify, browser):
    server, accounts = spotify
    account = register(server, "offliner")
    sign_in(browser, server, "offliner", "offliner password")
    browser.get(server.base + "/runbeat")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".rb-spotify-connect"))
    assert not browser.find_elements(By.CSS_SELECTOR, ".rb-spotify-offline")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        wait(browser).until(lambda d: d.execute_script("return navigator.onLine") is False)
        # This device offline: the panel says so before anything is tried, and Connect stays on the page.
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".rb-spotify-offline"))
        # (textContent: the panel may sit on a screen of the page not shown now)
        assert "needs the network" in browser.find_element(By.CSS_SELECTOR, ".rb-spotify-offline").get_attribute("textContent")
        here = browser.current_url
        browser.execute_script("document.querySelector('.rb-spotify-connect').click()")
        wait(browser).until(lambda d: "needs the network" in d.execute_script(
            "const e = document.querySelector('.rb-spotify .action-error'); return e ? e.textContent : ''"))
        assert browser.current_url == here
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    # No sign-in was started on the server.
    assert request(server.base, "GET", "/api/v1/runbeat/spotify", None, account["token"])[1]["status"] == "disconnected"
    # Back online: the note goes.
    wait(browser).until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".rb-spotify-offline"))
    # A sign-in under way (the runner came back without finishing it): "connecting", and a way to try again.
    status, started = request(server.base, "POST", "/api/v1/runbeat/spotify/connect", None, account["token"])
    assert status == 200, started
    browser.refresh()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".rb-spotify-pending"))
    assert "Connecting to Spotify" in browser.find_element(By.CSS_SELECTOR, ".rb-spotify-pending").get_attribute("textContent")
    assert browser.find_element(By.CSS_SELECTOR, ".rb-spotify-connect").get_attribute("textContent") == "Connect again"
    # The device online but the internet gone (Spotify out of the server's reach, as it
    # would be out of the browser's on the same network): said, and the page stays.
    accounts.shutdown()
    accounts.server_close()
    here = browser.current_url
    browser.execute_script("document.querySelector('.rb-spotify-connect').click()")
    wait(browser, 30).until(lambda d: "cannot be reached" in d.execute_script(
        "const e = document.querySelector('.rb-spotify .action-error'); return e ? e.textContent : ''"))
    assert "needs the internet" in browser.execute_script("return document.querySelector('.rb-spotify .action-error').textContent")
    assert browser.current_url == here
    status, refused = request(server.base, "POST", "/api/v1/runbeat/spotify/connect", None, account["token"])
    assert status == 502 and refused["error"] == "spotify_unreachable", refused
