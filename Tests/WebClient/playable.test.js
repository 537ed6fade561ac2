// What the page tells the server it plays, from canPlayType's answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PROBES, playableCodecs, playsCookie } from "../../Sources/JukePlatform/Web/static/js/playable.js";

// canPlayType as each browser answers it (the types it says "probably" or "maybe" to).
const browser = (yes) => (type) => (yes.includes(type) ? "maybe" : "");

test("Chrome: Opus and FLAC, no ALAC or AIFF", () => {
  const chrome = browser(["audio/mpeg", 'audio/mp4; codecs="mp4a.40.2"', "audio/flac", 'audio/ogg; codecs="vorbis"', 'audio/ogg; codecs="opus"', "audio/wav"]);
  assert.deepEqual(playableCodecs(chrome), ["mp3", "aac", "flac", "vorbis", "opus", "wav"]);
});

test("Safari: ALAC and AIFF; FLAC only in MP4; no Ogg", () => {
  const safari = browser(["audio/mpeg", 'audio/mp4; codecs="mp4a.40.2"', 'audio/mp4; codecs="alac"', 'audio/mp4; codecs="flac"', 'audio/wav; codecs="1"', "audio/x-aiff"]);
  assert.deepEqual(playableCodecs(safari), ["mp3", "aac", "alac", "flac", "wav", "aiff"]);
});

test("a browser that answers nothing reports nothing, and every codec is probed", () => {
  assert.deepEqual(playableCodecs(() => ""), []);
  assert.deepEqual(Object.keys(PROBES), ["mp3", "aac", "alac", "flac", "vorbis", "opus", "wav", "aiff"]);
});

test("the cookie carries the list to every path for a year", () => {
  assert.equal(playsCookie(["mp3", "opus"]), "juke_plays=mp3,opus; path=/; max-age=31536000; SameSite=Lax");
});
