import { api, el, errorMessage, formatTime } from "./api.js";
import { icon } from "/static/js/icons.js";
import { bindTabs } from "./tabs.js";
import { PagedList, albumToolbar, letterAtTop, letterRail } from "./catalog-list.js";
import { DEFAULT_STATE, albumsQuery, artistsQuery, effectiveSort, letterOf, readState, sortHasLetters, writeState } from "./catalog-order.js";

/** @typedef {import("./player.js").Track} Track */
/** @typedef {{id: string, title: string, artist: string, year?: number | null, artwork_url?: string | null}} Album */
/** @typedef {{id: string, name: string, album_count: number, track_count: number}} Artist */
/** @typedef {import("./catalog-order.js").ListState} ListState */

/** Albums fetched at a time: a whole number of the grid's rows at every width (2 to 6 columns, app.css), so pages meet without gaps. */
const GRID_PAGE = 60;
const VIEWS = ["albums", "artists", "genres", "years", "songs"];
/** The albums' order and filter this device chose last, for a visit that names none. */
const REMEMBERED = "juke_library_albums";

// The library browser: albums, artists, genres, years and songs, drill-down into one, and
// search as you type. Albums and artists are long lists (catalog-list.js): fetched a page at
// a time as the person scrolls, with an A-Z index and, for albums, an order, a genre and a
// decade to choose. Where the browser is (the view, the order, the letter, an album opened)
// is in the page's address, so a reload and Back return to it.
export class LibraryBrowser {
  /**
   * @param {{root: HTMLElement, crumbs: HTMLElement, tabs: HTMLElement[], search: HTMLInputElement,
   *   player: import("./player.js").Player}} parts
   */
  constructor({ root, crumbs, tabs, search, player }) {
    this.root = root;
    this.crumbs = crumbs;
    this.tabs = tabs;
    this.search = search;
    this.player = player;
    /** @type {PagedList | null} */
    this.list = null;
    /** @type {ReturnType<typeof letterRail> | null} */
    this.rail = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.searchTimer = undefined;
    // The tabs' panel is the browser itself; a search deselects every tab.
    this.selectTabElement = bindTabs(tabs, root, (tab) => this.go({ view: tab.dataset.view ?? "albums" }));
    search.addEventListener("input", () => this.onSearch());
    search.form?.addEventListener("submit", (e) => {
      e.preventDefault();
      this.onSearch(0);
    });
    addEventListener("popstate", () => this.fromAddress());
    // The rail marks the letter the top of the list is at.
    let queued = false;
    addEventListener("scroll", () => {
      if (queued || !this.rail || !this.list) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const letter = this.list && letterAtTop(this.list.root, this.headerBottom());
        if (letter) this.rail?.mark(letter);
      });
    }, { passive: true });
  }

  /** @param {string | null} name */
  selectTab(name) {
    this.selectTabElement(this.tabs.find((tab) => tab.dataset.view === name) || null);
  }

  /** Where the sticky header ends: the list's visible top. */
  headerBottom() {
    return document.querySelector("header.top")?.getBoundingClientRect().bottom ?? 0;
  }

  /** Shows what the page's address names (on load, and on Back and Forward). */
  fromAddress() {
    const params = new URLSearchParams(location.search);
    const drill = params.get("drill");
    if (drill !== null) return this.drill(params.get("title") ?? "", Object.fromEntries(new URLSearchParams(drill)), { push: false });
    const view = VIEWS.includes(params.get("view") ?? "") ? String(params.get("view")) : "albums";
    if (![...params.keys()].length) {
      // A plain visit: the albums as this device left them (from the top), kept with this
      // entry of the history (its address stays the page's own), so Back to it shows them.
      const kept = history.state?.library;
      const state = kept ? readState(new URLSearchParams(kept)) : this.remembered();
      history.replaceState({ ...history.state, library: writeState(state).toString() }, "");
      return this.show("albums", state);
    }
    this.show(view, readState(params));
  }

  /** @returns {ListState} */
  remembered() {
    try {
      return { ...readState(new URLSearchParams(localStorage.getItem(REMEMBERED) ?? "")), letter: "" };
    } catch (_) {
      return { ...DEFAULT_STATE };
    }
  }

  /**
   * Goes to a view (a new entry in the history, so Back returns) and shows it.
   * @param {{ view: string, state?: ListState }} where
   * @param {{ replace?: boolean }} [how] replace: the same list moved (a letter), no new entry
   */
  go({ view, state }, how = {}) {
    const replace = how.replace ?? false;
    const listState = state ?? (view === "albums" ? this.remembered() : { ...DEFAULT_STATE });
    const params = view === "artists" ? new URLSearchParams(listState.letter ? { letter: listState.letter } : {}) : view === "albums" ? writeState(listState) : new URLSearchParams();
    params.set("view", view);
    if (view === "albums") localStorage.setItem(REMEMBERED, writeState({ ...listState, letter: "" }).toString());
    const address = `?${params}`;
    if (replace) history.replaceState(null, "", address);
    else history.pushState(null, "", address);
    this.show(view, listState);
  }

  /**
   * Shows a top-level view.
   * @param {string} name albums, artists, songs, genres or years (any other shows albums)
   * @param {ListState} [state] the albums' order and filter, the letter a list starts at
   */
  show(name, state = { ...DEFAULT_STATE }) {
    this.search.value = "";
    const view = VIEWS.includes(name) ? name : "albums";
    this.selectTab(view);
    this.crumbs.textContent = "";
    if (view === "albums") return this.albums(state);
    if (view === "artists") return this.artists(state.letter);
    if (view === "songs") {
      return this.listOf({ path: "/api/v1/catalog/tracks", query: new URLSearchParams(), what: ["song", "songs"], tracks: true });
    }
    if (view === "genres") return this.facet("/api/v1/catalog/genres", (value) => ({ genre: String(value) }), "Genre");
    return this.facet("/api/v1/catalog/years", (value) => ({ year: String(value) }), "Year");
  }

  /**
   * A long list in the browser: its toolbar (if any), the list, and the A-Z index beside it
   * when its order has letters.
   * @param {{ path: string, query: URLSearchParams, what: [string, string], tracks?: boolean, albumView?: string,
   *   draw?: (item: any, index: number) => HTMLElement, listClass?: string, toolbar?: Node | null,
   *   letters?: { current: string, pick: (letter: string) => void } | null, empty?: string, byOffset?: boolean,
   *   onPage?: (page: any) => void, pageSize?: number }} what
   */
  listOf({ path, query, what, tracks = false, albumView, draw, listClass = "rows", toolbar = null, letters = null, empty, byOffset = false, onPage, pageSize }) {
    this.list?.close();
    const host = el("div", { class: "catalog-list" });
    this.rail = letters ? letterRail({ label: `Jump to a letter of the ${what[1]}`, pick: letters.pick }) : null;
    if (letters) this.rail?.mark(letters.current || "#");
    const from = letters?.current && letters.current !== "#"
      ? el("p", { class: "catalog-from" }, `From ${letters.current} `,
        el("button", { type: "button", class: "btn btn-ghost btn-s", onclick: () => letters.pick("#") }, icon("chevronUp"), "Back to the top"))
      : null;
    const browse = el("div", { class: letters ? "catalog-browse with-rail" : "catalog-browse" }, el("div", { class: "catalog-main" }, from, host), this.rail?.element ?? null);
    this.root.replaceChildren(...[toolbar, browse].filter((n) => n !== null));
    // Busy while a page is on its way is the list's own (catalog-list.js sets it there).
    this.root.setAttribute("aria-busy", "false");
    const list = new PagedList(host, {
      listClass: tracks ? "tracks" : listClass, label: what[1][0].toUpperCase() + what[1].slice(1), what, pageSize,
    });
    this.list = list;
    list.start({
      path, query, empty, byOffset, onPage,
      draw: draw ?? ((track, i) => this.trackRow(track, i, list.items, albumView)),
    });
    return browse;
  }

  /** @param {ListState} state */
  albums(state) {
    const sort = effectiveSort(state);
    const pick = (/** @type {string} */ letter) => this.jump({ view: "albums", state: { ...state, letter: letter === "#" ? "" : letter } });
    this.listOf({
      path: "/api/v1/catalog/albums", query: albumsQuery(state), what: ["album", "albums"], listClass: "album-grid", pageSize: GRID_PAGE,
      toolbar: albumToolbar(state, (next) => this.go({ view: "albums", state: next })),
      letters: sortHasLetters(sort) ? { current: state.letter, pick } : null,
      empty: state.genre || state.decade !== null ? "No albums match." : "No albums in the library yet.",
      draw: (album) => this.albumCard(album, sort === "name" ? album.title : album.artist),
    });
  }

  /** @param {string} letter */
  artists(letter) {
    this.listOf({
      path: "/api/v1/catalog/artists", query: artistsQuery(letter), what: ["artist", "artists"], listClass: "rows",
      letters: { current: letter, pick: (l) => this.jump({ view: "artists", state: { ...DEFAULT_STATE, letter: l === "#" ? "" : l } }) },
      draw: (artist) => this.artistRow(artist),
    });
  }

  /**
   * A letter picked in the index: the same list, from that letter, at the top of the screen.
   * @param {{ view: string, state: ListState }} where
   */
  jump(where) {
    const focused = this.rail?.element.contains(document.activeElement);
    this.go(where, { replace: true });
    if (focused) this.rail?.element.focus({ preventScroll: true });
    // The list's top (and the whole rail) at the top of the screen, as far as the page allows.
    this.root.querySelector(".catalog-browse")?.scrollIntoView({ block: "start" });
  }

  onSearch(delay = 200) {
    clearTimeout(this.searchTimer);
    const q = this.search.value.trim();
    this.searchTimer = setTimeout(() => {
      if (!q) return this.fromAddress();
      this.selectTab(null);
      this.crumbs.textContent = `Results for “${q}”`;
      this.listOf({
        path: "/api/v1/catalog/search", query: new URLSearchParams({ q }), what: ["song", "songs"], tracks: true, byOffset: true,
        empty: `Nothing matches “${q}”.`,
        // A typo: the server offers close matches instead of nothing.
        onPage: (page) => {
          this.crumbs.textContent = page.approximate
            ? `No matches for “${q}”. Showing results for “${page.suggestion}”`
            : `Results for “${q}”`;
        },
      });
      // Typing keeps the focus in the search field; the first results are near the top.
    }, delay);
  }

  /**
   * A list of values (genres, years) that each open the songs with it.
   * @param {string} path
   * @param {(value: string | number) => Record<string, string>} filter the songs' query for a value
   * @param {string} label
   */
  async facet(path, filter, label) {
    this.list?.close();
    this.list = null;
    this.rail = null;
    this.root.setAttribute("aria-busy", "true");
    this.root.replaceChildren(el("p", { class: "muted" }, "Loading…"));
    try {
      /** @type {{value: string | number, track_count: number}[]} */
      const values = await api(path);
      if (!values.length) return this.root.replaceChildren(el("p", { class: "muted" }, "Nothing here yet."));
      this.root.replaceChildren(
        el("ul", { class: "chips" }, values.map((v) =>
          el("li", {},
            el("button", { class: "chip", onclick: () => this.drill(`${label}: ${v.value}`, filter(v.value)) },
              v.value, el("span", { class: "count" }, ` ${v.track_count}`))))),
      );
    } catch (e) {
      this.root.replaceChildren(el("p", { class: "form-error" }, errorMessage(e)));
    } finally {
      this.root.setAttribute("aria-busy", "false");
    }
  }

  /**
   * The songs of an album, an artist, a genre or a year; a new entry in the history (Back
   * returns to the list it was opened from).
   * @param {string} title
   * @param {Record<string, string>} filter the songs' query (an album, an artist, a genre, a year)
   * @param {{ push?: boolean }} [how]
   */
  drill(title, filter, how = {}) {
    const push = how.push ?? true;
    if (push) history.pushState(null, "", `?${new URLSearchParams({ drill: new URLSearchParams(filter).toString(), title })}`);
    this.search.value = "";
    this.selectTab(null);
    this.crumbs.textContent = title;
    this.listOf({ path: "/api/v1/catalog/tracks", query: new URLSearchParams(filter), what: ["song", "songs"], tracks: true, albumView: filter.album_id });
    // Opened from far down a long list: the songs start at the top of the screen.
    const section = this.root.closest("section");
    if (section && section.getBoundingClientRect().top < 0) section.scrollIntoView({ block: "start" });
  }

  /** @param {Album} album @param {string} orderedBy the name the list is ordered by (its letter) */
  albumCard(album, orderedBy) {
    return el("li", { dataset: { letter: letterOf(orderedBy) } },
      el("button", { class: "album", onclick: () => this.drill(`${album.title} — ${album.artist}`, { album_id: album.id }) },
        album.artwork_url ? el("img", { src: album.artwork_url, alt: "", loading: "lazy", width: 160, height: 160 }) : el("div", { class: "no-art", "aria-hidden": "true" }, icon("note")),
        el("span", { class: "album-title" }, album.title),
        el("span", { class: "album-artist" }, `${album.artist}${album.year ? " · " + album.year : ""}`)));
  }

  /** @param {Artist} artist */
  artistRow(artist) {
    return el("li", { dataset: { letter: letterOf(artist.name) } },
      el("button", { class: "row-button", onclick: () => this.drill(artist.name, { artist_id: artist.id }) },
        el("span", { class: "row-title" }, artist.name),
        el("span", { class: "row-meta" }, `${artist.album_count} album${artist.album_count === 1 ? "" : "s"} · ${artist.track_count} song${artist.track_count === 1 ? "" : "s"}`)));
  }

  /**
   * @param {Track} track the one to draw
   * @param {number} i its place in the list
   * @param {Track[]} all the queue a click plays (the list loaded so far; it grows with it)
   * @param {string} [albumView] an album's id when listing one album (its track numbers show)
   */
  trackRow(track, i, all, albumView) {
    // A track no browser plays, on a server without ffmpeg: listed, not playable, and
    // its original file can still be downloaded.
    const unplayable = track.playable === false;
    const meta = [track.artist, track.album, track.year].filter(Boolean).join(" · ");
    return el("li", { class: unplayable ? "track unplayable" : "track", dataset: { id: track.id } },
      el("button", {
        class: "track-button", disabled: unplayable, onclick: () => this.player.playList(all, i),
        "aria-label": unplayable ? `${track.title} by ${track.artist}: not playable here` : `Play ${track.title} by ${track.artist}`,
      },
        el("span", { class: "track-num", "aria-hidden": "true" }, albumView && track.track_number ? track.track_number : i + 1),
        track.artwork_url && !albumView ? el("img", { src: track.artwork_url, alt: "", loading: "lazy", width: 40, height: 40 }) : null,
        el("span", { class: "track-text" },
          el("span", { class: "track-title" }, track.title),
          el("span", { class: "track-meta" }, unplayable ? `Not playable here (${(track.codec || track.format).toUpperCase()} needs ffmpeg on the server) · ${meta}` : meta)),
        el("span", { class: "track-time" }, formatTime(track.duration))),
      unplayable && track.download_url ? el("a", { class: "track-download", href: track.download_url, download: "" }, "Download") : null);
  }
}
