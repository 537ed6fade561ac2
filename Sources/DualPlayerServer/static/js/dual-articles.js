// Articles read aloud: the list (added by address or file), the reader where the browser's own
// voice reads (speech synthesis: voice and rate, the word being spoken highlighted, a tap on a
// word reading from there), and Juke's voice: the article spoken on the server, played by the
// speech player like a book (speed, Boost, lock screen), its sentence highlighted as it is
// heard. Where reading stopped (chapter and word) is saved to the server either way.
import { api, el, errorMessage, token } from "/static/js/api.js";
import { PositionSaver, positionAt } from "./dual-reading.js";
import { retryable, showTrouble } from "./dual-trouble.js";

const SAVE_EVERY_MS = 5000;
const VOICE_KEY = "juke.dual.readerVoice";
const RATE_KEY = "juke.dual.readerRate";

export class Articles {
  /** @param {any} panel the speech player's Panel @param {any} controller the page's Controller */
  constructor(panel, controller) {
    this.panel = panel;
    this.controller = controller;
    const q = (/** @type {string} */ s) => /** @type {any} */ (panel.shelf.querySelector(s));
    this.ui = {
      list: q(".dual-article-list"), note: q(".dual-article-note"), reader: q(".dual-reader"), title: q(".dual-reader-title"),
      chapter: q(".dual-reader-chapter"), play: q(".dual-reader-play"), voice: q(".dual-reader-voice"), rate: q(".dual-reader-rate"),
      text: q(".dual-reader-text"), readerNote: q(".dual-reader-note"),
    };
    /**
     * The article open in the reader.
     * @type {any}
     */
    this.open = null;
    this.chapter = 0;
    this.word = 0;
    this.reading = false;
    /**
     * Each word's span in the open chapter.
     * @type {HTMLElement[]}
     */
    this.words = [];
    /**
     * The paragraph each word starts in, and where each paragraph's words start.
     * @type {number[]}
     */
    this.paragraphStarts = [];
    /** Positions go to the server at most every 5 s, and at once on a pause, a seek or leaving. */
    this.saver = new PositionSaver((p) => this.put(p), SAVE_EVERY_MS);
    /**
     * The spoken article playing in the speech player (its cues).
     * @type {any}
     */
    this.speech = null;
    q(".dual-article-url").addEventListener("submit", (/** @type {Event} */ e) => {
      e.preventDefault();
      const input = /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("url"));
      this.add(input.value).then((ok) => ok && (input.value = ""));
    });
    q(".dual-article-file").addEventListener("change", (/** @type {Event} */ e) => {
      const input = /** @type {HTMLInputElement} */ (e.target);
      const file = input.files?.[0];
      if (file) this.upload(file);
      input.value = "";
    });
    this.ui.play.addEventListener("click", () => (this.reading ? this.stop() : this.read(this.word)));
    this.ui.chapter.addEventListener("change", () => this.showChapter(Number(this.ui.chapter.value), 0));
    q(".dual-reader-close").addEventListener("click", () => this.close());
    this.ui.rate.value = localStorage.getItem(RATE_KEY) ?? "1";
    this.ui.rate.addEventListener("change", () => {
      localStorage.setItem(RATE_KEY, this.ui.rate.value);
      if (this.reading) this.read(this.word);
    });
    this.ui.voice.addEventListener("change", () => {
      localStorage.setItem(VOICE_KEY, this.ui.voice.value);
      if (this.reading) this.read(this.word);
    });
    if ("speechSynthesis" in window) {
      this.listVoices();
      speechSynthesis.addEventListener?.("voiceschanged", () => this.listVoices());
    }
    addEventListener("pagehide", () => this.savePosition(true));
  }

  listVoices() {
    const voices = speechSynthesis.getVoices();
    const chosen = localStorage.getItem(VOICE_KEY) ?? "";
    this.ui.voice.replaceChildren(
      el("option", { value: "" }, "The browser's"),
      ...voices.map((v) => el("option", { value: v.voiceURI, selected: v.voiceURI === chosen }, `${v.name} (${v.lang})`)));
  }

  async load() {
    let items;
    try {
      items = (await api("/api/v1/dual/articles")).items;
    } catch (error) {
      showTrouble(this.ui.list, error, () => this.load(), "Couldn't load your articles.");
      return;
    }
    if (!items.length) {
      this.ui.list.replaceChildren(el("li", { class: "muted" }, "No articles yet: add one by its address or a saved page."));
      return;
    }
    this.ui.list.replaceChildren(...items.map((/** @type {any} */ a) => this.row(a)));
  }

  row(/** @type {any} */ a) {
    const where = a.position ? ` · stopped in chapter ${a.position.chapter + 1} of ${a.chapters}` : "";
    const spoken = a.speech === "making" ? " · Juke is reading it aloud…" : a.speech === "failed" ? " · Juke's voice failed" : "";
    return el("li", { class: "dual-article", dataset: { article: a.id, speech: a.speech } },
      el("div", {},
        el("strong", {}, a.title),
        el("p", { class: "muted" }, `${[a.author, `${a.words} words`].filter(Boolean).join(" · ")}${where}${spoken}`),
        el("div", { class: "dual-article-actions" },
          el("button", { type: "button", class: "primary dual-article-read", onclick: () => this.openArticle(a.id) }, "Read"),
          el("button", { type: "button", class: "ghost dual-article-listen", onclick: () => this.listen(a.id) }, "Listen with Juke's voice"),
          el("button", { type: "button", class: "ghost dual-remove", "aria-label": `Remove ${a.title}`, onclick: () => this.remove(a) }, "Remove"))));
  }

  /** Adds the article at an address; says how it went. */
  async add(/** @type {string} */ address) {
    const url = address.trim();
    if (!url) return void (this.ui.note.textContent = "Give the article's address."), false;
    this.ui.note.textContent = "Fetching the page…";
    try {
      const article = await api("/api/v1/dual/articles", { method: "POST", body: { url } });
      this.ui.note.textContent = `Added “${article.title}” (${article.words} words).`;
      await this.load();
      return true;
    } catch (error) {
      // A page refused says why (the server's words); a failure can be tried again.
      showTrouble(this.ui.note, error, retryable(error) ? () => this.add(url) : null, "Couldn't add the article.");
      return false;
    }
  }

  async upload(/** @type {File} */ file) {
    this.ui.note.textContent = `Reading ${file.name}…`;
    try {
      const body = await api(`/api/v1/dual/articles/files?filename=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      this.ui.note.textContent = `Added “${body.title}” (${body.words} words).`;
      await this.load();
    } catch (error) {
      showTrouble(this.ui.note, error, retryable(error) ? () => this.upload(file) : null, `Couldn't add “${file.name}”.`);
    }
  }

  async remove(/** @type {any} */ a) {
    if (!confirm(`Remove “${a.title}”?`)) return;
    try {
      await api(`/api/v1/dual/articles/${encodeURIComponent(a.id)}`, { method: "DELETE" });
      if (this.open?.id === a.id) this.close();
      await this.load();
    } catch (error) {
      showTrouble(this.ui.note, error, retryable(error) ? () => this.remove(a) : null, `Couldn't remove “${a.title}”.`);
    }
  }

  // --- The reader, with the browser's voice ---------------------------------------------

  async openArticle(/** @type {string} */ id) {
    try {
      this.open = await api(`/api/v1/dual/articles/${encodeURIComponent(id)}`);
    } catch (error) {
      this.ui.note.textContent = errorMessage(error);
      return;
    }
    const a = this.open;
    this.ui.title.textContent = a.title;
    this.ui.chapter.replaceChildren(...a.chapters.map((/** @type {any} */ c, /** @type {number} */ i) => el("option", { value: String(i) }, c.title)));
    this.ui.reader.hidden = false;
    const at = a.position ?? { chapter: 0, word: 0 };
    this.showChapter(Math.min(at.chapter, a.chapters.length - 1), at.word);
    this.ui.readerNote.textContent = "speechSynthesis" in window ? "" : "This browser has no voice of its own: use “Listen with Juke's voice”.";
    this.ui.reader.scrollIntoView({ block: "nearest" });
  }

  /** Draws a chapter, every word a span (counted as the server counts them), at `word`. */
  showChapter(/** @type {number} */ chapter, /** @type {number} */ word) {
    const wasReading = this.reading;
    if (wasReading) this.stop(false);
    this.chapter = chapter;
    this.ui.chapter.value = String(chapter);
    const c = this.open.chapters[chapter];
    this.words = [];
    this.paragraphStarts = [];
    const blocks = [el("h4", {}, c.title)];
    for (const paragraph of c.paragraphs) {
      this.paragraphStarts.push(this.words.length);
      const p = el("p", {});
      for (const w of paragraph.split(" ")) {
        const index = this.words.length;
        const span = el("span", { class: "dual-word", dataset: { w: String(index) }, onclick: () => this.read(index) }, w);
        this.words.push(span);
        p.append(span, " ");
      }
      blocks.push(p);
    }
    this.ui.text.replaceChildren(...blocks);
    this.mark(Math.min(word, Math.max(0, this.words.length - 1)));
    if (wasReading) this.read(this.word);
  }

  /** Highlights word `index` (the one being spoken, or where reading will start). */
  mark(/** @type {number} */ index) {
    this.words[this.word]?.classList.remove("dual-word-now");
    this.word = index;
    const span = this.words[index];
    if (!span) return;
    span.classList.add("dual-word-now");
    this.ui.text.dataset.word = String(index);
    const box = this.ui.text;
    if (span.offsetTop < box.scrollTop || span.offsetTop > box.scrollTop + box.clientHeight - 30) box.scrollTop = span.offsetTop - box.clientHeight / 3;
    this.savePosition(false);
  }

  /** Reads aloud from word `from` of the open chapter, a paragraph per utterance. */
  read(/** @type {number} */ from) {
    if (!("speechSynthesis" in window)) return;
    this.stop(false);
    // The speech player and the reader are one voice: the player pauses while the reader reads.
    if (this.controller.transport.speech.isPlaying) this.controller.toggle("speech");
    this.reading = true;
    this.ui.play.textContent = "Stop";
    this.ui.reader.dataset.reading = "true";
    this.controller.readerTalking(true);
    this.speakParagraph(from);
  }

  speakParagraph(/** @type {number} */ from) {
    if (!this.reading) return;
    if (from >= this.words.length) {
      // The chapter is read: the next one, or the end.
      if (this.chapter + 1 < this.open.chapters.length) {
        this.showChapter(this.chapter + 1, 0);
        this.speakParagraph(0);
      } else {
        this.stop();
      }
      return;
    }
    let paragraph = this.paragraphStarts.length - 1;
    while (paragraph > 0 && this.paragraphStarts[paragraph] > from) paragraph--;
    const end = paragraph + 1 < this.paragraphStarts.length ? this.paragraphStarts[paragraph + 1] : this.words.length;
    const words = this.words.slice(from, end).map((s) => s.textContent ?? "");
    // Each word's first character in the utterance, to map boundary events back to words.
    /** @type {number[]} */
    const offsets = [];
    let at = 0;
    for (const w of words) {
      offsets.push(at);
      at += w.length + 1;
    }
    const utterance = new SpeechSynthesisUtterance(words.join(" "));
    const voice = speechSynthesis.getVoices().find((v) => v.voiceURI === this.ui.voice.value);
    if (voice) utterance.voice = voice;
    utterance.rate = Number(this.ui.rate.value) || 1;
    utterance.onboundary = (event) => {
      if (event.name && event.name !== "word") return;
      let k = offsets.length - 1;
      while (k > 0 && offsets[k] > event.charIndex) k--;
      this.mark(from + k);
    };
    utterance.onend = () => {
      if (this.utterance !== utterance || !this.reading) return;
      this.mark(Math.min(end, this.words.length - 1));
      this.speakParagraph(end);
    };
    utterance.onerror = (event) => {
      if (this.utterance !== utterance || event.error === "interrupted" || event.error === "canceled") return;
      this.ui.readerNote.textContent = `The browser's voice stopped: ${event.error}.`;
      this.stop();
    };
    this.utterance = utterance;
    this.mark(from);
    speechSynthesis.speak(utterance);
  }

  stop(/** @type {boolean} */ save = true) {
    this.utterance = null;
    if ("speechSynthesis" in window) speechSynthesis.cancel();
    this.reading = false;
    this.ui.play.textContent = "Read aloud";
    this.ui.reader.dataset.reading = "false";
    this.controller.readerTalking(false);
    if (save) this.savePosition(true);
  }

  close() {
    this.stop();
    this.ui.reader.hidden = true;
    this.open = null;
    this.load();
  }

  /** Saves where the reader is, at most every 5 s unless `now`. */
  savePosition(/** @type {boolean} */ now) {
    if (this.open) this.send(this.open.id, this.chapter, this.word, now);
  }

  /**
   * An article's position (chapter and word), sent at most every 5 s unless `now`: one held
   * back goes with the next send or at the next pause, never dropped.
   */
  send(/** @type {string} */ id, /** @type {number} */ chapter, /** @type {number} */ word, /** @type {boolean} */ now) {
    this.saver.offer({ id, chapter, word }, now);
  }

  /**
   * PUTs a position (kept alive: it may be the page's last word).
   * @param {{ id: string, chapter: number, word: number }} p
   */
  put(p) {
    const body = JSON.stringify({ chapter: p.chapter, word: p.word, updated_at: Date.now() });
    fetch(`/api/v1/dual/articles/${encodeURIComponent(p.id)}/position`, {
      method: "PUT", body, keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token()}` },
    }).catch(() => {});
  }

  // --- Juke's voice: spoken on the server, played by the speech player ---------------------

  /** Has the server speak the article (waiting while it is made), then plays it from where reading stopped. */
  async listen(/** @type {string} */ id) {
    this.stop(false);
    try {
      let speech = await api(`/api/v1/dual/articles/${encodeURIComponent(id)}/speech`, { method: "POST" });
      while (speech.status === "making") {
        this.ui.note.textContent = `Juke is reading it aloud… ${speech.done} of ${speech.total} sentences.`;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        speech = await api(`/api/v1/dual/articles/${encodeURIComponent(id)}/speech`);
      }
      if (speech.status !== "ready") throw new Error(speech.failure ?? "Juke's voice failed.");
      const article = await api(`/api/v1/dual/articles/${encodeURIComponent(id)}`);
      this.ui.note.textContent = "";
      const at = article.position ?? { chapter: 0, word: 0 };
      const cue = [...speech.cues].reverse().find((c) => c.chapter < at.chapter || (c.chapter === at.chapter && c.word <= at.word)) ?? speech.cues[0];
      await this.panel.load(
        { kind: "article", id, title: article.title, subtitle: article.author || "Read by Juke", audio_url: speech.audio_url, chapters: speech.chapters },
        { position: cue?.start ?? 0, autoplay: true });
      await this.load();
    } catch (error) {
      this.ui.note.textContent = errorMessage(error);
    }
  }

  /** The speech player loaded a spoken article: its chapters and its sentences as the transcript. */
  async loaded(/** @type {any} */ item, /** @type {number | undefined} */ chapter, /** @type {number} */ position) {
    let speech;
    try {
      speech = await api(`/api/v1/dual/articles/${encodeURIComponent(item.id)}/speech`);
    } catch {
      return;
    }
    if (this.panel.item !== item || speech.status !== "ready") return;
    this.speech = { article: { id: item.id }, cues: speech.cues };
    if (!this.panel.cursor && speech.chapters.length > 1) this.panel.useChapters(item, speech.chapters, chapter, position);
    this.controller.transcript.show(speech.cues, this.panel.audio.currentTime);
  }

  /** The spoken article reached line `index`: that sentence's chapter and word are its position. */
  heard(/** @type {any} */ item, /** @type {number} */ index) {
    const cue = this.speech?.article.id === item.id ? this.speech.cues[index] : null;
    if (cue) this.send(item.id, cue.chapter, cue.word, false);
  }

  /**
   * The speech player saves (a pause, a seek, a chapter, the page leaving): the spoken
   * article's position at `time` in its audio goes to the server at once.
   */
  saveHeard(/** @type {any} */ item, /** @type {number} */ time) {
    if (this.speech?.article.id !== item.id) return;
    const at = positionAt(this.speech.cues, time);
    if (at) this.send(item.id, at.chapter, at.word, true);
  }
}
