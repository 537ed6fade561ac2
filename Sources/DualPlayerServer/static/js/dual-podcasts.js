// The speech player's podcasts: subscriptions and their episodes (played marks, progress),
// finding shows and subscribing, each show's own speed and skip-silence, and while an
// episode plays its chapters (through the panel's chapter cursor) and its transcript in time.
import { api, el, formatTime } from "/static/js/api.js";
import { SilenceSkipper } from "./dual-silence.js";
import { plainWords, showTrouble } from "./dual-trouble.js";
import { levelDB } from "./dual-ducking.js";

/**
 * An episode as the server lists it (openapi.yaml: DualEpisode).
 * @typedef {{id: string, podcast_id: string, title: string, published?: string | null, duration?: number | null,
 *   summary?: string | null, link?: string | null, image_url?: string | null, audio_url: string, played: boolean,
 *   position?: number | null, chapters: boolean, transcript: boolean}} Episode
 */

const DEMO_FEED = "juke:demo-podcast";
const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3];
// Which shows' episodes are open, kept on the device: a reload shows them again.
const OPEN_KEY = "juke_dual_open_shows";

/** @returns {Set<string>} */
function openShows() {
  try {
    const ids = JSON.parse(localStorage.getItem(OPEN_KEY) ?? "[]");
    return new Set(Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : []);
  } catch {
    return new Set();
  }
}

export class Podcasts {
  /**
   * @param {any} panel the speech player's Panel (load, useChapters, audio, applySettings)
   * @param {any} controller the page's Controller (status, speechAnalyser)
   */
  constructor(panel, controller) {
    this.panel = panel;
    this.controller = controller;
    const root = panel.shelf;
    this.ui = {
      shows: root.querySelector(".dual-shows"),
      results: root.querySelector(".dual-podcast-results"),
      searchForm: root.querySelector(".dual-podcast-search"),
      note: root.querySelector(".dual-podcast-note"),
      demo: root.querySelector(".dual-podcast-demo"),
    };
    /** @type {any[]} */
    this.shows = [];
    /**
     * Which show's episodes are open.
     * @type {Set<string>}
     */
    this.open = openShows();
    /**
     * The show of what the speech player plays.
     * @type {any}
     */
    this.playingShow = null;
    /** @type {SilenceSkipper | null} */
    this.skipper = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.silenceTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.downloadTimer = undefined;
    root.querySelector(".dual-podcast-search").addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      this.search(/** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("q")).value);
    });
    root.querySelector(".dual-podcast-url").addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      const input = /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("url"));
      this.subscribe(input.value).then((ok) => ok && (input.value = ""));
    });
    this.ui.demo.addEventListener("click", () => this.subscribe(DEMO_FEED));
    root.querySelector(".dual-opml-file").addEventListener("change", (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      const file = input.files?.[0];
      if (file) this.importOPML(file);
      input.value = "";
    });
  }

  /** The account's shows, with the episodes of those open. */
  async load() {
    try {
      this.shows = (await api("/api/v1/dual/podcasts")).items;
    } catch (error) {
      showTrouble(this.ui.shows, error, () => this.load(), "Couldn't load your podcasts.");
      return;
    }
    this.ui.demo.hidden = this.shows.some((s) => s.is_demo);
    if (!this.shows.length) {
      this.ui.shows.replaceChildren(el("li", { class: "muted" }, "No podcasts yet: add one below, or try Juke's demo show."));
      return;
    }
    this.ui.shows.replaceChildren(...this.shows.map((show) => this.showRow(show)));
    await Promise.all([...this.open].map((id) => this.loadEpisodes(id)));
  }

  showRow(/** @type {any} */ show) {
    const details = [show.author, `${show.episodes} episodes`, show.unplayed ? `${show.unplayed} unplayed` : "all played"].filter(Boolean).join(" · ");
    // What the host said is for the log: here, that it failed and what Juke does about it.
    const problem = show.gone
      ? "Its host took this feed down."
      : show.failures
        ? "Juke couldn't refresh this show lately; it tries again later (or tap Refresh)."
        : "";
    const speed = el("select", { class: "dual-show-speed", "aria-label": `Speed for ${show.title}` },
      el("option", { value: "" }, "Player's speed"),
      ...SPEEDS.map((s) => el("option", { value: String(s), selected: show.settings.speed === s }, `${s}×`)));
    speed.addEventListener("change", () => this.saveSettings(show, { speed: speed.value ? Number(speed.value) : null }));
    const skip = el("input", { type: "checkbox", class: "dual-show-skip", checked: show.settings.skip_silence });
    skip.addEventListener("change", () => this.saveSettings(show, { skip_silence: skip.checked }));
    const episodes = el("ol", { class: "dual-episodes", "aria-label": `Episodes of ${show.title}` });
    // The summary is drawn as a button that says what it does: the episodes open under it.
    const details_ = el("details", { class: "dual-show-episodes", open: this.open.has(show.id) },
      el("summary", { class: "btn btn-ghost" }, el("span", { class: "dual-when-closed" }, `Show ${show.episodes} episodes`),
        el("span", { class: "dual-when-open" }, "Hide episodes")), episodes);
    details_.addEventListener("toggle", () => {
      if (details_.open) {
        this.open.add(show.id);
        this.loadEpisodes(show.id);
      } else {
        this.open.delete(show.id);
      }
      this.keepOpen();
    });
    return el("li", { class: "dual-show", dataset: { show: show.id } },
      el("div", { class: "dual-show-head" },
        show.image_url
          ? el("img", { class: "dual-show-art", src: show.image_url, alt: "", loading: "lazy", referrerpolicy: "no-referrer" })
          : null,
        el("div", { class: "dual-show-name" },
          el("strong", {}, show.title),
          el("p", { class: "muted" }, details))),
      problem ? el("p", { class: "form-error dual-show-problem" }, problem) : null,
      el("div", { class: "dual-show-settings" },
        el("label", {}, "Speed ", speed),
        el("label", {}, skip, " Skip silence"),
        el("button", { type: "button", class: "ghost dual-show-refresh", onclick: () => this.refresh(show) }, "Refresh"),
        el("button", { type: "button", class: "ghost dual-remove", "aria-label": `Unsubscribe from ${show.title}`, onclick: () => this.unsubscribe(show) }, "Unsubscribe")),
      details_);
  }

  /** The open shows, kept on this device for the next visit. */
  keepOpen() {
    try {
      localStorage.setItem(OPEN_KEY, JSON.stringify([...this.open].slice(-50)));
    } catch {
      // Storage full or refused: the shows open as before, only not after a reload.
    }
  }

  async loadEpisodes(/** @type {string} */ id) {
    const list = this.ui.shows.querySelector(`[data-show="${CSS.escape(id)}"] .dual-episodes`);
    if (!list) return;
    try {
      /** @type {{items: Episode[]}} */
      const page = await api(`/api/v1/dual/podcasts/${encodeURIComponent(id)}/episodes?limit=100`);
      const show = this.shows.find((s) => s.id === id);
      list.replaceChildren(...(page.items.length ? page.items.map((e) => this.episodeRow(show, e)) : [el("li", { class: "muted" }, "No episodes in the feed.")]));
    } catch (error) {
      showTrouble(list, error, () => this.loadEpisodes(id), "Couldn't load the episodes.");
    }
  }

  episodeRow(/** @type {any} */ show, /** @type {any} */ episode) {
    const when = episode.published ? new Date(episode.published).toLocaleDateString() : "";
    const left = episode.duration && episode.position ? `${formatTime(Math.max(0, episode.duration - episode.position))} left` : "";
    const details = [when, episode.duration ? formatTime(episode.duration) : "", episode.played ? "played" : left].filter(Boolean).join(" · ");
    const progress = episode.duration && episode.position && !episode.played
      ? el("progress", { class: "dual-episode-progress", max: String(episode.duration), value: String(episode.position) })
      : null;
    // The title has the row's width (it wraps between words); its actions go under it.
    return el("li", { class: "dual-episode", dataset: { episode: episode.id, played: String(episode.played), download: episode.download?.status ?? "none" } },
      el("button", { type: "button", class: "dual-episode-play", onclick: () => this.play(show, episode) },
        el("span", { class: "dual-episode-title" }, episode.title), details ? el("span", { class: "dual-episode-details muted" }, details) : null),
      progress,
      el("div", { class: "dual-episode-actions" },
        this.downloadControl(show, episode),
        this.controller.deviceView.button(this.item(show, episode), "speech"),
        el("button", {
          type: "button", class: "ghost dual-episode-played", "aria-pressed": String(episode.played),
          "aria-label": `${episode.played ? "Mark unplayed" : "Mark played"}: ${episode.title}`, onclick: () => this.markPlayed(episode, !episode.played),
        }, episode.played ? "Played" : "Mark played")));
  }

  /**
   * The server's copy of an episode: a button that makes one, its progress while it comes
   * (the list is read again every 2 s until it is done), why it stopped with a way to go on,
   * or that it is there with a way to remove it.
   */
  downloadControl(/** @type {any} */ show, /** @type {any} */ episode) {
    const d = episode.download;
    const start = (/** @type {string} */ label) =>
      el("button", { type: "button", class: "ghost dual-episode-download", "aria-label": `${label}: ${episode.title}`, onclick: () => this.download(show, episode) }, label);
    if (!d) return start("Download");
    if (d.status === "downloading") {
      clearTimeout(this.downloadTimer);
      this.downloadTimer = setTimeout(() => this.loadEpisodes(show.id), 2000);
      const done = d.total ? ` ${Math.round((100 * d.bytes) / d.total)}%` : ` ${(d.bytes / 1e6).toFixed(1)} MB`;
      return el("span", { class: "dual-episode-downloading muted" },
        el("progress", { max: String(d.total || 1), value: d.total ? String(d.bytes) : undefined }), done);
    }
    if (d.status === "failed") {
      // Why it stopped is for the log; Resume carries on from where it stopped.
      return el("span", { class: "dual-episode-failed form-error" }, "Download stopped. ", start("Resume"));
    }
    return el("button", {
      type: "button", class: "ghost dual-episode-remove-download", "aria-label": `Remove the server's copy of ${episode.title}`,
      onclick: () => this.removeDownload(show, episode),
    }, "On the server · Remove");
  }

  async download(/** @type {any} */ show, /** @type {any} */ episode) {
    try {
      await api(`/api/v1/dual/episodes/${encodeURIComponent(episode.id)}/download`, { method: "POST" });
    } catch (error) {
      showTrouble(this.ui.note, error, () => this.download(show, episode), `Couldn't download “${episode.title}”.`);
    }
    await this.loadEpisodes(show.id);
  }

  async removeDownload(/** @type {any} */ show, /** @type {any} */ episode) {
    try {
      await api(`/api/v1/dual/episodes/${encodeURIComponent(episode.id)}/download`, { method: "DELETE" });
    } catch (error) {
      showTrouble(this.ui.note, error, () => this.removeDownload(show, episode), "Couldn't remove the server's copy.");
    }
    await this.loadEpisodes(show.id);
  }

  /** The player item of an episode. */
  item(/** @type {any} */ show, /** @type {any} */ episode) {
    return {
      kind: "episode", id: episode.id, show_id: show.id, title: episode.title, subtitle: show.title,
      // The episode's own artwork, else its show's: Now Playing, the mini player and the lock screen show it.
      audio_url: episode.audio_url, artwork_url: episode.image_url || show.image_url || undefined, duration: episode.duration || undefined,
    };
  }

  /** Plays an episode in the speech player, from where this account left it. */
  async play(/** @type {any} */ show, /** @type {any} */ episode) {
    const start = episode.played || !episode.position ? 0 : episode.position;
    await this.panel.load(this.item(show, episode), { position: start, autoplay: true });
  }

  /** The speech player loaded an episode: its show's settings, chapters and transcript. */
  async loaded(/** @type {any} */ item, /** @type {number | undefined} */ chapter, /** @type {number} */ position) {
    this.playingShow = this.shows.find((s) => s.id === item.show_id) ?? null;
    // A player state kept on the server holds no artwork from another site: the show's again.
    if (!item.artwork_url && this.playingShow?.image_url) {
      item.artwork_url = this.playingShow.image_url;
      this.panel.ui.art.src = item.artwork_url;
      this.panel.ui.art.hidden = false;
    }
    this.applyShowSettings();
    this.controller.transcript.clear();
    const base = `/api/v1/dual/episodes/${encodeURIComponent(item.id)}`;
    const [chapters, transcript] = await Promise.all([api(`${base}/chapters`).catch(() => null), api(`${base}/transcript`).catch(() => null)]);
    if (this.panel.item !== item) return;
    if (chapters?.chapters?.length > 1) this.panel.useChapters(item, chapters.chapters, chapter, position);
    if (transcript?.cues?.length) this.controller.transcript.show(transcript.cues, this.panel.audio.currentTime);
  }

  /** Anything else was loaded: the show's settings no longer apply. */
  unloaded() {
    this.playingShow = null;
    this.applyShowSettings();
  }

  /** The episode played to its end: marked played (offline too: the mark waits on the device). */
  finished(/** @type {any} */ item) {
    this.markPlayed({ id: item.id }, true);
  }

  /** The show's speed over the player's while its episode plays, and skip-silence. */
  applyShowSettings() {
    const show = this.playingShow;
    this.panel.speedOverride = show?.settings.speed ?? null;
    this.panel.applySettings();
    const skip = Boolean(show?.settings.skip_silence);
    if (skip && this.silenceTimer === undefined) {
      this.skipper = new SilenceSkipper();
      this.silenceTimer = setInterval(() => this.skipSilence(), 50);
    } else if (!skip && this.silenceTimer !== undefined) {
      clearInterval(this.silenceTimer);
      this.silenceTimer = undefined;
      this.skipper = null;
      this.panel.silenceFactor = 1;
      this.panel.applySettings();
    }
    this.panel.root.dataset.skipSilence = String(skip);
  }

  /** Skip silence: pauses in speech play faster (the level is read as ducking reads it). */
  skipSilence() {
    if (!this.skipper || !this.controller.transport.speech.isPlaying) return;
    const analyser = this.controller.speechAnalyser();
    if (!analyser) return;
    const samples = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(samples);
    const factor = this.skipper.sample(performance.now() / 1000, levelDB(samples));
    if (factor !== this.panel.silenceFactor) {
      this.panel.silenceFactor = factor;
      this.panel.applySettings();
    }
    this.panel.root.dataset.silenceSaved = this.skipper.saved.toFixed(1);
  }

  async saveSettings(/** @type {any} */ show, /** @type {any} */ change) {
    try {
      show.settings = await api(`/api/v1/dual/podcasts/${encodeURIComponent(show.id)}/settings`, { method: "PUT", body: { ...show.settings, ...change } });
      if (this.playingShow?.id === show.id) this.applyShowSettings();
    } catch (error) {
      this.controller.status(`Settings for “${show.title}” not saved. ${plainWords(error)}`);
    }
  }

  /**
   * Marks an episode played or not. The mark goes through the device's outbox, stamped now by
   * the server's clock: offline it waits and goes when the network is back, and the server
   * keeps the newest mark of any device.
   */
  async markPlayed(/** @type {any} */ episode, /** @type {boolean} */ played) {
    await this.controller.marks.put({ item: episode.id, played });
    if (!navigator.onLine) {
      this.controller.status(played ? "Marked played on this device; it goes to the server when the network is back." : "Marked unplayed on this device; it goes to the server when the network is back.");
      for (const row of this.ui.shows.querySelectorAll(`[data-episode="${CSS.escape(episode.id)}"]`)) row.dataset.played = String(played);
      return;
    }
    await this.load();
  }

  async refresh(/** @type {any} */ show) {
    this.ui.note.textContent = `Refreshing “${show.title}”…`;
    try {
      const fresh = await api(`/api/v1/dual/podcasts/${encodeURIComponent(show.id)}/refresh`, { method: "POST" });
      if (fresh.failures) showTrouble(this.ui.note, `Can't refresh “${show.title}” right now; Juke tries again later.`, () => this.refresh(show));
      else this.ui.note.textContent = `“${show.title}” is up to date.`;
      await this.load();
    } catch (error) {
      showTrouble(this.ui.note, error, () => this.refresh(show), `Couldn't refresh “${show.title}”.`);
    }
  }

  async unsubscribe(/** @type {any} */ show) {
    if (!confirm(`Unsubscribe from “${show.title}”?`)) return;
    try {
      await api(`/api/v1/dual/podcasts/${encodeURIComponent(show.id)}`, { method: "DELETE" });
      this.open.delete(show.id);
      this.keepOpen();
      await this.load();
    } catch (error) {
      showTrouble(this.ui.note, error, () => this.unsubscribe(show), "Couldn't unsubscribe.");
    }
  }

  /** Subscribes to a feed's address (or a show's page, or the demo); says how it went. */
  async subscribe(/** @type {string} */ url) {
    const address = url.trim();
    if (!address) {
      this.ui.note.textContent = "Give a feed's address.";
      return false;
    }
    this.ui.note.textContent = "Reading the feed…";
    try {
      const show = await api("/api/v1/dual/podcasts", { method: "POST", body: { url: address } });
      this.ui.note.textContent = `Subscribed to “${show.title}” (${show.episodes} episodes).`;
      this.open.add(show.id);
      this.keepOpen();
      await this.load();
      return true;
    } catch (error) {
      // Beside the form used: a wrong address is said where it was typed.
      showTrouble(this.ui.note, error, () => this.subscribe(address), "Couldn't subscribe.");
      return false;
    }
  }

  /** Subscribes to every show of another app's OPML export. */
  async importOPML(/** @type {File} */ file) {
    this.ui.note.textContent = `Importing ${file.name}…`;
    try {
      const body = await api("/api/v1/dual/podcasts/opml", { method: "POST", body: file });
      const parts = [`Subscribed to ${body.added} show${body.added === 1 ? "" : "s"}`];
      if (body.already) parts.push(`${body.already} you already had`);
      if (body.skipped.length) parts.push(`${body.skipped.length} skipped (not a web feed)`);
      this.ui.note.textContent = `${parts.join("; ")}. Their episodes arrive within a minute.`;
      await this.load();
      setTimeout(() => this.load(), 8000);
    } catch (error) {
      showTrouble(this.ui.note, error, () => this.importOPML(file), "Couldn't import the subscriptions.");
    }
  }

  async search(/** @type {string} */ text) {
    const q = text.trim();
    const results = this.ui.results;
    // What the search says goes right under its field, in view, not at the end of the card.
    const say = (/** @type {string} */ words) => results.replaceChildren(el("li", { class: "muted dual-podcast-said", role: "status" }, words));
    if (!q) return void say("Say what to look for: a show's name or its host.");
    say("Searching the podcast directory…");
    try {
      const found = await api(`/api/v1/dual/podcasts/search?q=${encodeURIComponent(q)}`);
      if (!found.items.length) return void say("No show matches.");
      results.replaceChildren(
        ...found.items.map((/** @type {any} */ show) =>
          el("li", { class: "dual-podcast-result" },
            show.artwork_url ? el("img", { class: "dual-show-art", src: show.artwork_url, alt: "", loading: "lazy", referrerpolicy: "no-referrer" }) : null,
            el("span", {}, el("strong", {}, show.title), el("span", { class: "muted" }, [show.author, show.genre].filter(Boolean).map((t) => ` — ${t}`).join(""))),
            el("button", { type: "button", class: "primary", onclick: () => this.subscribe(show.feed_url) }, "Subscribe"))));
    } catch (error) {
      showTrouble(results, error, () => this.search(q));
    }
  }
}
