// Dual Player's page: a music player and a speech player playing at the same time. The
// transport rules (who plays after a button, a headset press or an interruption, and what
// the lock screen shows) are dual-transport.js; chapters are dual-chapters.js; podcasts are
// dual-podcasts.js. This module
// wires them to the <audio> elements, Web Audio (Boost), the Media Session, the wake lock
// and the server (state, settings and positions, the newest winning across devices).
import { api, APIError, bindLogout, byId, el, errorMessage, formatTime, NetworkError, requiredElement, token } from "/static/js/api.js";
import { retryable, showTrouble } from "./dual-trouble.js";
import { apply, decide, emptyTransport, KINDS, lockScreenPosition, lockScreenSeek, seekTarget, sessionMetadata, trackTarget } from "./dual-transport.js";
import { ChapterCursor, sanitized } from "./dual-chapters.js";
import { levelDB, SpeechActivity } from "./dual-ducking.js";
import { Podcasts } from "./dual-podcasts.js";
import { Articles } from "./dual-articles.js";
import { TranscriptView } from "./dual-transcript-view.js";
import { asPlayedMark, asPlayerSnapshot, Outbox, PositionOutbox } from "./dual-outbox.js";
import { DeviceShelf } from "./dual-device.js";
import { DeviceView } from "./dual-device-view.js";
import { bookSpans, chapterItem, keptBook, savedChapters } from "./dual-saved.js";
import { count, shelvedLabel } from "./dual-words.js";
import { serverOffset } from "/static/js/server-clock.js";
import { Screens } from "./dual-screens.js";
import { Library, trackItem } from "./dual-library.js";
import { queueFor, queueStep } from "./dual-queue.js";
import { bookProgress, row } from "./dual-rows.js";
import { icon } from "/static/js/icons.js";
import { ScreenWakeLock } from "/static/js/wake-lock.js";

/** @typedef {import("./dual-transport.js").PlayerKind} PlayerKind */
/**
 * What a player plays: a song, a library track, a book or one of its chapters, an episode, an
 * article read aloud, a station. The fields every kind has are named; each kind adds its own
 * (a book's chapters and shelf entry, an episode's show), read where that kind is handled.
 * @typedef {{kind: string, id: string, title: string, subtitle?: string, audio_url: string, artwork_url?: string,
 *   duration?: number, [field: string]: any}} PlayerItem
 */

bindLogout();

const LOGO = "/static/img/icon.svg";
/** While a player plays, its position is saved this often (a tab the system kills loses at most this much). */
const SAVE_EVERY_MS = 3000;
const SPEECH_BACK = 15;
const SPEECH_FORWARD = 30;
const DUCK_RAMP = { attack: 0.15, release: 0.6 };
/** The last state the server gave (and what each player has since), to open with no network. */
const STATE_KEY = "juke_dual_state";

/**
 * PUTs `body` as JSON with the signed-in token; true when the server has answered for good:
 * kept, or refused in a way that sending again will not change (a 4xx other than 401 and
 * 429). Anything else (offline, a 5xx) waits in its outbox for later.
 * @param {string} path @param {any} body
 */
async function putForGood(path, body) {
  try {
    const response = await fetch(path, {
      method: "PUT", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` }, body: JSON.stringify(body),
    });
    return response.ok || (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 429);
  } catch (_) {
    return false;
  }
}

/**
 * Sends each entry with `put`, in order; true when every one was answered for good.
 * @param {any[]} entries
 * @param {(e: any) => Promise<boolean>} put
 */
async function sendEach(entries, put) {
  for (const entry of entries) if (!(await put(entry))) return false;
  return true;
}

/** @type {AudioContext | null} */
let audioContext = null;
function context() {
  audioContext ??= new AudioContext();
  if (audioContext.state === "suspended") audioContext.resume().catch(() => {});
  return audioContext;
}

/** One player: its <audio>, what it has loaded, its chapters, its sound. */
class Panel {
  /**
   * `root` is the player's deck on Now Playing (its controls, its <audio>); `shelf` holds the
   * screens that fill it (the library and radio for music; books, podcasts and articles for speech).
   * @param {"music" | "speech"} kind @param {HTMLElement} root @param {HTMLElement} shelf @param {Controller} controller
   */
  constructor(kind, root, shelf, controller) {
    this.kind = kind;
    this.root = root;
    this.shelf = shelf;
    this.controller = controller;
    /** @type {any} */
    this.item = null;
    /** @type {any[]} */
    this.queue = [];
    this.queueIndex = -1;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.shelfTimer = undefined;
    /**
     * The music player's uploaded songs, as player items.
     * @type {any[]}
     */
    this.songs = [];
    /**
     * The station's latest ICY title, through the relay.
     * @type {string | null}
     */
    this.streamTitle = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.titleTimer = undefined;
    /** @type {ChapterCursor | null} */
    this.cursor = null;
    this.scheduled = 0;
    /** @type {Set<number>} */
    this.played = new Set();
    /** @type {any} */
    this.settings = null;
    this.duck = 1;
    /**
     * A podcast's own speed while its episode plays (null: the player's).
     * @type {number | null}
     */
    this.speedOverride = null;
    /** Skip silence: how much faster the current pause plays. */
    this.silenceFactor = 1;
    this.expectPause = false;
    this.expectPlay = false;
    /** @type {any} */
    this.graph = null;
    this.pendingSeek = null;
    /** @type {any[] | undefined} */
    this.books = undefined;
    /** @type {Map<string, any>} */
    this.favorites = new Map();
    const q = (/** @type {string} */ s) => /** @type {any} */ (root.querySelector(s));
    /** The deck's controls, as the server draws them; the search and its results are on the library's screen (music only). */
    this.ui = {
      title: q(".dual-item-title"), sub: q(".dual-item-sub"), art: q(".dual-art"), play: q(".dual-play"), back: q(".dual-back"),
      forward: q(".dual-forward"), seek: q(".dual-seek"), elapsed: q(".dual-elapsed"), duration: q(".dual-duration"), speed: q(".dual-speed"),
      volume: q(".dual-volume"), gain: q(".dual-gain"), gainValue: q(".dual-gain-value"), eq: q(".dual-eq"), note: q(".dual-mode-note"),
      chapters: q(".dual-chapters"), chaptersOpen: q(".dual-chapters-open"),
      search: shelf.querySelector(".dual-search"), results: shelf.querySelector(".dual-results"),
    };
    this.audio = this.makeAudio();
    this.wireSheets();
    this.renderSteps();
    this.ui.play.addEventListener("click", () => controller.toggle(kind));
    this.ui.back.addEventListener("click", () => this.skip(-1));
    this.ui.forward.addEventListener("click", () => this.skip(1));
    this.ui.seek.addEventListener("change", () => this.seekTo(Number(this.ui.seek.value)));
    this.ui.speed.addEventListener("change", () => {
      const speed = Number(this.ui.speed.value);
      // While a show with its own speed plays, the speed chosen is that show's.
      const show = kind === "speech" && this.speedOverride !== null ? controller.podcasts?.playingShow : null;
      if (show) controller.podcasts.saveSettings(show, { speed });
      else controller.changeSettings(kind, { speed });
    });
    this.ui.volume.addEventListener("input", () => controller.changeSettings(kind, { volume: Number(this.ui.volume.value) }));
    this.ui.gain.addEventListener("input", () => controller.changeSettings(kind, { boost_gain_db: Number(this.ui.gain.value) }));
    this.ui.eq.addEventListener("change", () => controller.changeSettings(kind, { voice_eq: this.ui.eq.checked }));
    for (const radio of root.querySelectorAll(`input[name="${kind}-mode"]`)) {
      radio.addEventListener("change", () => controller.changeSettings(kind, { mode: /** @type {HTMLInputElement} */ (radio).value }));
    }
    this.shelf.querySelector(".dual-librivox-search")?.addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      this.libriVoxSearch(/** @type {HTMLFormElement} */ (e.target));
    });
    this.shelf.querySelector(".dual-radio-search")?.addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      this.radioSearch(/** @type {HTMLFormElement} */ (e.target));
    });
    this.shelf.querySelector(".dual-upload-file")?.addEventListener("change", (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      const file = input.files?.[0];
      if (file) this.upload(file);
      input.value = "";
    });
    const search = this.ui.search;
    search?.addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      this.search(search.querySelector("input")?.value ?? "");
    });
  }

  /**
   * The deck's sheets (its sound, its chapters, the transcript): each button opens its
   * dialog; the close button, Escape or a tap outside closes it.
   */
  wireSheets() {
    for (const [opener, sheet] of [["dual-sound-open", "dual-sound-sheet"], ["dual-chapters-open", "dual-chapters-sheet"], ["dual-transcript-open", "dual-transcript-sheet"]]) {
      const button = this.root.querySelector(`.${opener}`);
      const dialog = /** @type {HTMLDialogElement | null} */ (this.root.querySelector(`.${sheet}`));
      if (!button || !dialog) continue;
      button.addEventListener("click", () => {
        dialog.showModal();
        // The chapter playing, or the line heard, is where the list opens.
        dialog.querySelector("[aria-current='true']")?.scrollIntoView({ block: "center" });
      });
      dialog.querySelector(".sheet-close")?.addEventListener("click", () => dialog.close());
      dialog.addEventListener("click", (event) => {
        if (event.target === dialog) dialog.close();
      });
    }
    // The transcript's button shows while there is a transcript to show.
    const transcript = this.root.querySelector(".dual-transcript");
    const opener = /** @type {HTMLElement | null} */ (this.root.querySelector(".dual-transcript-open"));
    if (transcript && opener) {
      new MutationObserver(() => (opener.hidden = transcript.hasAttribute("hidden"))).observe(transcript, { attributes: true, attributeFilter: ["hidden"] });
    }
  }

  /**
   * Shows or hides the chapters (the list, and the deck's button that opens it).
   * @param {boolean} on
   */
  showChapters(on) {
    this.ui.chapters.hidden = !on;
    if (this.ui.chaptersOpen) this.ui.chaptersOpen.hidden = !on;
  }

  /** A fresh <audio> in the panel (Quality after Boost needs one: a routed element stays routed). */
  makeAudio() {
    const audio = el("audio", { class: "dual-audio", preload: "metadata", dataset: { player: this.kind } });
    audio.preservesPitch = true;
    audio.addEventListener("play", () => {
      if (this.expectPlay) this.expectPlay = false;
      else this.controller.dispatch({ type: "userPlay", player: this.kind });
    });
    audio.addEventListener("pause", () => {
      if (audio.ended) return;
      if (this.expectPause) this.expectPause = false;
      // A pause nobody here asked for: headphones unplugged, a call, another app's audio.
      else this.controller.dispatch({ type: "interrupted", player: this.kind });
    });
    audio.addEventListener("ended", () => this.ended());
    audio.addEventListener("timeupdate", () => this.tick());
    audio.addEventListener("loadedmetadata", () => {
      if (this.pendingSeek !== null) {
        audio.currentTime = Math.min(this.pendingSeek, Number.isFinite(audio.duration) ? audio.duration : this.pendingSeek);
        this.pendingSeek = null;
      }
      this.applySettings();
      this.limitChapters();
      this.renderTime();
    });
    audio.addEventListener("error", () => {
      if (this.item) this.explainFailure(this.item);
    });
    this.root.append(audio);
    return audio;
  }

  kindName() {
    return this.kind === "music" ? "Music" : "Speech";
  }

  get playing() {
    return this.controller.transport[this.kind].isPlaying;
  }

  /**
   * Loads `item` paused at `position` (seconds into the file), or playing when `autoplay`.
   * @param {PlayerItem} item
   * @param {{position?: number, autoplay?: boolean, chapter?: number}} options `chapter`: a book's chapter to start in
   */
  async load(item, { position = 0, autoplay = false, chapter = undefined } = {}) {
    if (this.playing) {
      this.controller.dispatch({ type: "userPause", player: this.kind });
      this.pause();
    }
    this.item = item;
    // Loaded from elsewhere (a station, a saved state): the list played before is no longer its queue.
    if (this.queue[this.queueIndex] !== item) {
      this.queue = [];
      this.queueIndex = -1;
    }
    this.streamTitle = null;
    this.watchStreamTitle();
    this.applySettings();
    this.cursor = null;
    this.renderSteps();
    this.played = new Set();
    this.showChapters(false);
    this.ui.chapters.replaceChildren();
    this.ui.title.textContent = item.title;
    this.ui.sub.textContent = item.subtitle || "";
    if (item.artwork_url) {
      this.ui.art.src = item.artwork_url;
      this.ui.art.hidden = false;
    } else {
      this.ui.art.hidden = true;
    }
    this.pendingSeek = item.kind === "station" ? null : sanitized(position);
    this.audio.src = item.audio_url;
    this.ui.play.disabled = false;
    this.controller.dispatch({ type: "loaded", player: this.kind });
    if (item.kind === "book" && item.chapters) this.useChapters(item, item.chapters, chapter, position);
    else if (this.kind === "speech" && item.kind === "track") await this.loadChapters(item, chapter, position);
    if (this.kind === "speech") {
      this.controller.transcript.clear();
      if (item.kind === "episode") this.controller.podcasts.loaded(item, chapter, position);
      else this.controller.podcasts.unloaded();
      if (item.kind === "article") this.controller.articles.loaded(item, chapter, position);
    }
    if (autoplay) this.controller.play(this.kind);
    this.controller.save(this.kind);
    this.controller.deviceView?.render();
  }

  /**
   * A speech item's chapters, read by the server from the file.
   * @param {PlayerItem} item
   * @param {number | undefined} chapter the chapter to start in, if one was asked for
   * @param {number} position seconds into the file
   */
  async loadChapters(item, chapter, position) {
    let list;
    try {
      list = await api(`/api/v1/dual/tracks/${encodeURIComponent(item.id)}/chapters`);
    } catch {
      return;
    }
    if (this.item !== item || !list) return;
    this.useChapters(item, list.chapters, chapter, position);
  }

  /**
   * Plays `item` by its chapters (when it has more than one). A book's chapter saved on this
   * device on its own plays from that file (the book saved whole plays as it is); a book's
   * chapters each have a button that saves that one chapter.
   * @param {PlayerItem} item
   * @param {any[]} chapters
   * @param {number | undefined} chapter
   * @param {number} position
   */
  useChapters(item, chapters, chapter, position) {
    if (chapters.length < 2) return;
    const book = item.kind === "book" ? { ...item, chapters } : null;
    const device = this.controller.device;
    const whole = Boolean(book && device.isSaved(book));
    const saved = book && !whole ? savedChapters(device.entries, book.id) : new Set();
    const spans = book ? bookSpans(book, saved) : chapters.map((c) => ({ file: item.audio_url, start: c.start, end: c.end, offset: 0 }));
    this.chapterTitles = chapters.map((c) => c.title);
    const found = chapters.findIndex((c) => position >= c.start && position < c.end);
    const start = typeof chapter === "number" && Number.isInteger(chapter) && chapter < chapters.length ? chapter : Math.max(0, found);
    const offset = sanitized(position) - chapters[start].start;
    // The cursor begins on the chapter that plays, with that chapter's file loaded.
    this.cursor = new ChapterCursor(spans, start);
    if (this.audio.src !== new URL(spans[start].file, location.href).href) this.audio.src = spans[start].file;
    this.perform(this.cursor.start(start, offset > 0 ? offset : 0));
    const offline = Boolean(book && this.controller.offline && !whole);
    this.ui.chapters.replaceChildren(
      ...chapters.map((c, i) =>
        el("li", { dataset: { index: String(i) } },
          el("button", { type: "button", onclick: () => this.playChapter(i) }, `${c.title} · ${formatTime(c.end - c.start)}`),
          offline && !saved.has(i) ? el("span", { class: "muted dual-needs-network" }, " needs the network") : null,
          book ? this.controller.deviceView?.button(chapterItem(book, i), "speech", true) : null),
      ),
    );
    this.showChapters(true);
    this.renderChapters();
    if (this.audio.readyState >= 1) this.limitChapters();
  }

  /**
   * The audio lasts `duration` seconds: chapters that start past it (a book whose chapters run
   * past its audio) are not offered, and the player never stays on one. A cursor that was on
   * one goes to the last chapter there: from its start (`restart`), or where the audio is.
   */
  limitChapters(duration = this.audio.duration, restart = true) {
    const cursor = this.cursor;
    if (!cursor) return;
    const wasOn = cursor.index;
    if (!cursor.limit(cursor.current.file, duration)) return;
    for (const li of [...this.ui.chapters.children]) if (Number(li.dataset.index) >= cursor.chapters.length) li.remove();
    if (cursor.index !== wasOn && restart) this.perform(cursor.start(cursor.index));
    this.renderChapters();
  }

  /** @param {number} index */
  playChapter(index) {
    if (!this.cursor) return;
    const actions = this.cursor.start(index);
    if (!actions.length) return;  // not a chapter of this audio
    this.perform(actions);
    if (!this.playing) this.controller.play(this.kind);
  }

  /**
   * Carries out the chapter cursor's actions.
   * @param {any[]} actions
   */
  perform(actions) {
    for (const a of actions) {
      if (a.type === "seek") this.setTime(a.to);
      else if (a.type === "playFrom") {
        if (this.audio.src !== new URL(a.file, location.href).href) {
          // A new source stops the element: playing carries on into the next file.
          const carryOn = this.playing;
          this.audio.src = a.file;
          if (carryOn) this.play();
        }
        this.setTime(a.at);
      } else if (a.type === "markPlayed") {
        this.played.add(a.index);
        // A chapter saved on its own goes once heard, when the listener asked for that.
        if (this.item?.kind === "book" && this.item.chapters?.[a.index]) this.controller.device.played(chapterItem(this.item, a.index));
      }
      else if (a.type === "entered") {
        this.renderChapters();
        this.controller.save(this.kind);
      } else if (a.type === "finished") {
        this.controller.dispatch({ type: "finished", player: this.kind });
        this.pause();
      }
    }
    if (this.cursor) this.scheduled = this.cursor.generation;
    this.renderTime();
  }

  /** @param {number} seconds */
  setTime(seconds) {
    if (this.audio.readyState >= 1) this.audio.currentTime = seconds;
    else this.pendingSeek = seconds;
  }

  renderChapters() {
    if (!this.cursor) return;
    for (const li of this.ui.chapters.children) {
      const i = Number(li.dataset.index);
      li.setAttribute("aria-current", String(i === this.cursor.index));
      li.classList.toggle("played", this.played.has(i));
    }
    this.ui.sub.textContent = this.chapterTitles?.[this.cursor.index] || this.item?.subtitle || "";
    this.renderSteps();
    this.controller.render();
  }

  /** The range the seek bar covers: the chapter, or the whole file. */
  bounds() {
    if (this.cursor) return { start: this.cursor.current.start, end: this.cursor.current.end };
    const d = this.audio.duration;
    return { start: 0, end: Number.isFinite(d) && d > 0 ? d : 0 };
  }

  /** @param {number} seconds */
  seekTo(seconds) {
    if (this.cursor) this.perform(this.cursor.seek(seconds));
    else this.setTime(Math.min(sanitized(seconds), this.bounds().end || sanitized(seconds)));
    this.controller.save(this.kind, { now: true });
  }

  /**
   * The back and forward buttons: speech jumps 15 s back or 30 s on; music changes track.
   * @param {number} direction -1 back, 1 forward
   */
  skip(direction) {
    if (this.kind === "speech") {
      this.seekTo(this.audio.currentTime + (direction < 0 ? -SPEECH_BACK : SPEECH_FORWARD));
    } else {
      this.step(direction);
    }
  }

  /**
   * The previous or next track (music) or chapter (speech).
   * @param {number} direction -1 back, 1 forward
   */
  step(direction) {
    if (this.cursor) {
      const target = this.cursor.index + direction;
      if (target >= 0 && target < this.cursor.chapters.length) this.playChapter(target);
      return;
    }
    // A song this server cannot play is passed over, as the library's player does.
    const next = queueStep(this.queue, this.queueIndex, direction);
    if (next >= 0) {
      this.queueIndex = next;
      this.load(this.queue[next], { autoplay: true });
    }
  }

  /**
   * The music deck's Previous and Next: enabled only when there is a track (or chapter) to go
   * to, so that a song played on its own says so rather than ignoring the tap.
   */
  renderSteps() {
    if (this.kind !== "music") return;
    const cursor = this.cursor;
    const can = (/** @type {number} */ d) =>
      cursor ? cursor.index + d >= 0 && cursor.index + d < cursor.chapters.length : queueStep(this.queue, this.queueIndex, d) >= 0;
    this.ui.forward.disabled = !can(1);
    this.ui.back.disabled = !can(-1);
  }

  tick() {
    if (this.kind === "speech") {
      const line = this.controller.transcript?.tick(this.audio.currentTime) ?? -1;
      if (this.item?.kind === "article") this.controller.articles.heard(this.item, line);
    }
    if (this.cursor) this.perform(this.cursor.timeUpdate(this.audio.currentTime, this.scheduled));
    else this.renderTime();
  }

  ended() {
    if (this.item?.kind === "episode") this.controller.podcasts.finished(this.item);
    if (this.item) this.controller.device.played(this.item);
    if (this.cursor) {
      // The file ends here, whatever its chapters say: none past this point is entered (the
      // book finishes on the last chapter there).
      this.limitChapters(this.audio.currentTime, false);
      const actions = this.cursor.reachedEnd(this.scheduled);
      if (actions.length) return this.perform(actions);
    }
    if (this.kind === "music" && queueStep(this.queue, this.queueIndex, 1) >= 0) return this.step(1);
    this.controller.dispatch({ type: "finished", player: this.kind });
    this.controller.save(this.kind);
  }

  renderTime() {
    const { start, end } = this.bounds();
    const now = sanitized(this.audio.currentTime);
    this.ui.seek.min = String(start);
    this.ui.seek.max = String(end);
    this.ui.seek.value = String(now);
    this.ui.elapsed.textContent = formatTime(now - start);
    this.ui.duration.textContent = formatTime(end - start);
    this.controller.renderMini(this.kind);
  }

  play() {
    this.expectPlay = true;
    if (this.settings?.mode === "boost" && this.canBoost()) this.ensureGraph();
    this.audio.play().catch((/** @type {any} */ error) => {
      this.expectPlay = false;
      if (error?.name === "AbortError") return;
      this.controller.dispatch({ type: "userPause", player: this.kind });
      // A source that cannot be played says why through the element's error (explainFailure);
      // only a start the browser refused (no tap yet) is the play button's to fix.
      if (error?.name !== "NotSupportedError") this.controller.status(`${this.kindName()} could not start: press its play button.`);
    });
  }

  /**
   * What loaded cannot be played: said in the server's words when it has some (a station
   * through the relay answers why, such as a stream that is no audio), else plainly.
   */
  async explainFailure(/** @type {any} */ item) {
    let why = "";
    if (item.kind === "station") {
      try {
        const response = await fetch(item.audio_url, { credentials: "same-origin", headers: { Authorization: `Bearer ${token()}` } });
        if (response.ok) response.body?.cancel().catch(() => {});
        else why = (await response.json())?.message ?? "";
      } catch {
        // No answer at all: the plain words below.
      }
    }
    if (this.item !== item) return;
    // Offline, what failed is what is not on the device (a book opened at a chapter not saved):
    // said so, without losing the page's offline note, which this line replaces.
    if (this.controller.offline && !why) {
      this.controller.status(`Offline: this part of “${item.title}” needs the network; what is saved on this device plays (see “On this device”).`);
      return;
    }
    this.controller.status(why ? `${item.title}: ${why}` : `${this.kindName()}: could not play “${item.title}”.`);
  }

  pause() {
    if (this.audio.paused) return;
    this.expectPause = true;
    this.audio.pause();
  }

  /**
   * Whether Boost can apply to what is loaded (the engine's AudioPath). Everything the page
   * plays comes from Juke's own origin: the library, books, uploads, and stations through
   * the relay (HLS ones too, playlist and segments), so Web Audio may take all of it.
   */
  canBoost() {
    return true;
  }

  /**
   * A station's "now playing": the relay keeps the ICY title the station sends; the page asks
   * for it every 10 s while the station plays, and shows it here and on the lock screen.
   */
  watchStreamTitle() {
    clearInterval(this.titleTimer);
    this.titleTimer = undefined;
    if (this.item?.kind !== "station" || isHLSStation(this.item)) return;
    const item = this.item;
    const refresh = async () => {
      if (this.item !== item) return clearInterval(this.titleTimer);
      if (!this.playing) return;
      try {
        const now = await api(`/api/v1/dual/radio/stations/${encodeURIComponent(item.id)}/now-playing`);
        if (this.item !== item || now.title === this.streamTitle) return;
        this.streamTitle = now.title ?? null;
        this.ui.sub.textContent = this.streamTitle ? `♪ ${this.streamTitle}` : item.subtitle || "";
        this.controller.render();
      } catch {
        // The title is a nicety: the station plays on without it.
      }
    };
    this.titleTimer = setInterval(refresh, 10000);
    setTimeout(refresh, 1500);
  }

  /** The Boost path: source → (voice EQ) → compressor → gain → speakers. */
  ensureGraph() {
    if (this.graph) return this.graph;
    const ctx = context();
    const source = ctx.createMediaElementSource(this.audio);
    const highpass = new BiquadFilterNode(ctx, { type: "highpass", frequency: 90 });
    const presence = new BiquadFilterNode(ctx, { type: "peaking", frequency: 3000, Q: 1, gain: 4 });
    const compressor = new DynamicsCompressorNode(ctx, { threshold: -24, knee: 24, ratio: 4, attack: 0.003, release: 0.25 });
    const gain = new GainNode(ctx, { gain: 1 });
    compressor.connect(gain).connect(ctx.destination);
    this.graph = { source, highpass, presence, compressor, gain, eq: null };
    this.applySettings();
    return this.graph;
  }

  /** Routes the graph for the current EQ choice and sets its gain. */
  wireGraph() {
    const g = this.graph;
    if (!g) return;
    const eq = Boolean(this.settings?.voice_eq);
    if (g.eq !== eq) {
      g.source.disconnect();
      g.highpass.disconnect();
      g.presence.disconnect();
      if (eq) g.source.connect(g.highpass).connect(g.presence).connect(g.compressor);
      else g.source.connect(g.compressor);
      g.eq = eq;
    }
    g.gain.gain.value = Math.pow(10, (this.settings?.boost_gain_db ?? 0) / 20);
  }

  /**
   * Quality and Boost: switching back to Quality reloads on a fresh element, as the seed does.
   * @param {string} mode "quality" or "boost"
   */
  setMode(mode) {
    if (mode === "boost" && this.canBoost()) this.ensureGraph();
    else if (mode !== "boost" && this.graph) this.replaceAudio(true);
    this.root.dataset.path = this.graph ? "webAudio" : "plain";
  }

  /**
   * A fresh <audio> for what is loaded (a routed element stays routed), at the same place.
   * @param {boolean} reload
   */
  replaceAudio(reload) {
    const wasPlaying = this.playing;
    const at = this.audio.currentTime;
    if (wasPlaying) this.pause();
    this.audio.remove();
    this.graph = null;
    this.audio = this.makeAudio();
    if (reload && this.item) {
      this.pendingSeek = this.item.kind === "station" ? null : at;
      this.audio.src = this.cursor ? this.cursor.current.file : this.item.audio_url;
      if (wasPlaying) this.play();
    }
    this.root.dataset.path = "plain";
  }

  /** Speed, volume (with ducking), mode, gain and EQ, from `this.settings`. */
  applySettings() {
    const s = this.settings;
    if (!s) return;
    // A live station has only what it has sent: faster than 1× drains its buffer and stalls.
    const live = this.item?.kind === "station";
    this.audio.playbackRate = live ? 1 : (this.speedOverride ?? s.speed) * this.silenceFactor;
    this.audio.volume = Math.max(0, Math.min(1, s.volume * this.duck));
    this.root.dataset.mode = s.mode;
    this.wireGraph();
    this.showLive(live);
    if (!live) this.ui.speed.value = String(this.speedOverride ?? s.speed);
    this.ui.volume.value = String(s.volume);
    this.ui.gain.value = String(s.boost_gain_db);
    this.ui.gainValue.textContent = `+${s.boost_gain_db} dB`;
    this.ui.eq.checked = s.voice_eq;
    for (const radio of this.root.querySelectorAll(`input[name="${this.kind}-mode"]`)) {
      /** @type {HTMLInputElement} */ (radio).checked = /** @type {HTMLInputElement} */ (radio).value === s.mode;
    }
    this.ui.note.textContent =
      s.mode !== "boost"
        ? ""
        : this.canBoost()
          ? "Boost: gain, a compressor and the voice EQ through Web Audio."
          : "This stream comes straight from another site that does not let pages process its audio, so Boost cannot apply to it: it plays as in Quality.";
  }

  /** The speed control while a live station plays: "Live · 1×", not to be changed, and why. */
  showLive(/** @type {boolean} */ live) {
    const select = /** @type {HTMLSelectElement} */ (this.ui.speed);
    let option = /** @type {HTMLOptionElement | null} */ (select.querySelector("option.dual-live-speed"));
    if (live && !option) {
      option = /** @type {HTMLOptionElement} */ (el("option", { class: "dual-live-speed", value: "live" }, "Live · 1×"));
      select.append(option);
    } else if (!live && option) {
      option.remove();
    }
    if (option && live) option.selected = true;
    select.disabled = live;
    select.title = live ? "A live station plays at its own pace (1×): faster would run out of stream." : "";
  }

  /**
   * Ducking: music's volume while speech plays, ramped so it does not jump.
   * @param {number} gain 1 is full volume
   */
  setDuck(gain) {
    if (this.duck === gain) return;
    const from = this.duck;
    this.duck = gain;
    const seconds = gain < from ? DUCK_RAMP.attack : DUCK_RAMP.release;
    const started = performance.now();
    const stepDuck = () => {
      const t = Math.min(1, (performance.now() - started) / (seconds * 1000));
      const level = from + (gain - from) * t;
      if (this.settings) this.audio.volume = Math.max(0, Math.min(1, this.settings.volume * level));
      if (t < 1 && this.duck === gain) requestAnimationFrame(stepDuck);
    };
    requestAnimationFrame(stepDuck);
  }

  /**
   * The library's tracks that match `q`, listed on the library's screen (music only).
   * @param {string} q
   */
  async search(q) {
    const text = q.trim();
    const results = this.ui.results;
    if (!text || !results) return;
    results.replaceChildren(el("li", { class: "muted" }, "Searching…"));
    try {
      /** @type {{items: import("/static/js/player.js").Track[]}} */
      const page = await api(`/api/v1/catalog/search?q=${encodeURIComponent(text)}&limit=30`);
      /** @type {PlayerItem[]} */
      const items = page.items.map(trackItem);
      if (!items.length) return results.replaceChildren(el("li", { class: "muted" }, `Nothing matches “${text}”.`));
      results.replaceChildren(
        ...items.map((item, i) => row({ title: item.title, sub: item.subtitle, cover: item.artwork_url, play: () => this.choose(items, i) })),
      );
    } catch (error) {
      showTrouble(results, error, retryable(error) ? () => this.search(q) : null, "Couldn't search the library.");
    }
  }

  /** The speech player's books, from the server's shelf. */
  async loadShelf() {
    const list = this.shelf.querySelector(".dual-books");
    if (!list) return;
    try {
      /** @type {{items: any[]}} the shelf's books (openapi.yaml: DualBook) */
      const shelf = await api("/api/v1/dual/books");
      const books = shelf.items.map((b) => ({
        kind: "book", id: b.id, title: b.title, subtitle: b.author || "", audio_url: b.audio_url, chapters: b.chapters, duration: b.duration,
        artwork_url: b.cover_url || undefined, status: b.status, listened: b.listened, raw: b,
      }));
      this.books = books;
      // A LibriVox book downloading: the shelf is read again every 2 s until it is ready, and
      // the search's row of a book added says where it is.
      clearTimeout(this.shelfTimer);
      if (shelf.items.some((/** @type {any} */ b) => b.status === "downloading")) this.shelfTimer = setTimeout(() => this.loadShelf(), 2000);
      for (const add of document.querySelectorAll(".dual-librivox-add[data-book]")) {
        const shelved = shelf.items.find((/** @type {any} */ b) => b.id === /** @type {HTMLElement} */ (add).dataset.book);
        if (shelved) add.textContent = shelvedLabel(shelved.status);
      }
      if (!books.length) {
        list.replaceChildren(el("li", { class: "muted" }, "No books yet. Audiobooks in the library are found by the search below."));
        return;
      }
      list.replaceChildren(...books.map((book) => this.bookRow(book)));
    } catch (error) {
      showTrouble(list, error, () => this.loadShelf(), "Couldn't load your books.");
    }
  }

  /**
   * A book's row on the shelf: its cover, title, progress, download and removal.
   * @param {any} book
   */
  bookRow(book) {
    const raw = book.raw;
    const admin = Boolean(this.shelf.querySelector(".dual-share"));
    const progress = bookProgress(book, formatTime);
    const details = [book.subtitle, progress?.text ?? formatTime(book.duration), raw.shared ? "everyone's" : ""].filter(Boolean);
    const ready = raw.status === "ready";
    return row({
      class: "dual-book", dataset: { status: raw.status, book: book.id }, title: book.title, sub: details.join(" · "), cover: book.artwork_url,
      disabled: !ready, play: () => this.resumeOnShelf(book), progress,
      extra: [ready ? null : downloadStatus(raw, () => this.resumeBook(book))],
      actions: [raw.yours || (admin && raw.shared) ? { icon: "trash", label: `Remove ${book.title}`, class: "dual-remove", run: () => this.removeBook(book) } : null],
    });
  }

  /**
   * The shelf follows the book playing: its row's progress moves as positions are saved here,
   * without reading the shelf again.
   * @param {string} id
   * @param {number} position
   */
  showListened(id, position) {
    const book = this.books?.find((b) => b.id === id);
    const shown = this.shelf.querySelector(`.dual-books [data-book="${CSS.escape(id)}"]`);
    if (!book || !shown) return;
    book.listened = { position, updated_at: Date.now() };
    shown.replaceWith(this.bookRow(book));
  }

  /** The music player's uploaded songs: the listener's own and everyone's. */
  async loadSongs() {
    const list = this.shelf.querySelector(".dual-songs");
    if (!list) return;
    try {
      const page = await api("/api/v1/dual/songs");
      const admin = Boolean(this.shelf.querySelector(".dual-share"));
      this.songs = page.items.map((/** @type {any} */ s) => ({
        kind: "song", id: s.id, title: s.title, subtitle: [s.artist, s.album].filter(Boolean).join(" · "), audio_url: s.audio_url,
        artwork_url: s.artwork_url || undefined, playable: s.playable,
      }));
      if (!this.songs.length) return void list.replaceChildren(el("li", { class: "muted" }, "No uploads yet."));
      list.replaceChildren(
        ...page.items.map((/** @type {any} */ raw, /** @type {number} */ i) => {
          const song = this.songs[i];
          const details = [song.subtitle, formatTime(raw.duration), raw.shared ? "everyone's" : ""].filter(Boolean).join(" · ");
          // One this server cannot play (ALAC with no ffmpeg) is listed, greyed, and says why.
          const unplayable = raw.playable === false;
          const why = unplayable ? ` — not playable here (${String(raw.codec).toUpperCase()} needs ffmpeg on the server)` : ` — ${details}`;
          return row({
            class: unplayable ? "dual-song unplayable" : "dual-song", title: song.title, sub: why.replace(/^ — /, ""), cover: song.artwork_url,
            disabled: unplayable, play: () => this.choose(this.songs, i),
            actions: [raw.yours || (admin && raw.shared) ? { icon: "trash", label: `Remove ${song.title}`, class: "dual-remove", run: () => this.removeSong(song) } : null],
          });
        }),
      );
    } catch (error) {
      showTrouble(list, error, () => this.loadSongs(), "Couldn't load your uploaded songs.");
    }
  }

  async removeSong(/** @type {any} */ song) {
    if (!confirm(`Remove “${song.title}”? Its file is deleted from the server.`)) return;
    try {
      await api(`/api/v1/dual/songs/${encodeURIComponent(song.id)}`, { method: "DELETE" });
      await this.loadSongs();
    } catch (error) {
      const note = this.shelf.querySelector(".dual-upload-note");
      if (note) showTrouble(note, error, retryable(error) ? () => this.removeSong(song) : null, `Couldn't remove “${song.title}”.`);
    }
  }

  /**
   * A book tapped on the shelf: it plays from where it was left (on any device), and Now
   * Playing opens on a phone so that its controls are at hand.
   * @param {any} book
   */
  resumeOnShelf(book) {
    const at = book.listened?.position ?? 0;
    const finished = book.duration - at <= 30;
    this.load(book, { autoplay: true, position: finished ? 0 : at });
    this.controller.screens.open("now");
  }

  /** Carries on with a LibriVox download that stopped. */
  async resumeBook(/** @type {any} */ book) {
    try {
      await api(`/api/v1/dual/books/${encodeURIComponent(book.id)}/resume`, { method: "POST" });
    } catch (error) {
      // Under the shelf, whose row has the Resume tapped.
      const note = this.shelf.querySelector(".dual-upload-note");
      if (note) showTrouble(note, error, retryable(error) ? () => this.resumeBook(book) : null, `Couldn't resume “${book.title}”.`);
    }
    await this.loadShelf();
  }

  /** @param {HTMLFormElement} form */
  async libriVoxSearch(form) {
    const note = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-librivox-note"));
    const list = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-librivox-results"));
    const params = new URLSearchParams();
    for (const name of ["title", "author"]) {
      const value = /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
      if (value) params.set(name, value);
    }
    if (![...params.keys()].length) return void (note.textContent = "Give a title or an author.");
    note.textContent = "Searching LibriVox…";
    list.replaceChildren();
    try {
      const found = await api(`/api/v1/dual/librivox/search?${params}`);
      note.textContent = found.items.length ? `${found.items.length} found.` : "LibriVox has no book by that title or author.";
      list.replaceChildren(...found.items.map((/** @type {any} */ book) => this.libriVoxResult(book)));
    } catch (error) {
      // In plain words under the search, in view, with the same search again at a tap.
      note.textContent = "";
      showTrouble(list, error, () => this.libriVoxSearch(form));
    }
  }

  /** One LibriVox book found: its cover, its chapters and readers, and the button that fetches it. */
  libriVoxResult(/** @type {any} */ book) {
    const readers = [...new Set(book.sections.flatMap((/** @type {any} */ s) => s.readers))].slice(0, 3).join(", ");
    const chapters = el("ol", { class: "dual-librivox-chapters" },
      ...book.sections.map((/** @type {any} */ s) => el("li", {}, s.title, el("span", { class: "muted" }, ` ${formatTime(s.seconds)}`))));
    const add = el("button", { type: "button", class: "primary dual-librivox-add" }, "Add to my shelf");
    // What went wrong adding it: right under its button.
    const trouble = el("p", { class: "dual-librivox-add-note" });
    add.addEventListener("click", async () => {
      add.disabled = true;
      trouble.replaceChildren();
      try {
        const shelved = await api(`/api/v1/dual/librivox/books/${encodeURIComponent(book.id)}`, { method: "POST" });
        // The shelf's book: its row here follows its download (loadShelf).
        add.dataset.book = shelved.id;
        add.textContent = shelvedLabel(shelved.status);
        await this.loadShelf();
      } catch (error) {
        add.disabled = false;
        showTrouble(trouble, error, retryable(error) ? () => add.click() : null, `Couldn't add “${book.title}” to your shelf.`);
      }
    });
    return el("li", { class: "dual-librivox-book", dataset: { librivox: book.id } },
      book.cover_url ? el("img", { class: "dual-cover", src: book.cover_url, alt: "", loading: "lazy", referrerpolicy: "no-referrer" }) : null,
      el("div", {},
        el("strong", {}, book.title),
        el("p", { class: "muted" }, [book.authors.join(", "), count(book.sections.length, "chapter"), formatTime(book.total_seconds), readers ? `read by ${readers}` : ""].filter(Boolean).join(" · ")),
        el("details", {}, el("summary", {}, "Chapters"), chapters),
        add, trouble));
  }

  /** A station as the player loads it: its stream through Juke's listen address. */
  stationItem(/** @type {any} */ station) {
    const details = [station.codec, station.bitrate ? `${station.bitrate} kbit/s` : "", station.country].filter(Boolean).join(" · ");
    return {
      kind: "station", id: station.id, title: station.name, subtitle: details || "Internet radio", artwork_url: station.favicon || undefined,
      audio_url: `/api/v1/dual/radio/stations/${encodeURIComponent(station.id)}/listen`, station,
    };
  }

  /**
   * Stations from Radio Browser by the form's filters; with none, the most listened stations
   * (what the Radio screen shows when it first opens, as the seed's radio search does).
   * Only the latest search draws: an earlier answer arriving late is dropped.
   * @param {HTMLFormElement} form
   */
  async radioSearch(form) {
    const note = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-radio-note"));
    const list = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-radio-results"));
    const params = new URLSearchParams();
    for (const name of ["name", "tag", "country", "language"]) {
      const value = /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value.trim();
      if (value) params.set(name, value);
    }
    const popular = [...params.keys()].length === 0;
    params.set("limit", "50");
    const search = (this.radioSearches = (this.radioSearches ?? 0) + 1);
    note.textContent = popular ? "Finding the most listened stations…" : "Searching Radio Browser…";
    try {
      const found = await api(`/api/v1/dual/radio/search?${params}`);
      if (search !== this.radioSearches) return;
      note.textContent = found.items.length ? (popular ? "The most listened stations. Search by name, genre, country or language above." : "") : "No station matches.";
      list.replaceChildren(...found.items.map((/** @type {any} */ station) => this.stationRow(station)));
    } catch (error) {
      if (search !== this.radioSearches) return;
      // What went wrong, and the same search again at a tap (the network may be back).
      note.replaceChildren(`${errorMessage(error)} `,
        el("button", { type: "button", class: "ghost dual-radio-retry", onclick: () => this.radioSearch(form) }, "Retry"));
    }
  }

  async loadFavorites() {
    const list = this.shelf.querySelector(".dual-radio-favorites");
    if (!list) return;
    try {
      const favorites = await api("/api/v1/dual/radio/favorites");
      this.favorites = new Map(favorites.items.map((/** @type {any} */ s) => [s.id, s]));
      list.replaceChildren(
        ...(favorites.items.length
          ? favorites.items.map((/** @type {any} */ station) => this.stationRow(station))
          : [el("li", { class: "muted" }, "None yet: tap a station's heart to keep it here.")]),
      );
    } catch (error) {
      showTrouble(list, error, () => this.loadFavorites(), "Couldn't load your favourite stations.");
    }
  }

  stationRow(/** @type {any} */ station) {
    const kept = this.favorites.has(station.id);
    const details = [station.codec, station.bitrate ? `${station.bitrate} kbit/s` : "", station.country, (station.tags || []).slice(0, 3).join(", ")]
      .filter(Boolean)
      .join(" · ");
    return row({
      class: "dual-station", dataset: { station: station.id }, title: station.name, sub: details, cover: station.favicon || undefined,
      play: () => this.load(this.stationItem(station), { autoplay: true }),
      actions: [{
        icon: kept ? "heart" : "heartOutline", class: "dual-favorite", pressed: kept, label: `Keep ${station.name} as a favourite`,
        run: () => this.toggleFavorite(station),
      }],
    });
  }

  async toggleFavorite(/** @type {any} */ station) {
    const note = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-radio-note"));
    try {
      if (this.favorites.has(station.id)) await api(`/api/v1/dual/radio/favorites/${encodeURIComponent(station.id)}`, { method: "DELETE" });
      else await api(`/api/v1/dual/radio/favorites/${encodeURIComponent(station.id)}`, { method: "PUT", body: station });
      await this.loadFavorites();
      for (const button of this.shelf.querySelectorAll(`.dual-radio-results [data-station="${CSS.escape(station.id)}"] .dual-favorite`)) {
        const kept = this.favorites.has(station.id);
        button.replaceChildren(icon(kept ? "heart" : "heartOutline"));
        button.setAttribute("aria-pressed", String(kept));
      }
    } catch (error) {
      showTrouble(note, error, retryable(error) ? () => this.toggleFavorite(station) : null, `Couldn't change your favourites (${station.name}).`);
    }
  }

  /** Sends a file to the shelf, with its progress (fetch cannot report an upload's). */
  upload(/** @type {File} */ file) {
    const note = /** @type {HTMLElement} */ (this.shelf.querySelector(".dual-upload-note"));
    const bar = /** @type {HTMLProgressElement} */ (this.shelf.querySelector(".dual-upload-progress"));
    const share = Boolean(/** @type {HTMLInputElement | null} */ (this.shelf.querySelector(".dual-share"))?.checked);
    const xhr = new XMLHttpRequest();
    // Speech takes audiobooks onto the shelf; music takes songs.
    const books = this.kind === "speech";
    xhr.open("POST", `/api/v1/dual/${books ? "books" : "songs"}?filename=${encodeURIComponent(file.name)}&share=${share}`);
    xhr.setRequestHeader("Authorization", `Bearer ${token()}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    bar.hidden = false;
    bar.value = 0;
    note.textContent = `Uploading ${file.name}…`;
    xhr.upload.addEventListener("progress", (e) => {
      if (e.lengthComputable) bar.value = e.loaded / e.total;
    });
    xhr.addEventListener("load", () => {
      bar.hidden = true;
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: a proxy's page, say.
      }
      if (xhr.status === 200 && books) {
        // The same file again: the book already there, not a copy.
        note.textContent = `“${body.title}” is already on your shelf.`;
        this.loadShelf();
      } else if (xhr.status === 200) {
        note.textContent = `“${body.title}” is already in your songs.`;
        this.loadSongs();
      } else if (xhr.status === 201 && books) {
        note.textContent = `Added “${body.title}” with ${count(body.chapters.length, "chapter")}.`;
        this.loadShelf();
      } else if (xhr.status === 201) {
        note.textContent = `Added “${body.title}”${body.artist ? ` by ${body.artist}` : ""} (${formatTime(body.duration)}).`;
        this.loadSongs();
      } else {
        // A refusal says why in the server's words (a file it cannot read); a failure can be retried.
        const error = new APIError(xhr.status, body);
        showTrouble(note, error, retryable(error) ? () => this.upload(file) : null, `Couldn't upload “${file.name}”.`);
      }
    });
    xhr.addEventListener("error", () => {
      bar.hidden = true;
      showTrouble(note, new NetworkError(), () => this.upload(file), `The upload of “${file.name}” was cut off.`);
    });
    xhr.send(file);
  }

  /**
   * Says how an upload or a removal went, on the shelf's note (music and speech each have one).
   * @param {string} text
   */
  uploadNote(text) {
    const note = this.shelf.querySelector(".dual-upload-note");
    if (note) note.textContent = text;
  }

  /** @param {PlayerItem} book a book of the shelf */
  async removeBook(book) {
    if (!confirm(`Remove “${book.title}” from the shelf? Its file is deleted from the server.`)) return;
    try {
      await api(`/api/v1/dual/books/${encodeURIComponent(book.id)}`, { method: "DELETE" });
      if (this.item?.kind === "book" && this.item.id === book.id) {
        this.pause();
        this.controller.dispatch({ type: "unloaded", player: this.kind });
        this.item = null;
        this.ui.title.textContent = "Nothing loaded";
        this.ui.sub.textContent = "";
        this.showChapters(false);
        this.audio.removeAttribute("src");
      }
      await this.loadShelf();
    } catch (error) {
      const note = this.shelf.querySelector(".dual-upload-note");
      if (note) showTrouble(note, error, retryable(error) ? () => this.removeBook(book) : null, `Couldn't remove “${book.title}”.`);
    }
  }

  /**
   * Plays `items[index]`; on the music player the list is the queue for next and previous.
   * @param {PlayerItem[]} items
   * @param {number} index
   */
  choose(items, index) {
    this.queue = this.kind === "music" ? items : [];
    this.queueIndex = this.kind === "music" ? index : -1;
    const item = items[index];
    this.load(item, { autoplay: true });
    // One song on its own (a search with one result): its album follows it.
    if (this.kind === "music" && items.length === 1 && item.album_id) this.queueAlbum(item);
  }

  /**
   * Queues the album of the song playing on its own, from that song on (once the album is
   * known, and only if that song still plays).
   * @param {PlayerItem} item
   */
  async queueAlbum(item) {
    let album;
    try {
      album = (await api(`/api/v1/catalog/tracks?album_id=${encodeURIComponent(item.album_id)}&limit=500`)).items.map(trackItem);
    } catch {
      return;  // The song plays on its own.
    }
    if (this.item !== item) return;
    const { queue, index } = queueFor([item], 0, album);
    // The album's entry for this song is the one playing: its queue is the album.
    if (queue !== album) return;
    album[index] = item;
    this.queue = queue;
    this.queueIndex = index;
    this.renderSteps();
  }

  /** What the server keeps of this player. */
  snapshot() {
    // A book's chapters come from the shelf again on load; the saved state keeps only what the contract holds.
    const item = this.item && {
      kind: this.item.kind, id: this.item.id, title: this.item.title, subtitle: this.item.subtitle || undefined,
      artwork_url: this.item.artwork_url?.startsWith("/") ? this.item.artwork_url : undefined, audio_url: this.item.audio_url,
      chapter: this.cursor ? this.cursor.index : undefined, show_id: this.item.show_id || undefined,
    };
    return { item: item || undefined, position: this.position(), playing: this.playing, updated_at: Date.now() };
  }

  /**
   * Where the player is in its item, in the item's own time: a book's, also when a chapter
   * plays from a file of its own (which begins at the chapter's start in the book).
   */
  position() {
    if (!this.item || this.item.kind === "station") return 0;
    return sanitized(this.audio.currentTime || this.pendingSeek || 0) + (this.cursor?.current.offset ?? 0);
  }

  positionKey() {
    if (!this.item || this.item.kind === "station") return null;
    const key = `${this.item.kind}:${this.item.id}`;
    // An episode's position is the file's, whatever chapter (its show lists it by episode).
    return this.cursor && this.item.kind !== "episode" ? `${key}#${this.cursor.index}` : key;
  }
}

/** Both players, the transport they share, the lock screen and the server. */
class Controller {
  constructor() {
    this.transport = emptyTransport();
    /** @type {Record<string, Panel>} */
    this.panels = {};
    for (const kind of KINDS) this.panels[kind] = new Panel(kind, byId(`${kind}-player`), byId(`${kind}-shelf`), this);
    /**
     * The mini player's two decks.
     * @type {Record<string, any>}
     */
    this.mini = {};
    for (const root of document.querySelectorAll(".dual-mini-deck")) {
      const kind = /** @type {HTMLElement} */ (root).dataset.player;
      if (kind !== "music" && kind !== "speech") continue;
      const q = (/** @type {string} */ s) => /** @type {any} */ (root.querySelector(s));
      this.mini[kind] = { root, title: q(".dual-mini-title"), sub: q(".dual-mini-sub"), art: q(".dual-mini-art img"), play: q(".dual-mini-play"), progress: q(".dual-mini-progress") };
      this.mini[kind].play.addEventListener("click", () => this.toggle(kind));
    }
    /** The Library's browsing: a song played from a list has the list as its queue. */
    this.library = new Library(this.panels.music.shelf, (items, index) => this.panels.music.choose(items, index));
    // The shelf is read again each time Books opens: its progress bars show where each book is now.
    this.screens = new Screens(byId("main"), (screen) => {
      // The Library fills when it shows: opened, or beside Now Playing on a wide screen.
      if (!byId("screen-library").hidden) this.library.showFromAddress();
      if (screen === "books" && this.panels.speech.books !== undefined) this.panels.speech.loadShelf();
      // Radio opens on the most listened stations, once (opening it again keeps what was found).
      if (screen === "radio" && !this.radioOpened) {
        this.radioOpened = true;
        const form = this.panels.music.shelf.querySelector(".dual-radio-search");
        if (form instanceof HTMLFormElement) this.panels.music.radioSearch(form);
      }
    });
    const speech = this.panels.speech;
    this.transcript = new TranscriptView(requiredElement(".dual-transcript", HTMLElement, speech.root), requiredElement(".dual-cues", HTMLElement, speech.root), (t) => speech.seekTo(t));
    this.podcasts = new Podcasts(speech, this);
    this.articles = new Articles(speech, this);
    /** @type {any} */
    this.settings = null;
    /** The screen stays on while either player plays (the shared module asks again when the page is shown). */
    this.wakeLock = new ScreenWakeLock();
    /** @type {Partial<Record<PlayerKind, ReturnType<typeof setTimeout>>>} */
    this.saveTimers = {};
    // Positions, played marks and what each player has go through outboxes on the device:
    // offline they wait, and go when the network is back (the server keeps the newest).
    this.outbox = new PositionOutbox((positions) => putForGood("/api/v1/dual/positions", { positions }));
    this.marks = new Outbox("juke_dual_played", (marks) => sendEach(marks, (m) =>
      putForGood(`/api/v1/dual/episodes/${encodeURIComponent(m.item)}/played`, { played: m.played, updated_at: m.updated_at })), asPlayedMark);
    this.playerStates = new Outbox("juke_dual_players", (states) => sendEach(states, (p) =>
      putForGood(`/api/v1/dual/players/${p.item}`, { ...p.snapshot, updated_at: p.updated_at })), asPlayerSnapshot);
    if (navigator.onLine) serverOffset().then((offset) => offset !== 0 && this.outbox.learnOffset(offset));
    for (const outbox of [this.outbox, this.marks, this.playerStates]) outbox.flush();
    /** What is saved on this device, and its list on the page. */
    this.device = new DeviceShelf(() => this.deviceView?.render());
    /** @type {DeviceView} */
    this.deviceView = new DeviceView(this.device, this);
    /** Whether the page opened with no network (from the state kept on the device). */
    this.offline = false;
    addEventListener("online", () => this.backOnline());
    /** Whether speech talks, from its level (ducking between sentences). */
    this.speechActivity = new SpeechActivity();
    /** @type {{ audio: HTMLAudioElement, graphed: boolean, track: MediaStreamTrack | null, input: AudioNode, analyser: AnalyserNode } | null} */
    this.speechMeter = null;
    /**
     * The speech element's output, captured once per element.
     * @type {{ audio: HTMLAudioElement, stream: MediaStream | null } | null}
     */
    this.speechCapture = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.meterTimer = undefined;
    // While the page restores what the server has, nothing is written back: loading is not
    // a change, and a save would stamp the old state as newer than another device's.
    this.restoring = false;
    this.setupMediaSession();
    byId("ducking-enabled").addEventListener("change", () => this.changeDucking());
    byId("ducking-level").addEventListener("input", () => this.changeDucking());
    // Where each player is goes to the server as it goes: every few seconds while playing, and
    // at once when the page is left or hidden (a phone's system may kill a hidden tab with no
    // other word), besides a pause and a seek (save).
    setInterval(() => KINDS.forEach((k) => this.panels[k].playing && this.save(k, { now: true })), SAVE_EVERY_MS);
    addEventListener("pagehide", () => KINDS.forEach((k) => this.save(k, { now: true })));
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") KINDS.forEach((k) => this.save(k, { now: true }));
    });
  }

  /** @param {string} text */
  status(text) {
    byId("dual-status").textContent = text;
  }

  /**
   * The mini player's deck for `kind`: what its player has, its state and how far it is.
   * @param {string} kind
   */
  renderMini(kind) {
    const panel = this.panels[kind];
    const mini = this.mini?.[kind];
    if (!panel || !mini) return;
    mini.root.dataset.state = panel.root.dataset.state ?? "empty";
    mini.title.textContent = panel.item ? panel.ui.title.textContent : "Not playing";
    mini.sub.textContent = panel.item ? panel.ui.sub.textContent || panel.kindName() : panel.kindName();
    const art = panel.item?.artwork_url;
    if (art && mini.art.getAttribute("src") !== art) mini.art.src = art;
    mini.art.hidden = !art;
    mini.play.disabled = panel.ui.play.disabled;
    mini.play.setAttribute("aria-label", panel.ui.play.getAttribute("aria-label") ?? "");
    const { start, end } = panel.bounds();
    mini.progress.value = end > start ? Math.min(1, Math.max(0, (sanitized(panel.audio.currentTime) - start) / (end - start))) : 0;
  }

  /**
   * The reader's browser voice talks (or stops): ducking lowers the music as for the speech player.
   * @param {boolean} on
   */
  readerTalking(on) {
    this.readerSpeaking = on;
    this.render();
  }

  /**
   * Applies a transport event and performs what it asks.
   * @param {import("./dual-transport.js").TransportEvent} event
   */
  dispatch(event) {
    const { state, actions } = apply(this.transport, event);
    this.transport = state;
    for (const action of actions) {
      const panel = this.panels[action.player];
      if (action.type === "play") panel.play();
      else panel.pause();
    }
    if (event.type !== "loaded") for (const action of actions) this.save(action.player);
    this.render();
  }

  /** @param {PlayerKind} kind */
  toggle(kind) {
    if (this.transport[kind].isPlaying) {
      this.dispatch({ type: "userPause", player: kind });
      this.panels[kind].pause();
    } else {
      this.play(kind);
    }
    this.save(kind);
  }

  /** @param {PlayerKind} kind */
  play(kind) {
    if (!this.transport[kind].hasMedia) return;
    this.dispatch({ type: "userPlay", player: kind });
    this.panels[kind].play();
  }

  render() {
    const now = decide(this.transport);
    for (const kind of KINDS) {
      const panel = this.panels[kind];
      const playing = this.transport[kind].isPlaying;
      panel.ui.play.setAttribute("aria-label", `${playing ? "Pause" : "Play"} ${kind}`);
      panel.root.dataset.state = playing ? "playing" : this.transport[kind].hasMedia ? "paused" : "empty";
      this.renderMini(kind);
    }
    const ducking = this.settings?.ducking;
    this.listenToSpeech(Boolean(ducking?.enabled && this.transport.speech.isPlaying));
    const talking = (this.transport.speech.isPlaying && (this.speechMeter ? this.speechActivity.talking : true)) || Boolean(this.readerSpeaking);
    this.panels.music.setDuck(ducking?.enabled && talking ? ducking.level : 1);
    this.panels.music.root.dataset.duck = String(this.panels.music.duck);
    document.body.dataset.nowPlaying = `${now.shown}:${now.playing ? "playing" : "paused"}`;
    this.updateMediaSession(now);
    this.updateWakeLock();
  }

  media() {
    /** @type {any} */
    const out = {};
    for (const kind of KINDS) {
      const p = this.panels[kind];
      if (p.item?.kind === "station" && p.streamTitle) out[kind] = { title: p.streamTitle, artist: p.item.title, artwork: p.item.artwork_url };
      else if (p.item) out[kind] = { title: p.cursor ? `${p.item.title}: ${p.chapterTitles?.[p.cursor.index] ?? ""}` : p.item.title, artist: p.item.subtitle, artwork: p.item.artwork_url };
    }
    return out;
  }

  setupMediaSession() {
    if (!("mediaSession" in navigator)) return;
    const ms = navigator.mediaSession;
    const on = (/** @type {MediaSessionAction} */ action, /** @type {MediaSessionActionHandler} */ handler) => {
      try {
        ms.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    };
    on("play", () => this.dispatch({ type: "mediaPlay" }));
    on("pause", () => this.dispatch({ type: "mediaPause" }));
    on("stop", () => this.dispatch({ type: "mediaPause" }));
    on("seekbackward", () => this.panelFor(seekTarget(decide(this.transport)))?.skip(-1));
    on("seekforward", () => this.panelFor(seekTarget(decide(this.transport)))?.skip(1));
    on("previoustrack", () => this.panelFor(trackTarget(decide(this.transport)))?.step(-1));
    on("nexttrack", () => this.panelFor(trackTarget(decide(this.transport)))?.step(1));
    // The lock screen's scrubber shows the chapter, as the page does: its 0 is the chapter's start.
    on("seekto", (details) => {
      const panel = this.panelFor(seekTarget(decide(this.transport)));
      if (panel) panel.seekTo(lockScreenSeek(panel.bounds(), details.seekTime ?? 0));
    });
  }

  /** @param {PlayerKind | null | undefined} kind */
  panelFor(kind) {
    return kind ? this.panels[kind] : null;
  }

  /** @param {import("./dual-transport.js").NowPlaying} now */
  updateMediaSession(now) {
    if (!("mediaSession" in navigator)) return;
    const ms = navigator.mediaSession;
    const meta = sessionMetadata(now, this.media(), LOGO);
    ms.metadata = meta && typeof MediaMetadata !== "undefined" ? new MediaMetadata(meta) : null;
    ms.playbackState = now.shown === "nothing" ? "none" : now.playing ? "playing" : "paused";
    // Scrubbing on the lock screen: the one player shown, within its chapter.
    try {
      const panel = now.shown === "music" || now.shown === "speech" ? this.panels[now.shown] : null;
      const state = panel ? lockScreenPosition(panel.bounds(), sanitized(panel.audio.currentTime), panel.audio.playbackRate) : null;
      if (state) ms.setPositionState(state);
      else ms.setPositionState();
    } catch {
      // setPositionState refuses a position the element has not reached yet.
    }
  }

  /**
   * Ducking between sentences: while ducking is on and speech plays, its level is read every
   * 50 ms (from Boost's graph, or a capture of the element's output in Quality, which leaves
   * the plain path as it is) and SpeechActivity says whether it talks. Where the level cannot
   * be read, music stays down for as long as speech plays.
   */
  /** @param {boolean} on */
  listenToSpeech(on) {
    if (!on) {
      clearInterval(this.meterTimer);
      this.meterTimer = undefined;
      this.speechActivity = new SpeechActivity();
      return;
    }
    if (this.meterTimer !== undefined) return;
    this.meterTimer = setInterval(() => {
      const analyser = this.speechAnalyser();
      if (!analyser) return;
      const samples = new Float32Array(analyser.fftSize);
      analyser.getFloatTimeDomainData(samples);
      const was = this.speechActivity.talking;
      const level = levelDB(samples);
      const talking = this.speechActivity.sample(performance.now() / 1000, level);
      document.body.dataset.speechTalking = String(talking);
      // What the meter read, and whether its audio clock runs (a suspended context would
      // hand back the same samples every time): for tests and anyone debugging.
      document.body.dataset.speechLevel = Number.isFinite(level) ? level.toFixed(1) : "silent";
      document.body.dataset.speechMeterClock = `${analyser.context.state}@${analyser.context.currentTime.toFixed(1)}`;
      if (talking !== was) this.render();
    }, 50);
  }

  /**
   * The speech player's level meter, made (again) for its current element, path and audio
   * track. A capture's track ends when the element loads another source (the next book, a
   * reload), and a source node bound to an ended track reads silence from then on: the meter
   * follows the capture's live track.
   */
  speechAnalyser() {
    const panel = this.panels.speech;
    const graphed = Boolean(panel.graph);
    let track = null;
    if (!graphed) {
      // One capture per element: its audio track arrives a moment after it is asked for
      // (and a new capture each tick would never have one yet).
      const kept = this.speechCapture;
      const capture = kept && kept.audio === panel.audio ? kept : { audio: panel.audio, stream: /** @type {any} */ (panel.audio).captureStream?.() ?? null };
      this.speechCapture = capture;
      const tracks = capture.stream?.getAudioTracks() ?? [];
      track = tracks.find((/** @type {MediaStreamTrack} */ t) => t.readyState === "live") ?? null;
      if (!track) return null;
    }
    const meter = this.speechMeter;
    if (meter && meter.audio === panel.audio && meter.graphed === graphed && meter.track === track) return meter.analyser;
    try {
      meter?.input.disconnect(meter.analyser);
    } catch {
      // Already gone with its element.
    }
    this.speechMeter = null;
    try {
      const ctx = context();
      const analyser = new AnalyserNode(ctx, { fftSize: 1024 });
      /** @type {AudioNode} */
      const input = panel.graph ? panel.graph.gain : ctx.createMediaStreamSource(new MediaStream([/** @type {MediaStreamTrack} */ (track)]));
      input.connect(analyser);
      this.speechMeter = { audio: panel.audio, graphed, track, input, analyser };
      return analyser;
    } catch {
      return null;  // Another site's audio, or no Web Audio: duck while speech plays.
    }
  }

  /** Keeps the screen on while music or speech plays; lets it sleep when neither does. */
  updateWakeLock() {
    const wanted = this.transport.music.isPlaying || this.transport.speech.isPlaying;
    if (wanted) this.wakeLock.keep();
    else if (this.wakeLock.wanted) this.wakeLock.release();
  }

  /**
   * Saves one player's state and position: at once when `now` or when the player is paused (a
   * pause is kept before anything can lose it), else at most once a second.
   */
  /**
   * @param {PlayerKind} kind
   * @param {{now?: boolean}} options
   */
  save(kind, { now = false } = {}) {
    // Signed out (the page is leaving): nothing more is kept or queued for the person.
    if (this.restoring || !token()) return;
    clearTimeout(this.saveTimers[kind]);
    const run = () => {
      if (!token()) return;
      const panel = this.panels[kind];
      const snapshot = panel.snapshot();
      this.playerStates.put({ item: kind, snapshot });
      this.keepLocally(kind, snapshot);
      const key = panel.positionKey();
      if (key) this.outbox.add(key, snapshot.position);
      if (panel.item) this.device.remember(panel.item, snapshot.position);
      if (panel.item?.kind === "book") panel.showListened(panel.item.id, snapshot.position);
      if (panel.item?.kind === "book" && panel.cursor && panel.item.chapters?.[panel.cursor.index]) {
        this.device.remember(chapterItem(panel.item, panel.cursor.index), snapshot.position);
      }
      // A spoken article's place is its chapter and word, kept with the article: from the
      // player's position, as a book's is (the element's time is 0 until its audio has come,
      // and a reload would write the article's first word over where it was).
      if (panel.item?.kind === "article") this.articles.saveHeard(panel.item, snapshot.position);
    };
    if (now || !this.panels[kind].playing) run();
    else this.saveTimers[kind] = setTimeout(run, 1000);
  }

  /**
   * Changes a player's settings here and on the server (a refusal is said on the status line).
   * @param {PlayerKind} kind
   * @param {Record<string, unknown>} change e.g. {speed}, {volume}, {mode}
   */
  async changeSettings(kind, change) {
    if (!this.settings) return;
    const before = this.settings[kind].mode;
    this.settings = { ...this.settings, [kind]: { ...this.settings[kind], ...change } };
    const panel = this.panels[kind];
    panel.settings = this.settings[kind];
    if (typeof change.mode === "string" && change.mode && change.mode !== before) panel.setMode(change.mode);
    panel.applySettings();
    await this.saveSettings();
  }

  async changeDucking() {
    if (!this.settings) return;
    this.settings = { ...this.settings, ducking: { enabled: byId("ducking-enabled").checked, level: Number(byId("ducking-level").value) } };
    this.render();
    await this.saveSettings();
  }

  async saveSettings() {
    try {
      this.settings = await api("/api/v1/dual/settings", { method: "PUT", body: this.settings });
    } catch (error) {
      showTrouble(byId("dual-status"), error, retryable(error) ? () => this.saveSettings() : null, "Your settings were not saved.");
    }
  }

  /**
   * What a player has, kept on the device so that the page opens where it was with no network.
   * @param {PlayerKind} kind
   * @param {unknown} snapshot
   */
  keepLocally(kind, snapshot) {
    const state = storedState();
    if (state) localStorage.setItem(STATE_KEY, JSON.stringify({ ...state, [kind]: snapshot }));
  }

  /** The network is back after the page opened without it: the lists come from the server again. */
  async backOnline() {
    if (!this.offline) return;
    this.offline = false;
    this.status("");
    const speech = this.panels.speech;
    const music = this.panels.music;
    await Promise.all([speech.loadShelf(), this.podcasts.load(), this.articles.load(), music.loadFavorites(), music.loadSongs()]);
    // A book's chapters that were not saved are reachable again.
    for (const note of document.querySelectorAll(".dual-needs-network")) note.remove();
    this.deviceView.render();
  }

  /**
   * A saved item from the "On this device" list, in its player, from where it was.
   * @param {any} entry
   */
  async playSaved(entry) {
    const item = entry.item;
    if (item.kind === "chapter") {
      // A chapter plays in its book (the shelf's, or the one kept with it offline), from where
      // it was left or from its start.
      const speech = this.panels.speech;
      const book = speech.books?.find((/** @type {any} */ b) => b.id === item.book_id) ?? item.book;
      const position = entry.position > item.start ? entry.position : item.start;
      return speech.load(book, { chapter: item.index, position, autoplay: true });
    }
    await this.panels[entry.player].load(item, { position: entry.position, autoplay: true });
  }

  /**
   * Comes back where this account left off, paused, remembering what was playing. With no
   * network, from the state kept on the device: the settings, and what each player had when
   * it is saved on this device.
   */
  async restore() {
    let state;
    try {
      state = await api("/api/v1/dual/state");
      localStorage.setItem(STATE_KEY, JSON.stringify(state));
    } catch (error) {
      state = error instanceof NetworkError ? storedState() : null;
      if (!state) throw error;
      this.offline = true;
      this.status("Offline: what is saved on this device plays (see “On this device”); the rest comes back with the network.");
    }
    this.restoring = true;
    try {
    this.settings = state.settings;
    byId("ducking-enabled").checked = state.settings.ducking.enabled;
    byId("ducking-level").value = String(state.settings.ducking.level);
    for (const kind of KINDS) {
      const panel = this.panels[kind];
      panel.settings = state.settings[kind];
      panel.applySettings();
      if (state.settings[kind].mode === "boost") panel.root.dataset.path = "plain";
      if (kind === "speech") await Promise.all([panel.loadShelf(), this.podcasts.load(), this.articles.load()]);
      else await Promise.all([panel.loadFavorites(), panel.loadSongs()]);
      const saved = state[kind];
      if (saved?.item) {
        // A book's chapters are on the shelf, not in the saved state; offline, on the device.
        const onDevice = this.device.find(saved.item);
        const book = saved.item.kind === "book" ? panel.books?.find((b) => b.id === saved.item.id) : null;
        // A book with only some chapters saved opens offline too: those chapters play.
        const kept = onDevice?.status === "saved" ? onDevice.item : saved.item.kind === "book" ? keptBook(this.device.entries, saved.item.id) : null;
        const item = this.offline ? kept : saved.item.kind === "book" ? book : saved.item;
        if (item) await panel.load(item, { position: saved.position, chapter: saved.item.chapter });
      }
    }
    // What was playing when this account last saved, so that play resumes exactly that.
    this.transport = {
      ...this.transport,
      musicWasPlaying: Boolean(state.music?.playing && this.transport.music.hasMedia),
      speechWasPlaying: Boolean(state.speech?.playing && this.transport.speech.hasMedia),
    };
    } finally {
      this.restoring = false;
    }
    this.render();
  }
}

/** The state kept on the device by the last visit, or null. */
function storedState() {
  try {
    const state = JSON.parse(localStorage.getItem(STATE_KEY) || "null");
    return state && typeof state === "object" && state.settings ? state : null;
  } catch (_) {
    return null;
  }
}

const controller = new Controller();
controller.restore().catch((error) => showTrouble(byId("dual-status"), error, () => location.reload(), "Couldn't load your players."));

/** An HLS station: its segments carry no ICY title to show. */
function isHLSStation(/** @type {any} */ item) {
  return item?.kind === "station" && Boolean(item.station?.hls);
}

/**
 * A LibriVox book's download on the shelf: chapters fetched of all with a progress bar, or
 * why it stopped with a button that carries on.
 * @param {any} book @param {() => void} resume
 */
function downloadStatus(book, resume) {
  const d = book.download ?? { sections_done: 0, sections_total: 0, bytes: 0 };
  const size = `${(d.bytes / 1e6).toFixed(1)} MB`;
  if (book.status === "failed") {
    return el("p", { class: "dual-download form-error" }, `Stopped after ${d.sections_done} of ${count(d.sections_total, "chapter")} (${size}): ${d.failure ?? "unknown error"}. `,
      el("button", { type: "button", class: "ghost dual-resume", onclick: resume }, "Resume"));
  }
  return el("p", { class: "dual-download muted" },
    el("progress", { max: String(Math.max(1, d.sections_total)), value: String(d.sections_done) }),
    ` Downloading chapter ${Math.min(d.sections_done + 1, d.sections_total)} of ${d.sections_total} to the server (${size})…`);
}
