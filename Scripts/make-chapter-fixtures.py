#!/usr/bin/env python3
"""Makes the small audiobooks the chapter reader tests read, and what other tools read from them.

ffmpeg writes the audio and the chapters: in an M4B it writes both the QuickTime chapter track and
Nero's chpl list, in an MP3 ID3v2 CHAP and CTOC frames. Files with only one of the MP4 lists are
made by leaving chpl out (-movflags disable_chpl) or by adding a chpl box to a file without
chapters. expected.json holds, per file, the chapters ffprobe reads and, where the file has a chpl
list, the ones mutagen reads, so the Swift reader is checked against two independent readers.
The outputs are committed; run this again only to change them:  Scripts/make-chapter-fixtures.py
(needs ffmpeg and mutagen: Scripts/tools-venv.sh mutagen=mutagen).
"""
import json, os, struct, subprocess, sys, tempfile
import mutagen.mp4

out = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "Tests", "MediaFormatsTests", "Fixtures", "chapters"))
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp()

NAMED = [("Opening", 0, 1500), ("Der Sturm – über den Fjord", 1500, 3200), ("第三章", 3200, 4100), ("Ending", 4100, 6000)]
PLACEHOLDERS = [("Chapter %d" % (i + 1), s, e) for i, (_, s, e) in enumerate(NAMED)]

def metadata(chapters, title="A Small Book"):
    path = os.path.join(work, "meta-%d.txt" % len(os.listdir(work)))
    lines = [";FFMETADATA1", "title=" + title, "artist=Juke Tests"]
    for name, start, end in chapters:
        lines += ["[CHAPTER]", "TIMEBASE=1/1000", "START=%d" % start, "END=%d" % end, "title=" + name.replace("=", "\\=")]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return path

def encode(name, chapters, extra=(), seconds=6):
    path = os.path.join(out, name)
    args = ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=%d" % seconds]
    if chapters is not None:
        args += ["-i", metadata(chapters), "-map", "0", "-map_metadata", "1", "-map_chapters", "1"]
    if name.endswith(".mp3"):
        args += ["-ac", "1", "-ar", "22050", "-b:a", "32k"]
    else:
        args += ["-c:a", "aac", "-ac", "1", "-ar", "22050", "-b:a", "16k"]
    subprocess.run(args + list(extra) + [path], check=True)
    return path

def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload

def chpl(chapters):
    body = bytes([1, 0, 0, 0]) + b"\0\0\0\0" + bytes([len(chapters)])
    for name, start, _ in chapters:
        title = name.encode("utf-8")
        body += struct.pack(">QB", start * 10000, len(title)) + title
    return box(b"chpl", body)

def add_chpl(path, chapters):
    """Puts chpl at the end of moov/udta (made if missing), as Nero and mp4v2 do. ffmpeg
    writes moov after mdat, so growing it moves no sample offset."""
    data = bytearray(open(path, "rb").read())
    def children(start, end):
        pos = start
        while pos + 8 <= end:
            size, kind = struct.unpack(">I4s", data[pos:pos + 8])
            yield pos, size, kind
            pos += size
    moov = next((p, s) for p, s, k in children(0, len(data)) if k == b"moov")
    assert moov[0] + moov[1] == len(data), "moov must be the last box"
    udta = next(((p, s) for p, s, k in children(moov[0] + 8, moov[0] + moov[1]) if k == b"udta"), None)
    extra = chpl(chapters)
    if udta is None:
        extra = box(b"udta", extra)
        data += extra
    else:
        data[udta[0] + udta[1]:udta[0] + udta[1]] = extra
        struct.pack_into(">I", data, udta[0], udta[1] + len(extra))
    struct.pack_into(">I", data, moov[0], moov[1] + len(extra))
    open(path, "wb").write(bytes(data))

def ffprobe(path):
    result = subprocess.run(["ffprobe", "-v", "error", "-show_chapters", "-show_format", "-of", "json", path], check=True, capture_output=True)
    info = json.loads(result.stdout)
    return {
        "duration": float(info["format"]["duration"]),
        "chapters": [{"title": c.get("tags", {}).get("title", ""), "start": float(c["start_time"]), "end": float(c["end_time"])} for c in info["chapters"]],
    }

def mutagen_chpl(path):
    f = mutagen.mp4.MP4(path)
    return [{"title": c.title, "start": c.start} for c in (f.chapters or [])]

expected = {}
p = encode("both.m4b", NAMED)
expected["both.m4b"] = {"source": "quicktime", "ffprobe": ffprobe(p), "mutagen_chpl": mutagen_chpl(p)}
p = encode("quicktime-only.m4b", NAMED, ["-movflags", "disable_chpl"])
expected["quicktime-only.m4b"] = {"source": "quicktime", "ffprobe": ffprobe(p)}
p = encode("nero-only.m4b", None)
add_chpl(p, NAMED)
expected["nero-only.m4b"] = {"source": "nero", "ffprobe": ffprobe(p), "mutagen_chpl": mutagen_chpl(p)}
p = encode("placeholder-quicktime.m4b", PLACEHOLDERS, ["-movflags", "disable_chpl"])
add_chpl(p, NAMED)
expected["placeholder-quicktime.m4b"] = {"source": "nero", "mutagen_chpl": mutagen_chpl(p), "titles": [n for n, _, _ in NAMED]}
p = encode("no-chapters.m4b", None)
expected["no-chapters.m4b"] = {"source": "none", "ffprobe": ffprobe(p)}
p = encode("chapters.mp3", NAMED)
expected["chapters.mp3"] = {"source": "id3", "ffprobe": ffprobe(p)}

def covered(name, chapters):
    """An M4B with chapters and a cover: a PNG attached as ffmpeg attaches pictures (the covr
    atom), kept beside it (covered.png) as what the tag reader must give back, byte for byte."""
    cover = os.path.join(out, "covered.png")
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=c=0x3366cc:s=32x32", "-frames:v", "1", cover], check=True)
    path = os.path.join(out, name)
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=6", "-i", metadata(chapters),
                    "-i", cover, "-map", "0:a", "-map", "2:v", "-map_metadata", "1", "-map_chapters", "1",
                    "-c:a", "aac", "-ac", "1", "-ar", "22050", "-b:a", "16k", "-c:v", "png", "-disposition:v", "attached_pic",
                    "-f", "ipod", path], check=True)
    return path

# Not in expected.json: its chapters are both.m4b's, its cover covered.png (ChapterReaderTests).
covered("covered.m4b", NAMED)

with open(os.path.join(out, "expected.json"), "w", encoding="utf-8") as f:
    json.dump(expected, f, indent=1, ensure_ascii=False, sort_keys=True)
    f.write("\n")
print("wrote", len(expected), "fixtures to", out)
