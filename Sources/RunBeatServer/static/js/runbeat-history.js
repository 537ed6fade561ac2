// The history (every workout with its summary, import of FIT/TCX/GPX files) and one
// workout's page (its chart and summary, export, delete with undo).
import { api, bindLogout, byId, el, showActionError } from "/static/js/api.js";
import { droppedNote, renderSummary } from "./runbeat-summary.js";
import { clock } from "./runbeat-timeline.js";

bindLogout();

const main = document.querySelector("main");
/** How long a deleted workout can be restored: the server's undo window (RunBeatService.undoWindow). */
const UNDO_SECONDS = 30;

async function list() {
  const page = await api("/api/v1/runbeat/workouts?limit=200");
  const items = page.workouts.map((w) => {
    const s = w.summary;
    const when = new Date(w.started_at).toLocaleString();
    const facts = [clock(w.seconds), s?.average_heart_rate ? `avg ${s.average_heart_rate} bpm` : null, s?.peak_heart_rate ? `peak ${s.peak_heart_rate}` : null];
    if (s && s.intervals.length) facts.push(`${s.intervals_hit}/${s.intervals.length} intervals hit`);
    if (w.status === "running") facts.push("running");
    if (w.source === "import") facts.push("imported");
    return el("li", { dataset: { workout: w.id } }, el("a", { href: `/runbeat/workouts/${w.id}` }, `${w.name}, ${when}`), el("span", { class: "muted" }, ` · ${facts.filter(Boolean).join(" · ")}`));
  });
  byId("rb-workouts").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "No workouts yet.")]));
}

async function one(id) {
  let workout;
  try {
    workout = await api(`/api/v1/runbeat/workouts/${id}`);
  } catch (error) {
    // Deleted (or never there): say so rather than an empty page.
    byId("rb-workout-title").textContent = "Workout not found";
    main.querySelector(".rb-summary-body").replaceChildren(el("p", { class: "muted" }, error.status === 404 ? "This workout is not in your history (it may have been deleted)." : error.message));
    return;
  }
  byId("rb-workout-title").textContent = `${workout.name}, ${new Date(workout.started_at).toLocaleString()}`;
  renderSummary(main, workout);
  byId("rb-delete").addEventListener("click", async (event) => {
    try {
      await api(`/api/v1/runbeat/workouts/${id}`, { method: "DELETE" });
      // The history says it is gone, with Undo for as long as the server keeps it restorable.
      const until = Date.now() + UNDO_SECONDS * 1000;
      location.assign(`/runbeat/history?deleted=${encodeURIComponent(id)}&until=${until}&name=${encodeURIComponent(workout.name)}`);
    } catch (error) {
      showActionError(event.target, error.message);
    }
  });
}

/** The "deleted · Undo" toast on the history after a delete, until its window ends (a reload within it shows it again). */
function offerUndo() {
  const params = new URLSearchParams(location.search);
  const id = params.get("deleted");
  const until = Number(params.get("until"));
  if (!id || !Number.isFinite(until)) return;
  const forget = () => history.replaceState(null, "", "/runbeat/history");
  const left = until - Date.now();
  if (left <= 0) return forget();
  const name = params.get("name") || "Workout";
  const undo = el("button", { type: "button", class: "btn rb-undo" }, "Undo");
  const toast = el("div", { class: "toast info rb-deleted", role: "status" }, el("span", {}, `Deleted ${name}. `), undo);
  byId("rb-workouts").before(toast);
  const timer = setTimeout(() => {
    toast.remove();
    forget();
  }, left);
  undo.addEventListener("click", async () => {
    try {
      await api(`/api/v1/runbeat/workouts/${encodeURIComponent(id)}/restore`, { method: "POST" });
      clearTimeout(timer);
      forget();
      toast.replaceChildren(el("span", {}, `${name} is back in your workouts.`));
      await list();
    } catch (error) {
      showActionError(undo, error.status === 404 ? "Too late to undo: the workout is gone for good." : error.message);
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
    const note = byId("rb-import-note");
    try {
      const workout = await api(`/api/v1/runbeat/workouts/files?filename=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      const link = el("a", { href: `/runbeat/workouts/${workout.id}` }, workout.name);
      if (workout.existing) {
        note.replaceChildren("Already in your workouts (this file was imported before, so it was not added again): ", link, ".");
      } else {
        const parts = [`: ${workout.samples} heart-rate samples.`];
        if (workout.summary?.dropped_samples) parts.push(` ${droppedNote(workout.summary.dropped_samples)}`);
        if (workout.damage) parts.push(` Read in part: ${workout.damage}`);
        note.replaceChildren("Imported ", link, ...parts);
      }
      event.target.value = "";
      await list();
    } catch (error) {
      showActionError(event.target, error.message);
    }
  });
  offerUndo();
  await list();
}
