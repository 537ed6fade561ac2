// The music player's Library: where its address says it is (dual-library-address.js), and the
// queue a song played from a list has (dual-queue.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { libraryView } from "../../Sources/DualPlayerServer/static/js/dual-library-address.js";
import { queueFor, queueStep } from "../../Sources/DualPlayerServer/static/js/dual-queue.js";
import { screenFor } from "../../Sources/DualPlayerServer/static/js/dual-screens.js";

const ALBUM = "0b6d3a8e-5f6a-4c1e-9d2b-7a1c2e3f4a5b";

test("the Library's address: a list, an artist, an album", () => {
  assert.deepEqual(libraryView("#library"), { view: "artists" }, "the Library opens on its artists");
  assert.deepEqual(libraryView("#library/albums"), { view: "albums" });
  assert.deepEqual(libraryView("#library/recent"), { view: "recent" });
  assert.deepEqual(libraryView(`#library/album/${ALBUM.toUpperCase()}`), { view: "album", id: ALBUM });
  assert.deepEqual(libraryView(`#library/artist/${ALBUM}`), { view: "artist", id: ALBUM });
  assert.deepEqual(libraryView("#library/album/not-an-id"), { view: "artists" }, "nothing the routes would refuse is asked for");
  assert.deepEqual(libraryView("#library/nowhere"), { view: "artists" });
  assert.equal(libraryView("#books"), null);
  // A list's order, filter and letter follow a "?"; an artist's or album's view has none.
  assert.deepEqual(libraryView("#library/albums?sort=year&decade=1990"), { view: "albums", query: "sort=year&decade=1990" });
  assert.deepEqual(libraryView("#library/artists?letter=M"), { view: "artists", query: "letter=M" });
  assert.deepEqual(libraryView("#library/recent?letter=M"), { view: "recent" });
  assert.equal(screenFor("#library?letter=M"), "library");
  // The screen is the Library wherever in it the address is.
  assert.equal(screenFor(`#library/album/${ALBUM}`), "library");
  assert.equal(screenFor("#library"), "library");
  assert.equal(screenFor("#books/x"), "books");
});

test("Next and Previous move along the queue, passing over songs that cannot play, and say when there is none", () => {
  const queue = [{ id: "a" }, { id: "b", playable: false }, { id: "c" }];
  assert.equal(queueStep(queue, 0, 1), 2, "the unplayable one is passed over");
  assert.equal(queueStep(queue, 2, -1), 0);
  assert.equal(queueStep(queue, 2, 1), -1, "none after the last");
  assert.equal(queueStep(queue, 0, -1), -1, "none before the first");
  assert.equal(queueStep([{ id: "a" }], 0, 1), -1, "one song alone: no Next");
  assert.equal(queueStep([{ id: "a" }, { id: "b", playable: false }], 0, 1), -1, "only unplayable after it: no Next");
  assert.equal(queueStep([], -1, 1), -1, "nothing queued");
});

test("one song played on its own is queued with its album, from that song on", () => {
  const song = { id: "b" };
  const album = [{ id: "a" }, { id: "b" }, { id: "c" }];
  assert.deepEqual(queueFor([song], 0, album), { queue: album, index: 1 });
  assert.deepEqual(queueFor([song], 0, [{ id: "b" }]), { queue: [song], index: 0 }, "an album of one: the song alone");
  assert.deepEqual(queueFor([song], 0, null), { queue: [song], index: 0 }, "the album not known");
  assert.deepEqual(queueFor([song], 0, [{ id: "x" }, { id: "y" }]), { queue: [song], index: 0 }, "an album without it");
  const results = [{ id: "a" }, { id: "b" }];
  assert.deepEqual(queueFor(results, 1, album), { queue: results, index: 1 }, "a longer list is the queue itself");
});
