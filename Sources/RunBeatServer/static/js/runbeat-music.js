// Music that follows the phases: each phase's playlist from the library (Juke's pick by
// tempo, the runner's songs, or none), switched with a short fade when the phase changes,
// lowered while RunBeat talks. A phase set to a Spotify playlist is the server's to play on the
// runner's Spotify device: the page's own music stops for it, and plays Juke's pick instead
// when Spotify is not connected. A paused workout pauses the page's music where it is, and
// resuming plays it on from there.
import { api } from "/static/js/api.js";

export class PhaseMusic {
  /** @param {HTMLAudioElement} audio @param {(text: string) => void} onNowPlaying @param {() => boolean} [spotifyConnected] */
  constructor(audio, onNowPlaying, spotifyConnected = () => false) {
    this.audio = audio;
    this.onNowPlaying = onNowPlaying;
    this.spotifyConnected = spotifyConnected;
    /** @type {Map<string, import("./runbeat-types.js").MusicList>} */
    this.lists = new Map();
    /** @type {string | null} the phase whose music plays */
    this.kind = null;
    this.index = 0;
    this.level = 1;
    this.ducked = false;
    /** Paused with the workout: a phase's music is loaded, not played, until resumed. */
    this.paused = false;
    this.audio.addEventListener("ended", () => this.advance());
  }

  /**
   * A phase's songs, asked for once.
   * @param {string} kind
   * @returns {Promise<import("./runbeat-types.js").MusicList>}
   */
  async list(kind) {
    const kept = this.lists.get(kind);
    if (kept) return kept;
    /** @type {import("./runbeat-types.js").MusicList} */
    const list = await api(`/api/v1/runbeat/music/${kind}`);
    this.lists.set(kind, list);
    return list;
  }

  /**
   * The phase changed: its music (the same kind keeps playing where it is).
   * @param {string} kind
   */
  async phase(kind) {
    if (kind === this.kind) return;
    this.kind = kind;
    let list;
    try {
      list = await this.list(kind);
    } catch {
      return;  // the library is out of reach: whatever plays goes on
    }
    if (this.kind !== kind) return;
    await this.fade(0);
    if (list.mode === "spotify" && this.spotifyConnected()) {
      this.audio.pause();
      this.onNowPlaying(`Spotify plays ${list.spotify_playlist_name || "your playlist"}`);
      return;
    }
    if (!list.tracks.length) {
      this.audio.pause();
      this.onNowPlaying(list.mode === "none" ? "No music in this phase" : "No songs for this phase");
      return;
    }
    this.index = 0;
    this.play(list.tracks[0]);
  }

  /** @param {import("./runbeat-types.js").MusicTrack} track */
  play(track) {
    this.audio.src = `/api/v1/catalog/tracks/${track.id}/audio`;
    this.audio.volume = this.ducked ? 0.3 : this.level;
    if (!this.paused) this.audio.play().catch(() => {});
    this.onNowPlaying(`${track.title} · ${track.artist}${track.tempo ? ` · ${Math.round(track.tempo)} BPM` : ""}`);
    if ("mediaSession" in navigator) {
      navigator.mediaSession.metadata = new MediaMetadata({ title: track.title, artist: track.artist, album: "RunBeat" });
    }
  }

  async advance() {
    const list = this.kind ? this.lists.get(this.kind) : null;
    if (!list || !list.tracks.length) return;
    this.index = (this.index + 1) % list.tracks.length;
    this.play(list.tracks[this.index]);
  }

  /**
   * Moves the volume to `to` over `ms`.
   * @param {number} to
   * @param {number} [ms]
   * @returns {Promise<void>}
   */
  fade(to, ms = 600) {
    const from = this.audio.volume;
    if (this.audio.paused || Math.abs(from - to) < 0.01) {
      this.audio.volume = to;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const start = performance.now();
      const step = () => {
        const f = Math.min(1, (performance.now() - start) / ms);
        this.audio.volume = from + (to - from) * f;
        if (f < 1) requestAnimationFrame(step);
        else resolve(undefined);
      };
      requestAnimationFrame(step);
    });
  }

  /**
   * Lower the music while a cue is spoken, and back after.
   * @param {boolean} on
   */
  duck(on) {
    this.ducked = on;
    if (!this.audio.paused) this.fade(on ? 0.3 : this.level, 250);
  }

  /** The workout is paused: the music stops where it is. */
  pause() {
    this.paused = true;
    this.audio.pause();
  }

  /** The workout goes on: so does the phase's music, from where it stopped. */
  resume() {
    this.paused = false;
    const list = this.kind ? this.lists.get(this.kind) : null;
    if (this.audio.src && list?.tracks.length && !(list.mode === "spotify" && this.spotifyConnected())) {
      this.audio.volume = this.ducked ? 0.3 : this.level;
      this.audio.play().catch(() => {});
    }
  }

  stop() {
    this.kind = null;
    this.fade(0).then(() => this.audio.pause());
  }
}
