// TuneTrivia on the big screen (a TV or projector the whole room watches): the lobby with
// the QR code to join, each song's countdown over a blurred cover while the clip plays on
// the room's speaker, the reveal with the real cover, the scores and the podium.
//
// The screen is not a person: it pairs once (a one-time code from the host's phone, or the
// game's invite code where the host is signed in) and holds a token that reads only what the
// whole room may see. It asks for the game about once a second; the host's phone is the remote.
import { APIError, byId, counted, el, token as signedInToken } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";
import { qrSVG } from "/static/js/qr.js";
import { serverOffset } from "/static/js/server-clock.js";
import { CoverArt } from "./cover-art.js";
import { clipPlan, drifted } from "./presenter-clip.js";
import { Sounds } from "./sounds.js";

/**
 * @typedef {import("./tunetrivia-types.js").Session} Session
 * @typedef {import("./tunetrivia-types.js").Round} Round
 * @typedef {import("./tunetrivia-types.js").PresenterState} PresenterState
 */

const TOKEN_KEY = "juke_presenter";
const POLL_MS = 750;

const main = byId("main");
const stage = byId("stage");
const statusLine = byId("present-status");
const pairBox = byId("pair");
const pairForm = byId("pair-form");
const pairError = byId("pair-error");
const soundButton = byId("sound-on");

const sounds = new Sounds();
sounds.unlockOnFirstGesture();
const audio = new Audio();
audio.preload = "auto";

/** @type {string | null} this screen's pairing token */
let token = null;
/** @type {PresenterState | null} */
let state = null;
let drawn = "";
/** @type {string | null} */
let lastPhase = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let pollTimer = undefined;
/** @type {string | null} the clip the audio element holds, so a poll does not reload it */
let loadedClip = null;
/** The browser refused to start sound without a tap: wait for one (the "Turn the sound on" button). */
let soundBlocked = false;
/** The covers: blurred before the reveal, the real one sharpening once at it. */
const covers = new CoverArt({ art: "present-art", hidden: "present-art hidden-art", blur: "present-art-blur" });
let clockOffset = 0;
serverOffset().then((offset) => { clockOffset = offset; });

// ---- Pairing ------------------------------------------------------------------------------

/** The screen's stored pairing: {token, code, expires}, or null. */
function saved() {
  try {
    const stored = JSON.parse(localStorage.getItem(TOKEN_KEY) || "null");
    return stored && typeof stored.token === "string" && stored.expires > Date.now() ? stored : null;
  } catch (_) {
    return null;
  }
}

function start() {
  const code = main.dataset.code;
  const stored = saved();
  // A reload keeps the pairing (a one-time code would not work twice); another code pairs anew.
  if (stored && (!code || stored.code === code)) {
    token = stored.token;
    return poll();
  }
  if (code) return pair(code);
  showPairing("");
}

/**
 * Back to the pairing form, saying why.
 * @param {string} message
 * @param {string} [signIn] where to come back after signing in as the host, if that is the way
 */
function showPairing(message, signIn = "") {
  clearTimeout(pollTimer);
  stopClip();
  token = null;
  state = null;
  drawn = "";
  stage.replaceChildren();
  statusLine.textContent = "";
  pairBox.hidden = false;
  pairError.replaceChildren(message, signIn ? el("a", { href: `/login?next=${encodeURIComponent(signIn)}`, id: "sign-in-link" }, " Sign in as the host") : "");
  byId("pair-code").focus();
}

/**
 * Pairs this screen; the server's refusal becomes the pairing form's message. A plain fetch,
 * not api(): a screen that nobody signed in on must not be sent to the sign-in page.
 * @param {string} code a pairing code, or the game's invite code
 */
async function pair(code) {
  statusLine.textContent = "Connecting…";
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json", "Content-Type": "application/json" };
  const signedIn = signedInToken();
  if (signedIn) headers.Authorization = `Bearer ${signedIn}`;
  try {
    const response = await fetch("/api/v1/tunetrivia/presenter/pair", { method: "POST", headers, body: JSON.stringify({ code }) });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new APIError(response.status, body);
    localStorage.setItem(TOKEN_KEY, JSON.stringify({ token: body.token, code, expires: body.expires_at_ms }));
    token = body.token;
    pairBox.hidden = true;
    soundBlocked = false;
    poll();
  } catch (e) {
    const signIn = e instanceof APIError && e.status === 401 ? `/tunetrivia/present/${code}` : "";
    showPairing(e instanceof APIError ? e.message : "Juke cannot be reached; check the network and try again.", signIn);
  }
}

pairForm.addEventListener("submit", (/** @type {SubmitEvent} */ e) => {
  e.preventDefault();
  const code = byId("pair-code").value.trim();
  if (code) pair(code); // the tap that pairs also lets the clip play with sound
});

// ---- The game, once a second ------------------------------------------------------------------

async function poll() {
  clearTimeout(pollTimer);
  if (!token) return;
  try {
    const response = await fetch(`/api/v1/tunetrivia/presenter/state?token=${encodeURIComponent(token)}`, {
      cache: "no-store", headers: { Accept: "application/json" },
    });
    if (response.status === 401 || response.status === 404) {
      localStorage.removeItem(TOKEN_KEY);
      return showPairing(response.status === 404 ? "That game was deleted." : "This screen was disconnected. Pair it again with a new code.");
    }
    if (!response.ok) throw new Error(String(response.status));
    statusLine.textContent = "";
    apply(await response.json());
  } catch (_) {
    statusLine.textContent = "Reconnecting…";
  }
  pollTimer = setTimeout(poll, POLL_MS);
}

/** @param {PresenterState} next */
function apply(next) {
  const previous = state?.session;
  state = next;
  const game = next.session;
  const round = game.round;
  // The end keeps the last round (and its phase): the status comes first in the key, or the
  // game's end would be no change, and the room's speakers would never play the fanfare.
  const phase = game.status === "ended" ? "ended" : round ? `${round.id}:${round.phase}` : game.status;
  if (phase !== lastPhase) {
    lastPhase = phase;
    if (game.status === "ended" && previous && previous.status !== "ended") sounds.victory();
    if (round?.is_revealed && previous?.round?.id === round.id && previous.round.phase === "playing") sounds.reveal();
  }
  const message = JSON.stringify(game) + (next.artwork_url || "");
  if (message !== drawn) {
    drawn = message;
    render();
  }
  tick();
}

// ---- The clip on the room's speaker ------------------------------------------------------

function syncClip() {
  const game = state?.session;
  const clip = state?.clip_url;
  const plan = game && clip ? clipPlan(game.round, game.status, game.settings.seconds_per_song, Date.now() + clockOffset) : null;
  if (!plan || !clip) return stopClip();
  if (loadedClip !== clip) {
    loadedClip = clip;
    audio.src = clip;
  }
  if (!plan.playing) {
    if (!audio.paused) audio.pause();
    main.dataset.clip = "paused";
    return;
  }
  if (drifted(audio.currentTime, plan.at)) seek(plan.at);
  if (audio.paused && !soundBlocked) {
    audio.play().then(() => {
      main.dataset.clip = "playing";
      soundButton.hidden = true;
    }).catch(() => {
      // The browser wants a tap first (autoplay rules): one tap on the button, then it plays.
      soundBlocked = true;
      soundButton.hidden = false;
      main.dataset.clip = "blocked";
    });
  }
}

/**
 * Moves the clip to `at` seconds, once the file says how long it is if it has not yet.
 * @param {number} at
 */
function seek(at) {
  if (audio.readyState >= 1) audio.currentTime = at;
  else audio.addEventListener("loadedmetadata", () => syncClip(), { once: true });
}

function stopClip() {
  if (!audio.paused) audio.pause();
  main.dataset.clip = "stopped";
}

soundButton.addEventListener("click", () => {
  soundBlocked = false;
  soundButton.hidden = true;
  sounds.context();
  syncClip();
});

// ---- Drawing ---------------------------------------------------------------------------------

/** The state drawn, which has arrived before anything is drawn. */
function shown() {
  if (!state) throw new Error("The game has not arrived yet.");
  return state;
}

function render() {
  const game = shown().session;
  document.title = `${game.title} · TuneTrivia · Juke`;
  main.dataset.status = game.status;
  main.dataset.phase = game.round?.phase || "";
  const body = game.status === "lobby" ? lobby(game) : game.status === "ended" ? podium(game) : roundScreen(game);
  stage.replaceChildren(body);
}

/** The countdown and the clip follow the clock between polls. */
function tick() {
  if (!state) return;
  syncClip();
  const box = byId("present-countdown");
  const game = state.session;
  const plan = clipPlan(game.round, game.status, game.settings.seconds_per_song, Date.now() + clockOffset);
  if (!box) return;
  const shown = plan ? String(Math.ceil(plan.left)) : "0";
  if (box.textContent !== shown) box.textContent = shown;
  box.classList.toggle("ending", !!plan && plan.left <= 5);
}
setInterval(tick, 250);

/** @param {Session} game */
function players(game) {
  return game.players.filter((p) => !p.is_host).sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9));
}

/** @param {Session} game */
function lobby(game) {
  const invite = `${location.origin}/tunetrivia/join/${game.invite_code}`;
  const seated = players(game);
  const join = game.mode === "party"
    ? el("div", { class: "present-join" },
      el("p", { class: "present-lead" }, "Join on your phone"),
      el("div", { class: "present-qr", id: "present-qr" }, qrSVG(invite, { label: `QR code for ${invite}` })),
      el("p", { class: "present-url" }, `${location.host}/tunetrivia`),
      el("p", { class: "present-code-label" }, "Invite code"),
      el("p", { class: "present-code", id: "present-invite-code" }, game.invite_code))
    : el("div", { class: "present-join" }, el("p", { class: "present-lead" }, "The host seats the players."));
  return el("section", { class: "present-lobby" },
    el("h1", { class: "present-title" }, game.title),
    el("div", { class: "present-columns" }, join,
      el("div", { class: "present-players" },
        el("h2", {}, counted(game.player_count, "player")),
        el("ul", { id: "present-players" }, ...seated.map((p) => el("li", { title: p.display_name }, p.display_name))),
        more(game.player_count - seated.length),
        el("p", { class: "present-waiting" }, "The game starts when the host is ready."))));
}

/** @param {Session} game */
function roundScreen(game) {
  const round = game.round;
  if (!round) return el("section", { class: "present-round" }, el("p", { class: "present-lead" }, "Get ready…"));
  const head = el("p", { class: "present-song-number" }, `Song ${round.round_number} of ${game.total_rounds}`,
    game.status === "paused" ? el("span", { class: "present-paused" }, " · Paused") : "");
  if (round.phase === "playing") {
    return el("section", { class: "present-round playing" }, head,
      el("div", { class: "present-columns" }, cover(round),
        el("div", { class: "present-clock" },
          el("div", { class: "present-countdown", id: "present-countdown", role: "timer", "aria-label": "Seconds left" }, ""),
          game.mode === "party" && game.answered_count != null
            ? el("p", { class: "present-answered", id: "present-answered" }, `${game.answered_count} of ${game.player_count} answered`)
            : el("p", { class: "present-answered" }, "Name the artist and the song!"))),
      game.mode === "party" ? whoAnswered(game) : "");
  }
  return el("section", { class: "present-round revealed" }, head,
    el("div", { class: "present-columns" },
      el("div", { class: "present-reveal" }, cover(round),
        el("p", { class: "present-answer", id: "present-answer" }, el("strong", {}, round.title || "?")),
        el("p", { class: "present-artist" }, [round.artist, round.year].filter(Boolean).join(" · "))),
      // With the trivia beside them, the first three: read from across a room, more would not fit.
      el("div", {}, round.trivia_question ? trivia(round) : "", leaders(game, round.trivia_question ? 3 : 5))));
}

/**
 * Each player's name, lit once they have answered the song (as a party game's room expects).
 * @param {Session} game
 */
function whoAnswered(game) {
  const seated = game.players.filter((p) => !p.is_host);
  return el("div", { class: "present-who" },
    el("ul", { id: "present-who", "aria-label": "Who has answered" }, ...seated.map((p) =>
      el("li", { class: p.has_guessed ? "answered" : "", title: p.display_name },
        p.has_guessed ? icon("check", { label: "answered" }) : "", el("span", { class: "name" }, p.display_name)))),
    more(game.player_count - seated.length));
}

/**
 * Before the reveal: the real cover shrunk to a few pixels, blurred; after it, the real one.
 * @param {Round} round
 */
function cover(round) {
  const { artwork_url, cover_url } = shown();
  return covers.draw(round, { artwork: artwork_url, blurred: round.is_revealed ? null : cover_url, id: "present-art" });
}

/** @param {Round} round */
function trivia(round) {
  return el("div", { class: "present-trivia", id: "present-trivia" },
    el("h2", {}, "Trivia"), el("p", { class: "present-question" }, round.trivia_question),
    el("ol", { class: "present-options" }, ...(round.trivia_options || []).map((option) => {
      const right = round.trivia_answer && option === round.trivia_answer;
      return el("li", { class: right ? "correct" : round.trivia_answer ? "dim" : "" }, option, right ? icon("check", { label: "right answer" }) : "");
    })));
}

/** @param {Session} game @param {number} count */
function leaders(game, count) {
  const ranked = players(game).slice(0, count);
  return el("section", { class: "present-scores" }, el("h2", {}, "Scores"),
    el("ol", { id: "present-scores" }, ...ranked.map((p) =>
      el("li", { value: String(p.rank ?? "") }, el("span", { class: "name", title: p.display_name }, p.display_name),
        el("span", { class: "points" }, counted(p.total_score, "point"))))),
    more(game.player_count - ranked.length));
}

/** @param {Session} game */
function podium(game) {
  const ranked = players(game);
  const top = ranked.slice(0, 3);
  return el("section", { class: "present-results" },
    el("h1", { class: "present-title" }, "Final results"),
    // Placed by position, not rank: with a tie for second, first place stays in the middle.
    el("ol", { class: "present-podium", id: "present-podium" }, ...top.map((p, i) =>
      el("li", { class: `place-${i + 1}` },
        el("span", { class: "rank" }, `#${p.rank}`), el("strong", { title: p.display_name }, p.display_name),
        el("span", {}, counted(p.total_score, "point"))))),
    ranked.length > 3 ? leaders({ ...game, players: ranked.slice(3), player_count: game.player_count - 3 }, 7) : "");
}

/** @param {number} count */
function more(count) {
  return count > 0 ? el("p", { class: "muted" }, `and ${count.toLocaleString()} more`) : "";
}

start();
