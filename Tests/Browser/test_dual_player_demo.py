"""Dual Player's offline default: the spoken demo audiobook (espeak-ng and ffmpeg, made on the
first start) is on everyone's shelf and plays by its chapters."""
from selenium.webdriver.common.by import By

from conftest import request
from helpers import click, sign_in, wait


def test_the_spoken_demo_book_is_on_the_shelf_and_plays_by_chapters(server, admin, browser):
    # The server makes the book in the background after it starts.
    wait(browser, 120).until(lambda d: any(
        b["origin"] == "demo" for b in request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])[1]["items"]))
    status, shelf = request(server.base, "GET", "/api/v1/dual/books", token=admin["token"])
    book = next(b for b in shelf["items"] if b["origin"] == "demo")
    assert book["chapter_source"] == "quicktime" and len(book["chapters"]) == 4
    assert [c["title"] for c in book["chapters"]][0] == "The Fox and the Grapes"

    sign_in(browser, server, admin["username"], admin["password"])
    browser.get(server.base + "/dual")
    wait(browser).until(lambda d: "Aesop" in d.find_element(By.CSS_SELECTOR, "#speech-player .dual-books").text)
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-books button")
    wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#speech-player .dual-chapters li")) == 4)
    first = browser.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime")
    wait(browser, 15).until(lambda d: d.execute_script("return document.querySelector('#speech-player .dual-audio').currentTime") > first + 0.5)
    assert browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='0']").get_attribute("aria-current") == "true"
    # The next chapter from the lock screen's track button moves speech to chapter 2.
    click(browser, By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1'] button")
    wait(browser).until(lambda d: d.find_element(By.CSS_SELECTOR, "#speech-player .dual-chapters li[data-index='1']").get_attribute("aria-current") == "true")
    assert "The Hare and the Tortoise" in browser.find_element(By.CSS_SELECTOR, "#speech-player .dual-item-sub").text
