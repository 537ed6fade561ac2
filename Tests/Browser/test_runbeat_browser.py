"""RunBeat in the browser: a VO2 Max 4x4 with the simulated strap at 60 times speed, its cues
spoken (headless Chromium has no speech engine: the page's speech synthesis is replaced by a
stand-in that records what it is asked to say), its music switching with the phases (work
songs picked by tempo, recovery songs calmer), the summary at the end, the workout in the
history and exported as FIT and TCX; then a dropped connection mid-run that loses no sample,
the zones edited both ways, a recorded workout replayed and imported, and a coach following
a runner in a class."""
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import JukeServer, request
from helpers import click, register, sign_in, text, wait

FAKE_VOICE = """
window.__said = [];
const fake = {
  speaking: false, getVoices() { return []; }, addEventListener() {},
  speak(u) { window.__said.push(u.text); u.onstart && u.onstart({}); setTimeout(() => u.onend && u.onend({}), 30); },
  cancel() {}, pause() {}, resume() {},
};
Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
window.__sources = [];
document.getElementById('rb-audio').addEventListener('loadstart', (e) => window.__sources.push(e.target.currentSrc || e.target.src));
"""


def samples_held(base, token):
    """The times of the heart-rate samples the server holds for the runner's newest workout."""
    status, workouts = request(base, "GET", "/api/v1/runbeat/workouts", None, token)
    if status != 200 or not workouts.get("workouts"):
        return []
    status, detail = request(base, "GET", f"/api/v1/runbeat/workouts/{workouts['workouts'][0]['id']}", None, token)
    return [s["t"] for s in detail.get("heart_rate") or []] if status == 200 else []


def fetch(server, path, token):
    req = urllib.request.Request(server.base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=30) as response:
        return response.status, response.headers, response.read()


def show(browser, screen):
    """Opens one of the trainer's screens (profile, workout, run, summary) by its address."""
    browser.execute_script("location.hash = arguments[0]", screen)
    wait(browser).until(lambda d: d.find_element(By.ID, f"screen-{screen}").is_displayed())


def choose_plan(browser, plan):
    show(browser, "workout")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, f".rb-plans input[value='{plan}']"))
    click(browser, By.CSS_SELECTOR, f".rb-plans input[value='{plan}']")
    show(browser, "run")


def end_workout(browser):
    """The keyboard's way to end (a screen reader's too): Enter on "Hold to end" asks, and the
    confirmation ends it."""
    browser.find_element(By.ID, "rb-end").send_keys(Keys.ENTER)
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('rb-end-confirm').open"))
    click(browser, By.ID, "rb-end-yes")


def hold_to_end(browser, timeout=60):
    """A finger's way: pressed and held until the workout ends, then let go."""
    ActionChains(browser).click_and_hold(browser.find_element(By.ID, "rb-end")).perform()
    try:
        wait(browser, timeout).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    finally:
        ActionChains(browser).release().perform()


def start_simulated(browser, speed="60", plan="vo2max_4x4", class_code=None):
    browser.execute_script(FAKE_VOICE)
    choose_plan(browser, plan)
    click(browser, By.ID, "rb-simulate")
    browser.execute_script("document.getElementById('rb-speed').value = arguments[0]", speed)
    if class_code:
        browser.find_element(By.ID, "rb-class").send_keys(class_code)
    click(browser, By.ID, "rb-start")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-run").is_displayed() or d.find_element(By.ID, "screen-welcome").is_displayed())
    if browser.find_element(By.ID, "screen-welcome").is_displayed():
        give_heart(browser)
        click(browser, By.ID, "rb-start")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-run").is_displayed())


def give_heart(browser, age="30", resting="60", maximum=""):
    """A runner with no profile yet is asked first (before the first workout): answered."""
    form = browser.find_element(By.ID, "rb-welcome")
    for name, value in (("age", age), ("resting", resting), ("max", maximum)):
        field = form.find_element(By.NAME, name)
        field.clear()
        if value:
            field.send_keys(value)
    click(browser, By.CSS_SELECTOR, "#rb-welcome button[type=submit]")
    wait(browser).until(lambda d: d.find_element(By.ID, "screen-run").is_displayed())


def test_a_four_by_four_with_cues_music_and_summary(server, admin, browser):
    account = register(server, "runner")
    token = account["token"]
    # A short warm-up and cool-down: 30 minutes of plan, 30 seconds at 60x.
    status, _ = request(server.base, "PUT", "/api/v1/runbeat/profile",
                        {"age": 30, "resting": 60, "formula": "fox", "warmup_seconds": 60, "cooldown_seconds": 60}, token)
    assert status == 200
    _, work = request(server.base, "GET", "/api/v1/runbeat/music/work", None, token)
    _, recovery = request(server.base, "GET", "/api/v1/runbeat/music/recovery", None, token)
    assert work["tracks"] and recovery["tracks"]
    assert min(t["tempo"] for t in work["tracks"]) > max(t["tempo"] for t in recovery["tracks"])

    sign_in(browser, server, "runner", "runner password")
    browser.get(server.base + "/runbeat")
    start_simulated(browser)
    wait(browser).until(lambda d: "Work 1 of 4" in d.find_element(By.ID, "rb-phase-name").text)
    bpm = browser.find_element(By.ID, "rb-bpm").text
    assert bpm.isdigit() and 60 < int(bpm) < 200
    wait(browser).until(lambda d: "Recovery" in d.find_element(By.ID, "rb-phase-name").text)
    # The summary at the end (about 30 s of real time).
    wait(browser, 90).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())

    said = browser.execute_script("return window.__said")
    for phrase in ["Warm-up", "Work 1 of 4. 4 minutes.", "Work 4 of 4", "Recovery. 3 minutes.", "Cool-down", "Workout complete"]:
        assert any(phrase in s for s in said), (phrase, said)
    assert any("target" in s for s in said), said  # the heart lags into each interval: told to pick it up, then on target
    # Never two cues in the same breath: the engine's gap holds (a phase cue may follow a heart cue).
    summary = browser.find_element(By.ID, "rb-summary").text
    assert "Intervals hit" in summary and "of 4" in summary, summary
    assert "Zone 4" in summary

    # The music switched with the phases: work songs in the work intervals, recovery songs between.
    sources = browser.execute_script("return window.__sources")
    work_ids = {t["id"] for t in work["tracks"]}
    recovery_ids = {t["id"] for t in recovery["tracks"]}
    played = [s.split("/tracks/")[1].split("/")[0] for s in sources if "/tracks/" in s]
    assert any(p in work_ids for p in played) and any(p in recovery_ids for p in played), played
    switches = sum(1 for a, b in zip(played, played[1:]) if (a in work_ids) != (b in work_ids))
    assert switches >= 6, played

    # The workout in the history, with its summary; exported as FIT and TCX.
    _, workouts = request(server.base, "GET", "/api/v1/runbeat/workouts", None, token)
    workout = workouts["workouts"][0]
    assert workout["status"] == "completed" and workout["summary"]["samples"] >= 1700
    assert workout["summary"]["intervals_hit"] >= 3
    status, headers, fit = fetch(server, f"/runbeat/workouts/{workout['id']}/export.fit", token)
    assert status == 200 and fit[8:12] == b".FIT" and "attachment" in headers["Content-Disposition"]
    status, _, tcx = fetch(server, f"/runbeat/workouts/{workout['id']}/export.tcx", token)
    assert b"<TrainingCenterDatabase" in tcx and tcx.count(b"<Lap ") == 10
    browser.get(server.base + "/runbeat/history")
    wait(browser).until(lambda d: "VO2 Max 4x4" in d.find_element(By.ID, "rb-workouts").text)
    assert "intervals hit" in browser.find_element(By.ID, "rb-workouts").text


def test_a_server_lost_mid_run_loses_no_sample(tmp_path, browser):
    """The server dies (kill -9, its unwritten samples with it) and comes back: the page records
    on meanwhile, reconnects, sends what the server does not hold, and nothing is lost or doubled."""
    data = str(tmp_path)
    first = JukeServer(data, demo=False)
    status, account = request(first.base, "POST", "/api/v1/auth/register", {"username": "tunnel", "password": "tunnel password"})
    assert status == 201
    token = account["token"]
    sign_in(browser, first, "tunnel", "tunnel password")
    browser.get(first.base + "/runbeat")
    start_simulated(browser, speed="10", plan="free")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
    # Some of the run is on the server before it dies.
    wait(browser).until(lambda d: len(samples_held(first.base, token)) >= 10)
    first.crash()
    wait(browser).until(lambda d: "Offline" in d.find_element(By.ID, "rb-link").text)
    wait(browser).until(lambda d: any("cues are paused" in s for s in d.execute_script("return window.__said")))
    # The page records on without the server: a backlog of samples the server never had.
    unsent = lambda d: d.execute_script("return (JSON.parse(localStorage.getItem('runbeat-backlog') || 'null') || {pending: []}).pending")  # noqa: E731
    wait(browser).until(lambda d: len(unsent(d)) >= 20)
    backlog = {s["t"] for s in unsent(browser)}
    second = JukeServer(data, demo=False, port=first.port)
    try:
        wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-link").text == "Live")
        # The backlog reaches the new server, and the run goes on there, before it ends.
        wait(browser, 60).until(lambda d: (lambda held: backlog <= held and len(held) >= 60)(set(samples_held(second.base, token))))
        hold_to_end(browser)
        wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
        _, workouts = request(second.base, "GET", "/api/v1/runbeat/workouts", None, token)
        detail = request(second.base, "GET", f"/api/v1/runbeat/workouts/{workouts['workouts'][0]['id']}", None, token)[1]
        times = [s["t"] for s in detail["heart_rate"]]
        assert len(times) >= 60
        assert len(times) == len(set(times)), "a sample stored twice"
        assert times == sorted(times)
        gaps = [b - a for a, b in zip(times, times[1:])]
        assert max(gaps) <= 1.01, f"a gap in the recording: {max(gaps)} s"
        assert detail["status"] == "ended" and detail["summary"]["samples"] == len(times)
    finally:
        second.stop()


def test_zones_edited_both_ways_and_a_recording_replayed_and_imported(server, admin, browser, tmp_path):
    account = register(server, "editor")
    token = account["token"]
    sign_in(browser, server, "editor", "editor password")
    browser.get(server.base + "/runbeat#profile")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".rb-zones tbody tr")) == 5)
    # Age 40, resting 60: Karvonen's 120, 132, 144, 156, 168 up to 180.
    form = browser.find_element(By.ID, "rb-profile")
    for name, value in [("age", "40"), ("resting", "60")]:
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    click(browser, By.CSS_SELECTOR, "#rb-profile button[type=submit]")
    wait(browser).until(lambda d: "180 bpm (estimated)" in d.find_element(By.CSS_SELECTOR, ".rb-maximum").text)
    bound = lambda i: browser.find_element(By.CSS_SELECTOR, f".rb-bound[data-bound='{i}']")
    assert bound(2).get_attribute("value") == "144"
    # The picker for bound 2 keeps zones 2 and 3 at least 5 bpm wide.
    assert (bound(2).get_attribute("min"), bound(2).get_attribute("max")) == ("137", "151")
    # Raise zone 3's low: zone 2 ends there too.
    browser.execute_script("const b = arguments[0]; b.value = '150'; b.dispatchEvent(new Event('change'))", bound(2))
    wait(browser).until(lambda d: "Your own zones" in d.find_element(By.CSS_SELECTOR, ".rb-zones-note").text)
    rows = [r.text for r in browser.find_elements(By.CSS_SELECTOR, ".rb-zones tbody tr")]
    assert "150 bpm" in rows[1], rows  # zone 2 now runs to 150
    assert not browser.find_element(By.ID, "rb-auto-zones").is_selected()
    # Too narrow is refused with why, and nothing changes.
    browser.execute_script("const b = arguments[0]; b.value = '154'; b.dispatchEvent(new Event('change'))", bound(2))
    wait(browser).until(lambda d: "at least 5 bpm" in d.find_element(By.TAG_NAME, "main").text)
    _, profile = request(server.base, "GET", "/api/v1/runbeat/profile", None, token)
    assert [z["low"] for z in profile["zones"]] == [120, 132, 150, 156, 168]
    # Back to Karvonen's.
    click(browser, By.ID, "rb-auto-zones")
    wait(browser).until(lambda d: bound(2).get_attribute("value") == "144")

    # A recorded run replayed as the strap at 60x (a minute of it), then imported into the history.
    gpx = tmp_path / "run.gpx"
    points = "".join(
        f'<trkpt lat="51.5" lon="-0.1"><time>2024-05-01T06:{m:02d}:{s:02d}Z</time><extensions><gpxtpx:TrackPointExtension>'
        f"<gpxtpx:hr>{120 + (m * 60 + s) // 4}</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>"
        for m in range(2) for s in range(60))
    gpx.write_text(f'<?xml version="1.0"?><gpx xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"><trk><type>running</type><trkseg>{points}</trkseg></trk></gpx>')
    browser.execute_script(FAKE_VOICE)
    choose_plan(browser, "free")
    browser.find_element(By.ID, "rb-replay").send_keys(str(gpx))
    wait(browser).until(lambda d: "Replay: 120 samples" in d.find_element(By.ID, "rb-strap-status").text)
    browser.execute_script("document.getElementById('rb-speed').value = '60'")
    click(browser, By.ID, "rb-start")
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-run").is_displayed())
    wait(browser).until(lambda d: "recording has ended" in d.find_element(By.ID, "rb-strap-live").text)
    # The recording is over, so is its heart rate: its last number (149) does not stay on screen as now's.
    wait(browser).until(lambda d: d.find_element(By.ID, "rb-zone").text == "Heart rate lost")
    assert browser.find_element(By.ID, "rb-bpm").text == "--"
    end_workout(browser)
    wait(browser, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    assert "Peak heart rate\n149 bpm" in browser.find_element(By.ID, "rb-summary").text
    browser.get(server.base + "/runbeat/history")
    browser.find_element(By.ID, "rb-import-file").send_keys(str(gpx))
    wait(browser).until(lambda d: "Imported run: 120 heart-rate samples" in d.find_element(By.ID, "rb-import-note").text)
    # The note is written when the import answers; the list is fetched again after it.
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#rb-workouts li")) == 2)
    items = browser.find_elements(By.CSS_SELECTOR, "#rb-workouts li")
    assert "imported" in items[0].text + items[1].text
    click(browser, By.PARTIAL_LINK_TEXT, "run,")
    wait(browser).until(lambda d: "Time in each zone" in d.find_element(By.CSS_SELECTOR, ".rb-summary-body").text)
    assert browser.find_element(By.CSS_SELECTOR, ".rb-export-fit").get_attribute("href").endswith("/export.fit")


def test_a_coach_follows_a_runner_live(server, admin, browser, phone):
    register(server, "coach")
    register(server, "sprinter")
    sign_in(browser, server, "coach", "coach password")
    browser.get(server.base + "/runbeat/coach")
    click(browser, By.CSS_SELECTOR, "#rb-class-form button[type=submit]")
    wait(browser).until(lambda d: "code" in d.find_element(By.ID, "rb-class-title").text)
    code = browser.find_element(By.ID, "rb-class-title").text.split("code ")[1].strip()
    assert len(code) == 6

    sign_in(phone, server, "sprinter", "sprinter password")
    phone.get(server.base + "/runbeat")
    start_simulated(phone, speed="10", plan="free", class_code=code)
    # The coach's screen shows the runner, heart rate and zone, as they run.
    wait(browser, 30).until(lambda d: "sprinter" in d.find_element(By.ID, "rb-runners").text)
    wait(browser, 30).until(lambda d: "bpm" in d.find_element(By.CSS_SELECTOR, ".rb-runner-bpm").text)
    # Read in one script call: the list is drawn anew with each sample, so an element found
    # then read could be gone in between (CI failed so, on a stale element).
    first = text(browser, ".rb-runner .muted")
    # The runner's time moves on the coach's screen.
    wait(browser).until(lambda d: text(d, ".rb-runner .muted") != first)
    hold_to_end(phone)
    wait(phone, 60).until(lambda d: d.find_element(By.ID, "rb-summary").is_displayed())
    wait(browser, 30).until(lambda d: "ended" in d.find_element(By.ID, "rb-runners").text)
