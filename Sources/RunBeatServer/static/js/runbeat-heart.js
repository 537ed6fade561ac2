// Whether the Run screen still has a heart rate to show. A strap that goes quiet leaves its
// last number behind; after a few seconds of the workout without a sample that number is
// no one's heart rate now, so the screen says the heart rate is lost instead (the server
// says so aloud a little later, by its own rule). Pure (node --test).

/** Workout seconds without a sample before the screen stops showing the last one. */
export const HEART_LOST_SECONDS = 5;

/**
 * @param {number | null} lastSampleAt the workout second of the last sample (null: none yet)
 * @param {number} startedAt the workout second the screen began waiting for samples
 * @param {number} now the workout second now
 * @returns {boolean} true when the heart rate is lost
 */
export function heartLost(lastSampleAt, startedAt, now) {
  return now - (lastSampleAt ?? startedAt) >= HEART_LOST_SECONDS;
}
