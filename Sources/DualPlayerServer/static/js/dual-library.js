// The music player's Library screen, browsed as in any player: Artists, Albums, Songs and
// Recently added, then an artist's albums and an album's tracks (play all, or one: the album
// is the queue). Lists are the platform's long lists (catalog-list.js, as on Juke's home
// page): fetched a page at a time as the person scrolls, with an A-Z index for artists and
// albums, and the albums' order, genre and decade. Where the screen is follows the address
// (#library/artist/<id>, #library/albums?sort=year), so Back returns (dual-library-address.js
// reads it).
import { api, el, formatTime } from "/static/js/api.js";
import { PagedList, albumToolbar, letterAtTop, letterRail } from "/static/js/catalog-list.js";
import { DEFAULT_STATE, albumsQuery, artistsQuery, effectiveSort, letterOf, readState, sortHasLetters, writeState } from "/static/js/catalog-order.js";
import { LIBRARY_LISTS, libraryView } from "./dual-library-address.js";
import { row } from "./dual-rows.js";
import { count } from "./dual-words.js";
import { retryable, showTrouble } from "./dual-trouble.js";

/** @typedef {import("/static/js/catalog-order.js").ListState} ListState */

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
      playAll: q(".dual-play-all"), body: q(".dual-browse-body"),
    };
    /** The view shown ("artists" …, "albums?sort=year", or "artist:<id>"). */
    this.shown = "";
    /** @type {PagedList | null} the list on show */
    this.list = null;
    /** @type {ReturnType<typeof letterRail> | null} */
    this.rail = null;
    /** Artists' names as the lists gave them, for an artist's heading. @type {Map<string, string>} */
    this.names = new Map();
    /** Which view may still act: an older view's answer arriving late is dropped. */
    this.generation = 0;
    /** What Play all plays: the view's songs from the first that plays here. */
    this.playAll = async () => {
      const items = this.items;
      const first = items.findIndex((t) => t.playable !== false);
      if (first >= 0) this.play(items, first);
    };
    this.ui.playAll.addEventListener("click", () => this.playAll());
  }

  /** The rows loaded so far (a list of songs is its own queue, and grows with it). @returns {any[]} */
  get items() {
    return this.list?.items ?? [];
  }

  /** Shows the view the address names (the screen was opened, or Back pressed). */
  showFromAddress() {
    // Another screen's address (Now Playing beside it on a wide screen): the view stays as it was.
    const where = libraryView(location.hash) ?? (this.shown ? null : { view: "artists", query: "" });
    if (!where) return;
    const key = where.id ? `${where.view}:${where.id}` : `${where.view}?${where.query ?? ""}`;
    if (key === this.shown) return;
    const drilled = Boolean(this.shown);
    // Where the album's Back goes: the artist it was opened from, else Albums.
    const from = this.shown.startsWith("artist:") ? { href: `#library/artist/${this.shown.slice(7)}`, label: this.ui.title.textContent || "Artist" } : null;
    this.shown = key;
    this.markNav(where.id ? "" : where.view);
    if (where.view === "artist" && where.id) this.artist(where.id);
    else if (where.view === "album" && where.id) this.album(where.id, from);
    else this.showList(where.view, readState(new URLSearchParams(where.query ?? "")));
    // Moving within the Library (not opening it): the new view's heading takes the focus.
    if (drilled && document.activeElement?.closest("#screen-library")) this.ui.title.focus({ preventScroll: true });
  }

  /** @param {string} view the list whose chip is current ("" for none) */
  markNav(view) {
    for (const link of this.ui.nav.querySelectorAll("a")) {
      if (view && link.hash === `#library/${view}`) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
  }

  /**
   * A list's address, as its state is: `replace` for a letter (the same list moved: Back
   * leaves the list rather than stepping through the letters picked).
   * @param {string} view @param {ListState} state @param {{ replace?: boolean }} [how]
   */
  go(view, state, how = {}) {
    const params = view === "albums" ? writeState(state) : new URLSearchParams(state.letter ? { letter: state.letter } : {});
    const address = `#library/${view}${[...params.keys()].length ? `?${params}` : ""}`;
    if (!how.replace) {
      location.hash = address;
      return;
    }
    const focused = this.rail?.element.contains(document.activeElement);
    history.replaceState(history.state, "", address);
    this.shown = `${view}?${params}`;
    this.showList(view, state);
    if (focused) this.rail?.element.focus({ preventScroll: true });
    this.ui.body.scrollIntoView({ block: "nearest" });
  }

  /**
   * Starts a view: its heading, where Back goes, and its body (a toolbar, the list, an A-Z
   * index beside it) with the list waiting for its first page.
   * @param {string} title
   * @param {{ back?: { href: string, label: string }, sub?: string, playAll?: boolean, toolbar?: Node | null,
   *   letters?: { current: string, pick: (letter: string) => void, label: string } | null }} [options]
   * @returns {{ generation: number, list: PagedList }}
   */
  begin(title, options = {}) {
    const { back, sub = "", playAll = false, toolbar = null, letters = null } = options;
    this.generation += 1;
    this.list?.close();
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
      const items = this.items;
      const first = items.findIndex((t) => t.playable !== false);
      if (first >= 0) this.play(items, first);
    };
    this.rail = letters ? letterRail({ label: letters.label, pick: letters.pick }) : null;
    this.rail?.mark(letters?.current || "#");
    const host = el("div", { class: "dual-browse-list" });
    const from = letters?.current
      ? el("p", { class: "catalog-from" }, `From ${letters.current} `,
        el("button", { type: "button", class: "btn btn-ghost btn-s", onclick: () => letters.pick("#") }, "Back to the top"))
      : null;
    // The list scrolls in its own box, so the uploads below it stay in reach however long it
    // is; the A-Z index stands beside the box, as tall as it.
    const scroller = el("div", { class: "dual-browse-scroller catalog-main" }, from, host);
    const browse = el("div", { class: `catalog-browse dual-browse-box${letters ? " with-rail" : ""}` }, scroller, this.rail?.element ?? null);
    this.ui.body.replaceChildren(...[toolbar, browse].filter((n) => n !== null));
    this.list = new PagedList(host, { listClass: "list", label: title, pageSize: LIBRARY_PAGE, scroller });
    if (letters) {
      let queued = false;
      scroller.addEventListener("scroll", () => {
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          const letter = letterAtTop(host, scroller.getBoundingClientRect().top);
          if (letter) this.rail?.mark(letter);
        });
      }, { passive: true });
    }
    return { generation: this.generation, list: this.list };
  }

  /** A song's row: tap plays it, the list loaded so far is its queue. */
  trackRow(/** @type {any} */ item, /** @type {number} */ index, /** @type {string} */ sub) {
    const unplayable = item.playable === false;
    return row({
      class: unplayable ? "dual-track unplayable" : "dual-track", title: item.title, sub: unplayable ? `${sub} · not playable here` : sub,
      cover: item.artwork_url, disabled: unplayable, play: () => this.play(this.items, index),
    });
  }

  /**
   * One of the Library's lists.
   * @param {string} view one of LIBRARY_LISTS
   * @param {ListState} state the albums' order and filter, the letter a list starts at
   */
  showList(view, state = { ...DEFAULT_STATE }) {
    const title = LIBRARY_LISTS.find(([name]) => name === view)?.[1] ?? "Artists";
    if (view === "albums") {
      const sort = effectiveSort(state);
      const { list } = this.begin(title, {
        toolbar: albumToolbar(state, (next) => this.go("albums", next)),
        letters: sortHasLetters(sort)
          ? { current: state.letter, label: "Jump to a letter of the albums", pick: (letter) => this.go("albums", { ...state, letter: letter === "#" ? "" : letter }, { replace: true }) }
          : null,
      });
      list.what = ["album", "albums"];
      return list.start({
        path: "/api/v1/catalog/albums", query: albumsQuery(state),
        empty: state.genre || state.decade !== null ? "No albums match." : "No albums in the library yet.",
        draw: (a) => this.albumRow(a, sort === "name" ? a.title : a.artist),
      });
    }
    if (view === "artists" || !LIBRARY_LISTS.some(([name]) => name === view)) {
      const { list } = this.begin("Artists", {
        letters: { current: state.letter, label: "Jump to a letter of the artists", pick: (letter) => this.go("artists", { ...DEFAULT_STATE, letter: letter === "#" ? "" : letter }, { replace: true }) },
      });
      list.what = ["artist", "artists"];
      return list.start({
        path: "/api/v1/catalog/artists", query: artistsQuery(state.letter), empty: "The library is empty: an admin adds its folders.",
        draw: (a) => {
          this.names.set(a.id, a.name);
          return row({
            class: "dual-artist", title: a.name, sub: `${count(a.album_count, "album")} · ${count(a.track_count, "song")}`,
            play: () => (location.hash = `library/artist/${a.id}`), dataset: { letter: letterOf(a.name) },
          });
        },
      });
    }
    const { list } = this.begin(title);
    const newest = view === "recent";
    list.what = ["song", "songs"];
    return list.start({
      path: "/api/v1/catalog/tracks", query: new URLSearchParams(newest ? { sort: "newest" } : {}), empty: "No songs in the library yet.",
      map: (t) => ({ ...trackItem(t), duration: t.duration }),
      draw: (item, i) => this.trackRow(item, i, [item.subtitle, formatTime(item.duration)].filter(Boolean).join(" · ")),
    });
  }

  /** @param {any} a the contract's Album @param {string} [orderedBy] the name its list is ordered by (its letter) */
  albumRow(a, orderedBy) {
    return row({
      class: "dual-album", title: a.title || "Unknown album", sub: [a.artist, a.year, count(a.track_count, "song")].filter(Boolean).join(" · "),
      cover: a.artwork_url || undefined, play: () => (location.hash = `library/album/${a.id}`),
      dataset: orderedBy === undefined ? {} : { letter: letterOf(orderedBy) },
    });
  }

  /**
   * An artist's albums, with a button that plays all their songs.
   * @param {string} id
   */
  async artist(id) {
    const { generation, list } = this.begin(this.names.get(id) ?? "Artist", { back: { href: "#library/artists", label: "Artists" }, playAll: false });
    if (!this.names.has(id)) {
      // Opened by its address: its name from one of its songs.
      api(`/api/v1/catalog/tracks?artist_id=${id}&limit=1`).then((page) => {
        if (generation === this.generation && page.items[0]) this.ui.title.textContent = page.items[0].artist;
      }).catch(() => {});
    }
    list.what = ["album", "albums"];
    await list.start({ path: "/api/v1/catalog/albums", query: new URLSearchParams({ artist_id: id }), empty: "No albums.", draw: (a) => this.albumRow(a) });
    // Play all: the artist's songs, album by album (their albums are what the list shows).
    if (generation !== this.generation) return;
    this.ui.playAll.hidden = false;
    this.ui.playAll.disabled = !list.items.length;
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
    const { generation, list } = this.begin("Album", { back: from ?? { href: "#library/albums", label: "Albums" }, playAll: true });
    list.pageSize = 100;
    list.what = ["song", "songs"];
    return list.start({
      path: "/api/v1/catalog/tracks", query: new URLSearchParams({ album_id: id }), empty: "This album has no songs.",
      map: (t) => ({ ...trackItem(t), duration: t.duration, track_artist: t.artist, album: t.album, artist: t.album_artist || t.artist }),
      draw: (item, i) => this.trackRow(item, i, [item.track_artist, formatTime(item.duration)].filter(Boolean).join(" · ")),
      onPage: () => {
        const first = list.items[0];
        if (generation !== this.generation) return;
        this.ui.playAll.disabled = !list.items.some((/** @type {any} */ t) => t.playable !== false);
        if (!first) return;
        this.ui.title.textContent = first.album || "Unknown album";
        this.ui.sub.textContent = [first.artist, count(list.total, "song")].filter(Boolean).join(" · ");
      },
    });
  }
}
