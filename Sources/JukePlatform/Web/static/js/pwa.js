// Installable and offline: registers the service worker, keeps the apps' pages on the device
// while signed in, says when the network is gone (and what needs it here), and
// says when a new version of Juke is ready (it starts the next time Juke is opened).
import { rememberPersonalKeys, token } from "./api.js";

/** The platform's note; an app's pages carry their own (its card's `offlineNote`, `data-offline-note`). */
export const PLATFORM_OFFLINE_NOTE = "You are offline. The library, search and every app's live features need the network.";

/**
 * What this page can and cannot do without the network: its app's note, else the platform's.
 * @param {string | undefined} declared the page's `data-offline-note`
 */
export function offlineNote(declared) {
  return declared?.trim() || PLATFORM_OFFLINE_NOTE;
}

/**
 * A banner at the top of the page, made once and reused.
 * @param {string} id
 */
function banner(id) {
  let node = document.getElementById(id);
  if (!node) {
    node = document.createElement("div");
    node.id = id;
    node.className = "pwa-banner";
    node.setAttribute("role", "status");
    document.body.prepend(node);
  }
  return node;
}

function showConnection() {
  const node = banner("offline-banner");
  node.hidden = navigator.onLine;
  node.textContent = navigator.onLine ? "" : offlineNote(document.body.dataset.offlineNote);
  document.body.dataset.offline = navigator.onLine ? "false" : "true";
}

/** @param {ServiceWorker} waiting */
function offerUpdate(waiting) {
  const node = banner("update-banner");
  node.hidden = false;
  node.replaceChildren(
    "A new version of Juke is ready; it starts the next time you open Juke. ",
    Object.assign(document.createElement("button"), {
      type: "button", textContent: "Use it now",
      onclick: () => waiting.postMessage({ type: "update" }),
    }));
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  let reloading = false;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Only a page that was already controlled reloads: the first install takes over quietly.
    if (!hadController || reloading) return;
    reloading = true;
    location.reload();
  });
  const registration = await navigator.serviceWorker.register("/sw.js", { type: "module", scope: "/" });
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller) offerUpdate(installing);
    });
  });
  // Signed in and online: keep the apps' pages current on this device.
  if (navigator.onLine && token()) {
    const ready = await navigator.serviceWorker.ready;
    ready.active?.postMessage({ type: "warm" });
  }
}

if (typeof window !== "undefined" && typeof document !== "undefined") {
  window.addEventListener("online", showConnection);
  window.addEventListener("offline", showConnection);
  const begin = () => {
    rememberPersonalKeys(document.body.dataset.personalKeys);
    showConnection();
    register().catch(() => {});
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
}
