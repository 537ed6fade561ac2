// Juke's service worker (an ES module; /sw.js imports it and calls `start` with the shell the
// server lists: its version, the app pages and every script, style and icon). Online, every
// request goes to the network as if there were no worker, so a page and its scripts always
// match the API that answers them; what came back is kept. Offline, the pages and files
// kept are served, so every app opens and says what needs the network. The API and live
// connections are never served from here, with one exception: what a person saved "on this
// device" (in the DEVICE_CACHE the pages fill), at the addresses the shell lists: the
// platform's library tracks and what each app declares it may keep (Dual Player's songs,
// books, episodes and spoken articles). Their audio and pictures play from the device, online too (Range requests
// answered from the kept bytes), and their chapters and transcripts answer when the network
// does not.

/**
 * @typedef {{version: string, pages: string[], assets: string[], device: string[]}} Shell
 */

/** The cache of what a person saved on this device (never removed by a new version). */
export const DEVICE_CACHE = "juke-device";

/** @type {Map<string, RegExp>} */
const compiled = new Map();

/**
 * A path template as the server declares it ("/api/v1/example/{id}/cover": `{name}` is any
 * one segment, the rest literal) as a pattern of the whole path.
 * @param {string} template
 */
export function templatePattern(template) {
  let pattern = compiled.get(template);
  if (!pattern) {
    const segments = template.split("/").map((part) => /^\{[^/{}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    pattern = new RegExp(`^${segments.join("/")}$`);
    compiled.set(template, pattern);
  }
  return pattern;
}

/**
 * Whether `pathname` is an address a saved item can have, by the shell's templates (only
 * those are looked up on the device: radio streams and the rest of the API pass untouched).
 * @param {string} pathname
 * @param {string[]} templates
 */
export function saveable(pathname, templates) {
  return templates.some((template) => templatePattern(template).test(pathname));
}

/**
 * The bytes a Range header asks of a file of `size` bytes, inclusive, or null when it asks for
 * none of them (416). No header, or one this does not read, is the whole file.
 * @param {string | null} header
 * @param {number} size
 * @returns {{start: number, end: number} | null}
 */
export function byteRange(header, size) {
  const whole = { start: 0, end: size - 1 };
  const match = /^bytes=(\d*)-(\d*)$/.exec((header ?? "").trim());
  if (!match || (match[1] === "" && match[2] === "")) return size > 0 ? whole : null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix > 0 && size > 0 ? { start: Math.max(0, size - suffix), end: size - 1 } : null;
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start < size && start <= end ? { start, end } : null;
}

/**
 * Whether a saved answer is served from the device even online: audio and pictures (the
 * point of saving them) are; chapters, transcripts and texts ask the network first.
 * @param {string | null} contentType
 */
export function playsFromDevice(contentType) {
  return /^(audio|video|image)\//.test(contentType ?? "");
}

/** @param {string} version */
export function cacheName(version) {
  return `juke-shell-${version}`;
}

/**
 * What the worker does with a request: "page" and "asset" are the shell (network first, kept
 * for offline); "visit" is another page opened (network only, and offline a page that says
 * so rather than the browser's error); "device" may have been saved on this device; "pass"
 * goes to the network untouched.
 * @param {string} method
 * @param {URL} url
 * @param {string} origin
 * @param {Shell} shell
 * @param {boolean} [navigation] the request opens a page (its mode is "navigate")
 * @returns {"page" | "asset" | "visit" | "device" | "pass"}
 */
export function kindOf(method, url, origin, shell, navigation = false) {
  if (method !== "GET" || url.origin !== origin) return "pass";
  if (shell.pages.includes(url.pathname)) return "page";
  if (!navigation && saveable(url.pathname, shell.device ?? [])) return "device";
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

/**
 * The caches of other versions: removed when a version takes over.
 * @param {string[]} names
 * @param {string} version
 */
export function staleCaches(names, version) {
  return names.filter((name) => name.startsWith("juke-shell-") && name !== cacheName(version));
}

/**
 * A saved answer as the request asks for it: the whole, or the bytes of its Range (media
 * elements ask for ranges, and seeking needs them).
 * @param {Response} kept
 * @param {string | null} range
 */
async function fromDevice(kept, range) {
  const type = kept.headers.get("Content-Type") || "application/octet-stream";
  const blob = await kept.blob();
  const wanted = byteRange(range, blob.size);
  if (!wanted) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${blob.size}` } });
  const headers = { "Content-Type": type, "Accept-Ranges": "bytes", "Content-Length": String(wanted.end - wanted.start + 1) };
  if (!range) return new Response(blob, { status: 200, headers });
  return new Response(blob.slice(wanted.start, wanted.end + 1), {
    status: 206, headers: { ...headers, "Content-Range": `bytes ${wanted.start}-${wanted.end}/${blob.size}` },
  });
}

/**
 * A request for something that may be saved on this device.
 * @param {Request} request
 */
async function deviceOrNetwork(request) {
  const kept = await (await caches.open(DEVICE_CACHE)).match(request.url, { ignoreVary: true });
  if (kept && playsFromDevice(kept.headers.get("Content-Type"))) return fromDevice(kept, request.headers.get("Range"));
  try {
    return await fetch(request);
  } catch (error) {
    if (kept) return kept;
    throw error;
  }
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
    if (kind === "device") return event.respondWith(deviceOrNetwork(request));
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
