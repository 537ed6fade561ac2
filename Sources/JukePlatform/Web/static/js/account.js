// The account page: API keys and the app password that Subsonic-family players sign in with.
import { api, bindLogout, byId, el, errorMessage } from "./api.js";

bindLogout();

const keys = byId("api-keys");
const form = byId("new-key");
const keyError = byId("key-error");
const secret = byId("new-secret");
const secretValue = byId("new-secret-value");
const passwordState = byId("app-password-state");
const makePassword = byId("make-password");
const removePassword = byId("remove-password");
const passwordError = byId("password-error");

/** @typedef {{id: string, name: string, created_at: string, last_used_at?: string}} APIKey */
/** @typedef {{api_keys: APIKey[], app_password_created_at?: string}} Access */

/**
 * What a key's row says under its name.
 * @param {APIKey} key
 */
export function keySummary(key) {
  const made = `made ${new Date(key.created_at).toLocaleDateString()}`;
  return key.last_used_at ? `${made} · last used ${new Date(key.last_used_at).toLocaleString()}` : `${made} · never used`;
}

/**
 * Shows a secret the server gives once.
 * @param {string} text
 */
function show(text) {
  secretValue.textContent = text;
  secret.hidden = false;
}

async function refresh() {
  /** @type {Access} */
  const access = await api("/api/v1/auth/subsonic");
  keys.replaceChildren(...(access.api_keys.length
    ? access.api_keys.map((key) => el("li", { class: "list-row" },
      el("div", { class: "list-row-main" }, el("span", { class: "list-row-title" }, key.name), el("span", { class: "list-row-subtitle" }, keySummary(key))),
      el("div", { class: "list-row-actions" },
        el("button", { type: "button", class: "btn btn-ghost btn-danger", "data-revoke": key.id, "aria-label": `Revoke ${key.name}` }, "Revoke"))))
    : [el("li", { class: "list-row muted" }, "No keys yet.")]));
  const made = access.app_password_created_at;
  passwordState.textContent = made ? `You have an app password, made ${new Date(made).toLocaleString()}.` : "You have no app password.";
  makePassword.textContent = made ? "Make a new app password" : "Make an app password";
  removePassword.hidden = !made;
}

form.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  keyError.textContent = "";
  const input = /** @type {HTMLInputElement} */ (byId("key-name"));
  try {
    /** @type {{key: string}} */
    const made = await api("/api/v1/auth/subsonic/api-keys", { method: "POST", body: { name: input.value.trim() } });
    form.reset();
    show(made.key);
    await refresh();
  } catch (e) {
    keyError.textContent = errorMessage(e);
  }
});

keys.addEventListener("click", async (/** @type {MouseEvent} */ event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest("[data-revoke]");
  if (!button) return;
  try {
    await api(`/api/v1/auth/subsonic/api-keys/${button.getAttribute("data-revoke")}`, { method: "DELETE" });
    await refresh();
  } catch (e) {
    keyError.textContent = errorMessage(e);
  }
});

makePassword.addEventListener("click", async () => {
  passwordError.textContent = "";
  try {
    /** @type {{password: string}} */
    const made = await api("/api/v1/auth/subsonic/app-password", { method: "POST" });
    show(made.password);
    await refresh();
  } catch (e) {
    passwordError.textContent = errorMessage(e);
  }
});

removePassword.addEventListener("click", async () => {
  passwordError.textContent = "";
  try {
    await api("/api/v1/auth/subsonic/app-password", { method: "DELETE" });
    secret.hidden = true;
    await refresh();
  } catch (e) {
    passwordError.textContent = errorMessage(e);
  }
});

refresh().catch((e) => { keyError.textContent = errorMessage(e); });
