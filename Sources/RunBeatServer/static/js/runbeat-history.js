// The history (every workout with its summary, import of FIT/TCX/GPX files) and one
// workout's page (its chart and summary, export, delete with undo).
import { api, APIError, bindLogout, byId, el, errorMessage, formatTime, requiredElement, showActionError } from "/static/js/api.js";
import { renderSummary } from "./runbeat-summary.js";
import { listWorkouts, mountHistory } from "./runbeat-history-view.js";
import { showRunningWorkout } from "./runbeat-running-bar.js";

bindLogout();

/** @typedef {import("./runbeat-types.js").Workout} Workout */

const main = requiredElement("main", HTMLElement);
/** How long a deleted workout can be restored: the server's undo window (RunBeatService.undoWindow). */
const UNDO_SECONDS = 30;

/** @param {string} id */
async function one(id) {
  /** @type {import("./runbeat-types.js").WorkoutDetail} */
  let workout;
  try {
    workout = await api(`/api/v1/runbeat/workouts/${id}`);
  } catch (error) {
    // Deleted (or never there): say so rather than an empty page.
    byId("rb-workout-title").textContent = "Workout not found";
    const gone = error instanceof APIError && error.status === 404;
    requiredElement(".rb-summary-body", HTMLElement, main).replaceChildren(el("p", { class: "muted" }, gone ? "This workout is not in your history (it may have been deleted)." : errorMessage(error)));
    return;
  }
  byId("rb-workout-title").textContent = `${workout.name}, ${new Date(workout.started_at).toLocaleString()}`;
  renderSummary(main, workout);
  const remove = byId("rb-delete");
  remove.addEventListener("click", async () => {
    try {
      await api(`/api/v1/runbeat/workouts/${id}`, { method: "DELETE" });
      // The history says it is gone, with Undo for as long as the server keeps it restorable.
      const until = Date.now() + UNDO_SECONDS * 1000;
      location.assign(`/runbeat/history?deleted=${encodeURIComponent(id)}&until=${until}&name=${encodeURIComponent(workout.name)}`);
    } catch (error) {
      showActionError(remove, errorMessage(error));
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
      await listWorkouts();
    } catch (error) {
      showActionError(undo, error instanceof APIError && error.status === 404 ? "Too late to undo: the workout is gone for good." : errorMessage(error));
    }
  });
}

const id = main?.getAttribute("data-workout");
showRunningWorkout();
if (id) {
  await one(id);
} else {
  offerUndo();
  await mountHistory();
}
