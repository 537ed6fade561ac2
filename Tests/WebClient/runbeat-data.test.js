// RunBeat's summary and cue words as a runner meets them: the time in each zone lists every
// second of the workout (rows that add up to its length, in whole seconds), a sample dropped
// as no heart's is said, and the engine's zone 0 is spoken as the badge shows it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { words } from "../../Sources/RunBeatServer/static/js/runbeat-cues.js";
import { droppedNote, wholeSeconds, zoneRows } from "../../Sources/RunBeatServer/static/js/runbeat-zone-time.js";

test("below zone 1 is said as the badge says it, never zone 0", () => {
  assert.equal(words({ kind: "zone", zone: 0, bpm: 98 }), "Below zone 1. 98 beats.");
  assert.equal(words({ kind: "zone", zone: 2, bpm: 135 }), "Zone 2. 135 beats.");
});

test("the zone rows add up to the workout: below, zones, above and no heart rate", () => {
  const summary = {
    below_zones_seconds: 600,
    zone_seconds: [0, 0, 1565, 30, 0],
    above_zones_seconds: 30,
    no_heart_rate_seconds: 55,
  };
  const rows = zoneRows(summary);
  assert.deepEqual(
    rows.map((r) => r.label),
    ["Below zone 1", "Zone 1", "Zone 2", "Zone 3", "Zone 4", "Zone 5", "Above zone 5", "No heart rate"],
  );
  assert.equal(
    rows.reduce((a, r) => a + r.seconds, 0),
    2280,
  );
  // None above or unknown: those rows are left out, the rest still add up.
  const plain = zoneRows({ below_zones_seconds: 10, zone_seconds: [20, 0, 0, 0, 0], above_zones_seconds: 0, no_heart_rate_seconds: 0 });
  assert.equal(plain.length, 6);
  // A summary stored before these counts (no fields) still lists below and the five zones.
  assert.equal(zoneRows({ below_zones_seconds: 5, zone_seconds: [1, 1, 1, 1, 1] }).length, 6);
});

test("whole seconds keep the sum of the rows at the workout's length", () => {
  const parts = [600.4, 0, 1564.3, 30.6, 0, 29.7, 55];
  const whole = wholeSeconds(parts, 2280);
  assert.equal(
    whole.reduce((a, b) => a + b, 0),
    2280,
  );
  assert.deepEqual(whole, [600, 0, 1564, 31, 0, 30, 55]);
  assert.deepEqual(wholeSeconds([0.5, 0.5], 1), [1, 0]);
});

test("dropped samples are said with their rule", () => {
  assert.equal(droppedNote(0), "");
  assert.match(droppedNote(12), /^12 samples outside 30–240 bpm left out/);
  assert.match(droppedNote(1), /^1 sample outside/);
});
