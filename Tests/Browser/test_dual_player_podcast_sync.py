"""Podcast sync (gpodder.net's API, as AntennaPod and gPodder use it) meeting Dual Player's
page on a phone (375 px, mobile emulation): a play action uploaded by an app shows as the
episode's place in Dual Player's list and is where it resumes, and the place the page saves
comes back to the apps as a play action."""
import base64
import json
import os
import subprocess
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import BROWSER_DATABASE, JukeServer, create_postgres_database, make_driver, request
from helpers import click, dual_screen, register, sign_in, wait

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")


class Host(BaseHTTPRequestHandler):
    """A show with one minute-long episode."""
    audio = b""

    def log_message(self, *args):
        pass

    def send(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if self.path == "/feed.xml":
            feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>Synced Show</title><link>{base}/</link><description>A show synced with an app.</description>
<item><title>A Minute of Tone</title><guid>tone</guid><pubDate>Mon, 01 Jun 2026 10:00:00 GMT</pubDate>
<enclosure url="{base}/tone.mp3" type="audio/mpeg" length="{len(Host.audio)}"/><itunes:duration>60</itunes:duration></item>
</channel></rss>"""
            return self.send(feed.encode(), "application/rss+xml")
        if self.path == "/tone.mp3":
            return self.send(Host.audio, "audio/mpeg")
        self.send_error(404)


@pytest.fixture(scope="module")
def synced(tmp_path_factory):
    database, drop = create_postgres_database() if BROWSER_DATABASE == "postgres" else (None, None)
    folder = tmp_path_factory.mktemp("dual-sync")
    tone = folder / "tone.mp3"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=60", "-b:a", "32k", str(tone)], check=True)
    Host.audio = tone.read_bytes()
    host = ThreadingHTTPServer(("127.0.0.1", 0), Host)
    host.daemon_threads = True
    threading.Thread(target=host.serve_forever, daemon=True).start()
    (folder / "data").mkdir()
    juke = JukeServer(str(folder / "data"), database=database, demo=False,
                      extra_args=["--web-allow-private-networks", "--podcast-search-url", "off", "--sign-ups-per-address", "1000"])
    juke.host = f"http://127.0.0.1:{host.server_address[1]}"
    try:
        yield juke
    finally:
        juke.stop()
        host.shutdown()
        if drop:
            drop()


def gpodder(juke, method, path, password, body=None):
    """A call as AntennaPod makes it: HTTP Basic with the app password, JSON."""
    req = urllib.request.Request(juke.base + path, data=json.dumps(body).encode() if body is not None else None, method=method)
    req.add_header("Authorization", "Basic " + base64.b64encode(f"syncer:{password}".encode()).decode())
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_positions_go_both_ways_between_an_app_and_the_page(synced):
    juke = synced
    account = register(juke, "syncer")
    status, made = request(juke.base, "POST", "/api/v1/auth/subsonic/app-password", token=account["token"])
    assert status == 201, made
    password = made["password"]
    feed, episode = juke.host + "/feed.xml", juke.host + "/tone.mp3"

    # The app subscribes and plays to 0:20 of the minute.
    status, body = gpodder(juke, "POST", "/api/2/subscriptions/syncer/antennapod.json", password, {"add": [feed], "remove": []})
    assert status == 200, body
    deadline = time.time() + 60
    while time.time() < deadline:
        status, shows = request(juke.base, "GET", "/api/v1/dual/podcasts", token=account["token"])
        if shows["items"] and shows["items"][0]["episodes"] == 1:
            break
        time.sleep(0.3)
    assert shows["items"][0]["title"] == "Synced Show", shows
    status, body = gpodder(juke, "POST", "/api/2/episodes/syncer.json", password, [
        {"podcast": feed, "episode": episode, "guid": "tone", "device": "antennapod", "action": "play", "started": 0, "position": 20, "total": 60,
         "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(time.time() - 60))}])
    assert status == 200, body
    since = body["timestamp"]

    # The page shows where the app stopped, on a phone.
    driver = make_driver(375, 740, mobile=True)
    try:
        sign_in(driver, juke, "syncer", "syncer password")
        driver.get(juke.base + "/dual")
        dual_screen(driver, "podcasts")
        row = "#speech-shelf .dual-episode"
        if not any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, row)):
            click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-show-episodes > summary")
        progress = wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, row + " .dual-episode-progress"))
        assert progress.get_attribute("value") == "20" and progress.get_attribute("max") == "60"
        assert "0:40 left" in driver.find_element(By.CSS_SELECTOR, row).text
        os.makedirs(SHOTS, exist_ok=True)
        driver.save_screenshot(os.path.join(SHOTS, "dual-podcast-sync-phone.png"))

        # Played in the page from there; paused a few seconds on.
        click(driver, By.CSS_SELECTOR, row + " .dual-episode-play")
        wait(driver).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") >= 22)
        start = driver.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
        assert start < 40, f"it resumed at the app's place, not the start: {start}"
        driver.execute_script("document.querySelector('#speech-player .dual-play').click()")
        wait(driver).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').paused"))
        paused = driver.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
    finally:
        driver.quit()

    # The app's next download has the page's place as a play action.
    deadline = time.time() + 20
    plays = []
    while time.time() < deadline:
        status, body = gpodder(juke, "GET", f"/api/2/episodes/syncer.json?since={since}", password)
        assert status == 200, body
        plays = [a for a in body["actions"] if a["action"] == "play" and a["position"] >= 22]
        if plays:
            break
        time.sleep(0.5)
    assert plays, body
    play = plays[-1]
    assert play["episode"] == episode and play["podcast"] == feed and play["guid"] == "tone" and play["total"] == 60
    assert abs(play["position"] - paused) <= 1.5 and "device" not in play, play
