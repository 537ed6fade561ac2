"""The screen stays on while a RunBeat workout or a TuneTrivia game is on (wake-lock.js): the
lock is asked for when the run or game starts, asked for again when the page comes back after
being hidden (the browser lets go of it then), and let go when the run or game ends. Headless
Chromium grants no real wake lock, so the page's navigator.wakeLock is a stand-in, put in
before any script of the page runs, that counts what it is asked."""
from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, register, sign_in, wait
from test_runbeat_browser import end_workout, start_simulated

FAKE_WAKE_LOCK = """
window.__wake = { requests: 0, released: 0, held: [] };
const fakeWakeLock = {
  async request(type) {
    window.__wake.requests += 1;
    const listeners = [];
    const sentinel = {
      type, released: false,
      addEventListener(kind, listener) { if (kind === 'release') listeners.push(listener); },
      async release() {
        if (sentinel.released) return;
        sentinel.released = true;
        window.__wake.released += 1;
        window.__wake.held = window.__wake.held.filter((s) => s !== sentinel);
        listeners.forEach((listener) => listener());
      },
    };
    window.__wake.held.push(sentinel);
    return sentinel;
  },
};
Object.defineProperty(Navigator.prototype, 'wakeLock', { get() { return fakeWakeLock; }, configurable: true });
// The browser hides the page (it lets go of the lock) and shows it again.
let visibility = 'visible';
Object.defineProperty(Document.prototype, 'visibilityState', { get() { return visibility; }, configurable: true });
window.__setVisible = (visible) => {
  visibility = visible ? 'visible' : 'hidden';
  if (!visible) for (const sentinel of [...window.__wake.held]) sentinel.release();
  document.dispatchEvent(new Event('visibilitychange'));
};
"""


def wake(driver):
    return driver.execute_script("return { requests: window.__wake.requests, held: window.__wake.held.length }")


def with_fake_wake_lock(driver):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_WAKE_LOCK})


def test_a_workout_keeps_the_screen_on_until_it_ends(server, admin, browser):
    register(server, "wakeful")
    with_fake_wake_lock(browser)
    sign_in(browser, server, "wakeful", "wakeful password")
    browser.get(server.base + "/runbeat")
    wait(browser).until(lambda d: d.find_elements(By.ID, "rb-start"))
    assert wake(browser) == {"requests": 0, "held": 0}  # no workout yet: the screen may sleep

    start_simulated(browser, speed="1", plan="free")
    wait(browser).until(lambda d: wake(d)["held"] == 1)

    # Hidden, the browser lets go; shown again mid-run, the page asks again.
    browser.execute_script("window.__setVisible(false)")
    assert wake(browser)["held"] == 0
    browser.execute_script("window.__setVisible(true)")
    wait(browser).until(lambda d: wake(d) == {"requests": 2, "held": 1})

    end_workout(browser)
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    wait(browser).until(lambda d: wake(d)["held"] == 0)
    # Ended, a page shown again asks for nothing.
    browser.execute_script("window.__setVisible(false); window.__setVisible(true)")
    assert wake(browser) == {"requests": 2, "held": 0}


def test_a_game_keeps_the_screen_on_until_it_ends(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Wakeful quiz", "num_songs": 5}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    player = register(server, "wakefulplayer")
    assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player["token"])[0] == 200
    with_fake_wake_lock(browser)
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/tunetrivia/" + game["id"])
    wait(browser).until(lambda d: d.find_elements(By.ID, "start"))
    wait(browser).until(lambda d: wake(d) == {"requests": 1, "held": 1})

    browser.execute_script("window.__setVisible(false)")
    browser.execute_script("window.__setVisible(true)")
    wait(browser).until(lambda d: wake(d) == {"requests": 2, "held": 1})

    click(browser, By.ID, "start")
    browser.execute_script("window.confirm = () => true")
    wait(browser).until(lambda d: d.find_elements(By.XPATH, "//button[text()='End game']"))
    click(browser, By.XPATH, "//button[text()='End game']")
    wait(browser).until(lambda d: d.find_elements(By.ID, "podium"))
    wait(browser).until(lambda d: wake(d)["held"] == 0)
    browser.execute_script("window.__setVisible(false); window.__setVisible(true)")
    assert wake(browser) == {"requests": 2, "held": 0}
