"""Back2Back's pages as a phone and a laptop show them: the session's controls (the turn, who
plays, Pause, Skip, the search) in the first screen of a 375x667 phone, drawn as icon buttons;
the home's screens (Sessions, Personas, a persona's editor, Settings) with their controls in
the first screen, Back between them, no button's words broken a letter a line; axe-core finding
nothing serious, nothing scrolling sideways at 320 px. Each page and screen is kept as a
screenshot under .build/screenshots at 375x667 and 1280x800."""
import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import make_driver, request
from helpers import b2b_screen, click, sign_in, text, wait
from test_design_system import axe_violations, screenshot

# What a person uses in a session without scrolling: whose turn, the song and its controls, the search.
SESSION_CONTROLS = ["session-title", "turn", "np-title", "seek", "toggle", "skip", "song-search"]
# Each home screen's controls a phone shows without scrolling (ids, or CSS selectors).
HOME_SCREENS = {
    "sessions": ["sessions-title", "#new-form input[name=title]", "persona-select", "turn-seconds", "new-start",
                 "your-sessions-title", "#sessions li:first-child a"],
    "personas": ["personas-title", "new-persona", "#personas li:first-child .list-row-title",
                 "#personas li:first-child a.persona-edit", "#personas li:first-child button.persona-delete",
                 "#personas li:last-child button.persona-delete", "tab-sessions", "tab-settings"],
    "persona/new": ["persona-title", "#persona-form input[name=name]", "#persona-form textarea[name=description]"],
    "settings": ["settings-title", "ai-status", "#settings-form input[name=song_selection_model]",
                 "#settings-form select[name=song_selection_effort]"],
}


def main_data(driver, key):
    return driver.find_element(By.ID, "main").get_attribute("data-" + key)


def outside_first_screen(driver, ids):
    """The controls not wholly inside the window as it first shows (ids or CSS selectors, with
    their boxes), above a tab bar fixed to its bottom and below the sticky header."""
    return driver.execute_script("""
        const bar = document.querySelector('.tabbar');
        const bottom = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
        const header = document.querySelector('header.top');
        const top = header ? header.getBoundingClientRect().bottom : 0;
        const out = [];
        for (const id of arguments[0]) {
          const e = /[ #.\\[]/.test(id) ? document.querySelector(id) : document.getElementById(id);
          const r = e ? e.getBoundingClientRect() : null;
          const below = e && bar && bar.contains(e) ? innerHeight : bottom;
          if (!r || r.width === 0 || r.top < top || r.bottom > below || r.left < 0 || r.right > innerWidth)
            out.push([id, r && {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]);
        }
        return out;""", ids)


# The lines a element's own text takes (its text nodes' line boxes, told apart by their tops).
LINES = """
    const lines = (e) => {
      const tops = new Set();
      const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
      }
      return tops.size;
    };"""


def wrapped_buttons(driver):
    """The shown buttons (and button-like links, tabs) whose words take more than one line, with
    their text: "Edit" drawn "E d i t", a letter a line, was four. (A queued song's row, a button
    holding its title over its artist, is checked word by word instead.)"""
    return driver.execute_script(LINES + """
        return [...document.querySelectorAll('button:not(.b2b-song), a.btn, .tabbar-item, a.icon-btn')]
          .filter((b) => b.getClientRects().length && b.innerText.trim())
          .map((b) => [b.innerText.trim(), lines(b)])
          .filter(([, n]) => n > 1);""")


def broken_words(driver):
    """Shown labels, legends and headings whose text takes more lines than it has words: a word
    broke ("Mod el" beside its field on a phone)."""
    return driver.execute_script("""
        const out = [];
        for (const e of document.querySelectorAll('label, legend, h2, .hint')) {
          if (!e.getClientRects().length) continue;
          for (const n of e.childNodes) {
            const words = n.nodeType === Node.TEXT_NODE ? n.textContent.trim().split(/\\s+/).filter(Boolean) : [];
            if (!words.length) continue;
            const range = document.createRange();
            range.selectNodeContents(n);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > words.length) out.push([n.textContent.trim(), tops.size]);
          }
        }
        return out;""")


def line_counts(driver, css):
    return driver.execute_script(LINES + "return [...document.querySelectorAll(arguments[0])].map(lines);", css)


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
        wait(driver).until(lambda d: "Up next" in text(d, "#queue") or "backup" in text(d, "#queue"))
        driver.execute_script("window.scrollTo(0, 0)")
        assert driver.execute_script("return innerHeight") == height
        assert outside_first_screen(driver, SESSION_CONTROLS) == []
        # The transport is Dual Player's: icon buttons named for screen readers, no words in them.
        for control, name in [("back15", "Back 15 seconds"), ("toggle", "Pause"), ("fwd15", "Forward 15 seconds"), ("skip", "Skip")]:
            button = driver.find_element(By.ID, control)
            assert button.get_attribute("aria-label") == name and button.find_elements(By.CSS_SELECTOR, "svg.icon-svg")
            assert button.text.strip() in ("", "15"), (control, button.text)
        # Up next: the title over the artist, each word whole ("Traditional" took three lines).
        titles = driver.find_elements(By.CSS_SELECTOR, "#queue .b2b-song-title")
        artists = driver.find_elements(By.CSS_SELECTOR, "#queue .b2b-song-artist")
        assert titles and len(titles) == len(artists)
        assert all(n == 1 for n in line_counts(driver, "#queue .b2b-song-artist")), line_counts(driver, "#queue .b2b-song-artist")
        for title, artist in zip(titles, artists):
            assert artist.rect["y"] >= title.rect["y"] + title.rect["height"] - 1
            assert line_counts(driver, "#queue .b2b-song-title")[0] <= len(title.text.split())
        assert wrapped_buttons(driver) == []
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(driver) == []
        screenshot(driver, "back2back-session", size)

        driver.get(server.base + "/back2back")
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#persona-select option"))
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sessions li a"))
        assert outside_first_screen(driver, HOME_SCREENS["sessions"]) == []
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(driver) == []
        screenshot(driver, "back2back-home", size)
    finally:
        driver.quit()


@pytest.mark.parametrize("width,height,mobile", [(375, 667, True), (1280, 800, False)])
def test_every_home_screen_fits_and_reads_whole(server, admin, width, height, mobile):
    """Sessions, Personas, the persona editor and Settings: each is a screen of its own, its
    controls in the first screen, no button's words broken, axe-core clean, no sideways scroll."""
    driver = make_driver(width, height, mobile=mobile)
    if not mobile:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    size = f"{width}x{height}"
    try:
        playing_session(server, admin, f"Home screens {size}")
        sign_in(driver, server, admin["username"], admin["password"])
        driver.get(server.base + "/back2back")
        wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#personas li.persona") and d.find_elements(By.CSS_SELECTOR, "#sessions li a"))
        for screen, controls in HOME_SCREENS.items():
            b2b_screen(driver, screen)
            if screen == "settings":
                wait(driver).until(lambda d: text(d, "#ai-status") and text(d, "#ai-source"))
            driver.execute_script("window.scrollTo(0, 0)")
            # One screen at a time: the others are hidden.
            shown = driver.execute_script("return [...document.querySelectorAll('.b2b-screen')].filter(s => !s.hidden).map(s => s.dataset.screen)")
            assert shown == [screen.split("/")[0]]
            assert outside_first_screen(driver, controls) == [], screen
            assert wrapped_buttons(driver) == [], screen
            assert broken_words(driver) == [], screen
            assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), screen
            assert axe_violations(driver) == [], screen
            screenshot(driver, f"back2back-home-{screen.replace('/', '-')}", size)
        # A persona's row: its name on one line, Edit and Delete beside it, named for it.
        b2b_screen(driver, "personas")
        rows = driver.find_elements(By.CSS_SELECTOR, "#personas li.persona")
        for row in rows:
            name = row.find_element(By.CSS_SELECTOR, ".list-row-title")
            edit = row.find_element(By.CSS_SELECTOR, "a.persona-edit")
            delete = row.find_element(By.CSS_SELECTOR, "button.persona-delete")
            assert edit.get_attribute("aria-label") == f"Edit {name.text}" and edit.get_attribute("title") == "Edit"
            assert delete.get_attribute("aria-label") == f"Delete {name.text}" and delete.get_attribute("title") == "Delete"
            for action in (edit, delete):
                assert abs(action.rect["y"] - row.rect["y"]) < row.rect["height"]
                assert action.rect["x"] > name.rect["x"] + name.rect["width"] - 1
        assert all(n == 1 for n in line_counts(driver, "#personas .list-row-title"))
    finally:
        driver.quit()


def test_back_returns_through_the_home_screens(server, admin, browser):
    """The tab bar and a persona's Edit change the address: Back retraces them, and the tab of
    the screen shown is the current one."""
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/back2back")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#personas li.persona"))

    def showing(name, tab):
        wait(browser).until(lambda d: d.find_element(By.ID, f"screen-{name}").is_displayed()
                            and d.find_element(By.ID, f"tab-{tab}").get_attribute("aria-current") == "page")
        assert [t.get_attribute("id") for t in browser.find_elements(By.CSS_SELECTOR, ".tabbar [aria-current=page]")] == [f"tab-{tab}"]

    showing("sessions", "sessions")
    click(browser, By.ID, "tab-personas")
    showing("personas", "personas")
    click(browser, By.CSS_SELECTOR, "#personas a[aria-label='Edit Modern Electronic DJ']")
    showing("persona", "personas")
    wait(browser).until(lambda d: d.find_element(By.NAME, "name").get_attribute("value") == "Modern Electronic DJ")
    assert text(browser, "#persona-title") == "Edit Modern Electronic DJ"
    browser.back()
    showing("personas", "personas")
    click(browser, By.ID, "tab-settings")
    showing("settings", "settings")
    browser.back()
    showing("personas", "personas")
    browser.back()
    showing("sessions", "sessions")
    browser.forward()
    showing("personas", "personas")
    # New persona opens an empty editor; Cancel goes back to the list.
    click(browser, By.ID, "new-persona")
    showing("persona", "personas")
    assert text(browser, "#persona-title") == "New persona" and browser.find_element(By.NAME, "name").get_attribute("value") == ""
    click(browser, By.ID, "persona-cancel")
    showing("personas", "personas")


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
        # Its live connection opens and closes: the server hears the page go. (Waited for: a
        # navigation right after would abort a stream that had not opened yet, and the server
        # would never hear of the page.)
        driver.set_script_timeout(30)
        driver.execute_async_script(
            f"const done = arguments[0]; const s = new EventSource('{base}/events?device_id=gone');"
            "s.onopen = () => { s.close(); done(); };")
        # Gone once its grace is over, with no other page open: the song waits for Play here
        # (a page open by then would carry on by itself).
        WebDriverWait(driver, 30).until(lambda d: request(server.base, "GET", base, token=admin["token"])[1].get("player") is None)
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


@pytest.mark.parametrize("width,mobile", [(320, True), (375, True), (1280, False)])
def test_no_back2back_page_scrolls_sideways_or_fails_axe(server, admin, width, mobile):
    """Every page and screen, at 320, 375 and 1280 px: nothing wider than the window, and
    axe-core finding nothing serious."""
    session = playing_session(server, admin, "N" * 64)
    driver = make_driver(width, 640 if mobile else 800, mobile=mobile)
    try:
        sign_in(driver, server, admin["username"], admin["password"])
        for path in ["/back2back", "/back2back#personas", "/back2back#persona/new", "/back2back#settings",
                     f"/back2back/{session['id']}", f"/back2back/join/{session['invite_token']}"]:
            driver.get(server.base + path)
            wait(driver).until(lambda d: d.find_elements(By.ID, "main"))
            if "#" in path:
                # Only the fragment changed: the page stays, and shows that screen.
                b2b_screen(driver, path.split("#")[1])
            if path.endswith(session["id"]):
                wait(driver).until(lambda d: main_data(d, "player") == "here")
            widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
            assert widths[0] <= widths[1], f"{path} scrolls sideways at {width} px: {widths}"
            assert axe_violations(driver) == [], (path, width)
    finally:
        driver.quit()


def test_without_an_ai_service_no_session_screen_claims_one(server, admin, browser):
    """The server here has no AI endpoint: Juke's own DJ picks, so the session calls the DJ by
    its persona's name ("Rare Groove Collector is choosing…", "…'s backup"), never "the AI"."""
    status, settings = request(server.base, "GET", "/api/v1/back2back/settings", token=admin["token"])
    assert status == 200 and settings["ai_configured"] is False, settings
    session = playing_session(server, admin, "Who picks")
    base = f"/api/v1/back2back/sessions/{session['id']}"
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(f"{server.base}/back2back/{session['id']}")
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    status, found = request(server.base, "GET", "/api/v1/catalog/search?q=entertainer", token=admin["token"])
    assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
    wait(browser).until(lambda d: "backup" in text(d, "#queue") or "Up next" in text(d, "#queue"))
    persona = session["persona_name"]
    wait(browser).until(lambda d: persona in text(d, "main"))
    seen = text(browser, "main") + "\n" + text(browser, "#people")
    assert " AI" not in seen and "AI " not in seen, seen
    browser.get(f"{server.base}/")
    assert "AI" not in text(browser, "main"), text(browser, "main")
