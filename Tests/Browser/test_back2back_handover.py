"""When the page playing a Back2Back session goes (its browser closed), the music does not wait
for a tap on Play here: another member's open page carries on at once, where the song was, by
the session's rule (the host's page, else the page of the member present longest), and the
pages say where it plays now ("Now playing on Ben's phone")."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import register, sign_in, text, wait
from test_back2back_players import audio_playing, main_data, start_session


def test_when_the_playing_browser_closes_a_friends_phone_plays_on_where_it_was(server, admin, browser):
    session, base, url = start_session(server, admin, browser, "Handover", "entertainer")
    ben = register(server, "ben-handover")
    assert request(server.base, "POST", "/api/v1/back2back/sessions/join", {"invite_token": session["invite_token"]}, token=ben["token"])[0] == 200
    # The host keeps a tab on another page, so closing the playing one leaves the browser open.
    playing = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(server.base + "/back2back")
    browser.switch_to.window(playing)

    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "ben-handover", "ben-handover password")
        phone.get(url)
        wait(phone).until(lambda d: main_data(d, "player") == "remote" and d.find_elements(By.ID, "np-title"))
        assert audio_playing(phone) is None

        # The host's computer plays a while, then its browser window goes.
        wait(browser).until(lambda d: (audio_playing(d) or 0) >= 6)
        stopped_at = audio_playing(browser)
        browser.close()

        # Ben's phone carries on by itself, near where the sound stopped: nobody taps anything.
        wait(phone).until(lambda d: main_data(d, "player") == "here")
        resumed = wait(phone).until(lambda d: audio_playing(d))
        assert stopped_at - 6 <= resumed <= stopped_at + 5, (resumed, stopped_at)
        assert main_data(phone, "waiting") == "false"
        line = text(phone, "#player-line")
        assert "Now playing here, on this phone" in line and "admin's computer went away" in line, line
        status, body = request(server.base, "GET", base, token=admin["token"])
        assert body["player"]["display_name"] == "ben-handover" and body["player"]["device_kind"] == "phone", body["player"]
        assert body["player"]["took_over_from"]["display_name"] == "admin"
        assert not body["playhead"]["paused"]

        # The host opens the session again: a remote, which says where the music is.
        browser.switch_to.window(browser.window_handles[-1])
        browser.get(url)
        wait(browser).until(lambda d: main_data(d, "player") == "remote" and text(d, "#player-line"))
        assert "Now playing on ben-handover's phone" in text(browser, "#player-line")
        assert audio_playing(browser) is None
        assert audio_playing(phone) is not None, "the phone plays on"
    finally:
        phone.quit()
