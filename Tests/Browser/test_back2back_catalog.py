"""Back2Back's search of an outside catalog in headless Chromium, against a local fake of the
iTunes Search API: a result the library holds is marked and picked (it plays from the library);
one it lacks is shown but cannot be picked; a catalog failure is said where the results go."""
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

from conftest import DEMO_TRACKS, JukeServer, request
from helpers import click, sign_in, text, texts, wait


def song(track_id, title, artist, seconds):
    return {
        "wrapperType": "track", "kind": "song", "trackId": track_id, "trackName": title, "artistName": artist,
        "collectionName": "Ragtime Favourites", "trackTimeMillis": seconds * 1000, "releaseDate": "1902-01-01T08:00:00Z",
        "primaryGenreName": "Ragtime", "trackViewUrl": f"https://music.apple.com/us/album/x?i={track_id}",
    }


class FakeITunes(BaseHTTPRequestHandler):
    """GET /search as iTunes Search answers it (text/javascript JSON; 403 when rate limiting)."""

    def do_GET(self):
        url = urlparse(self.path)
        term = parse_qs(url.query).get("term", [""])[0]
        if url.path != "/search":
            self.send_response(404)
            self.end_headers()
            return
        if term == "too often":
            body, status = {"errorMessage": "rate limited"}, 403
        else:
            body, status = {"resultCount": 2, "results": [
                song(1, "The Entertainer (2019 Remaster)", "Scott Joplin", 212), song(2, "Solace", "Scott Joplin", 300)]}, 200
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/javascript; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        if status == 403:
            self.send_header("Retry-After", "5")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def test_a_catalog_search_picks_the_library_track(server, admin, browser, tmp_path, app_database):
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeITunes)
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    # A server of its own with the catalog configured, reading the demo files the session's
    # server already wrote (no second synthesis).
    demo = os.path.join(server.data_dir, "demo-library")
    juke = JukeServer(
        str(tmp_path), database=app_database, demo=False, extra_args=["--itunes-search-url", f"http://127.0.0.1:{fake.server_address[1]}"]
    )
    try:
        status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "digger", "password": "digger password"})
        assert status == 201, account
        token = account["token"]
        assert request(juke.base, "POST", "/api/v1/library/folders", {"path": demo}, token=token)[0] in (200, 201, 202)
        juke.wait_for_tracks(token, DEMO_TRACKS)
        status, session = request(juke.base, "POST", "/api/v1/back2back/sessions", {"title": "Crate digging"}, token=token)
        assert status == 201, session

        sign_in(browser, juke, "digger", "digger password")
        browser.get(f"{juke.base}/back2back/{session['id']}")
        box = wait(browser).until(lambda d: d.find_element(By.ID, "song-search"))
        wait(browser).until(lambda d: box.is_enabled())
        click(browser, By.ID, "source-catalog")
        assert browser.find_element(By.ID, "source-catalog").get_attribute("aria-selected") == "true"

        # A catalog that refuses is reported where the results go; the library search still works.
        box.send_keys("too often")
        wait(browser).until(lambda d: "limiting" in text(d, "#results"))
        click(browser, By.ID, "source-library")
        box.clear()
        box.send_keys("canon")
        wait(browser).until(lambda d: any("Canon in D" in row for row in texts(d, "#results .track")))

        click(browser, By.ID, "source-catalog")
        box.clear()
        box.send_keys("entertainer")
        wait(browser).until(lambda d: len(texts(d, "#results .catalog-result")) == 2)
        rows = texts(browser, "#results .catalog-result")
        assert "The Entertainer (2019 Remaster)" in rows[0] and "In your library" in rows[0], rows
        assert "Solace" in rows[1] and "Not in your library" in rows[1], rows
        # Only the song the library holds has a Pick button; picking it plays the library's file.
        assert len(browser.find_elements(By.CSS_SELECTOR, "#results .catalog-result button")) == 1
        click(browser, By.CSS_SELECTOR, "#results .catalog-result button")
        wait(browser).until(lambda d: text(d, "#np-title") == "The Entertainer")
    finally:
        juke.stop()
        fake.shutdown()
