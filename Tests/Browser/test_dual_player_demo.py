"""Dual Player's shelf: the spoken demo audiobook (espeak-ng and ffmpeg, made on the first
start) on everyone's shelf, playing by its chapters; and a listener's own upload."""
import os

from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, close_dual_sheet, dual_screen, dual_sheet, register, sign_in, wait

BOOK = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "chapters", "both.m4b")


def test_the_spoken_demo_book_is_on_the_shelf_and_plays_by_chapters(server, admin, browser):
    # The server makes the book in the background after it starts.
    wait(browser, 120).until(lambda d: any(
        b["origin"] == "demo" for b in request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])[1]["items"]))
    status, shelf = request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])
    book = next(b for b in shelf["items"] if b["origin"] == "demo")
    assert book["chapter_source"] == "quicktime" and len(book["chapters"]) == 4
    assert [c["title"] for c in book["chapters"]][0] == "The Fox and the Grapes"

    # A listener of its own: a book tapped on the shelf resumes where its listener left it, and
    # other tests play this book as the admin.
    register(server, "fablelistener")
    sign_in(browser, server, "fablelistener", "fablelistener password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "books")
    wait(browser).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    # A tap on the book plays it, and Now Playing opens.
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main")
    wait(browser).until(lambda d: d.execute_script("return location.hash") == "#now")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
    first = browser.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
    wait(browser, 15).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") > first + 0.5)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='0']").get_attribute("aria-current") == "true"
    # A chapter chosen in the chapters sheet moves speech to chapter 2.
    dual_sheet(browser, "speech", "chapters")
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1'] > button")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("aria-current") == "true")
    close_dual_sheet(browser, "speech", "chapters")
    assert "The Hare and the Tortoise" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-sub").text


def test_a_listener_uploads_a_book_plays_it_by_chapters_and_removes_it(server, admin, browser, tmp_path):
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "uploader", "password": "uploader password"})
    assert status == 201, account
    sign_in(browser, server, "uploader", "uploader password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "books")
    wait(browser).until(lambda d: "Loading" not in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    assert not browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-share"), "only admins share with everyone"
    bad = tmp_path / "broken.m4b"
    bad.write_bytes(b"this is not an audiobook")
    browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-upload-file").send_keys(str(bad))
    wait(browser).until(lambda d: "cannot be read" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-upload-note").text)

    browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-upload-file").send_keys(os.path.abspath(BOOK))
    wait(browser).until(lambda d: "Added “A Small Book” with 4 chapters" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-upload-note").text)
    wait(browser).until(lambda d: "A Small Book" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    for button in browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-book .list-row-main"):
        if "A Small Book" in button.text:
            button.click()
            break
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
    first = browser.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
    wait(browser, 15).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") > first + 0.3)

    browser.execute_script("window.confirm = () => true")
    dual_screen(browser, "books")
    assert browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-remove").get_attribute("aria-label") == "Remove A Small Book"
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-remove")
    wait(browser).until(lambda d: "A Small Book" not in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text == "Nothing loaded"
    assert all(b["title"] != "A Small Book" for b in request(server.base, "GET", "/api/v1/dual/books", token=account["token"])[1]["items"])


def test_ducked_music_comes_back_between_the_demo_books_sentences(server, admin, browser):
    wait(browser, 120).until(lambda d: any(
        b["origin"] == "demo" for b in request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])[1]["items"]))
    status, page = request(server.base, "GET", "/api/v1/catalog/tracks?limit=50", token=admin["token"])
    song = next(t for t in page["items"] if t["format"] != "mp4")
    # An account of its own: the session's shared admin carries Dual Player settings and
    # players from the tests before this one.
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "ducker", "password": "ducker password"})
    assert status == 201, account
    sign_in(browser, server, "ducker", "ducker password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "books")
    wait(browser).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    dual_screen(browser, "now")
    if not browser.find_element(By.ID, "ducking-enabled").is_selected():
        click(browser, By.ID, "ducking-enabled")

    dual_screen(browser, "library")
    box = browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
    box.send_keys(song["title"] + "\n")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))
    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main")
    dual_screen(browser, "books")
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main")
    wait(browser).until(lambda d: d.execute_script("return document.body.dataset.nowPlaying") == "combined:playing")

    # Sample the music's target level for fifteen seconds of narration: down while a sentence is
    # read, back up in the pauses between sentences (espeak-ng leaves about 0.4 s).
    seen = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const seen = { ducked: 0, full: 0, talking: 0, quiet: 0, levels: {} };
        const music = document.querySelector('#music-player');
        const timer = setInterval(() => {
          if (music.dataset.duck === '1') seen.full++; else seen.ducked++;
          if (document.body.dataset.speechTalking === 'true') seen.talking++; else seen.quiet++;
          // The levels read, by 10 dB band, to tell a failure's cause.
          const level = document.body.dataset.speechLevel;
          const band = level === undefined || level === 'silent' ? String(level) : String(Math.floor(Number(level) / 10) * 10);
          seen.levels[band] = (seen.levels[band] || 0) + 1;
        }, 20);
        const speech = document.querySelector('#speech-player .dual-audio');
        seen.speech = { src: speech.currentSrc, from: speech.currentTime };
        seen.clock = { from: document.body.dataset.speechMeterClock };
        setTimeout(() => {
          clearInterval(timer);
          seen.speech.to = speech.currentTime;
          seen.clock.to = document.body.dataset.speechMeterClock;
          done(seen);
        }, 15000);
    """)
    assert seen["ducked"] > seen["full"] > 0, seen
    assert seen["talking"] > 0 and seen["quiet"] > 0, seen
    # Music is lowered by its volume, not stopped.
    assert not browser.execute_script("return document.querySelector('#music-player .dual-audio').paused")


SONG = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "id3v24.mp3")


def test_a_listener_uploads_a_song_and_plays_it_in_the_music_player(server, browser):
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "songwriter", "password": "songwriter password"})
    assert status == 201, account
    sign_in(browser, server, "songwriter", "songwriter password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "library")
    wait(browser).until(lambda d: "No uploads yet" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-songs").text)
    browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-upload-file").send_keys(os.path.abspath(SONG))
    wait(browser).until(lambda d: "Added “Café Society ☕” by Beyoncé" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-upload-note").text)
    wait(browser).until(lambda d: "Café Society" in d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-songs").text)
    cover = browser.find_element(By.CSS_SELECTOR, "#music-shelf .dual-song .list-row-art")
    wait(browser).until(lambda d: d.execute_script("return arguments[0].naturalWidth", cover) > 0)
    click(browser, By.CSS_SELECTOR, "#music-shelf .dual-song .list-row-main")
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.3)
    assert browser.find_element(By.CSS_SELECTOR, "#music-player .dual-item-title").text == "Café Society ☕"
    assert browser.execute_script("return navigator.mediaSession.metadata.title") == "Café Society ☕"
