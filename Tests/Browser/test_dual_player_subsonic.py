"""Dual Player's places are Subsonic's bookmarks, both ways, on a phone: a bookmark a native
player made through /rest is where the page's shelf says the book is and where it resumes,
and a place the page saved reads back through getBookmarks."""
import json
import os
import subprocess
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import click, dual_screen, sign_in, wait
from test_dual_player_positions import audio_time, upload_book


def rest(juke, method, **params):
    query = urllib.parse.urlencode({"v": "1.16.1", "c": "browser-test", "f": "json", **params})
    with urllib.request.urlopen(f"{juke.base}/rest/{method}?{query}", timeout=30) as r:
        answer = json.loads(r.read())["subsonic-response"]
    assert answer["status"] == "ok", answer
    return answer


@pytest.fixture
def shelf(tmp_path, app_database):
    """A server of its own with a 60 s book on a listener's shelf, and the listener's API key."""
    tone = tmp_path / "tone.mp3"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=60", "-b:a", "32k",
                    "-metadata", "title=A Minute of Tone", str(tone)], check=True)
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False)
    try:
        status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "keeper", "password": "keeper password"})
        assert status == 201, account
        book = upload_book(juke.base, account["token"], str(tone), "tone.mp3")
        status, key = request(juke.base, "POST", "/api/v1/auth/subsonic/api-keys", {"name": "phone player"}, token=account["token"])
        assert status == 201, key
        yield juke, book, key["key"]
    finally:
        juke.stop()


def shelf_progress(driver):
    return driver.execute_script("const p = document.querySelector('.dual-books .dual-book progress'); return p ? Number(p.value) : null")


def test_a_bookmark_from_a_player_is_where_the_page_resumes_and_back(shelf, phone):
    juke, book, key = shelf
    item = "bk-" + book["id"]

    # A native player leaves the book at 25 s.
    rest(juke, "createBookmark", apiKey=key, id=item, position=25000, comment="from the car")

    sign_in(phone, juke, "keeper", "keeper password")
    phone.get(juke.base + "/dual#books")
    dual_screen(phone, "books")
    wait(phone).until(lambda d: shelf_progress(d) == 25)
    label = phone.find_element(By.CSS_SELECTOR, ".dual-books .dual-book progress").get_attribute("aria-label")
    assert "0:35 left" in label, label
    os.makedirs(".build/screenshots", exist_ok=True)
    phone.save_screenshot(".build/screenshots/dual-subsonic-bookmark-phone.png")

    # Tapped on the shelf, the book plays from the player's place.
    click(phone, By.CSS_SELECTOR, ".dual-books .dual-book > button:not(.ghost)")
    wait(phone).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "speech:playing")
    assert 24.5 <= audio_time(phone) <= 35, audio_time(phone)

    # The page moves on and pauses: its place is the bookmark a player reads.
    phone.execute_script("const s = document.querySelector('#speech-player .dual-seek'); s.value = '40'; s.dispatchEvent(new Event('change'))")
    wait(phone).until(lambda d: audio_time(d) >= 40)
    click(phone, By.CSS_SELECTOR, "#speech-player .dual-play")
    wait(phone).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "speech:paused")
    paused = audio_time(phone)

    def bookmark(_):
        marks = rest(juke, "getBookmarks", apiKey=key)["bookmarks"].get("bookmark", [])
        found = [m for m in marks if m["entry"]["id"] == item]
        return found[0] if found and abs(found[0]["position"] - paused * 1000) < 300 else None

    mark = wait(phone).until(bookmark)
    assert mark["comment"] == "from the car" and mark["entry"]["type"] == "audiobook" and mark["username"] == "keeper"
