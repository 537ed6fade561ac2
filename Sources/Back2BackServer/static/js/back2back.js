// Back2Back's home, in screens: Sessions (start a session with a persona, your sessions),
// Personas (list, delete; create and edit on the editor's screen) and Settings (models and
// reasoning per AI job, crossfade, song memory; the AI service for admins).
import { api, apiEvents, bindLogout, byId, counted, el, errorMessage } from "/static/js/api.js";
import { icon } from "/static/js/icons.js";
import { Screens } from "./back2back-screens.js";

/**
 * The shapes of Back2Back's API (openapi.yaml: B2BPersona, B2BSettings, B2BAIEndpoint).
 * @typedef {{genres: string[], artists: string[], adventure: number, year_from?: number | null, year_to?: number | null}} Taste
 * @typedef {{id: string, name: string, description: string, style_guide: string, taste: Taste}} Persona
 * @typedef {{model: string, effort: string}} ModelChoice
 * @typedef {{song_selection: ModelChoice, direction_change: ModelChoice, style_guide: ModelChoice,
 *   crossfade_seconds: number, persona_id?: string, ai_configured: boolean}} Settings
 * @typedef {"song_selection" | "direction_change" | "style_guide"} Job
 * @typedef {{source: "settings" | "environment" | "off", base_url?: string, key_set: boolean}} Endpoint
 */

/**
 * The AI jobs whose model and reasoning the settings choose.
 * @type {Job[]}
 */
const JOBS = ["song_selection", "direction_change", "style_guide"];

bindLogout();

const personaSelect = byId("persona-select");
const personaList = byId("personas");
const personaForm = byId("persona-form");
const personaError = byId("persona-error");
const settingsForm = byId("settings-form");
const settingsNote = byId("settings-note");
/** @type {Settings | null} */
let settings = null;
/** @type {Persona[]} */
let personas = [];
/**
 * The editor's screen, opened (for "new" or an id) before the personas were loaded: filled once they are.
 * @type {string | null}
 */
let pendingEditor = null;
let personasLoaded = false;

async function loadPersonas() {
  personas = (await api("/api/v1/back2back/personas")).items;
  personasLoaded = true;
  personaSelect.replaceChildren(...personas.map((p) => el("option", { value: p.id, selected: settings?.persona_id === p.id }, p.name)));
  personaList.replaceChildren(...personas.map(personaRow));
  if (!personas.length) personaList.append(el("li", { class: "muted" }, "No personas yet: create one with New persona."));
  if (pendingEditor) openEditor(pendingEditor);
}

/**
 * A persona in the list: its name and who it is, then Edit and Delete as icon buttons (named for the persona).
 * @param {Persona} p
 */
function personaRow(p) {
  return el(
    "li",
    { class: "list-row persona", dataset: { id: p.id } },
    el("div", { class: "list-row-main" },
      el("strong", { class: "list-row-title" }, p.name),
      p.description ? el("span", { class: "list-row-subtitle" }, p.description) : null,
    ),
    el("div", { class: "list-row-actions" },
      el("a", { class: "icon-btn persona-edit", href: `#persona/${encodeURIComponent(p.id)}`, title: "Edit", "aria-label": `Edit ${p.name}` }, icon("edit")),
      el("button", { class: "icon-btn persona-delete", type: "button", title: "Delete", "aria-label": `Delete ${p.name}`, onclick: () => deletePersona(p) }, icon("trash")),
    ),
  );
}

/**
 * Fills the editor's screen for `which`: "new", or a persona's id.
 * @param {string} which
 */
function openEditor(which) {
  pendingEditor = personasLoaded ? null : which;
  if (!personasLoaded) return;
  const p = which === "new" ? null : personas.find((x) => x.id === which);
  resetPersonaForm();
  byId("persona-title").textContent = p ? `Edit ${p.name}` : which === "new" ? "New persona" : "No such persona";
  if (!p) return;
  const f = personaForm.elements;
  f.id.value = p.id;
  f.name.value = p.name;
  f.description.value = p.description;
  f.style_guide.value = p.style_guide;
  f.genres.value = p.taste.genres.join(", ");
  f.artists.value = p.taste.artists.join(", ");
  f.year_from.value = p.taste.year_from ?? "";
  f.year_to.value = p.taste.year_to ?? "";
  f.adventure.value = p.taste.adventure;
  byId("persona-save").textContent = "Save persona";
}

function resetPersonaForm() {
  personaForm.reset();
  personaError.textContent = "";
  byId("guide-progress").textContent = "";
  byId("guide-sources").replaceChildren();
  personaForm.elements.id.value = "";
  byId("persona-save").textContent = "Create persona";
}

/** @param {Persona} p */
async function deletePersona(p) {
  if (!confirm(`Delete the persona “${p.name}” and what it remembers playing?`)) return;
  await api(`/api/v1/back2back/personas/${p.id}`, { method: "DELETE" });
  await loadPersonas();
}

/** @param {string} text a comma-separated list, as typed */
const list = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);

/** The persona as the form holds it, as the API takes it. */
function personaBody() {
  const f = personaForm.elements;
  /** @type {Taste} */
  const taste = { genres: list(f.genres.value), artists: list(f.artists.value), adventure: Number(f.adventure.value) };
  if (f.year_from.value && f.year_to.value) {
    taste.year_from = Number(f.year_from.value);
    taste.year_to = Number(f.year_to.value);
  }
  return { name: f.name.value.trim(), description: f.description.value, style_guide: f.style_guide.value, taste };
}

/** Saves the form (a new persona is created) and returns its id. */
async function savePersonaForm() {
  const f = personaForm.elements;
  const body = personaBody();
  if (f.id.value) await api(`/api/v1/back2back/personas/${f.id.value}`, { method: "PUT", body });
  else f.id.value = (await api("/api/v1/back2back/personas", { method: "POST", body })).id;
  return f.id.value;
}

personaForm.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  personaError.textContent = "";
  try {
    await savePersonaForm();
    await loadPersonas();
    // Saved: back to the list.
    screens.open("personas");
  } catch (e) {
    personaError.textContent = errorMessage(e);
  }
});

// The style guide, written by the AI (or by Juke from the taste) and streamed in as it comes.
byId("write-guide").addEventListener("click", async () => {
  const f = personaForm.elements;
  const progress = byId("guide-progress");
  const sources = byId("guide-sources");
  const button = byId("write-guide");
  personaError.textContent = "";
  try {
    // The guide is written from the persona as the form has it now: what was typed and not
    // saved yet (a new persona, a changed taste) is saved first, and stays in the form.
    progress.textContent = "Saving the persona as it is in the form…";
    await savePersonaForm();
    await loadPersonas();
    button.disabled = true;
    f.style_guide.value = "";
    sources.replaceChildren();
    progress.textContent = "Starting…";
    await apiEvents(`/api/v1/back2back/personas/${f.id.value}/style-guide`, {
      onEvent: (type, data) => {
        // data: {message} for progress and failed, {text}, {url, title} for a source, {style_guide} when done.
        if (type === "progress") progress.textContent = data.message;
        else if (type === "text") {
          f.style_guide.value += data.text;
          progress.textContent = `Writing… ${counted(f.style_guide.value.length, "character")}`;
        } else if (type === "source") sources.append(el("li", {}, el("a", { href: data.url, target: "_blank", rel: "noopener" }, data.title)));
        else if (type === "done") {
          f.style_guide.value = data.style_guide;
          progress.textContent = "Done: the guide is saved to the persona.";
        } else if (type === "failed") progress.textContent = `Not written: ${data.message}`;
      },
    });
    await loadPersonas();
  } catch (e) {
    personaError.textContent = errorMessage(e);
  } finally {
    button.disabled = false;
  }
});

async function loadSettings() {
  /** @type {Settings} */
  const loaded = await api("/api/v1/back2back/settings");
  settings = loaded;
  const f = settingsForm.elements;
  for (const job of JOBS) {
    f[`${job}_model`].value = loaded[job].model;
    f[`${job}_effort`].value = loaded[job].effort;
  }
  f.crossfade_seconds.value = loaded.crossfade_seconds;
  byId("ai-status").textContent = loaded.ai_configured
    ? "An AI endpoint is configured: the DJ picks with these models."
    : "No AI endpoint is configured: Juke's own DJ picks from your library by each persona's taste.";
}

settingsForm.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  const f = settingsForm.elements;
  /** @type {Partial<Record<Job, ModelChoice>> & {crossfade_seconds: number, persona_id?: string}} */
  const body = { crossfade_seconds: Number(f.crossfade_seconds.value) };
  for (const job of JOBS) {
    body[job] = { model: f[`${job}_model`].value.trim(), effort: f[`${job}_effort`].value };
  }
  if (settings?.persona_id) body.persona_id = settings.persona_id;
  try {
    settings = await api("/api/v1/back2back/settings", { method: "PUT", body });
    settingsNote.textContent = "Saved.";
  } catch (e) {
    settingsNote.textContent = errorMessage(e);
  }
});

byId("clear-memory").addEventListener("click", async () => {
  await api("/api/v1/back2back/memory", { method: "DELETE" });
  settingsNote.textContent = "Song memory cleared: the personas may play any song again.";
});

const newForm = byId("new-form");
newForm.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
  event.preventDefault();
  const error = byId("new-error");
  error.textContent = "";
  /** @type {{persona_id: string, title?: string, turn_seconds?: number}} */
  const body = { persona_id: personaSelect.value };
  const title = newForm.elements.title.value.trim();
  if (title) body.title = title;
  // The server checks the length as it checks the API's (15 to 600 s, 0: never, shorter made
  // 15); the field's own limits only stop a typo before the round trip, said beside the form
  // (novalidate: the browser's bubble is gone in a moment and read by no screen reader).
  const turn = newForm.elements.turn_seconds;
  if (turn.value.trim() !== "") {
    if (!turn.checkValidity()) {
      error.textContent = "A turn lasts 0 (no limit) to 600 seconds, in whole seconds.";
      turn.focus();
      return;
    }
    body.turn_seconds = Number(turn.value);
  }
  try {
    const session = await api("/api/v1/back2back/sessions", { method: "POST", body });
    location.assign(`/back2back/${session.id}`);
  } catch (e) {
    error.textContent = errorMessage(e);
  }
});

async function loadSessions() {
  /** @type {{items: {id: string, title: string, is_host: boolean, song_count: number}[]}} */
  const page = await api("/api/v1/back2back/sessions?limit=50");
  const items = page.items.map((s) =>
    el("li", { class: "list-row" },
      el("a", { class: "list-row-main", href: `/back2back/${s.id}` },
        el("span", { class: "list-row-title" }, s.title),
        el("span", { class: "list-row-subtitle" }, `${counted(s.song_count, "song")}${s.is_host ? "" : " · joined"}`)),
    ),
  );
  byId("sessions").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "No sessions yet.")]));
}

// Admins: the AI service (address and key) every account's DJ uses.
const aiForm = byId("ai-form");
/** @param {Endpoint} endpoint */
function showEndpoint(endpoint) {
  const where = endpoint.source === "settings" ? "set here" : endpoint.source === "environment" ? "from the server's configuration" : undefined;
  byId("ai-source").textContent = where
    ? `The DJ uses the AI at ${endpoint.base_url} (${where}).`
    : "No AI service: Juke's own DJ picks.";
}
if (aiForm) {
  showEndpoint(await api("/api/v1/back2back/ai-endpoint"));
  aiForm.addEventListener("submit", async (/** @type {SubmitEvent} */ event) => {
    event.preventDefault();
    const note = byId("ai-note");
    try {
      const body = { base_url: aiForm.elements.base_url.value.trim(), api_key: aiForm.elements.api_key.value.trim() };
      showEndpoint(await api("/api/v1/back2back/ai-endpoint", { method: "PUT", body }));
      aiForm.elements.api_key.value = "";
      note.textContent = "Saved. The key stays on the server.";
      await loadSettings();
    } catch (e) {
      note.textContent = errorMessage(e);
    }
  });
  byId("ai-clear").addEventListener("click", async () => {
    showEndpoint(await api("/api/v1/back2back/ai-endpoint", { method: "DELETE" }));
    await loadSettings();
  });
}

// Opening the editor's screen (a fresh address, or Back to one) fills the form anew.
const screens = new Screens(byId("main"), (route) => {
  if (route.persona) openEditor(route.persona);
});

await loadSettings();
await loadPersonas();
await loadSessions();
