"""A TuneTrivia party game in headless Chromium: a host and three players on phones, live
updates without polling, a player who reloads mid-round, the reveal and the podium."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, decode_qr, sign_in, text, type_into, wait


def test_qr_codes_of_every_size_read_back(server, admin, browser):
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/tunetrivia")
    wait(browser).until(lambda d: d.find_elements(By.ID, "new-form"))
    # From version 1 (a few bytes) to 10 (with version information), and non-ASCII text.
    link = f"{server.base}/tunetrivia/join/ABC123"
    texts = ["Juké", "q" * 20, link] + [link + "?" + "x" * n for n in (40, 80, 120, 150, 160)]
    for text in texts:
        browser.execute_script(
            "const t = arguments[0];"
            "return import('/static/js/qr.js').then((m) => {"
            "  document.getElementById('qr-test')?.remove();"
            "  const box = document.createElement('div'); box.id = 'qr-test'; box.style.width = '600px';"
            "  box.append(m.qrSVG(t)); document.body.prepend(box); });", text)
        assert decode_qr(browser.find_element(By.ID, "qr-test")) == text, len(text.encode())


def test_a_party_game_with_three_phones(server, admin):
    names = ["ann", "bob", "cyd"]
    for name in names:
        status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": name, "password": f"{name} password"})
        assert status == 201, body
    host = make_driver()
    phones = [make_driver(375, 740, mobile=True) for _ in names]
    try:
        # The host opens TuneTrivia from the launcher and creates a party game of five songs.
        sign_in(host, server, admin["username"], admin["password"])
        host.find_element(By.CSS_SELECTOR, "a.app-link[href='/tunetrivia']").click()
        form = wait(host).until(lambda d: d.find_element(By.ID, "new-form"))
        title = form.find_element(By.NAME, "title")
        title.clear()
        title.send_keys("Browser quiz")
        songs = form.find_element(By.NAME, "num_songs")
        songs.clear()
        songs.send_keys("5")
        form.find_element(By.NAME, "auto_select").click()
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(host).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rounds li")) == 5)
        code = text(host, "#invite-code")
        link = host.find_element(By.ID, "invite-link").get_attribute("href")
        assert len(code) == 6 and link.endswith("/tunetrivia/join/" + code)
        # The QR code Juke drew for the invite reads back as the link.
        assert decode_qr(host.find_element(By.ID, "invite-qr")) == link

        # Each player follows the invite link, signs in, and is in the game at once (the link
        # said they want to play: no join form to tap again).
        for phone, name in zip(phones, names):
            phone.get(link)
            wait(phone).until(lambda d: d.find_elements(By.ID, "username"))
            phone.find_element(By.ID, "username").send_keys(name)
            phone.find_element(By.ID, "password").send_keys(f"{name} password")
            phone.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait(phone).until(lambda d: d.find_elements(By.ID, "waiting"))
            assert phone.current_url.split("#")[0] == host.current_url.split("#")[0]
        # The host's lobby filled up live.
        wait(host).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#players li")) == 3)
        # Live updates came over a WebSocket, not polling.
        assert host.find_element(By.ID, "main").get_attribute("data-transport") == "websocket"
        click(host, By.ID, "start")

        # The host hears the clip and sees the answer when asking for it (the room may see the
        # host's screen); the phones see a hidden cover and a form.
        click(host, By.ID, "show-answer")
        answer = wait(host).until(lambda d: text(d, "#answer"))
        title_text = text(host, "#answer strong")
        artist_text = answer.split(" — ")[1].split(" (only you can see this)")[0]
        for phone in phones:
            wait(phone).until(lambda d: d.find_elements(By.ID, "guess-form"))
            assert title_text not in phone.page_source and artist_text not in phone.page_source
            assert phone.find_elements(By.CSS_SELECTOR, ".art.blurred")
        ann, bob, cyd = phones
        # Bob is halfway through typing when someone joins late: every phone's player count
        # changes (within a second), and Bob's field is the same one, with what he typed.
        bob_song = bob.find_element(By.NAME, "song")
        bob_song.send_keys("Something else")
        wait(bob).until(lambda d: text(d, "#answered") == "0 of 3 answered")
        status, late = request(server.base, "POST", "/api/v1/auth/register", {"username": "latecomer", "password": "latecomer password"})
        assert status == 201, late
        status, joined = request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": code}, token=late["token"])
        assert status == 200, joined
        wait(bob).until(lambda d: text(d, "#answered") == "0 of 4 answered")
        assert bob.execute_script("return arguments[0] === document.querySelector('#guess-form [name=song]') && arguments[0] === document.activeElement", bob_song)
        assert bob_song.get_attribute("value") == "Something else"
        status, _ = request(server.base, "DELETE", f"/api/v1/tunetrivia/sessions/{joined['id']}/players/{joined['you']}", token=late["token"])
        assert status == 204
        ann.find_element(By.NAME, "artist").send_keys(artist_text)
        ann.find_element(By.NAME, "song").send_keys(title_text)
        click(ann, By.CSS_SELECTOR, "#guess-form button")
        wait(ann).until(lambda d: d.find_elements(By.ID, "locked"))
        bob.switch_to.active_element.send_keys(" entirely")
        assert bob.find_element(By.NAME, "song").get_attribute("value") == "Something else entirely"
        click(bob, By.CSS_SELECTOR, "#guess-form button")
        wait(bob).until(lambda d: d.find_elements(By.ID, "locked"))
        # Cyd's phone reloads: same seat, still able to answer once.
        cyd.refresh()
        wait(cyd).until(lambda d: d.find_elements(By.ID, "guess-form"))
        cyd.find_element(By.NAME, "artist").send_keys(artist_text)
        click(cyd, By.CSS_SELECTOR, "#guess-form button")
        wait(cyd).until(lambda d: d.find_elements(By.ID, "locked"))
        cyd.refresh()
        wait(cyd).until(lambda d: d.find_elements(By.ID, "locked"))

        wait(host).until(lambda d: text(d, "#answered") == "3 of 3 answered")
        click(host, By.ID, "reveal")
        wait(ann).until(lambda d: "Artist: right" in text(d, "#my-result") and "Song: right" in text(d, "#my-result"))
        wait(bob).until(lambda d: "Song: wrong" in text(d, "#my-result"))
        wait(cyd).until(lambda d: title_text in text(d, "#answer"))
        # Scores: Ann 2, Cyd 1, Bob 0.
        # (The host's rows end with a Remove button.)
        row = lambda li: li.text.removesuffix("Remove").strip()
        wait(host).until(lambda d: [row(li).split()[-1] for li in d.find_elements(By.CSS_SELECTOR, "#scoreboard li")] == ["2", "1", "0"])
        # A phone that goes away shows as offline on the host's screen, and back when it returns.
        game_url = bob.current_url
        bob.quit()
        # (A closed connection is noticed at the next heartbeat, within 15 s.)
        wait(host, 45).until(lambda d: [row(li) for li in d.find_elements(By.CSS_SELECTOR, "#scoreboard li") if "(offline)" in li.text] == ["bob 0 (offline)"])
        bob = phones[1] = make_driver(375, 740, mobile=True)
        sign_in(bob, server, "bob", "bob password")
        bob.get(game_url)
        wait(bob).until(lambda d: "Song: wrong" in text(d, "#my-result"))  # the same seat, from another phone
        wait(host, 45).until(lambda d: "(offline)" not in text(d, "#scoreboard"))

        # The host ends the game; everyone sees the podium.
        host.execute_script("window.confirm = () => true")
        click(host, By.XPATH, "//button[text()='End game']")
        for phone in phones:
            wait(phone).until(lambda d: d.find_elements(By.ID, "podium"))
        assert "You finished #1" in text(ann, "#my-final")
        status, board = request(server.base, "GET", "/api/v1/tunetrivia/leaderboard", token=admin["token"])
        assert status == 200 and board["items"][0]["total_points"] == 2
        for driver in [host] + phones:
            severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
            assert not severe, severe
    finally:
        for driver in [host] + phones:
            driver.quit()


def test_a_host_mode_game_scored_by_taps(server, admin, browser):
    """Host mode: no phones; the host seats players by name and scores by tapping."""
    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/tunetrivia")
    form = wait(browser).until(lambda d: d.find_element(By.ID, "new-form"))
    form.find_element(By.CSS_SELECTOR, "input[name=mode][value=host]").click()
    songs = form.find_element(By.NAME, "num_songs")
    songs.clear()
    songs.send_keys("5")
    form.find_element(By.NAME, "trivia_enabled").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Songs picked by searching the library (on the lobby's Songs screen), then the rest
    # automatically; trivia for one.
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#songs']")
    search = wait(browser).until(lambda d: d.find_element(By.ID, "song-search"))
    wait(browser).until(lambda d: search.is_displayed())
    search.send_keys("entertainer")
    click(browser, By.CSS_SELECTOR, "#song-results button")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rounds li")) == 1)
    assert "The Entertainer" in text(browser, "#rounds")
    click(browser, By.ID, "auto-generate")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rounds li")) == 5)
    # Trivia is on: every song gets its question without anyone asking, and the host may
    # ask for another.
    wait(browser).until(lambda d: all("trivia:" in li.text and "being written" not in li.text for li in d.find_elements(By.CSS_SELECTOR, "#rounds li")))
    assert "by Traditional" not in text(browser, "#rounds")
    click(browser, By.XPATH, "//ol[@id='rounds']/li[1]//button[text()='New question']")
    # The players are seated on the Room screen.
    click(browser, By.CSS_SELECTOR, ".tabbar a[href='#room']")
    for name in ["Grandma", "Leo"]:
        # A redraw (the new question arriving) may replace the field while it is typed into.
        type_into(browser, By.CSS_SELECTOR, "#add-player input[name=name]", name)
        click(browser, By.CSS_SELECTOR, "#add-player button")
        wait(browser).until(lambda d, n=name: n in text(d, "#players"))
    click(browser, By.ID, "start")
    # The host taps: Grandma got the artist and the song, Leo the song.
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#scoring li"))

    def tap(player, label):
        # The list is redrawn whenever the game changes; a stale row is looked up again (a
        # click on a stale element fails before it reaches the page, so nothing is tapped twice).
        def tap_row(d):
            row = [li for li in d.find_elements(By.CSS_SELECTOR, "#scoring li") if player in li.text][0]
            row.find_element(By.XPATH, f".//button[text()='{label}']").click()
            return True

        wait(browser).until(tap_row)

    tap("Grandma", "Artist")
    wait(browser).until(lambda d: "Grandma 1 point" in text(d, "#scoring"))
    tap("Grandma", "Song")
    wait(browser).until(lambda d: "Grandma 2 points" in text(d, "#scoring"))
    tap("Leo", "Song")
    wait(browser).until(lambda d: "Leo 1 point" in text(d, "#scoring"))
    click(browser, By.ID, "reveal")
    wait(browser).until(lambda d: d.find_elements(By.ID, "reveal-trivia") or d.find_elements(By.ID, "next"))
    browser.execute_script("window.confirm = () => true")
    click(browser, By.XPATH, "//button[text()='End game']")
    podium = wait(browser).until(lambda d: text(d, "#podium"))
    assert podium.index("Grandma") < podium.index("Leo")


def test_pause_stops_the_hosts_clip_and_keeps_a_half_typed_guess(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Pause quiz", "num_songs": 5}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    status, player = request(server.base, "POST", "/api/v1/auth/register", {"username": "pauser", "password": "pauser password"})
    assert status == 201, player
    assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player["token"])[0] == 200
    phone = make_driver(375, 740, mobile=True)
    try:
        sign_in(browser, server, admin["username"], admin["password"])
        browser.get(server.base + "/tunetrivia/" + game["id"])
        sign_in(phone, server, "pauser", "pauser password")
        phone.get(server.base + "/tunetrivia/" + game["id"])
        click(browser, By.ID, "start")
        clip = lambda d: d.find_element(By.ID, "main").get_attribute("data-clip")
        wait(browser).until(lambda d: clip(d) == "playing")
        field = wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#guess-form input[name=artist]"))[0]
        field.send_keys("half a gue")

        click(browser, By.XPATH, "//button[text()='Pause']")
        wait(browser).until(lambda d: clip(d) == "paused")
        wait(phone).until(lambda d: "paused" in text(d, "#main"))
        form = phone.find_element(By.ID, "guess-form")
        assert form.find_element(By.NAME, "artist").get_attribute("value") == "half a gue"
        assert not form.find_element(By.CSS_SELECTOR, "button").is_enabled()

        click(browser, By.XPATH, "//button[text()='Resume']")
        wait(browser).until(lambda d: clip(d) == "playing")
        wait(phone).until(lambda d: d.find_element(By.CSS_SELECTOR, "#guess-form button").is_enabled())
        field = phone.find_element(By.CSS_SELECTOR, "#guess-form input[name=artist]")
        assert field.get_attribute("value") == "half a gue"
        field.send_keys("ss")
        click(phone, By.CSS_SELECTOR, "#guess-form button")
        wait(phone).until(lambda d: "half a guess" in text(d, "#locked"))
    finally:
        phone.quit()
