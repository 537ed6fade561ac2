// A finished workout, as the trainer's summary and the history's workout page show it.
import { el, formatTime, requiredElement } from "/static/js/api.js";
import { drawChart } from "./runbeat-chart.js";
import { phaseName } from "./runbeat-timeline.js";
import { droppedNote, wholeSeconds, zoneRows } from "./runbeat-zone-time.js";

export { droppedNote };

/**
 * @param {Element} root
 * @param {import("./runbeat-types.js").WorkoutDetail} workout the workout with its heart_rate samples
 */
export function renderSummary(root, workout) {
  const s = workout.summary;
  const body = requiredElement(".rb-summary-body", HTMLElement, root);
  const facts = [
    ["Workout", workout.name],
    ["Time", formatTime(workout.seconds)],
    ["Average heart rate", s?.average_heart_rate != null ? `${s.average_heart_rate} bpm` : "–"],
    ["Peak heart rate", s?.peak_heart_rate != null ? `${s.peak_heart_rate} bpm` : "–"],
  ];
  if (s && s.intervals.length) facts.push(["Intervals hit", `${s.intervals_hit} of ${s.intervals.length}`]);
  const rows = s ? zoneRows(s) : [];
  const total = rows.reduce((a, r) => a + r.seconds, 0);
  const shown = wholeSeconds(
    rows.map((r) => r.seconds),
    workout.seconds,
  );
  body.replaceChildren(
    el("dl", { class: "rb-facts" }, ...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    el(
      "table",
      { class: "rb-zone-time" },
      el("caption", {}, "Time in each zone"),
      ...rows.map((row, i) => {
        // The bar's width is set through the CSSOM: a style="" attribute is inline style,
        // which the page's Content-Security-Policy (style-src 'self') refuses.
        const bar = el("span", { class: "rb-bar", "aria-hidden": "true" });
        bar.style.width = `${total ? (100 * row.seconds) / total : 0}%`;
        return el(
          "tr",
          { class: `z${row.zone}` },
          el("th", { scope: "row" }, row.label),
          el("td", { class: "rb-zone-seconds", dataset: { seconds: String(shown[i]) } }, formatTime(shown[i])),
          el("td", {}, bar),
        );
      }),
    ),
    s && s.intervals.length
      ? el(
          "ol",
          { class: "rb-intervals", "aria-label": "Intervals" },
          ...s.intervals.map((interval) =>
            el(
              "li",
              { class: interval.hit ? "hit" : "missed" },
              `${phaseName(workout.phases[interval.phase])}: ${interval.hit ? "hit" : "missed"}, ${formatTime(interval.in_target_seconds)} in ${interval.low}–${interval.high} bpm` +
                (interval.average_heart_rate ? `, average ${interval.average_heart_rate} bpm` : ""),
            ),
          ),
        )
      : "",
    s?.dropped_samples ? el("p", { class: "muted rb-dropped" }, droppedNote(s.dropped_samples)) : "",
    workout.damage ? el("p", { class: "muted" }, `Read in part: ${workout.damage}`) : "",
  );
  const span = Math.max(workout.seconds, workout.heart_rate.length ? workout.heart_rate[workout.heart_rate.length - 1].t : 0, 1);
  drawChart(requiredElement("#rb-summary-chart", HTMLCanvasElement, root), { samples: workout.heart_rate, zones: workout.zones, phases: workout.phases, span });
  const base = `/runbeat/workouts/${workout.id}`;
  requiredElement(".rb-export-fit", HTMLAnchorElement, root).setAttribute("href", `${base}/export.fit`);
  const tcx = requiredElement(".rb-export-tcx", HTMLAnchorElement, root);
  tcx.setAttribute("href", `${base}/export.tcx`);
  // GPX beside TCX (the page draws FIT and TCX; GPX came later): made once, here.
  let gpx = root.querySelector(".rb-export-gpx");
  if (!gpx) {
    gpx = /** @type {HTMLAnchorElement} */ (el("a", { class: "rb-export-gpx", download: true }, "Export as GPX"));
    tcx.after(" · ", gpx);
  }
  gpx.setAttribute("href", `${base}/export.gpx`);
}
