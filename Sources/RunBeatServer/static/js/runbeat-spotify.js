// RunBeat's Spotify on the page: connecting (the server sends the browser to Spotify and
// Spotify sends it back to /runbeat), the device to play on, the runner's playlists for each
// phase's choice, and the line the run shows about what Spotify plays. The server drives
// Spotify during the run (the page only shows what it says), so the music goes on even when
// the page cannot.
import { api, el, errorMessage, showActionError } from "/static/js/api.js";
export { callbackOutcome, spotifyLine } from "./runbeat-spotify-status.js";

/** Said before sending the browser to Spotify with no network: the sign-in page could not load. */
export const OFFLINE = "Connecting Spotify needs the network, and this device is offline. Connect when you are back online (your library's music plays without it).";

export class SpotifyPanel {
  /** @param {HTMLElement} box @param {() => void} onChange */
  constructor(box, onChange) {
    this.box = box;
    this.onChange = onChange;
    this.status = null;
    /** @type {{id: string, name: string, track_count: number}[] | null} */
    this.playlistCache = null;
    // Going offline or online redraws the panel, so what it offers matches the network.
    addEventListener("online", () => this.draw());
    addEventListener("offline", () => this.draw());
  }

  get connected() {
    return this.status?.status === "connected";
  }

  async load() {
    try {
      this.status = await api("/api/v1/runbeat/spotify");
    } catch {
      this.status = null;
    }
    await this.draw();
  }

  /** Every playlist of the runner's, page by page (at most 1,000). */
  async playlists() {
    if (this.playlistCache) return this.playlistCache;
    const all = [];
    for (let offset = 0; offset < 1000; ) {
      const page = await api(`/api/v1/runbeat/spotify/playlists?limit=50&offset=${offset}`);
      all.push(...page.playlists);
      if (!page.more || !page.playlists.length) break;
      offset += page.playlists.length;
    }
    this.playlistCache = all;
    return all;
  }

  async draw() {
    const s = this.status;
    if (!s) {
      this.box.replaceChildren();
      this.box.hidden = true;
      return;
    }
    if (!s.configured) {
      // Said, not left out: a runner looking for Spotify learns why it is not offered.
      this.box.hidden = false;
      this.box.replaceChildren(
        el("p", { class: "rb-spotify-state rb-spotify-unavailable" }, "Spotify is not set up on this server, so each phase plays music from your Juke library instead."),
      );
      return;
    }
    this.box.hidden = false;
    if (s.status !== "connected") {
      // pending: a sign-in was started and Spotify has not sent this browser back yet.
      const pending = s.status === "pending";
      const connect = el("button", { type: "button", class: "btn btn-primary rb-spotify-connect", onclick: () => this.connect(connect) }, pending ? "Connect again" : "Connect Spotify");
      const why =
        s.status === "reauthorize"
          ? "Spotify needs you to connect again."
          : pending
            ? "Connecting to Spotify… waiting for Spotify to send you back here. If its page did not open or you closed it, connect again."
            : "Play your Spotify playlists in the phases (Spotify Premium).";
      const parts = [el("p", { class: `rb-spotify-state${pending ? " rb-spotify-pending" : ""}` }, why)];
      if (!navigator.onLine) parts.push(el("p", { class: "rb-spotify-offline muted", role: "status" }, OFFLINE));
      this.box.replaceChildren(...parts, connect);
      return;
    }
    const devices = el("select", { "aria-label": "Spotify device", onchange: () => this.chooseDevice(devices) });
    devices.append(el("option", { value: "" }, "Whichever device has Spotify open"));
    if (s.device_id) devices.append(el("option", { value: s.device_id, selected: true }, s.device_name || s.device_id));
    const disconnect = el("button", { type: "button", class: "btn", onclick: () => this.disconnect(disconnect) }, "Disconnect Spotify");
    this.box.replaceChildren(
      el("p", { class: "rb-spotify-state" }, "Spotify is connected. RunBeat starts each phase's playlist on your Spotify device."),
      el("label", {}, "Play on ", devices),
      disconnect,
    );
    try {
      const list = await api("/api/v1/runbeat/spotify/devices");
      for (const device of list.devices) {
        if (device.id === s.device_id) continue;
        devices.append(el("option", { value: device.id }, `${device.name}${device.active ? " (playing)" : ""}`));
      }
    } catch {
      // No devices listed now (Spotify busy or closed): the stored choice stays.
    }
  }

  /** @param {HTMLButtonElement} button */
  async connect(button) {
    // Spotify's sign-in is a page on the internet: offline, going there leaves the runner on
    // a page that cannot load, so say so here and stay.
    if (!navigator.onLine) {
      showActionError(button, OFFLINE);
      return;
    }
    try {
      const start = await api("/api/v1/runbeat/spotify/connect", { method: "POST" });
      if (!navigator.onLine) {
        showActionError(button, OFFLINE);
        return;
      }
      location.assign(start.authorize_url);
    } catch (error) {
      showActionError(button, errorMessage(error));
    }
  }

  /** @param {HTMLSelectElement} select */
  async chooseDevice(select) {
    try {
      const body = select.value ? { device_id: select.value } : {};
      this.status = await api("/api/v1/runbeat/spotify/device", { method: "PUT", body });
    } catch (error) {
      showActionError(select, errorMessage(error));
    }
  }

  /** @param {HTMLButtonElement} button */
  async disconnect(button) {
    try {
      await api("/api/v1/runbeat/spotify", { method: "DELETE" });
      this.playlistCache = null;
      await this.load();
      this.onChange();
    } catch (error) {
      showActionError(button, errorMessage(error));
    }
  }
}
