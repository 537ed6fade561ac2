"""Dual Player keeps the screen on while music or speech plays, through the shared
wake-lock.js: the lock is asked for when a player starts, asked for again when the page comes
back after being hidden (the browser lets go of it then), and let go when nothing plays.
Headless Chromium grants no real wake lock: the page's navigator.wakeLock is the stand-in of
test_wake_lock.py, which counts what it is asked."""
from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, sign_in, wait
from test_dual_player_browser import advancing, choose, dual  # noqa: F401 (dual is a fixture)
from test_wake_lock import wake, with_fake_wake_lock


def test_the_screen_stays_on_while_a_player_plays(dual, browser):  # noqa: F811
    juke, token = dual
    status, page = request(juke.base, "GET", "/api/v1/catalog/tracks?limit=50", token=token)
    assert status == 200
    song = next(t for t in page["items"] if t["format"] != "mp4")
    with_fake_wake_lock(browser)
    sign_in(browser, juke, "listener", "listener password")
    browser.get(juke.base + "/dual")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#music-player .dual-play"))
    assert wake(browser) == {"requests": 0, "held": 0}  # nothing plays: the screen may sleep

    choose(browser, "music", song["title"], song["title"])
    assert advancing(browser, "music")
    wait(browser).until(lambda d: wake(d) == {"requests": 1, "held": 1})

    # Hidden, the browser lets go; shown again while music plays, the page asks again.
    browser.execute_script("window.__setVisible(false)")
    assert wake(browser)["held"] == 0
    browser.execute_script("window.__setVisible(true)")
    wait(browser).until(lambda d: wake(d) == {"requests": 2, "held": 1})

    # Paused, nothing plays: the lock goes, and a page shown again asks for nothing.
    click(browser, By.CSS_SELECTOR, "#music-player .dual-play")
    wait(browser).until(lambda d: wake(d)["held"] == 0)
    browser.execute_script("window.__setVisible(false); window.__setVisible(true)")
    assert wake(browser) == {"requests": 2, "held": 0}
