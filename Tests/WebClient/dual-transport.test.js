// Dual Player's transport rules in the browser (dual-transport.js), held to the same
// checklist table as the Swift engine.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  apply,
  decide,
  emptyTransport,
  lockScreenPosition,
  lockScreenSeek,
  seekTarget,
  sessionMetadata,
  trackTarget,
} from "../../Sources/DualPlayerServer/static/js/dual-transport.js";

const table = JSON.parse(readFileSync(new URL("../DualPlayerTests/Fixtures/transport-checklist.json", import.meta.url), "utf8"));

const player = (word) => ({ hasMedia: word !== "empty", isPlaying: word === "playing" });
const word = (p) => (!p.hasMedia ? "empty" : p.isPlaying ? "playing" : "paused");

function event(text) {
  const [type, player] = text.split(" ");
  return player ? { type, player } : { type };
}

test("the table has the seed's checklist", () => {
  assert.ok(table.rows.length >= 20);
});

for (const row of table.rows) {
  test(row.check, () => {
    const was = row.given.wasPlaying ?? ["music", "speech"].filter((k) => row.given[k] === "playing");
    let state = {
      music: player(row.given.music),
      speech: player(row.given.speech),
      musicWasPlaying: was.includes("music"),
      speechWasPlaying: was.includes("speech"),
    };
    const actions = [];
    for (const text of row.events) {
      const result = apply(state, event(text));
      state = result.state;
      actions.push(...result.actions.map((a) => `${a.type} ${a.player}`));
    }
    const now = decide(state);
    assert.equal(now.shown, row.expect.shown);
    assert.equal(now.playing, row.expect.playing);
    assert.equal(word(state.music), row.expect.music);
    assert.equal(word(state.speech), row.expect.speech);
    assert.deepEqual(actions, row.expect.actions);
  });
}

test("apply never changes the state it is given", () => {
  const state = apply(apply(emptyTransport(), { type: "loaded", player: "music" }).state, { type: "userPlay", player: "music" }).state;
  const frozen = JSON.stringify(state);
  apply(state, { type: "mediaToggle" });
  apply(state, { type: "interrupted", player: "music" });
  assert.equal(JSON.stringify(state), frozen);
});

test("the lock screen's buttons move the right player", () => {
  assert.equal(seekTarget({ shown: "combined", playing: true }), "speech");
  assert.equal(trackTarget({ shown: "combined", playing: true }), "music");
  assert.equal(seekTarget({ shown: "music", playing: false }), "music");
  assert.equal(trackTarget({ shown: "nothing", playing: false }), null);
});

test("the Media Session shows the combined title with Juke's logo, or the shown player's own", () => {
  const media = { music: { title: "Clair de Lune", artist: "Debussy", artwork: "/art/1" }, speech: { title: "Chapter 3", artist: "Mary Shelley" } };
  assert.deepEqual(sessionMetadata({ shown: "combined", playing: false }, media, "/logo.png"), {
    title: "Clair de Lune + Chapter 3",
    artist: "Dual Player",
    album: "Juke",
    artwork: [{ src: "/logo.png" }],
  });
  assert.equal(sessionMetadata({ shown: "music", playing: true }, media, "/logo.png").artwork[0].src, "/art/1");
  assert.equal(sessionMetadata({ shown: "speech", playing: true }, media, "/logo.png").artwork[0].src, "/logo.png");
  assert.equal(sessionMetadata({ shown: "nothing", playing: false }, media, "/logo.png"), null);
});

test("the lock screen's scrubber shows the chapter, in the page's frame", () => {
  // A book's third chapter runs from 60 s to 90 s of its file; the player is at 65 s.
  const chapter = { start: 60, end: 90 };
  assert.deepEqual(lockScreenPosition(chapter, 65, 1.5), { duration: 30, position: 5, playbackRate: 1.5 });
  // A seek to 5 s on the lock screen is 5 s into the chapter, not the file's 5 s.
  assert.equal(lockScreenSeek(chapter, 5), 65);
  assert.equal(lockScreenSeek(chapter, 500), 90, "kept inside the chapter");
  assert.equal(lockScreenSeek(chapter, -3), 60);
  // Before the element has its length, the lock screen gets no position at all.
  assert.equal(lockScreenPosition({ start: 0, end: 0 }, 0, 1), null);
  assert.deepEqual(lockScreenPosition({ start: 0, end: 200 }, 250, 0), { duration: 200, position: 200, playbackRate: 1 });
});

test("the page's screens: one on a phone, Now Playing beside the chosen one on a wide screen", async () => {
  const { screenFor, visibleScreens } = await import("../../Sources/DualPlayerServer/static/js/dual-screens.js");
  assert.equal(screenFor("#books"), "books");
  assert.equal(screenFor("#now"), "now");
  assert.equal(screenFor("#nowhere"), null);
  assert.equal(screenFor(""), null);
  assert.deepEqual(visibleScreens("books", false, "books"), ["books"]);
  assert.deepEqual(visibleScreens("now", false, "radio"), ["now"]);
  assert.deepEqual(visibleScreens("now", true, "radio"), ["now", "radio"]);
  assert.deepEqual(visibleScreens("podcasts", true, "podcasts"), ["now", "podcasts"]);
});
