"""Back2Back on a 375x667 phone, as people trying it found it: the expanded Now Playing takes
the phone's width (it was squeezed into the 56 px cover column, "Collapse" broken a letter or
two a line); skipping a friend's pick, or tapping a queued song that passes over it, asks
first and names it; a guest's turn has the search in the first screen; the persona's
disclaimer reads whole; counts say "1 song"; the export links are 44 px tap targets."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, register, sign_in, text, type_into, wait
from test_back2back_screens import LINES, outside_first_screen, wrapped_buttons
from test_design_system import axe_violations, screenshot


def main_data(driver, key):
    return driver.find_element(By.ID, "main").get_attribute("data-" + key)


def state(server, base, account):
    status, body = request(server.base, "GET", base, token=account["token"])
    assert status == 200, body
    return body


def track(server, admin, query):
    status, found = request(server.base, "GET", f"/api/v1/catalog/search?q={query}", token=admin["token"])
    assert status == 200 and found["items"], found
    return found["items"][0]["id"]


def hosted_session(server, admin, title, query="entertainer"):
    """A session whose music plays on the host's speaker (a page of the API's, named so the
    others' pages are remotes), the host's pick playing and the AI's queued after it."""
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": title}, token=admin["token"])
    assert status == 201, session
    base = f"/api/v1/back2back/sessions/{session['id']}"
    assert request(server.base, "POST", base + "/player", {"device_id": "host-speaker", "device_kind": "computer"}, token=admin["token"])[0] == 200
    assert request(server.base, "POST", base + "/picks", {"track_id": track(server, admin, query)}, token=admin["token"])[0] == 200
    wait_for(lambda: state(server, base, admin)["queue"])
    return session, base


def wait_for(predicate, timeout=30):
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def tap_in_dialog(driver, element_id):
    """Taps a button of the open question, which must be wholly in the window (once the sheet
    has slid up)."""
    wait(driver).until(lambda d: d.execute_script("return document.getElementById('confirm-skip').getAnimations().length === 0"))
    box = driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: innerHeight, width: innerWidth};", element_id)
    assert 0 <= box["top"] and box["bottom"] <= box["height"] and 0 <= box["left"] and box["right"] <= box["width"], box
    driver.execute_script("document.getElementById(arguments[0]).click()", element_id)


def viewport_shot(driver, name):
    """What the window shows (a modal question over the page), not the whole page."""
    import os
    import base64
    from test_design_system import SHOTS
    os.makedirs(SHOTS, exist_ok=True)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png"})
    with open(os.path.join(SHOTS, f"{name}-375x667.png"), "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def words_broken_in_buttons(driver):
    """Shown buttons whose label takes more lines than it has words: a word broke ("Coll aps e").
    (A long label may wrap between its words.)"""
    return driver.execute_script(LINES + """
        return [...document.querySelectorAll('button:not(.b2b-song), a.btn')]
          .filter((b) => b.getClientRects().length && b.innerText.trim())
          .map((b) => [b.innerText.trim(), lines(b), b.innerText.trim().split(/\\s+/).length])
          .filter(([, n, words]) => n > words);""")


def dialog_open(driver):
    return driver.execute_script("return document.getElementById('confirm-skip').open")


def test_the_expanded_now_playing_takes_the_phones_width(server, admin):
    session, base = hosted_session(server, admin, "Expanded on a phone")
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, admin["username"], admin["password"])
        phone.get(f"{server.base}/back2back/{session['id']}")
        wait(phone).until(lambda d: d.find_elements(By.ID, "np-title") and d.find_elements(By.ID, "expand"))
        click(phone, By.ID, "expand")
        wait(phone).until(lambda d: text(d, "#expand") == "Collapse")
        phone.execute_script("document.getElementById('now').scrollIntoView()")
        # The text and the controls span the phone, less the page's and the panel's padding.
        widths = phone.execute_script("""
            return ['.np-text', '.np-controls', '.np-transport'].map((s) => document.querySelector('#now ' + s).getBoundingClientRect().width);""")
        inner = phone.execute_script("return innerWidth")
        assert all(w >= inner - 60 for w in widths), (widths, inner)
        # The cover is larger than the collapsed thumbnail, and no button's words break.
        assert phone.find_element(By.CSS_SELECTOR, "#now .np-art").rect["width"] > 100
        assert wrapped_buttons(phone) == []
        assert phone.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(phone) == []
        screenshot(phone, "back2back-now-playing-expanded", "375x667")
        click(phone, By.ID, "expand")
        wait(phone).until(lambda d: text(d, "#expand") == "Expand")
    finally:
        phone.quit()


def test_skipping_a_friends_pick_asks_first_and_a_guests_turn_has_the_search_in_view(server, admin):
    session, base = hosted_session(server, admin, "Friends' picks")
    guest = register(server, "ben")
    assert request(server.base, "POST", "/api/v1/back2back/sessions/join", {"invite_token": session["invite_token"]}, token=guest["token"])[0] == 200
    before = state(server, base, admin)
    hosts_pick = before["now_playing"]
    queued = before["queue"][0]
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "ben", "ben password")
        phone.get(f"{server.base}/back2back/{session['id']}")
        wait(phone).until(lambda d: text(d, "#np-title") == hosts_pick["song"]["title"] and d.find_elements(By.CSS_SELECTOR, "#queue button.b2b-song"))
        # The music plays on the host's computer: the guest's page says whose.
        assert "Now playing on admin's computer" in text(phone, "#player-line")

        # Skip: the host's pick is named, and nothing is skipped until the guest says so.
        click(phone, By.ID, "skip")
        wait(phone).until(dialog_open)
        question = f"Skip admin's pick “{hosts_pick['song']['title']}”?"
        assert text(phone, "#confirm-title") == question
        assert queued["song"]["title"] in text(phone, "#confirm-detail")
        assert phone.find_element(By.ID, "confirm-ok").is_displayed() and phone.find_element(By.ID, "confirm-keep").is_displayed()
        assert wrapped_buttons(phone) == []
        assert axe_violations(phone) == []
        viewport_shot(phone, "back2back-confirm-skip")
        tap_in_dialog(phone, "confirm-keep")
        wait(phone).until(lambda d: not dialog_open(d))
        assert state(server, base, admin)["now_playing"]["id"] == hosts_pick["id"], "kept: nothing skipped"

        # A tap on the queued song would pass over the host's pick too: asked, and kept.
        phone.execute_script("document.querySelector('#queue button.b2b-song').click()")
        wait(phone).until(dialog_open)
        assert text(phone, "#confirm-title") == question
        assert f"“{queued['song']['title']}” plays now instead." == text(phone, "#confirm-detail")
        tap_in_dialog(phone, "confirm-keep")
        wait(phone).until(lambda d: not dialog_open(d))
        assert state(server, base, admin)["now_playing"]["id"] == hosts_pick["id"]

        # Skip, and yes: the AI's pick plays, and the turn is the guest's.
        click(phone, By.ID, "skip")
        wait(phone).until(dialog_open)
        tap_in_dialog(phone, "confirm-ok")
        wait(phone).until(lambda d: text(d, "#np-title") == queued["song"]["title"])
        assert state(server, base, admin)["history"][-1]["id"] == hosts_pick["id"]
        wait(phone).until(lambda d: main_data(d, "turn") == "you")

        # The guest's own turn: the search is in the first screen, without scrolling.
        phone.execute_script("window.scrollTo(0, 0)")
        assert outside_first_screen(phone, ["turn", "song-search", "np-title"]) == []
        # Picking comes first: the search is above the song playing.
        assert phone.find_element(By.ID, "song-search").rect["y"] < phone.find_element(By.ID, "np-title").rect["y"]
        assert words_broken_in_buttons(phone) == []
        assert phone.execute_script("return document.documentElement.scrollWidth <= innerWidth")
        assert axe_violations(phone) == []
        screenshot(phone, "back2back-guest-turn", "375x667")

        # One result: "1 song", never "1 songs".
        type_into(phone, By.ID, "song-search", "entertainer")
        wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results li.track"))
        shown = len(phone.find_elements(By.CSS_SELECTOR, "#results li.track"))
        assert shown == 1, shown
        wait(phone).until(lambda d: d.find_element(By.ID, "results-status").get_attribute("textContent") == "1 song.")

        # The AI's pick, skipped by the guest: no question (nobody's friend chose it).
        ais_pick = state(server, base, admin)["now_playing"]
        assert ais_pick["picked_by"] == "ai"
        click(phone, By.ID, "skip")
        wait(phone).until(lambda d: state(server, base, admin)["now_playing"] is None or state(server, base, admin)["now_playing"]["id"] != ais_pick["id"])
        assert not dialog_open(phone)
    finally:
        phone.quit()


def test_the_persona_disclaimer_reads_whole_counts_agree_and_exports_are_tap_targets(server, admin):
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "Small print"}, token=admin["token"])
    assert status == 201, session
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, admin["username"], admin["password"])
        phone.get(f"{server.base}/back2back/{session['id']}")
        wait(phone).until(lambda d: "inspired by" in text(d, "#persona-line"))
        # The whole disclaimer shows: nothing cut off at the line's end.
        line = phone.execute_script("""
            const e = document.getElementById('persona-line'); const r = e.getBoundingClientRect();
            return {scroll: e.scrollWidth, client: e.clientWidth, right: r.right, width: innerWidth};""")
        assert line["scroll"] <= line["client"] + 1 and line["right"] <= line["width"], line
        assert text(phone, "#persona-line").endswith("any real DJ")
        # The export links are tap targets of at least 44 px.
        for link in ("export-m3u8", "export-xspf"):
            box = phone.find_element(By.ID, link).rect
            assert box["height"] >= 44, (link, box)
        screenshot(phone, "back2back-session-empty", "375x667")

        # A session of one song: its row on the home page says "1 song". (The rules queue the
        # AI's pick at once after a person's, so the count is made 1 in the answer the page reads.)
        phone.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            const realFetch = window.fetch;
            window.fetch = async (...args) => {
              const response = await realFetch(...args);
              if (!String(args[0]).startsWith('/api/v1/back2back/sessions?')) return response;
              const body = await response.clone().json();
              for (const s of body.items || []) s.song_count = s.title === 'Small print' ? 1 : s.song_count;
              return new Response(JSON.stringify(body), {status: response.status, headers: response.headers});
            };"""})
        phone.get(server.base + "/back2back")
        wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#sessions li a"))
        rows = phone.execute_script("return [...document.querySelectorAll('#sessions li')].map((li) => li.innerText)")
        row = next(r for r in rows if "Small print" in r)
        assert "1 song" in row and "1 songs" not in row, row
    finally:
        phone.quit()
