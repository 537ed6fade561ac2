"""Dual Player's Library as people on a phone (375x667) found it: browsed without a search
(Artists, Albums, Songs, Recently added, an artist's albums, an album's tracks, a page at a
time); a song played from a list has the list (or its album) as its queue, and a song truly
alone has Next disabled. The Library's screens are axe-clean and never scroll sideways at 320,
375 and 1280 px; screenshots at 375x667 are kept under .build/screenshots."""
import json
import os
import subprocess
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, dual_screen, register, sign_in, wait
from test_design_system import axe_violations

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")

def phone_driver(width=375, height=667):
    return make_driver(width, height, mobile=True)


@pytest.fixture
def phone():
    driver = phone_driver()
    yield driver
    driver.quit()


def rows(driver, css):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.querySelector('.list-row-title').innerText)", css)


def music_title(driver):
    return driver.execute_script("return document.querySelector('#music-player .dual-item-title').innerText")


def next_disabled(driver):
    return driver.execute_script("return document.querySelector('#music-player .dual-forward').disabled")


def fetched(driver, fragment):
    """The catalog addresses the page fetched that contain `fragment`."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes(arguments[0]))", fragment)


def upload(base, token, what, path, filename):
    with open(path, "rb") as f:
        data = f.read()
    req = urllib.request.Request(f"{base}/api/v1/dual/{what}?filename={filename}", data=data, method="POST")
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/octet-stream")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def test_the_library_is_browsed_without_a_search(server, admin, phone):
    driver = phone
    os.makedirs(SHOTS, exist_ok=True)
    sign_in(driver, server, admin["username"], admin["password"])
    driver.get(server.base + "/dual")
    dual_screen(driver, "library")
    # Artists, with nothing typed.
    wait(driver).until(lambda d: len(rows(d, "#music-shelf .dual-browse-list .dual-artist")) >= 5)
    artists = rows(driver, "#music-shelf .dual-browse-list .dual-artist")
    assert "Wolfgang Amadeus Mozart" in artists, artists
    assert driver.find_element(By.CSS_SELECTOR, ".dual-library-nav a[href='#library/artists']").get_attribute("aria-current") == "page"
    assert all("limit=50" in name for name in fetched(driver, "/api/v1/catalog/artists")), "a page at a time"
    driver.save_screenshot(os.path.join(SHOTS, "dual-library-artists-375x667.png"))

    # An artist's albums, then the album's tracks.
    click(driver, By.XPATH, "//li[contains(@class,'dual-artist')][.//span[text()='Wolfgang Amadeus Mozart']]/button")
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-title").text == "Wolfgang Amadeus Mozart")
    wait(driver).until(lambda d: rows(d, "#music-shelf .dual-browse-list .dual-album") == ["Classical Era Favourites"])
    assert "#library/artist/" in driver.current_url
    click(driver, By.CSS_SELECTOR, "#music-shelf .dual-browse-list .dual-album .list-row-main")
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-title").text == "Classical Era Favourites")
    wait(driver).until(lambda d: len(rows(d, "#music-shelf .dual-browse-list .dual-track")) >= 3)
    tracks = rows(driver, "#music-shelf .dual-browse-list .dual-track")
    back = driver.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-back")
    assert back.is_displayed() and "Mozart" in back.text, "Back goes to the artist it was opened from"
    driver.save_screenshot(os.path.join(SHOTS, "dual-library-album-375x667.png"))

    # One song of the album: the album is its queue, Next goes on to the one after it.
    click(driver, By.CSS_SELECTOR, "#music-shelf .dual-browse-list .dual-track:nth-child(2) .list-row-main")
    wait(driver).until(lambda d: d.find_element(By.ID, "music-player").get_attribute("data-state") == "playing")
    assert music_title(driver) == tracks[1]
    assert not next_disabled(driver)
    dual_screen(driver, "now")
    click(driver, By.CSS_SELECTOR, "#music-player .dual-forward")
    wait(driver).until(lambda d: music_title(d) == tracks[2])
    # Play all: from the album's first track.
    driver.back()
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-library").is_displayed())
    click(driver, By.CSS_SELECTOR, "#music-shelf .dual-play-all")
    wait(driver).until(lambda d: music_title(d) == tracks[0])
    assert driver.execute_script("return document.querySelector('#music-player .dual-back').disabled"), "nothing before the first"

    # Back returns to the artist, then to the artists.
    driver.back()
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-title").text == "Wolfgang Amadeus Mozart")
    # Albums, Songs and Recently added, each a page at a time.
    click(driver, By.CSS_SELECTOR, ".dual-library-nav a[href='#library/albums']")
    wait(driver).until(lambda d: "Baroque Gems" in rows(d, "#music-shelf .dual-browse-list .dual-album"))
    click(driver, By.CSS_SELECTOR, ".dual-library-nav a[href='#library/songs']")
    wait(driver).until(lambda d: len(rows(d, "#music-shelf .dual-browse-list .dual-track")) >= 30)
    click(driver, By.CSS_SELECTOR, ".dual-library-nav a[href='#library/recent']")
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-title").text == "Recently added")
    wait(driver).until(lambda d: len(rows(d, "#music-shelf .dual-browse-list .dual-track")) >= 30)
    assert any("sort=newest" in name and "limit=50" in name for name in fetched(driver, "/api/v1/catalog/tracks"))


def test_a_song_found_alone_plays_on_into_its_album_and_a_song_truly_alone_has_no_next(server, admin, phone, tmp_path):
    account = register(server, "alone")
    tone = tmp_path / "tone.mp3"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=20", "-b:a", "32k",
                    "-metadata", "title=Only Tone", str(tone)], check=True)
    upload(server.base, account["token"], "songs", str(tone), "tone.mp3")
    driver = phone
    sign_in(driver, server, "alone", "alone password")
    driver.get(server.base + "/dual")
    dual_screen(driver, "library")
    # The search finds one song; played, its album follows it.
    field = driver.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
    field.send_keys("rondo alla turca\n")
    wait(driver).until(lambda d: rows(d, "#music-shelf .dual-results .list-row") == ["Rondo alla Turca"])
    click(driver, By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main")
    wait(driver).until(lambda d: d.find_element(By.ID, "music-player").get_attribute("data-state") == "playing")
    wait(driver).until(lambda d: not next_disabled(d))
    dual_screen(driver, "now")
    click(driver, By.CSS_SELECTOR, "#music-player .dual-forward")
    wait(driver).until(lambda d: music_title(d) not in ("Rondo alla Turca", "Nothing loaded"))
    assert driver.find_element(By.ID, "music-player").get_attribute("data-state") == "playing"

    # A song alone (the only upload): Next is disabled, not a tap that does nothing.
    dual_screen(driver, "library")
    click(driver, By.CSS_SELECTOR, "#music-shelf .dual-songs .list-row-main")
    wait(driver).until(lambda d: music_title(d) == "Only Tone")
    assert next_disabled(driver)
    assert driver.execute_script("return document.querySelector('#music-player .dual-back').disabled")


@pytest.mark.parametrize("width", [320, 375, 1280])
def test_the_library_screens_fit_and_are_axe_clean(server, admin, width):
    driver = make_driver(width, 800) if width > 500 else phone_driver(width, 667)
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        driver.get(server.base + "/dual")
        status, albums = request(server.base, "GET", "/api/v1/catalog/albums?limit=1", token=admin["token"])
        status, artists = request(server.base, "GET", "/api/v1/catalog/artists?limit=1", token=admin["token"])
        for place, ready in [
            ("library", ".dual-artist"), ("library/albums", ".dual-album"), ("library/recent", ".dual-track"),
            (f"library/artist/{artists['items'][0]['id']}", ".dual-album"), (f"library/album/{albums['items'][0]['id']}", ".dual-track"),
        ]:
            driver.execute_script("location.hash = arguments[0]", place)
            wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, f"#music-shelf .dual-browse-list {ready}"))
            widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"#{place} scrolls sideways at {width} px: {widths}"
            assert axe_violations(driver) == [], place
    finally:
        driver.quit()
