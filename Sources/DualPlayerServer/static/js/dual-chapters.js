// Playing a book chapter by chapter in the browser: the Swift engine's ChapterCursor
// (Sources/DualPlayer/Chapters/ChapterCursor.swift), with the same rules and the same tests
// (Tests/WebClient/dual-chapters.test.js mirrors ChapterCursorTests). Pure: the page reports
// times with the generation it was given, and performs the actions.
//
// Every start, seek and stop makes a new generation, so an end report from before one (a
// seek, a stop, a timer that fired late) is stale and ignored: only the end of what plays
// now advances the book. This is the seed's playbackGeneration counter.

/** @typedef {{ file: string, start: number, end: number, offset?: number }} Span where `offset` is where the file begins in the item (a chapter saved as a file of its own) */
/**
 * @typedef {{ type: "playFrom", file: string, at: number } | { type: "seek", to: number }
 *   | { type: "markPlayed", index: number } | { type: "entered", index: number } | { type: "finished" }} CursorAction
 */

/** How close to a chapter's end counts as its end (players report time in coarse steps). */
export const END_TOLERANCE = 0.05;

/** A finite, non-negative number of seconds, or 0: the seed's safety guard. */
export function sanitized(/** @type {number} */ value) {
  return Number.isFinite(value) && value >= 0 ? value : 0;
}

export class ChapterCursor {
  /** @param {Span[]} chapters never empty @param {number} [index] */
  constructor(chapters, index = 0) {
    if (!chapters.length) throw new Error("a cursor needs at least one chapter");
    this.chapters = chapters;
    this.index = Math.min(Math.max(index, 0), chapters.length - 1);
    this.generation = 0;
    this.stopped = true;
  }

  get current() {
    return this.chapters[this.index];
  }

  /**
   * A time inside `span`, never at its very end (which would end it).
   * @param {number} time
   * @param {Span} span
   */
  clamp(time, span) {
    const latest = Math.max(span.start, span.end - END_TOLERANCE * 2);
    return Math.min(Math.max(time, span.start), latest);
  }

  /**
   * The audio of `file` lasts `duration` seconds: a book whose chapters run past its audio (a
   * file cut shorter than the edition it names) has chapters that are not there. From the
   * first of them on, chapters are left out, and the last one there ends with the audio; a
   * cursor on one that was left out moves to the last one there. Returns whether anything
   * changed. (The server clamps chapters when a book is uploaded; this keeps the player
   * honest with a file whose length only the browser knows.)
   * @param {string} file @param {number} duration
   */
  limit(file, duration) {
    if (!Number.isFinite(duration) || duration <= 0) return false;
    const cut = this.chapters.findIndex((c, i) => i > 0 && c.file === file && c.start >= duration - END_TOLERANCE);
    const kept = (cut > 0 ? this.chapters.slice(0, cut) : this.chapters).map((c) =>
      c.file === file && c.end > duration ? { ...c, end: Math.max(c.start, duration) } : c);
    const changed = kept.length !== this.chapters.length || kept.some((c, i) => c !== this.chapters[i]);
    if (!changed) return false;
    this.chapters = kept;
    if (this.index >= kept.length) {
      this.index = kept.length - 1;
      this.generation += 1;
    }
    return true;
  }

  /**
   * Starts chapter `chapter` at `offset` seconds into it.
   * @returns {CursorAction[]}
   */
  start(/** @type {number} */ chapter, offset = 0) {
    if (!(chapter >= 0 && chapter < this.chapters.length)) return [];
    const previousFile = this.current.file;
    this.index = chapter;
    this.generation += 1;
    this.stopped = false;
    const at = this.clamp(this.current.start + sanitized(offset), this.current);
    return [{ type: "entered", index: this.index }, previousFile === this.current.file ? { type: "seek", to: at } : { type: "playFrom", file: this.current.file, at }];
  }

  /**
   * A seek inside the chapter stays within its bounds.
   * @returns {CursorAction[]}
   */
  seek(/** @type {number} */ time) {
    this.generation += 1;
    return [{ type: "seek", to: this.clamp(sanitized(time), this.current) }];
  }

  stop() {
    this.generation += 1;
    this.stopped = true;
  }

  /**
   * The player says the chapter scheduled under `generation` ended.
   * @returns {CursorAction[]}
   */
  reachedEnd(/** @type {number} */ generation) {
    if (generation !== this.generation || this.stopped) return [];
    return this.advance();
  }

  /**
   * The player's clock, checked against the chapter's end.
   * @returns {CursorAction[]}
   */
  timeUpdate(/** @type {number} */ time, /** @type {number} */ generation) {
    if (generation !== this.generation || this.stopped || !Number.isFinite(time) || time < this.current.end - END_TOLERANCE) return [];
    return this.advance();
  }

  /** @returns {CursorAction[]} */
  advance() {
    const finished = this.index;
    if (this.index + 1 >= this.chapters.length) {
      this.generation += 1;
      this.stopped = true;
      return [{ type: "markPlayed", index: finished }, { type: "finished" }];
    }
    const previous = this.current;
    this.index += 1;
    this.generation += 1;
    const next = this.current;
    // The next virtual chapter of the same file starts where this one ended: playback
    // carries on. Anything else is a load or a jump.
    const carriesOn = previous.file === next.file && Math.abs(previous.end - next.start) < END_TOLERANCE;
    /** @type {CursorAction[]} */
    const move = carriesOn ? [] : previous.file === next.file ? [{ type: "seek", to: next.start }] : [{ type: "playFrom", file: next.file, at: next.start }];
    return [{ type: "markPlayed", index: finished }, { type: "entered", index: this.index }, ...move];
  }
}
