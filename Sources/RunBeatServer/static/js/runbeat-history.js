// The history (every workout with its summary, import of FIT/TCX/GPX files) and one
// workout's page (its chart and summary, export, delete).
import { api, bindLogout, byId, el, showActionError } from "/static/js/api.js";
import { renderSummary } from "./runbeat-summary.js";
import { clock } from "./runbeat-timeline.js";

bindLogout();

const main = document.querySelector("main");

async function list() {
  const page = await api("/api/v1/runbeat/workouts?limit=200");
  const items = page.workouts.map((w) => {
    const s = w.summary;
    const when = new Date(w.started_at).toLocaleString();
    const facts = [clock(w.seconds), s?.average_heart_rate ? `avg ${s.average_heart_rate} bpm` : null, s?.peak_heart_rate ? `peak ${s.peak_heart_rate}` : null];
    if (s && s.intervals.length) facts.push(`${s.intervals_hit}/${s.intervals.length} intervals hit`);
    if (w.status === "running") facts.push("running");
    if (w.source === "import") facts.push("imported");
    return el("li", {}, el("a", { href: `/runbeat/workouts/${w.id}` }, `${w.name}, ${when}`), el("span", { class: "muted" }, ` · ${facts.filter(Boolean).join(" · ")}`));
  });
  byId("rb-workouts").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "No workouts yet.")]));
}

async function one(id) {
  const workout = await api(`/api/v1/runbeat/workouts/${id}`);
  byId("rb-workout-title").textContent = `${workout.name}, ${new Date(workout.started_at).toLocaleString()}`;
  renderSummary(main, workout);
  byId("rb-delete").addEventListener("click", async (event) => {
    try {
      await api(`/api/v1/runbeat/workouts/${id}`, { method: "DELETE" });
      location.assign("/runbeat/history");
    } catch (error) {
      showActionError(event.target, error.message);
    }
  });
}

const id = main?.getAttribute("data-workout");
if (id) {
  await one(id);
} else {
  byId("rb-import-file").addEventListener("change", async (event) => {
    const file = event.target.files?.[0];
    if (!file) return;
    try {
      const workout = await api(`/api/v1/runbeat/workouts/files?filename=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      byId("rb-import-note").textContent = `Imported ${workout.name}: ${workout.samples} heart-rate samples.` + (workout.damage ? ` Read in part: ${workout.damage}` : "");
      await list();
    } catch (error) {
      showActionError(event.target, error.message);
    }
  });
  await list();
}
