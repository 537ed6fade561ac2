"""Two `juke serve` processes on one PostgreSQL database serve the same users and library."""
import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import DEMO_TRACKS, EventStream, JukeServer, create_postgres_database, request


@pytest.fixture(scope="module")
def postgres_database():
    url, drop = create_postgres_database()
    yield url
    drop()


def test_two_servers_share_users_and_library(postgres_database, tmp_path, browser):
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()
    first = JukeServer(str(first_dir), database=postgres_database)
    second = JukeServer(str(second_dir), database=postgres_database, demo=False)
    try:
        status, body = request(first.base, "POST", "/api/v1/auth/register", {"username": "shared", "password": "shared password"})
        assert status == 201, body
        first.wait_for_tracks(body["token"], DEMO_TRACKS)
        # The account made on the first server signs in on the second.
        status, session = request(second.base, "POST", "/api/v1/auth/login", {"username": "shared", "password": "shared password"})
        assert status == 200, session
        status, page = request(second.base, "GET", "/api/v1/catalog/search?q=entertainer", token=session["token"])
        assert status == 200 and page["total"] == 1, page
        # A token from one server works on the other, and logging out on one ends it on both.
        assert request(first.base, "GET", "/api/v1/auth/me", token=session["token"])[0] == 200
        assert request(first.base, "POST", "/api/v1/auth/logout", token=session["token"])[0] == 204
        assert request(second.base, "GET", "/api/v1/auth/me", token=session["token"])[0] == 401
        # And a person on the second server browses the library the first one scanned.
        browser.get(second.base + "/login")
        browser.find_element(By.ID, "username").send_keys("shared")
        browser.find_element(By.ID, "password").send_keys("shared password")
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        albums = WebDriverWait(browser, 20, ignored_exceptions=[StaleElementReferenceException]).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, ".album"))
        assert len(albums) >= 6
    finally:
        first.stop()
        second.stop()


def test_a_reveal_on_one_server_reaches_a_player_on_the_other(postgres_database, tmp_path):
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()
    first = JukeServer(str(first_dir), database=postgres_database)
    second = JukeServer(str(second_dir), database=postgres_database, demo=False)
    stream = None
    try:
        host = request(first.base, "POST", "/api/v1/auth/register", {"username": "quizhost", "password": "host password"})[1]["token"]
        player = request(second.base, "POST", "/api/v1/auth/register", {"username": "quizzer", "password": "player password"})[1]["token"]
        first.wait_for_tracks(host, DEMO_TRACKS)
        status, game = request(first.base, "POST", "/api/v1/tunetrivia/sessions", {"title": "Across", "num_songs": 5}, token=host)
        assert status == 201, game
        base = f"/api/v1/tunetrivia/sessions/{game['id']}"
        assert request(first.base, "POST", base + "/rounds/auto-generate", token=host)[0] == 200
        status, joined = request(second.base, "POST", "/api/v1/tunetrivia/sessions/join", {"invite_code": game["invite_code"]}, token=player)
        assert status == 200, joined
        # The player watches the game on the second server.
        stream = EventStream(second.base, base + "/events", player)
        stream.next_state(lambda s: s["status"] == "lobby")
        assert request(first.base, "POST", base + "/start", token=host)[0] == 200
        playing = stream.next_state(lambda s: s["status"] == "active")
        assert "title" not in playing["round"] and "artist" not in playing["round"]
        status, _ = request(second.base, "POST", base + "/guess", {"artist_guess": "someone", "song_guess": "something"}, token=player)
        assert status == 202
        status, hosted = request(first.base, "POST", base + "/reveal", token=host)
        assert status == 200
        revealed = stream.next_state(lambda s: s["round"]["is_revealed"])
        assert revealed["round"]["title"] == hosted["round"]["title"]
    finally:
        if stream:
            stream.close()
        first.stop()
        second.stop()
