// A long list of the catalog: how its pages are asked for (by cursor, from a letter, in an
// order with a filter), how its state is kept in the address, and the A-Z index's letters.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ALBUM_SORTS, DEFAULT_STATE, LETTERS, albumsQuery, artistsQuery, decadesOf, effectiveSort, letterAt, letterOf, pageAddress, readState,
  sortHasLetters, writeState,
} from "../../Sources/JukePlatform/Web/static/js/catalog-order.js";

test("the index has # and A to Z, and jumps in the name orders only", () => {
  assert.equal(LETTERS.length, 27);
  assert.equal(LETTERS[0], "#");
  assert.equal(LETTERS[26], "Z");
  assert.deepEqual(ALBUM_SORTS.filter((s) => sortHasLetters(s.value)).map((s) => s.value), ["artist", "name"]);
  assert.equal(sortHasLetters("nonsense"), false);
});

test("a name's letter is the one the route orders it under", () => {
  assert.equal(letterOf("The Beatles"), "B", "a leading article set aside");
  assert.equal(letterOf("A Tribe Called Quest"), "T");
  assert.equal(letterOf("An Horse"), "H");
  assert.equal(letterOf("The"), "T", "a name that is only an article keeps it");
  assert.equal(letterOf("Ólafur Arnalds"), "O", "accents folded");
  assert.equal(letterOf("björk"), "B", "case folded");
  assert.equal(letterOf("2Pac"), "#");
  assert.equal(letterOf("¡Forward, Russia!"), "#");
  assert.equal(letterOf("坂本龍一"), "#");
  assert.equal(letterOf(""), "#");
});

test("a page goes on by the cursor of the page before, never by an offset, and never repeats from", () => {
  const query = albumsQuery({ ...DEFAULT_STATE, sort: "name", letter: "M" });
  assert.equal(pageAddress("/api/v1/catalog/albums", query, { limit: 60 }), "/api/v1/catalog/albums?sort=name&from=m&limit=60");
  assert.equal(pageAddress("/api/v1/catalog/albums", query, { limit: 60, after: "abc_-" }), "/api/v1/catalog/albums?sort=name&after=abc_-&limit=60");
  assert.equal(query.get("from"), "m", "the first page's query is left as it was");
  // A search's pages have no cursor: they go by offset.
  assert.equal(pageAddress("/api/v1/catalog/search", new URLSearchParams({ q: "a b" }), { limit: 50, offset: 100 }), "/api/v1/catalog/search?q=a+b&offset=100&limit=50");
});

test("the albums' query: the order, one filter, and from only in a name order", () => {
  assert.equal(albumsQuery(DEFAULT_STATE).toString(), "sort=artist");
  assert.equal(albumsQuery({ ...DEFAULT_STATE, letter: "#" }).toString(), "sort=artist", "# is the top: no from");
  assert.equal(albumsQuery({ ...DEFAULT_STATE, sort: "year", letter: "M" }).toString(), "sort=year", "the year order has no letters");
  assert.equal(albumsQuery({ ...DEFAULT_STATE, sort: "newest", genre: "Rock" }).toString(), "sort=name&genre=Rock", "a genre's albums come by title");
  assert.equal(albumsQuery({ ...DEFAULT_STATE, sort: "name", decade: 1990 }).toString(), "sort=year&from_year=1990&to_year=1999");
  assert.equal(albumsQuery({ ...DEFAULT_STATE, genre: "Jazz", letter: "C" }).toString(), "sort=name&genre=Jazz&from=c");
  assert.equal(effectiveSort({ ...DEFAULT_STATE, sort: "bogus" }), "artist");
  assert.equal(artistsQuery("").toString(), "");
  assert.equal(artistsQuery("#").toString(), "");
  assert.equal(artistsQuery("Q").toString(), "from=q");
});

test("the state survives the address: only what differs from the default, and nothing malformed", () => {
  const state = { sort: "year", genre: "", decade: 1970, letter: "" };
  assert.equal(writeState(state).toString(), "sort=year&decade=1970");
  assert.deepEqual(readState(writeState(state)), state);
  assert.equal(writeState(DEFAULT_STATE).toString(), "");
  assert.deepEqual(readState(new URLSearchParams("")), DEFAULT_STATE);
  const rock = { sort: "name", genre: "Rock & Roll", decade: null, letter: "R" };
  assert.deepEqual(readState(writeState(rock)), rock);
  assert.deepEqual(readState(new URLSearchParams("sort=loudest&decade=1975&letter=MM")), DEFAULT_STATE);
  assert.deepEqual(readState(new URLSearchParams("letter=m")).letter, "M");
  assert.equal(readState(new URLSearchParams("genre=Pop&decade=1980")).decade, null, "one filter at a time");
  assert.equal(readState(new URLSearchParams(`genre=${"x".repeat(300)}`)).genre.length, 100);
});

test("a finger on the rail: the letter under it, the ends beyond it", () => {
  assert.equal(letterAt(100, 100, 270), "#");
  assert.equal(letterAt(115, 100, 270), "A");
  assert.equal(letterAt(369, 100, 270), "Z");
  assert.equal(letterAt(0, 100, 270), "#", "above the rail");
  assert.equal(letterAt(999, 100, 270), "Z", "below it");
  assert.equal(letterAt(50, 0, 0), "#", "a rail not laid out");
});

test("the decades of a library's years, newest first", () => {
  assert.deepEqual(decadesOf([{ value: 1995 }, { value: "1991" }, { value: 2003 }, { value: 0 }, { value: "x" }]), [2000, 1990]);
  assert.deepEqual(decadesOf([]), []);
});
