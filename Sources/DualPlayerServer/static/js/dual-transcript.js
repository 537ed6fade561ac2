// A transcript in time with the audio: which cue is spoken at a moment (the same rule as the
// Swift Transcript.cueIndex: the last cue started at or before the time, while it lasts).

/**
 * The index of the cue to highlight at `time` seconds, or -1 between cues and before the first.
 * @param {{start: number, end: number}[]} cues in time order
 * @param {number} time
 */
export function cueAt(cues, time) {
  const found = lastStartedBy(cues, time);
  if (found < 0) return -1;
  // A cue without an end lasts until the next; one that ended leaves a gap.
  return time < cues[found].end || cues[found].end <= cues[found].start ? found : -1;
}

/**
 * The index of the last cue started at or before `time` (binary search), or -1 before the
 * first or for a time that is not a number.
 * @param {{start: number}[]} cues in time order
 * @param {number} time
 */
export function lastStartedBy(cues, time) {
  if (!Number.isFinite(time)) return -1;
  let low = 0;
  let high = cues.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (cues[mid].start <= time) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}
