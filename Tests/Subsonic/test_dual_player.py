"""Dual Player's part of the Subsonic API driven by py-opensonic and py-sonic: bookmarks (its
places in audiobooks and podcast episodes, the same ones its page resumes from), podcasts
(over its feed reader, against a local podcast host) and internet radio (its favourite
stations, played through Juke's relay by a signed address). Each method these libraries have
for them is called at least once, and the answers are checked."""
import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import libopensonic
import libsonic
import pytest
from libopensonic import errors as oerrors
from libsonic import errors as serrors

from conftest import Juke, request

NS = {"s": "http://subsonic.org/restapi"}
BOOK = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "chapters", "both.m4b")
EPISODE_BYTES = bytes(range(256)) * 400


def tone_mp3():
    """Ten seconds of a tone as bare MPEG frames, looped as a live station."""
    folder = tempfile.mkdtemp(prefix="juke-tone-")
    path = os.path.join(folder, "tone.mp3")
    try:
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=10", "-b:a", "128k",
                        "-id3v2_version", "0", "-write_xing", "0", "-f", "mp3", path], check=True)
        with open(path, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class Host(BaseHTTPRequestHandler):
    """A podcast host (a feed of two episodes, their audio, the show's picture) and a live station."""
    episodes = 2
    station = b""

    def log_message(self, *args):
        pass

    def feed(self):
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        items = "".join(f"""<item><title>Episode {n}</title><guid>ep-{n}</guid><description>Notes of episode {n}.</description>
            <pubDate>Mon, 0{n} Jun 2025 10:00:00 GMT</pubDate><itunes:duration>600</itunes:duration>
            <enclosure url="{base}/ep{n}.mp3" type="audio/mpeg" length="{len(EPISODE_BYTES)}"/></item>"""
                        for n in range(1, Host.episodes + 1))
        return f"""<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>The Python Show</title><description>A show for the client tests.</description><itunes:author>Tests</itunes:author>
            <itunes:image href="{base}/image.png"/>{items}</channel></rss>""".encode()

    def send(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/feed.xml"):
            return self.send(self.feed(), "application/rss+xml")
        if self.path.startswith("/ep"):
            return self.send(EPISODE_BYTES, "audio/mpeg")
        if self.path.startswith("/image.png"):
            return self.send(b"\x89PNG\r\n\x1a\n", "image/png")
        if self.path.startswith("/station.mp3"):
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.end_headers()
            sent = 0
            try:
                while True:
                    piece = Host.station[sent % len(Host.station):][:8192] or Host.station[:8192]
                    self.wfile.write(piece)
                    self.wfile.flush()
                    sent += len(piece)
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                return
        self.send_response(404)
        self.end_headers()


@pytest.fixture(scope="module")
def host():
    Host.station = tone_mp3()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Host)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def dual(host):
    # Radio Browser out of reach: stations added by address play from that address.
    server = Juke(extra_args=["--web-allow-private-networks", "--radio-allow-private-streams", "--podcast-search-url", "off",
                              "--radio-browser-url", "http://127.0.0.1:1/json/servers"])
    yield server
    server.stop()


def upload_book(juke, token):
    with open(BOOK, "rb") as f:
        data = f.read()
    req = urllib.request.Request(f"{juke.base}/api/v1/dual/books?filename=Both.m4b", data=data, method="POST")
    req.add_header("Content-Type", "application/octet-stream")
    req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def api_key(juke, token, name):
    status, body = request(juke.base, "POST", "/api/v1/auth/subsonic/api-keys", {"name": name}, token=token)
    assert status == 201, body
    return body["key"]


def listened(juke, token, book):
    status, body = request(juke.base, "GET", "/api/v1/dual/books", token=token)
    assert status == 200, body
    row = next(b for b in body["items"] if b["id"] == book)
    return (row.get("listened") or {}).get("position")


def wait_for(check, what):
    deadline = time.time() + 30
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"never: {what}")


def test_dual_player_with_py_opensonic(dual, host):
    conn = libopensonic.Connection("http://127.0.0.1", port=dual.port, api_key=api_key(dual, dual.admin, "opensonic"))
    guest = libopensonic.Connection("http://127.0.0.1", port=dual.port, api_key=api_key(dual, dual.guest, "guest"))

    def read(response):
        return asyncio.run_coroutine_threadsafe(response.read(), conn._loop).result()

    try:
        assert "getPodcastEpisode" in [e.name for e in conn.get_open_subsonic_extensions()]

        # Podcasts: subscribed through the feed reader, listed with their episodes.
        conn.create_podcast_channel(host + "/feed.xml")
        [channel] = conn.get_podcasts()
        assert channel.id.startswith("pc-") and channel.url == host + "/feed.xml" and channel.title == "The Python Show"
        assert channel.status.value == "completed" and channel.original_image_url == host + "/image.png"
        assert [e.title for e in channel.episode] == ["Episode 2", "Episode 1"]
        assert all(e.channel_id == channel.id and e.status.value == "new" and e.type == "podcast" for e in channel.episode)
        [bare] = conn.get_podcasts(inc_episodes=False, pid=channel.id)
        assert bare.episode is None
        assert [e.title for e in conn.get_newest_podcasts(count=1)] == ["Episode 2"]
        first = channel.episode[1]
        episode = conn.get_podcast_episode(first.id)
        assert episode.title == "Episode 1" and episode.description == "Notes of episode 1." and episode.duration == 600
        audio = conn.stream(episode.stream_id)
        assert audio.headers["Content-Type"] == "audio/mpeg" and read(audio) == EPISODE_BYTES
        assert guest.get_podcasts() == []
        with pytest.raises(oerrors.DataNotFoundError):
            guest.get_podcast_episode(first.id)

        # The server's copy, made and removed.
        conn.download_podcast_episode(first.id)
        wait_for(lambda: conn.get_podcast_episode(first.id).status.value == "completed", "the episode downloaded")
        conn.delete_podcast_episode(first.id)
        assert conn.get_podcast_episode(first.id).status.value == "new"

        # A new episode, read by a refresh.
        Host.episodes = 3
        time.sleep(11)  # a feed is read again on demand 10 s after its last fetch at the soonest
        conn.refresh_podcasts()
        wait_for(lambda: len(conn.get_podcasts(pid=channel.id)[0].episode) == 3, "the refresh found episode 3")

        # Bookmarks: a place in a book set here is the page's, and the page's is a bookmark.
        book = upload_book(dual, dual.admin)
        conn.create_bookmark("bk-" + book["id"], 2500, comment="here")
        assert listened(dual, dual.admin, book["id"]) == 2.5
        conn.create_bookmark(first.id, 90_000)
        marks = {m.entry.id: m for m in conn.get_bookmarks()}
        assert set(marks) == {"bk-" + book["id"], first.id}
        mark = marks["bk-" + book["id"]]
        assert mark.position == 2500 and mark.comment == "here" and mark.username == "admin" and mark.entry.type == "audiobook"
        assert marks[first.id].position == 90_000 and marks[first.id].entry.type == "podcast"
        assert read(conn.stream(mark.entry.id)) == open(BOOK, "rb").read()
        status, _ = request(dual.base, "PUT", "/api/v1/dual/positions",
                            {"positions": [{"item": f"book:{book['id']}#1", "seconds": 4.0, "updated_at": int(time.time() * 1000) + 1000}]},
                            token=dual.admin)
        assert status == 200
        assert {m.entry.id: m.position for m in conn.get_bookmarks()}["bk-" + book["id"]] == 4000
        assert guest.get_bookmarks() == []
        with pytest.raises(oerrors.DataNotFoundError):
            guest.create_bookmark("bk-" + book["id"], 1000)
        conn.delete_bookmark(first.id)
        assert [m.entry.id for m in conn.get_bookmarks()] == ["bk-" + book["id"]]

        # Internet radio: favourites, each playing through the relay by its signed address.
        conn.create_internet_radio_station(host + "/station.mp3", "Python FM", homepage_url="https://fm.example")
        [station] = conn.get_internet_radio_stations()
        assert station.name == "Python FM" and station.home_page_url == "https://fm.example"
        assert station.stream_url.startswith(dual.base + f"/api/v1/dual/radio/stations/{station.id}/listen?")
        with urllib.request.urlopen(station.stream_url, timeout=30) as r:
            assert r.headers["Content-Type"] == "audio/mpeg" and len(r.read(4096)) == 4096
        conn.update_internet_radio_station(station.id, host + "/station.mp3", "Python FM 2")
        assert [s.name for s in conn.get_internet_radio_stations()] == ["Python FM 2"]
        assert guest.get_internet_radio_stations() == []
        with pytest.raises(oerrors.DataNotFoundError):
            guest.delete_internet_radio_station(station.id)
        conn.delete_internet_radio_station(station.id)
        assert conn.get_internet_radio_stations() == []

        conn.delete_podcast_channel(channel.id)
        assert conn.get_podcasts() == []
    finally:
        conn.cleanup()
        guest.cleanup()


def test_dual_player_with_py_sonic(dual, host):
    status, made = request(dual.base, "POST", "/api/v1/auth/subsonic/app-password", token=dual.guest)
    assert status == 201, made
    conn = libsonic.Connection("http://127.0.0.1", "guest", made["password"], port=dual.port, appName="py-sonic")

    assert conn.createPodcastChannel(host + "/feed.xml")["status"] == "ok"
    channels = conn.getPodcasts()["podcasts"]["channel"]
    assert [c["title"] for c in channels] == ["The Python Show"]
    episodes = channels[0]["episode"]
    assert len(episodes) == Host.episodes and episodes[0]["channelId"] == channels[0]["id"]
    newest = conn.getNewestPodcasts(count=2)["newestPodcasts"]["episode"]
    assert [e["id"] for e in newest] == [e["id"] for e in episodes[:2]]
    assert conn.refreshPodcasts()["status"] == "ok"
    assert conn.downloadPodcastEpisode(episodes[0]["id"])["status"] == "ok"
    wait_for(lambda: any(e["status"] == "completed" for e in conn.getPodcasts(pid=channels[0]["id"])["podcasts"]["channel"][0]["episode"]),
             "the episode downloaded")
    assert conn.deletePodcastEpisode(episodes[0]["id"])["status"] == "ok"
    with pytest.raises(serrors.DataNotFoundError):
        conn.deletePodcastEpisode(episodes[0]["id"])

    assert conn.createBookmark(episodes[0]["id"], 61_000, comment="py-sonic")["status"] == "ok"
    [mark] = conn.getBookmarks()["bookmarks"]["bookmark"]
    assert mark["position"] == 61_000 and mark["comment"] == "py-sonic" and mark["entry"]["id"] == episodes[0]["id"]
    status, page = request(dual.base, "GET", f"/api/v1/dual/podcasts/{channels[0]['id'][3:]}/episodes", token=dual.guest)
    assert status == 200 and next(e for e in page["items"] if e["id"] == episodes[0]["id"][3:])["position"] == 61
    assert conn.deleteBookmark(episodes[0]["id"])["status"] == "ok"
    assert not conn.getBookmarks()["bookmarks"].get("bookmark")
    with pytest.raises(serrors.DataNotFoundError):
        conn.deleteBookmark(episodes[0]["id"])

    assert conn.createInternetRadioStation(host + "/station.mp3", "Sonic FM")["status"] == "ok"
    [station] = conn.getInternetRadioStations()["internetRadioStations"]["internetRadioStation"]
    assert station["name"] == "Sonic FM" and "/listen?user=" in station["streamUrl"]
    assert conn.updateInternetRadioStation(station["id"], host + "/station.mp3", "Sonic FM 2", homepageUrl="https://sonic.example")["status"] == "ok"
    [renamed] = conn.getInternetRadioStations()["internetRadioStations"]["internetRadioStation"]
    assert renamed["name"] == "Sonic FM 2" and renamed["homePageUrl"] == "https://sonic.example"
    assert conn.deleteInternetRadioStation(station["id"])["status"] == "ok"
    with pytest.raises(serrors.DataNotFoundError):
        conn.deleteInternetRadioStation(station["id"])

    assert conn.deletePodcastChannel(channels[0]["id"])["status"] == "ok"
    assert not conn.getPodcasts()["podcasts"].get("channel")


def rest(juke, method, **params):
    query = urllib.parse.urlencode({"v": "1.16.1", "c": "tests", **params})
    with urllib.request.urlopen(f"{juke.base}/rest/{method}?{query}", timeout=30) as r:
        return ET.fromstring(r.read())


def test_dual_player_bad_input_in_xml(dual):
    key = api_key(dual, dual.admin, "xml")
    root = rest(dual, "getBookmarks", apiKey=key)
    assert root.get("status") == "ok" and root.find("s:bookmarks", NS) is not None
    for method, params, code in [
        ("createBookmark", {"position": "1"}, "10"),
        ("createBookmark", {"id": "bk-nope", "position": "1"}, "70"),
        ("createBookmark", {"id": "bk-00000000-0000-0000-0000-000000000000", "position": "x"}, "0"),
        ("deleteBookmark", {"id": "pe-00000000-0000-0000-0000-000000000000"}, "70"),
        ("getPodcasts", {"id": "tr-00000000-0000-0000-0000-000000000000"}, "70"),
        ("getNewestPodcasts", {"count": "-1"}, "0"),
        ("getPodcastEpisode", {}, "10"),
        ("createPodcastChannel", {"url": "not a feed at all"}, "0"),
        ("downloadPodcastEpisode", {"id": "pe-00000000-0000-0000-0000-000000000000"}, "70"),
        ("deletePodcastChannel", {"id": "pc-00000000-0000-0000-0000-000000000000"}, "70"),
        ("createInternetRadioStation", {"name": "x"}, "10"),
        ("createInternetRadioStation", {"name": "x", "streamUrl": "file:///etc/passwd"}, "0"),
        ("updateInternetRadioStation", {"id": "nope", "name": "x", "streamUrl": "http://a.example/"}, "70"),
        ("stream", {"id": "bk-00000000-0000-0000-0000-000000000000"}, "70"),
        ("getCoverArt", {"id": "pe-00000000-0000-0000-0000-000000000000"}, "70"),
    ]:
        error = rest(dual, method, apiKey=key, **params).find("s:error", NS)
        assert error is not None and error.get("code") == code, (method, params, error.attrib if error is not None else None)
    assert "a Subsonic request failed" not in dual.log_text(), "no request ended in an unexpected error"
