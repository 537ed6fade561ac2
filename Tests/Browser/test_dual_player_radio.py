"""Dual Player's internet radio in a browser, against a local fake of Radio Browser and a
station's stream: search, play (the listen is counted), a favourite kept across a reload, and
Boost explaining why it cannot apply to another site's stream."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import click, sign_in, wait

STREAM = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "chapters", "chapters.mp3")
STATION = "96062a7b-0601-11e8-ae97-52543be04c81"


class FakeRadioBrowser(BaseHTTPRequestHandler):
    clicks = []
    agents = []

    def log_message(self, *args):
        pass

    def send_json(self, value):
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        port = self.server.server_address[1]
        stream = f"http://127.0.0.1:{port}/stream.mp3"
        if self.path.startswith("/json/servers"):
            return self.send_json([{"name": f"127.0.0.1:{port}/mirror", "ip": "127.0.0.1"}])
        if self.path.startswith("/mirror/json/stations/search"):
            FakeRadioBrowser.agents.append(self.headers.get("User-Agent", ""))
            return self.send_json([{
                "stationuuid": STATION, "name": "Jazz Test FM", "url": stream, "url_resolved": stream, "tags": "jazz,swing",
                "country": "France", "countrycode": "FR", "language": "french", "codec": "MP3", "bitrate": 32, "hls": 0,
                "lastcheckok": 1, "votes": 3, "clickcount": 7, "favicon": "",
            }])
        if self.path.startswith("/mirror/json/url/"):
            FakeRadioBrowser.clicks.append(self.path.rsplit("/", 1)[-1])
            return self.send_json({"ok": True, "message": "retrieved station url", "stationuuid": STATION, "url": stream})
        if self.path.startswith("/stream.mp3"):
            data = open(STREAM, "rb").read()
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(404)
        self.end_headers()


@pytest.fixture
def radio_server(tmp_path, app_database):
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeRadioBrowser)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False,
                      extra_args=["--radio-browser-url", f"http://127.0.0.1:{fake.server_address[1]}/json/servers"])
    try:
        yield juke
    finally:
        juke.stop()
        fake.shutdown()


def test_a_station_is_found_played_kept_and_comes_back(radio_server, browser):
    juke = radio_server
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "radiofan", "password": "radiofan password"})
    assert status == 201, account
    sign_in(browser, juke, "radiofan", "radiofan password")
    browser.get(juke.base + "/dual")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-player .dual-radio-favorites li"))
    click(browser, By.CSS_SELECTOR, "#music-player .dual-radio summary")
    browser.find_element(By.CSS_SELECTOR, "#music-player .dual-radio-search input[name=tag]").send_keys("jazz")
    click(browser, By.CSS_SELECTOR, "#music-player .dual-radio-search button[type=submit]")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-player .dual-radio-results").text)
    assert FakeRadioBrowser.agents and FakeRadioBrowser.agents[-1].startswith("Juke/")

    click(browser, By.CSS_SELECTOR, "#music-player .dual-radio-results .dual-station > button:first-child")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.3)
    assert STATION in FakeRadioBrowser.clicks, "the listen is counted with Radio Browser"
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "music:playing")
    assert browser.execute_script("return navigator.mediaSession.metadata.title") == "Jazz Test FM"

    # Boost cannot reach another site's audio: the page says so, and the station plays on.
    click(browser, By.CSS_SELECTOR, "#music-player input[value=boost]")
    wait(browser).until(lambda d: "cannot apply" in d.find_element(By.CSS_SELECTOR, "#music-player .dual-mode-note").text)
    assert browser.execute_script("return document.querySelector('#music-player').dataset.path") == "plain"
    before = browser.execute_script("return document.querySelector('#music-player .dual-audio').currentTime")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > before + 0.2)

    click(browser, By.CSS_SELECTOR, "#music-player .dual-radio-results .dual-favorite")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-player .dual-radio-favorites").text)
    click(browser, By.CSS_SELECTOR, "#music-player .dual-play")
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "music:paused")

    browser.refresh()
    click(browser, By.CSS_SELECTOR, "#music-player .dual-radio summary")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-player .dual-radio-favorites").text)
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-player .dual-item-title").text == "Jazz Test FM")
    assert browser.execute_script("return document.querySelector('#music-player').dataset.state") == "paused"
