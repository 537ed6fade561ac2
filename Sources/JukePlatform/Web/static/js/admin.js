import { api, bindLogout, byId, el, errorMessage } from "./api.js";

bindLogout();

const folders = byId("folders");
const scans = byId("scans");
const issues = byId("issues");
const trackCount = byId("track-count");
const scanStatus = byId("scan-status");
const form = byId("add-folder");
const error = byId("form-error");
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/** @typedef {{path: string, last_scan_at?: string | null}} Folder */
/**
 * @typedef {{folder_path: string, phase: string, files_found: number, files_checked: number, added: number,
 *   updated: number, moved: number, removed: number, unchanged: number, failed: number, message?: string | null}} Scan
 */
/** @typedef {{track_count: number, scans: Scan[], issues: {path: string, reason: string}[]}} LibraryStatus */

async function refresh() {
  try {
    /** @type {[Folder[], LibraryStatus]} */
    const [list, status] = await Promise.all([api("/api/v1/library/folders"), api("/api/v1/library/status")]);
    folders.replaceChildren(...list.map((f) =>
      el("li", {}, el("code", {}, f.path), el("span", { class: "muted" }, f.last_scan_at ? ` last scanned ${new Date(f.last_scan_at).toLocaleString()}` : " not scanned yet"))));
    trackCount.textContent = `${status.track_count} tracks in the library.`;
    scans.replaceChildren(...status.scans.map((s) => {
      const percent = s.files_found ? Math.round((100 * s.files_checked) / s.files_found) : 0;
      return el("li", { class: `scan scan-${s.phase}` },
        el("div", {}, el("code", {}, s.folder_path), " — ", s.phase),
        el("progress", { max: 100, value: percent, "aria-label": `Scan of ${s.folder_path}` }, `${percent}%`),
        el("div", { class: "muted" },
          `${s.files_checked}/${s.files_found} files · ${s.added} added · ${s.updated} updated · ${s.moved} moved · ${s.removed} removed · ${s.unchanged} unchanged · ${s.failed} failed`),
        s.message ? el("div", { class: "form-error" }, s.message) : null);
    }));
    issues.replaceChildren(...(status.issues.length
      ? status.issues.map((i) => el("li", {}, el("code", {}, i.path), el("div", { class: "muted" }, i.reason)))
      : [el("li", { class: "muted" }, "None.")]));
    const busy = status.scans.some((s) => !["done", "failed"].includes(s.phase));
    // Screen readers hear when scanning starts and ends, not every redraw of the progress.
    const summary = busy ? "Scanning…" : status.scans.length ? "Scans finished." : "";
    if (scanStatus.textContent !== summary) scanStatus.textContent = summary;
    clearTimeout(timer);
    timer = setTimeout(refresh, busy ? 500 : 5000);
  } catch (e) {
    error.textContent = errorMessage(e);
  }
}

form.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  error.textContent = "";
  const path = form.querySelector("#folder-path").value.trim();
  try {
    await api("/api/v1/library/folders", { method: "POST", body: { path } });
    form.reset();
    refresh();
  } catch (e) {
    error.textContent = errorMessage(e);
  }
});

byId("rescan").addEventListener("click", async () => {
  await api("/api/v1/library/scan", { method: "POST" });
  refresh();
});

refresh();
