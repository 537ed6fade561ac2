// The speech player's transcript cursor and skip-silence (dual-transcript.js, dual-silence.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { cueAt } from "../../Sources/DualPlayerServer/static/js/dual-transcript.js";
import { PAUSE_FACTOR, SilenceSkipper } from "../../Sources/DualPlayerServer/static/js/dual-silence.js";

const cues = [
  { start: 0, end: 2, text: "one" },
  { start: 2, end: 5, text: "two" },
  { start: 6, end: 9, text: "three" },
];

test("the cue spoken at a time", () => {
  assert.equal(cueAt(cues, 0), 0);
  assert.equal(cueAt(cues, 1.99), 0);
  assert.equal(cueAt(cues, 2), 1, "a cue starts where the last ends");
  assert.equal(cueAt(cues, 5.5), -1, "a gap between cues");
  assert.equal(cueAt(cues, 8), 2);
  assert.equal(cueAt(cues, 9), -1, "after the last");
  assert.equal(cueAt(cues, -1), -1);
  assert.equal(cueAt([], 3), -1);
  assert.equal(cueAt(cues, NaN), -1);
});

test("pauses play faster and the time saved is counted", () => {
  const skipper = new SilenceSkipper();
  let t = 0;
  const run = (seconds, level) => {
    const factors = [];
    for (const end = t + seconds; t < end - 1e-9; t += 0.05) factors.push(skipper.sample(t, level));
    return factors;
  };
  assert.ok(run(1, -20).every((f) => f === 1), "speech plays at its speed");
  const pause = run(2, -80);
  assert.equal(pause[0], 1, "a word gap is not a pause");
  assert.equal(pause.at(-1), PAUSE_FACTOR, "a sentence pause plays faster");
  assert.ok(skipper.saved > 2.5 && skipper.saved < 4, `saved ${skipper.saved}`);
  assert.equal(run(0.1, -20)[0], 1, "speech again: its speed at once");
});
