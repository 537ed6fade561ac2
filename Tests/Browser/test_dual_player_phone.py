"""Dual Player's podcasts, errors and layout on a phone (375x667 and 320x640, mobile emulation),
against a local podcast host (a feed with its show's artwork and two episodes), a local podcast
directory and a local LibriVox that can be taken down and brought back: episode titles read
whole and stay reachable after a reload, an episode heard to its last seconds is played, the
show's artwork shows wherever its episodes do, errors say what happened in plain words where
the person looks with a Retry that retries, and the decks' controls and the mini player fit."""
import json
import os
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import BROWSER_DATABASE, JukeServer, create_postgres_database, make_driver, request
from helpers import click, dual_screen, register, sign_in, wait

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")
GETTYSBURG = "The Gettysburg Address by Abraham Lincoln, read in full"
EPISODES = [("gettysburg", GETTYSBURG, 8), ("intro", "Extraordinarily Longwinded Introductions", 6)]


class FakeHost(BaseHTTPRequestHandler):
    """The show's host (/feed.xml, /art.png, /<name>.mp3), iTunes Search (/search) and
    LibriVox's API (/api/feed/audiobooks); the last two fail while `down` is set."""
    audio = {}
    art = b""
    down = False
    searches = []

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
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        path = self.path.split("?")[0]
        if path == "/feed.xml":
            items = "".join(
                f"""<item><title>{title}</title><guid>{name}</guid><pubDate>Mon, 0{n + 1} Jun 2026 10:00:00 GMT</pubDate>
                <enclosure url="{base}/{name}.mp3" type="audio/mpeg" length="{len(FakeHost.audio[name])}"/>
                <itunes:duration>{seconds}</itunes:duration></item>"""
                for n, (name, title, seconds) in enumerate(EPISODES))
            feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>Speeches Read Aloud</title><link>{base}/</link><description>Famous speeches.</description>
<itunes:author>Juke Test Readers</itunes:author><itunes:image href="{base}/art.png"/>
<image><url>{base}/art.png</url><title>Speeches Read Aloud</title><link>{base}/</link></image>
{items}</channel></rss>"""
            return self.send(200, feed.encode(), "application/rss+xml")
        if path == "/art.png":
            return self.send(200, FakeHost.art, "image/png")
        if path.endswith(".mp3") and path[1:-4] in FakeHost.audio:
            return self.send(200, FakeHost.audio[path[1:-4]], "audio/mpeg")
        if path == "/search":
            FakeHost.searches.append(self.path)
            if FakeHost.down:
                return self.send(503, b'{"errorMessage": "upstream connect error or disconnect/reset before headers"}', "application/json")
            show = {"kind": "podcast", "wrapperType": "track", "collectionName": "Speeches Read Aloud", "artistName": "Juke Test Readers",
                    "feedUrl": f"{base}/feed.xml", "artworkUrl600": f"{base}/art.png", "primaryGenreName": "History", "collectionId": 1}
            return self.send(200, json.dumps({"resultCount": 1, "results": [show]}).encode(), "text/javascript")
        if path.startswith("/api/feed/audiobooks"):
            if FakeHost.down:
                return self.send(503, b"<html>Service Unavailable: librivox.org</html>", "text/html")
            return self.send(404, json.dumps({"error": "No audiobooks found with these criteria"}).encode(), "application/json")
        self.send(404, b"", "text/plain")


def make_media(folder):
    for name, _, seconds in EPISODES:
        path = os.path.join(folder, f"{name}.mp3")
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}", "-b:a", "64k", path],
                       check=True)
        FakeHost.audio[name] = open(path, "rb").read()
    art = os.path.join(folder, "art.png")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=orange:s=300x300", "-frames:v", "1", art], check=True)
    FakeHost.art = open(art, "rb").read()


@pytest.fixture(scope="module")
def phone_server(tmp_path_factory):
    database, drop = create_postgres_database() if BROWSER_DATABASE == "postgres" else (None, None)
    folder = tmp_path_factory.mktemp("dual-phone")
    make_media(str(folder))
    fake = ThreadingHTTPServer(("127.0.0.1", 0), FakeHost)
    fake.daemon_threads = True
    threading.Thread(target=fake.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{fake.server_address[1]}"
    (folder / "data").mkdir()
    juke = JukeServer(str(folder / "data"), database=database, demo=False,
                      extra_args=["--podcast-search-url", base, "--librivox-url", base + "/api/feed", "--web-allow-private-networks",
                                  "--sign-ups-per-address", "1000"])
    juke.feed = base + "/feed.xml"
    try:
        yield juke
    finally:
        juke.stop()
        fake.shutdown()
        if drop:
            drop()


def subscribed(juke, name):
    """A new account subscribed to the fake show, with its show and episodes."""
    account = register(juke, name)
    status, show = request(juke.base, "POST", "/api/v1/dual/podcasts", {"url": juke.feed}, token=account["token"])
    assert status in (200, 201), show
    status, page = request(juke.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=account["token"])
    assert status == 200 and len(page["items"]) == 2, page
    return account, show, page["items"]


def phone_driver(width=375, height=667):
    return make_driver(width, height, mobile=True)


@pytest.fixture
def small_phone():
    driver = phone_driver()
    yield driver
    driver.quit()


# Each word of the element's text, with how many lines it is drawn on (a word split mid-word
# is drawn on two).
WORD_LINES = """
const out = [];
const walker = document.createTreeWalker(arguments[0], NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  for (const m of node.textContent.matchAll(/\\S+/g)) {
    const r = document.createRange();
    r.setStart(node, m.index);
    r.setEnd(node, m.index + m[0].length);
    const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0).map((b) => Math.round(b.top)));
    out.push([m[0], tops.size]);
  }
}
return out;
"""


def box(driver, element):
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}",
        element)


def open_episodes(driver):
    """The show's episodes, opened by its control when they are not showing."""
    if not any(e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode")):
        click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-show-episodes > summary")
    wait(driver).until(lambda d: len([e for e in d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode") if e.is_displayed()]) == 2)


def test_episode_titles_read_whole_on_a_phone_and_stay_reachable_after_a_reload(phone_server, small_phone):
    juke, driver = phone_server, small_phone
    subscribed(juke, "titlereader")
    sign_in(driver, juke, "titlereader", "titlereader password")
    driver.get(juke.base + "/dual#podcasts")
    wait(driver).until(lambda d: "Speeches Read Aloud" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
    open_episodes(driver)
    for button in driver.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode-play"):
        # The title has the row's width, not a column beside the cover and the buttons.
        assert box(driver, button)["width"] >= 280, (button.text, box(driver, button))
        broken = [word for word, lines in driver.execute_script(WORD_LINES, button) if lines > 1]
        assert broken == [], f"words split over two lines: {broken}"
    assert GETTYSBURG in driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-episodes").text
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    os.makedirs(SHOTS, exist_ok=True)
    driver.execute_script("document.querySelector('#speech-shelf .dual-show').scrollIntoView()")
    driver.save_screenshot(os.path.join(SHOTS, "dual-show-episodes-375x667.png"))

    # After a reload the episodes show again: nothing hides them behind a heading.
    driver.refresh()
    wait(driver).until(lambda d: "Speeches Read Aloud" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
    wait(driver).until(lambda d: len([e for e in d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-episode") if e.is_displayed()]) == 2)
    driver.execute_script("scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(SHOTS, "dual-podcasts-list-375x667.png"))


def test_an_episode_heard_to_its_last_second_is_played(phone_server):
    juke = phone_server
    account, show, episodes = subscribed(juke, "lastsecond")
    gettysburg = next(e for e in episodes if e["title"] == GETTYSBURG)
    assert gettysburg["duration"] == 8 and not gettysburg["played"]
    now = int(time.time() * 1000)
    # Paused a second before the end ("0:00 left"): played.
    status, kept = request(juke.base, "PUT", "/api/v1/dual/positions",
                           {"positions": [{"item": f"episode:{gettysburg['id']}", "seconds": 7.2, "updated_at": now}]}, token=account["token"])
    assert status == 200, kept
    status, page = request(juke.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=account["token"])
    heard = next(e for e in page["items"] if e["id"] == gettysburg["id"])
    assert heard["played"], heard
    status, shows = request(juke.base, "GET", "/api/v1/dual/podcasts", token=account["token"])
    assert shows["items"][0]["unplayed"] == 1
    # Halfway is not the end.
    intro = next(e for e in episodes if e["id"] != gettysburg["id"])
    request(juke.base, "PUT", "/api/v1/dual/positions",
            {"positions": [{"item": f"episode:{intro['id']}", "seconds": 3, "updated_at": now}]}, token=account["token"])
    status, page = request(juke.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=account["token"])
    assert not next(e for e in page["items"] if e["id"] == intro["id"])["played"]
    # Marked unplayed afterwards: the mark stays (a later mark wins over the position's).
    status, body = request(juke.base, "PUT", f"/api/v1/dual/episodes/{gettysburg['id']}/played", {"played": False, "updated_at": now + 1000},
                           token=account["token"])
    assert status == 200, body
    status, page = request(juke.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=account["token"])
    assert not next(e for e in page["items"] if e["id"] == gettysburg["id"])["played"]


def test_a_shows_artwork_shows_in_its_list_and_with_its_episode_playing(phone_server, small_phone):
    juke, driver = phone_server, small_phone
    subscribed(juke, "artlover")
    sign_in(driver, juke, "artlover", "artlover password")
    driver.get(juke.base + "/dual#podcasts")
    wait(driver).until(lambda d: "Speeches Read Aloud" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
    cover = driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-show img")
    wait(driver).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", cover) == 300)
    drawn = box(driver, cover)
    assert 40 <= drawn["width"] <= 96 and drawn["height"] == drawn["width"], drawn
    open_episodes(driver)
    click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-episode-play")
    wait(driver).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "playing")
    # The mini player, Now Playing and the lock screen (Media Session) show the show's artwork.
    mini = driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='speech'] .dual-mini-art img")
    assert mini.is_displayed() and "/art.png" in mini.get_attribute("src")
    artwork = driver.execute_script("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.artwork.map((a) => a.src)")
    assert artwork and "/art.png" in artwork[0], artwork
    dual_screen(driver, "now")
    art = driver.find_element(By.CSS_SELECTOR, "#speech-player .dual-art")
    assert art.is_displayed() and "/art.png" in art.get_attribute("src")


def error_in_view(driver, css):
    """The error's box lies between the page's top and the mini player and tab bar."""
    element = driver.find_element(By.CSS_SELECTOR, css)
    drawn = box(driver, element)
    floor = driver.execute_script(
        "return Math.min(innerHeight, ...[...document.querySelectorAll('.tabbar, .dual-mini')]"
        ".filter((e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed').map((e) => e.getBoundingClientRect().top).filter((t) => t > 0))")
    return drawn["height"] > 0 and drawn["top"] >= 0 and drawn["bottom"] <= floor + 1, (drawn, floor)


def test_errors_say_what_happened_in_plain_words_in_view_with_a_retry(phone_server, small_phone):
    juke, driver = phone_server, small_phone
    register(juke, "outoftown")
    sign_in(driver, juke, "outoftown", "outoftown password")
    driver.get(juke.base + "/dual#podcasts")
    wait(driver).until(lambda d: "No podcasts yet" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-shows").text)
    FakeHost.down = True
    try:
        click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-podcast-add summary")
        field = driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-search input")
        field.send_keys("speeches\n")
        trouble = "#speech-shelf .dual-trouble"
        wait(driver).until(lambda d: "Can't reach the podcast directory" in d.find_element(By.CSS_SELECTOR, trouble).text)
        said = driver.find_element(By.CSS_SELECTOR, trouble).text
        assert not any(w in said for w in ["127.0.0.1", "HTTP", "503", "upstream", "iTunes Search", "status"]), said
        wait(driver).until(lambda d: error_in_view(d, trouble)[0])
        driver.save_screenshot(os.path.join(SHOTS, "dual-error-retry-375x667.png"))
        # Back up: Retry searches again, and the error goes.
        FakeHost.down = False
        searched = len(FakeHost.searches)
        click(driver, By.CSS_SELECTOR, f"{trouble} .dual-retry")
        wait(driver).until(lambda d: "Speeches Read Aloud" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-podcast-results").text)
        assert len(FakeHost.searches) == searched + 1
        assert not driver.find_elements(By.CSS_SELECTOR, trouble)

        # LibriVox's search, the same way.
        FakeHost.down = True
        dual_screen(driver, "books")
        click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-librivox summary")
        driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-search input[name=title]").send_keys("Walden\n")
        wait(driver).until(lambda d: "Can't reach LibriVox right now" in d.find_element(By.CSS_SELECTOR, trouble).text)
        said = driver.find_element(By.CSS_SELECTOR, trouble).text
        assert not any(w in said for w in ["librivox.org", "127.0.0.1", "HTTP", "503", "resolve host"]), said
        wait(driver).until(lambda d: error_in_view(d, trouble)[0])
        FakeHost.down = False
        click(driver, By.CSS_SELECTOR, f"{trouble} .dual-retry")
        wait(driver).until(lambda d: "LibriVox has no book" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-librivox-note").text)
        assert not driver.find_elements(By.CSS_SELECTOR, trouble)
    finally:
        FakeHost.down = False


def overlaps(a, b):
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


@pytest.mark.parametrize("width", [375, 320])
def test_the_decks_controls_and_the_mini_player_fit_a_phone(phone_server, width):
    juke = phone_server
    name = f"narrow{width}"
    subscribed(juke, name)
    driver = phone_driver(width, 667)
    try:
        sign_in(driver, juke, name, name + " password")
        driver.get(juke.base + "/dual#now")
        wait(driver).until(lambda d: d.find_element(By.ID, "screen-now").is_displayed())
        def apart():
            for deck in ["#music-player", "#speech-player"]:
                controls = [e for e in driver.find_elements(By.CSS_SELECTOR, f"{deck} .dual-transport .dual-speed, {deck} .dual-transport .icon-btn")
                            if e.is_displayed()]
                boxes = [(e.get_attribute("class"), box(driver, e)) for e in controls]
                for i, (one, a) in enumerate(boxes):
                    assert a["left"] >= 0 and a["right"] <= width, (one, a)
                    for other, b in boxes[i + 1:]:
                        assert not overlaps(a, b), f"{deck}: {one} {a} overlaps {other} {b}"
                # The deck's name is whole beside its Quality | Boost switch, not under it.
                assert driver.execute_script("const h = document.querySelector(arguments[0]); return h.scrollWidth <= h.clientWidth",
                                             f"{deck} .dual-deck-name"), deck
            assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        apart()
        # An episode with chapters and a transcript shows their buttons too (as the demo show's do).
        driver.execute_script("for (const b of document.querySelectorAll('.dual-chapters-open, .dual-transcript-open')) b.hidden = false")
        apart()
        driver.execute_script("for (const b of document.querySelectorAll('.dual-chapters-open, .dual-transcript-open')) b.hidden = true")

        # Nothing playing: the mini player says so whole, in a few words.
        dual_screen(driver, "podcasts")
        for kind in ["music", "speech"]:
            title = driver.find_element(By.CSS_SELECTOR, f".dual-mini-deck[data-player='{kind}'] .dual-mini-title")
            assert title.text.strip(), kind
            assert driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", title), (kind, title.text)
        if width == 375:
            driver.save_screenshot(os.path.join(SHOTS, "dual-mini-empty-375x667.png"))

        # An episode playing: its title has most of its deck's width.
        open_episodes(driver)
        click(driver, By.CSS_SELECTOR, "#speech-shelf .dual-episode-play")
        wait(driver).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "playing")
        deck = box(driver, driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='speech']"))
        title = driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='speech'] .dual-mini-title")
        drawn = box(driver, title)
        assert drawn["width"] >= 0.55 * deck["width"], (drawn, deck)
        assert title.text.startswith(("The Gettysburg", "Extraordinarily")), title.text
        if width == 375:
            driver.save_screenshot(os.path.join(SHOTS, "dual-mini-375x667.png"))
        # With its chapters' and transcript's buttons (none here), nothing overlaps either: checked above.
    finally:
        driver.quit()


# Juke's own requests failing in the page: the books' shelf answers a 500 whose words are a
# library's, the uploaded songs get no answer at all, until the test lets them through.
FAIL_LISTS = """
window.__failing = {"/api/v1/dual/books": "500", "/api/v1/dual/songs": "network"};
const realFetch = window.fetch.bind(window);
window.fetch = (input, init) => {
  const path = new URL(typeof input === "string" ? input : input.url, location.href).pathname;
  const how = window.__failing[path];
  if (how === "network") return Promise.reject(new TypeError("Failed to fetch: Could not resolve host"));
  if (how === "500") return Promise.resolve(new Response(JSON.stringify({error: "internal", message: "HTTP 500: Could not resolve host (URLError -1003)"}),
    {status: 500, headers: {"Content-Type": "application/json"}}));
  return realFetch(input, init);
};
"""


def test_lists_that_fail_to_load_say_so_in_plain_words_in_view_with_a_retry(phone_server, small_phone):
    juke, driver = phone_server, small_phone
    register(juke, "listsdown")
    sign_in(driver, juke, "listsdown", "listsdown password")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAIL_LISTS})
    driver.get(juke.base + "/dual#books")
    trouble = "#speech-shelf .dual-books .dual-trouble"
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, trouble))
    said = driver.find_element(By.CSS_SELECTOR, trouble).text
    assert "Couldn't load your books" in said, said
    assert not any(w in said for w in ["resolve host", "TypeError", "HTTP 5", "URLError", "500"]), said
    wait(driver).until(lambda d: error_in_view(d, trouble)[0])
    driver.save_screenshot(os.path.join(SHOTS, "dual-books-error-375x667.png"))
    driver.execute_script("delete window.__failing['/api/v1/dual/books']")
    click(driver, By.CSS_SELECTOR, f"{trouble} .dual-retry")
    wait(driver).until(lambda d: "No books yet" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    assert not driver.find_elements(By.CSS_SELECTOR, trouble)

    # The uploaded songs, with no answer at all: the same, on the Library screen.
    dual_screen(driver, "library")
    songs = ".dual-songs .dual-trouble"
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, songs))
    said = driver.find_element(By.CSS_SELECTOR, songs).text
    assert "Couldn't load your uploaded songs" in said, said
    assert not any(w in said for w in ["resolve host", "TypeError", "Failed to fetch"]), said
    driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", driver.find_element(By.CSS_SELECTOR, songs))
    assert error_in_view(driver, songs)[0]
    driver.execute_script("delete window.__failing['/api/v1/dual/songs']")
    click(driver, By.CSS_SELECTOR, f"{songs} .dual-retry")
    wait(driver).until(lambda d: "No uploads yet" in d.find_element(By.CSS_SELECTOR, ".dual-songs").text)
    assert not driver.find_elements(By.CSS_SELECTOR, songs)
