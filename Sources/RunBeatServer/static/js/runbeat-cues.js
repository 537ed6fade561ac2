// What RunBeat says: the server's cues (the engine decides when) put into words here, so the
// words can change (or be translated) without the engine.
import { phaseName } from "./runbeat-timeline.js";

/**
 * "4 minutes", "90 seconds", "1 minute 30".
 * @param {number} seconds
 */
export function duration(seconds) {
  const s = Math.round(seconds);
  if (s < 120 && s % 60 !== 0) return `${s} seconds`;
  const m = Math.floor(s / 60);
  const rest = s % 60;
  const minutes = `${m} minute${m === 1 ? "" : "s"}`;
  return rest ? `${minutes} ${rest}` : minutes;
}

/**
 * A cue from the server: its kind is "zone", "target", "phase", "strap_silent", "strap_back" or "finished".
 * @typedef {{kind: string, zone?: number, bpm?: number, state?: string, low?: number, high?: number, phase?: string, interval?: number | null, of?: number | null, seconds?: number | null}} Cue
 */

/**
 * The sentence for a cue.
 * @param {Cue} cue the server's cue
 */
export function words(cue) {
  switch (cue.kind) {
    case "zone":
      // The engine's zone 0 is below zone 1: said as the run screen's badge shows it.
      return `${cue.zone ? `Zone ${cue.zone}` : "Below zone 1"}. ${cue.bpm} beats.`;
    case "target":
      if (cue.state === "below") return `Below target: ${cue.bpm}. Pick it up, to ${cue.low}.`;
      if (cue.state === "above") return `Above target: ${cue.bpm}. Ease off, to ${cue.high}.`;
      return `On target. ${cue.bpm} beats.`;
    case "phase": {
      const name = phaseName({ kind: String(cue.phase), interval: cue.interval, intervals: cue.of });
      return cue.seconds ? `${name}. ${duration(cue.seconds)}.` : `${name}.`;
    }
    case "strap_silent":
      return "Heart rate lost. Check your strap.";
    case "strap_back":
      return "Heart rate back.";
    case "finished":
      return "Workout complete. Well done.";
    default:
      return "";
  }
}
