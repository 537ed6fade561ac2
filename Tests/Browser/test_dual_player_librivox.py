"""Dual Player's LibriVox in a browser, against a local fake of LibriVox's API and of the
Internet Archive's files (MP3 sections with Range, a cover): search with chapters and readers,
"Add to my shelf" downloading to the server with progress on the shelf, the book then playing
by its chapters with its cover as artwork."""
import json
import os
import re
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import click, dual_screen, sign_in, wait


def make_files(folder):
    sections = []
    for n in range(1, 4):
        path = os.path.join(folder, f"letter{n}.mp3")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency={300 + 100 * n}:duration={3 + n}",
                        "-b:a", "64k", "-metadata", f"title=Letter {n}", path], check=True)
        sections.append(open(path, "rb").read())
    cover = os.path.join(folder, "cover.jpg")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=teal:s=64x64", "-frames:v", "1", cover], check=True)
    return sections, open(cover, "rb").read()


class FakeLibriVox(BaseHTTPRequestHandler):
    sections = []
    cover = b""
    requests = []

    def log_message(self, *args):
        pass

    def send(self, status, body, kind, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        FakeLibriVox.requests.append((self.path, self.headers.get("Range")))
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if self.path.startswith("/api/feed/audiobooks"):
            if "Frankenstein" not in self.path and "id=47" not in self.path:
                return self.send(404, json.dumps({"error": "No audiobooks found with these criteria"}).encode(), "application/json")
            book = {
                "id": "47", "title": "Frankenstein", "description": "<p>Letters.</p>", "language": "English", "totaltimesecs": "15",
                "authors": [{"first_name": "Mary", "last_name": "Shelley"}], "coverart_jpg": f"{base}/cover.jpg",
                "sections": [{"section_number": str(n), "title": f"Letter {n}", "listen_url": f"{base}/download/letter{n}.mp3",
                              "playtime": str(3 + n), "readers": [{"display_name": "Cori Samuel"}]} for n in range(1, 4)],
            }
            return self.send(200, json.dumps({"books": [book]}).encode(), "application/json")
        if self.path == "/cover.jpg":
            return self.send(200, FakeLibriVox.cover, "image/jpeg")
        match = re.match(r"/download/letter(\d)\.mp3", self.path)
        if match:
            data = FakeLibriVox.sections[int(match.group(1)) - 1]
            time.sleep(0.5)  # slow enough for the shelf to show the download
            start = 0
            if self.headers.get("Range", "").startswith("bytes="):
                start = int(self.headers["Range"][6:].split("-")[0])
                return self.send(206, data[start:], "audio/mpeg", [("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")])
            return self.send(200, data, "audio/mpeg")
        self.send(404, b"", "text/plain")


@pytest.fixture
def librivox_server(tmp_path, app_database):
    FakeLibriVox.sections, FakeLibriVox.cover = make_files(str(tmp_path))
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeLibriVox)
    fake.daemon_threads = True
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False,
                      # The fake archive is on this machine: its sections and covers are fetched
                      # under the same private-network rule as feeds and articles.
                      extra_args=["--librivox-url", f"http://127.0.0.1:{fake.server_address[1]}/api/feed",
                                  "--web-allow-private-networks"])
    try:
        yield juke
    finally:
        juke.stop()
        fake.shutdown()


def test_a_librivox_book_is_found_downloaded_and_played_by_its_chapters(librivox_server, browser):
    juke = librivox_server
    status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "reader", "password": "reader password"})
    assert status == 201, account
    sign_in(browser, juke, "reader", "reader password")
    browser.get(juke.base + "/dual")
    dual_screen(browser, "books")
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-librivox summary")
    browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-search input[name=title]").send_keys("Frankenstein")
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-librivox-search button[type=submit]")
    wait(browser).until(lambda d: "Frankenstein" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-results").text)
    result = browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-book").text
    assert "Mary Shelley" in result and "3 chapters" in result and "Cori Samuel" in result
    browser.execute_script("document.querySelector('#speech-shelf .dual-librivox-chapters').closest('details').open = true")
    assert "Letter 2" in browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-chapters").text

    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-librivox-add")
    # On the shelf at once, downloading with its progress; then ready.
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-book[data-status=downloading] progress"))
    wait(browser, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-book[data-status=ready]"))
    # The search's row follows the download: the book is on the shelf now, not still downloading.
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".dual-librivox-add").text == "On your shelf")
    assert any(r for r in FakeLibriVox.requests if r[0] == "/cover.jpg")
    # ffmpeg's sections each open with a Xing/Info frame: the joined book has one for all of
    # it, so its length and its chapters' bounds are the sections' (4 + 5 + 6 s).
    status, shelf = request(juke.base, "GET", "/api/v1/dual/books", token=account["token"])
    book = shelf["items"][0]
    assert book["chapter_source"] == "id3" and abs(book["duration"] - 15) < 0.2, book
    assert [round(c["start"]) for c in book["chapters"]] == [0, 4, 9], book["chapters"]
    cover = browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-book .list-row-art")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", cover) == 64)

    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-book .list-row-main")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 3)
    start = browser.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
    wait(browser, 15).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") > start + 0.5)
    # The chapters are in their sheet, closed: their words are read from the page.
    assert "Letter 1" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[aria-current=true]").get_attribute("textContent")
    artwork = browser.execute_script("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.artwork[0].src")
    assert artwork and "/cover" in artwork
