"""TuneTrivia as a room of phones holds it (issue 39): a player's countdown and answer fields
share a phone's first screen, and another player's answer changes only what changed, never
the field being typed in (same element, same text, focus and caret); the host's "Play clip"
joins the song where everyone's countdown is; the end plays the fanfare; a removed player is
told so and stays out until the host lets them back; the host seats players one name after
another; a newcomer who signs up from an invite is in the game at once."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, register, text, type_into, wait, sign_in

# Records every note the page's Web Audio sounds play (their frequencies), before any script runs.
SOUND_SPY = """
window.__notes = [];
for (const name of ["AudioContext", "webkitAudioContext"]) {
  const Context = window[name];
  if (!Context) continue;
  const create = Context.prototype.createOscillator;
  Context.prototype.createOscillator = function () {
    const osc = create.call(this);
    const start = osc.start.bind(osc);
    osc.start = (...args) => { window.__notes.push(osc.frequency.value); return start(...args); };
    return osc;
  };
}
"""
# The fanfare's notes (sounds.js victory()); the reveal's and the answers' have none of 698 Hz.
VICTORY_NOTE = 698

# Where each audio element was when it was told to play.
PLAY_SPY = """
window.__plays = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () { window.__plays.push({ at: this.currentTime, src: this.src }); return play.call(this); };
"""


def box(driver, css):
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return null; const r = e.getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, height: r.height, inner: innerHeight}", css)


def party_game(server, host, title, players):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": title, "num_songs": 5, "seconds_per_song": 30}, token=host["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=host["token"])[0] == 200
    for player in players:
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player["token"])[0] == 200
    return game, base


def test_typing_survives_an_answer_the_clip_joins_the_countdown_and_the_end_sounds(server, admin, browser):
    typist, other = register(server, "typist"), register(server, "quickone")
    game, base = party_game(server, admin, "Typing", [typist, other])
    phone = make_driver(375, 812, mobile=True)
    try:
        phone.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOUND_SPY})
        sign_in(browser, server, admin["username"], admin["password"])
        browser.get(server.base + "/tunetrivia/" + game["id"])
        sign_in(phone, server, "typist", "typist password")
        phone.get(server.base + "/tunetrivia/" + game["id"])
        wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
        click(browser, By.ID, "start")

        # At 375x812 the countdown, both fields and Submit are in the first screen.
        wait(phone).until(lambda d: d.find_elements(By.ID, "guess-form") and d.find_elements(By.ID, "countdown"))
        assert phone.execute_script("return scrollY") == 0
        for css in ["#countdown", "#guess-form input[name=artist]", "#guess-form input[name=song]", "#submit-guess"]:
            b = box(phone, css)
            assert b and b["height"] > 0 and b["top"] >= 0 and b["bottom"] <= b["inner"], f"{css} is not in the first screen: {b}"

        # Half a song's name typed, the caret moved back into it; then another player answers.
        song = phone.find_element(By.CSS_SELECTOR, "#guess-form input[name=song]")
        song.click()
        song.send_keys("Bohemia")
        phone.execute_script("window.__typed = arguments[0]; arguments[0].setSelectionRange(3, 3)", song)
        wait(phone).until(lambda d: text(d, "#answered") == "0 of 2 answered")
        assert request(server.base, "POST", base + "/guess", {"artist_guess": "someone", "song_guess": "something"}, token=other["token"])[0] == 202
        wait(phone).until(lambda d: text(d, "#answered") == "1 of 2 answered")
        kept = phone.execute_script(
            "const f = document.querySelector('#guess-form input[name=song]');"
            "return {same: f === window.__typed, value: f.value, focused: document.activeElement === f, start: f.selectionStart, end: f.selectionEnd}")
        assert kept == {"same": True, "value": "Bohemia", "focused": True, "start": 3, "end": 3}, kept
        # Typing goes on where the caret was.
        phone.switch_to.active_element.send_keys("n")
        assert song.get_attribute("value") == "Bohnemia"

        # The host's "Play clip", a few seconds in, joins the song where the countdown is.
        seconds = lambda d: int(d.find_element(By.ID, "countdown").text)
        wait(browser).until(lambda d: seconds(d) <= 26)
        browser.execute_script(PLAY_SPY)
        clip_start = request(server.base, "GET", base + "/state", token=admin["token"])[1]["round"]["clip_start"]
        left = seconds(browser)
        click(browser, By.ID, "play-clip")
        plays = wait(browser).until(lambda d: d.execute_script("return window.__plays"))
        played = 30 - left  # seconds of the clip everyone has heard
        assert clip_start + played - 1.5 <= plays[-1]["at"] <= clip_start + played + 1.5, (plays, clip_start, left)
        assert abs(seconds(browser) - seconds(phone)) <= 1

        # The reveal, then the end: the phone plays the fanfare.
        click(browser, By.ID, "reveal")
        wait(phone).until(lambda d: d.find_elements(By.ID, "answer"))
        assert VICTORY_NOTE not in phone.execute_script("return window.__notes")
        browser.execute_script("window.confirm = () => true")
        click(browser, By.ID, "end")
        wait(phone).until(lambda d: d.find_elements(By.ID, "podium"))
        wait(phone).until(lambda d: VICTORY_NOTE in d.execute_script("return window.__notes"))
    finally:
        phone.quit()


def test_a_removed_player_is_told_and_stays_out_until_the_host_lets_them_back(server, admin, browser):
    guest = register(server, "removedguest")
    game, base = party_game(server, admin, "Removal", [guest])
    phone = make_driver(375, 667, mobile=True)
    try:
        sign_in(phone, server, "removedguest", "removedguest password")
        phone.get(server.base + "/tunetrivia/" + game["id"])
        wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
        sign_in(browser, server, admin["username"], admin["password"])
        browser.get(server.base + "/tunetrivia/" + game["id"])
        seat = request(server.base, "GET", base + "/state", token=guest["token"])[1]["you"]
        browser.execute_script("window.confirm = () => true")
        click(browser, By.ID, f"remove-player-{seat}")
        wait(phone).until(lambda d: "You were removed" in text(d, "#removed"))
        assert not phone.find_elements(By.ID, "waiting")
        assert "You're in" not in text(phone, "#main")
        # "Join again" does not undo the host's removal: the phone says why.
        click(phone, By.ID, "rejoin")
        wait(phone).until(lambda d: "removed you" in text(d, "#removed"))
        assert not phone.find_elements(By.ID, "waiting")
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=guest["token"])[0] == 403
        # The host lets them back in; then they may join again.
        wait(browser).until(lambda d: "removedguest" in text(d, "#removed-players"))
        click(browser, By.ID, f"let-back-{seat}")
        wait(browser).until(lambda d: not d.find_elements(By.ID, "removed-players"))
        click(phone, By.ID, "rejoin")
        wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
        assert request(server.base, "GET", base + "/state", token=guest["token"])[1]["you"]
    finally:
        phone.quit()


def test_the_host_seats_players_one_name_after_another(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Seats", "num_songs": 5, "mode": "host"}, token=admin["token"])
    assert status == 201, game
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/tunetrivia/" + game["id"])
    field = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#add-player input[name=name]"))
    for name in ["Alice", "Bob"]:
        field.send_keys(name)
        click(browser, By.ID, "add-player-button")
        wait(browser).until(lambda d, n=name: n in text(d, "#players"))
        # The field is emptied for the next name (it kept "Alice", and "Bob" made "AliceBob").
        wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#add-player input[name=name]").get_attribute("value") == "")
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#players .name")]
    assert names == ["Alice", "Bob"], names


def test_a_newcomer_who_signs_up_from_an_invite_is_in_the_game(server, admin, phone):
    game, base = party_game(server, admin, "Invited", [])
    phone.get(f"{server.base}/tunetrivia/join/{game['invite_code']}")
    # Not an account yet: from the sign-in page to the sign-up page, the invite kept.
    click(phone, By.CSS_SELECTOR, ".switch a")
    wait(phone).until(lambda d: "/register" in d.current_url)
    phone.find_element(By.ID, "username").send_keys("newcomer")
    phone.find_element(By.ID, "password").send_keys("newcomer password")
    phone.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Straight into the game's lobby: no join form to tap again.
    wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
    assert phone.current_url.split("#")[0].endswith("/tunetrivia/" + game["id"])
    players = request(server.base, "GET", base + "/state", token=admin["token"])[1]["players"]
    assert "newcomer" in [p["display_name"] for p in players]
