// Dual Player's "on this device": songs, audiobooks (with their chapters), podcast episodes
// and spoken articles kept in the browser's Cache Storage, to play with no network. The page
// fills the cache (with progress) and lists what it holds in localStorage; the service worker
// serves the kept audio back to the players, online too, so speed, Boost, chapters and the
// lock screen work on a saved item as on any other.
import { DEVICE_CACHE } from "/static/js/service-worker.js";
import { token } from "/static/js/api.js";
import { canSave, companions, entryKey, forgettable, keptItem, restoreEntries } from "./dual-saved.js";

/** @typedef {import("./dual-saved.js").SavedEntry} SavedEntry */

const KEY = "juke_dual_device";
const REMOVE_PLAYED_KEY = "juke_dual_remove_played";

/** The list of saved items (localStorage) and their bytes (Cache Storage). */
export class DeviceShelf {
  /** @param {() => void} onChange called whenever the list or a save's progress changes */
  constructor(onChange) {
    this.onChange = onChange;
    /**
     * Saves under way, by key.
     * @type {Map<string, AbortController>}
     */
    this.saving = new Map();
    this.entries = this.entries;  // tidies what a closed tab left
    // Another tab's save moves on in the shared list: show it here as it goes.
    window.addEventListener("storage", (event) => {
      if (event.key === KEY) this.onChange();
    });
  }

  /**
   * The list as stored; a save under way in this page reads as under way.
   * @returns {SavedEntry[]}
   */
  get entries() {
    try {
      return restoreEntries(JSON.parse(localStorage.getItem(KEY) || "[]"), new Set(this.saving.keys()));
    } catch (_) {
      return [];
    }
  }

  set entries(list) {
    localStorage.setItem(KEY, JSON.stringify(list));
  }

  get removeWhenPlayed() {
    return localStorage.getItem(REMOVE_PLAYED_KEY) === "true";
  }

  set removeWhenPlayed(on) {
    localStorage.setItem(REMOVE_PLAYED_KEY, String(Boolean(on)));
  }

  /** @param {any} item */
  find(item) {
    return item ? this.entries.find((e) => e.key === entryKey(item)) : undefined;
  }

  /** @param {any} item */
  isSaved(item) {
    return this.find(item)?.status === "saved";
  }

  /** @param {string} key @param {(entry: SavedEntry) => SavedEntry} change */
  update(key, change) {
    this.entries = this.entries.map((e) => (e.key === key ? change(e) : e));
    this.onChange();
  }

  /**
   * Saves `item` for the `player` that plays it: its companions first (small), then its audio,
   * counted as it comes. Resolves when it is kept or has failed (the entry says why).
   * @param {any} item @param {"music" | "speech"} player
   */
  async save(item, player) {
    if (!canSave(item) || !("caches" in window)) return;
    const key = entryKey(item);
    if (this.saving.has(key) || this.isSaved(item)) return;
    const abort = new AbortController();
    this.saving.set(key, abort);
    /** @type {SavedEntry} */
    const entry = { key, player, item: keptItem(item), status: "saving", bytes: 0, total: 0, position: this.find(item)?.position ?? 0, saved_at: Date.now(), touched_at: Date.now() };
    this.entries = [...this.entries.filter((e) => e.key !== key), entry];
    this.onChange();
    // Ask once that the browser keep the site's storage when space runs low.
    navigator.storage?.persist?.().catch(() => {});
    try {
      const cache = await caches.open(DEVICE_CACHE);
      const headers = { Authorization: `Bearer ${token()}` };
      for (const url of companions(item)) {
        const response = await fetch(url, { headers, credentials: "same-origin", signal: abort.signal });
        if (response.ok) await cache.put(url, response);
        else await response.body?.cancel();
      }
      const response = await fetch(item.audio_url, { credentials: "same-origin", signal: abort.signal });
      if (!response.ok || !response.body) throw new Error(await refusal(response));
      const total = Number(response.headers.get("Content-Length")) || 0;
      const type = response.headers.get("Content-Type") || "application/octet-stream";
      const [counted, kept] = response.body.tee();
      const stored = cache.put(item.audio_url, new Response(kept, { headers: { "Content-Type": type } }));
      let bytes = 0;
      let shown = 0;
      const reader = counted.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        if (Date.now() - shown > 250) {
          shown = Date.now();
          // Stopped from another tab: the entry is gone from the shared list.
          if (!this.find(item)) abort.abort();
          this.update(key, (e) => ({ ...e, bytes, total, touched_at: shown }));
        }
      }
      await stored;
      // Removed meanwhile (from another tab): its bytes go too.
      if (!this.find(item)) return await this.forget(item);
      this.update(key, (e) => ({ ...e, status: "saved", bytes, total: bytes, failure: undefined, touched_at: undefined }));
    } catch (error) {
      if (this.find(item)) {
        const failure = error instanceof Error && error.name === "QuotaExceededError" ? "this device has no more room for it"
          : abort.signal.aborted ? "stopped"
          : (error instanceof Error && error.message) || "it could not be fetched";
        this.update(key, (e) => ({ ...e, status: "failed", failure }));
      }
      await this.forget(item);
    } finally {
      this.saving.delete(key);
    }
  }

  /**
   * Removes a saved item (or stops its save) and its bytes.
   * @param {any} item
   */
  async remove(item) {
    const key = entryKey(item);
    this.saving.get(key)?.abort();
    this.entries = this.entries.filter((e) => e.key !== key);
    await this.forget(item);
    this.onChange();
  }

  /**
   * Deletes an item's bytes from the cache, but not what another saved item needs too (a
   * book's cover serves the book and each of its chapters saved on their own).
   * @param {any} item
   */
  async forget(item) {
    if (!("caches" in window)) return;
    const cache = await caches.open(DEVICE_CACHE);
    await Promise.all(forgettable(item, this.entries).map((url) => cache.delete(url)));
  }

  /**
   * Where the player is in a saved item, to start there when it is played from the list.
   * @param {any} item a player item, as `find` takes it
   * @param {number} position seconds
   */
  remember(item, position) {
    const entry = this.find(item);
    if (!entry || !Number.isFinite(position) || Math.abs(entry.position - position) < 1) return;
    this.entries = this.entries.map((e) => (e.key === entry.key ? { ...e, position } : e));
  }

  /**
   * The item played to its end: removed when the listener asked for that.
   * @param {any} item
   */
  async played(item) {
    if (this.removeWhenPlayed && this.find(item)) await this.remove(item);
  }

  /** What the browser says this site uses and may use, or null where it cannot say. */
  async estimate() {
    try {
      return (await navigator.storage?.estimate?.()) ?? null;
    } catch (_) {
      return null;
    }
  }
}

/**
 * The server's reason for refusing a file, in words.
 * @param {Response} response
 */
async function refusal(response) {
  try {
    const body = await response.json();
    if (body?.message) return body.message;
  } catch (_) {}
  return `the server answered ${response.status}`;
}
