"""A person using Juke in a browser: sign up, browse, search, play, seek, manage the library."""
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import JUKE, request
from helpers import sign_in, wait


def severe_console_errors(driver):
    """Script errors. Failed requests the test provoked on purpose (a 422) are not counted."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and e.get("source") != "network"]


def test_a_new_user_registers_and_sees_the_launcher_and_library(server, admin, browser):
    browser.get(server.base + "/")
    assert browser.current_url.endswith("/login")
    browser.find_element(By.LINK_TEXT, "Create an account").click()
    browser.find_element(By.ID, "username").send_keys("x")
    browser.find_element(By.ID, "password").send_keys("long enough password")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    error = wait(browser).until(lambda d: d.find_element(By.ID, "form-error").text)
    assert "3 to 32" in error
    assert browser.find_element(By.ID, "username").get_attribute("aria-invalid") == "true"
    browser.find_element(By.ID, "username").clear()
    browser.find_element(By.ID, "username").send_keys("firsttimer")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".app-grid")))
    cards = browser.find_elements(By.CSS_SELECTOR, ".app-card")
    assert [c.find_element(By.CSS_SELECTOR, ".app-name").text for c in cards] == ["TuneTrivia", "Back2Back", "Dual Player", "RunBeat"]
    # Every app opens.
    assert cards[0].find_element(By.CSS_SELECTOR, "a.app-link").get_attribute("href").endswith("/tunetrivia")
    assert cards[1].find_element(By.CSS_SELECTOR, "a.app-link").get_attribute("href").endswith("/back2back")
    assert cards[2].find_element(By.CSS_SELECTOR, "a.app-link").get_attribute("href").endswith("/dual")
    assert cards[3].find_element(By.CSS_SELECTOR, "a.app-link").get_attribute("href").endswith("/runbeat")
    assert not any("Coming soon" in c.text for c in cards)
    albums = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".album"))
    assert len(albums) >= 6
    # Covers load from the server with the session cookie.
    wait(browser).until(lambda d: d.execute_script("return [...document.querySelectorAll('.album img')].every(i => i.complete && i.naturalWidth > 0)"))
    # Not an admin: no library management link.
    assert not browser.find_elements(By.LINK_TEXT, "Manage library")
    assert severe_console_errors(browser) == []


def test_plays_a_track_with_progress_seeking_and_lock_screen_metadata(server, admin, browser):
    sign_in(browser, server, admin["username"], admin["password"])
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".album"))[0].click()
    tracks = wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".track-button"))
    title = tracks[0].find_element(By.CSS_SELECTOR, ".track-title").text
    tracks[0].click()
    player = browser.find_element(By.ID, "player")
    wait(browser).until(lambda d: player.is_displayed())
    assert browser.find_element(By.ID, "np-title").text == title
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('audio').currentTime") > 0.3)
    assert browser.find_element(By.ID, "play").get_attribute("aria-label") == "Pause"
    assert browser.execute_script("return navigator.mediaSession.metadata && navigator.mediaSession.metadata.title") == title
    # Seek by the progress bar, as a person dragging it would.
    browser.execute_script("const s = document.getElementById('seek'); s.value = 12; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));")
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('audio').currentTime") >= 12)
    assert browser.find_element(By.ID, "elapsed").text.startswith("0:1")
    # Pause, then next track.
    browser.find_element(By.ID, "play").click()
    wait(browser).until(lambda d: d.execute_script("return document.getElementById('audio').paused"))
    browser.find_element(By.ID, "next").click()
    wait(browser).until(lambda d: d.find_element(By.ID, "np-title").text != title)
    assert severe_console_errors(browser) == []


def test_search_as_you_type_and_browse_by_artist_genre_and_year(server, admin, browser):
    sign_in(browser, server, admin["username"], admin["password"])
    box = browser.find_element(By.ID, "search")
    box.send_keys("beeth")
    wait(browser).until(lambda d: "Ode to Joy" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")])
    box.send_keys(" od")
    wait(browser).until(lambda d: [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")] == ["Ode to Joy"])
    # A typo still finds the song, and the page says what it searched for instead.
    box.clear()
    box.send_keys("entertainr")
    wait(browser).until(lambda d: "The Entertainer" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")])
    assert "Showing results for “entertainer”" in browser.find_element(By.ID, "crumbs").text
    box.clear()
    browser.find_element(By.ID, "tab-artists").click()
    artist = wait(browser).until(lambda d: [b for b in d.find_elements(By.CSS_SELECTOR, ".row-button") if "Johann Sebastian Bach" in b.text])
    artist[0].click()
    wait(browser).until(lambda d: "Jesu, Joy of Man's Desiring" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")])
    browser.find_element(By.ID, "tab-genres").click()
    chip = wait(browser).until(lambda d: [c for c in d.find_elements(By.CSS_SELECTOR, ".chip") if c.text.startswith("Ragtime")])
    chip[0].click()
    wait(browser).until(lambda d: "The Entertainer" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")])
    browser.find_element(By.ID, "tab-years").click()
    year = wait(browser).until(lambda d: [c for c in d.find_elements(By.CSS_SELECTOR, ".chip") if c.text.startswith("1824")])
    year[0].click()
    wait(browser).until(lambda d: "Ode to Joy" in [e.text for e in d.find_elements(By.CSS_SELECTOR, ".track-title")])
    browser.find_element(By.ID, "tab-songs").click()
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".track-title")) >= 40)


def test_fits_a_phone_screen(server, admin, phone):
    sign_in(phone, server, admin["username"], admin["password"])
    wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".album"))[0].click()
    wait(phone).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".track-button"))[0].click()
    wait(phone).until(lambda d: d.find_element(By.ID, "player").is_displayed())
    assert phone.execute_script("return window.innerWidth") == 375
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375
    for control in ["prev", "play", "next", "seek"]:
        rect = phone.execute_script(f"return document.getElementById('{control}').getBoundingClientRect().toJSON()")
        assert 0 <= rect["left"] and rect["right"] <= 375, (control, rect)
    phone.save_screenshot(os.path.join(os.environ.get("JUKE_SCREENSHOTS", tempfile.gettempdir()), "juke-phone.png"))


def test_long_unbroken_text_never_widens_a_phone_page(server, admin, phone):
    name = "W" * 64
    status, account = request(server.base, "POST", "/api/v1/auth/register",
                              {"username": "longtext", "password": "longtext password", "display_name": name})
    assert status == 201, account
    title = "Q" * 200
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": title}, token=account["token"])
    assert status == 201, game
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"title": "S" * 100}, token=account["token"])
    assert status == 201, session
    sign_in(phone, server, "longtext", "longtext password")
    for path, shows in [("/", name[:20]), ("/tunetrivia", title[:20]), ("/tunetrivia/" + game["id"], title[:20]),
                        ("/back2back", None), ("/dual", None), ("/back2back/" + session["id"], "S" * 20)]:
        phone.get(server.base + path)
        wait(phone).until(lambda d: d.execute_script("return document.readyState") == "complete")
        if shows:
            # textContent: on a phone the account's name is in the header's menu, shown when opened.
            wait(phone).until(lambda d: shows in d.execute_script("return document.body.textContent"))
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 375, (path, width)
    # A 200-character search typed on Back2Back's session page wraps too.
    box = wait(phone).until(lambda d: d.find_elements(By.ID, "song-search"))[0]
    box.send_keys("Z" * 200)
    # Typed, and laid out (the next frame) with it: the page is no wider than the phone.
    wait(phone).until(lambda d: len(d.find_element(By.ID, "song-search").get_attribute("value")) == 200)
    phone.execute_script("return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375


def test_sign_out_and_a_wrong_password(server, admin, browser):
    sign_in(browser, server, admin["username"], admin["password"])
    browser.find_element(By.ID, "logout").click()
    wait(browser).until(lambda d: d.current_url.endswith("/login"))
    browser.get(server.base + "/")
    assert browser.current_url.endswith("/login"), "the session cookie was cleared"
    browser.find_element(By.ID, "username").send_keys("admin")
    browser.find_element(By.ID, "password").send_keys("not the password")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert "Wrong username or password" in wait(browser).until(lambda d: d.find_element(By.ID, "form-error").text)


def test_signing_in_never_sends_the_user_to_another_site(server, admin, browser):
    # /\evil.example is a path to a naive check and another site to the browser; so are the
    # paths whose dot segments the browser removes first, leaving //evil.example.
    for bad in ["/\\evil.example", "//evil.example", "/\t/evil.example",
                "/.//evil.example", "/%2e//evil.example", "/./\\evil.example"]:
        browser.delete_all_cookies()
        browser.get(server.base + "/login?next=" + urllib.parse.quote(bad, safe=""))
        browser.find_element(By.ID, "username").send_keys(admin["username"])
        browser.find_element(By.ID, "password").send_keys(admin["password"])
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".app-grid"))
        assert browser.current_url.rstrip("/") == server.base.rstrip("/"), (bad, browser.current_url)


def test_a_newcomer_from_an_invite_link_creates_an_account_and_lands_in_the_game(server, admin, browser):
    status, game = request(server.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Invite quiz"}, token=admin["token"])
    assert status == 201, game
    code = game["invite_code"]
    browser.delete_all_cookies()
    browser.get(server.base + "/tunetrivia/join/" + code)
    wait(browser).until(lambda d: d.find_elements(By.ID, "login-form"))
    # "Create an account" keeps where the invite was going.
    browser.find_element(By.CSS_SELECTOR, ".switch a").click()
    wait(browser).until(lambda d: d.find_elements(By.ID, "register-form"))
    assert "next=" in browser.current_url, browser.current_url
    browser.find_element(By.ID, "username").send_keys("invitee")
    browser.find_element(By.ID, "password").send_keys("invitee password")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Signed up from the invite, they are in the game at once (they said they want to play by
    # following the link): its lobby, not a join form to submit again.
    try:
        wait(browser).until(lambda d: d.find_elements(By.ID, "waiting"))
    except Exception:
        raise AssertionError((browser.current_url, browser.find_element(By.TAG_NAME, "body").text[:300]))
    assert browser.current_url.split("#")[0].endswith("/tunetrivia/" + game["id"])
    players = request(server.base, "GET", f"/api/v1/tunetrivia/sessions/{game['id']}/state", token=admin["token"])[1]["players"]
    assert "invitee" in [p["display_name"] for p in players]
    # The way back to signing in keeps it too; a link elsewhere is never carried.
    browser.delete_all_cookies()
    browser.get(server.base + "/register?next=" + urllib.parse.quote("/tunetrivia/join/" + code, safe=""))
    assert "next=" in browser.find_element(By.CSS_SELECTOR, ".switch a").get_attribute("href")
    browser.get(server.base + "/login?next=" + urllib.parse.quote("//evil.example", safe=""))
    assert browser.find_element(By.CSS_SELECTOR, ".switch a").get_attribute("href") == server.base.rstrip("/") + "/register"


def test_an_admin_adds_a_folder_and_sees_progress_and_unreadable_files(server, admin, browser, data_dir):
    folder = tempfile.mkdtemp(prefix="juke-music-", dir=data_dir)
    demo = os.path.join(server.data_dir, "demo-library", "Holiday Classics")
    for name in sorted(os.listdir(demo))[:2]:
        shutil.copy(os.path.join(demo, name), os.path.join(folder, "copy-" + name))
    with open(os.path.join(folder, "broken.flac"), "wb") as f:
        f.write(b"fLaC\x00\x00\x00\x22")
    sign_in(browser, server, admin["username"], admin["password"])
    browser.find_element(By.LINK_TEXT, "Manage library").click()
    browser.find_element(By.ID, "folder-path").send_keys(folder)
    browser.find_element(By.CSS_SELECTOR, "#add-folder button[type=submit]").click()
    # The page redraws the list twice a second: read it in one script call, never through
    # element handles that a redraw makes stale.
    def scan_line(driver):
        lines = driver.execute_script("return [...document.querySelectorAll('#scans li')].map(li => li.innerText)")
        return next((line for line in lines if folder in line), "")

    wait(browser, 60).until(lambda d: "done" in scan_line(d))
    scan = scan_line(browser)
    assert "2 added" in scan and "1 failed" in scan
    wait(browser).until(lambda d: "broken.flac" in d.find_element(By.ID, "issues").text)
    assert "truncated" in browser.find_element(By.ID, "issues").text
    browser.find_element(By.ID, "folder-path").send_keys("/no/such/folder")
    browser.find_element(By.CSS_SELECTOR, "#add-folder button[type=submit]").click()
    assert "There is no folder" in wait(browser).until(lambda d: d.find_element(By.ID, "form-error").text)


def test_the_command_line_works_on_the_data_of_a_running_server(server, admin):
    music = tempfile.mkdtemp(prefix="juke-cli-", dir=server.data_dir)
    demo = os.path.join(server.data_dir, "demo-library", "Baroque Gems")
    for name in sorted(os.listdir(demo))[:1]:
        shutil.copy(os.path.join(demo, name), os.path.join(music, "cli-" + name))
    out = subprocess.run([JUKE, "library", "add", music, *server.data_args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "1 added" in out.stdout
    out = subprocess.run([JUKE, "user", "create", "cliuser", "--password-stdin", *server.data_args],
                         input="cli password 1\n", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    status, body = request(server.base, "POST", "/api/v1/auth/login", {"username": "cliuser", "password": "cli password 1"})
    assert status == 200, body
    listing = subprocess.run([JUKE, "library", "list", *server.data_args], capture_output=True, text=True, timeout=120)
    assert music in listing.stdout
    bad = subprocess.run([JUKE, "library", "add", "/no/such/folder", *server.data_args], capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "no folder" in bad.stderr
    # The server's search sees what the command line added.
    deadline = time.time() + 10
    while time.time() < deadline:
        status, body = request(server.base, "GET", "/api/v1/catalog/search?q=canon", token=body["token"] if "token" in body else admin["token"])
        if body and body["total"] >= 2:
            break
        time.sleep(0.5)
    assert body["total"] >= 2, body


def test_juke_match_prints_a_verdict_as_json():
    out = subprocess.run([JUKE, "match", "--field", "artist", "--json", "beyonse", "Beyoncé"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["verdict"] == "correct" and result["scores"]["edits"] == 1
    out = subprocess.run([JUKE, "match", "--json", "love", "Love Story"], capture_output=True, text=True, timeout=60)
    assert json.loads(out.stdout)["verdict"] == "wrong"
    bad = subprocess.run([JUKE, "match", "--field", "album", "a", "b"], capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--field" in bad.stderr


def test_juke_resolve_finds_the_track_or_says_there_is_none(server, admin):
    found = subprocess.run([JUKE, "resolve", "beethoven", "ode 2 joy", *server.data_args], capture_output=True, text=True, timeout=120)
    assert found.returncode == 0, found.stderr
    assert "Ludwig van Beethoven — Ode to Joy" in found.stdout
    missing = subprocess.run([JUKE, "resolve", "Daft Punk", "Get Lucky", *server.data_args], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 1
    assert "no match" in missing.stdout and "nearest" in missing.stdout
