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
  const canvas = requiredElement("#rb-summary-chart", HTMLCanvasElement, root);
  const data = { samples: workout.heart_rate, zones: workout.zones, phases: workout.phases, span };
  drawChart(canvas, data);
  redrawOnResize(canvas, data);
  const base = `/runbeat/workouts/${workout.id}`;
  requiredElement(".rb-export-fit", HTMLAnchorElement, root).setAttribute("href", `${base}/export.fit`);
  const tcx = requiredElement(".rb-export-tcx", HTMLAnchorElement, root);
  tcx.setAttribute("href", `${base}/export.tcx`);
  // GPX is a route: offered only for a workout with positions; without, the page says why
  // and points at TCX and FIT (the server refuses the file with no_positions too).
  root.querySelector(".rb-export-gpx")?.remove();
  root.querySelector(".rb-no-gpx")?.remove();
  const exports = tcx.closest("p");
  if (workout.has_positions) {
    tcx.after(el("span", { class: "rb-export-gpx-item" }, " · ", el("a", { class: "rb-export-gpx", download: true, href: `${base}/export.gpx` }, "Export as GPX")));
  } else if (exports) {
    exports.after(el("p", { class: "rb-no-gpx muted" }, "No GPX: GPX is a route, and this workout has no positions (RunBeat records heart rate only). TCX and FIT carry its heart rate."));
  }
}

/** @type {WeakMap<HTMLCanvasElement, Parameters<typeof drawChart>[1]>} */
const drawn = new WeakMap();
/** Canvases drawn again at their new size (shown after being drawn hidden, a phone turned). */
const resized = typeof ResizeObserver === "undefined" ? null : new ResizeObserver((entries) => {
  for (const entry of entries) {
    const canvas = /** @type {HTMLCanvasElement} */ (entry.target);
    const data = drawn.get(canvas);
    if (data && canvas.clientWidth) drawChart(canvas, data);
  }
});

/**
 * A summary drawn while its screen is hidden has no size yet (it would be a 900 px drawing
 * squeezed into the phone's width): it is drawn again once it is shown, and at each resize.
 * @param {HTMLCanvasElement} canvas
 * @param {Parameters<typeof drawChart>[1]} data
 */
function redrawOnResize(canvas, data) {
  drawn.set(canvas, data);
  resized?.observe(canvas);
}
