// The big screen's clip (presenter-clip.js): it plays from where the countdown says the
// song is, pauses with the game, and falls silent when the time is up or the round moved on.
import test from "node:test";
import assert from "node:assert/strict";
import { clipPlan, drifted } from "../../Sources/TuneTriviaServer/static/js/presenter-clip.js";

const playing = (extra) => ({ phase: "playing", clip_start: 40, ...extra });

test("a screen that learns of the round late starts the clip where everyone's countdown is", () => {
  // 30-second clips; the server says it ends in 22 s: 8 s have played.
  const plan = clipPlan(playing({ clip_ends_at_ms: 100_000 }), "active", 30, 78_000);
  assert.deepEqual(plan, { playing: true, at: 48, left: 22 });
});


test("a paused game holds the clip where it stopped", () => {
  const plan = clipPlan(playing({ clip_seconds_left: 12.5 }), "paused", 30, 0);
  assert.deepEqual(plan, { playing: false, at: 57.5, left: 12.5 });
});

test("no sound before a round, after its reveal, or once the time is up", () => {
  assert.equal(clipPlan(null, "lobby", 30, 0), null);
  assert.equal(clipPlan({ phase: "revealed", clip_start: 40 }, "active", 30, 0), null);
  assert.equal(clipPlan(playing({ clip_ends_at_ms: 100_000 }), "active", 30, 100_001), null);
  assert.equal(clipPlan(playing({}), "active", 30, 0), null);
});

test("a clip end further off than the clip is long is read as the clip's whole length", () => {
  // A screen whose clock runs far behind must not start before the clip's first second.
  const plan = clipPlan(playing({ clip_ends_at_ms: 100_000 }), "active", 30, 0);
  assert.deepEqual(plan, { playing: true, at: 40, left: 30 });
});

test("only a real stray is corrected", () => {
  assert.equal(drifted(48.4, 48), false);
  assert.equal(drifted(46.5, 48), true);
  assert.equal(drifted(Number.NaN, 48), true);
});
