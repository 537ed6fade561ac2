"""A Back2Back session in headless Chromium with Juke's own DJ (no AI configured): turns with
the AI, its reasons, a direction change, a skip, a tap on a queued song, playback through the
page's player (the test moves the playhead to the end instead of waiting), export, and a
friend joining by the invite link."""
from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import click, sign_in, text, texts, wait


def state(driver, server, token):
    session = driver.find_element(By.ID, "main").get_attribute("data-session")
    status, body = request(server.base, "GET", f"/api/v1/back2back/sessions/{session}", token=token)
    assert status == 200, body
    return body


def now_playing(driver):
    return text(driver, "#np-title")


def pick(driver, query):
    """Searches the library (results come 0.75 s after typing stops) and picks the first hit."""
    box = wait(driver).until(lambda d: d.find_element(By.ID, "song-search"))
    wait(driver).until(lambda d: box.is_enabled())
    box.clear()
    box.send_keys(query)
    click(driver, By.CSS_SELECTOR, "#results .track button")
    wait(driver).until(lambda d: not texts(d, "#results .track"))


def play_to_end(driver):
    """Moves the playing deck's playhead to its last second: the page reports 95% and 99%, then
    the end (or starts the crossfade), and the next song starts."""
    before = now_playing(driver)
    wait(driver).until(lambda d: d.execute_script(
        "const a = document.getElementById(document.getElementById('main').dataset.deck || 'x');"
        "return a && !a.paused && Number.isFinite(a.duration) && a.duration > 0;"))
    driver.execute_script(
        "const a = document.getElementById(document.getElementById('main').dataset.deck); a.currentTime = a.duration - 0.4;")
    wait(driver).until(lambda d: now_playing(d) and now_playing(d) != before)


def test_a_back2back_session_of_turns_with_the_ai(server, admin, browser):
    token = admin["token"]
    sign_in(browser, server, admin["username"], admin["password"])
    browser.find_element(By.CSS_SELECTOR, "a.app-link[href='/back2back']").click()
    select = wait(browser).until(lambda d: d.find_element(By.ID, "persona-select"))
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#persona-select option")) == 2)
    # The admin sees, on Settings, which AI service the DJ uses: none here, so Juke's own DJ picks.
    click(browser, By.ID, "tab-settings")
    wait(browser).until(lambda d: "Juke's own DJ picks" in text(d, "#ai-source") and d.find_element(By.ID, "ai-source").is_displayed())
    # The persona's style guide, written by Juke from its taste (no AI here), streams into the form.
    click(browser, By.ID, "tab-personas")
    click(browser, By.CSS_SELECTOR, "#personas a[aria-label='Edit Rare Groove Collector']")
    wait(browser).until(lambda d: d.find_element(By.ID, "persona-form").is_displayed()
                        and d.find_element(By.NAME, "name").get_attribute("value") == "Rare Groove Collector")
    click(browser, By.ID, "write-guide")
    wait(browser).until(lambda d: "saved to the persona" in text(d, "#guide-progress"))
    assert "Home ground is Rare Groove" in browser.find_element(By.NAME, "style_guide").get_attribute("value")
    click(browser, By.ID, "tab-sessions")
    browser.execute_script(
        "const s = document.getElementById('persona-select');"
        "s.value = [...s.options].find(o => o.text === 'Rare Groove Collector').value;")
    browser.find_element(By.CSS_SELECTOR, "#new-form input[name=title]").send_keys("Sunday set")
    click(browser, By.CSS_SELECTOR, "#new-form button[type=submit]")
    wait(browser).until(lambda d: "Your turn" in text(d, "#turn"))
    assert "Sunday set" == text(browser, "#session-title")
    assert "Rare Groove Collector" in text(browser, "#persona-line") and "not impersonating" in text(browser, "#persona-line")
    assert select  # (the home page's persona list loaded)

    # Turn 1, mine: a song found by search plays on this device at once.
    pick(browser, "entertainer")
    wait(browser).until(lambda d: now_playing(d) == "The Entertainer")
    wait(browser).until(lambda d: d.find_element(By.ID, "main").get_attribute("data-audio") == "playing")
    # Turn 2, the AI's: it thinks, then queues a song with its reason.
    wait(browser).until(lambda d: "Up next · picked by Rare Groove Collector" in text(d, "#queue"))
    assert text(browser, "#queue .rationale")
    assert browser.find_element(By.ID, "main").get_attribute("data-transport") == "events"
    assert not browser.find_element(By.ID, "song-search").is_enabled()  # not my turn
    ai_song = text(browser, "#queue strong")
    play_to_end(browser)
    assert now_playing(browser) == ai_song

    # Turn 3, mine again: the AI lines up a backup and offers a direction change.
    wait(browser).until(lambda d: "Your turn" in text(d, "#turn"))
    wait(browser).until(lambda d: "backup: plays if nobody picks" in text(d, "#queue"))
    wait(browser).until(lambda d: d.find_element(By.ID, "direction").is_displayed())
    pick(browser, "greensleeves")
    wait(browser).until(lambda d: "backup: plays if nobody picks" not in text(d, "#queue") and "Greensleeves" in text(d, "#queue"))
    # Turn 4, the AI's pick, queued after mine; I tap it to play it now (mine is passed over).
    wait(browser).until(lambda d: len(texts(d, "#queue li.upNext")) == 2)
    ai_pick = texts(browser, "#queue li.upNext strong")[1]
    click(browser, By.CSS_SELECTOR, "#queue li.upNext:last-child .row-button")
    wait(browser).until(lambda d: now_playing(d) == ai_pick)
    wait(browser).until(lambda d: "Your turn" in text(d, "#turn"))

    # Turn 5: I take the direction change; the backup is replaced by a pick in that direction.
    direction = wait(browser).until(lambda d: d.find_element(By.ID, "direction").is_displayed() and text(d, "#direction"))
    label = direction.replace("Change direction: ", "")
    assert 2 <= len(label.split()) <= 4
    click(browser, By.ID, "direction")
    wait(browser).until(lambda d: (q := state(d, server, token)["queue"]) and q[0].get("direction") == label)
    body = state(browser, server, token)
    assert body["queue"][0]["status"] == "queuedIfUserSkips" and body["turn"]["is_you"]
    wait(browser).until(lambda d: "backup: plays if nobody picks" in text(d, "#queue") and body["queue"][0]["song"]["title"] in text(d, "#queue"))
    # Skip: the backup plays now, and the turn stays mine.
    backup = body["queue"][0]["song"]["title"]
    click(browser, By.ID, "skip")
    wait(browser).until(lambda d: now_playing(d) == backup)
    wait(browser).until(lambda d: "Your turn" in text(d, "#turn"))

    # Turn 6, mine, and the AI answers (turn 7): the backup ends, then my song, then the AI's plays.
    pick(browser, "ode to joy")
    wait(browser).until(lambda d: "Up next · picked by Rare Groove Collector" in text(d, "#queue"))
    play_to_end(browser)
    assert now_playing(browser) == "Ode to Joy"
    play_to_end(browser)
    wait(browser).until(lambda d: "Your turn" in text(d, "#turn"))

    body = state(browser, server, token)
    pickers = [e["picked_by"] for e in body["history"] + [body["now_playing"]]]
    assert len(pickers) >= 6 and pickers.count("ai") >= 3 and pickers.count("person") >= 2, pickers
    assert all(e["rationale"] for e in body["history"] if e["picked_by"] == "ai")
    assert any(e["skipped"] for e in body["history"])
    wait(browser).until(lambda d: len(texts(d, "#history li")) == len(body["history"]))
    history = texts(browser, "#history li")
    assert any("You ·" in h for h in history) and any("Rare Groove Collector ·" in h for h in history)

    # Export as a playlist.
    m3u = browser.execute_script("return fetch(document.getElementById('export-m3u8').href).then(r => r.text());")
    assert m3u.startswith("#EXTM3U") and "The Entertainer" in m3u

    # A friend follows the invite link on a phone, joins, and sees the same session live.
    status, _ = request(server.base, "POST", "/api/v1/auth/register", {"username": "friend", "password": "friend password"})
    assert status == 201
    invite = browser.find_element(By.ID, "invite").get_attribute("href")
    phone = make_driver(375, 740, mobile=True)
    try:
        sign_in(phone, server, "friend", "friend password")
        phone.get(invite)
        click(phone, By.ID, "join")
        wait(phone).until(lambda d: now_playing(d) == now_playing(browser))
        wait(browser).until(lambda d: "friend" in text(d, "#people"))
        # The host's device plays; the phone is a remote that shows where the song is.
        assert phone.find_element(By.ID, "main").get_attribute("data-player") == "remote"
        assert "friend" not in text(phone, "#player-line") and "remote" in text(phone, "#player-line")
        for driver in (browser, phone):
            severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]
            assert not severe, severe
    finally:
        phone.quit()
