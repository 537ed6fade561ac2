import { formatTime } from "./api.js";

// The player bar: one <audio> element, a queue, seeking, and the Media Session API so the
// lock screen and headset buttons show and control what plays.
export class Player {
  constructor(root) {
    this.root = root;
    this.audio = root.querySelector("#audio");
    this.playButton = root.querySelector("#play");
    this.seek = root.querySelector("#seek");
    this.elapsed = root.querySelector("#elapsed");
    this.duration = root.querySelector("#duration");
    this.title = root.querySelector("#np-title");
    this.artist = root.querySelector("#np-artist");
    this.art = root.querySelector("#np-art");
    this.queue = [];
    this.index = -1;
    this.seeking = false;

    this.playButton.addEventListener("click", () => this.toggle());
    root.querySelector("#prev").addEventListener("click", () => this.previous());
    root.querySelector("#next").addEventListener("click", () => this.next());
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

  // Plays `tracks[start]` and keeps the list as the queue for next and previous.
  playList(tracks, start) {
    this.queue = tracks;
    this.load(start);
  }

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
    this.playButton.querySelector("path")?.setAttribute("d", playing ? this.playButton.dataset.pause : this.playButton.dataset.play);
    this.playButton.setAttribute("aria-label", playing ? "Pause" : "Play");
    this.root.dataset.state = playing ? "playing" : "paused";
    if ("mediaSession" in navigator) navigator.mediaSession.playbackState = playing ? "playing" : "paused";
  }

  setupMediaSession() {
    if (!("mediaSession" in navigator)) return;
    const session = navigator.mediaSession;
    const handlers = {
      play: () => this.audio.play(),
      pause: () => this.audio.pause(),
      previoustrack: () => this.previous(),
      nexttrack: () => this.next(),
      seekbackward: (d) => (this.audio.currentTime = Math.max(0, this.audio.currentTime - (d.seekOffset || 10))),
      seekforward: (d) => (this.audio.currentTime = this.audio.currentTime + (d.seekOffset || 10)),
      seekto: (d) => (this.audio.currentTime = d.seekTime),
    };
    for (const [action, handler] of Object.entries(handlers)) {
      try {
        session.setActionHandler(/** @type {MediaSessionAction} */ (action), handler);
      } catch (_) {
        // Not every browser knows every action.
      }
    }
  }

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
