// The history's list of workouts and its import of FIT/TCX/GPX files: on the history page
// (runbeat-history.js) and as a screen of the trainer, where a workout runs on while its
// runner looks (there a workout opens on the Summary screen, not another page).
import { api, byId, el, errorMessage, formatTime, showActionError } from "/static/js/api.js";
import { droppedNote } from "./runbeat-summary.js";

/** @typedef {import("./runbeat-types.js").Workout} Workout */

/**
 * The list, drawn again.
 * @param {((id: string) => void) | null} [open] opens a workout in place (the trainer); null: a link to its page
 */
export async function listWorkouts(open = null) {
  /** @type {{workouts: Workout[]}} */
  const page = await api("/api/v1/runbeat/workouts?limit=200");
  const items = page.workouts.map((w) => {
    const s = w.summary;
    const when = new Date(w.started_at).toLocaleString();
    const facts = [formatTime(w.seconds), s?.average_heart_rate ? `avg ${s.average_heart_rate} bpm` : null, s?.peak_heart_rate ? `peak ${s.peak_heart_rate}` : null];
    if (s && s.intervals.length) facts.push(`${s.intervals_hit}/${s.intervals.length} intervals hit`);
    if (w.status === "running") facts.push("running");
    if (w.source === "import") facts.push("imported");
    const link = el("a", { href: `/runbeat/workouts/${w.id}` }, `${w.name}, ${when}`);
    if (open && w.status !== "running") {
      link.addEventListener("click", (/** @type {MouseEvent} */ event) => {
        event.preventDefault();
        open(w.id);
      });
    }
    return el("li", { dataset: { workout: w.id } }, link, el("span", { class: "muted" }, ` · ${facts.filter(Boolean).join(" · ")}`));
  });
  byId("rb-workouts").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "No workouts yet.")]));
}

let mounted = false;

/**
 * Binds the import form (once) and draws the list.
 * @param {((id: string) => void) | null} [open] as for listWorkouts
 */
export async function mountHistory(open = null) {
  if (!mounted) {
    mounted = true;
    const picker = /** @type {HTMLInputElement} */ (byId("rb-import-file"));
    picker.addEventListener("change", async () => {
      const file = picker.files?.[0];
      if (!file) return;
      const note = byId("rb-import-note");
      try {
        /** @type {Workout} */
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
        picker.value = "";
        await listWorkouts(open);
      } catch (error) {
        showActionError(picker, errorMessage(error));
      }
    });
  }
  await listWorkouts(open);
}
