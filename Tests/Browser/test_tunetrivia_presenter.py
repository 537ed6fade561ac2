"""TuneTrivia on the big screen (the presenter view): a TV that nobody signed in on pairs by
the one-time code the host's phone shows, then shows the lobby with the QR code, plays the
clip for the room while the host's phone stays silent as the remote, counts down over a
blurred cover without naming the song, reveals it with the real cover, and ends on the
podium. The host disconnects it; a screen where the host is signed in pairs by the invite."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, decode_qr, register, sign_in, text, type_into, wait


def test_a_big_screen_pairs_by_code_and_shows_the_room_the_game(server, admin, browser):
    host = register(server, "presenterhost")
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Big Screen Night", "num_songs": 5, "seconds_per_song": 30}, token=host["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    status, picked = request(server.base, "POST", base + "/rounds/auto-generate", token=host["token"])
    assert status == 200 and picked["added"] == 5, picked
    tv = make_driver(1600, 900)
    try:
        sign_in(browser, server, "presenterhost", "presenterhost password")
        browser.get(server.base + "/tunetrivia/" + game["id"])
        click(browser, By.ID, "show-big-screen")
        code = wait(browser).until(lambda d: text(d, "#pairing-code"))
        assert len(code) == 9 and code[4] == "-", code

        # The TV, signed in as nobody: the pairing form, the code typed as people type it.
        tv.get(server.base + "/tunetrivia/present")
        type_into(tv, By.ID, "pair-code", code.lower().replace("-", " "))
        click(tv, By.ID, "pair-button")
        wait(tv).until(lambda d: text(d, "#present-invite-code") == game["invite_code"])
        assert decode_qr(tv.find_element(By.ID, "present-qr")) == f"{server.base}/tunetrivia/join/{game['invite_code']}"
        # The code worked once.
        assert request(server.base, "POST", "/api/v1/tunetrivia/presenter/pair", {"code": code})[0] == 404

        # A player joins from a phone: the TV lists them; the host's phone knows the TV is on.
        player = register(server, "presenterguest")
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player["token"])[0] == 200
        wait(tv).until(lambda d: "presenterguest" in text(d, "#present-players"))
        wait(browser).until(lambda d: d.find_elements(By.ID, "big-screen-on"))

        # The song: the TV plays it and counts down over a blurred cover; the host's phone is silent.
        click(browser, By.ID, "start")
        seconds = lambda d: int(d.find_element(By.ID, "present-countdown").text or 0)
        first = wait(tv).until(lambda d: d.find_elements(By.ID, "present-countdown") and seconds(d))
        assert 20 <= first <= 30, first
        wait(tv).until(lambda d: d.find_element(By.ID, "main").get_attribute("data-clip") == "playing")
        wait(tv).until(lambda d: seconds(d) <= first - 2)
        wait(browser).until(lambda d: d.find_elements(By.ID, "playing-on-screen"))
        assert browser.find_element(By.ID, "main").get_attribute("data-clip") != "playing"
        blur = wait(tv).until(lambda d: d.find_elements(By.ID, "present-art-blur"))[0]
        wait(tv).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", blur) == 8)
        rounds = request(server.base, "GET", base + "/rounds", token=host["token"])[1]
        song = rounds[0]
        assert song["title"] not in text(tv, "body") and song["artist"] not in text(tv, "body")
        state = request(server.base, "GET", "/api/v1/tunetrivia/presenter/state?token=" + tv.execute_script("return JSON.parse(localStorage.getItem('juke_presenter')).token"))[1]
        assert "title" not in state["session"]["round"] and "track_id" not in state["session"]["round"]

        # An answer: the TV counts it, naming nobody.
        assert request(server.base, "POST", base + "/guess", {"artist_guess": song["artist"], "song_guess": song["title"]}, token=player["token"])[0] == 202
        wait(tv).until(lambda d: text(d, "#present-answered") == "1 of 1 answered")

        # The reveal: the song's name and the real cover on the TV, the clip stopped.
        click(browser, By.ID, "reveal")
        wait(tv).until(lambda d: text(d, "#present-answer") == song["title"])
        art = wait(tv).until(lambda d: d.find_elements(By.CSS_SELECTOR, "img#present-art"))[0]
        wait(tv).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", art) > 8)
        assert "/presenter/rounds/" in art.get_attribute("src") and "/catalog/" not in art.get_attribute("src")
        wait(tv).until(lambda d: d.find_element(By.ID, "main").get_attribute("data-clip") == "stopped")
        wait(tv).until(lambda d: "presenterguest" in text(d, "#present-scores"))

        # The end: the podium.
        browser.execute_script("window.confirm = () => true")
        click(browser, By.ID, "end")
        wait(tv).until(lambda d: "presenterguest" in text(d, "#present-podium"))

        # The host disconnects the TV: it says so and asks for a new code.
        assert request(server.base, "DELETE", base + "/presenter", token=host["token"])[0] == 204
        wait(tv).until(lambda d: "disconnected" in text(d, "#pair-error"))
    finally:
        tv.quit()

    # On a computer where the host is signed in, the invite code is enough; not for anyone else.
    browser.get(server.base + "/tunetrivia/present/" + game["invite_code"])
    wait(browser).until(lambda d: "presenterguest" in text(d, "#present-podium"))
    status, body = request(server.base, "POST", "/api/v1/tunetrivia/presenter/pair", {"code": game["invite_code"]}, token=player["token"])
    assert status == 403, body
