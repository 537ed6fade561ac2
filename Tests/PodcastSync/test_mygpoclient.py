"""Juke's podcast sync (gpodder.net's API v2) driven by mygpoclient, gPodder's own client
library from PyPI, against a real server: every call AntennaPod and gPodder make, with the
answers checked against Dual Player's followed shows and saved positions."""
import time
import urllib.parse

import pytest
from mygpoclient import api, http, json as gjson

from conftest import request


def client(juke, name="ann", password=None):
    return api.MygPodderClient(name, password or juke.passwords[name], juke.base)


def shows(juke, name="ann"):
    status, body = request(juke.base, "GET", "/api/v1/dual/podcasts", token=juke.tokens[name])
    assert status == 200, body
    return body["items"]


def wait_for_episodes(juke, feed, name="ann"):
    """The show once Juke has read its feed (a show new to Juke is read by the refresher)."""
    deadline = time.time() + 60
    while time.time() < deadline:
        show = next((s for s in shows(juke, name) if s["feed_url"] == feed), None)
        if show and show["episodes"] == 2:
            status, body = request(juke.base, "GET", f"/api/v1/dual/podcasts/{show['id']}/episodes", token=juke.tokens[name])
            assert status == 200, body
            return show, body["items"]
        time.sleep(0.3)
    raise AssertionError(f"{feed} was not read: {shows(juke, name)}")


def test_login_logout_and_devices(juke):
    base = juke.base
    # login.json with Basic credentials (urllib sends them on the 401's challenge) sets the
    # session cookie; the cookie alone then signs in, until logout.json.
    signed = gjson.JsonClient("ann", juke.passwords["ann"])
    assert signed.POST(base + "/api/2/auth/ann/login.json", None) is None
    assert [c.name for c in signed._cookie_jar] == ["sessionid"]
    by_cookie = gjson.JsonClient()
    for cookie in signed._cookie_jar:
        by_cookie._cookie_jar.set_cookie(cookie)
    assert by_cookie.GET(base + "/api/2/devices/ann.json") == []
    with pytest.raises(http.Unauthorized):
        by_cookie.GET(base + "/api/2/devices/bob.json")
    assert by_cookie.POST(base + "/api/2/auth/ann/logout.json", None) is None
    with pytest.raises(http.Unauthorized):
        by_cookie.GET(base + "/api/2/devices/ann.json")
    # The web password and another account's app password sign in nowhere here.
    with pytest.raises(http.Unauthorized):
        gjson.JsonClient("ann", "web password of ann").POST(base + "/api/2/auth/ann/login.json", None)
    with pytest.raises(http.Unauthorized):
        client(juke, "ann", juke.passwords["bob"]).get_devices()

    gpo = client(juke)
    assert gpo.update_device_settings("gpodder-laptop", "Ann's laptop", "laptop") is True
    assert gpo.update_device_settings("antennapod-phone", "Ann's phone", "mobile") is True
    assert gpo.update_device_settings("antennapod-phone", type="other") is True
    devices = {d.device_id: d for d in gpo.get_devices()}
    assert sorted(devices) == ["antennapod-phone", "gpodder-laptop"]
    assert devices["antennapod-phone"].caption == "Ann's phone" and devices["antennapod-phone"].type == "other"
    assert devices["gpodder-laptop"].type == "laptop" and devices["gpodder-laptop"].subscriptions == 0
    assert client(juke, "bob").get_devices() == []
    with pytest.raises(http.BadRequest):
        gpo.update_device_settings("antennapod-phone", type="toaster")


def test_subscriptions_are_followed_shows(juke, host):
    gpo = client(juke)
    a, b = host.feed("show-a"), host.feed("show-b")
    # Followed in Juke's page first: the first download lists it.
    status, body = request(juke.base, "POST", "/api/v1/dual/podcasts", {"url": a}, token=juke.tokens["ann"])
    assert status == 201, body
    first = gpo.pull_subscriptions("antennapod-phone", 0)
    assert first.add == [a] and first.remove == []

    # Uploaded from the phone: followed in Dual Player (read in the background), sanitized.
    result = gpo.update_subscriptions("antennapod-phone", [b + " ", "ftp://nowhere/feed"], [])
    assert result.update_urls == [(b + " ", b), ("ftp://nowhere/feed", "")]
    assert result.since > first.since
    wait_for_episodes(juke, b)
    assert sorted(s["feed_url"] for s in shows(juke)) == sorted([a, b])
    assert gpo.pull_subscriptions("antennapod-phone", result.since).add == [], "its own change does not come back"
    laptop = gpo.pull_subscriptions("gpodder-laptop", first.since)
    assert laptop.add == [b] and laptop.remove == []

    # Unfollowed in the page: removed in the next download; removed by a device: unfollowed.
    show_a = next(s for s in shows(juke) if s["feed_url"] == a)
    status, _ = request(juke.base, "DELETE", f"/api/v1/dual/podcasts/{show_a['id']}", token=juke.tokens["ann"])
    assert status == 204
    after = gpo.pull_subscriptions("gpodder-laptop", laptop.since)
    assert after.add == [] and after.remove == [a]
    gpo.update_subscriptions("gpodder-laptop", [a], [b])
    assert [s["feed_url"] for s in shows(juke)] == [a]
    assert gpo.pull_subscriptions("antennapod-phone", after.since).add == [a]

    # The simple API's whole list, and its upload (the device's list replaces the account's).
    assert gpo.get_subscriptions("antennapod-phone") == [a]
    assert gpo.put_subscriptions("antennapod-phone", [a, b]) is True
    assert sorted(gpo.get_subscriptions("gpodder-laptop")) == sorted([a, b])
    with pytest.raises(http.NotFound):
        gpo.get_subscriptions("never-seen")
    assert {d.device_id: d.subscriptions for d in gpo.get_devices()} == {"antennapod-phone": 2, "gpodder-laptop": 2}
    assert client(juke, "bob").pull_subscriptions("phone", 0).add == [], "one account's shows are its own"

    with pytest.raises(http.BadRequest):
        gpo.update_subscriptions("antennapod-phone", [a], [a])
    with pytest.raises(http.BadRequest):
        gpo.update_subscriptions("bad!device", [a], [])


def test_play_actions_are_positions(juke, host):
    gpo = client(juke)
    a = host.feed("show-a")
    show, episodes = wait_for_episodes(juke, a)
    by_number = {int(e["title"][-1]): e for e in episodes}
    first, second = by_number[1], by_number[2]

    # Uploaded actions: the play action is the episode's position in Dual Player.
    since = gpo.upload_episode_actions([
        api.EpisodeAction(a, host.episode("show-a", 1), "play", device="antennapod-phone", timestamp="2026-06-01T10:00:00",
                          started=15, position=120, total=751),
        api.EpisodeAction(a, host.episode("show-a", 1), "download", device="antennapod-phone", timestamp="2026-06-01T09:00:00"),
        api.EpisodeAction(a, host.episode("show-a", 2), "new", device="gpodder-laptop", timestamp="2026-06-01T09:00:00"),
    ])
    assert isinstance(since, int) and since > 0
    status, body = request(juke.base, "GET", f"/api/v1/dual/positions?items=episode:{first['id']}", token=juke.tokens["ann"])
    assert status == 200 and body["positions"][0]["seconds"] == 120, body

    # Downloaded: as sent, each once; by device; by show.
    changes = gpo.download_episode_actions(0)
    got = sorted((x.action, x.episode, x.device, x.position) for x in changes.actions)
    assert got == [("download", host.episode("show-a", 1), "antennapod-phone", None),
                   ("new", host.episode("show-a", 2), "gpodder-laptop", None),
                   ("play", host.episode("show-a", 1), "antennapod-phone", 120)]
    play = next(x for x in changes.actions if x.action == "play")
    assert (play.started, play.total, play.timestamp, play.podcast) == (15, 751, "2026-06-01T10:00:00", a)
    assert [x.action for x in gpo.download_episode_actions(0, device_id="gpodder-laptop").actions] == ["new"]
    assert len(gpo.download_episode_actions(0, podcast=a).actions) == 3
    assert gpo.download_episode_actions(changes.since).actions == []

    # A position saved in Juke's page comes back as a play action.
    now = int(time.time() * 1000)
    status, body = request(juke.base, "PUT", "/api/v1/dual/positions",
                           {"positions": [{"item": f"episode:{second['id']}", "seconds": 333.5, "updated_at": now}]}, token=juke.tokens["ann"])
    assert status == 200, body
    later = gpo.download_episode_actions(changes.since)
    assert [(x.action, x.episode, x.podcast, x.position, x.total) for x in later.actions] == [
        ("play", host.episode("show-a", 2), a, 333, 752)]
    assert client(juke, "bob").download_episode_actions(0).actions == []

    # Bad input is refused with a 400 (mygpoclient checks most of it before sending).
    raw = gjson.JsonClient("ann", juke.passwords["ann"])
    for bad in ([{"podcast": a, "episode": host.episode("show-a", 1), "action": "jump"}],
                [{"podcast": a, "episode": host.episode("show-a", 1), "action": "play", "position": "ten"}],
                {"not": "a list"}):
        with pytest.raises(http.BadRequest):
            raw.POST(juke.base + "/api/2/episodes/ann.json", bad)
    with pytest.raises(http.BadRequest):
        raw.GET(juke.base + "/api/2/episodes/ann.json?since=" + urllib.parse.quote("-5"))
