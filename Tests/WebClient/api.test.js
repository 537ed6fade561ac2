// The request helper's pure parts (api.js).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { APIError, counted, formatTime, personalKeys, personalPage, withDeclaredPrefixes, retryAfterSeconds, takeEvents, waitInWords } from "../../Sources/JukePlatform/Web/static/js/api.js";

test("Retry-After is read as seconds or as an HTTP date", () => {
  assert.equal(retryAfterSeconds("120"), 120);
  assert.equal(retryAfterSeconds(" 7 "), 7);
  const now = Date.parse("Wed, 25 Nov 2026 18:00:00 GMT");
  assert.equal(retryAfterSeconds("Wed, 25 Nov 2026 18:01:30 GMT", now), 90);
  assert.equal(retryAfterSeconds("Wed, 25 Nov 2026 17:00:00 GMT", now), 0);
  assert.equal(retryAfterSeconds(null), null);
  assert.equal(retryAfterSeconds("soon"), null);
});

test("an error keeps the server's code, field and wait", () => {
  const error = new APIError(429, { error: "too_many_requests", message: "Too many attempts.", field: "password" }, 60);
  assert.equal(error.message, "Too many attempts.");
  assert.equal(error.code, "too_many_requests");
  assert.equal(error.field, "password");
  assert.equal(error.retryAfter, 60);
  assert.equal(new APIError(500, null).message, "Request failed (500)");
});

test("waits read as people say them", () => {
  assert.equal(waitInWords(1), "1 second");
  assert.equal(waitInWords(45), "45 seconds");
  assert.equal(waitInWords(60), "1 minute");
  assert.equal(waitInWords(61), "2 minutes");
  assert.equal(waitInWords(900), "15 minutes");
});

test("times read as minutes and seconds", () => {
  assert.equal(formatTime(0), "0:00");
  assert.equal(formatTime(59), "0:59");
  assert.equal(formatTime(61.9), "1:01");
  assert.equal(formatTime(3599.9), "59:59");
  assert.equal(formatTime(-3), "0:00");
  assert.equal(formatTime(NaN), "0:00");
  assert.equal(formatTime(Infinity), "0:00");
});

test("times from an hour up read as hours, minutes and seconds", () => {
  assert.equal(formatTime(3600), "1:00:00");
  assert.equal(formatTime(3661), "1:01:01");
  assert.equal(formatTime(36000), "10:00:00");
  assert.equal(formatTime(36000 + 59 * 60 + 7.5), "10:59:07");
});

test("server-sent events are cut into whole blocks, the rest kept for later", () => {
  const { events, rest } = takeEvents('event: progress\ndata: {"message":"Searching"}\n\n: keep-alive\n\nevent: text\ndata: {"text":"Ho"}\n\nevent: te');
  assert.deepEqual(events, [
    { type: "progress", data: { message: "Searching" } },
    { type: "text", data: { text: "Ho" } },
  ]);
  assert.equal(rest, "event: te");
  assert.deepEqual(takeEvents("event: done\n\n").events, [{ type: "done", data: {} }]);
});

test("after sign-in, only a page of this site: no open redirect", async () => {
  const { safeNext } = await import("../../Sources/JukePlatform/Web/static/js/api.js");
  const origin = "https://juke.example";
  assert.equal(safeNext("/tunetrivia/join/ABCD?x=1#y", origin), "/tunetrivia/join/ABCD?x=1#y");
  for (const bad of ["/\\evil.example", "//evil.example", "/\\/evil.example", "/\t/evil.example", "/\n/evil.example",
    "https://evil.example/", "javascript:alert(1)", "", null, "evil", "/\\\\evil.example/path",
    // Dot segments are removed before the path is read again: each of these parses to the
    // path "//evil.example", another host once assigned.
    "/.//evil.example", "/%2e//evil.example", "/%2E//evil.example", "/./\\evil.example", "/a/..//evil.example",
    "/.%2e//evil.example"]) {
    assert.equal(safeNext(bad, origin), "/", String(bad));
  }
  assert.equal(safeNext("/%5Cevil.example", origin), "/%5Cevil.example", "an escaped backslash is a path here, as the browser reads it");
  assert.equal(safeNext("/./tunetrivia/join/ABCD", origin), "/tunetrivia/join/ABCD", "a harmless dot segment leaves the parsed path");
});

test("a count says one thing in the singular: 1 point, 2 points, 0 games", () => {
  assert.equal(counted(1, "point"), "1 point");
  assert.equal(counted(2, "point"), "2 points");
  assert.equal(counted(0, "game"), "0 games");
  assert.equal(counted(1, "person", "people"), "1 person");
  assert.equal(counted(5, "person", "people"), "5 people");
  assert.equal(waitInWords(1), "1 second");
  assert.equal(waitInWords(61), "2 minutes");
});

test("the prefixes pages declare are kept once each, in order", () => {
  assert.deepEqual(withDeclaredPrefixes([], undefined), []);
  assert.deepEqual(withDeclaredPrefixes([], "juke_dual_"), ["juke_dual_"]);
  assert.deepEqual(withDeclaredPrefixes(["juke_dual_"], " runbeat-backlog  juke_dual_ "), ["juke_dual_", "runbeat-backlog"]);
});

test("a person's things on the device are told from the device's own", () => {
  const keys = ["juke_token", "juke_server_offset", "juke_dual_device", "juke_dual_outbox", "juke_dual_played", "juke_dual_state",
    "runbeat-backlog", "runbeat-run", "juke.dual.readerVoice", "juke_presenter", "juke_personal_key_prefixes", "newapp:queue"];
  // What Dual Player's and RunBeat's cards declare (personalKeyPrefixes), read from their Swift sources.
  const declared = ["DualPlayerServer/App/DualPlayerApp.swift", "RunBeatServer/App/RunBeatApp.swift"].flatMap((file) =>
    [...readFileSync(new URL(`../../Sources/${file}`, import.meta.url), "utf8").matchAll(/personalKeyPrefixes: \[([^\]]*)\]/g)]
      .flatMap((m) => [...m[1].matchAll(/"([^"]+)"/g)].map((q) => q[1])));
  assert.deepEqual(declared, ["juke_dual_", "runbeat-backlog"]);
  assert.deepEqual(personalKeys(keys, declared),
    ["juke_dual_device", "juke_dual_outbox", "juke_dual_played", "juke_dual_state", "runbeat-backlog"]);
  assert.deepEqual(personalKeys(keys, []), [], "nothing declared, nothing is the person's");
  assert.deepEqual(personalKeys(keys, [""]), [], "an empty prefix never takes every key");
  assert.deepEqual(personalKeys(keys, [...declared, "newapp:"]), [
    "juke_dual_device", "juke_dual_outbox", "juke_dual_played", "juke_dual_state", "runbeat-backlog", "newapp:queue"],
    "a new app's keys are the person's once its pages declare them, with no change to the platform");
  assert.equal(personalPage("/dual"), true, "a page drawn for the person");
  assert.equal(personalPage("/"), true);
  assert.equal(personalPage("/static/js/api.js"), false, "the app's own files stay, so it opens offline");
  assert.equal(personalPage("/manifest.webmanifest"), false);
});
