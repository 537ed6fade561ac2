// The browser's chapter cursor (dual-chapters.js), with the Swift engine's cases
// (Tests/DualPlayerTests/ChapterCursorTests.swift).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChapterCursor, sanitized } from "../../Sources/DualPlayerServer/static/js/dual-chapters.js";

const book = () => [
  { file: "book.m4b", start: 0, end: 100 },
  { file: "book.m4b", start: 100, end: 250 },
  { file: "book.m4b", start: 250, end: 400 },
];

test("a chapter starts at its start", () => {
  const c = new ChapterCursor(book());
  assert.deepEqual(c.start(1), [{ type: "entered", index: 1 }, { type: "seek", to: 100 }]);
  assert.deepEqual(c.start(2, 30), [{ type: "entered", index: 2 }, { type: "seek", to: 280 }]);
  assert.deepEqual(c.start(7), []);
});

test("seeking stays inside the chapter", () => {
  const c = new ChapterCursor(book());
  c.start(1);
  assert.deepEqual(c.seek(20), [{ type: "seek", to: 100 }]);
  assert.deepEqual(c.seek(180), [{ type: "seek", to: 180 }]);
  assert.deepEqual(c.seek(900), [{ type: "seek", to: 249.9 }]);
  assert.deepEqual(c.seek(NaN), [{ type: "seek", to: 100 }]);
  assert.equal(c.index, 1);
});

test("the end of a virtual chapter carries on into the next", () => {
  const c = new ChapterCursor(book());
  c.start(0);
  const g = c.generation;
  assert.deepEqual(c.timeUpdate(50, g), []);
  assert.deepEqual(c.timeUpdate(99.97, g), [{ type: "markPlayed", index: 0 }, { type: "entered", index: 1 }]);
});

test("the last chapter finishes the book", () => {
  const c = new ChapterCursor(book(), 2);
  c.start(2);
  assert.deepEqual(c.reachedEnd(c.generation), [{ type: "markPlayed", index: 2 }, { type: "finished" }]);
  assert.ok(c.stopped);
  assert.deepEqual(c.reachedEnd(c.generation), []);
});

test("an end scheduled before a seek is ignored", () => {
  const c = new ChapterCursor(book());
  c.start(0);
  const scheduled = c.generation;
  c.seek(10);
  assert.deepEqual(c.reachedEnd(scheduled), []);
  assert.deepEqual(c.timeUpdate(100, scheduled), []);
  assert.equal(c.index, 0);
  assert.deepEqual(c.reachedEnd(c.generation), [{ type: "markPlayed", index: 0 }, { type: "entered", index: 1 }]);
});

test("an end after a stop is ignored, and an end reported twice advances once", () => {
  const c = new ChapterCursor(book());
  c.start(0);
  const scheduled = c.generation;
  c.stop();
  assert.deepEqual(c.reachedEnd(scheduled), []);
  const d = new ChapterCursor(book());
  d.start(0);
  const g = d.generation;
  assert.equal(d.reachedEnd(g).length, 2);
  assert.deepEqual(d.reachedEnd(g), []);
  assert.equal(d.index, 1);
});

test("a chapter per file loads the next file; a gap between virtual chapters is jumped", () => {
  const c = new ChapterCursor([{ file: "01.mp3", start: 0, end: 600 }, { file: "02.mp3", start: 0, end: 540 }]);
  c.start(0);
  assert.deepEqual(c.reachedEnd(c.generation), [
    { type: "markPlayed", index: 0 },
    { type: "entered", index: 1 },
    { type: "playFrom", file: "02.mp3", at: 0 },
  ]);
  const g = new ChapterCursor([{ file: "a", start: 0, end: 10 }, { file: "a", start: 20, end: 30 }]);
  g.start(0);
  assert.deepEqual(g.timeUpdate(10, g.generation), [{ type: "markPlayed", index: 0 }, { type: "entered", index: 1 }, { type: "seek", to: 20 }]);
});

test("no chapters is no cursor, and broken numbers are never positions", () => {
  assert.throws(() => new ChapterCursor([]));
  for (const bad of [NaN, Infinity, -Infinity, -3]) assert.equal(sanitized(bad), 0);
  assert.equal(sanitized(42.5), 42.5);
});

test("a book whose chapters run past its audio: the chapters beyond it are not there", () => {
  // A 40 s file that declares four 30 s chapters.
  const spans = () => [0, 30, 60, 90].map((start) => ({ file: "long.m4b", start, end: start + 30 }));
  const c = new ChapterCursor(spans());
  assert.equal(c.limit("long.m4b", 40), true);
  assert.deepEqual(c.chapters.map((s) => [s.start, s.end]), [[0, 30], [30, 40]]);
  assert.equal(c.limit("long.m4b", 40), false, "nothing more to change");
  // Chapter three is not offered: starting it does nothing.
  assert.deepEqual(c.start(2), []);
  assert.equal(c.index, 0);
  // The last chapter there finishes the book with the audio, never entering one past it.
  c.start(1);
  assert.deepEqual(c.timeUpdate(39.97, c.generation), [{ type: "markPlayed", index: 1 }, { type: "finished" }]);
  // A cursor on a chapter that is not there (a place saved before) moves to the last one there.
  const d = new ChapterCursor(spans(), 3);
  d.start(3);
  const before = d.generation;
  assert.equal(d.limit("long.m4b", 40), true);
  assert.equal(d.index, 1);
  assert.ok(d.generation > before, "what was scheduled on the missing chapter is stale");
  // Another file's length leaves these chapters alone, and an unknown length changes nothing.
  const e = new ChapterCursor(spans());
  assert.equal(e.limit("other.mp3", 40), false);
  assert.equal(e.limit("long.m4b", NaN), false);
  assert.equal(e.chapters.length, 4);
});
