// Moving between tabs with the keyboard (tabs.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { nextTab } from "../../Sources/JukePlatform/Web/static/js/tabs.js";

test("the arrow keys move to the next and previous tab, wrapping at the ends", () => {
  assert.equal(nextTab("ArrowRight", 0, 5), 1);
  assert.equal(nextTab("ArrowDown", 4, 5), 0);
  assert.equal(nextTab("ArrowLeft", 0, 5), 4);
  assert.equal(nextTab("ArrowUp", 3, 5), 2);
});

test("Home and End jump to the first and last tab", () => {
  assert.equal(nextTab("Home", 3, 5), 0);
  assert.equal(nextTab("End", 1, 5), 4);
});

test("other keys, and an empty tab list, move nowhere", () => {
  assert.equal(nextTab("Enter", 2, 5), null);
  assert.equal(nextTab("a", 2, 5), null);
  assert.equal(nextTab("ArrowRight", 0, 0), null);
});
