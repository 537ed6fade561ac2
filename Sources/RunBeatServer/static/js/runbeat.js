// RunBeat's trainer: the runner's heart (profile and zones), the workout, the strap, each
// phase's music; then the run (big numbers, the chart, cues spoken over ducked music, the
// screen kept on, one protected way to end), then the summary.
import { api, bindLogout, byId, el, NetworkError, showActionError, token } from "/static/js/api.js";
import { drawChart } from "./runbeat-chart.js";
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

/** The workout's clock: seconds since it started, at the replay's speed. */
class WorkoutClock {
  constructor(speed, offset = 0, wallOrigin = Date.now()) {
    this.speed = speed;
    this.offset = offset;
    this.wallOrigin = wallOrigin;
  }
  elapsed() {
    return this.offset + ((Date.now() - this.wallOrigin) / 1000) * this.speed;
  }
}

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
};

const note = (text) => (byId("rb-note").textContent = text);

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
  const body = document.querySelector(".rb-zones tbody");
  body.replaceChildren(
    ...p.zones.map((zone, i) =>
      el(
        "tr",
        { class: `rb-zone-row z${zone.zone}` },
        el("th", { scope: "row" }, `Zone ${zone.zone}`),
        el("td", {}, boundInput(i, zone.low)),
        el("td", {}, i === 4 ? boundInput(5, zone.high) : `${zone.high} bpm`),
      ),
    ),
  );
}

/** An editable bound: the picker's range keeps both zones it divides 5 bpm wide. */
function boundInput(index, value) {
  const [low, high] = state.profile.bound_ranges[index];
  return el("input", {
    type: "number",
    class: "rb-bound",
    min: low,
    max: high,
    value,
    "aria-label": `Zone bound ${index + 1}`,
    dataset: { bound: String(index) },
    onchange: (event) => saveBound(index, Number(event.target.value)),
  });
}

async function saveBound(index, value) {
  const bounds = currentBounds();
  bounds[index] = value;
  try {
    state.profile = await api("/api/v1/runbeat/profile", { method: "PUT", body: { ...profileBody(), zones: bounds } });
    document.querySelector(".rb-zones-note").textContent = "Your own zones are saved.";
    drawProfile();
  } catch (error) {
    // The table is drawn again from what is saved; the note says why the change was refused.
    drawProfile();
    document.querySelector(".rb-zones-note").textContent = error.message;
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
          onchange: () => (state.planId = plan.id),
        }),
        ` ${plan.name}`,
        el("span", { class: "muted" }, plan.total_seconds ? ` · ${clock(plan.total_seconds)}` : " · as long as you like"),
      ),
    ),
  );
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
        { "aria-label": `${PHASE_LABELS[kind]} music`, onchange: (event) => saveMusic(kind, event.target.value, choice.track_ids) },
        el("option", { value: "auto", selected: choice.mode === "auto" }, "Juke picks by tempo"),
        el("option", { value: "tracks", selected: choice.mode === "tracks" }, `My songs (${choice.track_ids.length})`),
        el("option", { value: "none", selected: choice.mode === "none" }, "No music"),
        ...(offerSpotify ? [el("option", { value: "spotify", selected: choice.mode === "spotify" }, "A Spotify playlist")] : []),
      );
      if (choice.mode === "spotify") {
        return el("div", { class: "rb-music-phase" }, el("label", {}, `${PHASE_LABELS[kind]} `, select), playlistPicker(kind, choice));
      }
      const search = el("input", { type: "search", placeholder: "Add a song…", "aria-label": `Add a song to ${PHASE_LABELS[kind]}` });
      const results = el("ul", { class: "rb-song-results" });
      search.addEventListener("change", async () => {
        if (!search.value.trim()) return;
        const page = await api(`/api/v1/catalog/search?q=${encodeURIComponent(search.value.trim())}&limit=8`);
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
      return el("div", { class: "rb-music-phase" }, el("label", {}, `${PHASE_LABELS[kind]} `, select), search, results);
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
  const choice = { mode, track_ids: trackIds.slice(0, 200) };
  if (chosen) Object.assign(choice, { spotify_playlist_id: chosen.id, spotify_playlist_name: chosen.name });
  if (mode === "spotify" && !chosen) {
    // The playlist comes next, from the picker; until then the phase keeps what it had.
    state.profile.music = { ...state.profile.music, [kind]: { ...before, mode: "spotify" } };
    drawMusic();
    return;
  }
  const music = { ...state.profile.music, [kind]: choice };
  for (const phase of PHASES) if (music[phase].mode === "spotify" && !music[phase].spotify_playlist_id) music[phase] = { ...music[phase], mode: "auto" };
  state.profile = await api("/api/v1/runbeat/profile/music", { method: "PUT", body: music });
  drawMusic();
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
    sessionStorage.setItem(RUN_KEY, JSON.stringify({ id: workout.id, speed, wallOrigin: Date.now(), offset: 0, source: state.source }));
    run(workout, new WorkoutClock(speed));
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
  byId("rb-summary").hidden = true;
  byId("rb-run").hidden = false;
  state.music = new PhaseMusic(byId("rb-audio"), (text) => (byId("rb-now-playing").textContent = text), () => state.spotify.connected);
  byId("rb-spotify").textContent = "";
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
  byId("rb-strap-live").classList.toggle("silent", !live);
  byId("rb-strap-live").textContent = text;
}

/** A heart-rate reading from the strap (before a workout, only shown). */
function onSample(bpm, hex, at = undefined) {
  if (!state.workout) {
    strapStatus(`${state.bluetooth?.name() ?? "Strap"}: ${bpm} bpm`);
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
    const text = words(message.cue);
    byId("rb-cue").textContent = text;
    speak(text);
  } else if (message.type === "spotify") {
    byId("rb-spotify").textContent = spotifyLine(message);
  } else if (message.type === "strap") {
    if (!message.live) byId("rb-strap-live").textContent = "Strap silent";
  } else if (message.type === "finished") {
    showSummary(message.workout_id);
  } else if (message.type === "hello" && message.status !== "running") {
    showSummary(state.workout.id);
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

// One way to end, protected: the first press asks, the second (within 3 s) ends.
let armed = null;
byId("rb-end").addEventListener("click", (event) => {
  const button = event.target;
  if (!armed) {
    button.textContent = "Press again to end the workout";
    button.classList.add("armed");
    armed = setTimeout(() => {
      armed = null;
      button.textContent = "End workout";
      button.classList.remove("armed");
    }, 3000);
    return;
  }
  clearTimeout(armed);
  armed = null;
  button.textContent = "End workout";
  button.classList.remove("armed");
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
}

async function showSummary(id) {
  state.finishing = true;
  stopRun();
  const workout = await api(`/api/v1/runbeat/workouts/${id}`);
  state.workout = null;
  byId("rb-run").hidden = true;
  byId("rb-summary").hidden = false;
  renderSummary(document.querySelector("#rb-summary"), workout);
}

byId("rb-again").addEventListener("click", () => {
  byId("rb-summary").hidden = true;
  byId("rb-setup").hidden = false;
  state.source = null;
  strapStatus("No strap yet.");
});

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
  const speed = same ? saved.speed : 1;
  const workoutClock = same ? new WorkoutClock(speed, saved.offset, saved.wallOrigin) : new WorkoutClock(1, (Date.now() - running.started_at) / 1000);
  state.source = same ? saved.source : "bluetooth";
  state.saidOffline = Boolean(offline && own?.said_offline);
  note(offline
    ? "No network: your workout carries on with what this device kept, and uploads when the network is back."
    : "Your workout is still running: picked up where it was.");
  run(running, workoutClock, Number.isInteger(running.acked_seq) ? running.acked_seq : -1);
  if (own) {
    state.buffer.restore(own);
    state.samples = state.buffer.pending.map((s) => ({ t: s.t, bpm: s.bpm }));
  }
}

const outcome = callbackOutcome(location.search);
if (outcome) {
  note(outcome.text);
  history.replaceState(null, "", "/runbeat");
}
// Offline the set-up cannot load (a new workout needs the server), but a running one goes on.
const loaded = await Promise.allSettled([loadProfile(), loadPlans(), state.spotify.load()]);
const failed = loaded.find((r) => r.status === "rejected");
if (failed) note(/** @type {PromiseRejectedResult} */ (failed).reason?.message ?? "Could not load your profile.");
else drawMusic();
await resume();
