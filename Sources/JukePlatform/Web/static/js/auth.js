import { api, APIError, byId, errorMessage, safeNext, saveSession, waitInWords } from "./api.js";

const form = /** @type {HTMLFormElement} */ (document.querySelector("form[data-mode]"));
const error = byId("form-error");

// Where the person was going (an invite link) survives the switch between signing in and
// creating an account: a newcomer from an invite lands in the game, not on the home page.
const next = new URLSearchParams(location.search).get("next");
if (next && safeNext(next, location.origin) !== "/") {
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll(".switch a"))) {
    link.href = `${link.pathname}?next=${encodeURIComponent(safeNext(next, location.origin))}`;
  }
}

/**
 * @param {string} message
 * @param {string} [field] the form field the server named, marked invalid and focused
 */
function showError(message, field) {
  error.textContent = message;
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  if (field) {
    const input = /** @type {HTMLInputElement | null} */ (form.querySelector(`[name="${field}"]`));
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const mode = form.dataset.mode;
  const data = Object.fromEntries(new FormData(form).entries());
  for (const key of ["email", "display_name"]) if (data[key] === "") delete data[key];
  const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  button.disabled = true;
  error.textContent = "";
  try {
    const session = await api(`/api/v1/auth/${mode}`, { method: "POST", body: data });
    await saveSession(session);
    // Back to where the person was going (an invite link), if it is a page of this site.
    location.assign(safeNext(next, location.origin));
  } catch (e) {
    // Too many attempts: the server says how long to wait (Retry-After).
    if (!(e instanceof APIError)) return showError(errorMessage(e));
    const wait = e.retryAfter ? ` Try again in ${waitInWords(e.retryAfter)}.` : "";
    showError(e.message + wait, e.field);
  } finally {
    button.disabled = false;
  }
});
