// RunBeat's pure browser logic: the strap's notifications read with the Swift engine's
// vectors (Tests/RunBeatTests/Traces/hrm-vectors.json), the timeline, the cue words, the
// sample buffer that survives a dropped connection, and the simulated heart.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { words, duration } from "../../Sources/RunBeatServer/static/js/runbeat-cues.js";
import { isUsable, parseBattery, parseMeasurement, toHex } from "../../Sources/RunBeatServer/static/js/runbeat-hrm.js";
import { SampleBuffer } from "../../Sources/RunBeatServer/static/js/runbeat-samples.js";
import { SimulatedHeart } from "../../Sources/RunBeatServer/static/js/runbeat-simulator.js";
import { phaseAt, phaseName, totalSeconds, zoneOf } from "../../Sources/RunBeatServer/static/js/runbeat-timeline.js";

const vectors = JSON.parse(readFileSync(new URL("../RunBeatTests/Traces/hrm-vectors.json", import.meta.url), "utf8"));

test("every flag combination reads as the Swift engine reads it", () => {
  assert.ok(vectors.vectors.length >= 32);
  for (const v of vectors.vectors) {
    const m = parseMeasurement(v.bytes);
    assert.equal(m.bpm, v.bpm, v.name);
    assert.equal(m.contact, v.contact, v.name);
    assert.equal(m.energy, v.energy, v.name);
    assert.deepEqual(m.rr, v.rr, v.name);
  }
});

test("damaged notifications are refused with what is missing", () => {
  for (const f of vectors.errors) assert.throws(() => parseMeasurement(f.bytes), new RegExp(f.error), f.name);
});

test("a strap off the skin is no heart rate; battery and hex", () => {
  assert.equal(isUsable(parseMeasurement([0x04, 150])), false);
  assert.equal(isUsable(parseMeasurement([0x06, 150])), true);
  assert.equal(isUsable(parseMeasurement([0x00, 0])), false);
  assert.equal(parseBattery([87]), 87);
  assert.equal(parseBattery([120]), null);
  assert.equal(toHex([0x16, 0xa0, 0x01]), "16a001");
});

const fourByFour = [
  { kind: "warmup", start: 0, seconds: 300, low: 114, high: 133 },
  { kind: "work", start: 300, seconds: 240, low: 162, high: 181, interval: 1, intervals: 4 },
  { kind: "recovery", start: 540, seconds: 180, low: 124, high: 143 },
  { kind: "cooldown", start: 720, seconds: 300 },
];

test("the timeline says the phase, its time left, and the end", () => {
  assert.deepEqual(phaseAt(fourByFour, 0), { index: 0, left: 300 });
  assert.deepEqual(phaseAt(fourByFour, 300), { index: 1, left: 240 });
  assert.deepEqual(phaseAt(fourByFour, 1019.5), { index: 3, left: 0.5 });
  assert.deepEqual(phaseAt(fourByFour, 1020), { index: 4, left: 0 });
  assert.deepEqual(phaseAt([{ kind: "free", start: 0, seconds: null }], 9999), { index: 0, left: null });
  assert.equal(totalSeconds(fourByFour), 1020);
  assert.equal(totalSeconds([{ kind: "free", start: 0, seconds: null }]), null);
  assert.equal(phaseName(fourByFour[1]), "Work 1 of 4");
  assert.equal(phaseName(undefined), "Done");
  const zones = [1, 2, 3, 4, 5].map((zone, i) => ({ zone, low: 120 + 12 * i, high: 132 + 12 * i }));
  assert.equal(zoneOf(zones, 119), 0);
  assert.equal(zoneOf(zones, 132), 2);
  assert.equal(zoneOf(zones, 250), 5);
});

test("cues come out as short sentences", () => {
  assert.equal(words({ kind: "zone", zone: 3, bpm: 150 }), "Zone 3. 150 beats.");
  assert.match(words({ kind: "target", state: "below", bpm: 150, low: 162, high: 181 }), /Below target: 150\. Pick it up, to 162/);
  assert.match(words({ kind: "target", state: "above", bpm: 185, low: 162, high: 181 }), /Ease off, to 181/);
  assert.equal(words({ kind: "target", state: "in_range", bpm: 170, low: 162, high: 181 }), "On target. 170 beats.");
  assert.equal(words({ kind: "phase", phase: "work", seconds: 240, interval: 2, of: 4 }), "Work 2 of 4. 4 minutes.");
  assert.equal(words({ kind: "phase", phase: "free", seconds: null, interval: null, of: null }), "Free training.");
  assert.match(words({ kind: "strap_silent" }), /strap/);
  assert.equal(words({ kind: "strap_back" }), "Heart rate back.");
  assert.equal(duration(90), "90 seconds");
  assert.equal(duration(150), "2 minutes 30");
});

test("samples are kept until stored, resent after a drop, never numbered twice", () => {
  const buffer = new SampleBuffer();
  for (let t = 0; t < 10; t++) buffer.add(t, 120 + t);
  assert.deepEqual(buffer.pending.map((s) => s.seq), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  buffer.ack(3);
  assert.equal(buffer.pending[0].seq, 4);
  buffer.ack(2);  // an old ack changes nothing
  assert.equal(buffer.pending.length, 6);
  // The connection comes back: the server holds up to 5; the rest go again in pieces.
  buffer.resume(5);
  assert.deepEqual(buffer.unacked(3).map((piece) => piece.map((s) => s.seq)), [[6, 7, 8], [9]]);
  assert.equal(buffer.add(10, 130).seq, 10);
  // A page reloaded mid-run numbers on from what the server holds.
  const reloaded = new SampleBuffer(41);
  assert.equal(reloaded.add(100, 140).seq, 42);
  assert.equal(buffer.add(1.23456, 100).t, 1.235);
});

test("a page reloaded with no network carries on from the samples it kept, none twice", () => {
  const before = new SampleBuffer(4);
  for (let t = 5; t < 12; t++) before.add(t, 120);
  before.ack(7);
  const kept = JSON.parse(JSON.stringify(before.backlog()));
  // Offline: the new page knows only what was kept.
  const offline = new SampleBuffer(kept.acked);
  offline.restore(kept);
  assert.deepEqual(offline.pending.map((s) => s.seq), [8, 9, 10, 11]);
  assert.equal(offline.add(12, 130).seq, 12);
  // Online: the server already holds up to 9; what it holds is not sent again.
  const online = new SampleBuffer(9);
  online.restore(kept);
  assert.deepEqual(online.pending.map((s) => s.seq), [10, 11]);
  assert.equal(online.add(12, 130).seq, 12);
  // Damaged or repeated entries are left out.
  const damaged = new SampleBuffer(-1);
  damaged.restore({ pending: [{ seq: 0, t: 0, bpm: 100 }, { seq: 0, t: 0, bpm: 100 }, { seq: "1", t: 1, bpm: 1 }, null, { seq: 2, t: 2, bpm: 99, m: "ab" }] });
  assert.deepEqual(damaged.pending, [{ seq: 0, t: 0, bpm: 100 }, { seq: 2, t: 2, bpm: 99, m: "ab" }]);
  assert.equal(damaged.add(3, 100).seq, 3);
  damaged.restore("nonsense");
  assert.equal(damaged.pending.length, 3);
});

test("the simulated heart follows the plan's targets with a lag", () => {
  const heart = new SimulatedHeart(fourByFour, { seed: 3 });
  const at = (t) => {
    let bpm = 0;
    for (let s = heart.last + 1; s <= t; s++) bpm = heart.beat(s);
    return bpm;
  };
  const warm = at(290);
  assert.ok(warm >= 114 && warm <= 133, `warm-up ${warm}`);
  const early = at(330);
  assert.ok(early < 162, `30 s into work it lags: ${early}`);
  const late = at(530);
  assert.ok(late >= 160 && late <= 183, `late in work ${late}`);
  // The same seed, the same heart.
  const a = new SimulatedHeart(fourByFour, { seed: 9 });
  const b = new SimulatedHeart(fourByFour, { seed: 9 });
  for (let t = 1; t < 50; t++) assert.equal(a.beat(t), b.beat(t));
});

test("the run's Spotify line says what plays, where, and what went wrong", async () => {
  const { spotifyLine, callbackOutcome } = await import("../../Sources/RunBeatServer/static/js/runbeat-spotify-status.js");
  assert.equal(spotifyLine({ state: "connected", playlist: "Fast", device: "Runner's phone" }), "Spotify: Fast on Runner's phone");
  assert.equal(spotifyLine({ state: "connected" }), "Spotify ready");
  assert.equal(spotifyLine({ state: "connecting" }), "Spotify: finding your device…");
  assert.equal(spotifyLine({ state: "disconnected" }), "Spotify not connected: Juke's music plays");
  assert.equal(spotifyLine({ state: "connected", playlist: "Fast", message: "Spotify asked Juke to wait 2 s." }), "Spotify asked Juke to wait 2 s.");
  assert.equal(spotifyLine(null), "");
  assert.deepEqual(callbackOutcome("?spotify=connected"), { ok: true, text: "Spotify is connected: choose a playlist for a phase." });
  assert.equal(callbackOutcome("?spotify=failed&reason=You%20did%20not%20allow%20Juke").text, "Spotify was not connected: You did not allow Juke");
  assert.equal(callbackOutcome("?other=1"), null);
});
