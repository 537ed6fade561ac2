// Dual Player's transport rules in the browser: which player plays after a button, a
// headset press or an interruption, and what the lock screen shows. The same rules as the
// Swift engine (Sources/DualPlayer/LockScreen), held to the same checklist table
// (Tests/DualPlayerTests/Fixtures/transport-checklist.json) by Tests/WebClient/dual-transport.test.js.
// Pure: no DOM, no audio; the page turns media element events into these events and
// performs the actions.

/** @typedef {"music" | "speech"} PlayerKind */
/** @typedef {{ hasMedia: boolean, isPlaying: boolean }} Player */
/**
 * @typedef {{ music: Player, speech: Player, musicWasPlaying: boolean, speechWasPlaying: boolean }} Transport
 * The flags are the seed's musicWasPlaying / speechWasPlaying: what was playing before
 * everything paused. They change only in `apply`.
 */
/**
 * @typedef {{ type: "loaded" | "unloaded" | "userPlay" | "userPause" | "interrupted" | "finished", player: PlayerKind }
 *   | { type: "mediaToggle" | "mediaPlay" | "mediaPause" }} TransportEvent
 * A pause the page asked for is userPause; one the browser made by itself (headphones
 * unplugged, a call, another app taking the audio) is interrupted.
 */
/** @typedef {{ type: "play" | "pause", player: PlayerKind }} TransportAction */
/** @typedef {{ shown: "nothing" | "music" | "speech" | "combined", playing: boolean }} NowPlaying */

/** @type {PlayerKind[]} */
export const KINDS = ["music", "speech"];

/** @returns {Transport} */
export function emptyTransport() {
  return {
    music: { hasMedia: false, isPlaying: false },
    speech: { hasMedia: false, isPlaying: false },
    musicWasPlaying: false,
    speechWasPlaying: false,
  };
}

/** @param {Transport} t */
function copy(t) {
  return { music: { ...t.music }, speech: { ...t.speech }, musicWasPlaying: t.musicWasPlaying, speechWasPlaying: t.speechWasPlaying };
}

/** @param {Transport} t */
const anyPlaying = (t) => t.music.isPlaying || t.speech.isPlaying;

/** @param {Transport} t @param {PlayerKind} kind */
const wasPlaying = (t, kind) => (kind === "music" ? t.musicWasPlaying : t.speechWasPlaying);

/** @param {Transport} t */
function rememberWhatPlays(t) {
  t.musicWasPlaying = t.music.isPlaying;
  t.speechWasPlaying = t.speech.isPlaying;
}

/** @param {Transport} state @returns {{ state: Transport, actions: TransportAction[] }} */
function pauseAll(state) {
  if (!anyPlaying(state)) return { state, actions: [] };
  const next = copy(state);
  rememberWhatPlays(next);
  /** @type {TransportAction[]} */
  const actions = [];
  for (const kind of KINDS) {
    if (state[kind].isPlaying) {
      next[kind].isPlaying = false;
      actions.push({ type: "pause", player: kind });
    }
  }
  return { state: next, actions };
}

/** Resumes what was playing before; with no such memory, every player with media. */
function resume(/** @type {Transport} */ state) {
  let kinds = KINDS.filter((k) => wasPlaying(state, k) && state[k].hasMedia);
  if (kinds.length === 0) kinds = KINDS.filter((k) => state[k].hasMedia);
  const next = copy(state);
  for (const kind of kinds) next[kind].isPlaying = true;
  if (kinds.length > 0) rememberWhatPlays(next);
  return { state: next, actions: kinds.map((k) => /** @type {TransportAction} */ ({ type: "play", player: k })) };
}

/**
 * The next transport and what to do, for one event.
 * @param {Transport} state
 * @param {TransportEvent} event
 * @returns {{ state: Transport, actions: TransportAction[] }}
 */
export function apply(state, event) {
  const next = copy(state);
  /** @type {TransportAction[]} */
  const actions = [];
  switch (event.type) {
    case "loaded":
      next[event.player] = { hasMedia: true, isPlaying: false };
      break;
    case "unloaded":
      next[event.player] = { hasMedia: false, isPlaying: false };
      if (event.player === "music") next.musicWasPlaying = false;
      else next.speechWasPlaying = false;
      break;
    case "userPlay":
      if (!state[event.player].hasMedia) break;
      next[event.player].isPlaying = true;
      rememberWhatPlays(next);
      break;
    case "userPause":
    case "finished":
      next[event.player].isPlaying = false;
      // While the other plays, it alone is what was playing; when this was the last one,
      // the memory of what played stays for the lock screen and the next resume.
      if (anyPlaying(next)) rememberWhatPlays(next);
      break;
    case "mediaToggle":
      return anyPlaying(state) ? pauseAll(state) : resume(state);
    case "mediaPlay":
      return anyPlaying(state) ? { state, actions: [] } : resume(state);
    case "mediaPause":
      return pauseAll(state);
    case "interrupted":
      // The browser paused one player; the other pauses with it, and the flags keep what
      // was playing so that resuming brings back exactly that.
      if (!anyPlaying(state)) break;
      rememberWhatPlays(next);
      for (const kind of KINDS) {
        if (state[kind].isPlaying) {
          next[kind].isPlaying = false;
          if (kind !== event.player) actions.push({ type: "pause", player: kind });
        }
      }
      break;
  }
  return { state: next, actions };
}

/**
 * The seed's LockScreenManager.update(), in its order: what plays wins; when nothing plays,
 * what was playing before (both: the combined view stays); then whichever has media.
 * @param {Transport} t
 * @returns {NowPlaying}
 */
export function decide(t) {
  if (t.music.isPlaying && t.speech.isPlaying) return { shown: "combined", playing: true };
  if (t.music.isPlaying) return { shown: "music", playing: true };
  if (t.speech.isPlaying) return { shown: "speech", playing: true };
  if (t.musicWasPlaying && t.speechWasPlaying && t.music.hasMedia && t.speech.hasMedia) return { shown: "combined", playing: false };
  if (t.musicWasPlaying && t.music.hasMedia) return { shown: "music", playing: false };
  if (t.speechWasPlaying && t.speech.hasMedia) return { shown: "speech", playing: false };
  if (t.music.hasMedia) return { shown: "music", playing: false };
  if (t.speech.hasMedia) return { shown: "speech", playing: false };
  return { shown: "nothing", playing: false };
}

/** The player the lock screen's seek buttons move: in the combined view, speech. */
export function seekTarget(/** @type {NowPlaying} */ now) {
  return now.shown === "nothing" ? null : now.shown === "music" ? "music" : "speech";
}

/** The player the lock screen's track buttons move: in the combined view, music. */
export function trackTarget(/** @type {NowPlaying} */ now) {
  return now.shown === "nothing" ? null : now.shown === "speech" ? "speech" : "music";
}

/**
 * What the Media Session shows for a decision: the shown player's title, artist and
 * artwork, or the combined title with Juke's logo.
 * @param {NowPlaying} now
 * @param {{ music?: { title: string, artist?: string, artwork?: string }, speech?: { title: string, artist?: string, artwork?: string } }} media
 * @param {string} logo the URL of Juke's logo
 * @returns {{ title: string, artist: string, album: string, artwork: { src: string }[] } | null}
 */
export function sessionMetadata(now, media, logo) {
  if (now.shown === "nothing") return null;
  if (now.shown === "combined") {
    const music = media.music?.title ?? "";
    const speech = media.speech?.title ?? "";
    return { title: `${music} + ${speech}`, artist: "Dual Player", album: "Juke", artwork: [{ src: logo }] };
  }
  const item = media[now.shown];
  if (!item) return null;
  return { title: item.title, artist: item.artist ?? "", album: "Juke", artwork: [{ src: item.artwork || logo }] };
}

/**
 * The lock screen's position, in the frame the page shows: within the chapter playing (its
 * start is 0, its length the duration), or the whole file. Null when there is no length yet.
 * @param {{ start: number, end: number }} bounds the part of the file the seek bar covers
 * @param {number} at the element's time in the file
 * @param {number} rate the element's playback rate
 * @returns {{ duration: number, position: number, playbackRate: number } | null}
 */
export function lockScreenPosition(bounds, at, rate) {
  const duration = bounds.end - bounds.start;
  if (!(duration > 0) || !Number.isFinite(duration)) return null;
  const position = Math.min(Math.max(at - bounds.start, 0), duration);
  return { duration, position, playbackRate: rate > 0 ? rate : 1 };
}

/**
 * The file time a lock-screen seek asks for: `seekTime` is in the same frame as
 * `lockScreenPosition`, so 5 s is 5 s into the chapter, kept inside it.
 * @param {{ start: number, end: number }} bounds @param {number} seekTime
 */
export function lockScreenSeek(bounds, seekTime) {
  const within = Number.isFinite(seekTime) ? Math.max(0, seekTime) : 0;
  return bounds.end > bounds.start ? Math.min(bounds.start + within, bounds.end) : bounds.start + within;
}
