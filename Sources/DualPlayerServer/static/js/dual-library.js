// The music player's Library screen, browsed as in any player: Artists, Albums, Songs and
// Recently added, then an artist's albums and an album's tracks (play all, or one: the album
// is the queue). Lists come from the platform's catalog routes a page at a time ("Show
// more"). Where the screen is follows the address (#library/artist/<id>), so Back returns
// (dual-library-address.js reads it).
import { api, el, formatTime } from "/static/js/api.js";
import { LIBRARY_LISTS, libraryView } from "./dual-library-address.js";
import { row } from "./dual-rows.js";
import { count } from "./dual-words.js";
import { retryable, showTrouble } from "./dual-trouble.js";

/** Rows fetched at a time. */
export const LIBRARY_PAGE = 50;

/**
 * A catalog track as the music player plays it.
 * @param {any} t the contract's Track
 */
export function trackItem(t) {
  return {
    kind: "track", id: t.id, title: t.title, subtitle: [t.artist, t.album].filter(Boolean).join(" · "),
    artwork_url: t.artwork_url || undefined, audio_url: t.audio_url, album_id: t.album_id, playable: t.playable,
  };
}

export class Library {
  /**
   * @param {HTMLElement} shelf the music shelf (the Library's screen is in it)
   * @param {(items: any[], index: number) => void} play plays `items[index]` with the list as its queue
   */
  constructor(shelf, play) {
    this.play = play;
    const q = (/** @type {string} */ s) => /** @type {any} */ (shelf.querySelector(s));
    this.ui = {
      nav: q(".dual-library-nav"), back: q(".dual-browse-back"), title: q(".dual-browse-title"), sub: q(".dual-browse-sub"),
      playAll: q(".dual-play-all"), list: q(".dual-browse-list"), more: q(".dual-more"),
    };
    /** The view shown ("artists" …, or "artist:<id>"), and what it has loaded so far. */
    this.shown = "";
    /** @type {any[]} the loaded rows' data; for a list of tracks, the player items (the queue grows with it) */
    this.items = [];
    this.total = 0;
    /** @type {(offset: number) => Promise<void>} */
    this.loadMore = async () => {};
    /** Artists' names as the lists gave them, for an artist's heading. @type {Map<string, string>} */
    this.names = new Map();
    /** Which answer may still draw: an older view's arriving late is dropped. */
    this.generation = 0;
    /** What Play all plays: the view's songs from the first that plays here. */
    this.playAll = async () => {
      const first = this.items.findIndex((t) => t.playable !== false);
      if (first >= 0) this.play(this.items, first);
    };
    this.ui.more.addEventListener("click", () => this.loadMore(this.items.length));
    this.ui.playAll.addEventListener("click", () => this.playAll());
  }

  /** Shows the view the address names (the screen was opened, or Back pressed). */
  showFromAddress() {
    // Another screen's address (Now Playing beside it on a wide screen): the view stays as it was.
    const where = libraryView(location.hash) ?? (this.shown ? null : { view: "artists" });
    if (!where) return;
    const key = where.id ? `${where.view}:${where.id}` : where.view;
    if (key === this.shown) return;
    const drilled = Boolean(this.shown);
    // Where the album's Back goes: the artist it was opened from, else Albums.
    const from = this.shown.startsWith("artist:") ? { href: `#library/artist/${this.shown.slice(7)}`, label: this.ui.title.textContent || "Artist" } : null;
    this.shown = key;
    for (const link of this.ui.nav.querySelectorAll("a")) {
      const current = !where.id && link.hash === `#library/${where.view}`;
      if (current) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (where.view === "artist" && where.id) this.artist(where.id);
    else if (where.view === "album" && where.id) this.album(where.id, from);
    else this.list(where.view);
    // Moving within the Library (not opening it): the new view's heading takes the focus.
    if (drilled && document.activeElement?.closest("#screen-library")) this.ui.title.focus({ preventScroll: true });
  }

  /**
   * Starts a view: its heading, where Back goes, and an empty list waiting for its first page.
   * @param {string} title @param {{ back?: { href: string, label: string }, sub?: string, playAll?: boolean }} options
   */
  begin(title, { back, sub = "", playAll = false } = {}) {
    this.generation += 1;
    this.items = [];
    this.total = 0;
    this.ui.title.textContent = title;
    this.ui.sub.textContent = sub;
    this.ui.back.hidden = !back;
    if (back) {
      this.ui.back.href = back.href;
      this.ui.back.querySelector(".dual-browse-back-label").textContent = back.label;
    }
    this.ui.playAll.hidden = !playAll;
    this.ui.playAll.disabled = true;
    this.playAll = async () => {
      const first = this.items.findIndex((t) => t.playable !== false);
      if (first >= 0) this.play(this.items, first);
    };
    this.ui.more.hidden = true;
    this.ui.list.replaceChildren(el("li", { class: "muted" }, "Loading…"));
    return this.generation;
  }

  /**
   * Loads pages of `path` into the list: `draw` makes a row of one entry (with the entries
   * loaded so far, for a track's queue), `map` turns the answer's items into entries.
   * @param {number} generation
   * @param {string} path a catalog route with its query, without limit and offset
   * @param {(entry: any, index: number) => HTMLElement} draw
   * @param {{ empty: string, map?: (item: any) => any, pageSize?: number, loaded?: () => void }} options
   */
  paged(generation, path, draw, { empty, map = (x) => x, pageSize = LIBRARY_PAGE, loaded }) {
    this.loadMore = async (offset) => {
      this.ui.more.disabled = true;
      try {
        const join = path.includes("?") ? "&" : "?";
        const page = await api(`${path}${join}limit=${pageSize}&offset=${offset}`);
        if (generation !== this.generation) return;
        /** @type {any[]} */
        const entries = page.items.map(map);
        // The same array grows: a song played from this list keeps the later pages as its queue.
        const first = this.items.length;
        this.items.push(...entries);
        this.total = page.total;
        if (first === 0) this.ui.list.replaceChildren();
        if (!this.items.length) this.ui.list.replaceChildren(el("li", { class: "muted" }, empty));
        this.ui.list.append(...entries.map((entry, i) => draw(entry, first + i)));
        this.ui.more.hidden = this.items.length >= this.total || !entries.length;
        this.ui.more.textContent = `Show more (${this.total - this.items.length} left)`;
        if (this.items[0]?.kind === "track") this.ui.playAll.disabled = !this.items.some((/** @type {any} */ t) => t.playable !== false);
        loaded?.();
      } catch (error) {
        if (generation !== this.generation) return;
        if (offset === 0) return void showTrouble(this.ui.list, error, () => this.loadMore(offset), "Couldn't load the library.");
        // A later page: the rows loaded stay, the error is the last row.
        const failed = el("li", {});
        this.ui.list.append(failed);
        showTrouble(failed, error, () => { failed.remove(); this.loadMore(offset); }, "Couldn't load more.");
      } finally {
        this.ui.more.disabled = false;
      }
    };
    return this.loadMore(0);
  }

  /** A song's row: tap plays it, the list loaded so far is its queue. */
  trackRow(/** @type {any} */ item, /** @type {number} */ index, /** @type {string} */ sub) {
    const unplayable = item.playable === false;
    return row({
      class: unplayable ? "dual-track unplayable" : "dual-track", title: item.title, sub: unplayable ? `${sub} · not playable here` : sub,
      cover: item.artwork_url, disabled: unplayable, play: () => this.play(this.items, index),
    });
  }

  /** @param {string} view one of LIBRARY_LISTS */
  list(view) {
    const title = LIBRARY_LISTS.find(([name]) => name === view)?.[1] ?? "Artists";
    const generation = this.begin(title);
    if (view === "artists") {
      return this.paged(generation, "/api/v1/catalog/artists", (a) => {
        this.names.set(a.id, a.name);
        return row({
          class: "dual-artist", title: a.name, sub: `${count(a.album_count, "album")} · ${count(a.track_count, "song")}`,
          play: () => (location.hash = `library/artist/${a.id}`),
        });
      }, { empty: "The library is empty: an admin adds its folders." });
    }
    if (view === "albums") {
      return this.paged(generation, "/api/v1/catalog/albums", (a) => this.albumRow(a), { empty: "No albums in the library yet." });
    }
    const newest = view === "recent";
    return this.paged(generation, `/api/v1/catalog/tracks${newest ? "?sort=newest" : ""}`,
      (item, i) => this.trackRow(item, i, [item.subtitle, formatTime(item.duration)].filter(Boolean).join(" · ")),
      { empty: "No songs in the library yet.", map: (t) => ({ ...trackItem(t), duration: t.duration }) });
  }

  /** @param {any} a the contract's Album */
  albumRow(a) {
    return row({
      class: "dual-album", title: a.title || "Unknown album", sub: [a.artist, a.year, count(a.track_count, "song")].filter(Boolean).join(" · "),
      cover: a.artwork_url || undefined, play: () => (location.hash = `library/album/${a.id}`),
    });
  }

  /**
   * An artist's albums, with a button that plays all their songs.
   * @param {string} id
   */
  async artist(id) {
    const generation = this.begin(this.names.get(id) ?? "Artist", { back: { href: "#library/artists", label: "Artists" }, playAll: false });
    if (!this.names.has(id)) {
      // Opened by its address: its name from one of its songs.
      api(`/api/v1/catalog/tracks?artist_id=${id}&limit=1`).then((page) => {
        if (generation === this.generation && page.items[0]) this.ui.title.textContent = page.items[0].artist;
      }).catch(() => {});
    }
    await this.paged(generation, `/api/v1/catalog/albums?artist_id=${id}`, (a) => this.albumRow(a), { empty: "No albums." });
    // Play all: the artist's songs, album by album (their albums are what the list shows).
    if (generation !== this.generation) return;
    this.ui.playAll.hidden = false;
    this.ui.playAll.disabled = !this.items.length;
    this.playAll = async () => {
      try {
        const page = await api(`/api/v1/catalog/tracks?artist_id=${id}&limit=500`);
        const songs = page.items.map(trackItem);
        const first = songs.findIndex((/** @type {any} */ s) => s.playable !== false);
        if (first >= 0 && generation === this.generation) this.play(songs, first);
      } catch (error) {
        showTrouble(this.ui.sub, error, retryable(error) ? () => this.playAll?.() : null, "Couldn't play the artist's songs.");
      }
    };
  }

  /**
   * An album's tracks in disc and track order: Play all, or one (the album is its queue).
   * @param {string} id @param {{ href: string, label: string } | null} from the artist it was opened from
   */
  album(id, from = null) {
    const generation = this.begin("Album", { back: from ?? { href: "#library/albums", label: "Albums" }, playAll: true });
    return this.paged(generation, `/api/v1/catalog/tracks?album_id=${id}`,
      (item, i) => this.trackRow(item, i, [item.track_artist, formatTime(item.duration)].filter(Boolean).join(" · ")),
      {
        empty: "This album has no songs.", pageSize: 100,
        map: (t) => ({ ...trackItem(t), duration: t.duration, track_artist: t.artist, album: t.album, artist: t.album_artist || t.artist }),
        loaded: () => {
          const first = this.items[0];
          if (!first) return;
          this.ui.title.textContent = first.album || "Unknown album";
          this.ui.sub.textContent = [first.artist, count(this.total, "song")].filter(Boolean).join(" · ");
        },
      });
  }
}

