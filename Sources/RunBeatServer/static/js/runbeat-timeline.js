// Where a workout is: the phase at a moment, its time left, what comes next. The page keeps
// its own timeline (the server's may be out of reach mid-run), from the phases the server
// gave at the start: each with its start and length in seconds (length null: open).

/**
 * @typedef {{kind: string, start: number, seconds: number | null, low?: number | null, high?: number | null, interval?: number | null, intervals?: number | null}} Phase
 */

/**
 * The phase running `elapsed` seconds in: its index (phases.length once a timed plan is over)
 * and the seconds left in it (null in an open phase).
 * @param {Phase[]} phases
 * @param {number} elapsed
 */
export function phaseAt(phases, elapsed) {
  for (let index = 0; index < phases.length; index++) {
    const phase = phases[index];
    if (phase.seconds == null) return { index, left: null };
    const end = phase.start + phase.seconds;
    if (elapsed < end) return { index, left: end - elapsed };
  }
  return { index: phases.length, left: 0 };
}

/**
 * The whole plan's length in seconds, or null when it is open.
 * @param {Phase[]} phases
 */
export function totalSeconds(phases) {
  let total = 0;
  for (const phase of phases) {
    if (phase.seconds == null) return null;
    total += phase.seconds;
  }
  return total;
}

/** @type {Record<string, string>} */
const NAMES = { warmup: "Warm-up", work: "Work", recovery: "Recovery", cooldown: "Cool-down", free: "Free training" };

/**
 * A phase's name as the screen shows it ("Work 2 of 4").
 * @param {{kind: string, interval?: number | null, intervals?: number | null} | undefined} phase
 */
export function phaseName(phase) {
  if (!phase) return "Done";
  const name = NAMES[phase.kind] || phase.kind;
  return phase.interval ? `${name} ${phase.interval} of ${phase.intervals}` : name;
}

/**
 * The zone of a heart rate: 0 below zone 1, 1 to 5 by the zones' lows.
 * @param {{zone: number, low: number, high: number}[]} zones
 * @param {number} bpm
 */
export function zoneOf(zones, bpm) {
  let zone = 0;
  for (const z of zones) if (bpm >= z.low) zone = z.zone;
  return zone;
}
