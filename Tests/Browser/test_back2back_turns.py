"""Back2Back with people who wander off (party-ready): a turn nobody takes passes on by
itself, the host passes anyone's turn, and a guest leaves; the turn line counts down."""
import re

from selenium.webdriver.common.by import By

from conftest import make_driver, request
from helpers import b2b_screen, click, sign_in, text, wait


def test_a_stalled_turn_passes_on_and_a_guest_leaves(server, admin, browser):
    status, session = request(server.base, "POST", "/api/v1/back2back/sessions", {"turn_seconds": 15}, token=admin["token"])
    assert status == 201, session
    status, guest = request(server.base, "POST", "/api/v1/auth/register", {"username": "idleguest", "password": "idleguest password"})
    assert status == 201, guest
    assert request(server.base, "POST", "/api/v1/back2back/sessions/join", {"invite_token": session["invite_token"]}, token=guest["token"])[0] == 200
    url = f"{server.base}/back2back/{session['id']}"
    phone = make_driver(375, 740, mobile=True)
    try:
        sign_in(phone, server, "idleguest", "idleguest password")
        phone.get(url)
        # The host's turn, timed, seen from the guest's phone.
        line = wait(phone).until(lambda d: re.search(r"turn to pick\. · \d:\d\d left", text(d, "#turn")) and text(d, "#turn"))
        assert "admin" in line or "Someone" in line, line
        # Nobody picks: within its 15 s the turn passes to the guest by itself.
        wait(phone, 40).until(lambda d: text(d, "#turn").startswith("Your turn"))

        # The host opens the session and passes the guest's turn back.
        sign_in(browser, server, admin["username"], admin["password"])
        browser.get(url)
        button = wait(browser).until(lambda d: d.find_element(By.ID, "pass-turn").is_displayed() and d.find_element(By.ID, "pass-turn"))
        assert button.text == "Skip idleguest's turn"
        button.click()
        wait(browser).until(lambda d: text(d, "#turn").startswith("Your turn"))
        wait(phone).until(lambda d: "turn to pick" in text(d, "#turn"))

        # The guest leaves; the host's page no longer lists them.
        phone.execute_script("window.confirm = () => true")
        click(phone, By.ID, "leave")
        wait(phone).until(lambda d: d.current_url.rstrip("/").endswith("/back2back"))
        wait(browser).until(lambda d: "idleguest" not in text(d, "#people"))
        assert not browser.find_element(By.ID, "pass-turn").is_displayed()
    finally:
        phone.quit()


def test_the_style_guide_is_written_from_the_form_as_typed(server, admin, browser):
    """Write guide on a persona whose edits are not saved yet: the guide follows the form,
    and the form keeps what was typed."""
    # Someone with personas of their own (the admin's are used by other tests).
    assert request(server.base, "POST", "/api/v1/auth/register", {"username": "guidewriter", "password": "guidewriter password"})[0] == 201
    sign_in(browser, server, "guidewriter", "guidewriter password")
    browser.get(server.base + "/back2back")
    b2b_screen(browser, "personas")
    wait(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "li.persona"))
    click(browser, By.CSS_SELECTOR, "#personas a[aria-label='Edit Rare Groove Collector']")
    form = browser.find_element(By.ID, "persona-form")
    wait(browser).until(lambda d: form.is_displayed() and form.find_element(By.NAME, "name").get_attribute("value") == "Rare Groove Collector")
    name = form.find_element(By.NAME, "name")
    name.clear()
    name.send_keys("Polka Night")
    genres = form.find_element(By.NAME, "genres")
    genres.clear()
    genres.send_keys("Polka, Waltz")
    click(browser, By.ID, "write-guide")
    wait(browser).until(lambda d: "saved to the persona" in text(d, "#guide-progress"))
    guide = browser.find_element(By.NAME, "style_guide").get_attribute("value")
    assert "Home ground is Polka" in guide, guide
    # What was typed stays in the form, and is the persona's now.
    assert form.find_element(By.NAME, "name").get_attribute("value") == "Polka Night"
    assert form.find_element(By.NAME, "genres").get_attribute("value") == "Polka, Waltz"
    wait(browser).until(lambda d: "Polka Night" in text(d, "#personas"))
