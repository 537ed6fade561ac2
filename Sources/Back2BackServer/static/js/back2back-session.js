// A Back2Back session: whose turn it is, search and pick, the AI's picks with their reasons,
// the queue (tap a song to play it now), history, direction changes, and the player: two
// decks so songs crossfade, the next song loaded before the end, progress reported so the
// server can hurry a pick, and the Media Session API for the lock screen.
import { api, bindLogout, byId, clearActionErrors, counted, el, errorMessage, formatTime, showActionError, token } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";
import { openLive } from "/static/js/live.js";
import { secondsUntil, serverOffset } from "/static/js/server-clock.js";
import { bindTabs } from "/static/js/tabs.js";

/**
 * The session as the server sends it (openapi.yaml: B2BSession and its parts).
 * @typedef {{track_id: string, title: string, artist: string, album: string, duration: number, year?: number}} Song
 * @typedef {{title: string, artist: string, album?: string, year?: number, url?: string, library_song?: Song}} CatalogSong
 * @typedef {{id: string, song: Song, picked_by: "person" | "ai", picker_id?: string, picker_name?: string, picked_at: string,
 *   status: string, rationale?: string, direction?: string, skipped: boolean}} Entry
 * @typedef {{id: string, display_name: string, is_host: boolean, online?: boolean}} Member
 * @typedef {{kind: "person" | "ai", is_you: boolean, user_id?: string, display_name?: string}} Turn
 * @typedef {"phone" | "tablet" | "computer"} DeviceKind
 * @typedef {{user_id: string, display_name?: string, device_kind?: DeviceKind, at_ms: number}} Handover
 * @typedef {{device_id: string, user_id: string, display_name?: string, device_kind?: DeviceKind, took_over_from?: Handover}} PlayerDevice
 * @typedef {{entry_id: string, position: number, paused: boolean, at_ms: number}} Playhead
 * @typedef {{id: string, title: string, is_host: boolean, invite_token: string, persona_name: string, members: Member[],
 *   turn: Turn, history: Entry[], now_playing?: Entry, queue: Entry[], ai_thinking: boolean, direction_label?: string,
 *   problem?: string, version: number, crossfade_seconds: number, player?: PlayerDevice, playhead?: Playhead,
 *   turn_ends_at_ms?: number}} Session
 */

bindLogout();

const main = byId("main");
const sessionID = main.dataset.session;
const me = main.dataset.user;
const $ = byId;
/** @type {Session | null} */
let state = null;
/** The offset to the server's clock, for the turn's countdown and the song's position. */
let clockOffset = 0;

// This page's id, kept through reloads of the tab: the session has one page that plays the
// music (the host's first, until someone presses Play here); every other page is a remote.
const DEVICE_KEY = `b2b-device-${sessionID}`;
/** Set as the playing page goes (a reload, a closed tab): the reloaded page plays on. */
const RESUME_KEY = `b2b-resume-${sessionID}`;
const randomID = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
let deviceID = sessionStorage.getItem(DEVICE_KEY) || randomID();
sessionStorage.setItem(DEVICE_KEY, deviceID);
let claiming = false;
/**
 * What this page runs on, as the others read it ("Now playing on Ben's phone"): a small
 * screen is a phone, a larger one with touch a tablet.
 * @type {DeviceKind}
 */
const deviceKind = Math.min(screen.width, screen.height) < 600 ? "phone" : matchMedia("(pointer: coarse)").matches ? "tablet" : "computer";
/** How often the playing page tells the session where the song is. */
const REPORT_MS = 5000;

// A duplicated tab (or one opened from this page) starts with a copy of sessionStorage, so
// with this page's id: it would play too, and the room would hear an echo. Before it
// connects, a page asks the other open pages of this browser whether its id is taken; the
// page already open keeps it, and the copy takes a new one.
const pages = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(`b2b-pages-${sessionID}`);
const pageNonce = randomID();
/** How long a new page waits for an open page to say its id is taken (they answer in milliseconds). */
const ID_CHECK_MS = 300;
const identity = new Promise((resolve) => {
  if (!pages) return resolve(undefined);
  pages.onmessage = (/** @type {MessageEvent} */ event) => {
    const message = event.data || {};
    if (message.device !== deviceID || message.nonce === pageNonce) return;
    if (message.type === "hello") pages.postMessage({ type: "taken", device: deviceID, nonce: pageNonce });
    else if (message.type === "taken") {
      deviceID = randomID();
      sessionStorage.setItem(DEVICE_KEY, deviceID);
      sessionStorage.removeItem(RESUME_KEY);
      resolve(undefined);
    }
  };
  pages.postMessage({ type: "hello", device: deviceID, nonce: pageNonce });
  setTimeout(resolve, ID_CHECK_MS);
});

/**
 * Seconds into the song now, from the server's playhead.
 * @param {Playhead | null | undefined} playhead
 */
function playheadPosition(playhead) {
  if (!playhead) return 0;
  if (playhead.paused) return playhead.position;
  return playhead.position + Math.max(0, (Date.now() + clockOffset - playhead.at_ms) / 1000);
}
serverOffset().then((offset) => { clockOffset = offset; });

// ---- Talking to the server ------------------------------------------------------------

/**
 * Sends an action; a refusal is shown next to `anchor` (the control used), announced.
 * @param {string} path
 * @param {any} [body]
 * @param {Element | null} [anchor]
 */
async function act(path, body = undefined, anchor = null) {
  clearActionErrors(main);
  try {
    apply(await api(`/api/v1/back2back/sessions/${sessionID}/${path}`, { method: "POST", body }));
    return true;
  } catch (e) {
    if (anchor?.isConnected) showActionError(anchor, errorMessage(e));
    else $("problem").textContent = errorMessage(e);
    return false;
  }
}

/** @param {Session} next the session as an answer or an event has it */
function apply(next) {
  if (state && next.version < state.version) return; // an older answer arriving late
  state = next;
  render(next);
  deck.sync();
  const resume = sessionStorage.getItem(RESUME_KEY);
  sessionStorage.removeItem(RESUME_KEY);
  if (resume && resume === next.now_playing?.id && (!next.player || next.player.device_id === deviceID) && !claiming) {
    // This tab played the song until it reloaded: it plays on from where it stopped.
    takeOver(null, true);
    return;
  }
  if (next.player || claiming) return;
  if (next.is_host && !next.now_playing) {
    // Nobody plays yet: the host's page takes it. (Once a song has started, a page that goes
    // away leaves the choice to the people: every open page offers Play here.)
    claiming = true;
    act("player", { device_id: deviceID, device_kind: deviceKind }).finally(() => { claiming = false; });
  }
}

/**
 * Play here: the music moves to this page; a song left waiting by a page that went away (or
 * by this tab as it reloaded: `resume`) plays on from where it stopped.
 * @param {Element | null} [anchor]
 * @param {boolean} [resume]
 */
async function takeOver(anchor = null, resume = false) {
  deck.unlock();
  const playhead = state?.playhead;
  const waiting = (resume || !state?.player) && playhead?.paused && playhead.entry_id === state?.now_playing?.id;
  claiming = true;
  try {
    if (!(await act("player", { device_id: deviceID, device_kind: deviceKind }, anchor))) return;
  } finally {
    claiming = false;
  }
  if (waiting && playhead) deck.moveTo(playhead.position, false);
}

function connect() {
  openLive({
    // The page names itself, so the server can tell when the one that plays has gone.
    events: `/api/v1/back2back/sessions/${sessionID}/events?device_id=${deviceID}&device_kind=${deviceKind}`,
    poll: `/api/v1/back2back/sessions/${sessionID}`,
    onState: apply,
    onDeleted: () => ($("turn").textContent = "The host ended this session."),
    // The turn line says when the page is reconnecting.
    onStatus: (/** @type {string} */ text) => $("turn").classList.toggle("offline", text !== ""),
    onTransport: (/** @type {string} */ transport) => (main.dataset.transport = transport),
  });
}

// ---- Drawing ------------------------------------------------------------------------

/** @returns {Record<string, string>} each member's name by id */
const names = () => Object.fromEntries((state?.members ?? []).map((m) => [m.id, m.display_name]));
/** @param {Song} song */
const artwork = (song) => `/api/v1/catalog/tracks/${song.track_id}/artwork`;
/** @param {string} iso */
const when = (iso) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/**
 * Who picks on the DJ's turn, by its persona's name: Juke's own DJ where no AI service is
 * configured, an AI where one is; the page claims neither.
 */
const dj = () => state?.persona_name || "The DJ";

/** @param {Entry} entry */
function pickedBy(entry) {
  if (entry.picked_by === "ai") return dj();
  return entry.picker_id === me ? "You" : entry.picker_name || (entry.picker_id && names()[entry.picker_id]) || "Someone";
}

/** @param {Session} s */
function render(s) {
  $("session-title").textContent = s.title;
  $("persona-line").textContent = `DJ persona: ${s.persona_name} · inspired by, not impersonating, any real DJ`;
  const turn = $("turn");
  main.dataset.turn = s.turn.kind === "ai" ? "ai" : s.turn.is_you ? "you" : "other";
  main.dataset.thinking = String(s.ai_thinking);
  if (s.turn.kind === "ai") turn.textContent = s.ai_thinking ? `${dj()} is choosing…` : `${dj()}'s pick is up next; your turn comes when it starts.`;
  else if (s.turn.is_you) turn.textContent = s.ai_thinking ? `Your turn: pick the next song (${dj()} is lining up a backup).` : "Your turn: pick the next song.";
  else turn.textContent = `${s.turn.display_name || "Someone"}'s turn to pick.`;
  turn.append(el("span", { id: "turn-clock", class: "muted" }));
  tickTurn();
  // The host passes anyone's turn, a person their own, when someone else is here to take it.
  const others = s.members.some((m) => m.online !== false && s.turn.user_id !== m.id);
  $("pass-turn").hidden = !(s.turn.kind === "person" && (s.is_host || s.turn.is_you) && others);
  $("pass-turn").textContent = s.turn.is_you ? "Pass my turn" : `Skip ${s.turn.display_name ? `${s.turn.display_name}'s` : "their"} turn`;
  $("problem").textContent = s.problem || "";

  const mine = s.turn.kind === "person" && s.turn.is_you;
  $("pick-panel").classList.toggle("disabled", !mine);
  $("song-search").disabled = !mine;
  const direction = $("direction");
  direction.hidden = !(mine && s.direction_label);
  direction.textContent = s.direction_label ? `Change direction: ${s.direction_label}` : "";
  const empty = !s.now_playing && !s.history.length && !s.queue.length;
  $("ai-start").hidden = !(mine && empty && !s.ai_thinking);

  renderNow(s);
  renderMini();
  // On a remote, only the host moves the song (the playing page follows; the server refuses
  // a guest's move). A guest's remote shows where the song is, without the buttons it cannot
  // use, and says why; Skip stays, as anyone in the session may skip.
  const steer = canSteer();
  for (const id of ["back15", "fwd15", "toggle"]) if ($(id)) $(id).hidden = !steer;
  if ($("seek")) $("seek").disabled = !steer;
  if ($("remote-note")) $("remote-note").hidden = steer;
  $("queue").replaceChildren(...s.queue.map(queueRow));
  if (!s.queue.length) $("queue").append(el("li", { class: "muted" }, s.ai_thinking ? `${dj()} is choosing…` : "Nothing queued yet."));
  $("history").replaceChildren(...[...s.history].reverse().map(historyRow));
  const who = (/** @type {Member} */ m) => (m.id === me ? "you" : m.display_name) + (m.online === false ? " (away)" : "");
  $("people").textContent = `In this session: ${s.members.map(who).join(", ")} and ${dj()} (the DJ).`;
  $("leave").hidden = s.is_host || !s.members.some((m) => m.id === me);
  const invite = `${location.origin}/back2back/join/${s.invite_token}`;
  $("invite").href = invite;
  $("invite").textContent = invite;
  $("export-m3u8").href = `/api/v1/back2back/sessions/${sessionID}/export?format=m3u8`;
  $("export-xspf").href = `/api/v1/back2back/sessions/${sessionID}/export?format=xspf`;
  const here = s.player?.device_id === deviceID;
  main.dataset.player = here ? "here" : "remote";
  main.dataset.device = deviceID;
  // A song with no page playing it: the page that played it went away, and it waits.
  const waiting = !s.player && !!s.now_playing;
  main.dataset.waiting = String(waiting);
  $("player-line").textContent = waiting
    ? `Nothing plays: the page that played the music has gone. The song waits at ${formatTime(playheadPosition(s.playhead))}; play it here to carry on.`
    : playerLine(s, here);
  $("player-bar").classList.toggle("waiting", waiting);
  $("play-here").hidden = here;
}

/**
 * Where the music plays, and, when it moved on its own because the page playing went away,
 * which page that was: "Now playing on Ben's phone. Ann's computer went away."
 * @param {Session} s
 * @param {boolean} here
 */
function playerLine(s, here) {
  const player = s.player;
  if (!player) return "No device plays the music yet.";
  const kind = player.device_kind || "device";
  const from = player.took_over_from;
  const gone = from ? ` ${from.user_id === me ? "Your" : `${from.display_name || "Someone"}'s`} ${from.device_kind || "device"} went away.` : "";
  if (here) return `Now playing here, on this ${kind}.${gone}`;
  if (player.user_id === me) return `Now playing on another of your devices (a ${kind}); this page is a remote.${gone}`;
  return `Now playing on ${player.display_name || "someone"}'s ${kind}; this page is a remote.${gone}`;
}

/** Whether this page may pause and move the song: the host's pages, and the page that plays. */
function canSteer() {
  return !!state && (state.is_host || state.player?.device_id === deviceID);
}

/** "· 1:05 left" on the turn line while a person's turn is timed. */
function tickTurn() {
  const clock = $("turn-clock");
  if (!clock || !state) return;
  const ends = state.turn_ends_at_ms;
  const text = ends ? ` · ${formatTime(Math.ceil(secondsUntil(ends, clockOffset)))} left` : "";
  if (clock.textContent !== text) clock.textContent = text;
}
setInterval(tickTurn, 500);

/** @param {Session} s */
function renderNow(s) {
  const now = $("now");
  const entry = s.now_playing;
  if (!entry) {
    now.replaceChildren(el("p", { class: "muted" }, s.ai_thinking ? `Waiting for ${dj()}'s pick…` : "Nothing is playing. Pick a song to start."));
    return;
  }
  if (now.dataset.entry === entry.id) return; // the same song: keep the live controls as they are
  now.dataset.entry = entry.id;
  const song = entry.song;
  now.replaceChildren(
    el("img", { class: "np-art", src: artwork(song), alt: `Cover of ${song.album}` }),
    el("div", { class: "np-text" },
      el("p", { class: "np-title", id: "np-title" }, song.title),
      el("p", { class: "np-artist" }, `${song.artist}${song.year ? ` · ${song.year}` : ""}`),
      el("p", { class: "muted" }, `Picked by ${pickedBy(entry)}${entry.direction ? ` · direction: ${entry.direction}` : ""}`),
      entry.rationale ? el("p", { class: "rationale" }, entry.rationale) : null,
    ),
    el("div", { class: "np-controls" },
      el("input", { type: "range", id: "seek", min: "0", max: String(song.duration || 0), step: "0.1", value: "0", "aria-label": "Position" }),
      el("p", { class: "np-time" }, el("span", { id: "elapsed" }, "0:00"), " / ", el("span", { id: "duration" }, formatTime(song.duration))),
      el("p", { class: "muted small", id: "remote-note", hidden: true },
        "Only the host, or the device playing the music, can pause or move the song. You can skip it, and pick on your turn."),
      // The transport as Dual Player's decks draw it: icon buttons, named for screen readers.
      el("div", { class: "button-row np-transport" },
        el("button", { class: "icon-btn", type: "button", id: "back15", title: "Back 15 seconds", "aria-label": "Back 15 seconds", onclick: () => deck.jump(-15) },
          icon("skipBack", { text: "15" })),
        el("button", { class: "icon-btn lg", type: "button", id: "toggle", onclick: () => deck.toggle() }),
        el("button", { class: "icon-btn", type: "button", id: "fwd15", title: "Forward 15 seconds", "aria-label": "Forward 15 seconds", onclick: () => deck.jump(15) },
          icon("skipForward", { text: "15" })),
        el("button", { class: "icon-btn", type: "button", id: "skip", title: "Skip this song", "aria-label": "Skip", onclick: () => skip($("skip")) },
          icon("next")),
        el("button", { class: "ghost small", type: "button", id: "expand", "aria-expanded": "false", onclick: toggleExpanded }, "Expand"),
      ),
    ),
  );
  showToggle(true);
  const seek = $("seek");
  seek.addEventListener("input", () => {
    deck.seeking = true;
    $("elapsed").textContent = formatTime(Number(seek.value));
  });
  seek.addEventListener("change", () => {
    deck.seekTo(Number(seek.value));
    deck.seeking = false;
  });
  deck.renderTime();
}

/**
 * Draws Play or Pause on the now-playing panel's big button, named for what it does.
 * @param {boolean} playing
 */
function showToggle(playing) {
  const toggle = $("toggle");
  if (!toggle) return;
  const name = playing ? "Pause" : "Play";
  if (toggle.getAttribute("aria-label") === name) return;
  toggle.setAttribute("aria-label", name);
  toggle.title = name;
  toggle.replaceChildren(icon(playing ? "pause" : "play"));
}

// ---- The mini player (phones) ----------------------------------------------------------

let nowInView = true;
new IntersectionObserver((entries) => {
  nowInView = entries.some((e) => e.isIntersecting);
  renderMini();
}).observe($("now"));

/** Shows the song playing at the bottom once the now-playing panel has scrolled away (CSS keeps it to phones). */
function renderMini() {
  const entry = state?.now_playing;
  const mini = $("mini-player");
  mini.hidden = !entry || nowInView;
  if (!entry) return;
  if (mini.dataset.entry !== entry.id) {
    mini.dataset.entry = entry.id;
    $("mini-art").src = artwork(entry.song);
    $("mini-title").textContent = entry.song.title;
    $("mini-artist").textContent = entry.song.artist;
    mini.title = `${entry.song.title} — ${entry.song.artist}`;
  }
  $("mini-toggle").hidden = !canSteer();
}
$("mini-toggle").addEventListener("click", () => deck.toggle());
$("mini-skip").addEventListener("click", () => skip($("mini-skip")));
$("mini-open").addEventListener("click", () => $("now").scrollIntoView({ behavior: "smooth", block: "start" }));

function toggleExpanded() {
  const now = $("now");
  const expanded = now.classList.toggle("expanded");
  $("expand").setAttribute("aria-expanded", String(expanded));
  $("expand").textContent = expanded ? "Collapse" : "Expand";
}

/** @param {Entry} entry */
function queueRow(entry) {
  const label =
    entry.status === "queuedIfUserSkips"
      ? `${dj()}'s backup: plays if nobody picks`
      : `Up next · picked by ${pickedBy(entry)}`;
  return el("li", { class: `b2b-entry ${entry.status}`, dataset: { entry: entry.id } },
    // The title over the artist, as a list row: each keeps its words whole on a phone.
    el("button", { class: "row-button b2b-song", type: "button", title: "Play this now", onclick: (/** @type {Event} */ e) => skipTo(entry, /** @type {Element} */ (e.currentTarget)) },
      el("strong", { class: "b2b-song-title" }, entry.song.title), el("span", { class: "b2b-song-artist muted" }, entry.song.artist)),
    el("p", { class: "muted" }, label),
    entry.rationale ? el("p", { class: "rationale" }, entry.rationale) : null,
  );
}

// ---- Skipping a friend's pick asks first --------------------------------------------------

/**
 * The picks a skip would throw away that someone else chose (the AI's, and your own, go
 * without asking).
 * @param {(Entry | undefined)[]} entries
 * @returns {Entry[]}
 */
const othersPicks = (entries) => /** @type {Entry[]} */ (entries.filter((e) => e && e.picked_by === "person" && e.picker_id !== me));

/**
 * "Ben's pick “Song”", for each pick.
 * @param {Entry[]} picks
 */
function namePicks(picks) {
  const named = picks.map((e) => `${e.picker_name || names()[e.picker_id ?? ""] || "Someone"}'s pick “${e.song.title}”`);
  return named.length > 2 ? `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}` : named.join(" and ");
}

/**
 * Asks before throwing away a friend's pick, naming it; true when the person says go on.
 * @param {Entry[]} picks someone else's picks that would be skipped
 * @param {string} detail what happens instead
 * @returns {Promise<boolean>}
 */
function confirmSkip(picks, detail) {
  if (!picks.length) return Promise.resolve(true);
  const dialog = /** @type {HTMLDialogElement} */ ($("confirm-skip"));
  $("confirm-title").textContent = `Skip ${namePicks(picks)}?`;
  $("confirm-detail").textContent = detail;
  $("confirm-ok").textContent = picks.length > 1 ? "Skip them" : "Skip it";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "skip"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
    $("confirm-keep").focus();
  });
}

/**
 * Skip what plays (asking first when a friend picked it).
 * @param {Element | null} anchor
 */
async function skip(anchor) {
  const next = state?.queue[0];
  if (!(await confirmSkip(othersPicks([state?.now_playing]), next ? `“${next.song.title}” plays next.` : "The next song plays."))) return;
  act("skip", undefined, anchor);
}

/**
 * A tap on a queued song: it plays now, and what plays and is queued before it is passed
 * over (asking first when a friend picked any of those).
 * @param {Entry} entry
 * @param {Element} anchor
 */
async function skipTo(entry, anchor) {
  const index = state?.queue.findIndex((e) => e.id === entry.id) ?? -1;
  const passed = [state?.now_playing, ...(state?.queue.slice(0, Math.max(0, index)) ?? [])];
  if (!(await confirmSkip(othersPicks(passed), `“${entry.song.title}” plays now instead.`))) return;
  act("skip-to", { entry_id: entry.id }, anchor);
}

/** @param {Entry} entry */
function historyRow(entry) {
  return el("li", { class: "b2b-entry played", dataset: { entry: entry.id } },
    el("p", { class: "b2b-song" },
      el("strong", { class: "b2b-song-title" }, entry.song.title, entry.skipped ? el("span", { class: "badge" }, "skipped") : null),
      el("span", { class: "b2b-song-artist muted" }, entry.song.artist)),
    el("p", { class: "muted" }, `${pickedBy(entry)} · ${when(entry.picked_at)}`),
    entry.rationale ? el("p", { class: "rationale" }, entry.rationale) : null,
  );
}

// ---- Search and pick (0.75 s after the last key, as in the original app) ---------------------

const PAGE = 20;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;
let searchOffset = 0;
let searchQuery = "";
// Where the search looks: the library, or the outside catalog (Apple Music, iTunes Search)
// when the server has one; catalog results name the library track to pick, if there is one.
let searchSource = "library";
let searchSerial = 0;
$("song-search").addEventListener("input", () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => search(0), 750);
});
$("search-form").addEventListener("submit", (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  clearTimeout(searchTimer);
  search(0);
});
$("more-results").addEventListener("click", () => search(searchOffset));
bindTabs([.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#search-sources [role=tab]"))], $("search-panel"), (tab) => {
  searchSource = tab.dataset.source ?? "library";
  $("song-search").placeholder = searchSource === "library" ? "Search the library" : `Search ${tab.textContent}`;
  clearTimeout(searchTimer);
  search(0);
});

/**
 * Shows a page of results for what the search box says: the first (0) or the next ones.
 * @param {number} offset
 */
async function search(offset) {
  searchQuery = $("song-search").value.trim();
  const results = $("results");
  const serial = ++searchSerial;
  if (!searchQuery) {
    results.replaceChildren();
    $("more-results").hidden = true;
    $("results-status").textContent = "";
    return;
  }
  const query = `q=${encodeURIComponent(searchQuery)}&limit=${PAGE}&offset=${offset}`;
  /** @type {HTMLElement[]} */
  let rows;
  let more;
  if (searchSource === "catalog") {
    /** @type {{items: CatalogSong[], has_more: boolean}} */
    let page;
    try {
      page = await api(`/api/v1/back2back/catalog/search?${query}`);
    } catch (error) {
      if (serial !== searchSerial) return;
      // The catalog is down or busy: say so where the results go; the library still works.
      results.replaceChildren(el("li", { class: "form-error", role: "alert" }, errorMessage(error) || "The catalog cannot be searched now."));
      $("more-results").hidden = true;
      return;
    }
    if (serial !== searchSerial) return; // a newer search is on its way
    rows = page.items.map(catalogRow);
    searchOffset = offset + page.items.length;
    more = page.has_more;
  } else {
    /** @type {{items: {id: string, title: string, artist: string, year?: number}[], total: number}} */
    const page = await api(`/api/v1/catalog/search?${query}`);
    if (serial !== searchSerial) return;
    rows = page.items.map((track) =>
      el("li", { class: "track", title: `${track.title} — ${track.artist}` },
        el("span", { class: "track-title" }, track.title),
        el("span", { class: "muted" }, ` ${track.artist}${track.year ? ` (${track.year})` : ""}`),
        el("button", { class: "primary small", type: "button", onclick: (/** @type {Event} */ e) => pick({ id: track.id }, /** @type {Element} */ (e.currentTarget)) }, "Pick"),
      ),
    );
    searchOffset = offset + page.items.length;
    more = searchOffset < page.total;
  }
  if (offset === 0) results.replaceChildren(...rows);
  else results.append(...rows);
  if (offset === 0 && !rows.length) results.append(el("li", { class: "muted" }, `Nothing matches “${searchQuery}”.`));
  $("more-results").hidden = !more;
  // The short line screen readers hear; the list itself is not a live region.
  const shown = results.querySelectorAll("li.track").length;
  $("results-status").textContent = shown ? `${counted(shown, "song")}${more ? ", more below" : ""}.` : `Nothing matches “${searchQuery}”.`;
}

/**
 * A catalog result: pickable when the library has it, otherwise shown with a link to it.
 * @param {CatalogSong} song
 * @returns {HTMLElement}
 */
function catalogRow(song) {
  const inLibrary = song.library_song;
  const about = [song.album, song.year].filter(Boolean).join(", ");
  const row = el("li", { class: "track catalog-result" },
    el("span", { class: "track-title" }, song.title),
    el("span", { class: "muted" }, ` ${song.artist}${about ? ` (${about})` : ""}`),
  );
  if (inLibrary) {
    row.append(
      el("span", { class: "badge" }, "In your library"),
      el("button", { class: "primary small", type: "button", onclick: (/** @type {Event} */ e) => pick({ id: inLibrary.track_id }, /** @type {Element} */ (e.currentTarget)) }, "Pick"),
    );
  } else {
    row.classList.add("missing");
    row.append(el("span", { class: "muted small" }, "Not in your library"));
    if (song.url && /^https:\/\//.test(song.url)) {
      row.append(el("a", { href: song.url, target: "_blank", rel: "noopener noreferrer", class: "small" }, "Open"));
    }
  }
  return row;
}

/**
 * @param {{id: string}} track the library track to pick
 * @param {Element | null} [button] the Pick button, where a refusal shows
 */
async function pick(track, button = null) {
  deck.unlock();
  if (await act("picks", { track_id: track.id }, button)) {
    $("song-search").value = "";
    $("results").replaceChildren();
    $("more-results").hidden = true;
  }
}

$("direction").addEventListener("click", () => act("direction", undefined, $("direction")));
$("pass-turn").addEventListener("click", () => act("pass-turn", undefined, $("pass-turn")));
$("play-here").addEventListener("click", () => takeOver($("play-here")));
$("leave").addEventListener("click", async () => {
  if (!confirm("Leave this session? The host and the others play on.")) return;
  if (await act("leave", undefined, $("leave"))) location.assign("/back2back");
});
$("ai-start").addEventListener("click", () => {
  deck.unlock();
  act("ai-start");
});
$("copy-invite").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("invite").href);
    $("copy-invite").textContent = "Copied";
  } catch (_) {
    $("copy-invite").textContent = "Select the link to copy it";
  }
});

// ---- The player -------------------------------------------------------------------------

class Deck {
  /**
   * @param {HTMLAudioElement} a
   * @param {HTMLAudioElement} b
   */
  constructor(a, b) {
    this.decks = [a, b];
    this.active = 0;
    /** @type {Entry | null} */
    this.entry = null; // the session entry the active deck plays
    /** @type {Set<string>} */
    this.reported = new Set(); // "entry:95", "entry:99", "entry:end"
    this.seeking = false;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.fade = undefined;
    for (const audio of this.decks) {
      audio.addEventListener("timeupdate", () => audio === this.audio && this.onTime());
      audio.addEventListener("ended", () => audio === this.audio && this.onEnded());
      audio.addEventListener("play", () => audio === this.audio && this.renderState());
      audio.addEventListener("pause", () => audio === this.audio && this.renderState());
    }
    /** @type {number | null} */
    this.seenPlayhead = null; // the server's last playhead this page has followed
    // The playing page says where the song is every few seconds, and once more as it goes, so
    // a page that takes over after it has gone starts where the sound stopped.
    setInterval(() => this.report(), REPORT_MS);
    addEventListener("pagehide", () => this.leaving());
    this.setupMediaSession();
    setInterval(() => { if (!this.playing) this.renderTime(); }, 250); // a remote's position moves on
  }

  get audio() {
    return this.decks[this.active];
  }

  get spare() {
    return this.decks[1 - this.active];
  }

  // Whether this page plays the music: the session names one page.
  get playing() {
    return !!state && state.player?.device_id === deviceID;
  }

  // A tap lets the browser play sound later without another one.
  unlock() {
    for (const audio of this.decks) if (!audio.src) audio.load();
  }

  /** @param {Song} song */
  url(song) {
    return `/api/v1/catalog/tracks/${song.track_id}/audio`;
  }

  sync() {
    if (!state) return;
    if (!this.playing) {
      for (const audio of this.decks) audio.pause();
      this.entry = null;
      return;
    }
    const now = state.now_playing;
    if (!now) return;
    if (this.entry?.id !== now.id) this.start(now);
    else this.follow(state.playhead);
    // The next song is loaded ahead, so it starts without a gap.
    const next = state.queue[0];
    if (next && this.spare.dataset.track !== next.song.track_id) {
      this.spare.dataset.track = next.song.track_id;
      this.spare.src = this.url(next.song);
      this.spare.load();
    }
  }

  /** @param {Entry} entry */
  start(entry) {
    const old = this.audio;
    const fresh = this.spare;
    if (fresh.dataset.track !== entry.song.track_id) {
      fresh.dataset.track = entry.song.track_id;
      fresh.src = this.url(entry.song);
    }
    // A reload (or a page taking over) starts the song where the session has it.
    const playhead = state?.playhead?.entry_id === entry.id ? state.playhead : null;
    this.seenPlayhead = playhead?.at_ms ?? null;
    const resume = playheadPosition(playhead);
    fresh.currentTime = resume > 1 ? resume : 0;
    const crossfade = Math.max(0, Math.min(12, state?.crossfade_seconds || 0));
    const overlapping = crossfade > 0 && !old.paused && old.src && resume <= 1;
    this.active = 1 - this.active;
    this.entry = entry;
    main.dataset.deck = fresh.id; // which <audio> plays now
    clearInterval(this.fade);
    if (overlapping) {
      fresh.volume = 0;
      const began = performance.now();
      this.fade = setInterval(() => {
        const t = Math.min(1, (performance.now() - began) / (crossfade * 1000));
        fresh.volume = t;
        old.volume = 1 - t;
        if (t >= 1) {
          clearInterval(this.fade);
          old.pause();
          old.volume = 1;
        }
      }, 50);
    } else {
      fresh.volume = 1;
      old.pause();
    }
    if (playhead?.paused) {
      old.pause();
    } else {
      fresh.play().catch(() => {
        showToggle(false);
        $("turn").textContent += " Tap Play to hear it.";
      });
    }
    this.updateMediaSession(entry.song);
  }

  /**
   * The host moved the song from a remote: the playing page follows (its own moves are already where they should be).
   * @param {Playhead | undefined} playhead
   */
  follow(playhead) {
    if (!playhead || !this.entry || playhead.entry_id !== this.entry.id || playhead.at_ms === this.seenPlayhead) return;
    this.seenPlayhead = playhead.at_ms;
    const target = playheadPosition(playhead);
    if (Math.abs(this.audio.currentTime - target) > 3) this.audio.currentTime = target;
    if (playhead.paused && !this.audio.paused) this.audio.pause();
    else if (!playhead.paused && this.audio.paused) this.audio.play().catch(() => {});
  }

  /** While this page plays: where the song is now, for a page that may have to take over. */
  report() {
    if (!this.playing || !this.entry || this.audio.paused || this.seeking || state?.now_playing?.id !== this.entry.id) return;
    this.moveTo(this.audio.currentTime, false);
  }

  /** The page goes (closed, reloaded, left): the song waits where it stopped, and a reload plays on. */
  leaving() {
    if (!this.playing || !this.entry || state?.now_playing?.id !== this.entry.id) return;
    if (!this.audio.paused) sessionStorage.setItem(RESUME_KEY, this.entry.id);
    // Paused or playing as it was: if another page carries on, it carries on the same way.
    const body = { entry_id: this.entry.id, position: Math.max(0, this.audio.currentTime), paused: this.audio.paused, device_id: deviceID };
    // keepalive: the request outlives the page.
    fetch(`/api/v1/back2back/sessions/${sessionID}/playhead`, {
      method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` }, body: JSON.stringify(body),
    }).catch(() => {});
  }

  /**
   * Tells the session where the song stands: the playing page after its own seek or pause, or the host's remote asking the player to move.
   * @param {number} position
   * @param {boolean} paused
   */
  moveTo(position, paused) {
    const entry = state?.now_playing;
    if (!entry) return;
    act("playhead", { entry_id: entry.id, position: Math.max(0, position), paused, device_id: deviceID });
  }

  onTime() {
    this.renderTime();
    const audio = this.audio;
    const entry = this.entry;
    if (!entry || !Number.isFinite(audio.duration) || audio.duration <= 0) return;
    const fraction = Math.min(1, audio.currentTime / audio.duration);
    // Near the end the server loads the next song or hurries the AI (95%, then 99%).
    for (const mark of [0.95, 0.99]) {
      const key = `${entry.id}:${mark}`;
      if (fraction >= mark && !this.reported.has(key)) {
        this.reported.add(key);
        act("progress", { entry_id: entry.id, fraction, device_id: deviceID });
      }
    }
    // With a crossfade, the next song starts that many seconds before this one ends.
    const crossfade = state?.crossfade_seconds || 0;
    if (crossfade > 0 && state?.queue.length && audio.duration - audio.currentTime <= crossfade) this.finish(entry);
  }

  onEnded() {
    if (this.entry) this.finish(this.entry);
  }

  /** @param {Entry} entry */
  finish(entry) {
    const key = `${entry.id}:end`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    act("finished", { entry_id: entry.id, device_id: deviceID });
  }

  toggle() {
    // No page plays the song (the one that did went away): Play takes it over here, rather
    // than start the server's clock with nobody hearing it.
    if (state && !state.player && state.now_playing) {
      takeOver();
      return;
    }
    if (!this.playing) {
      // The host's remote pauses or resumes the playing page.
      this.moveTo(playheadPosition(state?.playhead), !state?.playhead?.paused);
      return;
    }
    if (this.audio.paused) this.audio.play();
    else this.audio.pause();
    this.moveTo(this.audio.currentTime, this.audio.paused);
  }

  /** Where the song stands as this page shows it. */
  get position() {
    return this.playing ? this.audio.currentTime : playheadPosition(state?.playhead);
  }

  /** @param {number} seconds forward, or back when negative */
  jump(seconds) {
    this.seekTo(this.position + seconds);
  }

  /** @param {number} seconds */
  seekTo(seconds) {
    const known = state?.now_playing?.song?.duration || Infinity;
    const duration = this.playing && Number.isFinite(this.audio.duration) ? this.audio.duration : known;
    const target = Math.max(0, Math.min(duration, seconds));
    if (this.playing) this.audio.currentTime = target;
    this.moveTo(target, this.playing ? this.audio.paused : !!state?.playhead?.paused);
  }

  renderTime() {
    const audio = this.audio;
    const seek = $("seek");
    if (!seek) return;
    const duration = this.playing && Number.isFinite(audio.duration) ? audio.duration : Number(seek.max);
    seek.max = String(duration || 0);
    const at = Math.min(this.position, duration || Infinity);
    if (!this.seeking) {
      seek.value = String(at);
      $("elapsed").textContent = formatTime(at);
    }
    $("duration").textContent = formatTime(duration);
    seek.setAttribute("aria-valuetext", `${formatTime(at)} of ${formatTime(duration)}`);
    main.dataset.position = String(Math.floor(at)); // the true position, on every page
    if (!this.playing) {
      const paused = !!state?.playhead?.paused;
      showToggle(!paused);
      $("mini-toggle").textContent = paused ? "Play" : "Pause";
      main.dataset.audio = "remote";
      return;
    }
    if ("mediaSession" in navigator && navigator.mediaSession.setPositionState && Number.isFinite(audio.duration)) {
      try {
        navigator.mediaSession.setPositionState({ duration: audio.duration, playbackRate: 1, position: Math.min(audio.currentTime, audio.duration) });
      } catch (_) {}
    }
  }

  renderState() {
    const playing = !this.audio.paused;
    showToggle(playing);
    $("mini-toggle").textContent = playing ? "Pause" : "Play";
    main.dataset.audio = playing ? "playing" : "paused";
    if ("mediaSession" in navigator) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  }

  setupMediaSession() {
    if (!("mediaSession" in navigator)) return;
    /** @type {Record<string, MediaSessionActionHandler>} */
    const handlers = {
      play: () => { if (this.audio.paused) this.toggle(); },
      pause: () => { if (!this.audio.paused) this.toggle(); },
      nexttrack: () => skip(null),
      seekbackward: () => this.jump(-15),
      seekforward: () => this.jump(15),
      seekto: (details) => { if (typeof details.seekTime === "number") this.seekTo(details.seekTime); },
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try {
        navigator.mediaSession.setActionHandler(/** @type {MediaSessionAction} */ (action), handler);
      } catch (_) {}
    }
  }

  /** @param {Song} song */
  updateMediaSession(song) {
    if (!("mediaSession" in navigator) || typeof MediaMetadata === "undefined") return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: song.title,
      artist: song.artist,
      album: song.album,
      artwork: [{ src: new URL(artwork(song), location.href).href, sizes: "160x160" }],
    });
  }
}

const deck = new Deck($("deck-a"), $("deck-b"));
identity.then(connect);
