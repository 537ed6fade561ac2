// RunBeat's run controls and screens, the pure parts: the workout's clock that pauses and
// carries on from the same second, the hold that ends a workout only when held to the end,
// and the screens named by the address's fragment.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WorkoutClock } from "../../Sources/RunBeatServer/static/js/runbeat-clock.js";
import { HoldGesture } from "../../Sources/RunBeatServer/static/js/runbeat-hold.js";
import { SCREENS, screenFor } from "../../Sources/RunBeatServer/static/js/runbeat-screens.js";
import { HEART_LOST_SECONDS, heartLost } from "../../Sources/RunBeatServer/static/js/runbeat-heart.js";

test("the heart rate is lost after a few workout seconds without a sample, and not before", () => {
  assert.equal(heartLost(100, 0, 100 + HEART_LOST_SECONDS - 0.5), false);
  assert.equal(heartLost(100, 0, 100 + HEART_LOST_SECONDS), true);
  // No sample yet: counted from when the screen began waiting.
  assert.equal(heartLost(null, 50, 52), false);
  assert.equal(heartLost(null, 50, 50 + HEART_LOST_SECONDS + 1), true);
});

test("a paused clock stops, and resumes from the second it stopped at", () => {
  let wall = 1_000_000;
  const clock = new WorkoutClock(10, 0, wall, false, () => wall);
  wall += 3000;
  assert.equal(clock.elapsed(), 30);
  clock.pause();
  wall += 60_000;  // a minute at the traffic lights
  assert.equal(clock.elapsed(), 30);
  clock.pause();  // twice is once
  assert.equal(clock.elapsed(), 30);
  clock.resume();
  assert.equal(clock.elapsed(), 30);
  wall += 500;
  assert.equal(clock.elapsed(), 35);
});

test("a clock saved mid-pause comes back paused at the same second", () => {
  let wall = 5000;
  const clock = new WorkoutClock(1, 12, wall, false, () => wall);
  wall += 8000;
  clock.pause();
  const again = WorkoutClock.from(JSON.parse(JSON.stringify(clock.saved())), () => wall + 99_000);
  assert.equal(again.paused, true);
  assert.equal(again.elapsed(), 20);
  // A page saved before pauses existed carries on running.
  const old = WorkoutClock.from({ speed: 2, offset: 0, wallOrigin: 0 }, () => 1000);
  assert.equal(old.paused, false);
  assert.equal(old.elapsed(), 2);
});

test("a hold ends only when held to the end; let go early and it starts again", () => {
  const hold = new HoldGesture(1500);
  assert.equal(hold.progress(100), 0);
  hold.press(1000);
  assert.equal(hold.progress(1750), 0.5);
  assert.equal(hold.done(2499), false);
  hold.release();
  assert.equal(hold.progress(2600), 0);
  assert.equal(hold.done(5000), false);
  hold.press(3000);
  assert.equal(hold.done(4500), true);
  assert.equal(hold.progress(9000), 1);
});

test("the address's fragment names a screen, anything else none", () => {
  assert.deepEqual(SCREENS, ["welcome", "profile", "workout", "run", "summary", "history", "coach"]);
  assert.equal(screenFor("#workout"), "workout");
  assert.equal(screenFor("summary"), "summary");
  assert.equal(screenFor(""), null);
  // The history and a class are screens of the trainer too: a workout runs on while they are looked at.
  assert.equal(screenFor("#history"), "history");
  assert.equal(screenFor("#elsewhere"), null);
});
