// Juke's service worker (an ES module; /sw.js imports it and calls `start` with the shell the
// server lists: its version, the app pages and every script, style and icon). Online, every
// request goes to the network as if there were no worker, so a page and its scripts always
// match the API that answers them; what came back is kept. Offline, the pages and files
// kept are served, so every app opens and says what needs the network. The API, live
// connections and media are never served from here.

/**
 * @typedef {{version: string, pages: string[], assets: string[]}} Shell
 */

/** @param {string} version */
export function cacheName(version) {
  return `juke-shell-${version}`;
}

/**
 * What the worker does with a request: "page" and "asset" are the shell (network first, kept
 * for offline); "visit" is another page opened (network only, and offline a page that says
 * so rather than the browser's error); "pass" goes to the network untouched.
 * @param {string} method
 * @param {URL} url
 * @param {string} origin
 * @param {Shell} shell
 * @param {boolean} [navigation] the request opens a page (its mode is "navigate")
 * @returns {"page" | "asset" | "visit" | "pass"}
 */
export function kindOf(method, url, origin, shell, navigation = false) {
  if (method !== "GET" || url.origin !== origin) return "pass";
  if (shell.pages.includes(url.pathname)) return "page";
  if (url.pathname === "/manifest.webmanifest" || shell.assets.includes(url.pathname)) return "asset";
  if (navigation && !url.pathname.startsWith("/api/")) return "visit";
  return "pass";
}

/**
 * Whether a response may be kept: a whole, successful answer that landed where it was asked
 * (a page that redirected to the sign-in is not the page).
 * @param {{ok: boolean, status: number, redirected: boolean, type: string}} response
 */
export function keepable(response) {
  return response.ok && response.status === 200 && !response.redirected && response.type === "basic";
}

/** The caches of other versions: removed when a version takes over. */
export function staleCaches(names, version) {
  return names.filter((name) => name.startsWith("juke-shell-") && name !== cacheName(version));
}

/** How often the pages are fetched again to keep them current, at most (ms). */
const WARM_INTERVAL = 5 * 60 * 1000;

const OFFLINE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Juke</title>
<link rel="stylesheet" href="/static/css/app.css"></head><body><main id="main" class="offline-page">
<h1>You are offline</h1><p>This page has not been opened on this device yet, so it is not kept here.
Pages you have opened before, and what you saved on this device, work without the network.</p>
<p><a href="/">Juke's home</a></p></main></body></html>`;

/**
 * Wires the worker's events for `shell`.
 * @param {Shell} shell
 */
export function start(shell) {
  const worker = /** @type {any} */ (self);
  const name = cacheName(shell.version);

  let lastWarm = 0;

  /**
   * Fetches the shell's pages with the person's cookie and keeps the ones that answer (a
   * signed-out visit is sent to the sign-in page: nothing is kept). At most every few minutes.
   */
  async function warm() {
    if (Date.now() - lastWarm < WARM_INTERVAL) return;
    lastWarm = Date.now();
    const cache = await caches.open(name);
    await Promise.all(shell.pages.map(async (page) => {
      try {
        const response = await fetch(page, { credentials: "same-origin", cache: "no-store" });
        // A body nobody reads holds its connection, and the browser has six per server.
        if (keepable(response)) await cache.put(page, response);
        else await response.body?.cancel();
      } catch (_) {}
    }));
  }

  // Installing keeps the files; the pages come when a signed-in page asks (they are the
  // person's own, and before signing in they are only the sign-in page).
  worker.addEventListener("install", (/** @type {any} */ event) => {
    event.waitUntil(caches.open(name).then((cache) => cache.addAll(shell.assets)));
  });

  worker.addEventListener("activate", (/** @type {any} */ event) => {
    event.waitUntil((async () => {
      for (const old of staleCaches(await caches.keys(), shell.version)) await caches.delete(old);
      await worker.clients.claim();
    })());
  });

  worker.addEventListener("message", (/** @type {any} */ event) => {
    if (event.data?.type === "warm") event.waitUntil(warm());
    if (event.data?.type === "update") worker.skipWaiting();
    if (event.data?.type === "version") event.source?.postMessage({ type: "version", version: shell.version });
  });

  worker.addEventListener("fetch", (/** @type {any} */ event) => {
    const request = event.request;
    const kind = kindOf(request.method, new URL(request.url), worker.location.origin, shell, request.mode === "navigate");
    if (kind === "pass") return;
    event.respondWith((async () => {
      const cache = await caches.open(name);
      try {
        const response = await fetch(request);
        if (kind !== "visit" && keepable(response)) await cache.put(request, response.clone());
        return response;
      } catch (error) {
        const kept = kind === "visit" ? undefined : await cache.match(request, { ignoreSearch: kind === "page" });
        if (kept) return kept;
        if (kind !== "asset") return new Response(OFFLINE_PAGE, { headers: { "Content-Type": "text/html; charset=utf-8" } });
        throw error;
      }
    })());
  });
}
