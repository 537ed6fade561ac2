"""Dual Player's podcasts in the browser: subscribing to Juke's own demo show (made by
espeak-ng, no network), playing an episode next to music, its chapters and transcript
following the audio, a show's own speed, and the played mark at the end."""
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import request
from helpers import click, close_dual_sheet, dual_screen, dual_sheet, register, sign_in, wait


def feed_status(base):
    """The demo show's feed, as any podcast app would fetch it (public, no account)."""
    try:
        with urllib.request.urlopen(base + "/dual/demo-podcast/feed.xml", timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_demo_show_plays_next_to_music_with_chapters_and_transcript(server, admin, browser):
    # The demo show is made in the background after the server starts.
    wait(browser, 120).until(lambda d: feed_status(server.base) == 200)
    account = register(server, "listener")
    status, page = request(server.base, "GET", "/api/v1/catalog/tracks?limit=50", token=admin["token"])
    song = next(t for t in page["items"] if t["format"] != "mp4")
    sign_in(browser, server, "listener", "listener password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "podcasts")
    wait(browser).until(lambda d: "No podcasts yet" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)

    # A wrong address says why, and nothing is added.
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-podcast-add summary")
    box = browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-url input")
    box.send_keys("ftp://example.com/feed\n")
    wait(browser).until(lambda d: "http or https" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-note").text)

    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-podcast-demo")
    wait(browser).until(lambda d: "Subscribed to “Juke Readings" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-note").text)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode")) == 3)
    assert not browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-demo").is_displayed(), "subscribed: no second offer"

    # Music first, then the oldest episode (Ozymandias) beside it.
    dual_screen(browser, "library")
    music = browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
    music.send_keys(song["title"] + "\n")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))
    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main")
    dual_screen(browser, "podcasts")
    episodes = browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode-play")
    ozymandias = next(b for b in episodes if "Ozymandias" in b.text)
    ozymandias.click()
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "combined:playing")
    assert "Ozymandias" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text

    # Its chapters (Podcasting 2.0 JSON) and transcript (WebVTT) appear and follow the audio.
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 3)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li")) == 9)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']"))
    dual_sheet(browser, "speech", "transcript")
    # The sheet fades in: its text reads as empty until it shows.
    first = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']").text)
    assert "Welcome to Juke Readings" in first
    wait(browser, 20).until(lambda d: "sonnet" in d.find_element(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']").text)
    # A tap on a line of the transcript goes there; the chapter follows.
    lines = browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cue")
    lines[5].click()
    wait(browser).until(lambda d: "Nothing beside remains" in d.find_element(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']").text)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("aria-current") == "true"
    close_dual_sheet(browser, "speech", "transcript")
    assert "The poem" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-sub").text
    assert not browser.execute_script("return document.querySelector('#music-player .dual-audio').paused"), "music plays on"

    # The show's own speed applies while its episode plays.
    dual_screen(browser, "podcasts")
    Select(browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-show-speed")).select_by_value("1.5")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').playbackRate") == 1.5)
    status, shows = request(server.base, "GET", "/api/v1/dual/podcasts", token=account["token"])
    assert shows["items"][0]["settings"]["speed"] == 1.5

    # Played to the end: marked played (the last chapter, then the end of the file).
    dual_sheet(browser, "speech", "chapters")
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='2'] > button")
    close_dual_sheet(browser, "speech", "chapters")
    dual_screen(browser, "podcasts")
    wait(browser, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-episode[data-played='true']"))
    status, shows = request(server.base, "GET", "/api/v1/dual/podcasts", token=account["token"])
    assert shows["items"][0]["unplayed"] == 2

    # A copy on the server: downloaded with its progress, then removable.
    row = "#speech-shelf .dual-episode[data-played='true']"
    click(browser, By.CSS_SELECTOR, row + " .dual-episode-download")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, row).get_attribute("data-download") == "ready")
    click(browser, By.CSS_SELECTOR, row + " .dual-episode-remove-download")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, row).get_attribute("data-download") == "none")

    # Coming back to the page: the episode is there again, with its chapters and transcript.
    browser.get(server.base + "/dual")
    wait(browser).until(lambda d: "Ozymandias" in d.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li")) == 9)
