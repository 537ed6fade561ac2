"""An audiobook's own cover (an M4B's covr atom, as ffmpeg attaches a picture), which people on a
phone never saw: on the Books shelf, on Now Playing and on the lock screen (the Media Session's
artwork). Now Playing with the cover is kept as a screenshot at 375x667."""
import json
import os
import subprocess
import urllib.request

from selenium.webdriver.common.by import By

from conftest import make_driver
from helpers import click, dual_screen, register, sign_in, wait

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")

# What the page tells the lock screen (Media Session), kept for the test to read.
MEDIA_SESSION_SPY = """
window.__artwork = [];
if (navigator.mediaSession) {
  const proto = Object.getPrototypeOf(navigator.mediaSession);
  const setter = Object.getOwnPropertyDescriptor(proto, 'metadata').set;
  const getter = Object.getOwnPropertyDescriptor(proto, 'metadata').get;
  Object.defineProperty(navigator.mediaSession, 'metadata', {
    configurable: true, get() { return getter.call(this); },
    set(m) { window.__artwork.push(m ? [...m.artwork].map((a) => a.src) : null); setter.call(this, m); },
  });
}
"""


def upload(base, token, what, path, filename):
    with open(path, "rb") as f:
        data = f.read()
    req = urllib.request.Request(f"{base}/api/v1/dual/{what}?filename={filename}", data=data, method="POST")
    req.add_header("Authorization", "Bearer " + token)
    req.add_header("Content-Type", "application/octet-stream")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def test_an_m4b_cover_shows_on_the_shelf_now_playing_and_the_lock_screen(server, tmp_path):
    account = register(server, "coverer")
    cover = tmp_path / "cover.png"
    book = tmp_path / "covered.m4b"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=256x256", "-frames:v", "1", str(cover)], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=30", "-i", str(cover),
                    "-map", "0:a", "-map", "1:v", "-c:a", "aac", "-b:a", "32k", "-c:v", "png", "-disposition:v", "attached_pic",
                    "-metadata", "album=The Covered Book", "-metadata", "artist=A. Painter", "-f", "ipod", str(book)], check=True)
    shelved = upload(server.base, account["token"], "books", str(book), "covered.m4b")
    assert shelved.get("cover_url"), shelved
    driver = make_driver(375, 667, mobile=True)
    try:
        shown(driver, server, shelved)
    finally:
        driver.quit()


def shown(driver, server, shelved):
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": MEDIA_SESSION_SPY})
    sign_in(driver, server, "coverer", "coverer password")
    driver.get(server.base + "/dual")
    dual_screen(driver, "books")
    row = "#speech-shelf .dual-book[data-book='%s']" % shelved["id"]
    wait(driver).until(lambda d: d.execute_script(
        "const i = document.querySelector(arguments[0] + ' img.list-row-art'); return i && i.complete && i.naturalWidth === 256", row))
    click(driver, By.CSS_SELECTOR, row + " .list-row-main")
    wait(driver).until(lambda d: d.find_element(By.ID, "screen-now").is_displayed())
    wait(driver).until(lambda d: d.execute_script(
        "const i = document.querySelector('#speech-player .dual-art'); return !i.hidden && i.complete && i.naturalWidth === 256"))
    wait(driver).until(lambda d: any(a and any(shelved["cover_url"] in src for src in a) for a in d.execute_script("return window.__artwork")))
    wait(driver).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "playing")
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, "dual-library-now-playing-book-cover-375x667.png"))
