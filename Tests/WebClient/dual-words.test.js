// The page's words for counts and for a LibriVox book added to the shelf (dual-words.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { count, shelvedLabel } from "../../Sources/DualPlayerServer/static/js/dual-words.js";

test("one chapter is a chapter; the others are chapters", () => {
  assert.equal(count(1, "chapter"), "1 chapter");
  assert.equal(count(3, "chapter"), "3 chapters");
  assert.equal(count(0, "chapter"), "0 chapters");
});

test("a LibriVox book's row says where its download is, as the shelf does", () => {
  assert.equal(shelvedLabel("downloading"), "Downloading to the server…");
  assert.equal(shelvedLabel("ready"), "On your shelf");
  assert.match(shelvedLabel("failed"), /^Stopped/);
});
