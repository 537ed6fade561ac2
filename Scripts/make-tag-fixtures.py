#!/usr/bin/env python3
"""Makes the small audio files the tag reader tests read, and their expected tags.

Audio comes from ffmpeg; tags are written by mutagen, and the expected values in
expected.json are what mutagen itself reads back (plus its duration), so the Swift readers
are checked against an independent implementation. The outputs are committed; run this
again only to change the fixtures:  python3 Scripts/make-tag-fixtures.py
"""
import base64, json, os, struct, subprocess, sys, zlib
from mutagen.id3 import ID3, TIT2, TPE1, TPE2, TALB, TCOM, TCON, TRCK, TPOS, TDRC, TYER, TSRC, UFID, APIC, TXXX, ID3v1SaveOptions
from mutagen.mp3 import MP3
from mutagen.mp4 import MP4, MP4Cover, MP4FreeForm
from mutagen.flac import FLAC, Picture
from mutagen.oggvorbis import OggVorbis
from mutagen.oggopus import OggOpus
from mutagen.wave import WAVE
from mutagen.aiff import AIFF
from mutagen.asf import ASF
from mutagen.wavpack import WavPack

out = os.path.join(os.path.dirname(__file__), "..", "Tests", "MediaFormatsTests", "Fixtures")
out = os.path.abspath(out)
os.makedirs(out, exist_ok=True)

def png(w=8, h=8):
    raw = b"".join(b"\x00" + bytes([x * 30 % 256, y * 30 % 256, 128]) * 1 for y in range(h) for x in range(1))
    raw = b"".join(b"\x00" + b"".join(bytes([x * 30 % 256, y * 30 % 256, 128]) for x in range(w)) for y in range(h))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

COVER = png()

def ffmpeg(args, path):
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=%s" % args.pop(0)] + args + [path], check=True)

expected = {}

def record(name, **fields):
    expected[name] = {k: v for k, v in fields.items() if v is not None}

# MP3, ID3v2.4, UTF-8, every field Juke reads.
p = os.path.join(out, "id3v24.mp3")
ffmpeg(["1.0", "-ac", "1", "-ar", "44100", "-b:a", "64k", "-id3v2_version", "0", "-write_xing", "0"], p)
t = ID3()
t.add(TIT2(encoding=3, text="Café Society ☕"))
t.add(TPE1(encoding=3, text="Beyoncé"))
t.add(TPE2(encoding=3, text="Various Artists"))
t.add(TALB(encoding=3, text="Über Album"))
t.add(TCOM(encoding=3, text="Ludwig van Beethoven"))
t.add(TCON(encoding=3, text="Rock"))
t.add(TRCK(encoding=3, text="3/12"))
t.add(TPOS(encoding=3, text="1/2"))
t.add(TDRC(encoding=3, text="1999-05-02"))
t.add(TSRC(encoding=3, text="USRC17607839"))
t.add(UFID(owner="http://musicbrainz.org", data=b"1d3a9b8f-3b8a-4f2e-9a55-6f1f0f1f2a11"))
t.add(APIC(encoding=3, mime="image/png", type=3, desc="cover", data=COVER))
t.save(p, v2_version=4)
m = MP3(p)
record("id3v24.mp3", format="mp3", title="Café Society ☕", artist="Beyoncé", album_artist="Various Artists", album="Über Album",
       composer="Ludwig van Beethoven", genre="Rock", track=3, track_total=12, disc=1, disc_total=2, year=1999,
       isrc="USRC17607839", musicbrainz="1d3a9b8f-3b8a-4f2e-9a55-6f1f0f1f2a11", artwork_mime="image/png",
       artwork_size=len(COVER), duration=m.info.length, sample_rate=m.info.sample_rate, channels=m.info.channels)

# MP3, ID3v2.3 in UTF-16 with BOM, numeric genre reference, TYER, plus an ID3v1 tag.
p = os.path.join(out, "id3v23-utf16.mp3")
ffmpeg(["1.0", "-ac", "2", "-ar", "48000", "-b:a", "128k", "-id3v2_version", "0", "-write_xing", "0"], p)
t = ID3()
t.add(TIT2(encoding=1, text="Ħello Wörld"))
t.add(TPE1(encoding=1, text="Sigur Rós"))
t.add(TALB(encoding=1, text="Ágætis byrjun"))
t.add(TCON(encoding=1, text="(17)"))
t.add(TYER(encoding=1, text="1999"))
t.add(TRCK(encoding=1, text="7"))
t.add(TXXX(encoding=1, desc="MusicBrainz Track Id", text="5b11f4ce-a62d-471e-81fc-a69a8278c7da"))
t.save(p, v2_version=3, v1=ID3v1SaveOptions.CREATE)
m = MP3(p)
record("id3v23-utf16.mp3", format="mp3", title="Ħello Wörld", artist="Sigur Rós", album="Ágætis byrjun", genre="Rock",
       year=1999, track=7, musicbrainz="5b11f4ce-a62d-471e-81fc-a69a8278c7da",
       duration=m.info.length, sample_rate=m.info.sample_rate, channels=m.info.channels)

# MP3, VBR with a Xing header: the duration must come from the frame count.
p = os.path.join(out, "vbr-xing.mp3")
ffmpeg(["3.0", "-ac", "1", "-ar", "22050", "-q:a", "6", "-id3v2_version", "0"], p)
m = MP3(p)
record("vbr-xing.mp3", format="mp3", duration=m.info.length, sample_rate=m.info.sample_rate, channels=m.info.channels)

# MP3 with only an ID3v1.1 tag.
p = os.path.join(out, "id3v1-only.mp3")
ffmpeg(["1.0", "-ac", "1", "-ar", "44100", "-b:a", "32k", "-id3v2_version", "0", "-write_xing", "0"], p)
with open(p, "ab") as f:
    tag = b"TAG" + b"Old Song".ljust(30, b"\0") + b"Old Artist".ljust(30, b"\0") + b"Old Album".ljust(30, b"\0") + b"1987" + b"comment".ljust(28, b"\0") + b"\0" + bytes([5]) + bytes([8])
    f.write(tag)
m = MP3(p)
record("id3v1-only.mp3", format="mp3", title="Old Song", artist="Old Artist", album="Old Album", year=1987, track=5, genre="Jazz",
       duration=m.info.length)

# M4A (AAC) with iTunes tags and a freeform ISRC.
p = os.path.join(out, "itunes.m4a")
ffmpeg(["1.0", "-ac", "2", "-ar", "44100", "-c:a", "aac", "-b:a", "64k"], p)
a = MP4(p)
a["\xa9nam"] = ["Naïve Song"]
a["\xa9ART"] = ["The Artist"]
a["aART"] = ["Album Artist"]
a["\xa9alb"] = ["M4A Album"]
a["\xa9wrt"] = ["A Composer"]
a["\xa9gen"] = ["Jazz"]
a["\xa9day"] = ["2004-01-01T00:00:00Z"]
a["trkn"] = [(4, 9)]
a["disk"] = [(2, 3)]
a["covr"] = [MP4Cover(COVER, imageformat=MP4Cover.FORMAT_PNG)]
a["----:com.apple.iTunes:ISRC"] = [MP4FreeForm(b"GBAYE0601498")]
a["----:com.apple.iTunes:MusicBrainz Track Id"] = [MP4FreeForm(b"f6a2a1c5-1111-4e2a-9a55-2222aaaa3333")]
a.save()
a = MP4(p)
record("itunes.m4a", format="mp4", title="Naïve Song", artist="The Artist", album_artist="Album Artist", album="M4A Album",
       composer="A Composer", genre="Jazz", year=2004, track=4, track_total=9, disc=2, disc_total=3, isrc="GBAYE0601498",
       musicbrainz="f6a2a1c5-1111-4e2a-9a55-2222aaaa3333", artwork_mime="image/png", artwork_size=len(COVER),
       duration=a.info.length, sample_rate=a.info.sample_rate, channels=a.info.channels)

def vorbis_tags(tags):
    tags["TITLE"] = "Ünïcode Title"
    tags["ARTIST"] = "Ørjan"
    tags["ALBUMARTIST"] = "Ørjan & Friends"
    tags["ALBUM"] = "Nordic"
    tags["COMPOSER"] = "Edvard Grieg"
    tags["GENRE"] = "Classical"
    tags["DATE"] = "1875"
    tags["TRACKNUMBER"] = "2"
    tags["TRACKTOTAL"] = "10"
    tags["DISCNUMBER"] = "1/1"
    tags["ISRC"] = "NOXXX7512345"
    tags["MUSICBRAINZ_TRACKID"] = "0c8f7c38-3c1e-4c3b-8a0a-123456789abc"

vorbis_expected = dict(title="Ünïcode Title", artist="Ørjan", album_artist="Ørjan & Friends", album="Nordic", composer="Edvard Grieg",
                       genre="Classical", year=1875, track=2, track_total=10, disc=1, disc_total=1, isrc="NOXXX7512345",
                       musicbrainz="0c8f7c38-3c1e-4c3b-8a0a-123456789abc", artwork_mime="image/png", artwork_size=len(COVER))

def picture():
    pic = Picture()
    pic.type = 3
    pic.mime = "image/png"
    pic.desc = "front"
    pic.width = pic.height = 8
    pic.depth = 24
    pic.data = COVER
    return pic

p = os.path.join(out, "tagged.flac")
ffmpeg(["1.0", "-ac", "1", "-ar", "44100", "-c:a", "flac"], p)
f = FLAC(p)
vorbis_tags(f)
f.add_picture(picture())
f.save()
f = FLAC(p)
record("tagged.flac", format="flac", duration=f.info.length, sample_rate=f.info.sample_rate, channels=f.info.channels, **vorbis_expected)

p = os.path.join(out, "tagged.ogg")
ffmpeg(["1.0", "-ac", "2", "-ar", "44100", "-c:a", "libvorbis", "-q:a", "0"], p)
o = OggVorbis(p)
vorbis_tags(o)
o["METADATA_BLOCK_PICTURE"] = [base64.b64encode(picture().write()).decode("ascii")]
o.save()
o = OggVorbis(p)
record("tagged.ogg", format="ogg_vorbis", duration=o.info.length, sample_rate=o.info.sample_rate, channels=o.info.channels, **vorbis_expected)

p = os.path.join(out, "tagged.opus")
ffmpeg(["1.0", "-ac", "1", "-ar", "48000", "-c:a", "libopus", "-b:a", "24k"], p)
o = OggOpus(p)
vorbis_tags(o)
o["METADATA_BLOCK_PICTURE"] = [base64.b64encode(picture().write()).decode("ascii")]
o.save()
o = OggOpus(p)
record("tagged.opus", format="opus", duration=o.info.length, channels=o.info.channels, **vorbis_expected)

# WAV with RIFF INFO (from ffmpeg) and an id3 chunk (from mutagen) that wins over it.
p = os.path.join(out, "tagged.wav")
ffmpeg(["0.5", "-ac", "1", "-ar", "8000", "-c:a", "pcm_s16le", "-metadata", "title=INFO Title", "-metadata", "artist=INFO Artist", "-metadata", "genre=Folk"], p)
w = WAVE(p)
w.add_tags()
w.tags.add(TIT2(encoding=3, text="ID3 Title"))
w.tags.add(TALB(encoding=3, text="ID3 Album"))
w.save()
w = WAVE(p)
record("tagged.wav", format="wav", title="ID3 Title", artist="INFO Artist", album="ID3 Album", genre="Folk",
       duration=w.info.length, sample_rate=w.info.sample_rate, channels=w.info.channels)

# AIFF as Apple rips it: ffmpeg's PCM with an ID3 chunk (ffmpeg writes it), read back by mutagen.
p = os.path.join(out, "tagged.aiff")
ffmpeg(["0.75", "-ac", "2", "-ar", "22050", "-c:a", "pcm_s16be", "-write_id3v2", "1", "-metadata", "title=AIFF Title",
        "-metadata", "artist=AIFF Artist", "-metadata", "album=AIFF Album", "-metadata", "track=4/9"], p)
a = AIFF(p)
record("tagged.aiff", format="aiff", title=str(a.tags["TIT2"]), artist=str(a.tags["TPE1"]), album=str(a.tags["TALB"]),
       track=4, track_total=9, duration=a.info.length, sample_rate=a.info.sample_rate, channels=a.info.channels)

# WMA (ASF) as ffmpeg writes it: the Content Description's title and author, WM/ attributes.
p = os.path.join(out, "tagged.wma")
ffmpeg(["1.0", "-ac", "2", "-ar", "44100", "-c:a", "wmav2", "-b:a", "64k", "-metadata", "title=WMA Title", "-metadata", "artist=WMA Artist",
        "-metadata", "album=WMA Album", "-metadata", "track=3", "-metadata", "genre=Ambient"], p)
a = ASF(p)
record("tagged.wma", format="asf", title=str(a.tags["Title"][0]), artist=str(a.tags["Author"][0]), album=str(a.tags["WM/AlbumTitle"][0]),
       genre=str(a.tags["WM/Genre"][0]), track=int(str(a.tags["WM/TrackNumber"][0])), duration=a.info.length,
       sample_rate=a.info.sample_rate, channels=a.info.channels)

# WavPack with the APEv2 tag ffmpeg's muxer writes at its end.
p = os.path.join(out, "tagged.wv")
ffmpeg(["1.0", "-ac", "2", "-ar", "44100", "-c:a", "wavpack", "-metadata", "title=WavPack Title", "-metadata", "artist=WavPack Artist",
        "-metadata", "album=WavPack Album", "-metadata", "track=2/8"], p)
w = WavPack(p)
record("tagged.wv", format="wavpack", title=str(w.tags["title"]), artist=str(w.tags["artist"]), album=str(w.tags["album"]),
       track=2, track_total=8, duration=w.info.length, sample_rate=w.info.sample_rate, channels=w.info.channels)

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f, indent=2, ensure_ascii=False, sort_keys=True)
print("wrote", len(expected), "fixtures to", out)

# Damaged files: each must be refused with the named error kind, never crash or hang.
damaged_dir = os.path.join(out, "damaged")
os.makedirs(damaged_dir, exist_ok=True)
damaged = {}
def damage(name, source, edit, kind):
    data = bytearray(open(os.path.join(out, source), "rb").read())
    data = edit(data)
    open(os.path.join(damaged_dir, name), "wb").write(bytes(data))
    damaged[name] = kind

def lie_id3_size(d):
    d[6:10] = bytes([0x7F, 0x7F, 0x7F, 0x7F])  # syncsafe: about 256 MB
    return d
damage("id3-size-lies.mp3", "id3v24.mp3", lie_id3_size, "truncated")
damage("m4a-cut-in-moov.m4a", "itunes.m4a", lambda d: d[: len(d) // 2] if d.find(b"moov") > len(d) // 2 else d[: d.find(b"moov") + 200], "truncated")
def flac_overrun(d):
    i = 4 + 4 + 34  # after STREAMINFO: next block header
    d[i + 1:i + 4] = bytes([0xFF, 0xFF, 0xFF])
    return d
# A comment block whose declared length lies is read by its own structure (as mutagen reads it), with a warning.
damage("flac-block-overrun.flac", "tagged.flac", flac_overrun, "read")
damage("ogg-cut-in-headers.ogg", "tagged.ogg", lambda d: d[:200], "truncated")
def wav_overrun(d):
    i = d.find(b"LIST")
    d[i + 4:i + 8] = struct.pack("<I", 0x7FFFFFF0)
    return d
damage("wav-chunk-overrun.wav", "tagged.wav", wav_overrun, "truncated")
damage("not-audio.mp3", "expected.json", lambda d: d, "unsupported")
damage("empty.flac", "tagged.flac", lambda d: d[:0], "truncated")
def bad_frame_id(d):
    i = d.find(b"TIT2")
    d[i:i + 4] = b"t\x00!2"
    return d
damage("id3-bad-frame-id.mp3", "id3v24.mp3", bad_frame_id, "malformed")
with open(os.path.join(damaged_dir, "expected.json"), "w") as f:
    json.dump(damaged, f, indent=2, sort_keys=True)
print("wrote", len(damaged), "damaged fixtures")
