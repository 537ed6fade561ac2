// A coach's screen: open a class (its code for the runners) or follow one, then every runner
// in it live: heart rate, zone, phase, whether their strap is heard, and a runner not heard
// from (their page closed, their phone out of reach) dimmed with how long ago. Mounted on
// its own page (runbeat-coach.js) and as a screen of the trainer, where a workout runs on
// while its runner looks.
import { api, byId, el, errorMessage, formatTime, showActionError } from "/static/js/api.js";
import { reconnectDelay } from "/static/js/live.js";

/**
 * A class as the server tells it (GET /runbeat/classes/{code} and each live message).
 * @typedef {{workout_id: string, runner: string, status: string, bpm: number | null, zone: number | null, strap_live: boolean, sample_age: number | null, phase_kind: string, elapsed: number}} ClassRunner
 * @typedef {{name: string, code: string, runners: ClassRunner[]}} ClassState
 */

/** @type {WebSocket | null} */
let socket = null;
let failures = 0;
/** @type {string | null} the class's code */
let following = null;
/** The class as last heard, and when (this page's clock) each runner's last sample was. */
/** @type {ClassState | null} */
let last = null;
/** @type {Map<string, number>} */
const seenAt = new Map();
/** A runner not heard for this long is shown as stale: dimmed, with how long ago. */
export const STALE_SECONDS = 15;

/**
 * "last seen 40 s ago", "last seen 3 min ago".
 * @param {number} seconds
 */
export function lastSeen(seconds) {
  const s = Math.max(0, Math.round(seconds));
  return s < 120 ? `last seen ${s} s ago` : `last seen ${Math.floor(s / 60)} min ago`;
}

/** @param {ClassState} state */
function heard(state) {
  const now = Date.now();
  for (const r of state.runners) {
    // The server says how old the sample was when it sent this; the age counts on here, on
    // this page's clock, so no two clocks are compared.
    if (r.sample_age != null) seenAt.set(r.workout_id, now - r.sample_age * 1000);
  }
  last = state;
  draw();
}

function draw() {
  const state = last;
  if (!state) return;
  byId("rb-class-title").textContent = `${state.name} · code ${state.code}`;
  byId("rb-class-status").textContent = state.runners.length ? "" : "No runner yet: they enter the code before starting.";
  const now = Date.now();
  byId("rb-runners").replaceChildren(
    ...state.runners.map((r) => {
      const seen = seenAt.get(r.workout_id);
      const age = seen != null ? (now - seen) / 1000 : null;
      const stale = r.status === "running" && age != null && age >= STALE_SECONDS;
      // A stale card is dimmed as a silent strap's is (.silent), and says since when.
      const classes = `rb-runner z${stale ? 0 : (r.zone ?? 0)}${r.strap_live && !stale ? "" : " silent"}${stale ? " stale" : ""}`;
      return el(
        "li",
        { class: classes, dataset: { workout: r.workout_id } },
        el("strong", {}, r.runner),
        el("span", { class: "rb-runner-bpm" }, r.bpm != null ? `${r.bpm} bpm` : "–"),
        el("span", { class: "rb-runner-zone" }, r.zone != null ? (r.zone ? `Zone ${r.zone}` : "Below zone 1") : ""),
        stale ? el("span", { class: "rb-runner-seen" }, `Not heard from: ${lastSeen(age)}`) : "",
        el("span", { class: "muted" }, `${r.phase_kind} · ${formatTime(r.elapsed)}${r.status !== "running" ? ` · ${r.status}` : ""}${r.strap_live ? "" : " · strap silent"}`),
      );
    }),
  );
}


/** @param {string} code */
async function follow(code) {
  following = code.toUpperCase();
  heard(await api(`/api/v1/runbeat/classes/${following}`));
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/api/v1/runbeat/classes/${following}/live`);
  socket.addEventListener("open", () => (failures = 0));
  socket.addEventListener("message", (event) => heard(JSON.parse(String(event.data))));
  socket.addEventListener("close", () => {
    failures += 1;
    byId("rb-class-status").textContent = "Reconnecting…";
    setTimeout(connect, reconnectDelay(failures));
  });
}

let mounted = false;

/**
 * Binds the class form and starts the cards' clock (once).
 * @param {{inPage?: boolean}} options inPage: a screen of the trainer (its address is the trainer's, left alone)
 */
export function mountCoach(options = {}) {
  const inPage = Boolean(options.inPage);
  if (mounted) return;
  mounted = true;
  // Staleness grows with nobody sending anything: the cards are looked at again every second.
  setInterval(draw, 1000);
  const classForm = /** @type {HTMLFormElement} */ (byId("rb-class-form"));
  classForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const opened = await api("/api/v1/runbeat/classes", { method: "POST", body: { name: /** @type {HTMLInputElement} */ (classForm.elements.namedItem("name")).value } });
      if (!inPage) history.replaceState(null, "", `/runbeat/coach?code=${opened.code}`);
      await follow(opened.code);
    } catch (error) {
      showActionError(event.submitter || classForm, errorMessage(error));
    }
  });

  const followButton = byId("rb-follow");
  followButton.addEventListener("click", async () => {
    const code = /** @type {HTMLInputElement} */ (classForm.elements.namedItem("code")).value.trim();
    try {
      await follow(code);
      if (!inPage) history.replaceState(null, "", `/runbeat/coach?code=${code.toUpperCase()}`);
    } catch (error) {
      showActionError(followButton, errorMessage(error));
    }
  });

  const code = inPage ? null : new URLSearchParams(location.search).get("code");
  if (code) follow(code).catch((error) => (byId("rb-class-status").textContent = errorMessage(error)));
}
