// Errors as a person on a phone reads them: what happened in plain words (no host names, no
// library messages: the server says outside services' failures plainly, and Juke's own are
// said here), where they look (beside what they did, brought into view above the mini player
// and the tab bar) and a Retry that does the same again.
import { APIError, el, NetworkError } from "/static/js/api.js";

/**
 * What went wrong, in plain words.
 * @param {unknown} error
 */
export function plainWords(error) {
  if (typeof error === "string") return error;
  if (error instanceof NetworkError) return error.offline ? "You're offline: this needs the network." : "Can't reach Juke right now. Check your connection.";
  // Juke's own failure: its words would be a programmer's.
  if (error instanceof APIError) return error.status >= 500 && error.status !== 502 && error.status !== 503 ? "Something went wrong on Juke's side. Try again in a moment." : error.message;
  return "Something went wrong. Try again in a moment.";
}

/**
 * Whether doing the same again may work: no answer, or Juke or an outside service failing
 * (5xx, too many requests); not a refusal (4xx), which says what to change instead.
 * @param {unknown} error
 */
export function retryable(error) {
  return error instanceof NetworkError || (error instanceof APIError && (error.status >= 500 || error.status === 429));
}

/**
 * Shows `error` in `slot` (the place right under the action, or its note) with a Retry button
 * that takes the error away and runs `retry`, and brings it into view.
 * @param {Element} slot a list (the error is one of its rows), a paragraph or a box
 * @param {unknown} error what failed, or the words to say
 * @param {(() => unknown) | null} retry null where trying again cannot help (a refusal)
 * @param {string} [before] what failed, said first ("Couldn't subscribe.")
 */
export function showTrouble(slot, error, retry, before = "") {
  const tag = slot.tagName === "UL" || slot.tagName === "OL" ? "li" : slot.tagName === "P" ? "span" : "div";
  const box = el(tag, { class: "dual-trouble", role: "alert" },
    el("span", { class: "dual-trouble-text" }, [before, plainWords(error)].filter(Boolean).join(" ")),
    retry && el("button", {
      type: "button", class: "btn btn-ghost dual-retry",
      onclick: () => {
        box.remove();
        retry?.();
      },
    }, "Retry"));
  slot.replaceChildren(box);
  box.scrollIntoView({ block: "nearest" });
  return box;
}
