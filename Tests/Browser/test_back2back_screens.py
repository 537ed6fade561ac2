"""Back2Back's pages as a phone and a laptop show them: the session's controls (the turn, who
plays, Pause, Skip, the search) in the first screen of a 375x667 phone, the home's new-session
form with the turn length, axe-core finding nothing serious, nothing scrolling sideways at
320 px. Each page is kept as a screenshot under .build/screenshots at 375x667 and 1280x800."""
import os

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import sign_in, text, wait
from test_design_system import axe_violations, screenshot

# What a person uses in a session without scrolling: whose turn, the song and its controls, the search.
SESSION_CONTROLS = ["session-title", "turn", "np-title", "seek", "toggle", "skip", "song-search"]
HOME_CONTROLS = ["new-form", "persona-select", "turn-seconds"]


def main_data(driver, key):
    return driver.find_element(By.ID, "main").get_attribute("data-" + key)


def outside_first_screen(driver, ids):
    """The controls not wholly inside the window as it first shows (ids, with their boxes)."""
    return driver.execute_script("""
        const out = [];
        for (const id of arguments[0]) {
          const e = document.getElementById(id);
          const r = e ? e.getBoundingClientRect() : null;
          if (!r || r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)
            out.push([id, r && {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]);
        }
        return out;""", ids)


def playing_session(server, admin, title):
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": title}, token=admin["token"])
    assert status == 201, session
    return session


@pytest.mark.parametrize("width,height,mobile", [(375, 667, True), (1280, 800, False)])
def test_the_session_and_home_fit_the_first_screen(server, admin, width, height, mobile):
    driver = make_driver(width, height, mobile=mobile)
    if not mobile:
        # The window's own bars take from its height: the page gets exactly 1280x800.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    size = f"{width}x{height}"
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        session = playing_session(server, admin, f"Screens {size} with a title long enough to need cutting on a phone")
        base = f"/api/v1/back2back/sessions/{session['id']}"
        driver.get(f"{server.base}/back2back/{session['id']}")
        wait(driver).until(lambda d: main_data(d, "player") == "here")
        status, found = request(server.base, "GET", "/api/v1/catalog/search?q=entertainer", token=admin["token"])
        assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
        wait(driver).until(lambda d: main_data(d, "audio") == "playing" and d.find_elements(By.ID, "np-title"))
        wait(driver).until(lambda d: "Up next" in text(d, "#queue") or "AI" in text(d, "#queue"))
        driver.execute_script("window.scrollTo(0, 0)")
        assert driver.execute_script("return innerHeight") == height
        assert outside_first_screen(driver, SESSION_CONTROLS) == []
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(driver) == []
        screenshot(driver, "back2back-session", size)

        driver.get(server.base + "/back2back")
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#persona-select option"))
        assert outside_first_screen(driver, HOME_CONTROLS) == []
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(driver) == []
        screenshot(driver, "back2back-home", size)
    finally:
        driver.quit()


def test_a_remote_waiting_for_a_takeover_fits_the_first_screen_of_a_phone(server, admin):
    """A phone whose song's playing page went away: Play here is at the top, with the song."""
    session = playing_session(server, admin, "Waiting")
    base = f"/api/v1/back2back/sessions/{session['id']}"
    status, found = request(server.base, "GET", "/api/v1/catalog/search?q=greensleeves", token=admin["token"])
    # A page (of the API's) plays the song, and goes.
    assert request(server.base, "POST", base + "/player", {"device_id": "gone"}, token=admin["token"])[0] == 200
    assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
    driver = make_driver(375, 667, mobile=True)
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        # Its live connection opens and closes: the server hears the page go.
        driver.execute_script(f"new EventSource('{base}/events?device_id=gone').onopen = (e) => e.target.close();")
        driver.get(f"{server.base}/back2back/{session['id']}")
        wait(driver).until(lambda d: main_data(d, "waiting") == "true" and d.find_elements(By.ID, "np-title"))
        assert outside_first_screen(driver, ["turn", "player-line", "play-here", "np-title", "toggle", "skip"]) == []
        assert axe_violations(driver) == []
        screenshot(driver, "back2back-session-waiting", "375x667")
    finally:
        driver.quit()


def test_the_new_session_form_sets_the_turn_length_as_the_api_does(server, admin, browser):
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/back2back")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#persona-select option"))
    form = browser.find_element(By.ID, "new-form")
    field = browser.find_element(By.ID, "turn-seconds")
    assert "0 for no limit" in text(browser, "#turn-hint")
    # Over 600 s: refused where the form is, as the API refuses it; no session is made.
    before = request(server.base, "GET", "/api/v1/back2back/sessions?limit=1", token=admin["token"])[1]["total"]
    form.find_element(By.NAME, "title").send_keys("Quick turns")
    field.send_keys("601")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser).until(lambda d: "600 seconds" in text(d, "#new-error"))
    assert request(server.base, "GET", "/api/v1/back2back/sessions?limit=1", token=admin["token"])[1]["total"] == before
    # 5 s is made 15, as the API makes it.
    field.clear()
    field.send_keys("5")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "main.b2b-session"))
    session_id = browser.find_element(By.ID, "main").get_attribute("data-session")
    status, body = request(server.base, "GET", f"/api/v1/back2back/sessions/{session_id}", token=admin["token"])
    assert body["title"] == "Quick turns" and body["turn_seconds"] == 15


def test_no_back2back_page_scrolls_sideways_at_320_px(server, admin):
    session = playing_session(server, admin, "N" * 64)
    driver = make_driver(320, 640, mobile=True)
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        for path in ["/back2back", f"/back2back/{session['id']}", f"/back2back/join/{session['invite_token']}"]:
            driver.get(server.base + path)
            wait(driver).until(lambda d: d.find_elements(By.ID, "main"))
            if path.endswith(session["id"]):
                wait(driver).until(lambda d: main_data(d, "player") == "here")
            widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"{path} scrolls sideways at 320 px: {widths}"
    finally:
        driver.quit()
