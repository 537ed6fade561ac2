// A game's settings as a form: read by the new-game form on TuneTrivia's home and by the
// lobby's Edit settings, which is drawn here with the same field names.
import { el } from "/static/js/api.js";

/**
 * A game's settings, as the API gives them and takes them (TuneTriviaSettings; the new-game
 * form adds whether to pick the songs at once).
 * @typedef {{title: string, mode?: string, num_songs: number, seconds_per_song: number, points_artist: number, points_song: number, points_trivia: number, speed_bonus: number, match_threshold: number, trivia_enabled: boolean, artists: string[], decade?: string | null, genre?: string | null, auto_select?: boolean}} Settings
 */

/**
 * The settings the form holds, as the API takes them.
 * @param {HTMLFormElement} form
 * @returns {Settings}
 */
export function readSettings(form) {
  /**
   * A field the settings form always has, by its name.
   * @param {string} name
   */
  const field = (name) => {
    const found = form.elements.namedItem(name);
    if (!(found instanceof HTMLInputElement || found instanceof HTMLSelectElement)) throw new Error(`The settings form has no field ${name}`);
    return found;
  };
  const f = {
    title: field("title"),
    trivia_enabled: /** @type {HTMLInputElement} */ (field("trivia_enabled")),
    artists: field("artists"),
    decade: field("decade"),
    genre: field("genre"),
  };
  /** @param {string} name */
  const number = (name) => Number(field(name).value);
  /** @type {Settings} */
  const body = {
    title: f.title.value.trim(),
    num_songs: number("num_songs"),
    seconds_per_song: number("seconds_per_song"),
    points_artist: number("points_artist"),
    points_song: number("points_song"),
    points_trivia: number("points_trivia"),
    speed_bonus: number("speed_bonus"),
    match_threshold: number("match_threshold"),
    trivia_enabled: f.trivia_enabled.checked,
    artists: f.artists.value.split(",").map((a) => a.trim()).filter(Boolean),
    decade: f.decade.value || null,
    genre: f.genre.value.trim() || null,
  };
  const mode = form.querySelector("input[name=mode]:checked");
  if (mode) body.mode = /** @type {HTMLInputElement} */ (mode).value;
  const autoSelect = form.elements.namedItem("auto_select");
  if (autoSelect instanceof HTMLInputElement) body.auto_select = autoSelect.checked;
  return body;
}

/** @type {[string, string][]} */
const DECADES = [["", "Any decade"], ["60s", "The 60s"], ["70s", "The 70s"], ["80s", "The 80s"], ["90s", "The 90s"],
  ["00s", "The 00s"], ["10s", "The 10s"], ["20s", "The 20s"], ["mix", "Mixed"]];

/**
 * The lobby's settings form, filled with `s`; `modeLocked` once players have joined; `writer`
 * says who writes the trivia ("written by Juke from your library", or the model's name).
 * @param {Settings} s the game's settings
 * @param {{modeLocked: boolean, writer?: string}} options
 */
export function settingsForm(s, { modeLocked, writer }) {
  /** @param {string} label @param {string} name @param {number} min @param {number} max @param {number} value */
  const number = (label, name, min, max, value) =>
    el("label", {}, `${label} `, el("input", { name, type: "number", min: String(min), max: String(max), value: String(value), required: true }));
  /** @param {string} value @param {string} label */
  const mode = (value, label) => el("label", {},
    el("input", { type: "radio", name: "mode", value, checked: s.mode === value, disabled: modeLocked }), ` ${label}`);
  const decade = el("select", { name: "decade" }, ...DECADES.map(([value, label]) => el("option", { value, selected: (s.decade || "") === value }, label)));
  return el("form", { class: "grid-form", id: "settings-form", autocomplete: "off" },
    el("label", { class: "wide" }, "Title ", el("input", { name: "title", required: true, maxlength: "200", value: s.title })),
    el("fieldset", { class: "wide" }, el("legend", {}, modeLocked ? "Mode (fixed once players have joined)" : "Mode"),
      mode("party", "Party: players join from their phones and type"), mode("host", "Host: you score each player by tapping")),
    number("Songs", "num_songs", 5, 50, s.num_songs),
    number("Seconds per song", "seconds_per_song", 10, 30, s.seconds_per_song),
    number("Points for the artist", "points_artist", 0, 100, s.points_artist),
    number("Points for the song", "points_song", 0, 100, s.points_song),
    number("Points for trivia", "points_trivia", 0, 100, s.points_trivia),
    number("Speed bonus", "speed_bonus", 0, 100, s.speed_bonus),
    number("Match threshold (%)", "match_threshold", 50, 100, s.match_threshold),
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "trivia_enabled", checked: s.trivia_enabled }), ` Trivia after each reveal${writer ? `, ${writer}` : ""}`),
    el("label", {}, "Decade ", decade),
    el("label", {}, "Genres ", el("input", { name: "genre", maxlength: "100", placeholder: "rock, pop", value: s.genre || "" })),
    el("label", { class: "wide" }, "Artists ", el("input", { name: "artists", maxlength: "500", placeholder: "Comma-separated", value: (s.artists || []).join(", ") })),
    el("div", { class: "actions wide" }, el("button", { class: "primary", type: "submit", id: "save-settings" }, "Save settings")));
}
