// A coach's screen: open a class (its code for the runners) or follow one, then every runner
// in it live: heart rate, zone, phase, whether their strap is heard.
import { api, bindLogout, byId, el, showActionError } from "/static/js/api.js";
import { reconnectDelay } from "/static/js/live.js";
import { clock } from "./runbeat-timeline.js";

bindLogout();

let socket = null;
let failures = 0;
let following = null;

function draw(state) {
  byId("rb-class-title").textContent = `${state.name} · code ${state.code}`;
  byId("rb-class-status").textContent = state.runners.length ? "" : "No runner yet: they enter the code before starting.";
  byId("rb-runners").replaceChildren(
    ...state.runners.map((r) =>
      el(
        "li",
        { class: `rb-runner z${r.zone ?? 0}${r.strap_live ? "" : " silent"}`, dataset: { workout: r.workout_id } },
        el("strong", {}, r.runner),
        el("span", { class: "rb-runner-bpm" }, r.bpm != null ? `${r.bpm} bpm` : "–"),
        el("span", {}, r.zone != null ? `Zone ${r.zone}` : ""),
        el("span", { class: "muted" }, `${r.phase_kind} · ${clock(r.elapsed)}${r.status !== "running" ? ` · ${r.status}` : ""}${r.strap_live ? "" : " · strap silent"}`),
      ),
    ),
  );
}

async function follow(code) {
  following = code.toUpperCase();
  draw(await api(`/api/v1/runbeat/classes/${following}`));
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/api/v1/runbeat/classes/${following}/live`);
  socket.addEventListener("open", () => (failures = 0));
  socket.addEventListener("message", (event) => draw(JSON.parse(String(event.data))));
  socket.addEventListener("close", () => {
    failures += 1;
    byId("rb-class-status").textContent = "Reconnecting…";
    setTimeout(connect, reconnectDelay(failures));
  });
}

byId("rb-class-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const opened = await api("/api/v1/runbeat/classes", { method: "POST", body: { name: event.target.name.value } });
    history.replaceState(null, "", `/runbeat/coach?code=${opened.code}`);
    await follow(opened.code);
  } catch (error) {
    showActionError(event.submitter || event.target, error.message);
  }
});

byId("rb-follow").addEventListener("click", async (event) => {
  const code = byId("rb-class-form").code.value.trim();
  try {
    await follow(code);
    history.replaceState(null, "", `/runbeat/coach?code=${code.toUpperCase()}`);
  } catch (error) {
    showActionError(event.target, error.message);
  }
});

const code = new URLSearchParams(location.search).get("code");
if (code) follow(code).catch((error) => (byId("rb-class-status").textContent = error.message));
