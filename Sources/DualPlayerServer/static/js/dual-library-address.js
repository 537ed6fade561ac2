// Where the Library screen is, as its address says: one of its lists (#library/albums), an
// artist's albums or an album's tracks (#library/album/<id>). Pure (node --test).

/** The lists at the top of the Library, in order, with their headings. */
export const LIBRARY_LISTS = /** @type {const} */ ([
  ["artists", "Artists"], ["albums", "Albums"], ["songs", "Songs"], ["recent", "Recently added"],
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The Library's view an address's fragment names: a list (`#library`, `#library/albums`), an
 * artist's albums or an album's tracks (`#library/album/<id>`); null for another screen. A
 * list's order, filter and letter follow a "?" (`#library/albums?sort=year&decade=1990`), read
 * by catalog-order.js's readState.
 * @param {string} hash location.hash
 * @returns {{ view: string, id?: string, query?: string } | null}
 */
export function libraryView(hash) {
  const [path, query = ""] = hash.replace(/^#/, "").split("?");
  const [screen, view = "", id = ""] = path.split("/");
  if (screen !== "library") return null;
  if ((view === "artist" || view === "album") && UUID.test(id)) return { view, id: id.toLowerCase() };
  const list = LIBRARY_LISTS.some(([name]) => name === view) ? view : "artists";
  return query && (list === "artists" || list === "albums") ? { view: list, query } : { view: list };
}
