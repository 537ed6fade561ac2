import { formatTime, requiredElement } from "./api.js";

/**
 * A track as the catalog lists it.
 * @typedef {{id: string, title: string, artist: string, album: string, year?: number | null, duration: number,
 *   audio_url: string, artwork_url?: string | null, download_url?: string | null, playable?: boolean,
 *   track_number?: number | null, codec?: string | null, format: string}} Track
 */

// The player bar: one <audio> element, a queue, seeking, and the Media Session API so the
// lock screen and headset buttons show and control what plays.
export class Player {
  /** @param {HTMLElement} root the player bar the page draws */
  constructor(root) {
    this.root = root;
    this.audio = requiredElement("#audio", HTMLAudioElement, root);
    this.playButton = requiredElement("#play", HTMLButtonElement, root);
    this.seek = requiredElement("#seek", HTMLInputElement, root);
    this.elapsed = requiredElement("#elapsed", HTMLElement, root);
    this.duration = requiredElement("#duration", HTMLElement, root);
    this.title = requiredElement("#np-title", HTMLElement, root);
    this.artist = requiredElement("#np-artist", HTMLElement, root);
    this.art = requiredElement("#np-art", HTMLImageElement, root);
    /** @type {Track[]} */
    this.queue = [];
    this.index = -1;
    this.seeking = false;

    this.playButton.addEventListener("click", () => this.toggle());
    requiredElement("#prev", HTMLButtonElement, root).addEventListener("click", () => this.previous());
    requiredElement("#next", HTMLButtonElement, root).addEventListener("click", () => this.next());
    this.seek.addEventListener("input", () => {
      this.seeking = true;
      this.elapsed.textContent = formatTime(Number(this.seek.value));
    });
    this.seek.addEventListener("change", () => {
      this.audio.currentTime = Number(this.seek.value);
      this.seeking = false;
    });
    this.audio.addEventListener("timeupdate", () => this.renderTime());
    this.audio.addEventListener("loadedmetadata", () => this.renderTime());
    this.audio.addEventListener("play", () => this.renderState());
    this.audio.addEventListener("pause", () => this.renderState());
    this.audio.addEventListener("ended", () => this.next());
    this.audio.addEventListener("error", () => {
      this.artist.textContent = "Could not play this track.";
    });
    this.setupMediaSession();
  }

  /**
   * Plays `tracks[start]` and keeps the list as the queue for next and previous.
   * @param {Track[]} tracks
   * @param {number} start
   */
  playList(tracks, start) {
    this.queue = tracks;
    this.load(start);
  }

  /**
   * @param {number} index
   * @returns {void}
   */
  load(index) {
    if (index < 0 || index >= this.queue.length) return;
    // A track not playable here (no browser plays it and the server has no ffmpeg) is passed over.
    if (this.queue[index].playable === false) return this.load(index + 1);
    this.index = index;
    const track = this.queue[index];
    this.root.hidden = false;
    this.audio.src = track.audio_url;
    this.title.textContent = track.title;
    this.artist.textContent = track.artist;
    if (track.artwork_url) {
      this.art.src = track.artwork_url;
      this.art.alt = `Cover of ${track.album}`;
    } else {
      this.art.removeAttribute("src");
      this.art.alt = "";
    }
    this.seek.max = String(track.duration || 0);
    this.updateMediaSession(track);
    this.audio.play().catch(() => this.renderState());
    document.dispatchEvent(new CustomEvent("juke:track", { detail: track }));
  }

  toggle() {
    if (this.index < 0) return;
    if (this.audio.paused) this.audio.play();
    else this.audio.pause();
  }

  next() {
    if (this.index + 1 < this.queue.length) this.load(this.index + 1);
  }

  previous() {
    // As in every player: past the first seconds, "previous" restarts the track.
    if (this.audio.currentTime > 3 || this.index === 0) this.audio.currentTime = 0;
    else this.load(this.index - 1);
  }

  renderTime() {
    const duration = Number.isFinite(this.audio.duration) ? this.audio.duration : Number(this.seek.max);
    this.seek.max = String(duration || 0);
    if (!this.seeking) {
      this.seek.value = String(this.audio.currentTime);
      this.elapsed.textContent = formatTime(this.audio.currentTime);
    }
    this.duration.textContent = formatTime(duration);
    this.seek.setAttribute("aria-valuetext", `${formatTime(this.audio.currentTime)} of ${formatTime(duration)}`);
    if ("mediaSession" in navigator && navigator.mediaSession.setPositionState && Number.isFinite(this.audio.duration)) {
      try {
        navigator.mediaSession.setPositionState({
          duration: this.audio.duration,
          playbackRate: this.audio.playbackRate,
          position: Math.min(this.audio.currentTime, this.audio.duration),
        });
      } catch (_) {}
    }
  }

  renderState() {
    const playing = !this.audio.paused;
    // The icon's path comes from the server-rendered data attributes.
    this.playButton.querySelector("path")?.setAttribute("d", (playing ? this.playButton.dataset.pause : this.playButton.dataset.play) ?? "");
    this.playButton.setAttribute("aria-label", playing ? "Pause" : "Play");
    this.root.dataset.state = playing ? "playing" : "paused";
    if ("mediaSession" in navigator) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  }

  setupMediaSession() {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    /** @type {Record<string, MediaSessionActionHandler>} */
    const handlers = {
      play: () => this.audio.play(),
      pause: () => this.audio.pause(),
      previoustrack: () => this.previous(),
      nexttrack: () => this.next(),
      seekbackward: (d) => (this.audio.currentTime = Math.max(0, this.audio.currentTime - (d.seekOffset || 10))),
      seekforward: (d) => (this.audio.currentTime = this.audio.currentTime + (d.seekOffset || 10)),
      seekto: (d) => (this.audio.currentTime = d.seekTime ?? this.audio.currentTime),
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try {
        session.setActionHandler(/** @type {MediaSessionAction} */ (action), handler);
      } catch (_) {
        // Not every browser knows every action.
      }
    }
  }

  /** @param {Track} track */
  updateMediaSession(track) {
    if (!("mediaSession" in navigator) || typeof MediaMetadata === "undefined") return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: track.title,
      artist: track.artist,
      album: track.album,
      artwork: track.artwork_url ? [{ src: new URL(track.artwork_url, location.href).href, sizes: "160x160" }] : [],
    });
  }
}
