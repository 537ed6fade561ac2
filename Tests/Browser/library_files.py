"""A generated music library for the browser tests: small valid files (a tenth of a second of
8 kHz WAV, tagged with an ID3v2.4 chunk as Juke's own test tools write them), as many as a
test needs, written in a second or two."""
import os
import struct


def id3(frames):
    """An ID3v2.4 tag of UTF-8 text frames ({"TIT2": "title", ...})."""
    def syncsafe(n):
        return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])

    body = b""
    for frame, value in frames.items():
        data = b"\x03" + str(value).encode()
        body += frame.encode() + syncsafe(len(data)) + b"\x00\x00" + data
    return b"ID3\x04\x00\x00" + syncsafe(len(body)) + body


def tagged_wav(path, title, artist, album, year, genre, track=1):
    """Writes a tiny tagged WAV at `path`."""
    rate = 8000
    samples = b"".join(struct.pack("<h", (i * 37) % 2000 - 1000) for i in range(rate // 10))
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    tag = id3({"TIT2": title, "TPE1": artist, "TALB": album, "TDRC": year, "TCON": genre, "TRCK": track})

    def chunk(name, data):
        return name + struct.pack("<I", len(data)) + data + (b"\x00" if len(data) % 2 else b"")

    body = b"WAVE" + chunk(b"fmt ", fmt) + chunk(b"data", samples) + chunk(b"id3 ", tag)
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


# Words that names are made of, so that every letter has artists and albums under it.
WORDS = ["Amber", "Blue", "Cedar", "Delta", "Echo", "Falcon", "Granite", "Harbor", "Indigo", "Juniper", "Kestrel", "Lumen", "Marble",
         "Nova", "Onyx", "Pioneer", "Quartz", "Raven", "Silver", "Tundra", "Umber", "Velvet", "Willow", "Xenon", "Yonder", "Zephyr"]
GENRES = ["Rock", "Jazz", "Pop", "Folk"]


def big_library(folder, per_letter=6, albums_per_artist=2):
    """Artists under every letter A to Z (some named "The …", set aside by the index), a few
    under "#" (digits), each with `albums_per_artist` one-song albums, years from 1960 to
    2019 and four genres. Returns the artists' names, in the order the library lists them."""
    os.makedirs(folder, exist_ok=True)
    artists = []
    for word in WORDS:
        for n in range(per_letter):
            # Every third artist of a letter is "The …": listed under the word's letter.
            artists.append(f"The {word} Band {n + 1:02d}" if n % 3 == 2 else f"{word} Ensemble {n + 1:02d}")
    artists += [f"{n} Seconds Of Sound" for n in (5, 30, 99)]
    count = 0
    for i, artist in enumerate(artists):
        for a in range(albums_per_artist):
            album = f"{WORDS[(i * 7 + a * 11) % 26]} Sessions {i:03d}-{a}"
            year = 1960 + (i * 13 + a * 29) % 60
            tagged_wav(os.path.join(folder, f"{i:04d}-{a}.wav"), f"Song {i:03d}-{a}", artist, album, year, GENRES[(i + a) % 4])
            count += 1
    return artists, count
