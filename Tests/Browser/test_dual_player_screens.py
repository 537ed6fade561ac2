"""Dual Player as a commuter uses it on a phone: Now Playing shows both decks' controls in the
first screen of a 375x667 phone (mobile emulation: headless Chromium keeps windows at least
500 px wide), the screens behind the tab bar, the two-deck mini player that opens Now Playing,
the shelf's progress, the speed box at whole speeds, the lock screen's scrubber in the
chapter's frame, and no screen scrolling sideways at 320 px. Each screen is kept as a
screenshot under .build/screenshots at 375x667 and 1280x800 for a person to look at."""
import os

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import sign_in, wait
from test_design_system import axe_violations

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")
SCREENS = ["now", "library", "books", "podcasts", "articles", "radio"]

# Everything a deck must show without scrolling: who it is, what it has, and its controls.
DECK_CONTROLS = [".dual-deck-name", ".dual-art-box", ".dual-item-title", ".dual-mode", ".dual-seek", ".dual-speed",
                 ".dual-back", ".dual-play", ".dual-forward"]

# Records what the page tells the Media Session, and keeps its action handlers for the test.
MEDIA_SESSION_SPY = """
window.__positions = [];
window.__handlers = {};
const session = navigator.mediaSession;
if (session) {
  const setPosition = session.setPositionState.bind(session);
  session.setPositionState = (state) => { window.__positions.push(state || null); try { setPosition(state); } catch (e) {} };
  const setHandler = session.setActionHandler.bind(session);
  session.setActionHandler = (action, handler) => { window.__handlers[action] = handler; setHandler(action, handler); };
}
"""


def show(driver, screen):
    driver.execute_script("location.hash = arguments[0]", screen)
    wait(driver).until(lambda d: d.find_element(By.ID, f"screen-{screen}").is_displayed())


def play_demo(driver, server):
    """The demo book in the speech player and a library song in the music player."""
    show(driver, "books")
    wait(driver, 120).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
    driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "playing")
    show(driver, "library")
    field = driver.find_element(By.CSS_SELECTOR, "#music-shelf .dual-search input")
    field.send_keys("spring\n")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main"))
    driver.find_element(By.CSS_SELECTOR, "#music-shelf .dual-results .list-row-main").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "music-player").get_attribute("data-state") == "playing")


@pytest.fixture
def small_phone():
    driver = make_driver(375, 667, mobile=True)
    yield driver
    driver.quit()


def test_both_decks_fit_a_phone_screen_and_the_mini_player_opens_them(server, admin, small_phone):
    driver = small_phone
    os.makedirs(SHOTS, exist_ok=True)
    sign_in(driver, server, admin["username"], admin["password"])
    driver.get(server.base + "/dual")
    play_demo(driver, server)

    # Another screen: the mini player holds both players, each with its play button.
    show(driver, "books")
    mini = driver.find_element(By.CSS_SELECTOR, ".dual-mini")
    assert mini.is_displayed()
    assert "Aesop" in driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='speech'] .dual-mini-title").text
    assert driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='music'] .dual-mini-title").text.strip() not in ("", "Nothing loaded")
    pause_music = driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='music'] .dual-mini-play")
    assert pause_music.get_attribute("aria-label") == "Pause music"
    pause_music.click()
    wait(driver).until(lambda d: d.find_element(By.ID, "music-player").get_attribute("data-state") == "paused")
    assert driver.execute_script("return document.querySelector('#music-player .dual-audio').paused")
    # The shelf shows how far the book has been listened to.
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-book progress.dual-progress"))

    # Tapping the mini player opens Now Playing, and Back returns to the screen before.
    driver.find_element(By.CSS_SELECTOR, ".dual-mini-deck[data-player='speech'] .dual-mini-open").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-now").is_displayed())
    assert not driver.find_element(By.CSS_SELECTOR, ".dual-mini").is_displayed(), "Now Playing needs no mini player"
    assert driver.execute_script("return scrollY") == 0
    height = driver.execute_script("return innerHeight")
    tab_top = driver.execute_script("return document.querySelector('.tabbar').getBoundingClientRect().top")
    assert height == 667
    for deck in ["#music-player", "#speech-player"]:
        for control in DECK_CONTROLS:
            box = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                                        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width}",
                                        f"{deck} {control}")
            assert box["width"] > 0, f"{deck} {control} is not drawn"
            assert box["top"] >= 0 and box["bottom"] <= tab_top, f"{deck} {control} is not in the first screen above the tab bar: {box}"
            assert box["left"] >= 0 and box["right"] <= 375, f"{deck} {control} is outside the phone's width: {box}"
    driver.back()
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-books").is_displayed())

    # Each screen at a phone's size, for a person to look at; none scrolls sideways, and axe-core
    # finds nothing serious on any (a hidden screen is not checked by axe, so each is shown).
    for screen in SCREENS:
        show(driver, screen)
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), screen
        assert axe_violations(driver) == [], screen
        driver.save_screenshot(os.path.join(SHOTS, f"dual-{screen}-375x667.png"))
    # The sheets too: the speech deck's sound and chapters.
    show(driver, "now")
    for sheet in ["sound", "chapters"]:
        opener = driver.find_element(By.CSS_SELECTOR, f"#speech-player .dual-{sheet}-open")
        driver.execute_script("arguments[0].scrollIntoView({ block: 'center' })", opener)
        opener.click()
        wait(driver).until(lambda d: d.execute_script(f"return document.querySelector('#speech-player .dual-{sheet}-sheet').open"))
        assert axe_violations(driver) == [], sheet
        driver.save_screenshot(os.path.join(SHOTS, f"dual-{sheet}-sheet-375x667.png"))
        driver.find_element(By.CSS_SELECTOR, f"#speech-player .dual-{sheet}-sheet .sheet-close").click()


def test_the_tab_bar_moves_between_screens_and_a_wide_screen_keeps_now_playing_beside(server, admin):
    driver = make_driver(1280, 800)
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        driver.get(server.base + "/dual")
        wait(driver).until(lambda d: d.find_element(By.ID, "screen-now").is_displayed())
        for screen in SCREENS[1:]:
            driver.find_element(By.CSS_SELECTOR, f".tabbar a[href='#{screen}']").click()
            wait(driver).until(lambda d: d.find_element(By.ID, f"screen-{screen}").is_displayed())
            assert driver.find_element(By.ID, "screen-now").is_displayed(), "Now Playing stays beside on a wide screen"
            assert driver.find_element(By.CSS_SELECTOR, f".tabbar a[href='#{screen}']").get_attribute("aria-current") == "page"
            others = [s for s in SCREENS[1:] if s != screen]
            assert not any(driver.find_element(By.ID, f"screen-{s}").is_displayed() for s in others)
            driver.save_screenshot(os.path.join(SHOTS, f"dual-{screen}-1280x800.png"))
        assert not driver.find_element(By.CSS_SELECTOR, ".dual-mini").is_displayed()
    finally:
        driver.quit()


def test_the_speed_box_shows_whole_speeds(server, admin, browser):
    # At 1x, 2x and 3x the box showed nothing: its options were "1.0", "2.0", "3.0" and the page set "1".
    sign_in(browser, server, admin["username"], admin["password"])
    player = {"volume": 1, "mode": "quality", "boost_gain_db": 6, "voice_eq": False}
    for speed in [1, 2, 3, 1.25]:
        settings = {"music": {**player, "speed": speed}, "speech": {**player, "speed": 1}, "ducking": {"enabled": False, "level": 0.3}}
        status, body = request(server.base, "PUT", "/api/v1/dual/settings", settings, token=admin["token"])
        assert status == 200, body
        # A fresh page each time (a get of the same address with a #fragment only scrolls).
        browser.get(server.base + "/")
        browser.get(server.base + "/dual#now")
        shown = lambda d: d.execute_script(
            "const s = document.querySelector('#music-player .dual-speed'); return s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : ''")
        wait(browser).until(lambda d: shown(d) == f"{speed:g}×")


def test_the_lock_screen_scrubs_within_the_chapter(server, admin):
    driver = make_driver(1280, 800)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MEDIA_SESSION_SPY})
        sign_in(driver, server, admin["username"], admin["password"])
        driver.get(server.base + "/dual#books")
        wait(driver, 120).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books").text)
        status, shelf = request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])
        chapters = next(b for b in shelf["items"] if b["origin"] == "demo")["chapters"]
        driver.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-books .list-row-main").click()
        wait(driver).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "playing")
        # The third chapter, from the chapters sheet.
        driver.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters-open").click()
        driver.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='2'] > button").click()
        third = chapters[2]
        length = third["end"] - third["start"]
        wait(driver).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") >= third["start"])
        state = wait(driver).until(lambda d: d.execute_script(
            "const p = window.__positions.filter(Boolean).pop(); return p && Math.abs(p.duration - arguments[0]) < 0.05 ? p : null", length))
        assert 0 <= state["position"] <= length, state
        # A seek to 1 s on the lock screen is 1 s into the chapter, not the file's first second.
        driver.execute_script("window.__handlers.seekto({ action: 'seekto', seekTime: 1 })")
        wait(driver).until(lambda d: abs(d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") - (third["start"] + 1)) < 0.6)
        assert driver.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='2']").get_attribute("aria-current") == "true"
    finally:
        driver.quit()


def test_no_screen_scrolls_sideways_at_320_px_with_a_long_name(server):
    name = "n" * 32
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": name, "password": name + " password"})
    assert status == 201, account
    driver = make_driver(320, 640, mobile=True)
    try:
        sign_in(driver, server, name, name + " password")
        driver.get(server.base + "/dual")
        for screen in SCREENS:
            show(driver, screen)
            widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"#{screen} scrolls sideways at 320 px: {widths}"
    finally:
        driver.quit()


@pytest.mark.parametrize("width,height,mobile", [(320, 640, True), (375, 667, True), (1280, 800, False)])
def test_every_screen_is_axe_clean_and_fits_at_320_375_and_1280(server, width, height, mobile):
    name = f"axe{width}"
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": name, "password": name + " password"})
    assert status == 201, account
    driver = make_driver(width, height, mobile=mobile)
    try:
        sign_in(driver, server, name, name + " password")
        driver.get(server.base + "/dual")
        for screen in SCREENS:
            show(driver, screen)
            widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"#{screen} scrolls sideways at {width} px: {widths}"
            assert axe_violations(driver) == [], f"#{screen} at {width} px"
    finally:
        driver.quit()
