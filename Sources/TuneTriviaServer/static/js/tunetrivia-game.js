// A TuneTrivia game, for the host and for players. The server pushes the game as this
// person may see it (a WebSocket, server-sent events or polling: live.js), and the
// page is redrawn from that state: nothing here decides scores or hides answers, the server
// does both.
import { APIError, api, bindLogout, byId, clearActionErrors, counted, errorMessage, requiredElement, showActionError } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";
import { openLive } from "/static/js/live.js";
import { qrSVG } from "/static/js/qr.js";
import { secondsUntil, serverOffset } from "/static/js/server-clock.js";
import { ScreenWakeLock } from "/static/js/wake-lock.js";
import { settingsForm, readSettings } from "./settings-form.js";
import { CoverArt } from "./cover-art.js";
import { el, keep, listen, patch } from "./patch.js";
import { clipPlan } from "./presenter-clip.js";
import { Sounds } from "./sounds.js";

bindLogout();

/**
 * @typedef {import("./tunetrivia-types.js").Session} Session
 * @typedef {import("./tunetrivia-types.js").Round} Round
 * @typedef {import("./tunetrivia-types.js").Player} Player
 * @typedef {import("./tunetrivia-types.js").Guess} Guess
 * @typedef {import("./tunetrivia-types.js").AutoPick} AutoPick
 */

const main = byId("main");
const root = byId("game");
const statusLine = byId("game-status");
const sessionID = main.dataset.session;
const base = `/api/v1/tunetrivia/sessions/${sessionID}`;
const sounds = new Sounds();
// Phones start sounds only after a tap: the first tap anywhere opens the sound for the
// reveal and the final fanfare, which come later with no tap of their own.
sounds.unlockOnFirstGesture();

/** @type {Session | null} the game as the server last pushed it */
let state = null;
let lastMessage = "";
/** @type {import("./tunetrivia-types.js").ListedRound[]} the host's songs */
let rounds = [];
/** @type {string | null} */
let lastPhase = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let clipTimer = undefined;
/** @type {string | null} the round whose answer the host asked to see before its reveal */
let answerShownFor = null;
/** @type {{anchor: string, message: string} | null} why this person's last action failed, shown next to it through redraws */
let actionError = null;
/** The covers: blurred before the reveal, the real one sharpening once at it. */
const covers = new CoverArt({ art: "art", hidden: "art blurred", blur: "art-blur" });
/** What the library lacked at the last auto-pick, shown in the lobby until songs change. */
/** @type {AutoPick | null} */
let pickNotice = null;
/** The lobby's Edit settings, kept across redraws so an edit in progress survives them. */
/** @type {HTMLElement | null} */
let settingsBox = null;
/** The host's big screen (presenter view): whether one shows the game (it then plays the
 * clip, not this device) and the pairing code last issued. */
/** @type {{connected: boolean, pairing: import("./tunetrivia-types.js").Pairing | null, watching: boolean}} */
const bigScreen = { connected: false, pairing: null, watching: false };
/** The offset to the server's clock, for the countdown everyone sees. */
let clockOffset = 0;
serverOffset().then((offset) => { clockOffset = offset; });
const audio = new Audio();
audio.preload = "auto";
/** The screen stays on while the game is on. */
const wakeLock = new ScreenWakeLock();

/**
 * The game, for what is drawn only once it has arrived (the screens, the clip): each of
 * those reads it here, so that a call before the first state says so rather than failing on a null.
 */
function current() {
  if (!state) throw new Error("The game has not arrived yet.");
  return state;
}

// ---- Live state ---------------------------------------------------------------------

// A WebSocket first; server-sent events where it cannot get through; polling last
// (the platform's live.js decides and reconnects).
function connect() {
  openLive({
    websocket: `${base}/ws`,
    events: `${base}/events`,
    poll: `${base}/state`,
    onState: apply,
    onDeleted: gone,
    onStatus: (text) => (statusLine.textContent = text),
    onTransport: (transport) => (main.dataset.transport = transport),
  });
}

function gone() {
  wakeLock.release();
  showLobbyTabs(false);
  // A player the host removed is refused the game as if it were deleted.
  const why = seated && !state?.is_host ? "This game was deleted, or the host removed you from it. " : "This game was deleted. ";
  root.replaceChildren(el("p", { id: "gone" }, why, el("a", { href: "/tunetrivia" }, "Back to TuneTrivia")));
}

async function refresh() {
  apply(await api(`${base}/state`));
}

/** @param {Session} next */
async function apply(next) {
  // The same state arrives twice after this person's own action (the reply's refresh and the
  // push): redrawing it again would only throw away a half-typed guess or a finger mid-tap.
  const message = JSON.stringify(next);
  const roundsStale = next.is_host && (next.status === "lobby" || !rounds.length || state?.total_rounds !== next.total_rounds);
  if (message === lastMessage && !roundsStale) return;
  lastMessage = message;
  const previous = state;
  state = next;
  if (next.you) seated = true;
  if (roundsStale) rounds = await api(`${base}/rounds`);
  if (state.is_host && !bigScreen.watching) watchBigScreen();
  if (state.is_host && !previous) await loadRemoved();
  // The end keeps the last round (and its phase): the status is part of the key, or the
  // game's end would be no change and its fanfare would never sound.
  const phase = `${state.status === "ended" ? "ended" : state.round ? `${state.round.round_number}:${state.round.phase}` : state.status}`;
  if (phase !== lastPhase) {
    onPhaseChange(previous);
    lastPhase = phase;
    actionError = null; // a refusal of the last phase is moot in this one
  }
  // Pause stops the host's clip where it is; Resume plays on for the time that was left.
  if (state.is_host && previous && previous.status !== state.status) {
    if (state.status === "paused") pauseClip();
    else if (state.status === "active" && previous.status === "paused" && state.round?.phase === "playing") resumeClip();
  }
  render();
}

/** @param {Session | null} previous */
function onPhaseChange(previous) {
  const state = current();
  const round = state.round;
  if (state.status === "ended") wakeLock.release();
  if (state.status === "ended" && previous && previous.status !== "ended") sounds.victory();
  if (!round) return;
  if (round.phase === "playing" && state.is_host && state.status === "active") playClip();
  if (round.phase === "revealed" || (round.phase === "closed" && previous?.round?.phase === "playing")) {
    stopClip();
    sounds.reveal();
    const mine = state.guesses.find((g) => g.player_id === state.you);
    if (mine && !state.is_host) (mine.artist_correct || mine.song_correct ? sounds.correct : sounds.wrong).call(sounds);
  }
}

// ---- The clip (host's device) ---------------------------------------------------------

// The clip plays where the server's countdown is (presenter-clip.js, as on the big screen):
// the round started when the host pressed Start or Next, and "Play clip" later (the browser
// refused sound without a tap, or the host wants it again) joins the song there, with the
// time everyone has left, not from its start with a new full timer.

/** Whether the clip was playing when the game was paused (Resume plays it on). */
let clipPaused = false;

function playClip() {
  const state = current();
  const round = state.round;
  if (!round?.clip_url || bigScreen.connected) return; // the big screen plays it for the room
  const plan = clipPlan(round, state.status, state.settings.seconds_per_song, Date.now() + clockOffset);
  stopClip();
  if (!plan?.playing) return; // the time is up, or the game is paused
  if (!audio.src.endsWith(round.clip_url)) audio.src = round.clip_url;
  audio.currentTime = plan.at;
  audio.play().catch(() => { statusLine.textContent = "Tap Play to start the clip."; });
  clipTimer = setTimeout(stopClip, plan.left * 1000);
  main.dataset.clip = "playing";
}

function stopClip() {
  clearTimeout(clipTimer);
  clipPaused = false;
  audio.pause();
  main.dataset.clip = "stopped";
}

function pauseClip() {
  if (audio.paused) return;
  stopClip();
  clipPaused = true;
  main.dataset.clip = "paused";
}

function resumeClip() {
  if (!clipPaused) return;
  playClip();
}

// ---- The big screen (presenter view) ---------------------------------------------------------

// While a big screen shows the game it plays the clip on the room's speaker, and this phone is
// the remote: it checks every few seconds whether the screen is still there.
async function watchBigScreen() {
  bigScreen.watching = true;
  while (state && state.is_host && state.status !== "ended") {
    try {
      const { connected } = await api(`${base}/presenter`);
      if (connected !== bigScreen.connected) {
        bigScreen.connected = connected;
        if (connected) {
          bigScreen.pairing = null;
          stopClip();
        }
        render();
      }
    } catch (e) {
      if (e instanceof APIError && e.status === 404) break; // the game was deleted
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  bigScreen.watching = false;
}

async function pairBigScreen() {
  const pairing = await act(`${base}/presenter`, {}, "#show-big-screen").catch(() => null);
  if (!pairing) return;
  bigScreen.pairing = pairing;
  render();
}

async function disconnectBigScreen() {
  await act(`${base}/presenter`, { method: "DELETE" }, "#disconnect-screen").catch(() => null);
  bigScreen.connected = false;
  render();
}

function bigScreenPanel() {
  const state = current();
  const panel = el("div", { class: "big-screen panel", id: "big-screen" });
  if (bigScreen.connected) {
    panel.append(el("p", { id: "big-screen-on" }, "The big screen shows the game and plays the songs; this phone is the remote."),
      el("button", { class: "ghost", id: "disconnect-screen", onclick: disconnectBigScreen }, "Disconnect the big screen"));
    return panel;
  }
  const pairing = bigScreen.pairing && bigScreen.pairing.expires_at_ms > Date.now() ? bigScreen.pairing : null;
  if (pairing) {
    const url = `${location.origin}${pairing.present_url}`;
    panel.append(el("p", {}, "On the TV or projector, open ", el("a", { href: pairing.present_url, id: "big-screen-url", target: "_blank" }, url),
      ", or open ", el("strong", {}, `${location.host}/tunetrivia/present`), " and type"),
    el("p", { class: "code", id: "pairing-code" }, pairing.pairing_code),
    el("p", { class: "muted" }, "The code works once, for 10 minutes. The big screen then plays the songs, so connect it to the room's speakers."));
  } else {
    panel.append(el("button", { class: "ghost", id: "show-big-screen", onclick: pairBigScreen }, "Show on a big screen"),
      " ", el("a", { href: `/tunetrivia/present/${state.invite_code}`, target: "_blank", id: "present-here" }, "or open it on this computer"));
  }
  return panel;
}

// ---- Actions ----------------------------------------------------------------------------

/**
 * Sends an action and redraws; when it is refused, the reason appears next to `anchor`
 * (the control used, found again by its selector after each redraw).
 * @param {string} path
 * @param {{method?: string, body?: any}} [options]
 * @param {string} [anchor] a selector for the control, e.g. "#start"
 */
async function act(path, options = {}, anchor = undefined) {
  actionError = null;
  clearActionErrors(root);
  statusLine.textContent = "";
  try {
    const result = await api(path, { method: "POST", ...options });
    await refresh();
    return result;
  } catch (e) {
    failed(e, anchor);
    throw e;
  }
}

/**
 * A button's handler: the action, its refusal shown next to the button (nothing else to do).
 * @param {string} path
 * @param {string} anchor the button's selector
 * @param {{method?: string, body?: any}} [options]
 */
function press(path, anchor, options = {}) {
  return () => act(path, options, anchor).catch(() => { /* shown next to the button */ });
}

/**
 * Shows an action's failure next to its control, or on the status line when it has none.
 * @param {unknown} e what the action threw
 * @param {string} [anchor] the control's selector
 */
function failed(e, anchor) {
  const control = anchor && root.querySelector(anchor);
  if (!anchor || !control) {
    statusLine.textContent = errorMessage(e);
    return;
  }
  actionError = { anchor, message: errorMessage(e) };
  showActionError(control, errorMessage(e));
}

/** After a redraw: the last failure goes back next to its control, without being read out again. */
function restoreActionError() {
  if (!actionError) return;
  const control = root.querySelector(actionError.anchor);
  if (control) showActionError(control, actionError.message, { announce: false });
}

// ---- Rendering --------------------------------------------------------------------------

function render() {
  const state = current();
  document.title = `${state.title} · TuneTrivia · Juke`;
  const header = el("header", { class: "game-head" },
    el("h1", {}, state.title),
    el("p", { class: "muted" },
      `${state.mode === "party" ? "Party" : "Host"} mode · ${labelFor(state.status)}`,
      state.current_round ? ` · song ${state.current_round} of ${state.total_rounds}` : ""));
  const body = !state.is_host && !state.you ? removed()
    : state.status === "lobby" ? lobby()
    : state.status === "ended" ? results()
    : state.is_host ? hostRound() : playerRound();
  showLobbyTabs(state.is_host && state.status === "lobby");
  // Only what changed is redrawn: the field a player is typing in stays the same element,
  // with its text, focus and caret (patch.js).
  patch(root, el("div", {}, header, body));
  restoreActionError();
  fitToKeyboard();
  tick();
}

// ---- The host's lobby screens (Room, Songs, Settings) ------------------------------------

const LOBBY_SCREENS = ["room", "songs", "settings"];

/** The lobby screen the address names (#songs, #settings), Room by default. */
function lobbyScreen() {
  const id = location.hash.replace(/^#/, "");
  return LOBBY_SCREENS.includes(id) ? id : "room";
}

/**
 * The tab bar (drawn by the server, TuneTriviaPages), shown while the host is in the lobby.
 * @param {boolean} shown
 */
function showLobbyTabs(shown) {
  let bar = main.querySelector(".tabbar");
  if (shown && !bar) {
    const template = /** @type {HTMLTemplateElement} */ (byId("lobby-tabs"));
    main.prepend(template.content.cloneNode(true));
    bar = main.querySelector(".tabbar");
  } else if (!shown && bar) {
    bar.remove();
    return;
  }
  if (!bar) return;
  const current = lobbyScreen();
  for (const link of bar.querySelectorAll("a[data-tab]")) {
    if (/** @type {HTMLElement} */ (link).dataset.tab === current) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

addEventListener("hashchange", () => {
  if (!state) return;
  render();
  // The screen's heading, for a screen reader and a keyboard (as a new page would).
  const heading = root.querySelector(`#lobby-${lobbyScreen()} h2`);
  if (heading) /** @type {HTMLElement} */ (heading).focus({ preventScroll: true });
  scrollTo(0, 0);
});

// ---- A player the host removed -------------------------------------------------------------

/** Whether this page had a seat in the game: a state without one then means it was taken away. */
let seated = false;

function removed() {
  const state = current();
  const canRejoin = state.mode === "party" && state.status !== "ended";
  const box = el("section", { class: "removed panel", id: "removed" },
    el("h2", {}, seated ? "You were removed from this game" : "You are not in this game"),
    el("p", {}, seated ? "The host took you out of the game, with your answers. If they let you back in, you can join again." : "Join with the game's code to play."));
  if (canRejoin) {
    box.append(el("div", { class: "actions" },
      el("button", { class: "primary", id: "rejoin", onclick: rejoin }, seated ? "Join again" : "Join"),
      el("a", { href: "/tunetrivia" }, "Back to TuneTrivia")));
  } else {
    box.append(el("p", {}, el("a", { href: "/tunetrivia" }, "Back to TuneTrivia")));
  }
  return box;
}

async function rejoin() {
  await act("/api/v1/tunetrivia/sessions/join", { body: { invite_code: current().invite_code } }, "#rejoin").catch(() => null);
}

// ---- The guess form with the on-screen keyboard up ---------------------------------------

// A phone's keyboard covers half the screen, and only the visual viewport (the part above it)
// shows: the Song field and Submit were under the keyboard. When what shows is short, the
// title and the cover give way (the countdown stays, small) and the form is scrolled into it.
/** Visible heights (CSS px) below which the guess form is what the screen shows. */
const SHORT_VIEW = 460;

function fitToKeyboard() {
  const view = window.visualViewport;
  const height = view ? view.height : innerHeight;
  const form = document.getElementById("guess-form");
  const short = !!form && height < SHORT_VIEW;
  main.classList.toggle("keyboard-up", short);
  if (!short || !form) return;
  // The form's bottom (Submit) at the bottom of what shows, its top below the sticky header.
  const top = (view ? view.offsetTop : 0) + (document.querySelector("header.top")?.getBoundingClientRect().bottom ?? 0);
  const bottom = (view ? view.offsetTop : 0) + height;
  const box = form.getBoundingClientRect();
  const by = box.bottom > bottom - 4 ? box.bottom - bottom + 8 : box.top < top ? box.top - top - 8 : 0;
  if (by) scrollBy(0, by);
}
window.visualViewport?.addEventListener("resize", fitToKeyboard);
addEventListener("resize", fitToKeyboard);

// ---- The countdown everyone sees ----------------------------------------------------------

/** Seconds of the clip left, by the server's clock; null when no clip is counting down. */
function clipSecondsLeft() {
  const round = state?.round;
  if (!round || round.phase !== "playing") return null;
  if (round.clip_seconds_left != null) return round.clip_seconds_left;
  return round.clip_ends_at_ms ? secondsUntil(round.clip_ends_at_ms, clockOffset) : null;
}

function countdown() {
  const left = clipSecondsLeft();
  if (left === null) return "";
  return el("div", { class: "countdown", id: "countdown", role: "timer", "aria-label": "Seconds left" }, String(Math.ceil(left)));
}

function tick() {
  const box = byId("countdown");
  const left = clipSecondsLeft();
  if (!box || left === null) return;
  // The clip is over: a player's form gives way to "Time's up".
  if (left === 0 && state?.status === "active" && document.getElementById("guess-form")) return render();
  const shown = String(Math.ceil(left));
  if (box.textContent !== shown) box.textContent = shown;
  box.classList.toggle("ending", left <= 5);
  box.classList.toggle("paused", state?.status === "paused");
}
setInterval(tick, 250);

/** @param {string} status */
function labelFor(status) {
  /** @type {Record<string, string>} */
  const labels = { lobby: "waiting to start", active: "playing", paused: "paused", ended: "finished" };
  return labels[status] || status;
}

function lobby() {
  const state = current();
  const players = state.players.filter((p) => !p.is_host);
  const invite = `${location.origin}/tunetrivia/join/${state.invite_code}`;
  const room = el("section", { class: "lobby-screen lobby-room", id: "lobby-room", "aria-labelledby": "room-title" });
  if (state.mode === "party") {
    room.append(el("div", { class: "invite panel" },
      el("div", { class: "invite-text" },
        el("h2", { id: "room-title", tabindex: "-1" }, "Invite code"),
        el("p", { class: "code", id: "invite-code" }, state.invite_code),
        el("p", { class: "invite-url" }, el("a", { href: invite, id: "invite-link" }, invite)),
        el("button", { class: "ghost", id: "copy-invite", onclick: () => copy(`Join my TuneTrivia game "${state.title}": ${invite} (code ${state.invite_code})`) }, "Copy invite")),
      el("div", { class: "qr-box", id: "invite-qr" }, qrSVG(invite, { label: `QR code for ${invite}` }))));
  } else {
    room.append(el("h2", { class: "visually-hidden", id: "room-title", tabindex: "-1" }, "Room"));
  }
  const seats = [el("h2", { id: "players-title" }, `Players (${state.player_count})`),
    el("ul", { class: "players", id: "players", "aria-labelledby": "players-title" }, ...players.map((p) => el("li", { class: p.online === false ? "offline" : "" },
      el("span", { class: "name", title: p.display_name }, p.display_name), p.online === false ? el("span", { class: "muted" }, " · offline") : "",
      state.is_host ? removePlayerButton(p) : ""))),
    more(state.player_count - players.length)];
  if (!state.is_host) {
    // A player's phone says first that they are in, and who else is; the invite (to pass on)
    // comes after.
    room.prepend(el("p", { id: "waiting" }, "You're in. The game starts when the host is ready."), ...seats);
    return room;
  }
  // Start comes before the list, which grows with the room: it stays in the first screen.
  const start = el("button", { class: "primary", id: "start", onclick: press(`${base}/start`, "#start") }, "Start the game");
  start.disabled = !rounds.length || !state.player_count;
  room.append(el("div", { class: "actions start-actions" }, start,
    el("a", { href: "#songs", id: "songs-count" }, `${counted(rounds.length, "song")} of ${state.settings.num_songs}`)),
  ...seats);
  if (state.mode === "host") room.append(addPlayerForm());
  room.append(removedList(), bigScreenPanel());

  const screen = lobbyScreen();
  room.hidden = screen !== "room";
  const trivia = state.settings.trivia_enabled;
  const songs = el("section", { class: "lobby-screen", id: "lobby-songs", "aria-labelledby": "songs-title", hidden: screen !== "songs" },
    el("h2", { id: "songs-title", tabindex: "-1" }, `Songs (${rounds.length} of ${state.settings.num_songs})`),
    el("ol", { class: "rounds", id: "rounds" }, ...rounds.map((r) =>
      el("li", { id: `round-${r.id}` },
        el("span", { class: "song", title: `${r.title} — ${r.artist}` }, `${r.title} — ${r.artist}`),
        r.has_trivia ? el("span", { class: "muted" }, ` · trivia: ${r.trivia_question}`)
          : trivia ? el("span", { class: "muted writing" }, ` · trivia: being ${main.dataset.triviaWriter || "written"}…`) : "",
        " ",
        trivia ? el("button", { class: "ghost", id: `trivia-${r.id}`, onclick: press(`${base}/rounds/${r.id}/trivia`, `#trivia-${r.id}`) },
          r.has_trivia ? "New question" : "Write trivia") : "",
        el("button", { class: "ghost", id: `remove-${r.id}`, "aria-label": `Remove ${r.title}`, onclick: () => removeRound(r.id) }, "Remove")))));
  if (pickNotice) songs.append(pickNoticeBox(pickNotice));
  if (rounds.length < state.settings.num_songs) songs.append(songPicker());
  // Filled while out of sight (an edit in progress stays), and at once when the page opens on it.
  if (screen !== "settings" || !settingsPanel().querySelector("form")) fillSettings();
  const settings = el("section", { class: "lobby-screen", id: "lobby-settings", "aria-labelledby": "settings-title", hidden: screen !== "settings" },
    el("h2", { id: "settings-title", tabindex: "-1" }, "Settings"), keep(settingsPanel()),
    el("div", { class: "actions" }, el("button", { class: "ghost danger", id: "delete-game", onclick: deleteGame }, "Delete game")));
  return el("div", { class: "lobby" }, room, songs, settings);
}

// Host mode: the host seats each player by name. The field is emptied once the player is
// in (it kept the last name, and "Alice" then "Bob" made "AliceBob").
function addPlayerForm() {
  return el("form", { class: "row-form", id: "add-player", onsubmit: async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const form = /** @type {HTMLFormElement} */ (e.currentTarget);
    const field = /** @type {HTMLInputElement} */ (form.elements.namedItem("name"));
    const name = field.value.trim();
    if (!name) return;
    try {
      await act(`${base}/players`, { body: { display_name: name } }, "#add-player-button");
      field.value = "";
      field.focus();
    } catch (_) { /* shown next to the button; the name stays to be corrected */ }
  } },
  el("label", {}, "Name ", el("input", { name: "name", required: "", maxlength: "50", autocomplete: "off" })),
  el("button", { class: "ghost", type: "submit", id: "add-player-button" }, "Add player"));
}

// The host removes a player (a stranger who found the code, a name typed twice); in the
// lobby and during the game alike. Their answers go with them.
/** @param {Player} p */
function removePlayerButton(p) {
  const id = `remove-player-${p.id}`;
  return el("button", { class: "ghost small", id, "aria-label": `Remove ${p.display_name}`, onclick: async () => {
    if (!confirm(`Remove ${p.display_name} from the game? They cannot join again unless you let them back.`)) return;
    actionError = null;
    try {
      await api(`${base}/players/${p.id}`, { method: "DELETE" });
      await loadRemoved();
      await refresh();
    } catch (e) { failed(e, `#${CSS.escape(id)}`); }
  } }, "Remove");
}

/** @type {{player_id: string, display_name: string}[]} whom the host removed: they stay out until let back */
let removedPlayers = [];

async function loadRemoved() {
  if (!state?.is_host) return;
  removedPlayers = await api(`${base}/removed`).catch(() => removedPlayers);
}

/** The host's list of removed players, each with a way back in; nothing when nobody was removed. */
function removedList() {
  if (!removedPlayers.length) return "";
  return el("section", { class: "removed-players panel", id: "removed-players", "aria-labelledby": "removed-title" },
    el("h2", { id: "removed-title" }, "Removed"),
    el("p", { class: "muted" }, "They cannot join this game again unless you let them back."),
    el("ul", { class: "players" }, ...removedPlayers.map((p) => {
      const id = `let-back-${p.player_id}`;
      return el("li", {}, el("span", { class: "name", title: p.display_name }, p.display_name),
        el("button", { class: "ghost small", id, "aria-label": `Let ${p.display_name} back in`, onclick: async () => {
          try {
            await api(`${base}/removed/${p.player_id}`, { method: "DELETE" });
            await loadRemoved();
            render();
          } catch (e) { failed(e, `#${CSS.escape(id)}`); }
        } }, "Let back in"));
    })));
}

/**
 * What the library lacked at the last auto-pick, and the way on: other songs, or other settings.
 * @param {AutoPick} notice
 */
function pickNoticeBox(notice) {
  const { missing, added, wanted } = notice;
  return el("div", { class: "notice panel", id: "pick-notice", role: "status" },
    el("p", {}, `The library has no ${missing.join(", no ")}. `,
      added ? `Added the ${counted(added, "song")} that fit; ${wanted - added} still to pick.` : "No song was added."),
    el("div", { class: "actions" },
      el("button", { class: "primary", id: "fill-others", onclick: async () => {
        /** @type {AutoPick | null} */
        const picked = await act(`${base}/rounds/auto-generate?others=true`, {}, "#fill-others").catch(() => null);
        if (picked) { rounds = picked.rounds; pickNotice = null; render(); }
      } }, "Fill the rest with other songs"),
      el("button", { class: "ghost", onclick: () => { pickNotice = null; render(); } }, "Dismiss")));
}

// The lobby's Settings screen: the same choices as a new game. The form is kept across
// redraws (a player joining must not wipe an edit in progress) and refilled from the game
// while the screen is not shown.
function settingsPanel() {
  if (!settingsBox) settingsBox = /** @type {HTMLElement} */ (el("div", { class: "panel", id: "edit-settings" }));
  return settingsBox;
}

/** What the form was last filled from: it is drawn again only when the settings changed. */
let settingsShown = "";

function fillSettings() {
  const state = current();
  const box = settingsPanel();
  const shown = JSON.stringify([state.settings, state.player_count > 0]);
  if (shown === settingsShown && box.querySelector("form")) return;
  settingsShown = shown;
  const form = settingsForm(state.settings, { modeLocked: state.player_count > 0, writer: main.dataset.triviaWriter });
  form.addEventListener("submit", async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const body = readSettings(form);
    if (current().player_count > 0) delete body.mode;
    // In a change, a missing or null field means "as it was": "any decade" is the mix (no
    // years), and no genres an empty list.
    body.decade = body.decade || "mix";
    body.genre = body.genre ?? "";
    try {
      await act(base, { method: "PATCH", body }, "#save-settings");
      location.hash = "room";
    } catch (_) { /* shown next to Save */ }
  });
  box.replaceChildren(form);
}

/** @param {string} id the round's */
async function removeRound(id) {
  actionError = null;
  try {
    await api(`${base}/rounds/${id}`, { method: "DELETE" });
    rounds = await api(`${base}/rounds`);
    await refresh();
  } catch (e) { failed(e, `#remove-${CSS.escape(id)}`); }
}

async function deleteGame() {
  if (!confirm("Delete this game?")) return;
  await api(base, { method: "DELETE" });
  location.assign("/tunetrivia");
}

/** @type {HTMLElement | null} the lobby's song search, kept across redraws: what the host is typing stays */
let picker = null;

function songPicker() {
  const search = picker ?? songSearch();
  picker = search;
  return keep(search);
}

function songSearch() {
  const results = el("ul", { class: "search-results", id: "song-results" });
  const input = /** @type {HTMLInputElement} */ (el("input", { type: "search", id: "song-search", placeholder: "Search the library…", maxlength: "200" }));
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  listen(input, "input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = input.value.trim();
      if (!q) return results.replaceChildren();
      /** @type {{items: {id: string, title: string, artist: string}[]}} */
      const page = await api(`/api/v1/catalog/search?q=${encodeURIComponent(q)}&limit=8`);
      results.replaceChildren(...page.items.map((t) => el("li", {},
        el("button", { class: "ghost", title: `${t.title} — ${t.artist}`, onclick: async (/** @type {Event} */ e) => {
          const button = /** @type {Element} */ (e.currentTarget); // gone once the handler awaits
          try {
            await api(`${base}/rounds`, { method: "POST", body: { track_id: t.id } });
            rounds = await api(`${base}/rounds`);
            input.value = "";
            results.replaceChildren();
            await refresh();
          } catch (err) { showActionError(button, errorMessage(err)); }
        } }, `Add “${t.title}” — ${t.artist}`))));
    }, 250);
  });
  return el("div", { class: "song-picker" },
    el("label", { for: "song-search" }, "Add a song"), input, results,
    el("div", { class: "actions" }, el("button", { class: "ghost", id: "auto-generate", onclick: async () => {
      /** @type {AutoPick | null} */
      const picked = await act(`${base}/rounds/auto-generate`, {}, "#auto-generate").catch(() => null);
      if (!picked) return;
      rounds = picked.rounds;
      pickNotice = picked.missing.length ? picked : null;
      render();
    } }, "Pick the rest for me")));
}

/** @param {Round} round */
function artwork(round) {
  const blurred = round?.id && round.phase !== "pending" ? `${base}/rounds/${round.id}/cover` : null;
  return covers.draw(round, { artwork: round?.artwork_url, blurred });
}

/**
 * The round under way, which a game that has started always has.
 * @param {Session} game
 */
function roundOf(game) {
  if (!game.round) throw new Error("The game has no round to show.");
  return game.round;
}

function hostRound() {
  const state = current();
  const round = roundOf(state);
  const section = el("section", { class: "round" }, roundTop(round,
    state.mode === "party" ? el("p", { id: "answered" }, `${state.answered_count ?? 0} of ${state.player_count} answered`) : ""));
  const players = state.players.filter((p) => !p.is_host);
  // The host's phone often plays the clip to the room, face up on a table: the answer stays
  // hidden before the reveal until the host asks for it (to score by it in host mode).
  if (round.title && (round.is_revealed || answerShownFor === round.id)) {
    section.append(el("p", { class: "answer", id: "answer" }, el("strong", {}, round.title), ` — ${round.artist}`,
      round.is_revealed ? "" : el("span", { class: "muted" }, " (only you can see this) "),
      round.is_revealed ? "" : el("button", { class: "ghost small", id: "hide-answer", onclick: () => { answerShownFor = null; render(); } }, "Hide")));
  } else if (round.title) {
    section.append(el("button", { class: "ghost", id: "show-answer", "aria-describedby": "answer-note", onclick: () => { answerShownFor = round.id; render(); } }, "Show answer"),
      el("p", { class: "muted", id: "answer-note" }, "Hidden, in case the room can see this screen."));
  }
  const controls = el("div", { class: "actions" });
  if (state.status === "paused") {
    controls.append(el("button", { class: "primary", id: "resume", onclick: press(`${base}/resume`, "#resume") }, "Resume"));
  } else if (round.phase === "playing") {
    controls.append(bigScreen.connected ? el("span", { class: "muted", id: "playing-on-screen" }, "Playing on the big screen")
      : el("button", { class: "ghost", id: "play-clip", onclick: playClip }, "Play clip"),
      el("button", { class: "primary", id: "reveal", onclick: press(`${base}/reveal`, "#reveal") }, "Reveal"));
  } else if (round.phase === "revealed") {
    controls.append(el("button", { class: "primary", id: "reveal-trivia", onclick: press(`${base}/reveal-trivia`, "#reveal-trivia") }, "Reveal trivia answer"));
  } else {
    controls.append(el("button", { class: "primary", id: "next", onclick: press(`${base}/next-round`, "#next") },
      state.current_round >= state.total_rounds ? "Final results" : "Next song"));
  }
  if (state.status === "active") controls.append(el("button", { class: "ghost", id: "pause", onclick: press(`${base}/pause`, "#pause") }, "Pause"));
  controls.append(el("button", { class: "ghost", id: "end", onclick: () => confirm("End the game now?") && press(`${base}/end`, "#end")() }, "End game"));
  section.append(controls);
  if (round.trivia_question && round.is_revealed) section.append(trivia(round));
  if (state.mode === "party") {
    section.append(el("ul", { class: "guesses", id: "guesses" }, ...state.guesses.map((g) => guessRow(g, players))));
  } else {
    section.append(el("ul", { class: "scoring", id: "scoring" }, ...players.map((p) => scoringRow(p, round))));
  }
  section.append(scoreboard(), removedList(), bigScreenPanel());
  return section;
}

/** @param {Guess} g @param {Player[]} players */
function guessRow(g, players) {
  const who = players.find((p) => p.id === g.player_id)?.display_name || "?";
  /** @param {string | undefined} v @param {string | undefined} reason */
  const verdict = (v, reason) => el("span", { class: `verdict ${v}`, title: reason || "" }, v === "near_miss" ? "near miss" : v);
  const row = el("li", {}, el("strong", {}, who), `: ${g.artist_guess || "—"} / ${g.song_guess || "—"} `,
    verdict(g.artist_correct ? "correct" : g.artist_verdict, g.artist_reason), " ", verdict(g.song_correct ? "correct" : g.song_verdict, g.song_reason));
  if (current().round?.is_revealed) {
    for (const [field, v, ok] of [["artist", g.artist_verdict, g.artist_correct], ["song", g.song_verdict, g.song_correct]]) {
      if (v === "near_miss" && !ok) {
        const id = `accept-${field}-${g.player_id}`;
        row.append(" ", el("button", { class: "ghost", id, onclick: press(`${base}/score`, `#${CSS.escape(id)}`, { body: { player_id: g.player_id, accept_near_miss: field } }) }, `Accept ${field}`));
      }
    }
  }
  return row;
}

/** @param {Player} player @param {Round} round */
function scoringRow(player, round) {
  /** @type {Partial<Guess>} */
  const mine = current().guesses.find((g) => g.player_id === player.id) || {};
  /** @type {Record<"artist" | "song" | "trivia", boolean>} */
  const marks = { artist: !!mine.artist_correct, song: !!mine.song_correct, trivia: !!mine.trivia_correct };
  /** @param {"artist" | "song" | "trivia"} field @param {string} label */
  const toggle = (field, label) => {
    const id = `score-${field}-${player.id}`;
    const button = el("button", { class: marks[field] ? "primary" : "ghost", id, "aria-pressed": String(marks[field]) }, label);
    listen(button, "click", () => {
      marks[field] = !marks[field];
      press(`${base}/score`, `#${CSS.escape(id)}`, { body: { player_id: player.id, artist_correct: marks.artist, song_correct: marks.song, trivia_correct: marks.trivia } })();
    });
    return button;
  };
  const row = el("li", {}, el("strong", {}, player.display_name), ` ${counted(player.total_score, "point")} `, toggle("artist", "Artist"), toggle("song", "Song"));
  if (round.has_trivia) row.append(toggle("trivia", "Trivia"));
  return row;
}

/**
 * The top of a round's screen: the cover beside the countdown and what goes with it, so that
 * on a phone the answer fields (or the host's buttons) come right after, in the first screen.
 * @param {Round} round
 * @param {...(Node | string)} beside
 */
function roundTop(round, ...beside) {
  return el("div", { class: `round-top${round.phase === "playing" ? " playing" : ""}` }, artwork(round),
    el("div", { class: "round-clock" }, countdown(), ...beside));
}

function playerRound() {
  const state = current();
  const round = roundOf(state);
  const mine = state.guesses.find((g) => g.player_id === state.you);
  const section = el("section", { class: "round" }, roundTop(round,
    state.status === "paused" ? el("p", { class: "muted", id: "paused-note" }, "The host paused the game.") : "",
    round.phase === "playing" && state.answered_count != null
      ? el("p", { id: "answered", class: "muted" }, `${state.answered_count} of ${state.player_count} answered`) : ""));
  if (round.phase === "playing") {
    if (mine) {
      section.append(el("p", { id: "locked", class: "locked" }, `Your answer is in: ${mine.artist_guess || "—"} / ${mine.song_guess || "—"}. Wait for the reveal.`));
    } else if (clipSecondsLeft() === 0 && state.status === "active") {
      // The server takes no answer once the clip is over (and a moment for the network).
      section.append(el("p", { id: "time-up", class: "locked", role: "status" }, "Time's up: answers for this song are closed. Wait for the reveal."));
    } else {
      // Shown through a pause too, only its button waiting for the game to resume: the
      // form on the page is kept by each redraw (patch.js), with what this person typed.
      const paused = state.status !== "active";
      const artist = el("input", { name: "artist", maxlength: "255", autocapitalize: "words", enterkeyhint: "next" });
      const form = el("form", { class: "guess-form", id: "guess-form", autocomplete: "off" },
        el("label", {}, "Artist ", artist),
        el("label", {}, "Song ", el("input", { name: "song", maxlength: "255", autocapitalize: "words", enterkeyhint: "send" })),
        el("button", { class: "primary", type: "submit", id: "submit-guess", disabled: paused }, paused ? "Paused" : "Submit"));
      // Enter in Artist goes on to Song (the keyboard's "Next"); Enter in Song sends the form.
      listen(artist, "keydown", (/** @type {KeyboardEvent} */ e) => {
        if (e.key !== "Enter" || e.isComposing) return;
        e.preventDefault();
        const field = /** @type {HTMLInputElement} */ (e.currentTarget);
        const song = field.form?.elements.namedItem("song");
        if (song instanceof HTMLInputElement) song.focus();
      });
      listen(form, "focusin", () => fitToKeyboard());
      listen(form, "submit", async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        if (current().status !== "active") return;
        const form = /** @type {HTMLFormElement} */ (e.currentTarget); // the form on the page, not the one drawn with this handler
        /** @param {string} name */
        const typed = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
        const body = { artist_guess: typed("artist"), song_guess: typed("song") };
        if (!body.artist_guess && !body.song_guess) return failed(new Error("Name the artist, the song or both."), "#submit-guess");
        const button = requiredElement("button", HTMLButtonElement, form);
        button.disabled = true;
        try { await act(`${base}/guess`, { body }, "#submit-guess"); } catch (_) { button.disabled = false; }
      });
      section.append(form);
    }
  } else {
    section.append(el("p", { class: "answer", id: "answer" }, "It was ", el("strong", {}, round.title || "?"), ` — ${round.artist || "?"}`));
    if (mine) {
      section.append(el("p", { id: "my-result" },
        `Artist: ${mine.artist_correct ? "right" : mine.artist_verdict === "near_miss" ? "close (the host may accept it)" : "wrong"} · `,
        `Song: ${mine.song_correct ? "right" : mine.song_verdict === "near_miss" ? "close (the host may accept it)" : "wrong"} · `,
        counted(mine.points_earned ?? 0, "point")));
    } else {
      section.append(el("p", { class: "muted" }, "You did not answer this one."));
    }
    if (round.trivia_question) section.append(trivia(round, mine));
  }
  section.append(scoreboard());
  return section;
}

/** @param {Round} round @param {Guess} [mine] this person's guess */
function trivia(round, mine) {
  const state = current();
  const box = el("div", { class: "trivia panel", id: "trivia" }, el("h2", {}, "Trivia"), el("p", {}, round.trivia_question));
  const chosen = mine?.trivia_guess;
  const options = el("div", { class: "options", id: "trivia-options" }, ...(round.trivia_options ?? []).map((option, i) => {
    const correct = round.trivia_answer && option === round.trivia_answer;
    // Once the answer is out, this person's wrong pick is marked beside the right one.
    const wrong = round.trivia_answer && chosen === option && !correct;
    const b = el("button", {
      class: `option${correct ? " correct" : ""}${chosen === option ? " chosen" : ""}${wrong ? " wrong" : ""}`,
      id: `trivia-option-${i}`, "aria-pressed": String(chosen === option),
    }, option, correct ? icon("check", { label: "right answer" }) : wrong ? icon("close", { label: "wrong answer" }) : "");
    b.disabled = state.is_host || !!chosen || round.phase !== "revealed";
    listen(b, "click", press(`${base}/guess`, `#trivia-option-${i}`, { body: { trivia_guess: option } }));
    return b;
  }));
  box.append(options);
  if (round.trivia_answer) {
    box.append(el("p", { id: "trivia-result" }, "Answer: ", el("strong", {}, round.trivia_answer),
      chosen && !state.is_host ? (chosen === round.trivia_answer ? " · you got it" : ` · you picked ${chosen}`) : ""));
  }
  return box;
}

// The server lists the leaders and this person's own seat; in a big room, the rest is a count.
function scoreboard() {
  const state = current();
  const ranked = state.players.filter((p) => !p.is_host).sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  return el("section", { class: "scoreboard" }, el("h2", {}, "Scores"),
    el("ol", { id: "scoreboard" }, ...ranked.map((p) =>
      el("li", { value: String(p.rank ?? ""), class: p.id === state.you ? "me" : "" }, el("strong", { title: p.display_name }, p.display_name), ` ${p.total_score}`,
        state.is_host && p.online === false ? el("span", { class: "muted offline-mark" }, " (offline)") : "",
        state.is_host && state.status !== "ended" ? removePlayerButton(p) : ""))),
    more(state.player_count - ranked.length));
}

/** @param {number} count */
function more(count) {
  return count > 0 ? el("p", { class: "muted" }, `and ${count.toLocaleString()} more`) : "";
}

function results() {
  const state = current();
  const ranked = state.players.filter((p) => !p.is_host).sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  const podium = el("ol", { class: "podium", id: "podium" }, ...ranked.slice(0, 3).map((p) =>
    el("li", { class: `place-${p.rank}` }, el("span", { class: "rank" }, `#${p.rank}`), el("strong", {}, p.display_name), el("span", {}, counted(p.total_score, "point")))));
  const me = ranked.find((p) => p.id === state.you);
  return el("section", { class: "results" }, el("h2", {}, "Final results"), podium,
    me ? el("p", { id: "my-final" }, `You finished #${me.rank} with ${counted(me.total_score, "point")}.`) : "",
    scoreboard(), el("p", {}, el("a", { href: "/tunetrivia" }, "Back to TuneTrivia")));
}

/** @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    statusLine.textContent = "Invite copied.";
  } catch (_) {
    prompt("Copy this invite:", text);
  }
}

// Keep phones awake during a game, where the browser allows it (until it ends).
wakeLock.keep();
// What the library lacked when the new-game form picked the songs (tunetrivia.js).
try {
  const stored = sessionStorage.getItem(`tunetrivia-pick-${sessionID}`);
  if (stored) pickNotice = JSON.parse(stored);
  // The notice is on the Songs screen: open there, so that it is seen.
  if (pickNotice && !location.hash) history.replaceState(null, "", "#songs");
  sessionStorage.removeItem(`tunetrivia-pick-${sessionID}`);
} catch (_) { /* storage off: no notice */ }
connect();
