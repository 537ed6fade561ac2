"""Dual Player in a browser: music and speech playing at once, the lock screen (Media Session)
for each row the page can reach, an interruption, Boost through Web Audio, a chapter ending
and advancing, and a reload coming back paused where it was."""
import os
import shutil

import pytest
from selenium.webdriver.common.by import By

from conftest import DEMO_TRACKS, JukeServer, request
from helpers import click, close_dual_sheet, dual_screen, dual_sheet, sign_in, wait

BOOK = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "chapters", "both.m4b")

# Records the page's Media Session handlers so the test can press the lock screen's buttons.
MEDIA_KEYS = """
window.__mediaHandlers = {};
if (navigator.mediaSession) {
  const original = navigator.mediaSession.setActionHandler.bind(navigator.mediaSession);
  navigator.mediaSession.setActionHandler = (action, handler) => {
    window.__mediaHandlers[action] = handler;
    try { original(action, handler); } catch (e) {}
  };
}
"""


@pytest.fixture
def dual(server, admin, tmp_path, app_database):
    """A server of its own: the demo library (already written by the session's server) and a
    folder holding a small M4B audiobook with four chapters."""
    books = tmp_path / "books"
    books.mkdir()
    shutil.copy(BOOK, books / "small-book.m4b")
    (tmp_path / "data").mkdir()
    juke = JukeServer(str(tmp_path / "data"), database=app_database, demo=False)
    try:
        status, account = request(juke.base, "POST", "/api/v1/auth/register", {"username": "listener", "password": "listener password"})
        assert status == 201, account
        token = account["token"]
        for folder in (os.path.join(server.data_dir, "demo-library"), str(books)):
            assert request(juke.base, "POST", "/api/v1/library/folders", {"path": folder}, token=token)[0] in (200, 201, 202)
        juke.wait_for_tracks(token, DEMO_TRACKS + 1)
        yield juke, token
    finally:
        juke.stop()


def audio_time(driver, player):
    return driver.execute_script(f"return document.querySelector('#{player}-player .dual-audio').currentTime")


def now_playing(driver):
    return driver.execute_script("return document.body.dataset.nowPlaying || ''")


def session_title(driver):
    return driver.execute_script("return navigator.mediaSession.metadata ? navigator.mediaSession.metadata.title : null")


def advancing(driver, player):
    first = audio_time(driver, player)
    wait(driver, 10).until(lambda d: audio_time(d, player) > first + 0.2)
    return True


def choose(driver, player, query, result_text):
    """Searches the library from the player's screen (Library for music, Books for speech) and
    plays the result that says `result_text`."""
    dual_screen(driver, "library" if player == "music" else "books")
    box = driver.find_element(By.CSS_SELECTOR, f"#{player}-shelf .dual-search input")
    box.clear()
    box.send_keys(query + "\n")
    results = f"#{player}-shelf .dual-results .list-row-main"
    wait(driver).until(lambda d: any(result_text in b.text for b in d.find_elements(By.CSS_SELECTOR, results)))
    for button in driver.find_elements(By.CSS_SELECTOR, results):
        if result_text in button.text:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return


def test_both_players_play_at_once_with_the_lock_screen_chapters_boost_and_a_reload(dual, browser):
    juke, token = dual
    status, page = request(juke.base, "GET", "/api/v1/catalog/tracks?limit=50", token=token)
    assert status == 200
    song = next(t for t in page["items"] if t["format"] != "mp4")
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MEDIA_KEYS})
    sign_in(browser, juke, "listener", "listener password")
    browser.get(juke.base + "/dual")
    wait(browser).until(lambda d: d.execute_script("return window.__mediaHandlers && 'play' in window.__mediaHandlers"))

    # Music only: the lock screen shows the song.
    choose(browser, "music", song["title"], song["title"])
    assert advancing(browser, "music")
    wait(browser).until(lambda d: now_playing(d) == "music:playing")
    assert session_title(browser) == song["title"]

    # Speech too: both play at once, and the lock screen shows the combined title.
    choose(browser, "speech", "Small Book", "A Small Book")
    browser.execute_script("const s = document.querySelector('#speech-player .dual-speed'); s.value = '0.5'; s.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
    assert advancing(browser, "speech") and advancing(browser, "music")
    wait(browser).until(lambda d: now_playing(d) == "combined:playing")
    assert session_title(browser).startswith(song["title"] + " + A Small Book")
    assert browser.execute_script("return navigator.mediaSession.playbackState") == "playing"

    # Pausing music while both play shows speech, still playing.
    click(browser, By.CSS_SELECTOR, "#music-player .dual-play")
    wait(browser).until(lambda d: now_playing(d) == "speech:playing")
    assert session_title(browser).startswith("A Small Book")
    click(browser, By.CSS_SELECTOR, "#music-player .dual-play")
    wait(browser).until(lambda d: now_playing(d) == "combined:playing")

    # An interruption: the browser pauses music on its own; speech pauses with it and the
    # lock screen keeps the combined view. The lock screen's play brings both back.
    browser.execute_script("document.querySelector('#music-player .dual-audio').pause()")
    wait(browser).until(lambda d: now_playing(d) == "combined:paused")
    assert browser.execute_script("return document.querySelector('#speech-player .dual-audio').paused")
    browser.execute_script("window.__mediaHandlers.play()")
    wait(browser).until(lambda d: now_playing(d) == "combined:playing")
    assert advancing(browser, "speech") and advancing(browser, "music")
    # The headset's pause pauses both; play again resumes both.
    browser.execute_script("window.__mediaHandlers.pause()")
    wait(browser).until(lambda d: now_playing(d) == "combined:paused")
    browser.execute_script("window.__mediaHandlers.play()")
    wait(browser).until(lambda d: now_playing(d) == "combined:playing")

    # Boost on speech: its audio now goes through Web Audio, and keeps playing.
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-mode label:has(input[value=boost])")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#speech-player').dataset.path") == "webAudio")
    assert advancing(browser, "speech")

    # A chapter ending advances to the next: start chapter 2 and seek close to its end.
    dual_sheet(browser, "speech", "chapters")
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1'] > button")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("aria-current") == "true")
    close_dual_sheet(browser, "speech", "chapters")
    browser.execute_script("const s = document.querySelector('#speech-player .dual-seek'); s.value = '3.0'; s.dispatchEvent(new Event('change'))")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='2']").get_attribute("aria-current") == "true")
    assert "played" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("class")
    assert "第三章" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-sub").text

    # Pause both, let the page save, and reload: both come back paused where they were.
    browser.execute_script("window.__mediaHandlers.pause()")
    wait(browser).until(lambda d: now_playing(d) == "combined:paused")
    music_at, speech_at = audio_time(browser, "music"), audio_time(browser, "speech")

    def saved(_):
        status, state = request(juke.base, "GET", "/api/v1/dual/state", token=token)
        return status == 200 and all(
            state.get(kind) and abs((state[kind].get("position") or 0) - at) < 0.5
            for kind, at in (("music", music_at), ("speech", speech_at)))

    # The server has what the reload reads: both where they were paused.
    wait(browser).until(saved)
    browser.refresh()
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#speech-player').dataset.state") == "paused")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player').dataset.state") == "paused")
    wait(browser).until(lambda d: abs(audio_time(d, "music") - music_at) < 0.5 and abs(audio_time(d, "speech") - speech_at) < 0.5)
    assert browser.find_element(By.CSS_SELECTOR, "#music-player .dual-item-title").text == song["title"]
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='2']").get_attribute("aria-current") == "true"
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player input[value=boost]").is_selected(), "Boost is kept per account"
    assert browser.execute_script("return document.querySelector('#music-player .dual-audio').paused")
    # Both were playing before the pause: the lock screen's play resumes both.
    browser.execute_script("window.__mediaHandlers.play()")
    wait(browser).until(lambda d: now_playing(d) == "combined:playing")
    assert advancing(browser, "music")
