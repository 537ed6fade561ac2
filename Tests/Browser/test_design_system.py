"""Site-wide checks of the design system, on every page of the platform and its four apps:
axe-core finds no serious or critical accessibility violation; at 320 px (mobile emulation:
headless Chromium never makes a window narrower than 500 px) with a 64-character unbroken
display name no page scrolls sideways and the header breaks no word; no page draws an icon
with an emoji or symbol character; the icons module is served and kept for offline. Every page
is also photographed at 375x667 and 1280x800 into .build/screenshots/ for a person to look at.

axe-core is the copy in the axe-selenium-python wheel: Scripts/test.sh installs it into the
tools venv (Scripts/tools-venv.sh) and exports JUKE_AXE_JS; without it the axe checks fail in
CI and are skipped elsewhere.

Dual Player's page is checked by its own tests below (named for it), so its results read
apart from the rest."""
import base64
import glob
import json
import os
import re
import shutil
import tempfile
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import DEMO_TRACKS, JukeServer, make_driver, request
from helpers import sign_in, wait

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
SHOTS = os.path.join(ROOT, ".build", "screenshots")
# The longest display name registration allows (AccountRules: 64 characters), with no space.
LONG_NAME = "Maximilian" * 6 + "Zeta"
assert len(LONG_NAME) == 64
# Symbol and emoji blocks (arrows, technical, geometric shapes, dingbats, emoji): icons are SVG.
SYMBOLS = re.compile("[\u2190-\u21ff\u2300-\u23ff\u25a0-\u25ff\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff]")


def axe_source():
    path = os.environ.get("JUKE_AXE_JS") or next(iter(glob.glob(
        os.path.join(ROOT, ".build", "tools-venv", "lib", "python*", "site-packages", "axe_selenium_python", "**", "axe.min.js"),
        recursive=True)), None)
    if not path or not os.path.exists(path):
        if os.environ.get("CI"):
            pytest.fail("axe.min.js not found: Scripts/test.sh installs axe-selenium-python into the tools venv")
        pytest.skip("axe.min.js not found (Scripts/tools-venv.sh axe_selenium_python=axe-selenium-python)")
    with open(path, encoding="utf-8") as f:
        return f.read()


@pytest.fixture(scope="module")
def site():
    """A server of its own whose admin has the longest display name, and one of everything a
    page can show: a TuneTrivia game, a Back2Back session and a finished RunBeat workout."""
    data = tempfile.mkdtemp(prefix="juke-design-")
    server = JukeServer(data)
    try:
        status, account = request(server.base, "POST", "/api/v1/auth/register",
                                  {"username": "designer", "password": "designer password", "display_name": LONG_NAME})
        assert status == 201, account
        token = account["token"]
        server.wait_for_tracks(token, DEMO_TRACKS)
        status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Design night", "num_songs": 5}, token=token)
        assert status == 201, game
        status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "Design session"}, token=token)
        assert status == 201, session
        status, workout = request(server.base, "POST", "/api/v1/runbeat/workouts", {"plan_id": "free"}, token=token)
        assert status == 201, workout
        assert request(server.base, "POST", f"/api/v1/runbeat/workouts/{workout['id']}/end", {"elapsed": 60}, token=token)[0] == 200
        pages = {
            "sign-in": "/login", "register": "/register",
            "home": "/", "library-admin": "/library", "account": "/account",
            "tunetrivia": "/tunetrivia", "tunetrivia-game": f"/tunetrivia/{game['id']}",
            "tunetrivia-present": "/tunetrivia/present", "tunetrivia-join": f"/tunetrivia/join/{game['invite_code']}",
            "back2back": "/back2back", "back2back-session": f"/back2back/{session['id']}",
            "back2back-join": f"/back2back/join/{session['invite_token']}",
            "runbeat": "/runbeat", "runbeat-history": "/runbeat/history",
            "runbeat-workout": f"/runbeat/workouts/{workout['id']}", "runbeat-coach": "/runbeat/coach",
            "dual": "/dual",
        }
        yield server, pages
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


SIGNED_OUT = {"sign-in", "register"}
PLATFORM_AND_APPS = ["sign-in", "register", "home", "library-admin", "account", "tunetrivia", "tunetrivia-game", "tunetrivia-present",
                     "tunetrivia-join", "back2back", "back2back-session", "back2back-join", "runbeat", "runbeat-history",
                     "runbeat-workout", "runbeat-coach"]


class Drivers:
    """Browsers made once per size and kept for the module: one signed out, one signed in."""

    def __init__(self, server):
        self.server = server
        self.made = {}

    def get(self, width, height, mobile, signed_in):
        key = (width, height, mobile, signed_in)
        if key not in self.made:
            # At most three browsers at once: the oldest goes (it is made again if asked for).
            while len(self.made) >= 3:
                self.made.pop(next(iter(self.made))).quit()
            driver = make_driver(width, height, mobile=mobile, lasting=True)
            driver.set_script_timeout(120)
            if signed_in:
                sign_in(driver, self.server, "designer", "designer password")
            self.made[key] = driver
        return self.made[key]

    def quit(self):
        for driver in self.made.values():
            driver.quit()


@pytest.fixture(scope="module")
def drivers(site):
    made = Drivers(site[0])
    yield made
    made.quit()


def open_page(drivers, site, name, width=1280, height=800, mobile=False):
    server, pages = site
    driver = drivers.get(width, height, mobile, name not in SIGNED_OUT)
    driver.get(server.base + pages[name])
    wait(driver).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # The page's script draws its lists from the API: let them arrive.
    wait(driver).until(lambda d: not d.execute_script("return !!document.querySelector('[aria-busy=\"true\"]')"))
    # Settled: its fonts loaded and every transition or animation that ends has ended, so that
    # contrast, sizes and screenshots are read as a person sees the page (an endless one, a
    # spinner, never ends).
    wait(driver).until(lambda d: d.execute_script(
        "return document.fonts.status === 'loaded' && document.getAnimations().every((a) =>"
        " a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)"))
    return driver


def axe_violations(driver):
    """axe-core's violations of impact serious or critical, each with a few of its nodes."""
    driver.execute_script(axe_source())
    found = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        axe.run(document, { resultTypes: ["violations"] })
          .then((r) => done(r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 6).map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\\s+/g, " ")) }))))
          .catch((e) => done([{ id: "axe-error", impact: "critical", help: String(e), nodes: [] }]));
    """)
    return [v for v in found if v["impact"] in ("serious", "critical")]


def fits_and_header_whole(driver):
    """What is wrong at this width: the page wider than the window, or a header or tab bar
    word broken over two lines (each text in them must be one line)."""
    return driver.execute_script("""
        const problems = [];
        const width = document.documentElement.scrollWidth, inner = window.innerWidth;
        if (width > inner) {
          const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > inner + 1)
            .filter((e) => getComputedStyle(e).position !== "fixed").slice(0, 5)
            .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + String(e.className).split(" ").join(".") : ""));
          problems.push(`scrollWidth ${width} > innerWidth ${inner}: ${wide.join(", ")}`);
        }
        for (const bar of document.querySelectorAll("header.top, .tabbar")) {
          const walker = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            const lines = new Set(rects.map((r) => Math.round(r.top)));
            if (lines.size > 1) problems.push(`"${node.textContent.trim()}" is on ${lines.size} lines`);
          }
        }
        return problems;
    """)


def small_targets(driver):
    """Buttons and links in lists (and the header's and tab bar's) smaller than 44x44 px."""
    return driver.execute_script("""
        const small = [];
        for (const e of document.querySelectorAll("button, li a, header.top a, .tabbar a, [role=tab]")) {
          const r = e.getBoundingClientRect();
          if (!r.width || !r.height || getComputedStyle(e).visibility === "hidden") continue;
          if (Math.min(r.width, r.height) < 43.5) {
            const name = e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).trim().split(/\\s+/).join(".") : "");
            small.push(`${name} "${(e.innerText || e.getAttribute("aria-label") || "").trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
          }
        }
        return small;
    """)


def symbols_shown(driver):
    """Text on the page (and in ::before/::after) drawn from symbol or emoji blocks."""
    texts = driver.execute_script("""
        const out = [document.body.innerText];
        for (const e of document.querySelectorAll("body *")) {
          for (const pseudo of ["::before", "::after"]) {
            const content = getComputedStyle(e, pseudo).content;
            if (content && content !== "none" && content !== "normal") out.push(content);
          }
        }
        return out;
    """)
    return sorted({m for t in texts for m in SYMBOLS.findall(t)})


def screenshot(driver, name, size):
    os.makedirs(SHOTS, exist_ok=True)
    # The whole page, not only the window (the clip is at least the window's width: the content
    # size leaves out what a scroll bar covers).
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    content = metrics.get("cssContentSize") or metrics["contentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": max(content["width"], driver.execute_script("return window.innerWidth")),
                 "height": min(content["height"], 6000), "scale": 1}})
    with open(os.path.join(SHOTS, f"{name}-{size}.png"), "wb") as f:
        f.write(base64.b64decode(shot["data"]))


# ---- axe-core ----

@pytest.mark.parametrize("name", PLATFORM_AND_APPS)
def test_no_serious_accessibility_violation(site, drivers, name):
    driver = open_page(drivers, site, name)
    found = axe_violations(driver)
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("name", PLATFORM_AND_APPS)
def test_no_serious_accessibility_violation_on_a_phone(site, drivers, name):
    driver = open_page(drivers, site, name, 375, 667, mobile=True)
    found = axe_violations(driver)
    assert not found, json.dumps(found, indent=1)


def test_dual_player_has_no_serious_accessibility_violation(site, drivers):
    for width, height, mobile in ((1280, 800, False), (375, 667, True)):
        driver = open_page(drivers, site, "dual", width, height, mobile)
        found = axe_violations(driver)
        assert not found, f"{width}x{height}: " + json.dumps(found, indent=1)


# ---- 320 px with the longest name ----

@pytest.mark.parametrize("name", PLATFORM_AND_APPS)
def test_fits_320_px_and_breaks_no_header_word(site, drivers, name):
    driver = open_page(drivers, site, name, 320, 640, mobile=True)
    assert fits_and_header_whole(driver) == []


def test_dual_player_fits_320_px_and_breaks_no_header_word(site, drivers):
    driver = open_page(drivers, site, "dual", 320, 640, mobile=True)
    assert fits_and_header_whole(driver) == []


@pytest.mark.parametrize("width", [500, 701, 900])
def test_the_header_breaks_no_word_between_phone_and_desktop(site, drivers, width):
    # Home broke into "Ho / me" at 500 px; the app name and the long account name must end in an ellipsis.
    for name in ("home", "tunetrivia", "back2back"):
        driver = open_page(drivers, site, name, width, 700, mobile=True)
        assert fits_and_header_whole(driver) == [], (name, width)


def test_the_phone_menu_holds_what_the_header_has_no_room_for(site, drivers):
    driver = open_page(drivers, site, "tunetrivia", 320, 640, mobile=True)
    assert driver.find_element(By.CSS_SELECTOR, "header.top .app-title").text == "TuneTrivia"
    assert not driver.find_element(By.ID, "logout").is_displayed()
    driver.find_element(By.CSS_SELECTOR, ".menu-button").click()
    menu = driver.find_element(By.ID, "header-menu")
    wait(driver).until(lambda d: menu.is_displayed())
    items = [e.text for e in menu.find_elements(By.CSS_SELECTOR, "a, button")]
    assert items == ["Home", "Manage library", "Account", "Sign out"], items
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right];", menu)
    assert box[0] >= 0 and box[1] <= 320, box
    assert driver.execute_script("return arguments[0].querySelector('.menu-name span').textContent", menu) == LONG_NAME
    # Escape closes it (a popover needs no script).
    driver.find_element(By.TAG_NAME, "body").send_keys("\ue00c")
    wait(driver).until(lambda d: not menu.is_displayed())


# ---- Touch targets ----

@pytest.mark.parametrize("name", PLATFORM_AND_APPS)
def test_buttons_and_links_in_lists_are_44_px(site, drivers, name):
    driver = open_page(drivers, site, name, 375, 667, mobile=True)
    assert small_targets(driver) == []


def test_dual_player_buttons_and_links_in_lists_are_44_px(site, drivers):
    driver = open_page(drivers, site, "dual", 375, 667, mobile=True)
    assert small_targets(driver) == []


# ---- No symbol characters for icons ----

@pytest.mark.parametrize("name", PLATFORM_AND_APPS)
def test_icons_are_drawn_not_typed(site, drivers, name):
    driver = open_page(drivers, site, name)
    assert symbols_shown(driver) == []


def test_dual_player_icons_are_drawn_not_typed(site, drivers):
    driver = open_page(drivers, site, "dual")
    assert symbols_shown(driver) == []


# ---- The icons module ----

def test_the_icons_module_is_generated_from_the_swift_icons_and_kept_offline(site, drivers):
    server, _ = site
    driver = open_page(drivers, site, "home")
    drawn = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/static/js/icons.js").then(({ ICONS, icon }) => {
          const svg = icon("skipForward", { label: "Forward 30 seconds", text: "30" });
          const plain = icon("play");
          done({ names: Object.keys(ICONS), tag: svg.tagName, label: svg.getAttribute("aria-label"), role: svg.getAttribute("role"),
                 number: svg.querySelector("text").textContent, hidden: plain.getAttribute("aria-hidden"), path: plain.querySelector("path").getAttribute("d") });
        }).catch((e) => done({ error: String(e) }));
    """)
    assert "error" not in drawn, drawn
    for name in ["play", "pause", "previous", "next", "skipBack", "skipForward", "speed", "download", "device", "cast", "menu", "close",
                 "search", "plus", "trash", "heart", "heartOutline", "radio", "book", "podcast", "article", "library", "nowPlaying",
                 "chevronDown", "chevronUp", "more", "retry", "check", "upload", "volume", "settings", "user", "signOut"]:
        assert name in drawn["names"], name
    assert (drawn["tag"], drawn["role"], drawn["label"], drawn["number"]) == ("svg", "img", "Forward 30 seconds", "30")
    assert drawn["hidden"] == "true" and drawn["path"] == "M8 5v14l11-7z"
    # The same path the server draws in its pages (Icons.play in the player bar's play button).
    assert 'd="M8 5v14l11-7z"' in driver.page_source
    # The service worker keeps it with the other files, for offline.
    with urllib.request.urlopen(server.base + "/sw.js") as r:
        assert '"/static/js/icons.js"' in r.read().decode()


# ---- Screenshots for a person ----

@pytest.mark.parametrize("size", ["375x667", "1280x800"])
def test_screenshots(site, drivers, size):
    width, height = (int(n) for n in size.split("x"))
    for name in PLATFORM_AND_APPS + ["dual"]:
        driver = open_page(drivers, site, name, width, height, mobile=width < 500)
        screenshot(driver, name, size)
        assert os.path.getsize(os.path.join(SHOTS, f"{name}-{size}.png")) > 1000
