"""RunBeat as screens, and its run controls, as a runner uses them: every screen on a 375x667
phone (mobile emulation: headless Chromium keeps windows at least 500 px wide) and at
1280x800, photographed into .build/screenshots, axe-core clean, no Content-Security-Policy
violation, nothing of the platform's green, nothing scrolling sideways at 320 px; the Run
screen's heart rate, zone, phase, time left, chart and controls in the phone's first screen
above the tab bar, the chart's words at least 11 CSS px. Then Pause/Resume, the press-and-hold
end with its keyboard confirmation, and four bugs, each with the test that failed before:
a strap's silence that never cleared, the reload note left on the summary, a refused music
choice that said nothing, and zone bounds that lost the focus at each arrow key."""
import os
import time
import uuid

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import make_driver, request
from helpers import click, register, sign_in, wait
from test_design_system import axe_violations
from test_runbeat_browser import FAKE_VOICE, choose_plan, end_workout, hold_to_end, show, start_simulated

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")
# The welcome (before a first workout), the history and a class are the trainer's screens too.
SCREENS = ["welcome", "history", "coach", "profile", "workout", "run", "summary"]
# What a runner glances at and presses, all in the first screen of a phone while running.
RUN_CONTROLS = ["#rb-bpm", "#rb-zone", "#rb-phase-name", "#rb-phase-left", "#rb-chart", "#rb-pause", "#rb-end"]

# Records the CSS size of every word drawn on a canvas: its font times the drawing's scale,
# over the canvas's pixels per CSS pixel.
LABEL_SPY = """
window.__labels = [];
const fill = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, x, y, width) {
  const canvas = this.canvas;
  const perCss = canvas.clientWidth ? canvas.width / canvas.clientWidth : 1;
  const px = (parseFloat(this.font) * this.getTransform().a) / perCss;
  window.__labels.push({ canvas: canvas.id, px, text: String(text) });
  if (window.__labels.length > 500) window.__labels.splice(0, 250);
  return fill.call(this, text, x, y, width);
};
"""

# Any element drawn in the platform's green (#1db954) or the old summary's (#1e8449).
GREEN = """
const greens = ["rgb(29, 185, 84)", "rgb(30, 132, 73)"];
const props = ["color", "background-color", "border-top-color", "border-left-color", "border-bottom-color", "border-right-color",
               "outline-color", "fill", "stroke", "accent-color", "caret-color"];
const found = [];
for (const e of document.querySelectorAll("*")) {
  const style = getComputedStyle(e);
  for (const p of props) if (greens.includes(style.getPropertyValue(p))) found.push(`${e.tagName.toLowerCase()}#${e.id}.${String(e.className)} ${p}`);
  for (const pseudo of ["::before", "::after", "::marker"]) {
    const s = getComputedStyle(e, pseudo);
    if (greens.includes(s.color) || greens.includes(s.backgroundColor)) found.push(`${e.tagName.toLowerCase()}${pseudo}`);
  }
}
return found.slice(0, 10);
"""


def csp_violations(driver):
    return [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"] or "Content-Security-Policy" in e["message"]]


def check_page(driver, name, size, csp):
    """What every RunBeat page and screen must be: photographed, axe-clean, green-free, no wider than the window."""
    os.makedirs(SHOTS, exist_ok=True)
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), f"{name} scrolls sideways at {size}"
    assert axe_violations(driver) == [], name
    assert driver.execute_script(GREEN) == [], name
    csp.extend(csp_violations(driver))
    driver.save_screenshot(os.path.join(SHOTS, f"runbeat-{name}-{size}.png"))


def boxes(driver, selectors):
    return driver.execute_script("""
        return arguments[0].map((s) => { const r = document.querySelector(s).getBoundingClientRect();
          return {s, top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width}; });""", selectors)


def set_profile(server, token, **extra):
    body = {"age": 30, "resting": 60, "formula": "fox", **extra}
    status, profile = request(server.base, "PUT", "/api/v1/runbeat/profile", body, token)
    assert status == 200, profile
    return profile


@pytest.fixture
def small_phone():
    driver = make_driver(375, 667, mobile=True)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LABEL_SPY})
    yield driver
    driver.quit()


def test_every_screen_on_a_phone_and_the_run_in_its_first_screen(server, admin, small_phone):
    driver = small_phone
    account = register(server, "screens")
    set_profile(server, account["token"], warmup_seconds=60, cooldown_seconds=60)
    sign_in(driver, server, "screens", "screens password")
    driver.get(server.base + "/runbeat")
    # No address names a screen: the Run screen, ready to start.
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-run").is_displayed())
    wait(driver).until(lambda d: "VO2 Max 4x4" in d.find_element(By.ID, "rb-chosen-plan").text)
    csp = []
    for screen in SCREENS:
        show(driver, screen)
        if screen == "profile":
            wait(driver).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".rb-zones tbody tr")) == 5)
        if screen == "workout":
            wait(driver).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".rb-music-phase")) == 4)
        check_page(driver, screen, "375x667", csp)
    # The tab bar's screens are links with the current one marked, and Back returns.
    driver.find_element(By.CSS_SELECTOR, ".tabbar a[href='/runbeat#profile']").click()
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-profile").is_displayed())
    assert driver.find_element(By.CSS_SELECTOR, ".tabbar a[href='/runbeat#profile']").get_attribute("aria-current") == "page"
    driver.back()
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-summary").is_displayed())

    start_simulated(driver, speed="10")
    wait(driver).until(lambda d: d.find_element(By.ID, "rb-bpm").text.isdigit())
    wait(driver).until(lambda d: d.find_element(By.ID, "rb-phase-left").text)
    assert driver.execute_script("return scrollY") == 0
    tab_top = driver.execute_script("return document.querySelector('.tabbar').getBoundingClientRect().top")
    assert driver.execute_script("return innerHeight") == 667
    for box in boxes(driver, RUN_CONTROLS):
        assert box["width"] > 0, f"{box['s']} is not drawn"
        assert box["top"] >= 0 and box["bottom"] <= tab_top, f"{box['s']} is not in the first screen above the tab bar: {box}"
        assert box["left"] >= 0 and box["right"] <= 375, f"{box['s']} is outside the phone's width: {box}"
    # The chart: the screen's whole width, dark, its words at least 11 CSS px.
    chart = boxes(driver, ["#rb-chart", "#main"])
    assert chart[0]["width"] >= 375 - 2 * 16, chart
    background = driver.execute_script("return getComputedStyle(document.getElementById('rb-chart')).backgroundColor")
    assert background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)") and sum(int(c) for c in background[4:-1].split(",")[:3]) < 150, background
    labels = wait(driver).until(lambda d: d.execute_script("return window.__labels.filter((l) => l.canvas === 'rb-chart')"))
    assert min(label["px"] for label in labels) >= 11, labels[:5]
    check_page(driver, "run-live", "375x667", csp)

    hold_to_end(driver)
    wait(driver).until(lambda d: "Zone" in d.find_element(By.CSS_SELECTOR, "#rb-summary .rb-summary-body").text)
    summary_labels = driver.execute_script("return window.__labels.filter((l) => l.canvas === 'rb-summary-chart')")
    assert summary_labels and min(label["px"] for label in summary_labels) >= 11
    check_page(driver, "summary-workout", "375x667", csp)
    for name, path in [("history", "/runbeat/history"), ("coach", "/runbeat/coach")]:
        driver.get(server.base + path)
        wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, ".tabbar a[aria-current='page']"))
        check_page(driver, name, "375x667", csp)
    assert csp == [], csp


def test_every_screen_at_1280_and_none_scrolls_sideways_at_320(server, admin):
    # Two runners: one workout runs at a time for each.
    for name in ("widescreens", "narrowscreens"):
        set_profile(server, register(server, name)["token"])
    wide = make_driver(1280, 800)
    narrow = make_driver(320, 640, mobile=True)
    csp = []
    try:
        for driver, name in ((wide, "widescreens"), (narrow, "narrowscreens")):
            sign_in(driver, server, name, name + " password")
            driver.get(server.base + "/runbeat")
            wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".rb-plans input"))
        for screen in SCREENS:
            show(wide, screen)
            check_page(wide, screen, "1280x800", csp)
            show(narrow, screen)
            check_page(narrow, screen, "320x640", csp)
        start_simulated(wide, speed="10", plan="free")
        wait(wide).until(lambda d: d.find_element(By.ID, "rb-bpm").text.isdigit())
        # Free training has no time left to show: everything else is in the window.
        for box in boxes(wide, [c for c in RUN_CONTROLS if c != "#rb-phase-left"]):
            assert box["width"] > 0 and box["top"] >= 0 and box["bottom"] <= 800, box
        check_page(wide, "run-live", "1280x800", csp)
        start_simulated(narrow, speed="10", plan="free")
        wait(narrow).until(lambda d: d.find_element(By.ID, "rb-bpm").text.isdigit())
        check_page(narrow, "run-live", "320x640", csp)
        end_workout(wide)
        wait(wide).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
        check_page(wide, "summary-workout", "1280x800", csp)
        for name, path in [("history", "/runbeat/history"), ("coach", "/runbeat/coach")]:
            wide.get(wide.current_url.split("/runbeat")[0] + path)
            wait(wide).until(lambda d: d.find_element(By.CSS_SELECTOR, ".tabbar a[aria-current='page']"))
            check_page(wide, name, "1280x800", csp)
            narrow.get(server.base + path)
            wait(narrow).until(lambda d: d.find_element(By.CSS_SELECTOR, ".tabbar"))
            check_page(narrow, name, "320x640", csp)
        assert csp == [], csp
    finally:
        wide.quit()
        narrow.quit()


def seconds(text):
    parts = [int(p) for p in text.split(":")]
    return parts[0] * 60 + parts[1] if len(parts) == 2 else parts[0] * 3600 + parts[1] * 60 + parts[2]


def test_pause_stops_the_clock_cues_and_music_and_resume_carries_on(server, admin, browser):
    account = register(server, "runpauser")
    token = account["token"]
    set_profile(server, token)
    sign_in(browser, server, "runpauser", "runpauser password")
    browser.get(server.base + "/runbeat")
    started = time.monotonic()
    start_simulated(browser, speed="10")
    audio_playing = "const a = document.getElementById('rb-audio'); return Boolean(a.src) && !a.paused"
    wait(browser, 60).until(lambda d: d.execute_script(audio_playing))
    wait(browser).until(lambda d: seconds(d.find_element(By.ID, "rb-elapsed").text) >= 20)
    assert browser.find_element(By.ID, "rb-phase-name").text == "Warm-up"

    click(browser, By.ID, "rb-pause")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-pause").get_attribute("aria-pressed") == "true")
    paused_at = browser.execute_script("return performance.now()")
    frozen = [browser.find_element(By.ID, i).text for i in ("rb-elapsed", "rb-phase-left", "rb-phase-name")]
    said = len(browser.execute_script("return window.__said"))
    assert browser.find_element(By.ID, "rb-paused").is_displayed()
    assert "Resume" in browser.find_element(By.ID, "rb-pause").text
    assert browser.execute_script("return document.getElementById('rb-audio').paused")
    # Four seconds of the page's own time (forty of the workout's at 10x): nothing moves.
    wait(browser).until(lambda d: d.execute_script("return performance.now()") > paused_at + 4000)
    assert [browser.find_element(By.ID, i).text for i in ("rb-elapsed", "rb-phase-left", "rb-phase-name")] == frozen
    assert len(browser.execute_script("return window.__said")) == said, "a cue was spoken while paused"
    assert browser.execute_script("return document.getElementById('rb-audio').paused")

    click(browser, By.ID, "rb-pause")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-pause").get_attribute("aria-pressed") == "false")
    pause_wall = (browser.execute_script("return performance.now()") - paused_at) / 1000
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-elapsed").text != frozen[0])
    # The warm-up goes on from where it stopped, and so does its music.
    assert browser.find_element(By.ID, "rb-phase-name").text == "Warm-up"
    assert seconds(browser.find_element(By.ID, "rb-phase-left").text) <= seconds(frozen[1])
    wait(browser).until(lambda d: d.execute_script(audio_playing))
    assert not browser.find_element(By.ID, "rb-paused").is_displayed()
    wait(browser).until(lambda d: seconds(d.find_element(By.ID, "rb-elapsed").text) >= seconds(frozen[0]) + 20)
    end_workout(browser)
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    wall = time.monotonic() - started

    _, workouts = request(server.base, "GET", "/api/v1/runbeat/workouts", None, token)
    detail = request(server.base, "GET", f"/api/v1/runbeat/workouts/{workouts['workouts'][0]['id']}", None, token)[1]
    times = [s["t"] for s in detail["heart_rate"]]
    # One sample a workout second, before and after the pause alike: no gap where it was.
    gaps = [(a, b) for a, b in zip(times, times[1:]) if b - a > 1.01]
    assert not gaps, (gaps, frozen)
    # The paused time is not the workout's (at 10x it would add forty seconds and more).
    assert detail["seconds"] <= (wall - pause_wall) * 10 + 5, (detail["seconds"], wall, pause_wall)


def test_a_hold_ends_the_workout_and_letting_go_early_does_not(server, admin, browser):
    account = register(server, "holder")
    token = account["token"]
    set_profile(server, token)
    sign_in(browser, server, "holder", "holder password")
    browser.get(server.base + "/runbeat")
    start_simulated(browser, speed="10", plan="free")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-bpm").text.isdigit())
    end = browser.find_element(By.ID, "rb-end")
    assert end.get_attribute("data-hold") == "idle"

    # Pressed: the ring fills; let go early and nothing ends.
    ActionChains(browser).click_and_hold(end).perform()
    wait(browser).until(lambda d: d.execute_script(
        "return parseFloat(getComputedStyle(document.querySelector('#rb-end .rb-hold-fill')).strokeDashoffset) < 95"))
    assert end.get_attribute("data-hold") == "holding"
    ActionChains(browser).release().perform()
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-end").get_attribute("data-hold") == "idle")
    released = seconds(browser.find_element(By.ID, "rb-elapsed").text)
    # Long past the 1.5 s a hold takes (30 workout seconds at 10x): still running.
    wait(browser).until(lambda d: seconds(d.find_element(By.ID, "rb-elapsed").text) >= released + 30)
    assert browser.find_element(By.ID, "rb-run").is_displayed()
    assert request(server.base, "GET", "/api/v1/runbeat/workouts/running", None, token)[0] == 200

    # From the keyboard: Enter asks, and "Keep going" keeps going.
    end.send_keys(Keys.ENTER)
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('rb-end-confirm').open"))
    assert browser.switch_to.active_element.get_attribute("id") == "rb-end-cancel"
    click(browser, By.ID, "rb-end-cancel")
    wait(browser).until(lambda d: not d.execute_script("return document.getElementById('rb-end-confirm').open"))
    assert browser.find_element(By.ID, "rb-run").is_displayed()

    # Held to the end: the workout ends, and the summary shows.
    hold_to_end(browser)
    _, workouts = request(server.base, "GET", "/api/v1/runbeat/workouts", None, token)
    assert workouts["workouts"][0]["status"] == "ended"


def tcx_with_a_gap(path):
    """30 s at 120 bpm, 20 s of nothing, then 30 s at 150 bpm."""
    points = "".join(
        f"<Trackpoint><Time>2024-05-01T06:{t // 60:02d}:{t % 60:02d}Z</Time><HeartRateBpm><Value>{120 if t < 30 else 150}</Value></HeartRateBpm></Trackpoint>"
        for t in list(range(0, 30)) + list(range(50, 80)))
    path.write_text(
        '<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">'
        '<Activities><Activity Sport="Running"><Id>2024-05-01T06:00:00Z</Id><Lap StartTime="2024-05-01T06:00:00Z">'
        f"<TotalTimeSeconds>80</TotalTimeSeconds><Track>{points}</Track></Lap></Activity></Activities></TrainingCenterDatabase>")


def test_a_strap_silent_for_20_s_is_live_again_when_samples_resume(server, admin, browser, tmp_path):
    tcx = tmp_path / "gap.tcx"
    tcx_with_a_gap(tcx)
    set_profile(server, register(server, "gapper")["token"])
    sign_in(browser, server, "gapper", "gapper password")
    browser.get(server.base + "/runbeat")
    browser.execute_script(FAKE_VOICE)
    choose_plan(browser, "free")
    browser.find_element(By.ID, "rb-replay").send_keys(str(tcx))
    wait(browser).until(lambda d: "Replay: 60 samples" in d.find_element(By.ID, "rb-strap-status").text)
    browser.execute_script("document.getElementById('rb-speed').value = '5'")
    click(browser, By.ID, "rb-start")
    # The gap: the server hears nothing for 10 s of the workout and says so.
    wait(browser, 60).until(lambda d: "silent" in d.find_element(By.ID, "rb-strap-live").text)
    assert "Heart rate lost" in browser.find_element(By.ID, "rb-cue").text
    assert any("Heart rate lost" in s for s in browser.execute_script("return window.__said"))
    # Samples again: the heart rate moves, and the silence is over on the screen.
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-bpm").text == "150")
    wait(browser).until(lambda d: "silent" not in d.find_element(By.ID, "rb-strap-live").text)
    assert "silent" not in browser.find_element(By.ID, "rb-strap-live").get_attribute("class")
    assert "Heart rate lost" not in browser.find_element(By.ID, "rb-cue").text
    end_workout(browser)
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())


def test_the_reload_note_shows_on_the_run_screen_and_ends_with_the_run(server, admin, browser):
    register(server, "reloader")
    sign_in(browser, server, "reloader", "reloader password")
    browser.get(server.base + "/runbeat")
    start_simulated(browser, speed="10", plan="free")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
    browser.execute_script("window.onbeforeunload = null")
    browser.refresh()
    wait(browser).until(lambda d: "picked up where it was" in d.find_element(By.ID, "rb-run-note").text)
    assert browser.find_element(By.ID, "rb-run-note").is_displayed()
    assert browser.find_element(By.ID, "screen-run").is_displayed()
    browser.execute_script(FAKE_VOICE)
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
    end_workout(browser)
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    assert "picked up" not in browser.find_element(By.ID, "main").text
    show(browser, "run")
    assert "picked up" not in browser.find_element(By.ID, "main").text


def test_a_music_choice_the_server_refuses_says_why_beside_it(server, admin, browser):
    account = register(server, "deejay")
    token = account["token"]
    _, profile = request(server.base, "GET", "/api/v1/runbeat/profile", None, token)
    music = profile["music"]
    # A work playlist as full as a phase's can be: one more song is refused.
    music["work"] = {"mode": "tracks", "track_ids": [str(uuid.uuid4()) for _ in range(200)]}
    status, body = request(server.base, "PUT", "/api/v1/runbeat/profile/music", music, token)
    assert status == 200, body
    sign_in(browser, server, "deejay", "deejay password")
    browser.get(server.base + "/runbeat#workout")
    wait(browser).until(lambda d: "My songs (200)" in d.find_element(By.ID, "rb-music-work").text)
    search = browser.find_element(By.CSS_SELECTOR, "[data-phase='work'] input[type=search]")
    search.send_keys("spring" + Keys.ENTER)
    search.send_keys(Keys.TAB)
    click(browser, By.CSS_SELECTOR, "[data-phase='work'] .rb-song-results button")
    note = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-phase='work'] .action-error"))
    assert "200" in note.text and note.is_displayed(), note.text
    # Beside the phase's control, and named by it for a screen reader.
    assert browser.find_element(By.ID, "rb-music-work").get_attribute("aria-describedby") == note.get_attribute("id")
    assert "My songs (200)" in browser.find_element(By.ID, "rb-music-work").text
    _, after = request(server.base, "GET", "/api/v1/runbeat/profile", None, token)
    assert len(after["music"]["work"]["track_ids"]) == 200


def test_zone_bounds_stepped_with_the_arrow_keys_keep_the_focus(server, admin, browser):
    account = register(server, "stepper")
    token = account["token"]
    set_profile(server, token, age=40)  # Karvonen: 120, 132, 144, 156, 168 up to 180
    sign_in(browser, server, "stepper", "stepper password")
    browser.get(server.base + "/runbeat#profile")
    bound = wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".rb-bound[data-bound='2']"))
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, ".rb-bound[data-bound='2']").get_attribute("value") == "144")
    bound.click()
    for _ in range(3):
        browser.switch_to.active_element.send_keys(Keys.ARROW_UP)

    def saved(d):
        _, profile = request(server.base, "GET", "/api/v1/runbeat/profile", None, token)
        return [z["low"] for z in profile["zones"]] == [120, 132, 147, 156, 168]
    wait(browser).until(saved)
    wait(browser).until(lambda d: "Your own zones" in d.find_element(By.CSS_SELECTOR, ".rb-zones-note").text)
    active = browser.switch_to.active_element
    assert active.get_attribute("data-bound") == "2", "the bound stepped lost the focus"
    assert active.get_attribute("value") == "147"
    # Zone 2 now ends at 147, shown in place.
    assert "147 bpm" in browser.find_elements(By.CSS_SELECTOR, ".rb-zones tbody tr")[1].text
    active.send_keys(Keys.ARROW_DOWN)
    wait(browser).until(lambda d: request(server.base, "GET", "/api/v1/runbeat/profile", None, token)[1]["zones"][2]["low"] == 146)
    assert browser.switch_to.active_element.get_attribute("data-bound") == "2"
