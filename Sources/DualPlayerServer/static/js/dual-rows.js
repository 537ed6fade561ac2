// A row in one of Dual Player's lists (books, songs, stations, search results), as the design
// system's .list-row: a cover, the
// title and a line under it in one button that plays it, an optional progress bar, and
// its actions (icon buttons) at the end. One shape for every list, so that each reads and
// is tapped the same way.
import { el } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";

/**
 * @typedef {object} RowAction
 * @property {string} icon the icon's name (Icons.all)
 * @property {string} label what the button does, for screen readers and as its tooltip
 * @property {() => void} run
 * @property {string} [class] a class of its own, for tests and styles
 * @property {boolean} [pressed] a toggle's state (aria-pressed)
 */

/**
 * @param {object} row
 * @param {string} row.title
 * @param {string} [row.sub] the line under the title
 * @param {string} [row.cover] a cover image's address
 * @param {() => void} [row.play] what a tap on the row does
 * @param {boolean} [row.disabled]
 * @param {{ value: number, max: number, label: string } | null} [row.progress] how far it has been listened to
 * @param {(RowAction | null)[]} [row.actions]
 * @param {string} [row.class] the list item's classes beside dual-row
 * @param {Record<string, string>} [row.dataset]
 * @param {(Node | null)[]} [row.extra] more under the row (a download's progress, say)
 * @returns {HTMLLIElement}
 */
export function row({ title, sub = "", cover, play, disabled = false, progress = null, actions = [], class: className = "", dataset = {}, extra = [] }) {
  return /** @type {HTMLLIElement} */ (
    el("li", { class: `list-row ${className}`.trim(), dataset },
      cover ? el("img", { class: "list-row-art", src: cover, alt: "", loading: "lazy", referrerpolicy: "no-referrer" }) : null,
      el("button", { type: "button", class: "list-row-main", disabled, onclick: play },
        el("span", { class: "list-row-title" }, title),
        sub ? el("span", { class: "list-row-subtitle" }, sub) : null,
        progress ? el("progress", { class: "dual-progress", max: String(progress.max), value: String(progress.value), "aria-label": progress.label }) : null),
      ...extra,
      actions.some(Boolean) ? el("span", { class: "list-row-actions" }, ...actions.map((a) => (a ? actionButton(a) : null))) : null)
  );
}

/** @param {RowAction} action */
export function actionButton(action) {
  const button = el("button", {
    type: "button", class: `icon-btn ${action.class ?? ""}`.trim(), "aria-label": action.label, title: action.label, onclick: action.run,
    "aria-pressed": action.pressed === undefined ? undefined : String(action.pressed),
  });
  button.append(icon(action.icon));
  return button;
}

/**
 * A book's progress as the shelf shows it: the bar's value and what it says, or null before
 * the book has been played. Within 30 s of its end a book counts as finished.
 * @param {{ duration: number, listened?: { position: number } | null }} book
 * @param {(seconds: number) => string} formatTime
 */
export function bookProgress(book, formatTime) {
  const at = book.listened?.position;
  if (at === undefined || at === null || !(book.duration > 0)) return null;
  const value = Math.min(Math.max(at, 0), book.duration);
  if (book.duration - value <= 30) return { value: book.duration, max: book.duration, label: "Finished", text: "Finished" };
  const left = `${formatTime(book.duration - value)} left`;
  return { value, max: book.duration, label: `${Math.round((value / book.duration) * 100)}% listened, ${left}`, text: left };
}
