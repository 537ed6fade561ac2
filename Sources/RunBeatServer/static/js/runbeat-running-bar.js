// On RunBeat's other pages (the history page, a workout's, the coach's): a workout still
// running says so at the top, with the way back to it. The run goes on on the server; the
// trainer picks it up where it is.
import { api, el } from "/static/js/api.js";

export async function showRunningWorkout() {
  /** @type {import("./runbeat-types.js").Workout} */
  let workout;
  try {
    workout = await api("/api/v1/runbeat/workouts/running");
  } catch {
    return;  // none running (404), or offline: nothing to say
  }
  const main = document.getElementById("main");
  if (!main || main.querySelector(".rb-live-bar")) return;
  main.prepend(
    el(
      "a",
      { class: "rb-live-bar", href: "/runbeat#run" },
      el("span", { class: "rb-live-dot", "aria-hidden": "true" }),
      el("span", {}, `Workout running: ${workout.name}`),
      el("span", { class: "rb-live-back" }, "Back to it"),
    ),
  );
}
