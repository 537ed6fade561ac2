"""Back2Back plays on one device (party-ready): a second tab is a remote that shows the true
position and never plays or echoes; Play here moves the music, which carries on where it
was; a reload resumes the song at its position."""
from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, sign_in, text, wait


def main_data(driver, key):
    return driver.find_element(By.ID, "main").get_attribute("data-" + key)


def audio_playing(driver):
    """Whether any of this page's decks is playing, and where."""
    return driver.execute_script(
        "const a = [...document.querySelectorAll('audio')].find((x) => !x.paused);"
        "return a ? a.currentTime : null;")


def test_a_second_tab_is_a_remote_and_play_here_moves_the_music(server, admin, browser):
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "Two tabs"}, token=admin["token"])
    assert status == 201, session
    base = f"/api/v1/back2back/sessions/{session['id']}"
    url = f"{server.base}/back2back/{session['id']}"
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(url)
    # The host's first page takes the player; a song starts on it.
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    status, found = request(server.base, "GET", "/api/v1/catalog/search?q=entertainer", token=admin["token"])
    assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
    wait(browser).until(lambda d: main_data(d, "audio") == "playing")
    first = browser.current_window_handle

    # A second tab: a remote. Its position moves on with the song; nothing plays in it.
    browser.switch_to.new_window("tab")
    browser.get(url)
    wait(browser).until(lambda d: main_data(d, "player") == "remote")
    assert "another of your devices" in text(browser, "#player-line")
    start = wait(browser).until(lambda d: int(main_data(d, "position") or 0) >= 1 and int(main_data(d, "position")))
    wait(browser).until(lambda d: int(main_data(d, "position")) >= start + 2)
    assert audio_playing(browser) is None, "a remote never plays"

    # Play here: the music moves to this tab, where the song was; the first tab falls silent.
    browser.switch_to.window(first)
    at_switch = audio_playing(browser)
    assert at_switch is not None and at_switch > 2
    browser.switch_to.window(browser.window_handles[-1])
    click(browser, By.ID, "play-here")
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    resumed = wait(browser).until(lambda d: audio_playing(d))
    assert resumed >= at_switch - 1, (resumed, at_switch)
    browser.switch_to.window(first)
    wait(browser).until(lambda d: main_data(d, "player") == "remote" and audio_playing(d) is None)

    # The playing tab reloads: still the player (the tab keeps its id), resuming where it was.
    browser.switch_to.window(browser.window_handles[-1])
    before = audio_playing(browser)
    browser.refresh()
    wait(browser).until(lambda d: main_data(d, "player") == "here")
    again = wait(browser).until(lambda d: audio_playing(d))
    assert again >= before - 1, (again, before)
    status, body = request(server.base, "GET", base, token=admin["token"])
    assert body["playhead"]["entry_id"] == body["now_playing"]["id"]


def test_a_phone_keeps_a_mini_player_at_the_bottom(server, admin, phone):
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "Pocket"}, token=admin["token"])
    assert status == 201, session
    base = f"/api/v1/back2back/sessions/{session['id']}"
    sign_in(phone, server, admin["username"], admin["password"])
    phone.get(f"{server.base}/back2back/{session['id']}")
    wait(phone).until(lambda d: main_data(d, "player") == "here")
    status, found = request(server.base, "GET", "/api/v1/catalog/search?q=greensleeves", token=admin["token"])
    assert request(server.base, "POST", base + "/picks", {"track_id": found["items"][0]["id"]}, token=admin["token"])[0] == 200
    wait(phone).until(lambda d: main_data(d, "audio") == "playing")
    mini = phone.find_element(By.ID, "mini-player")
    assert not mini.is_displayed(), "the now-playing panel is in view"
    # Scrolled away from the panel: the mini player holds the song, and pauses it.
    phone.execute_script("document.getElementById('history').scrollIntoView(); window.scrollBy(0, 2000);")
    wait(phone).until(lambda d: mini.is_displayed())
    assert "Greensleeves" in text(phone, "#mini-title")
    assert mini.rect["y"] + mini.rect["height"] >= phone.execute_script("return window.innerHeight") - 2
    click(phone, By.ID, "mini-toggle")
    wait(phone).until(lambda d: main_data(d, "audio") == "paused")
    assert text(phone, "#mini-toggle") == "Play"
    # Back at the panel, the mini player steps aside.
    phone.execute_script("window.scrollTo(0, 0)")
    wait(phone).until(lambda d: not mini.is_displayed())
