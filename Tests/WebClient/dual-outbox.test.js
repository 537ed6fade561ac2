// The outbox of positions saved offline: newest per item, out of order, duplicates, clock skew.
import { test } from "node:test";
import assert from "node:assert/strict";
import { acknowledge, asPlayedMark, asPlayerSnapshot, enqueue, restore, stamp } from "../../Sources/DualPlayerServer/static/js/dual-outbox.js";

test("one entry per item, the newest; a late older one and a duplicate change nothing", () => {
  let outbox = [];
  outbox = enqueue(outbox, { item: "track:a", seconds: 10, updated_at: 1000 });
  outbox = enqueue(outbox, { item: "track:a", seconds: 30, updated_at: 3000 });
  outbox = enqueue(outbox, { item: "track:a", seconds: 20, updated_at: 2000 }); // out of order
  outbox = enqueue(outbox, { item: "track:a", seconds: 30, updated_at: 3000 }); // sent twice
  outbox = enqueue(outbox, { item: "episode:b", seconds: 5, updated_at: 2500 });
  assert.deepEqual(outbox, [
    { item: "track:a", seconds: 30, updated_at: 3000 },
    { item: "episode:b", seconds: 5, updated_at: 2500 },
  ]);
});

test("an answer removes what it covers, never a newer entry queued meanwhile", () => {
  const sent = [{ item: "track:a", seconds: 30, updated_at: 3000 }, { item: "episode:b", seconds: 5, updated_at: 2500 }];
  let outbox = enqueue(sent, { item: "track:a", seconds: 45, updated_at: 4500 }); // while the request was out
  outbox = acknowledge(outbox, sent);
  assert.deepEqual(outbox, [{ item: "track:a", seconds: 45, updated_at: 4500 }]);
  assert.deepEqual(acknowledge(outbox, [{ item: "track:a", seconds: 45, updated_at: 4500 }]), []);
});

test("what was stored is read back whole, damaged entries dropped and duplicates collapsed", () => {
  assert.deepEqual(restore("nonsense"), []);
  assert.deepEqual(restore([
    { item: "track:a", seconds: 1, updated_at: 100 },
    { item: "track:a", seconds: 2, updated_at: 200 },
    { item: 7, seconds: 1, updated_at: 1 },
    { item: "track:c", seconds: "x", updated_at: 1 },
    null,
  ]), [{ item: "track:a", seconds: 2, updated_at: 200 }]);
});

test("times are the server's clock as last measured: a phone running 3 minutes slow does not lose to an older save", () => {
  const server = 1_000_000_000;
  // Phone A saved at server time `server` (its own clock right).
  const a = { item: "book:x", seconds: 100, updated_at: stamp(0, server) };
  // Phone B saves 10 s later in real time, but its clock reads 3 minutes behind; it measured that.
  const bClock = server + 10_000 - 180_000;
  const b = { item: "book:x", seconds: 160, updated_at: stamp(180_000, bClock) };
  assert.equal(b.updated_at, server + 10_000);
  assert.ok(b.updated_at > a.updated_at, "the later save wins at the server");
  assert.equal(stamp(NaN, 5), 5, "no offset measured: the device's own clock");
});

test("played marks and player snapshots queue by the same rule, each read back by its own shape", () => {
  let marks = enqueue([], { item: "e1", played: true, updated_at: 2000 });
  marks = enqueue(marks, { item: "e1", played: false, updated_at: 1000 }); // an older mark from a slow device
  assert.deepEqual(marks, [{ item: "e1", played: true, updated_at: 2000 }]);
  assert.deepEqual(restore([{ item: "e1", played: "yes", updated_at: 1 }, { item: "e2", played: false, updated_at: 3 }], asPlayedMark),
    [{ item: "e2", played: false, updated_at: 3 }]);
  assert.deepEqual(restore([{ item: "e2", played: false, updated_at: 3 }]), [], "a mark is not a position");
  const snapshot = { item: { kind: "book", id: "b" }, position: 3, playing: false };
  assert.deepEqual(restore([{ item: "speech", snapshot, updated_at: 9 }, { item: "radio", snapshot, updated_at: 9 }, { item: "music", updated_at: 9 }], asPlayerSnapshot),
    [{ item: "speech", snapshot, updated_at: 9 }]);
});
