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
