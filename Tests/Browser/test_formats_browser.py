"""Every format a library really has, played in Chromium: a WMA and a WavPack file (which no
browser plays) come transcoded; on a server without transcoding they are listed as not
playable here, with their original files to download."""
import json
import os
import subprocess
import tempfile
import urllib.request

from selenium.webdriver.common.by import By

from conftest import JukeServer, request
from helpers import dual_screen, sign_in, wait


def tone(path, codec, title, seconds=40):
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}",
                    "-ac", "2", "-c:a", codec, "-metadata", f"title={title}", "-metadata", "artist=Tone Makers", path], check=True)


def library_server(data_dir, database, extra_args=()):
    """A server with no demo library and a folder of a WMA, a WavPack and an MP3 file."""
    music = tempfile.mkdtemp(prefix="juke-formats-", dir=data_dir)
    tone(os.path.join(music, "a.wma"), "wmav2", "Windows Tone")
    tone(os.path.join(music, "b.wv"), "wavpack", "Pack Tone")
    tone(os.path.join(music, "c.mp3"), "libmp3lame", "Plain Tone")
    server = JukeServer(tempfile.mkdtemp(prefix="juke-server-", dir=data_dir), database=database, demo=False, extra_args=extra_args)
    status, body = request(server.base, "POST", "/api/v1/auth/register", {"username": "admin", "password": "admin password"})
    assert status == 201, body
    token = body["token"]
    status, body = request(server.base, "POST", "/api/v1/library/folders", {"path": music}, token=token)
    assert status in (200, 201, 202), body
    server.wait_for_tracks(token, 3)
    return server, music


def open_songs(browser, server):
    sign_in(browser, server, "admin", "admin password")
    browser.find_element(By.ID, "tab-songs").click()
    return wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".track")) == 3 and d.find_elements(By.CSS_SELECTOR, ".track"))


def row(browser, title):
    return next(r for r in browser.find_elements(By.CSS_SELECTOR, ".track") if title in r.text)


def current_time(browser):
    return browser.execute_script("return document.getElementById('audio').currentTime")


def test_wma_and_wavpack_play_transcoded_and_seek(data_dir, app_database, browser):
    server, _ = library_server(data_dir, app_database)
    try:
        open_songs(browser, server)
        # The page told the server what Chromium plays: no WMA or WavPack among them.
        plays = browser.execute_script("return document.cookie.split('; ').find(c => c.startsWith('juke_plays='))")
        assert "opus" in plays and "wma" not in plays
        for title in ["Windows Tone", "Pack Tone"]:
            row(browser, title).find_element(By.CSS_SELECTOR, ".track-button").click()
            wait(browser).until(lambda d: d.find_element(By.ID, "np-title").text == title)
            wait(browser).until(lambda d: current_time(d) > 1.0)
            assert browser.execute_script("return document.getElementById('audio').error") is None
            # The player bar shows the track's length while the transcode streams.
            assert browser.find_element(By.ID, "duration").text == "0:40"
            # Seeking by the progress bar, as a person dragging it would.
            browser.execute_script("const s = document.getElementById('seek'); s.value = 30; s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));")
            wait(browser).until(lambda d: current_time(d) >= 30.5)
            assert browser.execute_script("return document.getElementById('audio').paused") is False
        # What the server sent was a transcode (to Opus, which Chromium plays).
        def answer(title):
            return browser.execute_script(
                "return fetch(`/api/v1/catalog/tracks/${arguments[0]}/audio`, {credentials: 'same-origin'})"
                ".then(r => [r.headers.get('x-juke-transcode'), r.headers.get('content-type')]);", row(browser, title).get_attribute("data-id"))
        assert answer("Windows Tone") == ["opus", "audio/ogg; codecs=opus"]
        assert answer("Pack Tone") == ["opus", "audio/ogg; codecs=opus"]
        assert answer("Plain Tone") == [None, "audio/mpeg"], "an MP3 goes as it is"
    finally:
        server.stop()


def upload_song(server, token, path):
    with open(path, "rb") as f:
        upload = urllib.request.Request(
            server.base + "/api/v1/dual/songs?filename=" + os.path.basename(path), data=f.read(), method="POST",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/octet-stream"})
    with urllib.request.urlopen(upload, timeout=30) as reply:
        return json.load(reply)


def test_without_transcoding_they_are_listed_as_not_playable_here(data_dir, app_database, browser):
    server, music = library_server(data_dir, app_database, extra_args=["--max-transcodes", "0"])
    try:
        token = request(server.base, "POST", "/api/v1/auth/login", {"username": "admin", "password": "admin password"})[1]["token"]
        open_songs(browser, server)
        unplayable = browser.find_elements(By.CSS_SELECTOR, ".track.unplayable")
        assert sorted(r.find_element(By.CSS_SELECTOR, ".track-title").text for r in unplayable) == ["Pack Tone", "Windows Tone"]
        wma = row(browser, "Windows Tone")
        assert "Not playable here" in wma.text
        assert wma.find_element(By.CSS_SELECTOR, ".track-button").get_attribute("disabled") is not None
        # The original file is still there to download, byte for byte.
        href = wma.find_element(By.CSS_SELECTOR, "a.track-download").get_attribute("href")
        size = browser.execute_script("return fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.arrayBuffer()).then(b => b.byteLength)", href)
        assert size == os.path.getsize(os.path.join(music, "a.wma"))
        # The MP3 plays as it is.
        row(browser, "Plain Tone").find_element(By.CSS_SELECTOR, ".track-button").click()
        wait(browser).until(lambda d: current_time(d) > 0.5)
        browser.execute_script("document.getElementById('audio').pause()")

        # Dual Player's own uploads: an ALAC song (an M4A, as an AAC one is) is greyed out and
        # says why; the AAC one beside it plays.
        for codec, title in (("alac", "Lossless Tone"), ("aac", "Compressed Tone")):
            path = os.path.join(music, f"{codec}.m4a")
            tone(path, codec, title, seconds=5)
            assert upload_song(server, token, path)["codec"] == codec
        browser.get(server.base + "/dual")
        dual_screen(browser, "library")
        songs = wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-song")) == 2 and d.find_elements(By.CSS_SELECTOR, "#music-shelf .dual-song"))
        lossless = next(r for r in songs if "Lossless Tone" in r.text)
        assert "unplayable" in lossless.get_attribute("class") and "ALAC needs ffmpeg" in lossless.text, lossless.text
        assert lossless.find_element(By.CSS_SELECTOR, ".list-row-main").get_attribute("disabled") is not None
        next(r for r in songs if "Compressed Tone" in r.text).find_element(By.CSS_SELECTOR, ".list-row-main").click()
        wait(browser).until(lambda d: d.execute_script("return document.querySelector('#music-player .dual-audio').currentTime") > 0.5)
    finally:
        server.stop()
