"""Dual Player's articles read aloud, in the browser: a saved page added from a file (its menu
and comments left out), read by the browser's voice with the spoken word highlighted (the
voice is a stand-in: headless Chromium has no speech engine, so the page's own speech
synthesis is replaced by one that speaks each word in turn, as Chrome's reports them), and by
Juke's voice (espeak-ng on the server) in the speech player, its sentence highlighted as it
is heard; where reading stopped is saved either way."""
from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, dual_screen, register, sign_in, wait

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>The Lighthouse Keeper | Example Stories</title></head>
<body><nav><a href="/">Home</a> <a href="/stories">Stories</a></nav>
<article><h1>The Lighthouse Keeper</h1>
<p>The keeper climbed the stairs every evening, one hundred and twelve of them, to light the lamp above the sea.</p>
<p>Ships passed in the dark, and none of them knew his name, but all of them knew his light, and steered by it.</p>
<h2>The storm</h2>
<p>One night the wind rose, the rain came sideways, and the lamp went out. He climbed again, slowly, with a candle.</p>
<p>By morning the sea was calm. The ships had passed safely, and the keeper slept until noon.</p>
</article><div class="comments"><p>What a lovely story, I read it to my children every night before bed, thank you.</p></div></body></html>"""

FAKE_VOICE = """
// A stand-in for the browser's speech engine: each word's boundary event in turn, then the end.
const fake = {
  speaking: false, timers: [],
  getVoices() { return []; }, addEventListener() {},
  speak(u) {
    this.speaking = true;
    const words = []; let at = 0;
    for (const w of u.text.split(' ')) { words.push(at); at += w.length + 1; }
    words.forEach((charIndex, i) => this.timers.push(setTimeout(() => u.onboundary && u.onboundary({ name: 'word', charIndex }), 120 * i)));
    this.timers.push(setTimeout(() => { this.speaking = false; u.onend && u.onend({}); }, 120 * words.length + 50));
    window.__spoken = (window.__spoken || 0) + 1;
  },
  cancel() { this.timers.forEach(clearTimeout); this.timers = []; this.speaking = false; },
  pause() {}, resume() {},
};
Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
"""


def test_an_article_read_by_the_browser_and_by_juke(server, browser, tmp_path):
    account = register(server, "reader")
    sign_in(browser, server, "reader", "reader password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "articles")
    wait(browser).until(lambda d: "No articles yet" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-list").text)
    browser.execute_script(FAKE_VOICE)

    page = tmp_path / "lighthouse.html"
    page.write_text(PAGE, encoding="utf-8")
    browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-file").send_keys(str(page))
    wait(browser).until(lambda d: "Added “The Lighthouse Keeper”" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-note").text)
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-article-read")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-reader").is_displayed())
    text = browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-reader-text").text
    assert "one hundred and twelve" in text and "Home" not in text and "lovely story" not in text
    chapters = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-reader-chapter option")]
    assert chapters == ["The Lighthouse Keeper", "The storm"]

    # Read aloud: the highlight follows the spoken word.
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-reader-play")
    wait(browser).until(lambda d: int(d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-reader-text").get_attribute("data-word")) >= 5)
    now = browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-word-now").text
    assert now in PAGE
    # It goes on into the next paragraph by itself.
    wait(browser, 20).until(lambda d: int(d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-reader-text").get_attribute("data-word")) >= 22)
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-reader-play")  # stop: the position is saved
    status, articles = request(server.base, "GET", "/api/v1/dual/articles", token=account["token"])
    article = articles["items"][0]
    wait(browser).until(lambda d: request(server.base, "GET", f"/api/v1/dual/articles/{article['id']}", token=account["token"])[1].get("position", {}).get("word", 0) >= 22)
    # A tap on a word reads from there.
    words = browser.find_elements(By.CSS_SELECTOR, "#speech-shelf .dual-word")
    words[3].click()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-reader-play").text == "Stop")
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-reader-close")

    # Juke's voice: spoken on the server, played by the speech player with its sentences.
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-article-listen")
    wait(browser, 120).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") > 0.5)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text == "The Lighthouse Keeper"
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li")) >= 8)
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']"))
    first = browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']").get_attribute("data-cue")
    wait(browser, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-cues li[aria-current='true']").get_attribute("data-cue") != first)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 2


def test_a_spoken_article_comes_back_in_its_chapter_after_a_reload(server, browser, tmp_path):
    """Found on a phone: a spoken article went back to chapter 0, word 0 after a reload (the
    reload's loading wrote the article's first word, read from audio not yet come, over its place)."""
    account = register(server, "rereader")
    page = tmp_path / "lighthouse.html"
    page.write_text(PAGE, encoding="utf-8")
    sign_in(browser, server, "rereader", "rereader password")
    browser.get(server.base + "/dual")
    dual_screen(browser, "articles")
    browser.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-file").send_keys(str(page))
    wait(browser).until(lambda d: "Added “The Lighthouse Keeper”" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article-note").text)
    click(browser, By.CSS_SELECTOR, "#speech-shelf .dual-article-listen")
    speech_time = "return document.querySelector('#speech-player .dual-audio').currentTime"
    wait(browser, 120).until(lambda d: d.execute_script(speech_time) > 0.3)
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 2)
    # Into the second chapter ("The storm"), a little way in, then paused.
    dual_screen(browser, "now")
    browser.execute_script("document.querySelector('#speech-player .dual-chapters li[data-index=\"1\"] > button').click()")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("aria-current") == "true")
    start = browser.execute_script(speech_time)
    wait(browser).until(lambda d: d.execute_script(speech_time) > start + 1.5)
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-play")
    wait(browser).until(lambda d: d.find_element(By.ID, "speech-player").get_attribute("data-state") == "paused")
    paused = browser.execute_script(speech_time)
    status, articles = request(server.base, "GET", "/api/v1/dual/articles", token=account["token"])
    article_id = articles["items"][0]["id"]
    position = lambda: request(server.base, "GET", f"/api/v1/dual/articles/{article_id}", token=account["token"])[1].get("position") or {}
    wait(browser).until(lambda d: position().get("chapter") == 1)

    # Reloaded on a slow network: the chapters and sentences arrive before the audio does
    # (here, the audio never comes). What loading does must not write chapter 0, word 0 over
    # where the article was.
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/speech/audio*"]})
    browser.refresh()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text == "The Lighthouse Keeper")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-cues li")) >= 4)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[aria-current='true']").get_attribute("data-index") == "1"
    saved = request(server.base, "GET", "/api/v1/dual/state", token=account["token"])[1]["speech"]
    assert saved["item"]["chapter"] == 1 and abs(saved["position"] - paused) < 1.0, saved
    browser.execute_script("return new Promise((done) => setTimeout(done, 1500))")
    assert position().get("chapter") == 1, f"the article's place was written over while loading: {position()}"
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})

    browser.refresh()
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-title").text == "The Lighthouse Keeper")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li[aria-current='true']"))
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[aria-current='true']").get_attribute("data-index") == "1"
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').readyState") >= 1)
    assert abs(browser.execute_script(speech_time) - paused) < 1.0, "it comes back where it was paused"
    # The article itself still says chapter 2: what the reload loaded wrote nothing older over it.
    wait(browser).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-cues li[aria-current=\"true\"]') !== null"))
    browser.execute_script("document.querySelector('#speech-player .dual-play').click()")
    wait(browser).until(lambda d: d.execute_script(speech_time) > paused + 0.5)
    assert position().get("chapter") == 1, position()
    # The list says so, and Listen again resumes there.
    dual_screen(browser, "articles")
    wait(browser).until(lambda d: "stopped in chapter 2 of 2" in d.find_element(By.CSS_SELECTOR, "#speech-shelf .dual-article").text)
