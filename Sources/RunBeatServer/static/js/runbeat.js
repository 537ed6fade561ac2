// RunBeat's trainer, as screens: Profile (the runner's heart and zones), Workout (the plan
// and each phase's music), Run (the strap, then the run: big numbers, the chart, cues spoken
// over ducked music, the screen kept on, a pause, one protected way to end), Summary.
import { api, bindLogout, byId, el, NetworkError, showActionError, token } from "/static/js/api.js";
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
import { clock, phaseAt, phaseName, totalSeconds, zoneOf } from "./runbeat-timeline.js";
import { renderSummary } from "./runbeat-summary.js";

bindLogout();

const RUN_KEY = "runbeat-run";
/** The running workout and the samples the server has not acknowledged, kept on the device. */
const BACKLOG_KEY = "runbeat-backlog";
const PHASES = ["warmup", "work", "recovery", "cooldown"];
const PHASE_LABELS = { warmup: "Warm-up", work: "Work intervals", recovery: "Recovery", cooldown: "Cool-down" };

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
  spotify: new SpotifyPanel(document.querySelector(".rb-spotify"), () => drawMusic()),
  samples: [],
  phaseIndex: -1,
  wakeLock: null,
  timers: [],
  finishing: false,
  saidOffline: false,
  /** What the strap itself last said, shown again when the server hears it again. */
  strapText: "",
  /** The summary shown (the last workout, or the one just finished). */
  summaryShown: null,
};

const note = (text) => (byId("rb-note").textContent = text);
/** A note about the run itself: on the Run screen only, and gone when the run ends. */
const runNote = (text) => (byId("rb-run-note").textContent = text);
const screens = new Screens(byId("main"), "run", (screen) => {
  if (screen === "summary") showLastSummary();
  if (screen === "run") frame();
});

// --- Set-up ---------------------------------------------------------------------------------

async function loadProfile() {
  state.profile = await api("/api/v1/runbeat/profile");
  drawProfile();
}

function drawProfile() {
  const p = state.profile;
  const form = byId("rb-profile");
  form.age.value = p.age;
  form.resting.value = p.resting;
  form.max.value = p.max ?? "";
  form.formula.value = p.formula;
  form.querySelector(".rb-maximum").textContent = `Maximum used: ${p.maximum} bpm${p.max ? " (measured)" : " (estimated)"}.`;
  byId("rb-auto-zones").checked = !p.manual_zones;
  const body = /** @type {HTMLTableSectionElement} */ (document.querySelector(".rb-zones tbody"));
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
    if (i < 4) body.rows[i].querySelector(".rb-zone-high").textContent = `${zone.high} bpm`;
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

/** An editable bound (its range, set by drawProfile, keeps both zones it divides 5 bpm wide). */
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
    document.querySelector(".rb-zones-note").textContent = "Your own zones are saved.";
  } catch (error) {
    // The table shows what is saved again; the note says why the change was refused.
    boundsChanged = false;
    document.querySelector(".rb-zones-note").textContent = error.message;
  } finally {
    savingBounds = false;
    drawProfile();
  }
}

/** The six bounds of the zones shown: each zone's low, then zone 5's high. */
function currentBounds() {
  return [...state.profile.zones.map((z) => z.low), state.profile.zones[4].high];
}

function profileBody() {
  const form = byId("rb-profile");
  const body = { age: Number(form.age.value), resting: Number(form.resting.value), formula: form.formula.value };
  if (form.max.value) body.max = Number(form.max.value);
  return body;
}

byId("rb-profile").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body: profileBody() });
    drawProfile();
    await loadPlans();
  } catch (error) {
    showActionError(event.submitter || event.target, error.message);
  }
});

byId("rb-auto-zones").addEventListener("change", async (event) => {
  const body = profileBody();
  if (event.target.checked) body.automatic_zones = true;
  else body.zones = currentBounds();
  state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body });
  drawProfile();
});

async function loadPlans() {
  state.plans = (await api("/api/v1/runbeat/plans")).plans;
  const group = document.querySelector(".rb-plans");
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
        el("span", { class: "muted" }, plan.total_seconds ? ` · ${clock(plan.total_seconds)}` : " · as long as you like"),
      ),
    ),
  );
  drawChosenPlan();
}

/** The Run screen names the workout it will start (chosen on the Workout screen). */
function drawChosenPlan() {
  const plan = state.plans.find((p) => p.id === state.planId);
  byId("rb-chosen-plan").textContent = plan ? `${plan.name}${plan.total_seconds ? ` · ${clock(plan.total_seconds)}` : ""}` : "–";
}

byId("rb-builder").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = event.target;
  const phase = (kind, seconds, zone) => (zone ? { kind, seconds, target_kind: "zones", target_low: zone, target_high: zone } : { kind, seconds });
  const steps = [];
  if (Number(f.warmup.value) > 0) steps.push({ repeats: 1, phases: [phase("warmup", Number(f.warmup.value) * 60, 1)] });
  steps.push({
    repeats: Number(f.repeats.value),
    phases: [phase("work", Number(f.work.value), Number(f.workzone.value)), phase("recovery", Number(f.recovery.value), Number(f.recoveryzone.value))],
  });
  if (Number(f.cooldown.value) > 0) steps.push({ repeats: 1, phases: [phase("cooldown", Number(f.cooldown.value) * 60, null)] });
  try {
    const plan = await api("/api/v1/runbeat/plans", { method: "POST", body: { name: f.name.value, steps } });
    state.planId = plan.id;
    await loadPlans();
    f.closest("details").open = false;
  } catch (error) {
    showActionError(event.submitter || f, error.message);
  }
});

function drawMusic() {
  const box = document.querySelector(".rb-music");
  box.replaceChildren(
    ...PHASES.map((kind) => {
      const choice = state.profile.music[kind];
      const offerSpotify = state.spotify.connected || choice.mode === "spotify";
      const select = el(
        "select",
        { id: `rb-music-${kind}`, "aria-label": `${PHASE_LABELS[kind]} music`, onchange: (event) => saveMusic(kind, event.target.value, choice.track_ids) },
        el("option", { value: "auto", selected: choice.mode === "auto" }, "Juke picks by tempo"),
        el("option", { value: "tracks", selected: choice.mode === "tracks" }, `My songs (${choice.track_ids.length})`),
        el("option", { value: "none", selected: choice.mode === "none" }, "No music"),
        ...(offerSpotify ? [el("option", { value: "spotify", selected: choice.mode === "spotify" }, "A Spotify playlist")] : []),
      );
      const name = el("label", { for: `rb-music-${kind}`, class: "rb-music-name" }, PHASE_LABELS[kind]);
      if (choice.mode === "spotify") {
        return el("div", { class: "rb-music-phase", dataset: { phase: kind } }, name, select, playlistPicker(kind, choice));
      }
      const search = el("input", { type: "search", placeholder: "Add a song…", "aria-label": `Add a song to ${PHASE_LABELS[kind]}` });
      const results = el("ul", { class: "rb-song-results" });
      search.addEventListener("change", async () => {
        if (!search.value.trim()) return;
        let page;
        try {
          page = await api(`/api/v1/catalog/search?q=${encodeURIComponent(search.value.trim())}&limit=8`);
        } catch (error) {
          showActionError(search, error.message);
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

/** The runner's Spotify playlists for a phase set to Spotify (loaded once, page by page). */
function playlistPicker(kind, choice) {
  const picker = el(
    "select",
    {
      "aria-label": `${PHASE_LABELS[kind]} Spotify playlist`,
      onchange: (event) => {
        const option = event.target.selectedOptions[0];
        if (option?.value) saveMusic(kind, "spotify", choice.track_ids, { id: option.value, name: option.textContent.replace(/ \(\d+\)$/, "") });
      },
    },
    el("option", { value: "" }, choice.spotify_playlist_id ? "" : "Choose a playlist…"),
  );
  if (choice.spotify_playlist_id) {
    picker.firstElementChild.replaceWith(el("option", { value: choice.spotify_playlist_id, selected: true }, choice.spotify_playlist_name || "Spotify playlist"));
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
      .catch((error) => showActionError(picker, error.message));
  } else {
    picker.after?.(el("span", { class: "muted" }, " Spotify is not connected: Juke's pick plays."));
  }
  return picker;
}

async function saveMusic(kind, mode, trackIds, playlist = null) {
  const before = state.profile.music[kind];
  const chosen = playlist || (before.spotify_playlist_id ? { id: before.spotify_playlist_id, name: before.spotify_playlist_name } : null);
  // All of them: a phase that is full is the server's to refuse, out loud, not the page's to cut.
  const choice = { mode, track_ids: trackIds };
  if (chosen) Object.assign(choice, { spotify_playlist_id: chosen.id, spotify_playlist_name: chosen.name });
  if (mode === "spotify" && !chosen) {
    // The playlist comes next, from the picker; until then the phase keeps what it had.
    state.profile.music = { ...state.profile.music, [kind]: { ...before, mode: "spotify" } };
    drawMusic();
    return;
  }
  const music = { ...state.profile.music, [kind]: choice };
  for (const phase of PHASES) if (music[phase].mode === "spotify" && !music[phase].spotify_playlist_id) music[phase] = { ...music[phase], mode: "auto" };
  try {
    state.profile = await api("/api/v1/runbeat/profile/music", { method: "PUT", body: music });
    drawMusic();
  } catch (error) {
    // The phase shows what is saved again, and beside it why the choice was not kept.
    drawMusic();
    showActionError(byId(`rb-music-${kind}`), `Not changed: ${error.message}`);
  }
}

// --- The strap ------------------------------------------------------------------------------

const strapStatus = (text) => (byId("rb-strap-status").textContent = text);

/** A Bluetooth strap chosen by the runner (a browser asks for a tap each time). */
async function connectBluetooth(event) {
  if (!BluetoothStrap.available()) {
    showActionError(event.target, "This browser has no Web Bluetooth (Chrome on Android, desktop Chrome or Edge do). Try the simulated strap.");
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
    showActionError(event.target, error.message || "No strap was chosen.");
  }
}
byId("rb-bluetooth").addEventListener("click", connectBluetooth);
byId("rb-reconnect-strap").addEventListener("click", connectBluetooth);

byId("rb-simulate").addEventListener("click", () => {
  state.source = "simulated";
  strapStatus("Simulated strap: a heart that follows the plan.");
});

byId("rb-replay").addEventListener("change", async (event) => {
  const file = event.target.files?.[0];
  if (!file) return;
  try {
    state.recording = await api("/api/v1/runbeat/recordings", { method: "POST", body: file });
    state.source = "replay";
    strapStatus(
      `Replay: ${state.recording.heart_rate.length} samples over ${clock(state.recording.seconds)} (${state.recording.format.toUpperCase()})` +
        (state.recording.damage ? `; ${state.recording.damage}` : ""),
    );
  } catch (error) {
    showActionError(event.target, error.message);
  }
});

// --- The run --------------------------------------------------------------------------------

byId("rb-start").addEventListener("click", async (event) => {
  if (!state.source) {
    showActionError(event.target, "Connect a strap, or pick the simulated strap or a recording, first.");
    return;
  }
  const classCode = byId("rb-class").value.trim();
  try {
    const workout = await api("/api/v1/runbeat/workouts", { method: "POST", body: { plan_id: state.planId, ...(classCode ? { class_code: classCode } : {}) } });
    const speed = state.source === "bluetooth" ? 1 : Number(byId("rb-speed").value);
    const workoutClock = new WorkoutClock(speed);
    sessionStorage.setItem(RUN_KEY, JSON.stringify({ id: workout.id, ...workoutClock.saved(), source: state.source }));
    run(workout, workoutClock);
  } catch (error) {
    showActionError(event.target, error.message);
  }
});

function run(workout, workoutClock, acked = -1) {
  state.workout = workout;
  state.clock = workoutClock;
  state.buffer = new SampleBuffer(acked);
  state.samples = [];
  state.phaseIndex = -1;
  state.finishing = false;
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
    now: () => state.clock.elapsed(),
  });
  state.link.open();
  if (state.source === "simulated") {
    state.strap = new SimulatedStrap({ onSample, onStatus: strapLive, clock: workoutClock, phases: workout.phases });
    state.strap.start();
  } else if (state.source === "replay" && state.recording) {
    state.strap = new ReplayStrap({ onSample, onStatus: strapLive, clock: workoutClock, samples: state.recording.heart_rate });
    state.strap.start();
  } else if (state.bluetooth) {
    state.strap = state.bluetooth;
    state.bluetooth.onStatus = strapLive;
  } else {
    strapLive("Connect your strap again (the page was reloaded)", false);
    byId("rb-reconnect-strap").hidden = false;
  }
  state.timers.push(setInterval(frame, 250));
  state.timers.push(setInterval(() => state.link.tick(), 1000));
  state.timers.push(setInterval(keepBacklog, 2000));
  addEventListener("pagehide", keepBacklog);
  keepAwake();
  addEventListener("beforeunload", guardExit);
  frame();
}

/** @param {string} text @param {boolean} [live] */
/**
 * Keeps the workout and what the server has not acknowledged on the device, so that a page
 * reloaded or closed with no network loses nothing.
 */
function keepBacklog() {
  if (!state.workout || !state.buffer || state.finishing || !token()) return;
  try {
    const run = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
    localStorage.setItem(BACKLOG_KEY, JSON.stringify({ workout: state.workout, run, said_offline: state.saidOffline, ...state.buffer.backlog() }));
  } catch {
    // A full storage: the samples stay in the page and go when the network is back.
  }
}

/** The backlog a previous page kept, or null. */
function keptBacklog() {
  try {
    const kept = JSON.parse(localStorage.getItem(BACKLOG_KEY) || "null");
    return kept?.workout?.id && Array.isArray(kept.workout.phases) ? kept : null;
  } catch {
    return null;
  }
}

function strapLive(text, live = true) {
  state.strapText = text;
  showStrap(text, live);
}

function showStrap(text, live) {
  byId("rb-strap-live").classList.toggle("silent", !live);
  byId("rb-strap-live").textContent = text;
}

/** A heart-rate reading from the strap (before a workout, only shown). */
function onSample(bpm, hex, at = undefined) {
  if (!state.workout) {
    strapStatus(`${state.bluetooth?.name() ?? "Strap"}: ${bpm} bpm`);
    return;
  }
  if (state.clock.paused && at === undefined) {
    // Paused: a strap's live heart shows, and is not recorded (the workout's time is
    // stopped). A simulated or replayed one gives its own time: a sample from before the
    // pause, still on its way, is the workout's.
    byId("rb-bpm").textContent = String(bpm);
    return;
  }
  const t = at ?? state.clock.elapsed();
  const sample = state.buffer.add(t, bpm, hex);
  state.samples.push({ t: sample.t, bpm });
  state.link.send(sample);
  byId("rb-bpm").textContent = String(bpm);
  const zone = zoneOf(state.workout.zones, bpm);
  const badge = byId("rb-zone");
  badge.textContent = zone ? `Zone ${zone}` : "Below zone 1";
  badge.className = `rb-zone z${zone}`;
}

function guardExit(event) {
  if (!state.workout || state.finishing) return;
  event.preventDefault();
  event.returnValue = "";
}

async function keepAwake() {
  try {
    if ("wakeLock" in navigator && document.visibilityState === "visible") {
      state.wakeLock = await /** @type {any} */ (navigator).wakeLock.request("screen");
    }
  } catch {
    // The screen may sleep: the workout goes on.
  }
}
document.addEventListener("visibilitychange", () => {
  if (state.workout && !state.finishing && document.visibilityState === "visible") keepAwake();
});

/** Four times a second: the clock, the phase (music follows it even offline), the chart. */
function frame() {
  if (!state.workout || state.finishing) return;
  const now = state.clock.elapsed();
  const phases = state.workout.phases;
  const at = phaseAt(phases, now);
  if (at.index !== state.phaseIndex) {
    state.phaseIndex = at.index;
    if (at.index < phases.length) state.music.phase(phases[at.index].kind);
  }
  const phase = phases[at.index];
  byId("rb-phase-name").textContent = phaseName(phase);
  byId("rb-phase-left").textContent = at.left != null ? clock(at.left) : "";
  byId("rb-target").textContent = phase && phase.low != null ? `Target ${phase.low}–${phase.high} bpm` : "";
  byId("rb-elapsed").textContent = clock(now);
  byId("rb-next").textContent = phases[at.index + 1] ? phaseName(phases[at.index + 1]) : "the end";
  const total = totalSeconds(phases);
  if (Math.round(now * 4) % 4 === 0 || total != null) {
    drawChart(byId("rb-chart"), { samples: state.samples, zones: state.workout.zones, phases, span: total ?? Math.max(600, now + 60), now });
  }
  if (total != null && now >= total + 2 && !state.link.isOpen) finish(total);
}

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
      return;
    }
    // Samples again: the strap's own words come back, and the spoken "Heart rate lost" goes.
    showStrap(state.strapText || "Heart rate back", true);
    if (byId("rb-cue").textContent === words({ kind: "strap_silent" })) byId("rb-cue").textContent = "";
  } else if (message.type === "finished") {
    showSummary(message.workout_id);
  } else if (message.type === "hello" && message.status !== "running") {
    showSummary(state.workout.id);
  } else if (message.type === "hello" && state.clock?.paused) {
    // A page back (reloaded, reconnected) while paused: Spotify, which the server drives, stays paused.
    state.link?.sendJSON({ type: "pause", t: state.clock.elapsed() });
  }
}

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
  if (!state.workout || state.finishing) return;
  if (state.clock.paused) {
    state.clock.resume();
    state.music?.resume();
  } else {
    state.clock.pause();
    state.music?.pause();
    if ("speechSynthesis" in window) speechSynthesis.cancel();
    byId("rb-cue").textContent = "";
  }
  saveClock();
  drawPaused();
  // Spotify plays from the server: it pauses and carries on when told.
  state.link?.sendJSON({ type: state.clock.paused ? "pause" : "resume", t: state.clock.elapsed() });
  state.link?.tick();
  frame();
});

/** The clock as it is now, for a page reloaded mid-run (paused or not). */
function saveClock() {
  const saved = JSON.parse(sessionStorage.getItem(RUN_KEY) || "null");
  if (!saved || !state.workout || saved.id !== state.workout.id) return;
  sessionStorage.setItem(RUN_KEY, JSON.stringify({ ...saved, ...state.clock.saved() }));
  keepBacklog();
}

function drawPaused() {
  const paused = Boolean(state.clock?.paused);
  const button = byId("rb-pause");
  button.setAttribute("aria-pressed", String(paused));
  button.querySelector(".rb-pause-label").textContent = paused ? "Resume" : "Pause";
  button.querySelector("svg").replaceWith(svgIcon(paused ? "play" : "pause"));
  byId("rb-paused").hidden = !paused;
  byId("rb-run").classList.toggle("paused", paused);
}

/** Play and pause, drawn as Icons draws them (the icons module is the design system's). */
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
  onHeld: () => finish(state.clock.elapsed()),
  onConfirm: () => confirmEnd.showModal(),
});
byId("rb-end-cancel").addEventListener("click", () => confirmEnd.close());
byId("rb-end-yes").addEventListener("click", () => {
  confirmEnd.close();
  finish(state.clock.elapsed());
});

async function finish(elapsed) {
  if (state.finishing || !state.workout) return;
  state.finishing = true;
  const id = state.workout.id;
  try {
    await state.link.upload();
    await api(`/api/v1/runbeat/workouts/${id}/end`, { method: "POST", body: { elapsed: Math.min(elapsed, 172800) } });
    await showSummary(id);
  } catch (error) {
    state.finishing = false;
    showActionError(byId("rb-end"), `${error.message} The workout is kept on this page; try again.`);
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
  state.wakeLock?.release?.();
  state.wakeLock = null;
  removeEventListener("beforeunload", guardExit);
  removeEventListener("pagehide", keepBacklog);
  sessionStorage.removeItem(RUN_KEY);
  localStorage.removeItem(BACKLOG_KEY);
  // What was said about this run (picked up after a reload, offline) ends with it.
  runNote("");
  if (confirmEnd.open) confirmEnd.close();
}

async function showSummary(id) {
  state.finishing = true;
  stopRun();
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

function drawSummary(workout) {
  state.summaryShown = workout.id;
  byId("rb-summary").classList.add("has-workout");
  renderSummary(byId("rb-summary"), workout);
}

/** The Summary screen opened with none shown yet: the runner's last finished workout. */
async function showLastSummary() {
  if (state.summaryShown) return;
  try {
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
  let running;
  let offline = false;
  try {
    running = await api("/api/v1/runbeat/workouts/running");
  } catch (error) {
    if (!(error instanceof NetworkError) || !kept) {
      // No workout runs (404): whatever was kept belonged to one that has ended. Any other
      // refusal leaves the backlog for the next visit.
      if (error?.status === 404) localStorage.removeItem(BACKLOG_KEY);
      return;
    }
    offline = true;
    running = { ...kept.workout, acked_seq: kept.acked };
  }
  const own = kept?.workout.id === running.id ? kept : null;
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
  if (own) {
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
if (failed) note(/** @type {PromiseRejectedResult} */ (failed).reason?.message ?? "Could not load your profile.");
else drawMusic();
await resume();
