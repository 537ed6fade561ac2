// What Dual Player keeps on the device: which items, what comes with each, the stored list
// read back, and progress and space in words (dual-saved.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bookSpans, canSave, chapterItem, companions, entryKey, forgettable, keptBook, formatBytes, keepButton, keptItem, progressText, restoreEntries, SAVE_STALE_MS, savedChapters, spaceText, timeLeft,
} from "../../Sources/DualPlayerServer/static/js/dual-saved.js";

const episode = { kind: "episode", id: "e 1", title: "Ozymandias", subtitle: "Juke Readings", audio_url: "/api/v1/dual/episodes/e%201/audio", show_id: "p1", duration: 61 };
const book = { kind: "book", id: "b1", title: "Walden", audio_url: "/api/v1/dual/books/b1/audio", artwork_url: "/api/v1/dual/books/b1/cover", chapters: [{ title: "Economy", start: 0, end: 30 }] };

test("files the server holds can be saved; a live station and another site's address cannot", () => {
  assert.equal(canSave(episode), true);
  assert.equal(canSave(book), true);
  assert.equal(canSave({ kind: "station", id: "s", audio_url: "/api/v1/dual/radio/stations/s/listen" }), false);
  assert.equal(canSave({ kind: "episode", id: "e", audio_url: "https://host.example/e.mp3" }), false);
  assert.equal(canSave(null), false);
  assert.equal(entryKey(episode), "episode:e 1");
});

test("each kind brings what its player asks for offline", () => {
  assert.deepEqual(companions(episode), ["/api/v1/dual/episodes/e%201/chapters", "/api/v1/dual/episodes/e%201/transcript"]);
  assert.deepEqual(companions(book), ["/api/v1/dual/books/b1/cover"], "a book's chapters travel in its item");
  assert.deepEqual(companions({ kind: "track", id: "t1", audio_url: "/api/v1/catalog/tracks/t1/audio", artwork_url: "/api/v1/catalog/tracks/t1/artwork" }),
    ["/api/v1/catalog/tracks/t1/artwork", "/api/v1/dual/tracks/t1/chapters"]);
  assert.deepEqual(companions({ kind: "article", id: "a1", audio_url: "/api/v1/dual/articles/a1/speech/audio" }),
    ["/api/v1/dual/articles/a1", "/api/v1/dual/articles/a1/speech"]);
  assert.deepEqual(companions({ kind: "song", id: "s1", audio_url: "/api/v1/dual/songs/s1/audio", artwork_url: "https://elsewhere.example/a.jpg" }), [],
    "another site's picture is not fetched");
});

test("the kept item has what loading it needs, and nothing of the page's", () => {
  const kept = keptItem({ ...book, station: { hls: true }, extra: () => 1 });
  assert.deepEqual(kept, { kind: "book", id: "b1", title: "Walden", subtitle: "", audio_url: book.audio_url, artwork_url: book.artwork_url, chapters: book.chapters });
});

test("sizes and progress in words", () => {
  assert.equal(formatBytes(512), "512 B");
  assert.equal(formatBytes(1500), "1.5 kB");
  assert.equal(formatBytes(42_300_000), "42 MB");
  assert.equal(formatBytes(2_500_000_000), "2.5 GB");
  assert.equal(formatBytes(-1), "0 B");
  assert.equal(progressText({ bytes: 250, total: 1000 }), "25%");
  assert.equal(progressText({ bytes: 2000, total: 1000 }), "100%");
  assert.equal(progressText({ bytes: 3_400_000, total: 0 }), "3.4 MB", "a transcode's size is not known ahead");
});

test("the space line counts saved items only, against what the browser allows", () => {
  const entries = [
    { status: "saved", bytes: 30_000_000 }, { status: "saved", bytes: 12_000_000 }, { status: "saving", bytes: 5_000_000 },
  ].map((e, i) => ({ key: `k${i}`, player: "speech", item: episode, total: 0, position: 0, saved_at: 0, ...e }));
  assert.equal(spaceText(entries, null), "Saved here: 42 MB in 2 items.");
  assert.equal(spaceText(entries, { usage: 50_000_000, quota: 1_000_000_000 }),
    "Saved here: 42 MB in 2 items. This browser lets Juke keep 1.0 GB; 50 MB (5%) is in use.");
  assert.match(spaceText(entries.slice(0, 1), { usage: 1_000_000, quota: 300_000_000_000 }), /1 item\. .*\(0\.0%\)/);
});

test("the stored list is read back: damaged entries dropped, a save cut off by a closed tab can be tried again", () => {
  assert.deepEqual(restoreEntries("nonsense"), []);
  const good = { key: "episode:e 1", player: "speech", item: episode, status: "saved", bytes: 10, total: 10, position: 12.5, saved_at: 5 };
  const restored = restoreEntries([
    good,
    { ...good },                                         // the same twice
    { ...good, key: "episode:other" },                   // a key that is not its item's
    { ...good, key: "book:b1", item: book, player: "speaker" },
    { key: "station:s", player: "music", item: { kind: "station", id: "s", audio_url: "/x" }, status: "saved" },
    { key: "book:b1", player: "speech", item: book, status: "saving", bytes: 5, total: 100, position: -3 },
    null,
  ]);
  assert.deepEqual(restored.map((e) => [e.key, e.status, e.position]), [["episode:e 1", "saved", 12.5], ["book:b1", "failed", 0]]);
  assert.equal(restored[1].failure, "the page closed before it finished");
});

test("a save this page is running reads as under way, with its progress, not as a closed tab's", () => {
  const stored = [
    { key: "book:b1", player: "speech", item: book, status: "saving", bytes: 5, total: 100, position: 0 },
    { key: "episode:e 1", player: "speech", item: episode, status: "saving", bytes: 1, total: 10, position: 0 },
  ];
  const restored = restoreEntries(stored, new Set(["book:b1"]));
  assert.deepEqual(restored.map((e) => [e.key, e.status, e.bytes, e.total]), [["book:b1", "saving", 5, 100], ["episode:e 1", "failed", 1, 10]]);
  assert.equal(restored[0].failure, undefined);
  assert.equal(restored[1].failure, "the page closed before it finished");
});

test("another tab's save reads as under way while it moves, and as cut off once it has stood still too long", () => {
  const now = 1_000_000;
  const saving = { key: "book:b1", player: "speech", item: book, status: "saving", bytes: 5, total: 100, position: 0 };
  const moving = restoreEntries([{ ...saving, touched_at: now - SAVE_STALE_MS + 1 }], new Set(), now);
  assert.deepEqual(moving.map((e) => [e.status, e.failure, e.touched_at]), [["saving", undefined, now - SAVE_STALE_MS + 1]]);
  const still = restoreEntries([{ ...saving, touched_at: now - SAVE_STALE_MS }], new Set(), now);
  assert.deepEqual(still.map((e) => [e.status, e.failure]), [["failed", "the page closed before it finished"]]);
  const damaged = restoreEntries([{ ...saving, touched_at: "soon" }], new Set(), now);
  assert.equal(damaged[0].status, "failed");
  const done = restoreEntries([{ ...saving, status: "saved", touched_at: now }], new Set(), now);
  assert.equal(done[0].touched_at, undefined, "only a save under way carries it");
});

test("the save button says where a save is and what a press does", () => {
  assert.deepEqual(keepButton(undefined), { text: "Save on this device", action: "save", state: "none" });
  const entry = { key: "k", player: "speech", item: episode, bytes: 50, total: 200, position: 0, saved_at: 0 };
  assert.deepEqual(keepButton({ ...entry, status: "saving" }), { text: "Saving… 25% · Stop", action: "remove", state: "saving" });
  assert.deepEqual(keepButton({ ...entry, status: "saved" }), { text: "On this device · Remove", action: "remove", state: "saved" });
  assert.equal(keepButton({ ...entry, status: "failed", failure: "this device has no more room for it" }).action, "save");
});

const walden = {
  kind: "book", id: "b 2", title: "Walden", subtitle: "Thoreau", audio_url: "/api/v1/dual/books/b%202/audio", artwork_url: "/api/v1/dual/books/b%202/cover", duration: 90,
  chapters: [{ title: "Economy", start: 0, end: 30 }, { title: "Where I Lived", start: 30, end: 55 }, { title: "Reading", start: 55, end: 90 }],
};

test("a book's chapter is an item of its own: its address is the server's cut, and it carries its book", () => {
  const second = chapterItem(walden, 1);
  assert.equal(second.audio_url, "/api/v1/dual/books/b%202/chapters/1/audio");
  assert.equal(entryKey(second), "chapter:b 2/1");
  assert.equal(second.title, "Where I Lived");
  assert.equal(second.subtitle, "Walden");
  assert.equal(second.start, 30);
  assert.equal(second.duration, 25);
  assert.equal(second.book.chapters.length, 3, "the book comes with it, to play it offline");
  assert.equal(canSave(second), true);
  assert.deepEqual(companions(second), ["/api/v1/dual/books/b%202/cover"]);
  assert.deepEqual(keptItem(second), second, "kept as it is");
  // A chapter whose book is missing or does not have it is not a chapter that can play.
  assert.equal(canSave({ ...second, book: undefined }), false);
  assert.equal(canSave({ ...second, index: 3 }), false);
  assert.equal(canSave({ ...second, index: 1.5 }), false);
  assert.equal(canSave({ ...second, book_id: "other" }), false);
});

test("a book plays its chapters saved one by one from their own files, and the rest from the book", () => {
  const stored = [
    { key: "chapter:b 2/1", player: "speech", item: chapterItem(walden, 1), status: "saved", bytes: 10, total: 10, position: 0, saved_at: 1 },
    { key: "chapter:b 2/2", player: "speech", item: chapterItem(walden, 2), status: "saving", bytes: 5, total: 10, position: 0, saved_at: 1 },
    { key: "chapter:other/0", player: "speech", item: chapterItem({ ...walden, id: "other" }, 0), status: "saved", bytes: 10, total: 10, position: 0, saved_at: 1 },
  ];
  const entries = restoreEntries(stored);
  assert.equal(entries.length, 3, "chapters are read back like any item");
  assert.deepEqual([...savedChapters(entries, "b 2")], [1], "one saved; the one cut off by a closed tab is not");
  assert.equal(keptBook(entries, "b 2")?.title, "Walden", "the book opens offline from a saved chapter");
  assert.equal(keptBook(entries, "nothing saved"), null);
  assert.deepEqual(bookSpans(walden, new Set([1])), [
    { file: "/api/v1/dual/books/b%202/audio", start: 0, end: 30, offset: 0 },
    { file: "/api/v1/dual/books/b%202/chapters/1/audio", start: 0, end: 25, offset: 30 },
    { file: "/api/v1/dual/books/b%202/audio", start: 55, end: 90, offset: 0 },
  ]);
  assert.ok(bookSpans(walden, new Set()).every((span) => span.file === walden.audio_url && span.offset === 0), "nothing saved: the book as it is");
});

test("time left counts from the chapter's place in its book", () => {
  assert.equal(timeLeft(chapterItem(walden, 1), 40), 15, "10 s into a 25 s chapter that begins at 30 s");
  assert.equal(timeLeft(chapterItem(walden, 1), 0), 0, "never played: nothing said");
  assert.equal(timeLeft(walden, 60), 30);
  assert.equal(timeLeft({ ...walden, duration: undefined }, 60), 0);
});

test("a chapter's row has a short save button", () => {
  assert.equal(keepButton(undefined, true).text, "Save");
  assert.equal(keepButton({ key: "k", player: "speech", item: walden, status: "saving", bytes: 1, total: 4, position: 0, saved_at: 0 }, true).text, "Saving 25% · Stop");
  assert.equal(keepButton({ key: "k", player: "speech", item: walden, status: "saved", bytes: 1, total: 1, position: 0, saved_at: 0 }, true).action, "remove");
});

test("removing an item leaves what another saved item needs: a book's cover stays while a chapter of it is saved", () => {
  const first = chapterItem(walden, 0);
  const second = chapterItem(walden, 1);
  const entry = (/** @type {any} */ item, status = "saved") => ({ key: entryKey(item), player: "speech", item, status, bytes: 1, total: 1, position: 0, saved_at: 0 });
  assert.deepEqual(forgettable(first, [entry(first), entry(second)]), [first.audio_url], "the cover is the other chapter's too");
  assert.deepEqual(forgettable(first, [entry(first), entry(second, "saving")]), [first.audio_url], "a chapter being saved needs it as well");
  assert.deepEqual(forgettable(first, [entry(first), entry(second, "failed")]), [first.audio_url, walden.artwork_url], "a failed save keeps nothing");
  assert.deepEqual(forgettable(first, [entry(first)]), [first.audio_url, walden.artwork_url]);
  assert.deepEqual(forgettable(episode, []), [episode.audio_url, ...companions(episode)]);
});
