// Where reading an article stopped (its chapter and word), kept for the server. Pure: the
// page's Articles (dual-articles.js) sends what this says, and the tests read it as it does
// (Tests/WebClient/dual-reading.test.js).

import { lastStartedBy } from "./dual-transcript.js";

/** @typedef {{ id: string, chapter: number, word: number }} ReadingPosition */

/**
 * The chapter and word of a spoken article at `time` seconds into its audio: the sentence
 * heard then, or between two, the one just heard (before the first, the first); null when
 * there is nothing to say.
 * @param {{ start: number, chapter: number, word: number }[]} cues in time order
 * @param {number} time
 */
export function positionAt(cues, time) {
  if (!cues.length || !Number.isFinite(time)) return null;
  // Before the first sentence, the first.
  const found = Math.max(0, lastStartedBy(cues, time));
  return { chapter: cues[found].chapter, word: cues[found].word };
}

/**
 * Sends reading positions at most every `every` ms while they change (a word at a time, four
 * times a second while listening), and at once when asked to (a pause, a seek, the page
 * leaving). What the limit held back is kept, never dropped: the next send, or a flush,
 * carries the newest.
 */
export class PositionSaver {
  /** @param {(position: ReadingPosition) => void} send @param {number} every @param {() => number} [clock] */
  constructor(send, every, clock = Date.now) {
    this.send = send;
    this.every = every;
    this.clock = clock;
    /** @type {ReadingPosition | null} */
    this.pending = null;
    /** @type {ReadingPosition | null} */
    this.sent = null;
    this.sentAt = -Infinity;
  }

  /**
   * A position reached: sent now when `now` or when the last send is old enough, else kept.
   * @param {ReadingPosition} position
   */
  offer(position, now = false) {
    const s = this.sent;
    if (s && s.id === position.id && s.chapter === position.chapter && s.word === position.word) {
      this.pending = null;
      return;
    }
    this.pending = position;
    if (now || this.clock() - this.sentAt >= this.every) this.flush();
  }

  /** Sends the position held back, if there is one. */
  flush() {
    const position = this.pending;
    if (!position) return;
    this.pending = null;
    this.sent = position;
    this.sentAt = this.clock();
    this.send(position);
  }
}
