"""TuneTrivia on the big screen, read from 3-4 m away on a 1280-wide TV and a 1080p one:
everything the room reads (lobby names, the code, who has answered, the answer, trivia,
scores, the podium) is at least 4% of the screen's height, each view uses the whole screen
without scrolling, the podium fills it, and the TV (the one device on the room's speakers)
plays the victory fanfare at the end of the game."""
import os

from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import register, text, wait
from test_tunetrivia_room import SOUND_SPY, VICTORY_NOTE

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")
SCREENS = [(1280, 720), (1920, 1080)]


def size(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    wait(driver, 10).until(lambda d: d.execute_script("return innerWidth === arguments[0] && innerHeight === arguments[1]", width, height))


def too_small(driver, selectors):
    """Each selector whose text (any element of it with text of its own) is under 4% of the
    window's height: [selector, font size, height]."""
    return driver.execute_script("""
        const small = [];
        for (const css of arguments[0]) {
          const found = [...document.querySelectorAll(css)];
          if (!found.length) { small.push([css, "missing", innerHeight]); continue; }
          for (const e of found) {
            for (const t of [e, ...e.querySelectorAll("*")]) {
              const own = [...t.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
              const size = parseFloat(getComputedStyle(t).fontSize);
              if (own && t.getClientRects().length && size < 0.04 * innerHeight - 0.01) small.push([css, size, innerHeight]);
            }
          }
        }
        return small;
    """, selectors)


def check(driver, name, selectors):
    """At 1280x720 and 1920x1080: the text big enough, the whole screen used, no scrolling."""
    os.makedirs(SHOTS, exist_ok=True)
    for width, height in SCREENS:
        size(driver, width, height)
        if (width, height) == SCREENS[0]:
            driver.save_screenshot(os.path.join(SHOTS, f"tunetrivia-tv-{name}.png"))
        assert too_small(driver, selectors) == [], f"{name} at {width}x{height}"
        fit = driver.execute_script("""
            const stage = document.getElementById("stage").getBoundingClientRect();
            return {scrolls: document.documentElement.scrollHeight > innerHeight + 1 || document.documentElement.scrollWidth > innerWidth + 1,
                    width: stage.width / innerWidth, bottom: stage.bottom / innerHeight};""")
        assert not fit["scrolls"] and fit["width"] >= 0.9 and fit["bottom"] >= 0.9, f"{name} at {width}x{height}: {fit}"
    size(driver, *SCREENS[0])


def test_the_big_screen_reads_across_a_room_and_plays_the_fanfare(server, admin):
    players = [register(server, name) for name in ("tvann", "tvbob", "tvcyd", "tvdee")]
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions",
                           {"title": "Living Room", "num_songs": 5, "seconds_per_song": 30, "trivia_enabled": True}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    for player in players:
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player["token"])[0] == 200
    status, pairing = request(server.base, "POST", base + "/presenter", token=admin["token"])
    assert status == 201, pairing
    tv = make_driver(1280, 720)
    try:
        tv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SOUND_SPY})
        tv.get(server.base + pairing["present_url"])
        wait(tv).until(lambda d: "tvdee" in text(d, "#present-players"))
        check(tv, "lobby", ["#present-players li", "#present-invite-code", ".present-url", ".present-waiting"])

        # Trivia for every round is written before the start (Juke's own, at once).
        wait(tv).until(lambda d: all(r["has_trivia"] for r in request(server.base, "GET", base + "/rounds", token=admin["token"])[1]))
        assert request(server.base, "POST", base + "/start", token=admin["token"])[0] == 200
        rounds = request(server.base, "GET", base + "/rounds", token=admin["token"])[1]
        assert request(server.base, "POST", base + "/guess", {"artist_guess": rounds[0]["artist"], "song_guess": rounds[0]["title"]}, token=players[0]["token"])[0] == 202
        wait(tv).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#present-who li.answered"))
        check(tv, "song", ["#present-who li", "#present-answered", ".present-song-number"])

        assert request(server.base, "POST", base + "/reveal", token=admin["token"])[0] == 200
        wait(tv).until(lambda d: text(d, "#present-answer") == rounds[0]["title"] and d.find_elements(By.ID, "present-trivia"))
        check(tv, "reveal", ["#present-answer", ".present-artist", ".present-question", ".present-options li", "#present-scores li"])

        # The end: the fanfare on the room's speakers, the podium filling the screen.
        assert VICTORY_NOTE not in tv.execute_script("return window.__notes")
        assert request(server.base, "POST", base + "/end", token=admin["token"])[0] == 200
        wait(tv).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#present-podium li"))
        wait(tv, 10).until(lambda d: VICTORY_NOTE in d.execute_script("return window.__notes"))
        check(tv, "podium", ["#present-podium li", "#present-scores li"])
        for width, height in SCREENS:
            size(tv, width, height)
            podium = tv.execute_script("const r = document.getElementById('present-podium').getBoundingClientRect(); return {width: r.width / innerWidth, height: r.height / innerHeight}")
            assert podium["width"] >= 0.8 and podium["height"] >= 0.5, f"the podium at {width}x{height}: {podium}"
        # First place in the middle and tallest, though the others tie for second.
        places = tv.execute_script("return [...document.querySelectorAll('#present-podium li')].map((e) => { const r = e.getBoundingClientRect(); return [e.querySelector('.rank').textContent, (r.left + r.right) / 2 / innerWidth, r.height]; })")
        first = places[0]
        assert first[0] == "#1" and 0.4 < first[1] < 0.6 and first[2] == max(p[2] for p in places), places
    finally:
        tv.quit()
