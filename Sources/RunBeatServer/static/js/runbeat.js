// RunBeat's trainer, as screens: Profile (the runner's heart and zones), Workout (the plan
// and each phase's music), Run (the strap, then the run: big numbers, the chart, cues spoken
// over ducked music, the screen kept on, a pause, one protected way to end), Summary.
import { api, APIError, bindLogout, byId, el, errorMessage, formatTime, NetworkError, requiredElement, showActionError, token } from "/static/js/api.js";
import { ScreenWakeLock } from "/static/js/wake-lock.js";
import { drawChart } from "./runbeat-chart.js";
import { WorkoutClock } from "./runbeat-clock.js";
import { holdButton } from "./runbeat-hold.js";
import { Screens } from "./runbeat-screens.js";
import { words } from "./runbeat-cues.js";
import { LiveLink } from "./runbeat-live.js";
import { PhaseMusic } from "./runbeat-music.js";
import { SampleBuffer } from "./runbeat-samples.js";
import { SpotifyPanel, callbackOutcome, spotifyLine } from "./runbeat-spotify.js";
import { BluetoothStrap, ReplayStrap, SimulatedStrap } from "./runbeat-strap.js";
import { phaseAt, phaseName, totalSeconds, zoneOf } from "./runbeat-timeline.js";
import { renderSummary } from "./runbeat-summary.js";
import { heartLost } from "./runbeat-heart.js";
import { mountHistory } from "./runbeat-history-view.js";
import { mountCoach } from "./runbeat-coach-view.js";

bindLogout();

const RUN_KEY = "runbeat-run";
/** The running workout and the samples the server has not acknowledged, kept on the device. */
const BACKLOG_KEY = "runbeat-backlog";
const PHASES = ["warmup", "work", "recovery", "cooldown"];
/** @type {Record<string, string>} */
const PHASE_LABELS = { warmup: "Warm-up", work: "Work intervals", recovery: "Recovery", cooldown: "Cool-down" };

/**
 * @typedef {import("./runbeat-types.js").Profile} Profile
 * @typedef {import("./runbeat-types.js").Plan} Plan
 * @typedef {import("./runbeat-types.js").MusicChoice} MusicChoice
 * @typedef {import("./runbeat-types.js").Workout} Workout
 * @typedef {import("./runbeat-types.js").WorkoutDetail} WorkoutDetail
 * @typedef {import("./runbeat-types.js").Recording} Recording
 * @typedef {"bluetooth" | "simulated" | "replay"} Source
 * @typedef {{id: string, source: Source, speed: number, offset: number, wallOrigin: number, paused?: boolean}} SavedRun the run kept for a reloaded page
 * @typedef {{workout: Workout, run: SavedRun | null, said_offline?: boolean, acked: number, next_seq: number, pending: unknown[]}} Backlog
 * @typedef {{name: string, total_seconds?: number | null}} PlanName
 */

/**
 * What the server says on the run's live connection (the ones the page acts on).
 * @typedef {{type: "cue", cue: import("./runbeat-cues.js").Cue}
 *   | ({type: "spotify"} & Parameters<typeof spotifyLine>[0])
 *   | {type: "strap", live: boolean}
 *   | {type: "finished", workout_id: string}
 *   | {type: "heart", bpm: number, t: number}
 *   | {type: "hello", status: string, role?: "recorder" | "viewer"}} ServerMessage
 */

/**
 * @type {{
 *   profile: Profile | null, plans: Plan[], planId: string, source: Source | null,
 *   bluetooth: BluetoothStrap | null, recording: Recording | null, workout: Workout | null,
 *   clock: WorkoutClock | null, buffer: SampleBuffer | null, link: LiveLink | null,
 *   strap: BluetoothStrap | SimulatedStrap | ReplayStrap | null, music: PhaseMusic | null,
 *   spotify: SpotifyPanel, samples: {t: number, bpm: number}[], phaseIndex: number,
 *   timers: ReturnType<typeof setInterval>[], finishing: boolean, saidOffline: boolean,
 *   strapText: string, summaryShown: string | null,
 *   lastSampleAt: number | null, waitingSince: number, heartLost: boolean, viewer: boolean,
 * }}
 */
const state = {
  profile: null,
  plans: [],
  planId: "vo2max_4x4",
  source: null,  // "bluetooth" | "simulated" | "replay"
  bluetooth: null,
  recording: null,
  workout: null,
  clock: null,
  buffer: null,
  link: null,
  strap: null,
  music: null,
  spotify: new SpotifyPanel(requiredElement(".rb-spotify", HTMLElement), () => drawMusic()),
  samples: [],
  phaseIndex: -1,
  timers: [],
  finishing: false,
  saidOffline: false,
  /** What the strap itself last said, shown again when the server hears it again. */
  strapText: "",
  /** The summary shown (the last workout, or the one just finished). */
  summaryShown: null,
  /** The workout second of the last sample, the one the screen began waiting at, and whether the heart rate is lost. */
  lastSampleAt: null,
  waitingSince: 0,
  heartLost: false,
  /** Another page (a second tab, another device) records this run: this one watches it. */
  viewer: false,
};

/**
 * This page's own id on the run's live connection: the same page reconnecting records on;
 * another page (a second tab) is told it watches. One per page load, never shared.
 */
const PAGE_ID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

/** The screen stays on while a workout runs. */
const wakeLock = new ScreenWakeLock();

/** @param {string} text */
const note = (text) => (byId("rb-note").textContent = text);
/**
 * A note about the run itself: on the Run screen only, and gone when the run ends.
 * @param {string} text
 */
const runNote = (text) => (byId("rb-run-note").textContent = text);
const screens = new Screens(byId("main"), "run", (screen) => {
  if (screen === "summary") showLastSummary();
  if (screen === "run") frame();
  // The history and a class are screens here too: a workout runs on while its runner looks.
  if (screen === "history") mountHistory(openWorkout).catch((error) => note(errorMessage(error)));
  if (screen === "coach") mountCoach({ inPage: true });
  drawLiveBar();
});

/**
 * A workout from the history, on the Summary screen.
 * @param {string} id
 */
async function openWorkout(id) {
  try {
    drawSummary(await api(`/api/v1/runbeat/workouts/${id}`));
    screens.open("summary");
  } catch (error) {
    note(errorMessage(error));
  }
}

/** The bar that says a workout runs (and leads back to it) on every screen but the run's. */
function drawLiveBar() {
  const bar = document.getElementById("rb-live-bar");
  if (!bar) return;
  const running = current();
  const shown = Boolean(running && !state.finishing && screens.current !== "run");
  bar.hidden = !shown;
  if (shown && running) {
    const text = `Workout running · ${formatTime(running.clock.elapsed())}${running.clock.paused ? " · paused" : ""}`;
    const label = byId("rb-live-bar-text");
    if (label.textContent !== text) label.textContent = text;
  }
}

// --- Set-up ---------------------------------------------------------------------------------

/** The profile, loaded before anything shows it or changes it. */
function loadedProfile() {
  if (!state.profile) throw new Error("Your profile has not loaded yet.");
  return state.profile;
}

/** The workout under way and what it runs with (all set together by `run`), or null. */
function current() {
  const { workout, clock, buffer, link } = state;
  return workout && clock && buffer && link ? { workout, clock, buffer, link } : null;
}

/** The profile form, drawn by the server. */
const profileForm = /** @type {HTMLFormElement} */ (byId("rb-profile"));

async function loadProfile() {
  state.profile = await api("/api/v1/runbeat/profile");
  drawProfile();
}

function drawProfile() {
  const p = loadedProfile();
  const form = profileForm;
  form.age.value = p.age;
  form.resting.value = p.resting;
  form.max.value = p.max ?? "";
  form.formula.value = p.formula;
  requiredElement(".rb-maximum", HTMLElement, form).textContent = `Maximum used: ${p.maximum} bpm${p.max ? " (measured)" : " (estimated)"}.`;
  byId("rb-auto-zones").checked = !p.manual_zones;
  const body = requiredElement(".rb-zones tbody", HTMLTableSectionElement);
  if (body.rows.length !== p.zones.length) {
    body.replaceChildren(
      ...p.zones.map((zone, i) =>
        el(
          "tr",
          { class: `rb-zone-row z${zone.zone}` },
          el("th", { scope: "row" }, `Zone ${zone.zone}`),
          el("td", {}, boundInput(i)),
          el("td", { class: "rb-zone-high" }, i === 4 ? boundInput(5) : ""),
        ),
      ),
    );
  }
  // Updated in place, never drawn again: the bound being stepped with the arrow keys keeps
  // the focus (and its caret) while each step is saved.
  p.zones.forEach((zone, i) => {
    if (i < 4) requiredElement(".rb-zone-high", HTMLElement, body.rows[i]).textContent = `${zone.high} bpm`;
  });
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (body.querySelectorAll(".rb-bound"))) {
    const index = Number(input.dataset.bound);
    const [low, high] = p.bound_ranges[index];
    input.min = String(low);
    input.max = String(high);
    const value = String(index === 5 ? p.zones[4].high : p.zones[index].low);
    if (input.value !== value) input.value = value;
  }
}

/**
 * An editable bound (its range, set by drawProfile, keeps both zones it divides 5 bpm wide).
 * @param {number} index
 */
function boundInput(index) {
  return el("input", {
    type: "number",
    class: "rb-bound",
    "aria-label": `Zone bound ${index + 1}`,
    dataset: { bound: String(index) },
    onchange: () => saveBounds(),
  });
}

let savingBounds = false;
let boundsChanged = false;

/**
 * Saves the bounds as the table shows them. Steps taken while a save is on its way go in
 * one more save after it, so the saves arrive in order and the last one shown is the last kept.
 */
async function saveBounds() {
  boundsChanged = true;
  if (savingBounds) return;
  savingBounds = true;
  try {
    while (boundsChanged) {
      boundsChanged = false;
      const bounds = [...document.querySelectorAll(".rb-zones .rb-bound")].map((input) => Number(/** @type {HTMLInputElement} */ (input).value));
      state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body: { ...profileBody(), zones: bounds } });
    }
    requiredElement(".rb-zones-note", HTMLElement).textContent = "Your own zones are saved.";
  } catch (error) {
    // The table shows what is saved again; the note says why the change was refused.
    boundsChanged = false;
    requiredElement(".rb-zones-note", HTMLElement).textContent = errorMessage(error);
  } finally {
    savingBounds = false;
    drawProfile();
  }
}

/** The six bounds of the zones shown: each zone's low, then zone 5's high. */
function currentBounds() {
  const zones = loadedProfile().zones;
  return [...zones.map((z) => z.low), zones[4].high];
}

function profileBody() {
  const form = profileForm;
  /** @type {{age: number, resting: number, formula: string, max?: number, zones?: number[], automatic_zones?: boolean}} */
  const body = { age: Number(form.age.value), resting: Number(form.resting.value), formula: form.formula.value };
  if (form.max.value) body.max = Number(form.max.value);
  return body;
}

profileForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body: profileBody() });
    drawProfile();
    await loadPlans();
  } catch (error) {
    showActionError(event.submitter || profileForm, errorMessage(error));
  }
});

const autoZones = /** @type {HTMLInputElement} */ (byId("rb-auto-zones"));
autoZones.addEventListener("change", async () => {
  const body = profileBody();
  if (autoZones.checked) body.automatic_zones = true;
  else body.zones = currentBounds();
  state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body });
  drawProfile();
});

async function loadPlans() {
  /** @type {{plans: Plan[]}} */
  const list = await api("/api/v1/runbeat/plans");
  state.plans = list.plans;
  const group = requiredElement(".rb-plans", HTMLElement);
  group.replaceChildren(
    ...state.plans.map((plan) =>
      el(
        "label",
        { class: "rb-plan" },
        el("input", {
          type: "radio",
          name: "plan",
          value: plan.id,
          checked: plan.id === state.planId,
          onchange: () => {
            state.planId = plan.id;
            drawChosenPlan();
          },
        }),
        ` ${plan.name}`,
        el("span", { class: "muted" }, plan.total_seconds ? ` · ${formatTime(plan.total_seconds)}` : " · as long as you like"),
      ),
    ),
  );
  drawChosenPlan();
}

/** The Run screen names the workout it will start (chosen on the Workout screen). */
function drawChosenPlan() {
  const plan = state.plans.find((p) => p.id === state.planId);
  byId("rb-chosen-plan").textContent = plan ? `${plan.name}${plan.total_seconds ? ` · ${formatTime(plan.total_seconds)}` : ""}` : "–";
}

const builder = /** @type {HTMLFormElement} */ (byId("rb-builder"));
builder.addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = builder;
  /** @param {string} kind @param {number} seconds @param {number | null} zone */
  const phase = (kind, seconds, zone) => (zone ? { kind, seconds, target_kind: "zones", target_low: zone, target_high: zone } : { kind, seconds });
  const steps = [];
  if (Number(f.warmup.value) > 0) steps.push({ repeats: 1, phases: [phase("warmup", Number(f.warmup.value) * 60, 1)] });
  steps.push({
    repeats: Number(f.repeats.value),
    phases: [phase("work", Number(f.work.value), Number(f.workzone.value)), phase("recovery", Number(f.recovery.value), Number(f.recoveryzone.value))],
  });
  if (Number(f.cooldown.value) > 0) steps.push({ repeats: 1, phases: [phase("cooldown", Number(f.cooldown.value) * 60, null)] });
  try {
    const name = /** @type {HTMLInputElement} */ (f.elements.namedItem("name")).value;
    /** @type {Plan} */
    const plan = await api("/api/v1/runbeat/plans", { method: "POST", body: { name, steps } });
    state.planId = plan.id;
    await loadPlans();
    const details = f.closest("details");
    if (details) details.open = false;
  } catch (error) {
    showActionError(event.submitter || f, errorMessage(error));
  }
});

function drawMusic() {
  const box = requiredElement(".rb-music", HTMLElement);
  const music = loadedProfile().music;
  box.replaceChildren(
    ...PHASES.map((kind) => {
      const choice = music[kind];
      const offerSpotify = state.spotify.connected || choice.mode === "spotify";
      const select = el(
        "select",
        { id: `rb-music-${kind}`, "aria-label": `${PHASE_LABELS[kind]} music`, onchange: () => saveMusic(kind, select.value, choice.track_ids) },
        el("option", { value: "auto", selected: choice.mode === "auto" }, "Juke picks by tempo"),
        el("option", { value: "tracks", selected: choice.mode === "tracks" }, `My songs (${choice.track_ids.length})`),
        el("option", { value: "none", selected: choice.mode === "none" }, "No music"),
        ...(offerSpotify ? [el("option", { value: "spotify", selected: choice.mode === "spotify" }, "A Spotify playlist")] : []),
      );
      const name = el("label", { for: `rb-music-${kind}`, class: "rb-music-name" }, PHASE_LABELS[kind]);
      if (choice.mode === "spotify") {
        return el("div", { class: "rb-music-phase", dataset: { phase: kind } }, name, select, playlistPicker(kind, choice));
      }
      const search = /** @type {HTMLInputElement} */ (el("input", { type: "search", placeholder: "Add a song…", "aria-label": `Add a song to ${PHASE_LABELS[kind]}` }));
      const results = el("ul", { class: "rb-song-results" });
      search.addEventListener("change", async () => {
        if (!search.value.trim()) return;
        /** @type {{items: {id: string, title: string, artist: string}[]}} */
        let page;
        try {
          page = await api(`/api/v1/catalog/search?q=${encodeURIComponent(search.value.trim())}&limit=8`);
        } catch (error) {
          showActionError(search, errorMessage(error));
          return;
        }
        results.replaceChildren(
          ...page.items.map((track) =>
            el(
              "li",
              {},
              el("button", { type: "button", onclick: () => saveMusic(kind, "tracks", [...choice.track_ids, track.id]) }, `+ ${track.title} · ${track.artist}`),
            ),
          ),
        );
      });
      return el("div", { class: "rb-music-phase", dataset: { phase: kind } }, name, select, search, results);
    }),
  );
}

/**
 * The runner's Spotify playlists for a phase set to Spotify (loaded once, page by page).
 * @param {string} kind
 * @param {MusicChoice} choice
 */
function playlistPicker(kind, choice) {
  /** @type {HTMLSelectElement} */
  const picker = el(
    "select",
    {
      "aria-label": `${PHASE_LABELS[kind]} Spotify playlist`,
      onchange: () => {
        const option = picker.selectedOptions[0];
        if (option?.value) saveMusic(kind, "spotify", choice.track_ids, { id: option.value, name: (option.textContent ?? "").replace(/ \(\d+\)$/, "") });
      },
    },
    el("option", { value: "" }, choice.spotify_playlist_id ? "" : "Choose a playlist…"),
  );
  if (choice.spotify_playlist_id) {
    picker.firstElementChild?.replaceWith(el("option", { value: choice.spotify_playlist_id, selected: true }, choice.spotify_playlist_name || "Spotify playlist"));
  }
  if (state.spotify.connected) {
    state.spotify
      .playlists()
      .then((list) => {
        for (const playlist of list) {
          if (playlist.id === choice.spotify_playlist_id) continue;
          picker.append(el("option", { value: playlist.id }, `${playlist.name} (${playlist.track_count})`));
        }
      })
      .catch((error) => showActionError(picker, errorMessage(error)));
  } else {
    picker.after?.(el("span", { class: "muted" }, " Spotify is not connected: Juke's pick plays."));
  }
  return picker;
}

/**
 * Saves a phase's music.
 * @param {string} kind the phase
 * @param {string} mode
 * @param {string[]} trackIds
 * @param {{id: string, name: string} | null} [playlist] the Spotify playlist just chosen
 */
async function saveMusic(kind, mode, trackIds, playlist = null) {
  const profile = loadedProfile();
  const before = profile.music[kind];
  const chosen = playlist || (before.spotify_playlist_id ? { id: before.spotify_playlist_id, name: before.spotify_playlist_name } : null);
  // All of them: a phase that is full is the server's to refuse, out loud, not the page's to cut.
  /** @type {MusicChoice} */
  const choice = { mode, track_ids: trackIds };
  if (chosen) Object.assign(choice, { spotify_playlist_id: chosen.id, spotify_playlist_name: chosen.name });
  if (mode === "spotify" && !chosen) {
    // The playlist comes next, from the picker; until then the phase keeps what it had.
    profile.music = { ...profile.music, [kind]: { ...before, mode: "spotify" } };
    drawMusic();
    return;
  }
  const music = { ...profile.music, [kind]: choice };
  for (const phase of PHASES) if (music[phase].mode === "spotify" && !music[phase].spotify_playlist_id) music[phase] = { ...music[phase], mode: "auto" };
  try {
    state.profile = await api("/api/v1/runbeat/profile/music", { method: "PUT", body: music });
    drawMusic();
  } catch (error) {
    // The phase shows what is saved again, and beside it why the choice was not kept.
    drawMusic();
    showActionError(byId(`rb-music-${kind}`), `Not changed: ${errorMessage(error)}`);
  }
}

// --- The strap ------------------------------------------------------------------------------

/** @param {string} text */
const strapStatus = (text) => (byId("rb-strap-status").textContent = text);

/**
 * A Bluetooth strap chosen by the runner (a browser asks for a tap each time).
 * @param {HTMLElement} button the button used
 */
async function connectBluetooth(button) {
  if (!BluetoothStrap.available()) {
    showActionError(button, "This browser has no Web Bluetooth (Chrome on Android, desktop Chrome or Edge do). Try the simulated strap.");
    return;
  }
  const strap = new BluetoothStrap({ onSample: (bpm, hex) => onSample(bpm, hex), onStatus: (text) => strapStatus(text) });
  try {
    await strap.connect();
    state.bluetooth = strap;
    state.source = "bluetooth";
    if (state.workout) {
      state.strap = strap;
      strap.onStatus = strapLive;
      byId("rb-reconnect-strap").hidden = true;
    }
  } catch (error) {
    showActionError(button, errorMessage(error) || "No strap was chosen.");
  }
}
for (const id of ["rb-bluetooth", "rb-reconnect-strap"]) {
  const button = byId(id);
  button.addEventListener("click", () => connectBluetooth(button));
}

byId("rb-simulate").addEventListener("click", () => {
  state.source = "simulated";
  strapStatus("Simulated strap: a heart that follows the plan.");
});

const replayFile = /** @type {HTMLInputElement} */ (byId("rb-replay"));
replayFile.addEventListener("change", async () => {
  const file = replayFile.files?.[0];
  if (!file) return;
  try {
    /** @type {Recording} */
    const recording = await api("/api/v1/runbeat/recordings", { method: "POST", body: file });
    state.recording = recording;
    state.source = "replay";
    strapStatus(
      `Replay: ${recording.heart_rate.length} samples over ${formatTime(recording.seconds)} (${recording.format.toUpperCase()})` +
        (recording.damage ? `; ${recording.damage}` : ""),
    );
  } catch (error) {
    showActionError(replayFile, errorMessage(error));
  }
});

// --- The run --------------------------------------------------------------------------------

// --- Before the first workout: the runner's heart ------------------------------------------

const welcome = /** @type {HTMLFormElement} */ (byId("rb-welcome"));
welcome.addEventListener("submit", async (event) => {
  event.preventDefault();
  /** @type {{age: number, resting: number, formula: string, max?: number}} */
  const body = { age: Number(welcome.age.value), resting: Number(welcome.resting.value), formula: "fox" };
  if (welcome.max.value) body.max = Number(welcome.max.value);
  try {
    state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body });
    drawProfile();
    note(`Saved: your zones follow a maximum of ${loadedProfile().maximum} bpm.`);
    screens.open("run");
  } catch (error) {
    showActionError(event.submitter || welcome, errorMessage(error));
  }
});

/** Whether the runner still has to give their heart (the profile is the default one). */
function needsWelcome() {
  return Boolean(state.profile && !state.profile.set_up);
}

const startButton = byId("rb-start");
startButton.addEventListener("click", async () => {
  if (needsWelcome()) {
    note("Before your first workout: your age and heart rates, so that your zones are yours.");
    screens.open("welcome");
    return;
  }
  if (!state.source) {
    showActionError(startButton, "Connect a strap, or pick the simulated strap or a recording, first.");
    return;
  }
  const classCode = byId("rb-class").value.trim();
  try {
    /** @type {Workout} */
    const workout = await api("/api/v1/runbeat/workouts", { method: "POST", body: { plan_id: state.planId, ...(classCode ? { class_code: classCode } : {}) } });
    const speed = state.source === "bluetooth" ? 1 : Number(byId("rb-speed").value);
    const workoutClock = new WorkoutClock(speed);
    sessionStorage.setItem(RUN_KEY, JSON.stringify({ id: workout.id, ...workoutClock.saved(), source: state.source }));
    run(workout, workoutClock);
  } catch (error) {
    showActionError(startButton, errorMessage(error));
  }
});

/**
 * Starts (or picks up) a workout: the Run screen, the live connection, the strap, the music.
 * @param {Workout} workout
 * @param {WorkoutClock} workoutClock
 * @param {number} [acked] the last sample the server holds (-1: none)
 */
function run(workout, workoutClock, acked = -1) {
  state.workout = workout;
  state.clock = workoutClock;
  state.buffer = new SampleBuffer(acked);
  state.samples = [];
  state.phaseIndex = -1;
  state.finishing = false;
  state.lastSampleAt = null;
  state.waitingSince = workoutClock.elapsed();
  state.heartLost = false;
  state.viewer = false;
  byId("rb-setup").hidden = true;
  byId("rb-run").hidden = false;
  byId("rb-cue").textContent = "";
  state.music = new PhaseMusic(byId("rb-audio"), (text) => (byId("rb-now-playing").textContent = text), () => state.spotify.connected);
  byId("rb-spotify").textContent = "";
  drawPaused();
  screens.open("run");
  state.link = new LiveLink(workout.id, state.buffer, {
    onMessage: serverSaid,
    onState: linkState,
    now: () => workoutClock.elapsed(),
    page: PAGE_ID,
  });
  state.link.open();
  if (state.source === "simulated") {
    const strap = new SimulatedStrap({ onSample, onStatus: strapLive, clock: workoutClock, phases: workout.phases });
    state.strap = strap;
    strap.start();
  } else if (state.source === "replay" && state.recording) {
    const strap = new ReplayStrap({ onSample, onStatus: strapLive, clock: workoutClock, samples: state.recording.heart_rate });
    state.strap = strap;
    strap.start();
  } else if (state.bluetooth) {
    state.strap = state.bluetooth;
    state.bluetooth.onStatus = strapLive;
  } else {
    strapLive("Connect your strap again (the page was reloaded)", false);
    byId("rb-reconnect-strap").hidden = false;
  }
  state.timers.push(setInterval(frame, 250));
  const link = state.link;
  state.timers.push(setInterval(() => link.tick(), 1000));
  state.timers.push(setInterval(keepBacklog, 2000));
  addEventListener("pagehide", keepBacklog);
  wakeLock.keep();
  addEventListener("beforeunload", guardExit);
  frame();
}

/**
 * Keeps the workout and what the server has not acknowledged on the device, so that a page
 * reloaded or closed with no network loses nothing.
 */
function keepBacklog() {
  // A watching page keeps nothing: the recording page's backlog is the run's.
  if (!state.workout || !state.buffer || state.finishing || state.viewer || !token()) return;
  try {
    const run = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
    localStorage.setItem(BACKLOG_KEY, JSON.stringify({ workout: state.workout, run, said_offline: state.saidOffline, ...state.buffer.backlog() }));
  } catch {
    // A full storage: the samples stay in the page and go when the network is back.
  }
}

/**
 * The backlog a previous page kept, or null.
 * @returns {Backlog | null}
 */
function keptBacklog() {
  try {
    const kept = JSON.parse(localStorage.getItem(BACKLOG_KEY) || "null");
    return kept?.workout?.id && Array.isArray(kept.workout.phases) ? kept : null;
  } catch {
    return null;
  }
}

/**
 * What the strap says during a run, kept to show again when the server hears it again.
 * @param {string} text
 * @param {boolean} [live]
 */
function strapLive(text, live = true) {
  state.strapText = text;
  showStrap(text, live);
}

/** @param {string} text @param {boolean} live */
function showStrap(text, live) {
  byId("rb-strap-live").classList.toggle("silent", !live);
  byId("rb-strap-live").textContent = text;
}

/**
 * A heart-rate reading from the strap (before a workout, only shown).
 * @param {number} bpm
 * @param {string} [hex] the strap's raw measurement
 * @param {number} [at] the workout's second it belongs to (a simulated or replayed strap keeps its own time)
 */
function onSample(bpm, hex, at = undefined) {
  const running = current();
  if (running && state.viewer) return;  // another page records this run
  if (!running) {
    strapStatus(`${state.bluetooth?.name() ?? "Strap"}: ${bpm} bpm`);
    return;
  }
  if (running.clock.paused && at === undefined) {
    // Paused: a strap's live heart shows, and is not recorded (the workout's time is
    // stopped). A simulated or replayed one gives its own time: a sample from before the
    // pause, still on its way, is the workout's.
    byId("rb-bpm").textContent = String(bpm);
    return;
  }
  const t = at ?? running.clock.elapsed();
  const sample = running.buffer.add(t, bpm, hex);
  state.samples.push({ t: sample.t, bpm });
  running.link.send(sample);
  showHeart(running.workout, bpm, t);
}

/**
 * A heart rate on the screen (this page's strap's, or for a watching page the recording page's).
 * @param {Workout} workout
 * @param {number} bpm
 * @param {number} t the workout second it belongs to
 */
function showHeart(workout, bpm, t) {
  state.lastSampleAt = Math.max(state.lastSampleAt ?? 0, t);
  state.heartLost = false;
  byId("rb-bpm").textContent = String(bpm);
  const zone = zoneOf(workout.zones, bpm);
  const badge = byId("rb-zone");
  badge.textContent = zone ? `Zone ${zone}` : "Below zone 1";
  badge.className = `rb-zone z${zone}`;
  byId("rb-run").classList.remove("heart-lost");
}

/**
 * Another page records this run (this is a second tab, or the runner's other device): this
 * one shows it as it goes (heart rate, phases, cues) and records nothing, so the two never
 * take the run from each other.
 */
function becomeViewer() {
  if (state.viewer) return;
  state.viewer = true;
  state.strap?.stop?.();
  state.strap = null;
  byId("rb-reconnect-strap").hidden = true;
  removeEventListener("beforeunload", guardExit);
  showStrap("Strap: in the other tab or device", true);
  runNote("This workout is being recorded in another tab or on another device: this one shows it as it runs.");
}

/**
 * No sample for a while (or the server heard none): the last number and its zone go, and
 * the screen says the heart rate is lost until samples come back.
 */
function showHeartLost() {
  state.heartLost = true;
  byId("rb-bpm").textContent = "--";
  const badge = byId("rb-zone");
  badge.textContent = "Heart rate lost";
  badge.className = "rb-zone rb-zone-lost";
  byId("rb-run").classList.add("heart-lost");
}

/** @param {BeforeUnloadEvent} event */
function guardExit(event) {
  if (!state.workout || state.finishing || state.viewer) return;
  event.preventDefault();
  event.returnValue = "";
}

/** Four times a second: the clock, the phase (music follows it even offline), the chart. */
function frame() {
  drawLiveBar();
  const running = current();
  if (!running || state.finishing) return;
  const now = running.clock.elapsed();
  const phases = running.workout.phases;
  const at = phaseAt(phases, now);
  if (at.index !== state.phaseIndex) {
    state.phaseIndex = at.index;
    if (at.index < phases.length) state.music?.phase(phases[at.index].kind);
  }
  if (!running.clock.paused && !state.heartLost && heartLost(state.lastSampleAt, state.waitingSince, now)) showHeartLost();
  const phase = phases[at.index];
  byId("rb-phase-name").textContent = phaseName(phase);
  byId("rb-phase-left").textContent = at.left != null ? formatTime(at.left) : "";
  byId("rb-target").textContent = phase && phase.low != null ? `Target ${phase.low}–${phase.high} bpm` : "";
  byId("rb-elapsed").textContent = formatTime(now);
  drawNext(phases, at.index);
  const total = totalSeconds(phases);
  if (Math.round(now * 4) % 4 === 0 || total != null) {
    drawChart(byId("rb-chart"), { samples: state.samples, zones: running.workout.zones, phases, span: total ?? Math.max(600, now + 60), now });
  }
  if (total != null && now >= total + 2 && !running.link.isOpen) finish(total);
}

/**
 * What comes after the phase running: the next phase, or for the last timed one that it is
 * the last; an open phase (free training) has no set end, so nothing is said to come next.
 * @param {import("./runbeat-timeline.js").Phase[]} phases
 * @param {number} index
 */
function drawNext(phases, index) {
  const line = byId("rb-next-line");
  const phase = phases[index];
  const next = phases[index + 1];
  const text = phase && phase.seconds == null ? " · no set end" : next ? ` · next: ${phaseName(next)}` : " · last phase";
  if (line.textContent !== text) line.textContent = text;
}

/** @param {"live" | "offline" | "closed"} s */
function linkState(s) {
  const text = { live: "Live", offline: "Offline: recording on, cues paused", closed: "" }[s];
  byId("rb-link").textContent = text;
  if (s === "offline") keepBacklog();
  if (s === "offline" && !state.saidOffline) {
    state.saidOffline = true;
    speak("Connection lost. Recording continues; cues are paused.");
  }
  if (s === "live") state.saidOffline = false;
}

/** @param {ServerMessage} message */
function serverSaid(message) {
  if (message.type === "cue") {
    if (state.clock?.paused) return;  // paused: the runner hears nothing (what was decided before the pause is stale)
    const text = words(message.cue);
    byId("rb-cue").textContent = text;
    speak(text);
  } else if (message.type === "spotify") {
    byId("rb-spotify").textContent = spotifyLine(message);
  } else if (message.type === "strap") {
    if (!message.live) {
      showStrap("Strap silent", false);
      showHeartLost();
      return;
    }
    // Samples again: the strap's own words come back, and the spoken "Heart rate lost" goes.
    showStrap(state.strapText || "Heart rate back", true);
    if (byId("rb-cue").textContent === words({ kind: "strap_silent" })) byId("rb-cue").textContent = "";
  } else if (message.type === "heart") {
    const running = current();
    if (running && state.viewer) showHeart(running.workout, message.bpm, running.clock.elapsed());
  } else if (message.type === "finished") {
    showSummary(message.workout_id);
  } else if (message.type === "hello" && message.status === "running" && message.role === "viewer") {
    becomeViewer();
  } else if (message.type === "hello" && message.status !== "running") {
    if (state.workout) showSummary(state.workout.id);
  } else if (message.type === "hello" && state.clock?.paused) {
    // A page back (reloaded, reconnected) while paused: Spotify, which the server drives, stays paused.
    state.link?.sendJSON({ type: "pause", t: state.clock.elapsed() });
  }
}

/** @param {string} text */
function speak(text) {
  if (!byId("rb-speak").checked || !("speechSynthesis" in window) || !text) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.onstart = () => state.music?.duck(true);
  utterance.onend = () => state.music?.duck(false);
  speechSynthesis.cancel();  // never two at once: the newest is what matters
  speechSynthesis.speak(utterance);
}

// Pause and resume: the workout's clock stops (so do the phase, the cues, the recording,
// the page's music and Spotify's) and carries on from the same second.
byId("rb-pause").addEventListener("click", () => {
  const running = current();
  if (!running || state.finishing) return;
  const workoutClock = running.clock;
  if (workoutClock.paused) {
    workoutClock.resume();
    state.music?.resume();
  } else {
    workoutClock.pause();
    state.music?.pause();
    if ("speechSynthesis" in window) speechSynthesis.cancel();
    byId("rb-cue").textContent = "";
  }
  saveClock();
  drawPaused();
  // Spotify plays from the server: it pauses and carries on when told.
  running.link.sendJSON({ type: workoutClock.paused ? "pause" : "resume", t: workoutClock.elapsed() });
  running.link.tick();
  frame();
});

/** The clock as it is now, for a page reloaded mid-run (paused or not). */
function saveClock() {
  /** @type {SavedRun | null} */
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  const running = current();
  if (!saved || !running || saved.id !== running.workout.id) return;
  sessionStorage.setItem(RUN_KEY, JSON.stringify({ ...saved, ...running.clock.saved() }));
  keepBacklog();
}

function drawPaused() {
  const paused = Boolean(state.clock?.paused);
  const button = byId("rb-pause");
  button.setAttribute("aria-pressed", String(paused));
  requiredElement(".rb-pause-label", HTMLElement, button).textContent = paused ? "Resume" : "Pause";
  requiredElement("svg", SVGElement, button).replaceWith(svgIcon(paused ? "play" : "pause"));
  byId("rb-paused").hidden = !paused;
  byId("rb-run").classList.toggle("paused", paused);
}

/**
 * Play and pause, drawn as Icons draws them (the icons module is the design system's).
 * @param {"play" | "pause"} name
 */
function svgIcon(name) {
  const paths = { play: "M8 5v14l11-7z", pause: "M6 5h4v14H6zm8 0h4v14h-4z" };
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "icon-svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", paths[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

// One way to end, protected: held down for 1.5 s (a ring fills; let go and nothing happens),
// or, from a keyboard or a screen reader, pressed and confirmed.
const confirmEnd = /** @type {HTMLDialogElement} */ (byId("rb-end-confirm"));
holdButton(byId("rb-end"), {
  onHeld: () => finish(state.clock?.elapsed() ?? 0),
  onConfirm: () => confirmEnd.showModal(),
});
byId("rb-end-cancel").addEventListener("click", () => confirmEnd.close());
byId("rb-end-yes").addEventListener("click", () => {
  confirmEnd.close();
  finish(state.clock?.elapsed() ?? 0);
});

/**
 * Ends the workout at `elapsed` seconds: what the server has not stored goes first.
 * @param {number} elapsed
 */
async function finish(elapsed) {
  const running = current();
  if (state.finishing || !running) return;
  state.finishing = true;
  const id = running.workout.id;
  try {
    await running.link.upload();
    await api(`/api/v1/runbeat/workouts/${id}/end`, { method: "POST", body: { elapsed: Math.min(elapsed, 172800) } });
    await showSummary(id);
  } catch (error) {
    state.finishing = false;
    showActionError(byId("rb-end"), `${errorMessage(error)} The workout is kept on this page; try again.`);
  }
}

function stopRun() {
  state.timers.forEach(clearInterval);
  state.timers = [];
  state.strap?.stop?.();
  state.strap = null;
  state.bluetooth = null;
  state.music?.stop();
  state.link?.close();
  wakeLock.release();
  removeEventListener("beforeunload", guardExit);
  removeEventListener("pagehide", keepBacklog);
  sessionStorage.removeItem(RUN_KEY);
  localStorage.removeItem(BACKLOG_KEY);
  // What was said about this run (picked up after a reload, offline) ends with it.
  runNote("");
  if (confirmEnd.open) confirmEnd.close();
}

/** @param {string} id the workout's */
async function showSummary(id) {
  state.finishing = true;
  stopRun();
  /** @type {WorkoutDetail} */
  const workout = await api(`/api/v1/runbeat/workouts/${id}`);
  state.workout = null;
  state.clock = null;
  byId("rb-run").hidden = true;
  byId("rb-setup").hidden = false;
  state.source = null;
  strapStatus("No strap yet.");
  drawSummary(workout);
  screens.open("summary");
}

/** @param {WorkoutDetail} workout */
function drawSummary(workout) {
  state.summaryShown = workout.id;
  byId("rb-summary").classList.add("has-workout");
  renderSummary(byId("rb-summary"), workout);
}

/** The Summary screen opened with none shown yet: the runner's last finished workout. */
async function showLastSummary() {
  if (state.summaryShown) return;
  try {
    /** @type {{workouts: Workout[]}} */
    const list = await api("/api/v1/runbeat/workouts");
    const last = list.workouts.find((w) => w.status !== "running");
    if (last && !state.summaryShown) drawSummary(await api(`/api/v1/runbeat/workouts/${last.id}`));
  } catch {
    // Offline: the screen says there is none yet.
  }
}

byId("rb-again").addEventListener("click", () => screens.open("run"));

/**
 * A workout still running (the page was reloaded mid-run): pick it up where it is. With no
 * network, the workout this device was recording carries on from what it kept, and its
 * samples go to the server when the network is back.
 */
async function resume() {
  const kept = keptBacklog();
  /** @type {Workout} */
  let running;
  let offline = false;
  try {
    running = await api("/api/v1/runbeat/workouts/running");
  } catch (error) {
    if (!(error instanceof NetworkError) || !kept) {
      // No workout runs (404): whatever was kept belonged to one that has ended. Any other
      // refusal leaves the backlog for the next visit.
      if (error instanceof APIError && error.status === 404) localStorage.removeItem(BACKLOG_KEY);
      return;
    }
    offline = true;
    running = { ...kept.workout, acked_seq: kept.acked };
  }
  const own = kept?.workout.id === running.id ? kept : null;
  /** @type {SavedRun | null | undefined} */
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null") ?? own?.run;
  const same = saved && saved.id === running.id;
  if (same) sessionStorage.setItem(RUN_KEY, JSON.stringify(saved));
  const workoutClock = same ? WorkoutClock.from(saved) : new WorkoutClock(1, (Date.now() - running.started_at) / 1000);
  state.source = same ? saved.source : "bluetooth";
  state.saidOffline = Boolean(offline && own?.said_offline);
  run(running, workoutClock, Number.isInteger(running.acked_seq) ? running.acked_seq : -1);
  runNote(offline
    ? "No network: your workout carries on with what this device kept, and uploads when the network is back."
    : "Your workout is still running: picked up where it was.");
  if (own && state.buffer) {
    state.buffer.restore(own);
    state.samples = state.buffer.pending.map((s) => ({ t: s.t, bpm: s.bpm }));
  }
}

const outcome = callbackOutcome(location.search);
if (outcome) {
  // Back from Spotify: on the Workout screen, where its panel and the phases' music are.
  note(outcome.text);
  history.replaceState(null, "", "/runbeat#workout");
  screens.show("workout");
}
// Offline the set-up cannot load (a new workout needs the server), but a running one goes on.
const loaded = await Promise.allSettled([loadProfile(), loadPlans(), state.spotify.load()]);
const failed = loaded.find((r) => r.status === "rejected");
if (failed) {
  const reason = /** @type {PromiseRejectedResult} */ (failed).reason;
  note(reason instanceof Error ? reason.message : "Could not load your profile.");
} else drawMusic();
await resume();
// A first visit (no workout running, no screen asked for): the welcome comes first.
if (needsWelcome() && !state.workout && !location.hash) {
  screens.show("welcome");
  scrollTo({ top: 0 });
}
