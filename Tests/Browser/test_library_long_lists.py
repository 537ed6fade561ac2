"""A library too big for one page, browsed as in a music app (issue 51): on Juke's home page and
in Dual Player's Library, at a phone's 375 px (mobile emulation) and on a desktop. Albums and
artists come a page at a time as the list is scrolled (by cursor, never by offset, never all),
pages far from the screen are emptied, the A-Z index jumps to a letter with a tap, a slide of
the finger or the keys, the albums' order and filters change the list and survive a reload and
Back, nothing scrolls sideways, and axe-core finds nothing serious. Screenshots go to
.build/screenshots."""
import os
import subprocess
import tempfile
import shutil

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import BROWSER_DATABASE, JUKE, JukeServer, create_postgres_database, make_driver, request
from helpers import click, dual_screen, sign_in, wait
from library_files import big_library
from test_design_system import axe_violations

SHOTS = os.path.join(os.path.dirname(__file__), "..", "..", ".build", "screenshots")


@pytest.fixture(scope="module")
def library():
    """A server of its own with 159 artists and 318 albums, added by `juke library add` while it
    runs, and its admin."""
    folder = tempfile.mkdtemp(prefix="juke-long-lists-")
    database, drop = create_postgres_database() if BROWSER_DATABASE == "postgres" else (None, None)
    os.makedirs(os.path.join(folder, "data"))
    server = JukeServer(os.path.join(folder, "data"), database=database, demo=False)
    try:
        status, admin = request(server.base, "POST", "/api/v1/auth/register", {"username": "lister", "password": "lister password"})
        assert status == 201, admin
        artists, count = big_library(os.path.join(folder, "music"))
        out = subprocess.run([JUKE, "library", "add", os.path.join(folder, "music"), *server.data_args], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        server.wait_for_tracks(admin["token"], count)
        yield server, admin, artists
    finally:
        server.stop()
        if drop:
            drop()
        shutil.rmtree(folder, ignore_errors=True)


def shot(driver, name):
    os.makedirs(SHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SHOTS, name))


def fetched(driver, fragment):
    """The addresses the page fetched that contain `fragment`, in order."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes(arguments[0]))", fragment)


def letter_of(name):
    """The index letter of a name as the library orders it ("The" set aside)."""
    key = name.lower()
    for article in ("the ", "a ", "an "):
        if key.startswith(article):
            key = key[len(article):]
            break
    return key[0].upper() if key[:1].isalpha() else "#"


def no_sideways_scroll(driver):
    widths = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert widths[0] <= widths[1], f"the page scrolls sideways: {widths}"


def tap_letter(driver, rail_css, letter):
    """Taps the rail where `letter` is drawn, as a finger would."""
    target = driver.find_element(By.CSS_SELECTOR, f"{rail_css} [data-letter='{letter}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", target)
    ActionChains(driver).move_to_element(target).click().perform()


def slide(driver, rail_css, start, end):
    """Presses on one letter of the rail, slides to another and lifts there."""
    a = driver.find_element(By.CSS_SELECTOR, f"{rail_css} [data-letter='{start}']")
    b = driver.find_element(By.CSS_SELECTOR, f"{rail_css} [data-letter='{end}']")
    actions = ActionChains(driver).move_to_element(a).click_and_hold()
    actions.move_to_element(b).perform()
    # While the finger is down, the letter under it is shown large.
    wait(driver).until(lambda d: d.execute_script(
        "const b = document.querySelector(arguments[0] + ' .letter-rail-bubble'); return b && !b.hidden && b.textContent", rail_css) == end)
    ActionChains(driver).release().perform()


def home_albums(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#browser .catalog-page > li')].map((li) => ({letter: li.dataset.letter, "
        "title: li.querySelector('.album-title').innerText, artist: li.querySelector('.album-artist').innerText}))")


def test_home_albums_scroll_page_by_page_jump_by_letter_and_keep_their_order(library):
    server, admin, artists = library
    driver = make_driver(375, 740, mobile=True)
    sign_in(driver, server, "lister", "lister password")
    wait(driver).until(lambda d: len(home_albums(d)) >= 20)
    first = home_albums(driver)
    assert len(first) == 60, "one page, not the library"
    assert first[0]["letter"] == "#" and first[0]["artist"].startswith("30 Seconds Of Sound")
    assert driver.execute_script("return document.querySelector('#browser .catalog-status').innerText") == "60 of 318 albums…"
    shot(driver, "library-home-albums-375.png")
    no_sideways_scroll(driver)
    assert axe_violations(driver) == []

    # Scrolling near the end fetches the next pages, each by the cursor of the one before.
    for pages in (2, 3, 4, 5, 6):
        driver.execute_script("document.querySelector('#browser .catalog-sentinel').scrollIntoView({block: 'end'})")
        wait(driver).until(lambda d: d.execute_script("return document.querySelectorAll('#browser .catalog-page').length") >= pages)
    wait(driver).until(lambda d: "318 albums" == d.execute_script("return document.querySelector('#browser .catalog-status').innerText"))
    pages = fetched(driver, "/api/v1/catalog/albums")
    assert all("offset=" not in p for p in pages), pages
    assert sum("after=" in p for p in pages) == 5, pages
    # The pages far above the screen are emptied: far fewer rows drawn than loaded.
    drawn = driver.execute_script("return document.querySelectorAll('#browser .catalog-page > li').length")
    assert drawn <= 240, f"{drawn} rows drawn of 318"
    # Scrolled back to the top, the first page is drawn again where it was.
    driver.execute_script("scrollTo(0, 0)")
    wait(driver).until(lambda d: d.execute_script("return document.querySelector('#browser .catalog-page').children.length") == 60)
    assert home_albums(driver)[0] == first[0]

    # A tap on M: the list starts at the first album of an artist under M, at the top of the screen.
    tap_letter(driver, "#browser .letter-rail", "M")
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["letter"] == "M")
    assert home_albums(driver)[0]["artist"].startswith("The Marble Band 03"), "The set aside: under M"
    assert "letter=M" in driver.current_url
    assert driver.find_element(By.CSS_SELECTOR, "#browser .letter-rail").get_attribute("aria-valuetext") == "M"
    assert any("from=m" in p for p in fetched(driver, "/api/v1/catalog/albums"))
    shot(driver, "library-home-albums-from-m-375.png")
    # A slide from A to T lands on T ("The Tundra Band 03" is under T too).
    slide(driver, "#browser .letter-rail", "A", "T")
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["letter"] == "T")
    # Back to the top: the button above the list.
    driver.find_element(By.CSS_SELECTOR, "#browser .catalog-from button").click()
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["letter"] == "#")
    no_sideways_scroll(driver)

    # Sort by year: the oldest first; the order survives a reload, and Back returns to the artist order.
    Select(driver.find_element(By.CSS_SELECTOR, "#browser select[name=sort]")).select_by_value("year")
    wait(driver).until(lambda d: "sort=year" in d.current_url)
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["artist"].endswith("1960"))
    assert not driver.find_elements(By.CSS_SELECTOR, "#browser .letter-rail"), "no letters in the year order"
    shot(driver, "library-home-albums-by-year-375.png")
    driver.refresh()
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["artist"].endswith("1960"))
    assert Select(driver.find_element(By.CSS_SELECTOR, "#browser select[name=sort]")).first_selected_option.get_attribute("value") == "year"
    driver.back()
    wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["letter"] == "#")
    # A genre: its albums by title; the genre shows in the address and in the request.
    driver.forward()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#browser select[name=genre]"))
    Select(driver.find_element(By.CSS_SELECTOR, "#browser select[name=genre]")).select_by_value("Jazz")
    wait(driver).until(lambda d: "genre=Jazz" in d.current_url)
    wait(driver).until(lambda d: any("genre=Jazz" in p and "sort=name" in p for p in fetched(d, "/api/v1/catalog/albums")))
    assert Select(driver.find_element(By.CSS_SELECTOR, "#browser select[name=sort]")).first_selected_option.get_attribute("value") == "name"
    # Random: a new page, in no order the index could jump in.
    Select(driver.find_element(By.CSS_SELECTOR, "#browser select[name=sort]")).select_by_value("random")
    wait(driver).until(lambda d: "sort=random" in d.current_url and "genre" not in d.current_url)
    wait(driver).until(lambda d: len(home_albums(d)) == 60)
    shot(driver, "library-home-albums-random-375.png")
    no_sideways_scroll(driver)
    assert axe_violations(driver) == []
    # Opening an album and coming Back returns to the same list.
    driver.execute_script("document.querySelector('#browser .album').click()")
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#browser .track-title"))
    driver.back()
    wait(driver).until(lambda d: len(home_albums(d)) == 60 and "sort=random" in d.current_url)


def test_home_artists_jump_on_a_desktop_and_by_the_keys(library):
    server, admin, artists = library
    driver = make_driver(1280, 900)
    sign_in(driver, server, "lister", "lister password")
    driver.find_element(By.ID, "tab-artists").click()
    rows = lambda d: d.execute_script("return [...document.querySelectorAll('#browser .catalog-page > li')].map((li) => li.querySelector('.row-title').innerText)")
    wait(driver).until(lambda d: len(rows(d)) == 50)
    expected = sorted(artists, key=lambda n: (n[4:] if n.startswith("The ") else n).lower())
    assert rows(driver) == expected[:50]
    tap_letter(driver, "#browser .letter-rail", "X")
    wait(driver).until(lambda d: rows(d) and rows(d)[0] == "The Xenon Band 03")
    assert rows(driver)[:3] == ["The Xenon Band 03", "The Xenon Band 06", "Xenon Ensemble 01"], "The set aside: listed under X"
    assert "view=artists" in driver.current_url and "letter=X" in driver.current_url
    shot(driver, "library-home-artists-from-x-1280.png")
    # Scrolled on to the Y's, the rail says so.
    driver.execute_script("[...document.querySelectorAll('#browser .row-title')].find((t) => t.innerText === 'The Yonder Band 06').scrollIntoView({block: 'start'})")
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#browser .letter-rail").get_attribute("aria-valuetext") == "Y")
    # The keys: the rail is one control; End goes to Z.
    driver.find_element(By.CSS_SELECTOR, "#browser .letter-rail").send_keys(Keys.END)
    wait(driver).until(lambda d: rows(d) and rows(d)[0] == "The Zephyr Band 03")
    assert driver.switch_to.active_element.get_attribute("class") == "letter-rail", "the focus stays on the rail"
    # A reload keeps the letter; the list goes on past it to the end.
    driver.refresh()
    wait(driver).until(lambda d: rows(d) and rows(d)[0] == "The Zephyr Band 03")
    assert rows(driver) == expected[expected.index("The Zephyr Band 03"):]
    no_sideways_scroll(driver)
    assert axe_violations(driver) == []
    # Albums on a desktop: six to a row, pages meeting without a gap.
    driver.find_element(By.ID, "tab-albums").click()
    wait(driver).until(lambda d: len(home_albums(d)) == 60)
    driver.execute_script("document.querySelector('#browser .catalog-sentinel').scrollIntoView({block: 'end'})")
    wait(driver).until(lambda d: len(home_albums(d)) >= 120)
    tops = driver.execute_script("return [...document.querySelectorAll('#browser .catalog-page > li')].slice(54, 66).map((li) => Math.round(li.getBoundingClientRect().top))")
    assert len(set(tops[:6])) == 1 and len(set(tops[6:])) == 1 and tops[6] > tops[0], f"rows across two pages: {tops}"
    driver.execute_script("scrollTo(0, 0)")
    shot(driver, "library-home-albums-1280.png")
    no_sideways_scroll(driver)


def dual_rows(driver, css=".dual-album"):
    return driver.execute_script(
        "return [...document.querySelectorAll('#music-shelf .dual-browse-list ' + arguments[0])].map((li) => "
        "({letter: li.dataset.letter, title: li.querySelector('.list-row-title').innerText, sub: li.querySelector('.list-row-subtitle').innerText}))", css)


@pytest.mark.parametrize("width,height,mobile", [(375, 667, True), (1280, 900, False)])
def test_dual_player_library_scrolls_jumps_and_sorts(library, width, height, mobile):
    server, admin, artists = library
    driver = make_driver(width, height, mobile=mobile)
    sign_in(driver, server, "lister", "lister password")
    driver.get(server.base + "/dual")
    dual_screen(driver, "library")
    driver.execute_script("location.hash = 'library/albums'")
    wait(driver).until(lambda d: len(dual_rows(d)) == 50)
    size = f"{width}"
    shot(driver, f"library-dual-albums-{size}.png")
    no_sideways_scroll(driver)
    assert axe_violations(driver) == []
    # The list scrolls in its box: near its end, the next page comes by cursor.
    driver.execute_script("const s = document.querySelector('#music-shelf .dual-browse-scroller'); s.scrollTop = s.scrollHeight")
    wait(driver).until(lambda d: len(dual_rows(d)) >= 100)
    assert all("offset=" not in p for p in fetched(driver, "/api/v1/catalog/albums"))
    assert any("after=" in p for p in fetched(driver, "/api/v1/catalog/albums"))
    # The uploads are still in reach below the list.
    assert driver.find_element(By.CSS_SELECTOR, "#music-shelf .dual-songs").is_displayed()

    tap_letter(driver, "#music-shelf .letter-rail", "G")
    wait(driver).until(lambda d: dual_rows(d) and dual_rows(d)[0]["letter"] == "G")
    assert dual_rows(driver)[0]["sub"].startswith("The Granite Band 03")
    assert "#library/albums?letter=G" in driver.current_url
    shot(driver, f"library-dual-albums-from-g-{size}.png")
    Select(driver.find_element(By.CSS_SELECTOR, "#music-shelf select[name=sort]")).select_by_value("newest")
    wait(driver).until(lambda d: "sort=newest" in d.current_url)
    wait(driver).until(lambda d: any("sort=newest" in p for p in fetched(d, "/api/v1/catalog/albums")) and len(dual_rows(d)) == 50)
    assert not driver.find_elements(By.CSS_SELECTOR, "#music-shelf .letter-rail")
    # Back: the letter's list again (a letter replaced its entry; the order made a new one).
    driver.back()
    wait(driver).until(lambda d: dual_rows(d) and dual_rows(d)[0]["letter"] == "G")
    # Artists, from a letter, and into one of them and Back.
    click(driver, By.CSS_SELECTOR, ".dual-library-nav a[href='#library/artists']")
    wait(driver).until(lambda d: len(dual_rows(d, ".dual-artist")) == 50)
    slide(driver, "#music-shelf .letter-rail", "B", "Q")
    wait(driver).until(lambda d: dual_rows(d, ".dual-artist") and dual_rows(d, ".dual-artist")[0]["title"] == "The Quartz Band 03")
    driver.execute_script("document.querySelector('#music-shelf .dual-artist .list-row-main').click()")
    wait(driver).until(lambda d: d.find_element(By.CSS_SELECTOR, "#music-shelf .dual-browse-title").text == "The Quartz Band 03")
    wait(driver).until(lambda d: len(dual_rows(d)) == 2)
    driver.back()
    wait(driver).until(lambda d: dual_rows(d, ".dual-artist") and dual_rows(d, ".dual-artist")[0]["title"] == "The Quartz Band 03")
    shot(driver, f"library-dual-artists-from-q-{size}.png")
    no_sideways_scroll(driver)
    # (axe scrolls the lists as it checks their colours: after the screenshot.)
    assert axe_violations(driver) == []


BIG = int(os.environ.get("JUKE_LONG_LIST_ALBUMS", "0"))


@pytest.mark.skipif(not BIG, reason="by hand: JUKE_LONG_LIST_ALBUMS=10000 makes a library that big")
def test_a_library_of_ten_thousand_albums_scrolls_with_the_rows_drawn_bounded(tmp_path):
    """By hand (a few minutes): a library of JUKE_LONG_LIST_ALBUMS albums, scrolled 40 pages
    deep on a phone. Asserts what the page holds (rows drawn, pages fetched by cursor), and
    prints what a person would feel: each page's fetch, the long tasks, a jump's time."""
    per_letter = max(1, -(-(BIG // 2 - 3) // 26))
    artists, count = big_library(str(tmp_path / "music"), per_letter=per_letter)
    os.makedirs(tmp_path / "data")
    server = JukeServer(str(tmp_path / "data"), demo=False)
    try:
        status, admin = request(server.base, "POST", "/api/v1/auth/register", {"username": "big", "password": "big password"})
        out = subprocess.run([JUKE, "library", "add", str(tmp_path / "music"), *server.data_args], capture_output=True, text=True, timeout=1800)
        assert out.returncode == 0, out.stderr
        server.wait_for_tracks(admin["token"], count, timeout=1800)
        driver = make_driver(375, 740, mobile=True)
        driver.get(server.base + "/login")
        driver.execute_script("new PerformanceObserver(() => {}).observe({ type: 'longtask', buffered: true })")
        sign_in(driver, server, "big", "big password")
        driver.execute_script("window.longTasks = []; new PerformanceObserver((l) => window.longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' })")
        wait(driver).until(lambda d: len(home_albums(d)) == 60)
        for pages in range(2, 42):
            driver.execute_script("document.querySelector('#browser .catalog-sentinel').scrollIntoView({block: 'end'})")
            wait(driver, 60).until(lambda d: d.execute_script("return document.querySelectorAll('#browser .catalog-page').length") >= pages)
        figures = driver.execute_script("""
            const pages = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/v1/catalog/albums'));
            const times = pages.map((e) => e.duration).sort((a, b) => a - b);
            return { pages: pages.length, offsets: pages.filter((e) => e.name.includes('offset=')).length,
              fetch_p50: times[Math.floor(times.length / 2)], fetch_max: times[times.length - 1],
              rows_drawn: document.querySelectorAll('#browser .catalog-page > li').length,
              nodes: document.getElementsByTagName('*').length,
              long_tasks: window.longTasks.length, longest_task: Math.max(0, ...window.longTasks),
              heap_mb: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null };
        """)
        started = driver.execute_script("return performance.now()")
        tap_letter(driver, "#browser .letter-rail", "W")
        wait(driver).until(lambda d: home_albums(d) and home_albums(d)[0]["letter"] == "W")
        figures["jump_ms"] = driver.execute_script("return performance.now()") - started
        print(f"\n{count} albums, 40 pages deep on a 375 px phone: {figures}")
        assert figures["offsets"] == 0
        assert figures["rows_drawn"] <= 300, figures
        driver.quit()
    finally:
        server.stop()
