import { api, el, errorMessage, formatTime } from "./api.js";
import { icon } from "/static/js/icons.js";
import { bindTabs } from "./tabs.js";

const PAGE = 60;

/** @typedef {import("./player.js").Track} Track */
/** @typedef {{id: string, title: string, artist: string, year?: number | null, artwork_url?: string | null}} Album */
/** @typedef {{id: string, name: string, album_count: number, track_count: number}} Artist */
/** @typedef {{items: any[], total: number, approximate?: boolean, suggestion?: string}} Page */
/**
 * The list on show: where its pages come from, how it is drawn, and what has been loaded.
 * @typedef {{path: string, render: (items: any[], all: any[]) => Node, empty: string,
 *   onPage?: (page: Page) => void, items: any[], total: number}} Listing
 */

// The library browser: albums, artists, genres, years and songs, drill-down into one, and
// search as you type. Every list is paginated with "Show more".
export class LibraryBrowser {
  /**
   * @param {{root: HTMLElement, crumbs: HTMLElement, pager: HTMLElement, more: HTMLElement,
   *   tabs: HTMLElement[], search: HTMLInputElement, player: import("./player.js").Player}} parts
   */
  constructor({ root, crumbs, pager, more, tabs, search, player }) {
    this.root = root;
    this.crumbs = crumbs;
    this.pager = pager;
    this.more = more;
    this.tabs = tabs;
    this.search = search;
    this.player = player;
    /** @type {Listing | null} */
    this.current = null;
    this.view = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.searchTimer = undefined;
    /** @type {AbortController | null} */
    this.abort = null;
    // The tabs' panel is the browser itself; a search deselects every tab.
    this.selectTabElement = bindTabs(tabs, root, (tab) => this.show(tab.dataset.view ?? "albums"));
    more.addEventListener("click", () => this.loadMore());
    search.addEventListener("input", () => this.onSearch());
    search.form?.addEventListener("submit", (e) => {
      e.preventDefault();
      this.onSearch(0);
    });
  }

  /** @param {string | null} name */
  selectTab(name) {
    this.selectTabElement(this.tabs.find((tab) => tab.dataset.view === name) || null);
  }

  /**
   * Shows a top-level view.
   * @param {string} name albums, artists, songs, genres or years (any other shows albums)
   */
  show(name) {
    this.search.value = "";
    this.selectTab(name);
    this.crumbs.textContent = "";
    /** @type {Record<string, () => Promise<void>>} */
    const views = {
      albums: () => this.list({ path: "/api/v1/catalog/albums", render: (items) => this.albumGrid(items) }),
      artists: () => this.list({ path: "/api/v1/catalog/artists", render: (items) => this.artistList(items) }),
      songs: () => this.list({ path: "/api/v1/catalog/tracks", render: (items, all) => this.trackList(items, all) }),
      genres: () => this.facet("/api/v1/catalog/genres", (value) => ({ genre: String(value) }), "Genre"),
      years: () => this.facet("/api/v1/catalog/years", (value) => ({ year: String(value) }), "Year"),
    };
    (views[name] || views.albums)();
  }

  onSearch(delay = 200) {
    clearTimeout(this.searchTimer);
    const q = this.search.value.trim();
    this.searchTimer = setTimeout(() => {
      if (!q) return this.show("albums");
      this.selectTab(null);
      this.crumbs.textContent = `Results for “${q}”`;
      this.list({
        path: `/api/v1/catalog/search?q=${encodeURIComponent(q)}`,
        render: (items, all) => this.trackList(items, all),
        empty: `Nothing matches “${q}”.`,
        // A typo: the server offers close matches instead of nothing.
        onPage: (page) => {
          this.crumbs.textContent = page.approximate
            ? `No matches for “${q}”. Showing results for “${page.suggestion}”`
            : `Results for “${q}”`;
        },
      });
    }, delay);
  }

  /**
   * Loads the first page of a paginated list and renders it.
   * @param {{path: string, render: (items: any[], all: any[]) => Node, empty?: string, onPage?: (page: Page) => void}} what
   */
  async list({ path, render, empty = "Nothing here yet.", onPage = undefined }) {
    this.abort?.abort();
    this.abort = new AbortController();
    this.current = { path, render, empty, onPage, items: [], total: 0 };
    this.root.setAttribute("aria-busy", "true");
    this.root.replaceChildren(el("p", { class: "muted" }, "Loading…"));
    await this.loadMore(true);
  }

  async loadMore(first = false) {
    const c = this.current;
    if (!c) return;
    const sep = c.path.includes("?") ? "&" : "?";
    try {
      /** @type {Page} */
      const page = await api(`${c.path}${sep}limit=${PAGE}&offset=${c.items.length}`, { signal: this.abort?.signal });
      c.items = c.items.concat(page.items);
      c.total = page.total;
      c.onPage?.(page);
      this.root.replaceChildren(c.items.length ? c.render(c.items, c.items) : el("p", { class: "muted" }, c.empty));
      this.pager.hidden = c.items.length >= c.total;
    } catch (e) {
      if (e instanceof Error && e.name === "AbortError") return;
      this.root.replaceChildren(el("p", { class: "form-error" }, errorMessage(e)));
    } finally {
      this.root.setAttribute("aria-busy", "false");
      if (!first) this.more.focus();
    }
  }

  /**
   * A list of values (genres, years) that each open the songs with it.
   * @param {string} path
   * @param {(value: string | number) => Record<string, string>} filter the songs' query for a value
   * @param {string} label
   */
  async facet(path, filter, label) {
    this.abort?.abort();
    this.pager.hidden = true;
    this.root.setAttribute("aria-busy", "true");
    /** @type {{value: string | number, track_count: number}[]} */
    const values = await api(path);
    this.root.setAttribute("aria-busy", "false");
    if (!values.length) return this.root.replaceChildren(el("p", { class: "muted" }, "Nothing here yet."));
    this.root.replaceChildren(
      el("ul", { class: "chips" }, values.map((v) =>
        el("li", {},
          el("button", { class: "chip", onclick: () => this.drill(`${label}: ${v.value}`, filter(v.value)) },
            v.value, el("span", { class: "count" }, ` ${v.track_count}`))))),
    );
  }

  /**
   * @param {string} title
   * @param {Record<string, string>} filter the songs' query (an album, an artist, a genre, a year)
   */
  drill(title, filter) {
    const query = new URLSearchParams(filter).toString();
    this.crumbs.textContent = title;
    this.list({ path: `/api/v1/catalog/tracks?${query}`, render: (items, all) => this.trackList(items, all, filter.album_id) });
  }

  /** @param {Album[]} albums */
  albumGrid(albums) {
    return el("ul", { class: "album-grid" }, albums.map((album) =>
      el("li", {},
        el("button", { class: "album", onclick: () => this.drill(`${album.title} — ${album.artist}`, { album_id: album.id }) },
          album.artwork_url ? el("img", { src: album.artwork_url, alt: "", loading: "lazy", width: 160, height: 160 }) : el("div", { class: "no-art", "aria-hidden": "true" }, icon("note")),
          el("span", { class: "album-title" }, album.title),
          el("span", { class: "album-artist" }, `${album.artist}${album.year ? " · " + album.year : ""}`)))));
  }

  /** @param {Artist[]} artists */
  artistList(artists) {
    return el("ul", { class: "rows" }, artists.map((artist) =>
      el("li", {},
        el("button", { class: "row-button", onclick: () => this.drill(artist.name, { artist_id: artist.id }) },
          el("span", { class: "row-title" }, artist.name),
          el("span", { class: "row-meta" }, `${artist.album_count} album${artist.album_count === 1 ? "" : "s"} · ${artist.track_count} song${artist.track_count === 1 ? "" : "s"}`)))));
  }

  /**
   * @param {Track[]} tracks the ones to list
   * @param {Track[]} all the queue a click plays
   * @param {string | boolean} [albumView] an album's id when listing one album (its track numbers show)
   */
  trackList(tracks, all, albumView = false) {
    return el("ol", { class: "tracks" }, tracks.map((track, i) => {
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
    }));
  }

}
