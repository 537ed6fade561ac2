"""TuneTrivia on the phones people played it on (375x667, 320 wide): the guess form stays
usable with the on-screen keyboard up (Artist, Song and Submit in the part of the screen that
shows, Enter going from Artist to Song and from Song to sending); once the round's time is up
the phone says so; in host mode the answer stays hidden on the phone playing the clip until
the host asks; the invite code keeps to one line; the invite link's sign-in page says whose
game it is, and someone signed in who follows it is in the game at once; and with no AI
configured, no page claims an AI writes the trivia."""
import os
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import make_driver, request
from helpers import click, register, sign_in, text, wait

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")


def size(driver, width, height):
    """The page's viewport as a phone's (mobile emulation)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
    wait(driver, 10).until(lambda d: d.execute_script(
        "return innerWidth === arguments[0] && Math.round(visualViewport.height) === arguments[1]", width, height))


def shot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, f"tunetrivia-{name}.png"))


def visible(driver, css):
    """Why the element is not wholly in the part of the screen that shows (the visual
    viewport, below the sticky header) and on top there; "" when it is."""
    return driver.execute_script("""
        const e = document.querySelector(arguments[0]);
        if (!e) return "missing";
        const r = e.getBoundingClientRect(), v = visualViewport;
        const header = document.querySelector("header.top").getBoundingClientRect().bottom;
        const top = Math.max(v.offsetTop, header), bottom = v.offsetTop + v.height;
        if (r.height <= 0 || r.top < top - 0.5 || r.bottom > bottom + 0.5) return `${Math.round(r.top)}..${Math.round(r.bottom)} not in ${Math.round(top)}..${Math.round(bottom)}`;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit === e || e.contains(hit) ? "" : "covered by " + (hit ? hit.tagName + "." + hit.className : "nothing");
    """, css)


def game(server, host, title, players, **settings):
    body = {"title": title, "num_songs": 5, "seconds_per_song": 30, **settings}
    status, created = request(server.base, "POST", "/api/v1/tunetrivia/sessions", body, token=host["token"])
    assert status == 201, created
    base = f"/api/v1/tunetrivia/sessions/{created['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=host["token"])[0] == 200
    for player in players:
        if settings.get("mode") == "host":
            assert request(server.base, "POST", base + "/players", {"display_name": player}, token=host["token"])[0] == 201
        else:
            assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": created["invite_code"]}, token=player["token"])[0] == 200
    return created, base


def test_the_guess_form_fits_above_the_keyboard_and_enter_moves_on(server, admin):
    guest = register(server, "keyboardguest")
    created, base = game(server, admin, "Keyboard", [guest])
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "keyboardguest", "keyboardguest password")
        phone.get(server.base + "/tunetrivia/" + created["id"])
        wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
        assert request(server.base, "POST", base + "/start", token=admin["token"])[0] == 200
        wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#guess-form input[name=artist]"))
        size(phone, 375, 667)
        phone.find_element(By.CSS_SELECTOR, "#guess-form input[name=artist]").click()
        # The keyboard up: half the screen, 330 px of it left to show the page.
        size(phone, 375, 330)
        problems = lambda d: {css: visible(d, css) for css in ["#guess-form input[name=artist]", "#guess-form input[name=song]", "#submit-guess"] if visible(d, css)}
        try:
            wait(phone, 10).until(lambda d: not problems(d))
        finally:
            shot(phone, "player-guess-keyboard")
        assert problems(phone) == {}, problems(phone)
        widths = phone.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert widths[0] <= widths[1], widths

        # Enter in Artist goes to Song (nothing is sent); Enter in Song sends the answer.
        artist = phone.find_element(By.CSS_SELECTOR, "#guess-form input[name=artist]")
        artist.send_keys("Somebody", Keys.ENTER)
        wait(phone, 5).until(lambda d: d.execute_script("return document.activeElement.name") == "song")
        assert not phone.find_elements(By.ID, "locked")
        assert not request(server.base, "GET", base + "/state", token=guest["token"])[1]["guesses"]
        phone.switch_to.active_element.send_keys("Something", Keys.ENTER)
        wait(phone).until(lambda d: "Somebody / Something" in text(d, "#locked"))
    finally:
        phone.quit()


def test_the_phone_says_when_the_time_is_up(server, admin):
    late = register(server, "lateguest")
    created, base = game(server, admin, "Late", [late], seconds_per_song=10)
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "lateguest", "lateguest password")
        phone.get(server.base + "/tunetrivia/" + created["id"])
        wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
        assert request(server.base, "POST", base + "/start", token=admin["token"])[0] == 200
        wait(phone).until(lambda d: d.find_elements(By.ID, "guess-form"))
        # The clip ends: the form gives way to plain words, and the server refuses the answer.
        wait(phone, 25).until(lambda d: "Time's up" in text(d, "#time-up"))
        assert not phone.find_elements(By.ID, "guess-form")
        # Once the network's grace (3 s, Game.answerGrace) is over too, by the server's clock
        # (this machine's), the answer is refused with its own code.
        ends = request(server.base, "GET", base + "/state", token=late["token"])[1]["round"]["clip_ends_at_ms"]
        wait(phone, 15).until(lambda d: time.time() * 1000 > ends + 3500)
        status, body = request(server.base, "POST", base + "/guess", {"artist_guess": "x", "song_guess": "y"}, token=late["token"])
        assert status == 409 and body["error"] == "too_late", body
    finally:
        phone.quit()


def test_in_host_mode_the_answer_waits_for_the_host(server, admin):
    created, base = game(server, admin, "Host mode", ["Alice", "Bob"], mode="host")
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, admin["username"], admin["password"])
        phone.get(server.base + "/tunetrivia/" + created["id"])
        wait(phone).until(lambda d: d.find_elements(By.ID, "start"))
        click(phone, By.ID, "start")
        wait(phone).until(lambda d: d.find_elements(By.ID, "reveal"))
        song = request(server.base, "GET", base + "/state", token=admin["token"])[1]["round"]
        assert not phone.find_elements(By.ID, "answer")
        assert song["title"] not in text(phone, "#main"), "the answer shows before the host asks"
        click(phone, By.ID, "show-answer")
        wait(phone).until(lambda d: song["title"] in text(d, "#answer"))
        click(phone, By.ID, "hide-answer")
        wait(phone).until(lambda d: not d.find_elements(By.ID, "answer"))
        click(phone, By.ID, "reveal")
        wait(phone).until(lambda d: song["title"] in text(d, "#answer"))
    finally:
        phone.quit()


def test_the_invite_fits_one_line_and_its_link_says_whose_game_it_is(server, admin):
    created, base = game(server, admin, "Friday Night Tunes", [])
    status, me = request(server.base, "GET", "/api/v1/auth/me", token=admin["token"])
    host_name = me.get("display_name") or me["username"]
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, admin["username"], admin["password"])
        phone.get(server.base + "/tunetrivia/" + created["id"])
        wait(phone).until(lambda d: text(d, "#invite-code") == created["invite_code"])
        for width in (320, 375):
            size(phone, width, 667)
            lines = phone.execute_script("""
                const e = document.getElementById("invite-code");
                const range = document.createRange(); range.selectNodeContents(e);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                return {lines: tops.size, overflow: e.scrollWidth > e.clientWidth + 1};""")
            assert lines == {"lines": 1, "overflow": False}, f"the invite code at {width} px: {lines}"
        shot(phone, "host-lobby")

        # Signed out, the invite link's sign-in page says whose game it is.
        link = phone.find_element(By.ID, "invite-link").get_attribute("href")
        guest = make_driver(375, 667, mobile=True)
        try:
            guest.get(link)
            wait(guest).until(lambda d: d.find_elements(By.ID, "username"))
            assert f"Join {host_name}’s TuneTrivia game" in text(guest, "h1"), text(guest, "h1")
            assert "Friday Night Tunes" in text(guest, "main")
            shot(guest, "invite-sign-in")
            # Signed in (an account made elsewhere), the same link is the game at once: no form to tap.
            register(server, "scanner")
            guest.find_element(By.ID, "username").send_keys("scanner")
            guest.find_element(By.ID, "password").send_keys("scanner password")
            guest.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait(guest).until(lambda d: d.find_elements(By.ID, "waiting"))
        finally:
            guest.quit()
        # Already signed in, following the link (scanning the QR code) is the game at once.
        register(server, "scannertwo")
        guest = make_driver(375, 667, mobile=True)
        try:
            sign_in(guest, server, "scannertwo", "scannertwo password")
            guest.get(link)
            wait(guest).until(lambda d: d.find_elements(By.ID, "waiting"))
            assert guest.current_url.split("#")[0].endswith("/tunetrivia/" + created["id"])
            names = [p["display_name"] for p in request(server.base, "GET", base + "/state", token=admin["token"])[1]["players"]]
            assert "scanner" in names and "scannertwo" in names, names
        finally:
            guest.quit()
    finally:
        phone.quit()


def test_with_no_ai_configured_no_page_claims_one(server, admin, browser):
    created, base = game(server, admin, "Writers", [], trivia_enabled=True)
    sign_in(browser, server, admin["username"], admin["password"])
    pages = {"home": ("/tunetrivia", "#new-form"), "songs": (f"/tunetrivia/{created['id']}#songs", "#rounds li"),
             "settings": (f"/tunetrivia/{created['id']}#settings", "#settings-form")}
    for name, (path, shown) in pages.items():
        browser.get(server.base + path)
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, shown))
        words = browser.execute_script("return document.body.innerText + ' ' + [...document.querySelectorAll('[title], [aria-label], [placeholder]')].map((e) => e.title + ' ' + e.getAttribute('aria-label') + ' ' + e.placeholder).join(' ')")
        assert not re.search(r"\bAI\b|ChatGPT|OpenAI|GPT", words), f"{name} claims an AI: {re.findall(r'.{0,40}(?:AI|GPT).{0,40}', words)}"
    # The writer is named where trivia is offered: Juke, from the library.
    browser.get(server.base + "/tunetrivia")
    label = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "input[name=trivia_enabled]").find_element(By.XPATH, "..")).text
    assert "written by Juke from your library" in label, label
    browser.get(server.base + f"/tunetrivia/{created['id']}#settings")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#settings-form"))
    label = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#settings-form input[name=trivia_enabled]").find_element(By.XPATH, "..").get_attribute("textContent"))
    assert "written by Juke from your library" in label, label
