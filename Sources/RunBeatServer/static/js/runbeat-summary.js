// A finished workout, as the trainer's summary and the history's workout page show it.
import { el } from "/static/js/api.js";
import { drawChart } from "./runbeat-chart.js";
import { clock, phaseName } from "./runbeat-timeline.js";

/** @param {Element} root @param {any} workout the workout with its heart_rate samples */
export function renderSummary(root, workout) {
  const s = workout.summary;
  const body = root.querySelector(".rb-summary-body");
  const rows = [
    ["Workout", workout.name],
    ["Time", clock(workout.seconds)],
    ["Average heart rate", s?.average_heart_rate != null ? `${s.average_heart_rate} bpm` : "–"],
    ["Peak heart rate", s?.peak_heart_rate != null ? `${s.peak_heart_rate} bpm` : "–"],
  ];
  if (s && s.intervals.length) rows.push(["Intervals hit", `${s.intervals_hit} of ${s.intervals.length}`]);
  const total = s ? s.zone_seconds.reduce((a, b) => a + b, 0) + s.below_zones_seconds : 0;
  body.replaceChildren(
    el("dl", { class: "rb-facts" }, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])),
    el(
      "table",
      { class: "rb-zone-time" },
      el("caption", {}, "Time in each zone"),
      ...(s
        ? s.zone_seconds.map((seconds, i) =>
            el(
              "tr",
              { class: `z${i + 1}` },
              el("th", { scope: "row" }, `Zone ${i + 1}`),
              el("td", {}, clock(seconds)),
              el("td", {}, el("span", { class: "rb-bar", style: `width: ${total ? (100 * seconds) / total : 0}%` })),
            ),
          )
        : []),
    ),
    s && s.intervals.length
      ? el(
          "ol",
          { class: "rb-intervals", "aria-label": "Intervals" },
          ...s.intervals.map((interval) =>
            el(
              "li",
              { class: interval.hit ? "hit" : "missed" },
              `${phaseName(workout.phases[interval.phase])}: ${interval.hit ? "hit" : "missed"}, ${clock(interval.in_target_seconds)} in ${interval.low}–${interval.high} bpm` +
                (interval.average_heart_rate ? `, average ${interval.average_heart_rate} bpm` : ""),
            ),
          ),
        )
      : "",
    workout.damage ? el("p", { class: "muted" }, `Read in part: ${workout.damage}`) : "",
  );
  const span = Math.max(workout.seconds, workout.heart_rate.length ? workout.heart_rate[workout.heart_rate.length - 1].t : 0, 1);
  drawChart(root.querySelector("#rb-summary-chart"), { samples: workout.heart_rate, zones: workout.zones, phases: workout.phases, span });
  root.querySelector(".rb-export-fit").setAttribute("href", `/runbeat/workouts/${workout.id}/export.fit`);
  root.querySelector(".rb-export-tcx").setAttribute("href", `/runbeat/workouts/${workout.id}/export.tcx`);
}
