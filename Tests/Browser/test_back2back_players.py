"""Back2Back's one playing page, as a party uses it: a copied tab (a duplicate carries the
tab's sessionStorage, so the page's id) is a remote and never echoes; when the playing page
goes away another open page (the guest's too) carries on at once, where the sound stopped,
not where the server's clock ran on to; a guest's remote shows only what a guest may do, and
says why."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import register, sign_in, text, wait


def main_data(driver, key):
    return driver.find_element(By.ID, "main").get_attribute("data-" + key)


def audio_playing(driver):
    """Where this page's playing deck is, or None when nothing plays in it."""
    return driver.execute_script(
        "const a = [...document.querySelectorAll('audio')].find((x) => !x.paused);"
        "return a ? a.currentTime : null;")


def device_key(session):
    return f"b2b-device-{session['id']}"


def start_session(server, admin, browser, title, query):
    """A session whose host's page plays a song; (session, its API path, its page's URL)."""
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": title}, token=admin["token"])
    assert status == 201, session
    base = f"/api/v1/back2back/sessions/{session['id']}"
    url = f"{server.base}/back2back/{session['id']}"
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(url)
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    status, found = request(server.base, "GET", f"/api/v1/catalog/search?q={query}", token=admin["token"])
    assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
    wait(browser).until(lambda d: main_data(d, "audio") == "playing")
    return session, base, url


def test_a_copied_tab_is_a_remote_and_never_echoes(server, admin, browser):
    session, base, url = start_session(server, admin, browser, "Copied tab", "entertainer")
    first = browser.current_window_handle
    original = browser.execute_script("return sessionStorage.getItem(arguments[0])", device_key(session))
    assert original

    # A duplicated tab starts with a copy of the tab's sessionStorage, so with the playing page's id.
    browser.switch_to.new_window("tab")
    browser.get(server.base + "/back2back")
    browser.execute_script("sessionStorage.setItem(arguments[0], arguments[1])", device_key(session), original)
    browser.get(url)
    wait(browser).until(lambda d: main_data(d, "player") == "remote")
    assert main_data(browser, "device") != original, "the copy keeps an id of its own"
    assert browser.execute_script("return sessionStorage.getItem(arguments[0])", device_key(session)) != original
    start = wait(browser).until(lambda d: int(main_data(d, "position") or 0) >= 1 and int(main_data(d, "position")))
    wait(browser).until(lambda d: int(main_data(d, "position")) >= start + 2)
    assert audio_playing(browser) is None, "the copy plays too: the room hears an echo"
    assert "another of your devices" in text(browser, "#player-line")

    # The session still names the first tab, which plays on.
    status, body = request(server.base, "GET", base, token=admin["token"])
    assert body["player"]["device_id"] == original
    browser.switch_to.window(first)
    assert main_data(browser, "player") == "here" and audio_playing(browser) is not None


def test_when_the_playing_tab_goes_another_plays_on_where_the_sound_stopped(server, admin, browser):
    session, base, url = start_session(server, admin, browser, "Closed tab", "entertainer")
    playing = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(url)
    wait(browser).until(lambda d: main_data(d, "player") == "remote")
    remote = browser.current_window_handle

    # The playing tab plays a while, then is closed.
    browser.switch_to.window(playing)
    wait(browser).until(lambda d: (audio_playing(d) or 0) >= 6)
    stopped_at = audio_playing(browser)
    browser.close()

    # At once, the other tab (the host's) carries on by itself, where the sound stopped, not
    # where the server's clock ran on to; nobody has to press Play here.
    browser.switch_to.window(remote)
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    resumed = wait(browser).until(lambda d: audio_playing(d))
    assert stopped_at - 6 <= resumed <= stopped_at + 5, (resumed, stopped_at)
    assert main_data(browser, "waiting") == "false"
    assert "went away" in text(browser, "#player-line")
    status, body = request(server.base, "GET", base, token=admin["token"])
    assert not body["playhead"]["paused"] and body["player"]["device_id"] == main_data(browser, "device")


def test_a_guests_remote_shows_what_a_guest_may_do_and_takes_over_when_the_host_goes(server, admin, browser):
    session, base, url = start_session(server, admin, browser, "Guest remote", "greensleeves")
    guest = register(server, "remote-guest")
    assert request(server.base, "POST", "/api/v1/back2back/sessions/join", {"invite_token": session["invite_token"]}, token=guest["token"])[0] == 200
    # The host keeps a blank tab, so closing the playing one leaves the browser open.
    playing = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.switch_to.window(playing)

    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "remote-guest", "remote-guest password")
        phone.get(url)
        wait(phone).until(lambda d: main_data(d, "player") == "remote" and d.find_elements(By.ID, "skip"))
        # The server refuses a guest's pause and seek: the remote hides those and says why.
        for control in ["toggle", "back15", "fwd15"]:
            assert not phone.find_element(By.ID, control).is_displayed(), control
        assert not phone.find_element(By.ID, "seek").is_enabled()
        assert phone.find_element(By.ID, "remote-note").is_displayed()
        assert "Only the host" in text(phone, "#remote-note")
        skip = phone.find_element(By.ID, "skip")
        assert skip.is_displayed() and skip.is_enabled(), "a guest may skip"
        status, body = request(server.base, "POST", base + "/playhead",
                               {"entry_id": body_now(server, base, admin)["id"], "position": 1, "paused": True, "device_id": "guest-remote"},
                               token=guest["token"])
        assert status == 403, "what the page hides is what the server refuses"

        # The host's playing tab goes: the guest's phone, the only page left, plays on by itself.
        browser.close()
        wait(phone).until(lambda d: main_data(d, "player") == "here")
        wait(phone).until(lambda d: audio_playing(d) is not None)
        # Now the guest's page plays, so it steers it.
        assert phone.find_element(By.ID, "toggle").is_displayed()
        assert not phone.find_element(By.ID, "remote-note").is_displayed()
    finally:
        phone.quit()
        browser.switch_to.window(browser.window_handles[-1])


def body_now(server, base, admin):
    status, body = request(server.base, "GET", base, token=admin["token"])
    assert status == 200 and body["now_playing"], body
    return body["now_playing"]
