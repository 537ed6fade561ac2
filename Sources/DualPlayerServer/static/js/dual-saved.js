// What Dual Player keeps on the device, as rules with no browser in them: which items can be
// saved and what comes with each, how their list is read back from storage, and how a save's
// progress and the space used are put in words (dual-device.js does the saving).

/**
 * @typedef {{key: string, player: "music" | "speech", item: any, status: "saving" | "saved" | "failed",
 *   bytes: number, total: number, position: number, saved_at: number, failure?: string, touched_at?: number}} SavedEntry
 * `touched_at`: when a save under way last moved (its start, then each step of its progress).
 */

/** A save that has not moved for this long (ms), and is not this page's, was cut off. */
export const SAVE_STALE_MS = 15_000;

/** What can be saved: files the server holds (a station's live stream cannot). */
const SAVEABLE_KINDS = ["song", "track", "book", "chapter", "episode", "article"];

/** @param {any} item */
export function entryKey(item) {
  return `${item.kind}:${item.id}`;
}

/** @param {any} item */
export function canSave(item) {
  if (!(item && SAVEABLE_KINDS.includes(item.kind) && typeof item.audio_url === "string" && item.audio_url.startsWith("/api/"))) return false;
  // A chapter carries its book, which is what plays it.
  return item.kind !== "chapter" || (Number.isInteger(item.index) && item.book?.id === item.book_id && Array.isArray(item.book?.chapters) && item.index < item.book.chapters.length);
}

/**
 * One chapter of a book, as an item of its own to save: a book is one file on the server, and
 * the server cuts the chapter out of it (`/books/{id}/chapters/{n}/audio`), so that a phone
 * keeps the next chapters of a long book without the whole of it.
 * @param {any} book a book item, with its chapters @param {number} index
 */
export function chapterItem(book, index) {
  const chapter = book.chapters[index];
  return {
    kind: "chapter", id: `${book.id}/${index}`, book_id: book.id, index, title: chapter.title, subtitle: book.title,
    audio_url: `/api/v1/dual/books/${encodeURIComponent(book.id)}/chapters/${index}/audio`, artwork_url: book.artwork_url,
    start: chapter.start, duration: chapter.end - chapter.start, book: keptItem(book),
  };
}

/**
 * The numbers of `bookID`'s chapters saved one by one on the device.
 * @param {SavedEntry[]} entries @param {string} bookID
 * @returns {Set<number>}
 */
export function savedChapters(entries, bookID) {
  return new Set(chapterEntries(entries, bookID).map((e) => e.item.index));
}

/**
 * The book as kept with one of its chapters saved on their own, or null: what opens it with
 * no network when the book itself is not saved.
 * @param {SavedEntry[]} entries @param {string} bookID
 */
export function keptBook(entries, bookID) {
  return chapterEntries(entries, bookID)[0]?.item.book ?? null;
}

/** @param {SavedEntry[]} entries @param {string} bookID */
function chapterEntries(entries, bookID) {
  return entries.filter((e) => e.status === "saved" && e.item.kind === "chapter" && e.item.book_id === bookID);
}

/**
 * The spans a book plays by (see dual-chapters.js): each chapter a stretch of the book's file,
 * except a chapter saved on its own, which is its own file from 0. `offset` is where the
 * span's file starts in the book, so that a position is always the book's time.
 * @param {any} book @param {Set<number>} saved the chapters saved one by one
 * @returns {{file: string, start: number, end: number, offset: number}[]}
 */
export function bookSpans(book, saved) {
  return book.chapters.map((/** @type {any} */ c, /** @type {number} */ i) =>
    saved.has(i)
      ? { file: chapterItem(book, i).audio_url, start: 0, end: c.end - c.start, offset: c.start }
      : { file: book.audio_url, start: c.start, end: c.end, offset: 0 });
}

/**
 * The addresses kept beside the audio, so that an item's picture, chapters, transcript and
 * text come with it offline (the players ask for them as they do online).
 * @param {any} item
 * @returns {string[]}
 */
export function companions(item) {
  const id = encodeURIComponent(item.id);
  const urls = [];
  if (typeof item.artwork_url === "string" && item.artwork_url.startsWith("/api/")) urls.push(item.artwork_url);
  if (item.kind === "track") urls.push(`/api/v1/dual/tracks/${id}/chapters`);
  if (item.kind === "episode") urls.push(`/api/v1/dual/episodes/${id}/chapters`, `/api/v1/dual/episodes/${id}/transcript`);
  if (item.kind === "article") urls.push(`/api/v1/dual/articles/${id}`, `/api/v1/dual/articles/${id}/speech`);
  return urls;
}

/**
 * The addresses to delete when `item` leaves the device: its audio and companions, but not one
 * that another item saved or being saved needs too (a book's cover serves the book and each of
 * its chapters saved on their own).
 * @param {any} item @param {SavedEntry[]} entries
 */
export function forgettable(item, entries) {
  const key = entryKey(item);
  const needed = new Set(entries.filter((e) => e.key !== key && e.status !== "failed").flatMap((e) => [e.item.audio_url, ...companions(e.item)]));
  return [item.audio_url, ...companions(item)].filter((url) => !needed.has(url));
}

/** @param {number} bytes */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes) || bytes < 0) return "0 B";
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/**
 * How far a save has come: "42%" when the size is known, else the bytes so far.
 * @param {{bytes: number, total: number}} entry
 */
export function progressText(entry) {
  return entry.total > 0 ? `${Math.min(100, Math.floor((100 * entry.bytes) / entry.total))}%` : formatBytes(entry.bytes);
}

/**
 * The space line: what Juke's saved items take, and what the browser allows this site.
 * @param {SavedEntry[]} entries
 * @param {{usage?: number, quota?: number} | null} estimate navigator.storage.estimate()
 */
export function spaceText(entries, estimate) {
  const saved = entries.filter((e) => e.status === "saved");
  const ours = saved.reduce((sum, e) => sum + e.bytes, 0);
  const items = `${saved.length} ${saved.length === 1 ? "item" : "items"}`;
  const line = `Saved here: ${formatBytes(ours)} in ${items}.`;
  if (!estimate?.quota) return line;
  const used = estimate.usage ?? 0;
  const share = Math.min(100, (100 * used) / estimate.quota);
  return `${line} This browser lets Juke keep ${formatBytes(estimate.quota)}; ${formatBytes(used)} (${share < 1 ? share.toFixed(1) : Math.round(share)}%) is in use.`;
}

/**
 * The entries from what was stored: malformed ones are dropped, and a save that was under
 * way when its tab closed is a failed one (its bytes may be partial) that can be started again.
 * A save is still under way when this page runs it (its key in `live`) or when it moved in the
 * last `SAVE_STALE_MS` (another tab of Juke's runs it).
 * @param {unknown} stored
 * @param {ReadonlySet<string>} [live]
 * @param {number} [now] ms since the epoch
 * @returns {SavedEntry[]}
 */
export function restoreEntries(stored, live = new Set(), now = Date.now()) {
  if (!Array.isArray(stored)) return [];
  /** @type {SavedEntry[]} */
  const out = [];
  for (const e of stored) {
    if (!e || typeof e.key !== "string" || !canSave(e.item) || entryKey(e.item) !== e.key) continue;
    if (e.player !== "music" && e.player !== "speech") continue;
    if (out.some((o) => o.key === e.key)) continue;
    const moving = Number.isFinite(e.touched_at) && now - e.touched_at < SAVE_STALE_MS;
    const running = e.status === "saving" && (live.has(e.key) || moving);
    const interrupted = e.status === "saving" && !running;
    out.push({
      key: e.key, player: e.player, item: e.item,
      status: running ? "saving" : e.status === "saved" ? "saved" : "failed",
      bytes: Number.isFinite(e.bytes) ? e.bytes : 0, total: Number.isFinite(e.total) ? e.total : 0,
      position: Number.isFinite(e.position) && e.position > 0 ? e.position : 0,
      saved_at: Number.isFinite(e.saved_at) ? e.saved_at : 0,
      failure: interrupted ? "the page closed before it finished" : e.failure,
      touched_at: running && Number.isFinite(e.touched_at) ? e.touched_at : undefined,
    });
  }
  return out;
}

/**
 * A player item as it is kept (a book's chapter keeps its book).
 * @typedef {{kind: string, id: string, title: string, subtitle: string, audio_url: string, artwork_url?: string,
 *   show_id?: string, chapters?: unknown[], duration?: number, book_id?: string, index?: number, start?: number,
 *   book?: KeptItem}} KeptItem
 */

/**
 * A player item as it is kept: what the players need to load it again with no network.
 * @param {any} item
 * @returns {KeptItem}
 */
export function keptItem(item) {
  const kept = {
    kind: item.kind, id: item.id, title: item.title, subtitle: item.subtitle || "", audio_url: item.audio_url,
    artwork_url: item.artwork_url || undefined, show_id: item.show_id || undefined,
    chapters: Array.isArray(item.chapters) ? item.chapters : undefined, duration: item.duration || undefined,
    book_id: item.book_id, index: item.index, start: item.start, book: item.book ? keptItem(item.book) : undefined,
  };
  return JSON.parse(JSON.stringify(kept));
}

/**
 * What a save button says and does for an item in `entry`'s state (none: not saved); `short`
 * for a chapter's row.
 * @param {SavedEntry | undefined} entry @param {boolean} [short]
 * @returns {{text: string, action: "save" | "remove", state: string}}
 */
export function keepButton(entry, short = false) {
  if (!entry) return { text: short ? "Save" : "Save on this device", action: "save", state: "none" };
  if (entry.status === "saving") return { text: short ? `Saving ${progressText(entry)} · Stop` : `Saving… ${progressText(entry)} · Stop`, action: "remove", state: "saving" };
  if (entry.status === "failed") return { text: short ? "Not saved · Try again" : `Not saved (${entry.failure ?? "it failed"}) · Try again`, action: "save", state: "failed" };
  return { text: short ? "Saved · Remove" : "On this device · Remove", action: "remove", state: "saved" };
}

/**
 * How long is left of a saved item from where it was last played: positions are the book's
 * time for a chapter, which begins at `start` in it.
 * @param {any} item @param {number} position
 */
export function timeLeft(item, position) {
  if (!(position > 0) || !item.duration) return 0;
  return Math.max(0, (item.start ?? 0) + item.duration - position);
}
