"""Dual Player's internet radio in a browser, against a local fake of Radio Browser and a
live station (paced MP3 with ICY titles): search, play through Juke's relay (the listen is
counted), the station's "now playing" title on the page and the lock screen, Boost on the
relayed stream, and a favourite kept across a reload."""
import json
import os
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import click, close_dual_sheet, dual_screen, dual_sheet, sign_in, wait

STATION = "96062a7b-0601-11e8-ae97-52543be04c81"
# A station whose address leads to a web page, not a stream.
BROKEN = "11111111-2222-3333-4444-555555555555"
METAINT = 8192


def tone_mp3(path):
    """Ten seconds of a 440 Hz tone as bare MPEG frames (no ID3, no Xing), to loop as a live stream."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-b:a", "128k",
                    "-id3v2_version", "0", "-write_xing", "0", "-f", "mp3", path], check=True)
    with open(path, "rb") as f:
        return f.read()


class FakeRadioBrowser(BaseHTTPRequestHandler):
    clicks = []
    agents = []
    stream_agents = []
    audio = b""
    # The directory's mirrors failing (the server offline, say): every search answers 503.
    down = False

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
            if FakeRadioBrowser.down:
                self.send_response(503)
                self.end_headers()
                return
            if "name=Broken" in self.path:
                page = f"http://127.0.0.1:{port}/page.html"
                return self.send_json([{
                    "stationuuid": BROKEN, "name": "Broken Page FM", "url": page, "url_resolved": page, "tags": "talk",
                    "country": "France", "countrycode": "FR", "codec": "MP3", "bitrate": 64, "hls": 0, "lastcheckok": 1,
                }])
            return self.send_json([{
                "stationuuid": STATION, "name": "Jazz Test FM", "url": stream, "url_resolved": stream, "tags": "jazz,swing",
                "country": "France", "countrycode": "FR", "language": "french", "codec": "MP3", "bitrate": 32, "hls": 0,
                "lastcheckok": 1, "votes": 3, "clickcount": 7, "favicon": "",
            }])
        if self.path.startswith("/mirror/json/url/"):
            FakeRadioBrowser.clicks.append(self.path.rsplit("/", 1)[-1])
            if self.path.endswith(BROKEN):
                page = f"http://127.0.0.1:{port}/page.html"
                return self.send_json({"ok": True, "message": "retrieved station url", "stationuuid": BROKEN, "url": page})
            return self.send_json({"ok": True, "message": "retrieved station url", "stationuuid": STATION, "url": stream})
        if self.path.startswith("/page.html"):
            body = b"<!doctype html><title>Our radio</title><p>Listen on our app!</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/stream.mp3"):
            # A live station: 16 KB/s, looped, with an ICY title when the player asks for one.
            FakeRadioBrowser.stream_agents.append(self.headers.get("User-Agent", ""))
            icy = self.headers.get("Icy-MetaData") == "1"
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("icy-name", "Jazz Test FM")
            if icy:
                self.send_header("icy-metaint", str(METAINT))
            self.end_headers()
            data, sent = FakeRadioBrowser.audio, 0
            block = b"StreamTitle='Test Artist - Test Song';"
            block += b"\0" * (-len(block) % 16)
            try:
                while True:
                    piece = bytes(data[(sent + i) % len(data)] for i in range(4096))
                    out = b""
                    for i in range(0, len(piece), 1024):
                        out += piece[i:i + 1024]
                        sent += 1024
                        if icy and sent % METAINT == 0:
                            out += bytes([len(block) // 16]) + block
                    self.wfile.write(out)
                    self.wfile.flush()
                    time.sleep(0.25)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.send_response(404)
        self.end_headers()


@pytest.fixture
def radio_server(tmp_path, app_database):
    FakeRadioBrowser.audio = tone_mp3(str(tmp_path / "tone.mp3"))
    FakeRadioBrowser.down = False
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeRadioBrowser)
    fake.daemon_threads = True
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False,
                      extra_args=["--radio-browser-url", f"http://127.0.0.1:{fake.server_address[1]}/json/servers",
                                  # The fake station is on loopback, which the relay refuses by default.
                                  "--radio-allow-private-streams"])
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
    dual_screen(browser, "radio")
    # Radio opens on the most listened stations (a search with no filter), as the seed's does.
    wait(browser).until(lambda d: "most listened" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-note").text)
    assert "Jazz Test FM" in browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-results").text
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-radio-favorites li"))
    browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-search input[name=tag]").send_keys("jazz")
    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-radio-search button[type=submit]")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-results").text)
    assert FakeRadioBrowser.agents and FakeRadioBrowser.agents[-1].startswith("Juke/")

    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-radio-results .dual-station .list-row-main")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.3)
    assert STATION in FakeRadioBrowser.clicks, "the listen is counted with Radio Browser"
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "music:playing")
    assert FakeRadioBrowser.stream_agents and FakeRadioBrowser.stream_agents[-1].startswith("Juke/"), "Juke's relay fetched the stream"
    src = browser.execute_script("return document.querySelector('#music-player .dual-audio').src")
    assert src.startswith(juke.base + "/api/v1/dual/radio/stations/"), "the page plays Juke's own address"

    # The station's ICY title: on the page, and on the lock screen with the station as artist.
    wait(browser).until(lambda d: "Test Artist - Test Song" in d.find_element(By.CSS_SELECTOR, "#music-player .dual-item-sub").text)
    wait(browser).until(lambda d: d.execute_script("return navigator.mediaSession.metadata.title") == "Test Artist - Test Song")
    assert browser.execute_script("return navigator.mediaSession.metadata.artist") == "Jazz Test FM"

    # The stream comes from Juke's origin, so Boost's Web Audio takes it, and it plays on.
    click(browser, By.CSS_SELECTOR, "#music-player .dual-mode label:has(input[value=boost])")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player').dataset.path") == "webAudio")
    dual_sheet(browser, "music", "sound")
    assert "Boost:" in browser.find_element(By.CSS_SELECTOR, "#music-player .dual-mode-note").text
    close_dual_sheet(browser, "music", "sound")
    before = browser.execute_script("return document.querySelector('#music-player .dual-audio').currentTime")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > before + 0.5)

    dual_screen(browser, "radio")
    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-radio-results .dual-favorite")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-favorites").text)
    click(browser, By.CSS_SELECTOR, "#music-player .dual-play")
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "music:paused")

    browser.refresh()
    dual_screen(browser, "radio")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-radio-favorites").text)
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-player .dual-item-title").text == "Jazz Test FM")
    assert browser.execute_script("return document.querySelector('#music-player').dataset.state") == "paused"


def sign_in_to_radio(browser, juke, name):
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": name, "password": name + " password"})
    assert status == 201, account
    sign_in(browser, juke, name, name + " password")
    browser.get(juke.base + "/dual#radio")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".dual-radio-favorites li"))
    browser.execute_script("const r = document.querySelector('.dual-radio'); if (r && r.tagName === 'DETAILS') r.open = true")
    return account


def search_radio(browser, field, value):
    box = browser.find_element(By.CSS_SELECTOR, f".dual-radio-search input[name={field}]")
    box.clear()
    box.send_keys(value)
    click(browser, By.CSS_SELECTOR, ".dual-radio-search button[type=submit]")


def test_a_live_station_plays_at_1x_whatever_the_music_speed(radio_server, browser):
    """A live stream has no more audio than the station has sent: at 1.25x it would drain its
    buffer and stall. It plays at 1x, and the speed control says why."""
    juke = radio_server
    account = sign_in_to_radio(browser, juke, "livefan")
    browser.execute_script("const s = document.querySelector('#music-player .dual-speed'); s.value = '1.25'; s.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').playbackRate") == 1.25)
    search_radio(browser, "tag", "jazz")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, ".dual-radio-results").text)
    click(browser, By.CSS_SELECTOR, ".dual-radio-results .dual-station > button:first-child")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.5)
    assert browser.execute_script("return document.querySelector('#music-player .dual-audio').playbackRate") == 1
    speed = browser.find_element(By.CSS_SELECTOR, "#music-player .dual-speed")
    shown = browser.execute_script("const s = arguments[0]; return s.options[s.selectedIndex].text", speed)
    assert "Live" in shown and "1×" in shown and not speed.is_enabled(), shown
    # The music speed chosen is still the account's, for what plays next.
    status, state = request(juke.base, "GET", "/api/v1/dual/state", token=account["token"])
    assert status == 200 and state["settings"]["music"]["speed"] == 1.25, state


def test_a_station_that_sends_no_audio_says_so(radio_server, browser):
    juke = radio_server
    sign_in_to_radio(browser, juke, "brokenfan")
    search_radio(browser, "name", "Broken")
    wait(browser).until(lambda d: "Broken Page FM" in d.find_element(By.CSS_SELECTOR, ".dual-radio-results").text)
    click(browser, By.CSS_SELECTOR, ".dual-radio-results .dual-station > button:first-child")
    wait(browser).until(lambda d: "does not send audio" in d.find_element(By.ID, "dual-status").text)
    said = browser.find_element(By.ID, "dual-status").text
    assert "press its play button" not in said and "text/html" not in said, said


def test_an_unreachable_directory_says_so_plainly_with_a_retry(radio_server, browser):
    juke = radio_server
    sign_in_to_radio(browser, juke, "offlinefan")
    FakeRadioBrowser.down = True
    search_radio(browser, "tag", "jazz")
    wait(browser).until(lambda d: "cannot be reached" in d.find_element(By.CSS_SELECTOR, ".dual-radio-note").text)
    note = browser.find_element(By.CSS_SELECTOR, ".dual-radio-note").text
    assert "HTTP" not in note and "127.0.0.1" not in note, note
    # Back online: Retry repeats the search.
    FakeRadioBrowser.down = False
    click(browser, By.CSS_SELECTOR, ".dual-radio-retry")
    wait(browser).until(lambda d: "Jazz Test FM" in d.find_element(By.CSS_SELECTOR, ".dual-radio-results").text)
    assert not browser.find_elements(By.CSS_SELECTOR, ".dual-radio-retry")


def test_a_radio_listener_does_not_hold_the_server_on_sigterm(radio_server):
    """A station never ends by itself: when `juke serve` is told to stop, the relayed stream
    ends and the server exits within seconds, as it does with live pages and games open."""
    from test_server_shutdown import GUARD_SECONDS, closed_by_server, stop
    import socket

    juke = radio_server
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "nightowl", "password": "nightowl password"})
    assert status == 201, account
    host, port = juke.base.replace("http://", "").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall((f"GET /api/v1/dual/radio/stations/{STATION}/listen HTTP/1.1\r\nHost: {host}:{port}\r\n"
                  f"Authorization: Bearer {account['token']}\r\n\r\n").encode())
    received = b""
    while b"\r\n\r\n" not in received or len(received) < 8192:
        chunk = sock.recv(65536)
        assert chunk, f"the stream ended: {received[:300]!r}"
        received += chunk
    assert received.startswith(b"HTTP/1.1 200"), received[:300]
    code, elapsed = stop(juke)
    assert code == 0
    assert elapsed < GUARD_SECONDS
    assert closed_by_server(sock)
