#!/usr/bin/env python3
"""Writes a music library of small but valid MP3 files for issue 51's benchmark
(Scripts/bench-library.sh), the same files for Juke and for supysonic.

usage: make_library.py N FOLDER [--seed S]

N tracks laid out FOLDER/Artist/Album/NN Title.mp3: ten tracks an album, four albums an
artist (N=100,000: 2,500 artists, 10,000 albums; N=1,000: 25 artists, 100 albums). Names
start with every letter, every eighth artist is a "The ...", every tenth artist and about
one album in ten have an accent (Émile, Ørsted, Ñandú...); twelve genres; years 1960-2024,
one per album. The same N and seed always give the same files (names, tags and bytes).

Each file: an ID3v2.3 tag (Latin-1, or UTF-16 when a name needs it) or an ID3v2.4 tag
(UTF-8), alternating by album, with title, artist, album artist, album, track number
("3/10"), year and genre; then 1 to 3 seconds of silent MPEG-1 Layer III frames (32 kbit/s,
32 kHz, mono, 144 bytes each, no Xing header), so every reader computes a duration from the
constant bitrate. About 4-14 KB a file: 100,000 tracks take about 1 GB.
"""
import os
import random
import sys

FIRST = [
    "Amber", "Autumn", "Blue", "Bright", "Broken", "Crimson", "Cold", "Distant", "Dusty", "Electric", "Empty", "Fading", "Frozen",
    "Golden", "Gentle", "Hollow", "Honey", "Idle", "Iron", "Jaded", "Jolly", "Kind", "Kinetic", "Lonely", "Lucky", "Midnight",
    "Mellow", "Neon", "Northern", "Open", "Orange", "Pale", "Purple", "Quiet", "Quick", "Restless", "Rusty", "Silver", "Sleepy",
    "Tender", "Twisted", "Upper", "Urban", "Velvet", "Violet", "Wild", "Wooden", "Xeric", "Yellow", "Young", "Zealous", "Zero",
]
SECOND = [
    "Anchors", "Bees", "Birds", "Canyons", "Comets", "Dreams", "Engines", "Echoes", "Feathers", "Foxes", "Gardens", "Ghosts",
    "Harbors", "Hearts", "Islands", "Jets", "Kites", "Lanterns", "Lights", "Machines", "Mirrors", "Nights", "Oceans", "Owls",
    "Pilots", "Rivers", "Roads", "Sailors", "Shadows", "Signals", "Stones", "Tides", "Towers", "Valleys", "Waves", "Wolves",
    "Yards", "Zephyrs",
]
GIVEN = [
    "Ada", "Bruno", "Clara", "Dmitri", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Lars", "Mara", "Nico", "Olga",
    "Pablo", "Quinn", "Rosa", "Sven", "Tara", "Ugo", "Vera", "Walt", "Xenia", "Yuki", "Zane",
]
FAMILY = [
    "Abbott", "Baker", "Castro", "Duval", "Eriksen", "Fischer", "Garcia", "Holm", "Ivanova", "Jensen", "Keller", "Lindqvist",
    "Moreau", "Novak", "Olsen", "Petrov", "Quist", "Rossi", "Silva", "Tanaka", "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zeller",
]
# One name in about ten: case and accents fold in the catalog's order keys (Émile sorts with E).
ACCENTED = [
    "Émile", "Élodie", "Ángel", "Ólafur", "Ørsted", "Ñandú", "Über", "Çelik", "Åsa", "Zoë", "Björk", "Señora", "Jiří", "Łukasz",
    "Søren", "Île", "Œuvre", "Ðorđe",
]
WORDS = [
    "after", "again", "all", "alone", "angel", "back", "before", "blue", "born", "break", "burn", "call", "city", "close", "cold",
    "come", "dance", "dark", "day", "down", "dream", "drive", "easy", "end", "ever", "fall", "feel", "fire", "fly", "forever",
    "free", "girl", "gold", "gone", "good", "heart", "heaven", "high", "home", "hope", "island", "just", "kiss", "last", "late",
    "leave", "light", "little", "long", "lost", "love", "man", "midnight", "moon", "morning", "never", "night", "nothing", "old",
    "only", "over", "paradise", "queen", "rain", "ride", "river", "road", "rock", "run", "sea", "shine", "sky", "slow", "song",
    "soul", "star", "stay", "summer", "sun", "sweet", "time", "tonight", "train", "true", "under", "wait", "walk", "water",
    "wild", "wind", "winter", "world", "yesterday", "young", "zero",
]
GENRES = ["Rock", "Pop", "Jazz", "Classical", "Electronic", "Folk", "Hip-Hop", "Blues", "Soul", "Metal", "Country", "Reggae"]

# MPEG-1 Layer III, 32 kbit/s, 32 kHz, mono, no CRC: 144 bytes a frame, 1,152 samples (36 ms).
# A zeroed side information is a valid silent frame.
FRAME = bytes([0xFF, 0xFB, 0x18, 0xC4]) + bytes(140)
FRAMES_PER_SECOND = 32000 / 1152


def synchsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def text_frame(frame_id, text, version):
    if version == 4:
        data = b"\x03" + text.encode("utf-8")
        size = synchsafe(len(data))
    else:
        try:
            data = b"\x00" + text.encode("latin-1")
        except UnicodeEncodeError:
            data = b"\x01" + text.encode("utf-16")  # with its byte order mark, as ID3v2.3 asks
        size = len(data).to_bytes(4, "big")
    return frame_id.encode("ascii") + size + b"\x00\x00" + data


def id3(tags, version):
    year_frame = "TDRC" if version == 4 else "TYER"
    frames = b"".join(
        text_frame(frame_id, value, version)
        for frame_id, value in [
            ("TIT2", tags["title"]), ("TPE1", tags["artist"]), ("TPE2", tags["album_artist"]), ("TALB", tags["album"]),
            ("TRCK", tags["track"]), (year_frame, tags["year"]), ("TCON", tags["genre"]),
        ])
    frames += bytes(64)  # padding, as taggers leave
    return b"ID3" + bytes([version, 0, 0]) + synchsafe(len(frames)) + frames


def capitalized(words):
    return " ".join(w[:1].upper() + w[1:] for w in words)


def artist_names(rng, count):
    names, seen = [], set()
    while len(names) < count:
        kind = rng.random()
        if len(names) % 8 == 0:
            name = "The " + rng.choice(FIRST) + " " + rng.choice(SECOND)
        elif len(names) % 10 == 5:
            name = rng.choice(ACCENTED) + " " + rng.choice(FAMILY + SECOND)
        elif kind < 0.4:
            name = rng.choice(GIVEN) + " " + rng.choice(FAMILY)
        else:
            name = rng.choice(FIRST) + " " + rng.choice(SECOND)
        if name in seen:
            # Past the word lists' combinations: a numbered name, as bands reuse names.
            name = f"{name} {len(names)}"
        seen.add(name)
        names.append(name)
    return names


def album_title(rng, taken):
    while True:
        kind = rng.random()
        if kind < 0.1:
            title = rng.choice(ACCENTED) + " " + capitalized([rng.choice(WORDS)])
        elif kind < 0.4:
            title = capitalized([rng.choice(WORDS), rng.choice(WORDS)])
        elif kind < 0.6:
            title = capitalized([rng.choice(WORDS)]) + " of the " + capitalized([rng.choice(WORDS)])
        else:
            title = rng.choice(FIRST) + " " + rng.choice(SECOND)
        if title not in taken:
            taken.add(title)
            return title


def safe(name):
    return name.replace("/", "-")


def main():
    args = sys.argv[1:]
    seed = "juke-51"
    if "--seed" in args:
        i = args.index("--seed")
        seed = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    count, folder = int(args[0]), args[1]
    rng = random.Random(f"{seed}-{count}")
    albums = (count + 9) // 10
    artists = artist_names(rng, (albums + 3) // 4)
    written = 0
    for album_number in range(albums):
        artist = artists[album_number // 4]
        if album_number % 4 == 0:
            taken = set()
        title = album_title(rng, taken)
        year = str(rng.randint(1960, 2024))
        genre = GENRES[rng.randrange(len(GENRES))]
        version = 4 if album_number % 2 else 3
        directory = os.path.join(folder, safe(artist), safe(title))
        os.makedirs(directory, exist_ok=True)
        tracks = min(10, count - written)
        for number in range(1, tracks + 1):
            song = capitalized([rng.choice(WORDS) for _ in range(rng.randint(1, 4))])
            tags = {"title": song, "artist": artist, "album_artist": artist, "album": title, "track": f"{number}/{tracks}",
                    "year": year, "genre": genre}
            frames = int(FRAMES_PER_SECOND * rng.uniform(1.0, 3.0))
            path = os.path.join(directory, f"{number:02d} {safe(song)}.mp3")
            with open(path, "wb") as f:
                f.write(id3(tags, version) + FRAME * frames)
            written += 1
    print(f"{written} tracks, {albums} albums, {len(artists)} artists in {folder}")


if __name__ == "__main__":
    main()
