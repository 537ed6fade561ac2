"""The `juke` command's file tools, run as a user runs them."""
import json
import os
import subprocess

from conftest import JUKE

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "MediaFormatsTests", "Fixtures", "chapters")


def test_chapters_json_is_one_object_per_file_with_what_ffprobe_reads():
    expected = json.load(open(os.path.join(FIXTURES, "expected.json"), encoding="utf-8"))
    names = sorted(expected)
    out = subprocess.run([JUKE, "chapters", "--json"] + [os.path.join(FIXTURES, n) for n in names],
                         capture_output=True, text=True, check=True).stdout
    lines = out.strip().split("\n")
    assert len(lines) == len(names)
    for name, line in zip(names, lines):
        got = json.loads(line)
        assert set(got) == {"file", "duration", "source", "chapters"}
        assert got["file"].endswith(name)
        assert got["source"] == expected[name]["source"]
        for chapter in got["chapters"]:
            assert set(chapter) == {"title", "start", "end"}
        probe = expected[name].get("ffprobe")
        if probe and probe["chapters"]:
            assert [c["title"] for c in got["chapters"]] == [c["title"] for c in probe["chapters"]]
            assert all(abs(a["start"] - b["start"]) < 0.001 for a, b in zip(got["chapters"], probe["chapters"]))


def test_chapters_text_output_and_a_bad_file(tmp_path):
    bad = tmp_path / "not-audio.m4b"
    bad.write_bytes(b"this is not an audiobook at all")
    result = subprocess.run([JUKE, "chapters", os.path.join(FIXTURES, "both.m4b"), str(bad)], capture_output=True, text=True)
    assert result.returncode == 1, "a file that cannot be read fails the command"
    assert "4 chapter(s) from quicktime" in result.stdout
    assert "0:00:01.500 - 0:00:03.200  Der Sturm – über den Fjord" in result.stdout
    assert str(bad) in result.stderr and "byte" in result.stderr, result.stderr


FEED = """<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Caf\xe9 Stories</title><link>https://example.org/</link><language>fr</language>
<item><title>Premi\xe8re</title><guid isPermaLink="false">ep-1</guid><link>episodes/1.html</link>
<pubDate>Tue, 05 Mar 2024 06:00:00 +0100</pubDate><enclosure url="audio/1.mp3" length="1234" type="audio/mpeg"/>
<itunes:duration>1:02:03</itunes:duration></item>
</channel></rss>
"""


def test_feed_prints_what_the_parser_reads_from_a_file_and_an_address(tmp_path):
    import functools
    import http.server
    import threading
    (tmp_path / "show.xml").write_bytes(FEED.encode("latin-1"))
    out = subprocess.run([JUKE, "feed", "--json", str(tmp_path / "show.xml")], capture_output=True, text=True, check=True).stdout
    feed = json.loads(out)
    assert set(feed) == {"title", "link", "language", "items"}
    assert (feed["title"], feed["link"], feed["language"]) == ("Café Stories", "https://example.org/", "fr")
    item = feed["items"][0]
    assert set(item) == {"guid", "title", "link", "published", "enclosure_url", "enclosure_type", "enclosure_length", "duration"}
    assert (item["guid"], item["title"], item["published"], item["duration"]) == ("ep-1", "Première", "2024-03-05T05:00:00Z", 3723)
    assert (item["enclosure_type"], item["enclosure_length"]) == ("audio/mpeg", 1234)
    # From an address, relative links are made absolute against it.
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/show.xml"
        item = json.loads(subprocess.run([JUKE, "feed", "--json", url], capture_output=True, text=True, check=True).stdout)["items"][0]
        assert item["enclosure_url"] == f"http://127.0.0.1:{server.server_port}/audio/1.mp3"
        assert item["link"] == f"http://127.0.0.1:{server.server_port}/episodes/1.html"
        missing = subprocess.run([JUKE, "feed", url.replace("show", "gone")], capture_output=True, text=True)
        assert missing.returncode == 1 and "404" in missing.stderr
    finally:
        server.shutdown()
    # The text form, and a page that is no feed.
    text = subprocess.run([JUKE, "feed", str(tmp_path / "show.xml")], capture_output=True, text=True, check=True).stdout
    assert "Title: Café Stories" in text and "Items: 1" in text and "2024-03-05T05:00:00Z  Première  [3723 s]" in text
    (tmp_path / "page.html").write_text("<!doctype html><html><body>hello</body></html>")
    bad = subprocess.run([JUKE, "feed", str(tmp_path / "page.html")], capture_output=True, text=True)
    assert bad.returncode == 1 and "Not a feed" in bad.stderr
