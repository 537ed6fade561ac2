// The one place that talks to Juke's JSON API. The token lives in localStorage for API
// calls; the server also set it as an HttpOnly cookie so <audio> and <img> can load media.
import { DEVICE_CACHE } from "./service-worker.js";

const TOKEN_KEY = "juke_token";

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

/** Whose things this device keeps (an account's id). */
const OWNER_KEY = "juke_device_owner";

/** The prefixes of the keys that hold a person's things, as the apps' pages declared them here. */
const PERSONAL_PREFIXES_KEY = "juke_personal_key_prefixes";

/**
 * The keys of localStorage that hold a person's things: those the apps declare (their card's
 * `personalKeyPrefixes`, carried by their pages as `data-personal-keys`), such as what was
 * saved and queued, the players' state kept for offline, an unsent workout. Preferences of
 * the device itself (the offset to the server's clock, a reading voice) are not the person's.
 * @param {string[]} keys
 * @param {string[]} prefixes
 */
export function personalKeys(keys, prefixes) {
  return keys.filter((key) => prefixes.some((prefix) => prefix !== "" && key.startsWith(prefix)));
}

/**
 * The prefixes known so far joined with a page's declared ones (space-separated), in order,
 * each once.
 * @param {string[]} known
 * @param {string | undefined} declared
 */
export function withDeclaredPrefixes(known, declared) {
  return [...new Set([...known, ...(declared || "").split(/\s+/).filter(Boolean)])];
}

/** The personal key prefixes this device has been told of. */
function knownPersonalPrefixes() {
  try {
    const known = JSON.parse(localStorage.getItem(PERSONAL_PREFIXES_KEY) || "[]");
    return Array.isArray(known) ? known.filter((prefix) => typeof prefix === "string") : [];
  } catch (_) {
    return [];
  }
}

/**
 * Keeps, on the device, the prefixes an app's page declares. An app's page writes its
 * person's things only after it has loaded (and so declared them), and the device remembers
 * them for sign-out and sign-in on any page, the platform's included.
 * @param {string | undefined} declared the page's `data-personal-keys`
 */
export function rememberPersonalKeys(declared) {
  if (!declared) return;
  const known = knownPersonalPrefixes();
  const all = withDeclaredPrefixes(known, declared);
  if (all.length !== known.length) localStorage.setItem(PERSONAL_PREFIXES_KEY, JSON.stringify(all));
}

/**
 * Whether a kept answer is the person's (a page drawn for them, a saved item) rather than the
 * app's own files (scripts, styles, icons, the manifest), which anyone may use.
 * @param {string} pathname
 */
export function personalPage(pathname) {
  return !pathname.startsWith("/static/") && pathname !== "/manifest.webmanifest";
}

/**
 * Removes what this device keeps of the person signed in: their saved media and the pages
 * drawn for them (Cache Storage), and their queued changes and state (localStorage). At
 * sign-out, and when another account signs in here, so that nothing of one person's is
 * played, shown or sent to the server under another's name. The app's own files stay, so it
 * still opens offline.
 */
export async function forgetPersonOnDevice() {
  const prefixes = withDeclaredPrefixes(knownPersonalPrefixes(), typeof document === "undefined" ? "" : document.body?.dataset.personalKeys);
  for (const key of personalKeys(Object.keys(localStorage), prefixes)) localStorage.removeItem(key);
  if (typeof caches === "undefined") return;
  for (const name of await caches.keys()) {
    if (name === DEVICE_CACHE) await caches.delete(name);
    if (!name.startsWith("juke-shell-")) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (personalPage(new URL(request.url).pathname)) await cache.delete(request);
  }
}

/**
 * Keeps a new session; another account than the last one here starts with a clean device.
 * @param {{token: string, user?: {id?: string}}} session the answer of sign-in or sign-up
 */
export async function saveSession(session) {
  localStorage.setItem(TOKEN_KEY, session.token);
  const owner = session.user?.id;
  if (!owner || localStorage.getItem(OWNER_KEY) === owner) return;
  try {
    await forgetPersonOnDevice();
  } finally {
    localStorage.setItem(OWNER_KEY, owner);
  }
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
}

// A refused request, as the server's error JSON says it: {"error", "message", "field"},
// with the Retry-After header's seconds on a 429 or 503.
export class APIError extends Error {
  /**
   * @param {number} status
   * @param {{error?: string, message?: string, field?: string} | null} body
   * @param {number | null} [retryAfter]
   */
  constructor(status, body, retryAfter = null) {
    super(body?.message || `Request failed (${status})`);
    this.status = status;
    this.code = body?.error;
    this.field = body?.field;
    this.retryAfter = retryAfter;
  }
}

/** No answer from the server: the device is offline, or the server cannot be reached. */
export class NetworkError extends Error {
  constructor(online = typeof navigator === "undefined" || navigator.onLine) {
    super(online ? "Juke's server cannot be reached; try again in a moment." : "You are offline: this needs the network.");
    this.name = "NetworkError";
    this.offline = !online;
  }
}

/**
 * Seconds from a Retry-After header (a number of seconds or an HTTP date), or null.
 * @param {string | null} header
 * @param {number} [now] milliseconds since the epoch
 */
export function retryAfterSeconds(header, now = Date.now()) {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * The one request helper: sends JSON with the signed-in token, returns the JSON reply (null
 * for 204), throws an APIError for any other status.
 * @param {string} path
 * @param {{method?: string, body?: any, signal?: AbortSignal}} [options]
 */
export async function api(path, options = {}) {
  const response = await send(path, { ...options, accept: "application/json" });
  if (response.status === 204) return null;
  const type = response.headers.get("Content-Type") || "";
  return type.includes("application/json") ? await response.json() : null;
}

/**
 * The door every request goes through: the signed-in token, a JSON body (or a file's bytes), and on a refusal
 * the server's error JSON as an APIError (with Retry-After), signing in again on 401.
 * @param {string} path
 * @param {{method?: string, body?: any, signal?: AbortSignal, accept: string}} options
 * @returns {Promise<Response>} a response with a 2xx status
 */
async function send(path, { method = "GET", body = undefined, signal = undefined, accept }) {
  /** @type {Record<string, string>} */
  const headers = { Accept: accept };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  // A file (an upload, an import) goes as its bytes; anything else as JSON.
  const isFile = typeof Blob !== "undefined" && body instanceof Blob;
  if (body !== undefined) headers["Content-Type"] = isFile ? "application/octet-stream" : "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : isFile ? body : JSON.stringify(body),
      signal,
      credentials: "same-origin",
    });
  } catch (error) {
    // No answer at all: say why in words rather than the browser's "Failed to fetch".
    if (error instanceof Error && error.name === "AbortError") throw error;
    throw new NetworkError();
  }
  if (response.ok) return response;
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("application/json") ? await response.json().catch(() => null) : null;
  if (response.status === 401 && !path.startsWith("/api/v1/auth/")) {
    clearSession();
    location.assign("/login");
  }
  throw new APIError(response.status, data, retryAfterSeconds(response.headers.get("Retry-After")));
}

/**
 * Cuts complete server-sent event blocks off the front of `text`: each block's event name
 * and its data (JSON, or {} when absent); `rest` is what waits for more bytes.
 * @param {string} text
 * @returns {{events: {type: string, data: any}[], rest: string}}
 */
export function takeEvents(text) {
  const events = [];
  let rest = text;
  let cut;
  while ((cut = rest.indexOf("\n\n")) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    const type = (block.match(/^event: (.*)$/m) || [])[1] || "message";
    const data = (block.match(/^data: (.*)$/m) || [])[1];
    if (block.startsWith(":") && !data) continue; // a comment: keep-alive
    events.push({ type, data: data === undefined ? {} : JSON.parse(data) });
  }
  return { events, rest };
}

/**
 * A request whose answer is a stream of server-sent events (a style guide as it is
 * written), through the same door as `api`: the token, the error JSON, sign-in again on 401.
 * Calls `onEvent` for each event until the stream ends.
 * @param {string} path
 * @param {{method?: string, body?: any, onEvent: (type: string, data: any) => void}} options
 */
export async function apiEvents(path, { method = "POST", body = undefined, onEvent }) {
  const response = await send(path, { method, body, accept: "text/event-stream" });
  // A 2xx answer to an event-stream request has a body; none would be the server's fault.
  if (!response.body) throw new Error(`No event stream from ${path}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const { events, rest } = takeEvents(buffer + decoder.decode(value, { stream: true }));
    buffer = rest;
    for (const event of events) onEvent(event.type, event.data);
  }
}

export async function logout() {
  try {
    await api("/api/v1/auth/logout", { method: "POST" });
  } catch (_) {
    // Signing out locally matters more than the server's answer.
  }
  clearSession();
  await forgetPersonOnDevice().catch(() => {});
  localStorage.removeItem(OWNER_KEY);
  location.assign("/login");
}

/**
 * What went wrong, in words, from whatever a `catch` caught (an Error, or anything thrown).
 * @param {unknown} error
 */
export function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A wait in words, for "try again in …": seconds under a minute, else whole minutes.
 * @param {number} seconds
 */
export function waitInWords(seconds) {
  if (seconds < 60) return counted(seconds, "second");
  return counted(Math.ceil(seconds / 60), "minute");
}

/**
 * A number with its noun, singular for one: "1 point", "3 points", "0 games".
 * @param {number} n
 * @param {string} singular
 * @param {string} [plural]
 */
export function counted(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * A length or a position as a clock reads it: "m:ss" under an hour, "h:mm:ss" from an hour
 * up, so a ten-hour book reads "10:00:00" rather than "600:00". Whole seconds, rounded down;
 * nothing sensible (negative, NaN) reads "0:00".
 * @param {number} seconds
 */
export function formatTime(seconds) {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Builds an element: el("li", {class: "x", onclick: fn}, child, "text", ...).
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {any} the element (any: callers set the fields of its own kind)
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * The page's element with this id, or null, as document.getElementById. Typed loosely on
 * purpose: the server draws each page, so which kind of element an id names (a form, an
 * input, a button) is known there, not here.
 * @param {string} id
 * @returns {any}
 */
export function byId(id) {
  return document.getElementById(id);
}

/**
 * An element the page must have, of the kind the server draws there (an input, a button):
 * the first match of `selector` inside `root`. A page without it, or with another kind of
 * element there, is a page out of step with its script: that throws at once, saying which,
 * rather than failing later on a null.
 * @template {Element} T
 * @param {string} selector
 * @param {new (...args: any[]) => T} kind
 * @param {ParentNode} [root]
 * @returns {T}
 */
export function requiredElement(selector, kind, root = document) {
  const found = root.querySelector(selector);
  if (!(found instanceof kind)) throw new Error(`The page has no ${kind.name} at ${selector}`);
  return found;
}

export function bindLogout() {
  // The header's wide "Sign out" (#logout) and the one in its phone menu ([data-logout]).
  for (const button of document.querySelectorAll("#logout, [data-logout]")) button.addEventListener("click", logout);
}

/**
 * Where to go after signing in: `next` when it names a page of this site, read the way the
 * browser will read it (so `/\evil.example`, `//evil.example`, `/%5Cevil.example` after
 * decoding, tabs and newlines inside, or `javascript:` all stay home), else "/".
 * The path handed back is the parsed one, and it must not start with two slashes: the parser
 * turns `\` into `/` and drops `.` and `%2e` segments, so `/.//evil.example`,
 * `/%2e//evil.example` and `/./\evil.example` all parse to the path `//evil.example`, which
 * `location.assign` would read again as another host.
 * @param {string | null} next
 * @param {string} origin this page's origin, e.g. "https://juke.example"
 */
export function safeNext(next, origin) {
  if (!next || !next.startsWith("/")) return "/";
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin || (url.protocol !== "http:" && url.protocol !== "https:")) return "/";
  if (!url.pathname.startsWith("/") || url.pathname.startsWith("//")) return "/";
  return url.pathname + url.search + url.hash;
}

/**
 * Shows why an action failed where the person acted: a message right after the action's
 * block (its form, row of buttons or options; inside a list item), announced to screen readers the
 * first time. Pages that redraw call it again after each redraw with `announce` false, so
 * the message stays put without being read out again.
 * @param {Element} anchor the control that was used
 * @param {string} message
 * @param {{announce?: boolean}} [options]
 * @returns {HTMLElement} the message
 */
export function showActionError(anchor, message, options = {}) {
  const announce = options.announce ?? true;
  const block = anchor.closest("form, .actions, .options, li") || anchor;
  const inside = block.tagName === "LI";
  const existing = inside ? block.querySelector(":scope > .action-error") : block.nextElementSibling;
  /** @type {HTMLElement} */
  const note = existing?.classList.contains("action-error") ? /** @type {HTMLElement} */ (existing) : el("p", { class: "action-error" });
  if (inside) block.append(note);
  else if (note !== existing) block.after(note);
  if (announce) note.setAttribute("role", "alert");
  else note.removeAttribute("role");
  note.textContent = message;
  if (anchor.id) {
    note.id = `${anchor.id}-error`;
    anchor.setAttribute("aria-describedby", note.id);
  }
  return note;
}

/**
 * Removes the action errors inside `scope`, once the person acts again.
 * @param {ParentNode} scope
 */
export function clearActionErrors(scope) {
  for (const note of scope.querySelectorAll(".action-error")) note.remove();
  for (const anchor of scope.querySelectorAll("[aria-describedby$='-error']")) anchor.removeAttribute("aria-describedby");
}
