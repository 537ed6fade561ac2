// The "On this device" section and every "Save on this device" button: what is saved, what is
// being saved (with its progress), the space it takes against what the browser allows, and
// removing (by hand, or once an item has played to its end).
import { el, formatTime } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";
import { canSave, entryKey, keepButton, progressText, spaceText, timeLeft } from "./dual-saved.js";

/** @type {Record<string, string>} */
const KIND_NAMES = { song: "Song", track: "Library track", book: "Audiobook", chapter: "Audiobook chapter", episode: "Episode", article: "Article read aloud" };

export class DeviceView {
  /** @param {import("./dual-device.js").DeviceShelf} shelf @param {any} controller */
  constructor(shelf, controller) {
    this.shelf = shelf;
    this.controller = controller;
    this.list = document.getElementById("device-items");
    this.space = document.getElementById("device-space");
    const removePlayed = /** @type {HTMLInputElement | null} */ (document.getElementById("device-remove-played"));
    if (removePlayed) {
      removePlayed.checked = shelf.removeWhenPlayed;
      removePlayed.addEventListener("change", () => (shelf.removeWhenPlayed = removePlayed.checked));
    }
    this.render();
  }

  /**
   * A button that saves `item` for `player`, or says how its save goes (kept current by render);
   * `short` words it for a row of a list (a book's chapters); `compact` draws it as an icon
   * (a player's deck, where both decks share one phone screen), its words in its label.
   * @param {any} item @param {"music" | "speech"} player @param {boolean} [short] @param {boolean} [compact]
   */
  button(item, player, short = false, compact = false) {
    /** @type {Record<string, string>} */
    const dataset = { keepKey: entryKey(item), keepPlayer: player };
    if (short) dataset.keepShort = "true";
    if (compact) dataset.keepIcon = "true";
    if (item.kind === "chapter") dataset.keepBook = item.book_id;
    const button = el("button", { type: "button", class: compact ? "icon-btn dual-keep" : "btn btn-ghost btn-s dual-keep", dataset });
    button.addEventListener("click", () => this.toggle(item, player));
    this.paint(button, item);
    return button;
  }

  /** @param {any} item @param {"music" | "speech"} player */
  toggle(item, player) {
    const { action } = keepButton(this.shelf.find(item));
    if (action === "save") this.shelf.save(item, player);
    else this.shelf.remove(item);
  }

  /** @param {HTMLElement} button @param {any} item */
  paint(button, item) {
    const look = keepButton(this.shelf.find(item), button.dataset.keepShort === "true");
    this.show(button, look);
    button.setAttribute("aria-label", `${look.text}: ${item.title}`);
  }

  /**
   * A keep button's words, or (compact) its icon with the words as its tooltip.
   * @param {HTMLElement} button @param {{ text: string, state: string }} look
   */
  show(button, look) {
    if (button.dataset.keep === look.state && button.title === look.text) return;
    button.dataset.keep = look.state;
    button.title = look.text;
    if (button.dataset.keepIcon !== "true") button.textContent = look.text;
    else button.replaceChildren(icon(look.state === "saved" ? "check" : look.state === "failed" ? "warning" : look.state === "saving" ? "close" : "download"));
  }

  render() {
    const entries = this.shelf.entries;
    // The players' own buttons, for what each has loaded.
    for (const kind of /** @type {const} */ (["music", "speech"])) {
      const panel = this.controller.panels?.[kind];
      const holder = panel?.root.querySelector(".dual-keep-slot");
      if (!holder) continue;
      const item = panel.item;
      if (!canSave(item)) {
        holder.replaceChildren();
      } else {
        const existing = holder.querySelector(".dual-keep");
        if (existing?.dataset.keepKey === entryKey(item)) this.paint(existing, item);
        else holder.replaceChildren(this.button(item, kind, false, true));
      }
    }
    // Buttons elsewhere (the episode rows, a book's chapters). A book saved whole has every
    // chapter on the device already: its chapters' own buttons are hidden.
    for (const found of document.querySelectorAll("[data-keep-key]")) {
      const button = /** @type {HTMLElement} */ (found);
      const entry = entries.find((e) => e.key === button.dataset.keepKey);
      this.show(button, keepButton(entry, button.dataset.keepShort === "true"));
      const book = button.dataset.keepBook;
      button.hidden = Boolean(book && !entry && entries.some((e) => e.key === `book:${book}` && e.status === "saved"));
    }
    if (!this.list) return;
    /** @type {Map<string | undefined, HTMLElement>} */
    const shown = new Map();
    for (const li of this.list.children) if (li instanceof HTMLElement) shown.set(li.dataset.key, li);
    this.list.replaceChildren(...(entries.length
      ? entries.map((entry) => this.current(shown.get(entry.key), entry))
      : [el("li", { class: "muted" }, "Nothing saved yet. the save button on a player (its arrow) keeps what it has loaded; an episode's row and a book's chapters have one too.")]));
    this.shelf.estimate().then((estimate) => {
      if (this.space) this.space.textContent = spaceText(this.shelf.entries, estimate);
    });
  }

  /**
   * The row for `entry`: while a save goes on, the row already shown keeps its place and only
   * its progress changes, so its Stop button is not swapped from under a finger four times a
   * second (a press that lands on a replaced button is lost).
   * @param {HTMLElement | undefined} shown the entry's row on the page now
   * @param {import("./dual-saved.js").SavedEntry} entry
   */
  current(shown, entry) {
    const progress = shown?.querySelector(".dual-device-progress");
    if (!shown || !progress || shown.dataset.status !== "saving" || entry.status !== "saving") return this.row(entry);
    progress.replaceWith(this.progress(entry));
    return shown;
  }

  /**
   * A save's bar and how far it has got.
   * @param {import("./dual-saved.js").SavedEntry} entry
   */
  progress(entry) {
    return el("span", { class: "dual-device-progress muted" }, el("progress", { max: String(entry.total || 1), value: entry.total ? String(entry.bytes) : undefined }), ` ${progressText(entry)}`);
  }

  /** @param {import("./dual-saved.js").SavedEntry} entry */
  row(entry) {
    const item = entry.item;
    const kind = KIND_NAMES[item.kind] ?? item.kind;
    const left = timeLeft(item, entry.position);
    const where = left > 0 ? ` · ${formatTime(left)} left` : "";
    const state = entry.status === "saving"
      ? this.progress(entry)
      : entry.status === "failed"
        ? el("span", { class: "form-error" }, `Not saved: ${entry.failure ?? "it failed"}. `)
        : el("span", { class: "muted" }, ` ${progressText({ bytes: entry.bytes, total: 0 })}${where}`);
    return el("li", { class: "dual-device-item", dataset: { key: entry.key, status: entry.status } },
      el("button", { type: "button", class: "dual-device-play", disabled: entry.status !== "saved", onclick: () => this.controller.playSaved(entry) },
        item.title, el("span", { class: "muted" }, ` — ${[kind, item.subtitle].filter(Boolean).join(" · ")}`)),
      state,
      entry.status === "failed"
        ? el("button", { type: "button", class: "ghost dual-device-retry", onclick: () => this.shelf.save(item, entry.player) }, "Try again")
        : null,
      el("button", { type: "button", class: "ghost dual-device-remove", "aria-label": `Remove ${item.title} from this device`, onclick: () => this.shelf.remove(item) },
        entry.status === "saving" ? "Stop" : "Remove"));
  }
}
