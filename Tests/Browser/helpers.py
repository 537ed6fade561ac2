"""Selenium helpers shared by the browser tests. The pages redraw their lists on every pushed
change, so a handle found first and used later can go stale in between: these read and click
in one step, or look the element up again."""
import subprocess
import tempfile

from selenium.common.exceptions import ElementNotInteractableException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import request


def wait(driver, timeout=30):
    return WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException])


def text(driver, css):
    """The rendered text of the first match, read in one script call."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css) or ""


def texts(driver, css):
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map(e => e.innerText);", css)


def click(driver, by, selector):
    """Clicks an element, looking it up again if a redraw replaced it first (a click on a stale
    handle fails before it reaches the page, so nothing is clicked twice). The element is
    scrolled to the middle of the window first: at the top it would sit under the sticky header."""
    def attempt(d):
        element = d.find_element(by, selector)
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    wait(driver).until(attempt)


def sign_in(driver, server, username, password):
    driver.get(server.base + "/login")
    driver.find_element(By.ID, "username").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".app-grid"))


def decode_qr(element):
    """The text of the QR code in a page element, read by zbar from a screenshot."""
    with tempfile.NamedTemporaryFile(suffix=".png") as png:
        png.write(element.screenshot_as_png)
        png.flush()
        result = subprocess.run(["zbarimg", "--raw", "-q", png.name], capture_output=True, text=True)
    return result.stdout.strip()


def type_into(driver, by, selector, value):
    """Types into a field that a redraw may replace mid-typing: the field is looked up again,
    emptied and typed anew until it holds exactly `value` (a retry never types it twice)."""
    def attempt(d):
        try:
            field = d.find_element(by, selector)
            field.clear()
            field.send_keys(value)
            return field.get_attribute("value") == value
        except (StaleElementReferenceException, ElementNotInteractableException):
            return False

    wait(driver).until(attempt)


def register(server, name):
    """A new account by the API (usernames are unique across the whole run: one server)."""
    status, account = request(server.base, "POST", "/api/v1/auth/register", {"username": name, "password": name + " password"})
    assert status == 201, account
    return account


def dual_screen(driver, name):
    """Opens one of Dual Player's screens (now, library, books, podcasts, articles, radio) by
    its address's fragment, as its tab does, and waits until it shows: the other screens are
    hidden on a phone, and their controls cannot be used until theirs opens."""
    driver.execute_script("location.hash = arguments[0]", name)
    wait(driver).until(lambda d: d.find_element(By.ID, f"screen-{name}").is_displayed())


def b2b_screen(driver, name):
    """Opens one of Back2Back's home screens (sessions, personas, settings, persona/<id or new>)
    by its address's fragment, as its tab or link does, and waits until it shows."""
    driver.execute_script("location.hash = arguments[0]", name)
    screen = name.split("/")[0]
    wait(driver).until(lambda d: d.find_element(By.ID, f"screen-{screen}").is_displayed())


def dual_sheet(driver, player, name):
    """Opens a Dual Player deck's sheet (chapters, transcript or sound) by its button on the
    deck, and waits until it is open. While it is open the rest of the page is inert."""
    dual_screen(driver, "now")
    click(driver, By.CSS_SELECTOR, f"#{player}-player .dual-{name}-open")
    wait(driver).until(lambda d: d.execute_script(
        "return document.querySelector(arguments[0]).open", f"#{player}-player dialog.dual-{name}-sheet"))


def close_dual_sheet(driver, player, name):
    """Closes a deck's sheet by its close button, and waits until it is closed."""
    sheet = f"#{player}-player dialog.dual-{name}-sheet"
    click(driver, By.CSS_SELECTOR, f"{sheet} .sheet-close")
    wait(driver).until(lambda d: not d.execute_script("return document.querySelector(arguments[0]).open", sheet))
