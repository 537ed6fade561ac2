// Where reading an article stopped, as the page keeps it (dual-reading.js): listening with
// Juke's voice, the position sent after a chapter change and a pause is that chapter's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PositionSaver, positionAt } from "../../Sources/DualPlayerServer/static/js/dual-reading.js";

// A spoken article: chapter 0's title and two sentences, then chapter 1's.
const cues = [
  { start: 0, end: 1.5, chapter: 0, word: 0 },
  { start: 1.5, end: 4, chapter: 0, word: 0 },
  { start: 4.2, end: 7, chapter: 0, word: 9 },
  { start: 7, end: 8, chapter: 1, word: 0 },
  { start: 8, end: 11, chapter: 1, word: 0 },
  { start: 11, end: 13, chapter: 1, word: 12 },
];

test("the position at a time is the sentence heard, or the one just heard", () => {
  assert.deepEqual(positionAt(cues, 0), { chapter: 0, word: 0 });
  assert.deepEqual(positionAt(cues, 5), { chapter: 0, word: 9 });
  assert.deepEqual(positionAt(cues, 4.1), { chapter: 0, word: 0 }, "between two sentences");
  assert.deepEqual(positionAt(cues, 7), { chapter: 1, word: 0 });
  assert.deepEqual(positionAt(cues, 12), { chapter: 1, word: 12 });
  assert.deepEqual(positionAt(cues, 99), { chapter: 1, word: 12 });
  assert.equal(positionAt(cues, NaN), null);
  assert.equal(positionAt([], 3), null);
});

test("the next chapter, then a pause, keeps the next chapter: what the limit held back is sent", () => {
  let now = 0;
  const sent = [];
  const saver = new PositionSaver((p) => sent.push(p), 5000, () => now);
  // Listening from the start: the first sentence goes at once.
  saver.offer({ id: "a", ...positionAt(cues, 0.2) });
  assert.deepEqual(sent, [{ id: "a", chapter: 0, word: 0 }]);
  // Two seconds later, the next chapter: within the limit, held back.
  now = 2000;
  saver.offer({ id: "a", ...positionAt(cues, 7.1) });
  assert.equal(sent.length, 1);
  // The pause sends it at once: chapter 1, not back to the start.
  now = 2500;
  saver.offer({ id: "a", ...positionAt(cues, 7.6) }, true);
  assert.deepEqual(sent.at(-1), { id: "a", chapter: 1, word: 0 });
  assert.equal(sent.length, 2);
});

test("a position held back goes with a flush, or with the next offer once the limit has passed", () => {
  let now = 0;
  const sent = [];
  const saver = new PositionSaver((p) => sent.push(p), 5000, () => now);
  saver.offer({ id: "a", chapter: 0, word: 0 });
  now = 1000;
  saver.offer({ id: "a", chapter: 0, word: 9 });
  saver.flush();
  assert.deepEqual(sent.at(-1), { id: "a", chapter: 0, word: 9 });
  saver.flush();
  assert.equal(sent.length, 2, "nothing held back: a flush sends nothing");
  now = 2000;
  saver.offer({ id: "a", chapter: 1, word: 3 });
  assert.equal(sent.length, 2);
  now = 7000;
  saver.offer({ id: "a", chapter: 1, word: 4 });
  assert.deepEqual(sent.at(-1), { id: "a", chapter: 1, word: 4 });
  // The same position again is not sent again, even when asked to save now.
  saver.offer({ id: "a", chapter: 1, word: 4 }, true);
  assert.equal(sent.length, 3);
});
