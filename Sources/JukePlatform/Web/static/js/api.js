// The one place that talks to Juke's JSON API. The token lives in localStorage for API
// calls; the server also set it as an HttpOnly cookie so <audio> and <img> can load media.
const TOKEN_KEY = "juke_token";

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

export function saveSession(session) {
  localStorage.setItem(TOKEN_KEY, session.token);
}

export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
}

export class APIError extends Error {
  constructor(status, body) {
    super(body?.message || `Request failed (${status})`);
    this.status = status;
    this.code = body?.error;
    this.field = body?.field;
    this.retryAfter = body?.retry_after;
  }
}

export async function api(path, { method = "GET", body, signal } = {}) {
  const headers = { Accept: "application/json" };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    credentials: "same-origin",
  });
  if (response.status === 204) return null;
  let data = null;
  const type = response.headers.get("Content-Type") || "";
  if (type.includes("application/json")) data = await response.json();
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith("/api/v1/auth/")) {
      clearSession();
      location.assign("/login");
    }
    throw new APIError(response.status, data);
  }
  return data;
}

export async function logout() {
  try {
    await api("/api/v1/auth/logout", { method: "POST" });
  } catch (_) {
    // Signing out locally matters more than the server's answer.
  }
  clearSession();
  location.assign("/login");
}

export function formatTime(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
  const m = Math.floor(seconds / 60);
  const s = Math.floor(seconds % 60);
  return `${m}:${String(s).padStart(2, "0")}`;
}

// Builds an element: el("li", {class: "x", onclick: fn}, child, "text", ...).
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

export function bindLogout() {
  document.getElementById("logout")?.addEventListener("click", logout);
}
