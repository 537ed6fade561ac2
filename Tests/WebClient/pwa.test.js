// The service worker's rules (what it serves, keeps and removes) and the offline notes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheName, keepable, kindOf, staleCaches } from "../../Sources/JukePlatform/Web/static/js/service-worker.js";
import { offlineNote } from "../../Sources/JukePlatform/Web/static/js/pwa.js";

const shell = { version: "abc", pages: ["/", "/dual", "/runbeat"], assets: ["/static/js/app.js", "/static/dual/js/dual.js"] };
const origin = "https://juke.example";
const at = (path) => new URL(path, origin);

test("pages and files of the shell go network first; the API, media and other sites pass", () => {
  assert.equal(kindOf("GET", at("/dual"), origin, shell), "page");
  assert.equal(kindOf("GET", at("/dual?tab=books"), origin, shell), "page");
  assert.equal(kindOf("GET", at("/static/js/app.js"), origin, shell), "asset");
  assert.equal(kindOf("GET", at("/manifest.webmanifest"), origin, shell), "asset");
  assert.equal(kindOf("GET", at("/api/v1/catalog/tracks"), origin, shell), "pass");
  assert.equal(kindOf("GET", at("/api/v1/catalog/tracks/1/audio"), origin, shell), "pass");
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

test("each app says what needs the network", () => {
  assert.match(offlineNote("/dual"), /saved on this device plays/);
  assert.match(offlineNote("/runbeat/history"), /keeps recording/);
  assert.match(offlineNote("/tunetrivia/join/ABCD"), /need the network/);
  assert.match(offlineNote("/library"), /library, search/);
  assert.equal(offlineNote("/dualx"), offlineNote("/"));
});
