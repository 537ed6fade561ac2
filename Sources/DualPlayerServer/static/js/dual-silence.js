// Skip silence for the speech player: speech's pauses (judged as ducking judges them, by
// SpeechActivity) play faster, so a show with long gaps takes less time without cutting a
// word. Pure: levels in, the speed factor and the time saved out.
import { SpeechActivity } from "./dual-ducking.js";

/** How much faster a pause plays. */
export const PAUSE_FACTOR = 3;

export class SilenceSkipper {
  constructor(factor = PAUSE_FACTOR) {
    this.factor = factor;
    this.activity = new SpeechActivity();
    this.skipping = false;
    /** Wall-clock seconds saved so far. */
    this.saved = 0;
    /** @type {number | null} */
    this.last = null;
  }

  /**
   * One level reading (dBFS) at `time` seconds of the page's clock; returns the factor to
   * multiply the player's speed by now (1 while speech talks).
   * @param {number} time @param {number} level
   */
  sample(time, level) {
    if (this.skipping && this.last !== null && time > this.last) {
      // A pause played at factor× took 1/factor of its time.
      this.saved += (time - this.last) * (this.factor - 1);
    }
    this.last = time;
    this.skipping = !this.activity.sample(time, level);
    return this.skipping ? this.factor : 1;
  }
}
