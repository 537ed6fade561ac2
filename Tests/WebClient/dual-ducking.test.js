// Ducking between sentences in the browser (dual-ducking.js), held to the same table as the
// Swift engine's SpeechActivity.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { levelDB, SpeechActivity } from "../../Sources/DualPlayerServer/static/js/dual-ducking.js";

const table = JSON.parse(readFileSync(new URL("../DualPlayerTests/Fixtures/speech-gaps.json", import.meta.url), "utf8"));

for (const entry of table.cases) {
  test(entry.case, () => {
    const activity = new SpeechActivity();
    entry.samples.forEach(([time, level], index) => {
      assert.equal(activity.sample(time, level), entry.talking[index], `sample ${index} at ${time} s, ${level} dB`);
    });
  });
}

test("levels in dBFS", () => {
  assert.equal(levelDB(new Float32Array(128)), -Infinity);
  assert.ok(Math.abs(levelDB(new Float32Array(128).fill(0.5)) - -6.0206) < 1e-3);
  const activity = new SpeechActivity();
  activity.sample(0, -10);
  assert.equal(activity.sample(Number.NaN, -90), true);
  assert.equal(activity.sample(0.05, Number.NaN), true, "not a number is silence, which needs the gap");
  assert.equal(activity.sample(0.5, -Infinity), false);
});
