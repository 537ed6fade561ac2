"""RunBeat's Spotify in the browser, against a local fake of Spotify's Accounts service and Web
API (their wire formats: /authorize redirecting back with the code and state, /api/token with
PKCE checked, playlists in pages, devices, play, transfer, pause): the runner connects from
RunBeat's page and lands back on it, chooses a Spotify playlist for the work intervals and
another for recovery, runs a 4x4 with the simulated strap at 60 times speed, and Spotify is
told to play each phase's playlist as the phases change (never twice in a row for the same
phase), while the page's own music stays quiet in those phases; at the end Spotify is paused.
The Run screen's Pause pauses Spotify and Resume carries on where it stopped."""
import base64
import hashlib
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import JukeServer, request
from helpers import click, sign_in, wait
from test_runbeat_browser import show, start_simulated

CLIENT_ID = "juke-browser-client"
DEVICE = {"id": "phone-1", "name": "Runner's phone"}


class FakeSpotify(BaseHTTPRequestHandler):
    codes = {}
    tokens = set()
    active = None
    plays = []
    transfers = []
    pauses = 0
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def reply(self, status, body=None, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def authorised(self):
        token = (self.headers.get("Authorization") or "")[len("Bearer "):]
        if token not in FakeSpotify.tokens:
            self.reply(401, {"error": {"status": 401, "message": "Invalid access token"}})
            return False
        return True

    def do_GET(self):
        url = urlparse(self.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/authorize":
            if q.get("client_id") != CLIENT_ID or q.get("code_challenge_method") != "S256":
                return self.reply(400, {"error": "invalid_request"})
            code = uuid.uuid4().hex
            FakeSpotify.codes[code] = (q["code_challenge"], q["redirect_uri"])
            return self.reply(302, None, [("Location", q["redirect_uri"] + "?" + urlencode({"code": code, "state": q["state"]}))])
        if not self.authorised():
            return None
        if url.path == "/v1/me/playlists":
            limit, offset = int(q.get("limit", 20)), int(q.get("offset", 0))
            total = 60
            items = [{"id": f"pl{i}", "name": f"Playlist {i}", "description": "", "public": True, "tracks": {"total": 10 + i},
                      "images": [], "owner": {"display_name": "Runner"}} for i in range(offset, min(total, offset + limit))]
            nxt = f"http://fake/v1/me/playlists?offset={offset + limit}" if offset + limit < total else None
            return self.reply(200, {"items": items, "total": total, "limit": limit, "offset": offset, "next": nxt})
        if url.path == "/v1/me/player/devices":
            return self.reply(200, {"devices": [{**DEVICE, "type": "Smartphone", "is_active": FakeSpotify.active == DEVICE["id"]}]})
        return self.reply(404, {"error": {"status": 404, "message": "Service not found"}})

    def do_POST(self):
        form = {k: v[0] for k, v in parse_qs(self.body().decode()).items()}
        if self.path != "/api/token" or form.get("client_id") != CLIENT_ID:
            return self.reply(400, {"error": "invalid_client"})
        if form.get("grant_type") == "authorization_code":
            challenge, redirect = FakeSpotify.codes.pop(form.get("code"), (None, None))
            digest = base64.urlsafe_b64encode(hashlib.sha256(form.get("code_verifier", "").encode()).digest()).rstrip(b"=").decode()
            if challenge is None or digest != challenge or redirect != form.get("redirect_uri"):
                return self.reply(400, {"error": "invalid_grant", "error_description": "Invalid authorization code"})
        elif form.get("grant_type") != "refresh_token":
            return self.reply(400, {"error": "unsupported_grant_type"})
        access = uuid.uuid4().hex
        FakeSpotify.tokens.add(access)
        return self.reply(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600, "refresh_token": uuid.uuid4().hex,
                                "scope": "playlist-read-private user-modify-playback-state"})

    def do_PUT(self):
        body = json.loads(self.body() or b"{}")
        url = urlparse(self.path)
        if not self.authorised():
            return None
        with FakeSpotify.lock:
            if url.path == "/v1/me/player":
                FakeSpotify.transfers.append(body["device_ids"][0])
                FakeSpotify.active = body["device_ids"][0]
                return self.reply(204)
            if url.path == "/v1/me/player/play":
                device = parse_qs(url.query).get("device_id", [FakeSpotify.active])[0]
                if device != DEVICE["id"]:
                    return self.reply(404, {"error": {"status": 404, "message": "No active device found", "reason": "NO_ACTIVE_DEVICE"}})
                # No body: Start/Resume Playback carries on with what was paused.
                FakeSpotify.plays.append(body.get("context_uri", "resume"))
                FakeSpotify.active = device
                return self.reply(204)
            if url.path == "/v1/me/player/pause":
                FakeSpotify.pauses += 1
                return self.reply(204)
        return self.reply(404, {"error": {"status": 404, "message": "Service not found"}})


@pytest.fixture
def spotify_server(tmp_path, app_database):
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeSpotify)
    fake.daemon_threads = True
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{fake.server_address[1]}"
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False,
                      extra_args=["--spotify-client-id", CLIENT_ID, "--spotify-accounts-url", base, "--spotify-api-url", base + "/v1"])
    try:
        yield juke
    finally:
        juke.stop()
        fake.shutdown()


def test_a_four_by_four_plays_each_phases_spotify_playlist(spotify_server, browser):
    juke = spotify_server
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "runner", "password": "runner password"})
    assert status == 201, account
    token = account["token"]
    status, _ = request(juke.base, "PUT", "/api/v1/runbeat/profile",
                        {"age": 30, "resting": 60, "formula": "fox", "warmup_seconds": 60, "cooldown_seconds": 60}, token)
    assert status == 200
    sign_in(browser, juke, "runner", "runner password")
    browser.get(juke.base + "/runbeat")
    show(browser, "workout")

    # Connect: off to Spotify (the fake approves at once) and back on RunBeat's Workout screen.
    click(browser, By.CSS_SELECTOR, ".rb-spotify-connect")
    wait(browser).until(lambda d: "Spotify is connected" in d.find_element(By.ID, "rb-note").text)
    assert urlparse(browser.current_url).path == "/runbeat" and "spotify=" not in browser.current_url
    assert browser.find_element(By.ID, "screen-workout").is_displayed()
    wait(browser).until(lambda d: "Disconnect Spotify" in d.find_element(By.CSS_SELECTOR, ".rb-spotify").text)

    # Each phase's music: warm-up and cool-down none, work and recovery a playlist each (from the second page too).
    for phase, label in [("Warm-up", "none"), ("Cool-down", "none")]:
        Select(browser.find_element(By.CSS_SELECTOR, f"select[aria-label='{phase} music']")).select_by_value(label)
        wait(browser).until(lambda d, p=phase, v=label: Select(d.find_element(By.CSS_SELECTOR, f"select[aria-label='{p} music']")).first_selected_option.get_attribute("value") == v)
    for phase, playlist in [("Work intervals", "pl55"), ("Recovery", "pl2")]:
        Select(browser.find_element(By.CSS_SELECTOR, f"select[aria-label='{phase} music']")).select_by_value("spotify")
        picker = f"select[aria-label='{phase} Spotify playlist']"
        wait(browser).until(lambda d, p=picker, v=playlist: d.find_elements(By.CSS_SELECTOR, f"{p} option[value='{v}']"))
        Select(browser.find_element(By.CSS_SELECTOR, picker)).select_by_value(playlist)
        wait(browser).until(lambda d, p=picker, v=playlist: Select(d.find_element(By.CSS_SELECTOR, p)).first_selected_option.get_attribute("value") == v
                            and len(Select(d.find_element(By.CSS_SELECTOR, p)).options) > 1)
    _, profile = request(juke.base, "GET", "/api/v1/runbeat/profile", None, token)
    assert profile["music"]["work"] == {"mode": "spotify", "track_ids": [], "spotify_playlist_id": "pl55", "spotify_playlist_name": "Playlist 55"}
    assert profile["music"]["recovery"]["spotify_playlist_id"] == "pl2"

    start_simulated(browser)
    wait(browser).until(lambda d: "Work 1 of 4" in d.find_element(By.ID, "rb-phase-name").text)
    wait(browser).until(lambda d: "Spotify plays Playlist 55" in d.find_element(By.ID, "rb-now-playing").text)
    wait(browser).until(lambda d: "Playlist" in d.find_element(By.ID, "rb-spotify").text)
    wait(browser, 90).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    wait(browser, 10).until(lambda d: FakeSpotify.pauses >= 1)

    # No device was active: playback moved to the phone once; then each phase's playlist started once.
    assert FakeSpotify.transfers == ["phone-1"], FakeSpotify.transfers
    expected = ["spotify:playlist:pl55", "spotify:playlist:pl2"] * 4
    assert FakeSpotify.plays == expected[:-1] or FakeSpotify.plays == expected, FakeSpotify.plays
    # The page's own player played nothing: every phase was Spotify's or silent.
    sources = browser.execute_script("return window.__sources")
    assert not [s for s in sources if "/tracks/" in s], sources
    _, status = request(juke.base, "GET", "/api/v1/runbeat/spotify", None, token)
    assert status["status"] == "connected" and status["configured"] is True


def test_pause_on_the_run_screen_pauses_spotify_and_resume_carries_on(spotify_server, browser):
    juke = spotify_server
    FakeSpotify.plays, FakeSpotify.transfers, FakeSpotify.pauses = [], [], 0
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "pauser", "password": "pauser password"})
    assert status == 201, account
    token = account["token"]
    status, _ = request(juke.base, "PUT", "/api/v1/runbeat/profile",
                        {"age": 30, "resting": 60, "formula": "fox", "warmup_seconds": 60, "cooldown_seconds": 60}, token)
    assert status == 200
    sign_in(browser, juke, "pauser", "pauser password")
    browser.get(juke.base + "/runbeat")
    show(browser, "workout")
    click(browser, By.CSS_SELECTOR, ".rb-spotify-connect")
    wait(browser).until(lambda d: "Spotify is connected" in d.find_element(By.ID, "rb-note").text)
    none = {"mode": "none", "track_ids": []}
    status, _ = request(juke.base, "PUT", "/api/v1/runbeat/profile/music", {
        "warmup": none, "cooldown": none,
        "work": {"mode": "spotify", "track_ids": [], "spotify_playlist_id": "pl55", "spotify_playlist_name": "Playlist 55"},
        "recovery": {"mode": "spotify", "track_ids": [], "spotify_playlist_id": "pl2", "spotify_playlist_name": "Playlist 2"}}, token)
    assert status == 200

    # 10x: the first work interval lasts 24 s, time to pause in it.
    start_simulated(browser, speed="10")
    wait(browser).until(lambda d: FakeSpotify.plays == ["spotify:playlist:pl55"])
    # Whether the start moved playback to the phone depends on what the fake's device was doing
    # before (its state is the module's): what matters is that the pause and resume move nothing.
    transfers = list(FakeSpotify.transfers)
    click(browser, By.ID, "rb-pause")
    wait(browser).until(lambda d: FakeSpotify.pauses == 1)
    assert browser.find_element(By.ID, "rb-pause").text.strip() == "Resume"
    click(browser, By.ID, "rb-pause")
    # Carried on where it stopped: no playlist started again from the top.
    wait(browser).until(lambda d: FakeSpotify.plays == ["spotify:playlist:pl55", "resume"])
    assert FakeSpotify.pauses == 1 and FakeSpotify.transfers == transfers
    click(browser, By.ID, "rb-pause")
    wait(browser).until(lambda d: FakeSpotify.pauses == 2)
