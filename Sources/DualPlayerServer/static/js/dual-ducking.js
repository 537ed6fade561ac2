// Ducking between sentences: whether speech is talking, judged from its loudness. The same
// rule as the engine's SpeechActivity (Sources/DualPlayer/Players/SpeechActivity.swift), held
// to the same table (Tests/DualPlayerTests/Fixtures/speech-gaps.json).

export const SENTENCE_GAP = 0.3;
export const BELOW_PEAK = 20;
export const SILENCE = -55;
export const PEAK_DECAY = 6;

/**
 * Talking starts the moment the level rises above the threshold; a gap starts once it has
 * stayed below for SENTENCE_GAP seconds (word gaps do not reach it, sentence pauses do). The
 * threshold is BELOW_PEAK dB under the recent peak, never under SILENCE.
 */
export class SpeechActivity {
  constructor() {
    this.talking = false;
    this.peak = -30;
    /** @type {number | null} */
    this.quietSince = null;
    /** @type {number | null} */
    this.lastTime = null;
  }

  get threshold() {
    return Math.max(SILENCE, this.peak - BELOW_PEAK);
  }

  /**
   * One level reading (dBFS) at `time` seconds; returns whether speech is talking.
   * @param {number} time
   * @param {number} level
   */
  sample(time, level) {
    if (!Number.isFinite(time)) return this.talking;
    const db = Number.isNaN(level) ? -Infinity : Math.min(level, 0);
    const elapsed = this.lastTime === null ? 0 : Math.max(0, time - this.lastTime);
    this.lastTime = time;
    this.peak = Math.max(db, this.peak - PEAK_DECAY * elapsed, SILENCE + BELOW_PEAK);
    if (db > this.threshold) {
      this.talking = true;
      this.quietSince = null;
    } else {
      if (this.quietSince === null) this.quietSince = time;
      if (time - this.quietSince >= SENTENCE_GAP - 1e-6) this.talking = false;
    }
    return this.talking;
  }
}

/**
 * The level of a block of samples in dBFS (root mean square); -Infinity for silence.
 * @param {Float32Array} samples
 */
export function levelDB(samples) {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  return rms > 0 ? 20 * Math.log10(rms) : -Infinity;
}
