// The strap's notifications as the page reads them: Bluetooth's Heart Rate Measurement
// (0x2A37) and Battery Level (0x2A19). The same rules as the engine's HeartRateMeasurement
// (Swift), tested against the same vectors (Tests/RunBeatTests/Traces/hrm-vectors.json);
// the page shows what it reads at once, and sends the raw bytes for the server to judge.

/**
 * @typedef {{bpm: number, contact: "not_supported" | "not_detected" | "detected", energy: number | null, rr: number[]}} Measurement
 */

/**
 * Reads one notification. Throws with what is missing when it is cut short.
 * @param {Uint8Array | number[]} bytes
 * @returns {Measurement}
 */
export function parseMeasurement(bytes) {
  if (bytes.length === 0) throw new Error("the measurement is empty");
  const flags = bytes[0];
  let i = 1;
  /** @param {number} count @param {string} what */
  const take = (count, what) => {
    if (i + count > bytes.length) throw new Error(`the measurement ends before its ${what}`);
    let value = 0;
    for (let k = 0; k < count; k++) value |= bytes[i + k] << (8 * k);
    i += count;
    return value;
  };
  const bpm = take(flags & 0x01 ? 2 : 1, "heart rate");
  const bits = (flags >> 1) & 0x03;
  const contact = bits === 0b10 ? "not_detected" : bits === 0b11 ? "detected" : "not_supported";
  const energy = flags & 0x08 ? take(2, "energy expended") : null;
  /** @type {number[]} */
  const rr = [];
  if (flags & 0x10) {
    // A trailing odd byte is half an interval: the strap's fault, not the reader's.
    while (i + 2 <= bytes.length) rr.push(take(2, "RR interval") / 1024);
  }
  return { bpm, contact, energy, rr };
}

/**
 * Whether a measurement is a heart rate at all (a strap off the skin sends 0, or a stale value).
 * @param {{bpm: number, contact: string}} m
 */
export function isUsable(m) {
  return m.bpm >= 25 && m.bpm <= 250 && m.contact !== "not_detected";
}

/** @param {Uint8Array | number[]} bytes */
export function parseBattery(bytes) {
  return bytes.length > 0 && bytes[0] <= 100 ? bytes[0] : null;
}

/** @param {Uint8Array | number[]} bytes */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
