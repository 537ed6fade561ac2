"""The account page's section for Subsonic players: an API key made, shown once, listed and
revoked; an app password made and removed; and what is made there signs a player in."""
import json
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from conftest import request
from helpers import sign_in, text, texts, wait


def ping(server, **params):
    query = urllib.parse.urlencode({"v": "1.16.1", "c": "browser-test", "f": "json", **params})
    with urllib.request.urlopen(f"{server.base}/rest/ping?{query}", timeout=30) as r:
        return json.loads(r.read())["subsonic-response"]


def test_keys_and_the_app_password_are_made_and_revoked_on_the_account_page(server, browser):
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": "player-owner", "password": "owner password"})
    assert status == 201, account
    sign_in(browser, server, "player-owner", "owner password")
    browser.get(server.base + "/account")
    wait(browser).until(lambda d: "no app password" in text(d, "#app-password-state"))
    assert texts(browser, "#api-keys li") == ["No keys yet."]

    browser.find_element(By.ID, "key-name").send_keys("Symfonium")
    browser.find_element(By.CSS_SELECTOR, "#new-key button[type=submit]").click()
    wait(browser).until(lambda d: "Symfonium" in text(d, "#api-keys"))
    key = text(browser, "#new-secret-value")
    assert key.startswith("juke_")
    assert ping(server, apiKey=key)["status"] == "ok"

    browser.find_element(By.ID, "make-password").click()
    wait(browser).until(lambda d: "You have an app password" in text(d, "#app-password-state"))
    password = text(browser, "#new-secret-value")
    assert len(password) == 24
    assert ping(server, u="player-owner", p=password)["status"] == "ok"
    assert ping(server, u="player-owner", p="owner password")["error"]["code"] == 40

    browser.find_element(By.CSS_SELECTOR, "[data-revoke]").click()
    wait(browser).until(lambda d: texts(d, "#api-keys li") == ["No keys yet."])
    assert ping(server, apiKey=key)["error"]["code"] == 44
    browser.find_element(By.ID, "remove-password").click()
    wait(browser).until(lambda d: "no app password" in text(d, "#app-password-state"))
    assert ping(server, u="player-owner", p=password)["error"]["code"] == 40
