// The service worker's rules (what it serves, keeps and removes) and the offline notes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { byteRange, cacheName, keepable, kindOf, playsFromDevice, saveable, staleCaches, templatePattern } from "../../Sources/JukePlatform/Web/static/js/service-worker.js";
import { offlineNote, PLATFORM_OFFLINE_NOTE } from "../../Sources/JukePlatform/Web/static/js/pwa.js";

/** The path templates as the server declares them (the platform's and Dual Player's), read from their Swift sources. */
const declared = (file) => [...readFileSync(new URL(`../../Sources/${file}`, import.meta.url), "utf8").matchAll(/"(\/api\/v1\/[^"]+)"/g)].map((m) => m[1]);
const device = [...declared("JukePlatform/Web/Serving/AppShell.swift"), ...declared("DualPlayerServer/App/DualPlayerApp+DeviceKept.swift")];
const shell = { version: "abc", pages: ["/", "/dual", "/runbeat"], assets: ["/static/js/app.js", "/static/dual/js/dual.js"], device };
const origin = "https://juke.example";
const at = (path) => new URL(path, origin);

test("pages and files of the shell go network first; the API, media and other sites pass", () => {
  assert.equal(kindOf("GET", at("/dual"), origin, shell), "page");
  assert.equal(kindOf("GET", at("/dual?tab=books"), origin, shell), "page");
  assert.equal(kindOf("GET", at("/static/js/app.js"), origin, shell), "asset");
  assert.equal(kindOf("GET", at("/manifest.webmanifest"), origin, shell), "asset");
  assert.equal(kindOf("GET", at("/api/v1/catalog/tracks"), origin, shell), "pass");
  assert.equal(kindOf("GET", at("/api/v1/catalog/tracks/1/audio"), origin, shell), "device", "a track may be saved on the device");
  assert.equal(kindOf("POST", at("/dual"), origin, shell), "pass");
  assert.equal(kindOf("GET", new URL("/static/js/app.js", "https://cdn.example"), origin, shell), "pass");
  assert.equal(kindOf("GET", at("/static/js/unknown.js"), origin, shell), "pass", "only the server's list is kept");
  assert.equal(kindOf("GET", at("/library"), origin, shell, true), "visit", "another page: offline, a page that says so");
  assert.equal(kindOf("GET", at("/api/v1/catalog/tracks"), origin, shell, true), "pass");
});

test("only whole answers that landed where asked are kept", () => {
  assert.equal(keepable({ ok: true, status: 200, redirected: false, type: "basic" }), true);
  assert.equal(keepable({ ok: true, status: 200, redirected: true, type: "basic" }), false, "a page that sent the visitor to sign in");
  assert.equal(keepable({ ok: true, status: 206, redirected: false, type: "basic" }), false);
  assert.equal(keepable({ ok: false, status: 503, redirected: false, type: "basic" }), false);
  assert.equal(keepable({ ok: true, status: 200, redirected: false, type: "opaque" }), false);
});

test("a new version removes the caches of every other version, and only Juke's", () => {
  assert.equal(cacheName("v2"), "juke-shell-v2");
  assert.deepEqual(staleCaches(["juke-shell-v1", "juke-shell-v2", "episodes"], "v2"), ["juke-shell-v1"]);
});

test("each app says what needs the network, and the platform says it for the rest", () => {
  // The notes the apps' cards declare (offlineNote), read from their Swift sources.
  const note = (file) => readFileSync(new URL(`../../Sources/${file}`, import.meta.url), "utf8").match(/offlineNote: "([^"]+)"/)?.[1];
  assert.match(offlineNote(note("DualPlayerServer/App/DualPlayerApp.swift")), /saved on this device plays/);
  assert.match(offlineNote(note("RunBeatServer/App/RunBeatApp.swift")), /keeps recording/);
  assert.match(offlineNote(note("TuneTriviaServer/App/TuneTriviaApp.swift")), /need the network/);
  assert.match(offlineNote(note("Back2BackServer/App/Back2BackApp.swift")), /sessions need the network/);
  assert.equal(offlineNote(undefined), PLATFORM_OFFLINE_NOTE, "a page of no app (the library)");
  assert.equal(offlineNote("  "), PLATFORM_OFFLINE_NOTE);
  assert.match(PLATFORM_OFFLINE_NOTE, /library, search/);
  const script = readFileSync(new URL("../../Sources/JukePlatform/Web/static/js/pwa.js", import.meta.url), "utf8");
  assert.doesNotMatch(script, /\/(dual|runbeat|tunetrivia|back2back)\b/, "the platform's script names no app");
});

test("a path template is one segment per {name}, the rest literal", () => {
  assert.equal(templatePattern("/api/v1/x/{id}/a.b").test("/api/v1/x/42/a.b"), true);
  assert.equal(templatePattern("/api/v1/x/{id}/a.b").test("/api/v1/x/42/aXb"), false, "a dot is a dot");
  assert.equal(templatePattern("/api/v1/x/{id}").test("/api/v1/x/"), false, "a segment is never empty");
  assert.equal(templatePattern("/api/v1/x/{id}").test("/api/v1/x/1/2"), false);
  assert.equal(templatePattern("/api/v1/x/{id}").test("/prefix/api/v1/x/1"), false);
});

test("only what an item saved on the device can be is looked up there", () => {
  for (const path of [
    "/api/v1/dual/songs/s1/audio", "/api/v1/dual/songs/s1/artwork", "/api/v1/dual/books/b1/audio", "/api/v1/dual/books/b1/cover", "/api/v1/dual/books/b1/chapters/12/audio",
    "/api/v1/dual/episodes/e1/audio", "/api/v1/dual/episodes/e1/chapters", "/api/v1/dual/episodes/e1/transcript",
    "/api/v1/dual/tracks/t1/chapters", "/api/v1/dual/articles/a1", "/api/v1/dual/articles/a1/speech", "/api/v1/dual/articles/a1/speech/audio",
    "/api/v1/catalog/tracks/t1/audio", "/api/v1/catalog/tracks/t1/artwork",
  ]) assert.equal(saveable(path, device), true, path);
  for (const path of [
    "/api/v1/dual/radio/stations/x/listen", "/api/v1/dual/state", "/api/v1/dual/articles", "/api/v1/dual/podcasts/p/episodes",
    "/api/v1/catalog/tracks", "/api/v1/dual/episodes/e1/played", "/api/v1/dual/songs/s1/audio/extra", "/api/v1/dual/songs//audio",
    "/api/v1/dual/books/b1/chapters/1", "/api/v1/dual/books/b1/chapters/1/audio/x", "/api/v1/dual/episodes/e1/artwork",
  ]) assert.equal(saveable(path, device), false, path);
  assert.equal(saveable("/api/v1/dual/songs/s1/audio", []), false, "an app that declares nothing keeps nothing");
  assert.equal(kindOf("GET", at("/api/v1/dual/songs/s1/audio"), origin, { ...shell, device: [] }), "pass");
  assert.equal(kindOf("GET", at("/api/v1/dual/episodes/e1/audio"), origin, shell), "device");
  assert.equal(kindOf("PUT", at("/api/v1/dual/articles/a1"), origin, shell), "pass");
  assert.equal(kindOf("GET", at("/api/v1/dual/radio/stations/x/listen"), origin, shell), "pass", "a live stream is never looked up");
});

test("ranges of a saved file are read as a media server reads them", () => {
  assert.deepEqual(byteRange(null, 1000), { start: 0, end: 999 });
  assert.deepEqual(byteRange("bytes=0-", 1000), { start: 0, end: 999 });
  assert.deepEqual(byteRange("bytes=100-199", 1000), { start: 100, end: 199 });
  assert.deepEqual(byteRange("bytes=900-5000", 1000), { start: 900, end: 999 }, "an end past the file is the file's end");
  assert.deepEqual(byteRange("bytes=-100", 1000), { start: 900, end: 999 });
  assert.deepEqual(byteRange("bytes=-5000", 1000), { start: 0, end: 999 });
  assert.equal(byteRange("bytes=1000-", 1000), null, "past the end: 416");
  assert.equal(byteRange("bytes=500-100", 1000), null);
  assert.equal(byteRange("bytes=-0", 1000), null);
  assert.deepEqual(byteRange("bytes=0-1,5-6", 1000), { start: 0, end: 999 }, "several ranges: the whole file, as servers may answer");
  assert.deepEqual(byteRange("items=0-5", 1000), { start: 0, end: 999 });
  assert.equal(byteRange(null, 0), null, "an empty file has no bytes to give");
});

test("saved audio and pictures play from the device; saved texts ask the network first", () => {
  assert.equal(playsFromDevice("audio/ogg; codecs=opus"), true);
  assert.equal(playsFromDevice("image/jpeg"), true);
  assert.equal(playsFromDevice("application/json"), false);
  assert.equal(playsFromDevice(null), false);
});
