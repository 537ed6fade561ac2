"""Every TuneTrivia screen at a phone's sizes (375x667, 375x812) and a computer's (1280x800):
the host's lobby (Room, Songs and Settings behind the tab bar), the host's game, a player's
phone and the big screen, through a whole game. On each, the named controls are in the first
screen (above the tab bar), axe-core finds nothing serious, and nothing scrolls sideways at
320 px; each is kept as a screenshot under .build/screenshots for a person to look at. The big
screen lights up the names of those who have answered the song."""
import os

from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import register, sign_in, text, wait
from test_design_system import axe_violations

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")
PHONES = [(375, 667), (375, 812)]
DESKTOP = (1280, 800)


def size(driver, width, height):
    """The page's viewport as a phone's (mobile emulation) or a computer's."""
    mobile = width < 700
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})
    # (On a phone a page wider than the screen is shown zoomed out: a wider window than asked.)
    try:
        wait(driver, 10).until(lambda d: d.execute_script("return innerWidth === arguments[0] && innerHeight === arguments[1]", width, height))
    except Exception:
        driver.save_screenshot(os.path.join(SHOTS, f"tunetrivia-wrong-size-{width}x{height}.png"))
        raise AssertionError(f"asked for {width}x{height}: " + str(driver.execute_script(
            "return [innerWidth, innerHeight, document.documentElement.scrollWidth, [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > arguments[0] + 1).slice(0, 6).map((e) => e.tagName + '#' + e.id + '.' + e.className)]", width)))
    driver.execute_script("scrollTo(0, 0)")


def outside(driver, selectors):
    """The selectors whose element is not wholly in the first screen (above a phone's tab bar)."""
    return driver.execute_script("""
        const bar = document.querySelector(".tabbar");
        const fixed = bar && getComputedStyle(bar).position === "fixed";
        const bottom = fixed ? bar.getBoundingClientRect().top : innerHeight;
        return arguments[0].filter((css) => {
          const e = document.querySelector(css);
          if (!e) return true;
          const r = e.getBoundingClientRect();
          const limit = bar && bar.contains(e) ? innerHeight : bottom;
          return !(r.width > 0 && r.height > 0 && r.top >= 0 && r.bottom <= limit + 0.5 && r.left >= 0 && r.right <= innerWidth + 0.5);
        }).map((css) => { const e = document.querySelector(css); if (!e) return css + ": missing";
          const r = e.getBoundingClientRect(); return `${css}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${Math.round(bottom)}`; });
    """, selectors)


def sideways(driver):
    """[page width, window width] when the page scrolls sideways, else None."""
    widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    return widths if widths[0] > widths[1] else None


def check(driver, name, controls):
    """The screen `name` at each size: its controls in the first screen, axe-core clean and
    no sideways scrolling (at 320 px too), a screenshot each."""
    os.makedirs(SHOTS, exist_ok=True)
    for width, height in PHONES + [DESKTOP]:
        size(driver, width, height)
        driver.save_screenshot(os.path.join(SHOTS, f"tunetrivia-{name}-{width}x{height}.png"))
        assert outside(driver, controls) == [], f"{name} at {width}x{height}"
        assert axe_violations(driver) == [], f"{name} at {width}x{height}"
        assert sideways(driver) is None, f"{name} scrolls sideways at {width} px: {sideways(driver)}"
    size(driver, 320, 640)
    assert sideways(driver) is None, f"{name} scrolls sideways at 320 px: {sideways(driver)}"
    assert axe_violations(driver) == [], f"{name} at 320x640"
    size(driver, *PHONES[0])


def test_the_pages_around_a_game_fit_every_width(server, admin):
    """The home page (join, new game), the invite link's sign-in page and the big screen's
    pairing page: axe-core clean and no sideways scrolling at 320, 375 and 1280 px."""
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Around", "num_songs": 5}, token=admin["token"])
    assert status == 201, game
    driver = make_driver(375, 667, mobile=True)
    try:
        driver.get(server.base + "/tunetrivia/join/" + game["invite_code"])
        wait(driver).until(lambda d: d.find_elements(By.ID, "login-form"))
        check(driver, "invite-sign-in", ["#auth-title", "#username", "#password"])
        driver.get(server.base + "/tunetrivia/present")
        wait(driver).until(lambda d: d.find_element(By.ID, "pair").is_displayed())
        check(driver, "present-pairing", ["#pair-code"])
        sign_in(driver, server, admin["username"], admin["password"])
        driver.get(server.base + "/tunetrivia")
        wait(driver).until(lambda d: d.find_elements(By.ID, "join-form"))
        check(driver, "home", ["#join-code"])
    finally:
        driver.quit()


def show(driver, screen, heading):
    driver.execute_script("location.hash = arguments[0]", screen)
    wait(driver).until(lambda d: d.find_element(By.ID, heading).is_displayed())


def test_every_screen_fits_a_phone_and_a_computer(server, admin):
    # A long name, as people choose them: it must not push anything sideways.
    first, second = register(server, "screenplayer"), register(server, "screensecond" + "x" * 20)
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Screens", "num_songs": 5, "seconds_per_song": 30, "trivia_enabled": False}, token=admin["token"])
    assert status == 201, game
    base = f"/api/v1/tunetrivia/sessions/{game['id']}"
    assert request(server.base, "POST", base + "/rounds/auto-generate", token=admin["token"])[0] == 200
    for account in (first, second):
        assert request(server.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=account["token"])[0] == 200
    host, player, tv = make_driver(375, 667, mobile=True), make_driver(375, 812, mobile=True), make_driver(1280, 800)
    try:
        sign_in(host, server, admin["username"], admin["password"])
        host.get(server.base + "/tunetrivia/" + game["id"])
        wait(host).until(lambda d: "screenplayer" in text(d, "#players"))
        sign_in(player, server, "screenplayer", "screenplayer password")
        player.get(server.base + "/tunetrivia/" + game["id"])
        wait(player).until(lambda d: d.find_elements(By.ID, "waiting"))

        # The host's lobby: the code, the QR code, the players and Start in the first screen;
        # the songs and the settings behind their tabs.
        check(host, "host-lobby", ["#invite-code", "#invite-qr", "#players-title", "#players", "#start", ".tabbar a[href='#songs']", ".tabbar a[href='#settings']"])
        assert host.find_element(By.CSS_SELECTOR, ".tabbar a[href='#room']").get_attribute("aria-current") == "page"
        host.find_element(By.CSS_SELECTOR, ".tabbar a[href='#songs']").click()
        wait(host).until(lambda d: d.find_element(By.ID, "songs-title").is_displayed())
        assert not host.find_element(By.ID, "start").is_displayed()
        assert host.find_element(By.CSS_SELECTOR, ".tabbar a[href='#songs']").get_attribute("aria-current") == "page"
        check(host, "host-songs", ["#songs-title", "#rounds li"])
        show(host, "settings", "settings-title")
        check(host, "host-settings", ["#settings-title", "#settings-form input[name=title]"])
        # Back goes to the screen before, as a phone's Back does.
        host.back()
        wait(host).until(lambda d: d.find_element(By.ID, "songs-title").is_displayed())
        show(host, "room", "start")
        check(player, "player-lobby", ["#waiting", "#players"])

        # The big screen, paired by the host's one-time code.
        status, pairing = request(server.base, "POST", base + "/presenter", token=admin["token"])
        assert status == 201, pairing
        tv.get(server.base + pairing["present_url"])
        wait(tv).until(lambda d: text(d, "#present-invite-code") == game["invite_code"])
        check(tv, "presenter-lobby", ["#present-invite-code", "#present-qr"])

        # A song: every screen with its countdown and what is done during it.
        assert request(server.base, "POST", base + "/start", token=admin["token"])[0] == 200
        wait(player).until(lambda d: d.find_elements(By.ID, "guess-form"))
        check(player, "player-song", ["#countdown", "#guess-form input[name=artist]", "#guess-form input[name=song]", "#submit-guess"])
        wait(host).until(lambda d: d.find_elements(By.ID, "reveal"))
        assert not host.find_elements(By.CSS_SELECTOR, ".tabbar"), "the lobby's tabs go once the game starts"
        check(host, "host-song", ["#countdown", "#answered", "#reveal", "#pause", "#end"])

        # The big screen names everyone and lights up who has answered, never what.
        wait(tv).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#present-who li"))
        assert not tv.find_elements(By.CSS_SELECTOR, "#present-who li.answered")
        assert request(server.base, "POST", base + "/guess", {"artist_guess": "some artist", "song_guess": "some song"}, token=second["token"])[0] == 202
        lit = wait(tv).until(lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#present-who li.answered")])
        assert lit == ["screensecond" + "x" * 20], lit
        assert "screenplayer" in text(tv, "#present-who") and "some artist" not in text(tv, "body")
        check(tv, "presenter-song", ["#present-countdown", "#present-answered", "#present-who"])

        # The reveal and the end.
        assert request(server.base, "POST", base + "/reveal", token=admin["token"])[0] == 200
        wait(player).until(lambda d: d.find_elements(By.ID, "answer"))
        check(player, "player-reveal", ["#answer"])
        wait(host).until(lambda d: d.find_elements(By.ID, "next"))
        check(host, "host-reveal", ["#answer", "#next"])
        wait(tv).until(lambda d: d.find_elements(By.ID, "present-answer"))
        check(tv, "presenter-reveal", ["#present-answer"])
        assert request(server.base, "POST", base + "/end", token=admin["token"])[0] == 200
        wait(player).until(lambda d: d.find_elements(By.ID, "podium"))
        check(player, "player-results", ["#podium", "#my-final"])
        wait(tv).until(lambda d: d.find_elements(By.ID, "present-podium"))
        check(tv, "presenter-results", ["#present-podium"])
    finally:
        for driver in (host, player, tv):
            driver.quit()
