"""Dual Player keeps where each player is as it goes, not only every so often: a seek, a pause
and the page going to the background are saved at once, so a tab the system kills (no page
events at all: the renderer crashes) loses nothing of them. The position is read back from the
API, as another device would read it."""
import json
import subprocess
import time
import urllib.request

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import click, sign_in, wait


def upload_book(base, token, path, filename):
    with open(path, "rb") as f:
        data = f.read()
    req = urllib.request.Request(f"{base}/api/v1/dual/books?filename={filename}", data=data, method="POST")
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/octet-stream")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


@pytest.fixture
def shelf(tmp_path, app_database):
    """A server of its own with a 60 s book (one chapter: its position is the file's) on a listener's shelf."""
    tone = tmp_path / "tone.mp3"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=60", "-b:a", "32k",
                    "-metadata", "title=A Minute of Tone", str(tone)], check=True)
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False)
    try:
        status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "keeper", "password": "keeper password"})
        assert status == 201, account
        book = upload_book(juke.base, account["token"], str(tone), "tone.mp3")
        yield juke, account["token"], book
    finally:
        juke.stop()


def audio_time(driver):
    return driver.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")


def stored(juke, token, book):
    status, body = request(juke.base, "GET", f"/api/v1/dual/positions?items=book:{book['id']}", token=token)
    assert status == 200, body
    found = [p["seconds"] for p in body["positions"] if p["item"] == f"book:{book['id']}"]
    return found[0] if found else None


def kept_soon(juke, token, book, ok):
    """Waits until the server holds a position `ok` accepts, for less than the 3 s between the
    saves a playing page makes anyway (SAVE_EVERY_MS in dual.js): a position there sooner came
    from the save the action itself made, not from the next periodic one."""
    deadline = time.monotonic() + 2.5
    while True:
        at = stored(juke, token, book)
        if at is not None and ok(at):
            return at
        assert time.monotonic() < deadline, f"not kept at once: the server holds {at}"
        time.sleep(0.05)


def kill_tab(driver):
    """The renderer dies as a phone's system kills a tab: no pagehide, no visibilitychange."""
    try:
        driver.execute_cdp_cmd("Page.crash", {})
    except WebDriverException:
        pass


def play_book(driver, juke):
    sign_in(driver, juke, "keeper", "keeper password")
    driver.get(juke.base + "/dual#books")
    click(driver, By.CSS_SELECTOR, ".dual-books .dual-book > button:not(.ghost)")
    wait(driver).until(lambda d: audio_time(d) > 0.5)
    wait(driver).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "speech:playing")


def test_a_seek_while_playing_is_kept_at_once(shelf, browser):
    juke, token, book = shelf
    play_book(browser, juke)
    browser.execute_script("const s = document.querySelector('#speech-player .dual-seek'); s.value = '40'; s.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda d: audio_time(d) >= 40)
    # Kept at once: on the server before the next save a playing page makes anyway (every 3 s).
    kept_soon(juke, token, book, lambda at: 39.5 <= at <= 42)
    kill_tab(browser)
    at = stored(juke, token, book)
    assert at is not None and 39.5 <= at <= 42, f"the seek to 40 s was kept: {at}"


def test_a_pause_is_kept_at_once(shelf, browser):
    juke, token, book = shelf
    play_book(browser, juke)
    wait(browser).until(lambda d: audio_time(d) > 2.5)
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-play")
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "speech:paused")
    paused = audio_time(browser)
    # A paused page saves nothing more: only the pause's own save can hold this position.
    wait(browser).until(lambda d: (lambda at: at is not None and abs(at - paused) < 0.3)(stored(juke, token, book)))
    kill_tab(browser)
    at = stored(juke, token, book)
    assert at is not None and abs(at - paused) < 0.3, f"paused at {paused} s, kept {at}"


def test_the_page_going_to_the_background_is_kept_at_once(shelf, browser):
    """A phone's home button: the page is hidden, and may be killed without another event."""
    juke, token, book = shelf
    play_book(browser, juke)
    wait(browser).until(lambda d: audio_time(d) > 2.5)
    browser.execute_script(
        "Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });"
        "document.dispatchEvent(new Event('visibilitychange'))")
    hidden = audio_time(browser)
    kept_soon(juke, token, book, lambda at: at >= hidden - 0.3)
    kill_tab(browser)
    at = stored(juke, token, book)
    assert at is not None and at >= hidden - 0.3, f"hidden at {hidden} s, kept {at}"
