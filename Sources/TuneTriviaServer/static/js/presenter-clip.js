// Where the big screen's clip should be at a moment: the room hears the song from the big
// screen, in step with the countdown every phone shows, however late the screen learned
// that the round started (it asks once a second) and whatever its own clock says.

/**
 * The clip's plan now: null when nothing should sound (no round, not playing, time up);
 * else whether it plays (not while the game is paused), the second of the file to be at, and
 * the seconds left.
 * @param {{phase: string, clip_start: number, clip_ends_at_ms?: number, clip_seconds_left?: number} | null | undefined} round
 * @param {string} status the game's status
 * @param {number} seconds the clip's length (the game's seconds per song)
 * @param {number} serverNow the server's clock now, milliseconds (this page's plus server-clock.js's offset)
 * @returns {{playing: boolean, at: number, left: number} | null}
 */
export function clipPlan(round, status, seconds, serverNow) {
  if (!round || round.phase !== "playing") return null;
  let left;
  if (round.clip_seconds_left != null) left = round.clip_seconds_left;
  else if (round.clip_ends_at_ms != null) left = (round.clip_ends_at_ms - serverNow) / 1000;
  else return null;
  left = Math.min(left, seconds);
  if (left <= 0) return null;
  return { playing: status === "active", at: round.clip_start + (seconds - left), left };
}

/**
 * Whether the audio has strayed far enough from where the plan says it should be to seek:
 * a small lag (the file still loading, a poll arriving late) is not worth an audible jump.
 * @param {number} current the audio element's currentTime
 * @param {number} planned the plan's `at`
 * @param {number} [tolerance] seconds
 */
export function drifted(current, planned, tolerance = 1) {
  return !Number.isFinite(current) || Math.abs(current - planned) > tolerance;
}
