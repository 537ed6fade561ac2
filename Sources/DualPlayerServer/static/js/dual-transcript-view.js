// A transcript beside the speech player: its lines, the one heard now highlighted and kept in
// view, a tap on a line seeking there. Podcast episodes (their WebVTT, SubRip or JSON
// transcript) and articles spoken on the server (a line per sentence) both show one.
import { el } from "/static/js/api.js";
import { cueAt } from "./dual-transcript.js";

export class TranscriptView {
  /**
   * @param {HTMLElement} details the <details> holding the list
   * @param {HTMLElement} list the <ol> of lines
   * @param {(seconds: number) => void} seek
   */
  constructor(details, list, seek) {
    this.details = details;
    this.list = list;
    this.seek = seek;
    /** @type {{start: number, end: number, text: string, speaker?: string}[]} */
    this.cues = [];
    this.index = -1;
  }

  /** @param {{start: number, end: number, text: string, speaker?: string}[]} cues @param {number} now */
  show(cues, now) {
    this.cues = cues;
    this.index = -1;
    this.list.replaceChildren(
      ...cues.map((c, i) =>
        el("li", { dataset: { cue: String(i) } },
          el("button", { type: "button", class: "dual-cue", onclick: () => this.seek(c.start) },
            c.speaker ? el("span", { class: "dual-speaker" }, `${c.speaker}: `) : null, c.text))));
    this.details.hidden = false;
    this.tick(now);
  }

  clear() {
    this.cues = [];
    this.index = -1;
    this.details.hidden = true;
    this.list.replaceChildren();
  }

  /** The audio is at `time`: the line heard is highlighted; returns its index (-1 between lines). */
  tick(/** @type {number} */ time) {
    if (!this.cues.length) return -1;
    const index = cueAt(this.cues, time);
    if (index === this.index) return index;
    this.list.children[this.index]?.removeAttribute("aria-current");
    this.index = index;
    const li = /** @type {HTMLElement | undefined} */ (this.list.children[index]);
    if (!li) return index;
    li.setAttribute("aria-current", "true");
    const box = this.list;
    if (li.offsetTop < box.scrollTop || li.offsetTop > box.scrollTop + box.clientHeight - li.offsetHeight) {
      box.scrollTop = li.offsetTop - box.clientHeight / 3;
    }
    return index;
  }
}
