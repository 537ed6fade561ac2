// How a list of the catalog (albums, artists) is asked for and where it stands: its order, a
// genre or a decade, the letter an A-Z index jumped to, as the page's address keeps them (so a
// reload and Back return to the same list). Pure: no DOM, no requests (node --test).

/** The A-Z index's letters; "#" is every name that starts with a digit or a sign (the top). */
export const LETTERS = /** @type {const} */ (["#", ..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"]);

/**
 * @typedef {object} Sort
 * @property {string} value the route's `sort`
 * @property {string} label what the person picks
 * @property {boolean} letters whether the A-Z index jumps in this order (a name order)
 */

/**
 * The orders albums are browsed in, as the catalog route serves them. Most and recently played
 * join this list as two more entries once the route serves them.
 * @type {readonly Sort[]}
 */
export const ALBUM_SORTS = [
  { value: "artist", label: "By artist", letters: true },
  { value: "name", label: "By title", letters: true },
  { value: "year", label: "By year", letters: false },
  { value: "newest", label: "Recently added", letters: false },
  { value: "random", label: "Random", letters: false },
];

/**
 * What a list shows: its order, a genre or a decade (the route takes one of them at a time),
 * and the letter it starts at ("" for the top).
 * @typedef {{ sort: string, genre: string, decade: number | null, letter: string }} ListState
 */

/** @type {ListState} */
export const DEFAULT_STATE = Object.freeze({ sort: "artist", genre: "", decade: null, letter: "" });

/**
 * The order a list is read in: a genre's albums come by title and a decade's by year (the
 * route refuses any other with them); else the one chosen.
 * @param {ListState} state
 */
export function effectiveSort(state) {
  if (state.genre) return "name";
  if (state.decade !== null) return "year";
  return ALBUM_SORTS.some((s) => s.value === state.sort) ? state.sort : DEFAULT_STATE.sort;
}

/**
 * Whether the A-Z index jumps in this order.
 * @param {string} sort
 */
export function sortHasLetters(sort) {
  return ALBUM_SORTS.find((s) => s.value === sort)?.letters ?? false;
}

/**
 * The query of the first page of albums for `state` (without limit and after): the order, the
 * filter, and `from` when a letter other than "#" was picked in a name order.
 * @param {ListState} state
 * @returns {URLSearchParams}
 */
export function albumsQuery(state) {
  const sort = effectiveSort(state);
  const query = new URLSearchParams({ sort });
  if (state.genre) query.set("genre", state.genre);
  if (state.decade !== null) {
    query.set("from_year", String(state.decade));
    query.set("to_year", String(state.decade + 9));
  }
  if (state.letter && state.letter !== "#" && sortHasLetters(sort)) query.set("from", state.letter.toLowerCase());
  return query;
}

/**
 * The query of the first page of artists (their one order is by name).
 * @param {string} letter
 */
export function artistsQuery(letter) {
  const query = new URLSearchParams();
  if (letter && letter !== "#") query.set("from", letter.toLowerCase());
  return query;
}

/**
 * A page's address: the list's path and query, with the page's size and, after the first,
 * where it goes on from (the `next` of the page before; never an offset, so a deep page costs
 * what the first does). A page after the first never repeats `from`: the cursor carries it.
 * @param {string} path a catalog route
 * @param {URLSearchParams} query the first page's query
 * @param {{ limit: number, after?: string | null, offset?: number }} page
 */
export function pageAddress(path, query, { limit, after = null, offset }) {
  const params = new URLSearchParams(query);
  if (after) {
    params.delete("from");
    params.set("after", after);
  } else if (offset) {
    params.set("offset", String(offset));
  }
  params.set("limit", String(limit));
  return `${path}?${params}`;
}

const LETTER = /^[A-Z#]$/;

/**
 * The list's state as an address's query keeps it; anything unknown or malformed is left at
 * its default, never sent on to the route.
 * @param {URLSearchParams} params
 * @returns {ListState}
 */
export function readState(params) {
  const sort = params.get("sort") ?? "";
  const decade = Number(params.get("decade"));
  const letter = (params.get("letter") ?? "").toUpperCase();
  const genre = (params.get("genre") ?? "").slice(0, 100);
  return {
    sort: ALBUM_SORTS.some((s) => s.value === sort) ? sort : DEFAULT_STATE.sort,
    genre,
    decade: params.has("decade") && Number.isInteger(decade) && decade >= 0 && decade <= 9990 && decade % 10 === 0 && !genre ? decade : null,
    letter: LETTER.test(letter) ? letter : "",
  };
}

/**
 * The address's query for a state: only what differs from the default, in a fixed order, so
 * that one list has one address.
 * @param {ListState} state
 * @returns {URLSearchParams}
 */
export function writeState(state) {
  const params = new URLSearchParams();
  if (state.sort !== DEFAULT_STATE.sort) params.set("sort", state.sort);
  if (state.genre) params.set("genre", state.genre);
  if (state.decade !== null) params.set("decade", String(state.decade));
  if (state.letter) params.set("letter", state.letter);
  return params;
}

/**
 * The letter of the index a name is under, as the route orders names: case and accents
 * folded, a leading "The", "A" or "An" set aside; "#" for a digit, a sign or another script.
 * @param {string} name
 */
export function letterOf(name) {
  let key = name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().trim();
  for (const article of ["the ", "a ", "an "]) {
    if (key.startsWith(article) && key.length > article.length) {
      key = key.slice(article.length);
      break;
    }
  }
  const first = key.charAt(0);
  return first >= "a" && first <= "z" ? first.toUpperCase() : "#";
}

/**
 * The letter under a finger sliding along the index (drag to scrub, as on a phone's lists):
 * the rail's height is split evenly among the letters; above or below it, the first or last.
 * @param {number} y the pointer's position
 * @param {number} top the rail's top
 * @param {number} height the rail's height
 */
export function letterAt(y, top, height) {
  if (!(height > 0)) return LETTERS[0];
  const index = Math.floor(((y - top) / height) * LETTERS.length);
  return LETTERS[Math.min(Math.max(index, 0), LETTERS.length - 1)];
}

/**
 * The decades of a library's years (its facet of years), newest first.
 * @param {{ value: string | number }[]} years
 * @returns {number[]}
 */
export function decadesOf(years) {
  const decades = new Set();
  for (const { value } of years) {
    const year = Number(value);
    if (Number.isInteger(year) && year > 0 && year <= 9999) decades.add(year - (year % 10));
  }
  return [...decades].sort((a, b) => b - a);
}
