"""TuneTrivia as a room uses it (party-ready): everyone counts down the same clip and sees
how many have answered; the cover shows blurred before the reveal; the host edits the
settings, removes a player, and hears what the library lacks; a refused action says why
next to the button that was pressed."""
import time

from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, register, sign_in, text, wait


def test_everyone_counts_down_and_sees_how_many_answered(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Countdown", "num_songs": 5, "seconds_per_song": 30}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    counter, other = register(server, "counter"), register(server, "otherguesser")
    for account in (counter, other):
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=account["token"])[0] == 200
    phone = make_driver(375, 740, mobile=True)
    try:
        sign_in(browser, server, admin["username"], admin["password"])
        browser.get(server.base + "/tunetrivia/" + game["id"])
        sign_in(phone, server, "counter", "counter password")
        phone.get(server.base + "/tunetrivia/" + game["id"])
        click(browser, By.ID, "start")
        seconds = lambda d: int(d.find_element(By.ID, "countdown").text)
        first = wait(phone).until(lambda d: d.find_elements(By.ID, "countdown") and seconds(d))
        assert 20 <= first <= 30, first
        wait(phone).until(lambda d: seconds(d) <= first - 2)
        # The host's screen counts the same clip, within a second of the phone's.
        assert abs(seconds(browser) - seconds(phone)) <= 1
        # The blurred cover: the real one shrunk to 8×8, fetched by round.
        blur = wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".art.blurred img.art-blur"))[0]
        wait(phone).until(lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", blur) == 8)
        assert "/catalog/" not in blur.get_attribute("src")

        # Another player answers: the phone's count follows, naming nobody.
        wait(phone).until(lambda d: text(d, "#answered") == "0 of 2 answered")
        assert request(server.base, "POST", base + "/guess", {"artist_guess": "someone", "song_guess": ""}, token=other["token"])[0] == 202
        wait(phone).until(lambda d: text(d, "#answered") == "1 of 2 answered")

        # A pause freezes the countdown for everyone; Resume goes on from there.
        click(browser, By.ID, "pause")
        wait(phone).until(lambda d: "paused" in d.find_element(By.ID, "countdown").get_attribute("class"))
        frozen = seconds(phone)
        # Real time must pass to show that a frozen countdown stays: two of its one-second ticks.
        time.sleep(2.5)
        assert seconds(phone) == frozen
        click(browser, By.ID, "resume")
        wait(phone).until(lambda d: "paused" not in d.find_element(By.ID, "countdown").get_attribute("class"))
        assert frozen - 1 <= seconds(phone) <= frozen

        # The reveal: the real cover, animated once.
        click(browser, By.ID, "reveal")
        art = wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "img.art:not(.art-blur)"))[0]
        wait(phone).until(lambda d: "revealing" not in art.get_attribute("class"))
        assert request(server.base, "POST", base + "/guess", {"trivia_guess": "x"}, token=other["token"])[0] in (409, 422)
        # A redraw (another player leaves) keeps the cover sharp: no cover is drawn animating again.
        phone.execute_script(
            "window.revealings = 0;"
            "new MutationObserver((changes) => { for (const c of changes) for (const n of c.addedNodes)"
            "  if (n.nodeType === 1 && (n.matches('img.revealing') || n.querySelector('img.revealing'))) window.revealings++; })"
            ".observe(document.getElementById('game'), { subtree: true, childList: true });")
        assert request(server.base, "DELETE", f"{base}/players/{request(server.base, 'GET', base + '/state', token=other['token'])[1]['you']}", token=other["token"])[0] == 204
        wait(phone).until(lambda d: "otherguesser" not in text(d, "#scoreboard"))
        assert phone.find_elements(By.CSS_SELECTOR, "img.art:not(.art-blur)")
        assert phone.execute_script("return window.revealings") == 0
        assert not phone.find_elements(By.ID, "countdown")
    finally:
        phone.quit()


def test_the_host_edits_settings_removes_a_player_and_hears_what_the_library_lacks(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Sixties night", "num_songs": 5, "decade": "60s"}, token=admin["token"])
    assert status == 201, game
    gatecrasher = register(server, "gatecrasher")
    assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=gatecrasher["token"])[0] == 200
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/tunetrivia/" + game["id"])

    # The demo library has nothing from the 60s: said so (on the Songs screen), nothing slipped in.
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#songs']")
    click(browser, By.ID, "auto-generate")
    notice = wait(browser).until(lambda d: text(d, "#pick-notice"))
    assert "no songs from the 60s" in notice and "No song was added" in notice
    assert not browser.find_elements(By.CSS_SELECTOR, "#rounds li")
    click(browser, By.ID, "fill-others")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rounds li")) == 5)
    assert not browser.find_elements(By.ID, "pick-notice")

    # Edit settings (their own screen): fewer songs than the game has is refused next to Save, and said aloud.
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#settings']")
    form = browser.find_element(By.ID, "settings-form")
    title = form.find_element(By.NAME, "title")
    title.clear()
    title.send_keys("Anything goes")
    # The mode is fixed once someone has joined.
    assert not form.find_element(By.CSS_SELECTOR, "input[name=mode][value=host]").is_enabled()
    browser.execute_script("arguments[0].value = '5'", form.find_element(By.NAME, "num_songs"))
    decade = form.find_element(By.NAME, "decade")
    browser.execute_script("arguments[0].value = ''", decade)
    click(browser, By.ID, "save-settings")
    wait(browser).until(lambda d: "Anything goes" in text(d, "h1"))
    # Saved, the lobby goes back to the room.
    wait(browser).until(lambda d: d.find_element(By.ID, "start").is_displayed())
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#settings']")
    form = browser.find_element(By.ID, "settings-form")
    browser.execute_script("arguments[0].min = '1'; arguments[0].value = '4'", form.find_element(By.NAME, "num_songs"))
    click(browser, By.ID, "save-settings")
    # (Read once it shows: the note fades in, and text that is not yet seen reads as none.)
    error = wait(browser).until(lambda d: [e for e in d.find_elements(By.ID, "save-settings-error") if e.text])[0]
    assert "song" in error.text and error.get_attribute("role") == "alert"
    assert browser.find_element(By.ID, "save-settings").get_attribute("aria-describedby") == "save-settings-error"
    assert error.location["y"] - browser.find_element(By.ID, "save-settings").location["y"] < 120, "the error sits by the button"

    # Remove the gatecrasher (on the Room screen).
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#room']")
    browser.execute_script("window.confirm = () => true")
    click(browser, By.CSS_SELECTOR, "#players button[aria-label='Remove gatecrasher']")
    wait(browser).until(lambda d: "gatecrasher" not in text(d, "#players"))
    status, state = request(server.base, "GET", f"/api/v1/tunetrivia/sessions/{game['id']}/state", token=gatecrasher["token"])
    assert state is None or not state.get("you"), state


def test_my_stats_show_games_and_what_was_named(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Stats", "num_songs": 5}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    statsman = register(server, "statsman")
    assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=statsman["token"])[0] == 200
    assert request(server.base, "POST", base + "/start", token=admin["token"])[0] == 200
    status, host_view = request(server.base, "GET", base + "/state", token=admin["token"])
    answer = host_view["round"]
    assert request(server.base, "POST", base + "/guess", {"artist_guess": answer["artist"], "song_guess": answer["title"]}, token=statsman["token"])[0] == 202
    assert request(server.base, "POST", base + "/reveal", token=admin["token"])[0] == 200
    assert request(server.base, "POST", base + "/end", token=admin["token"])[0] == 200
    sign_in(browser, server, "statsman", "statsman password")
    browser.get(server.base + "/tunetrivia")
    stats = wait(browser).until(lambda d: d.find_elements(By.ID, "my-stats") and text(d, "#my-stats"))
    pairs = dict(zip(
        [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#my-stats dt")],
        [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#my-stats dd")]))
    assert pairs["Games played"] == "1" and pairs["Artists named"] == "1" and pairs["Songs named"] == "1", stats
    assert pairs["Trivia right"] == "0" and pairs["Best game"] == "2 points"
