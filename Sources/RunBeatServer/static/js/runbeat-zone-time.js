// A workout's time in each zone as the summary lists it: every second in one row, so the
// rows add up to the workout's length (a summary whose zones made 28:00 of a 38:00 run left
// ten minutes below zone 1 unsaid).

/**
 * The rows: below zone 1, zones 1 to 5, above zone 5 and no heart rate (the last two only
 * when there is any).
 * @param {import("./runbeat-types.js").Summary} s the workout's summary
 * @returns {{label: string, zone: number, seconds: number}[]}
 */
export function zoneRows(s) {
  const rows = [{ label: "Below zone 1", zone: 0, seconds: s.below_zones_seconds }];
  s.zone_seconds.forEach((seconds, i) => rows.push({ label: `Zone ${i + 1}`, zone: i + 1, seconds }));
  if ((s.above_zones_seconds ?? 0) > 0) rows.push({ label: "Above zone 5", zone: 5, seconds: s.above_zones_seconds ?? 0 });
  if ((s.no_heart_rate_seconds ?? 0) > 0) rows.push({ label: "No heart rate", zone: 0, seconds: s.no_heart_rate_seconds ?? 0 });
  return rows;
}

/**
 * Whole seconds for parts of a length that add up to its whole seconds (largest remainder):
 * rows rounded one by one could show 37:59 of a 38:00 workout.
 * @param {number[]} parts seconds, each >= 0
 * @param {number} total the length they make up
 * @returns {number[]}
 */
export function wholeSeconds(parts, total) {
  const whole = parts.map((p) => Math.floor(Math.max(0, p)));
  let left = Math.max(0, Math.floor(total)) - whole.reduce((a, b) => a + b, 0);
  const order = parts.map((p, i) => ({ i, rest: Math.max(0, p) - whole[i] })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    whole[i] += 1;
    left -= 1;
  }
  return whole;
}

/**
 * "12 samples outside 30–240 bpm left out (…)", or "" when none were.
 * @param {number | null | undefined} count
 */
export function droppedNote(count) {
  if (!count) return "";
  return `${count} sample${count === 1 ? "" : "s"} outside 30–240 bpm left out (no heart beats that fast or that slow: a damaged file or a strap without contact).`;
}
