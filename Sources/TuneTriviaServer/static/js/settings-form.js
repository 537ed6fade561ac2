// A game's settings as a form: read by the new-game form on TuneTrivia's home and by the
// lobby's Edit settings, which is drawn here with the same field names.
import { el } from "/static/js/api.js";

/**
 * The settings the form holds, as the API takes them.
 * @param {HTMLFormElement} form
 */
export function readSettings(form) {
  const f = /** @type {any} */ (form.elements);
  const number = (name) => Number(f[name].value);
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
  if (f.auto_select) body.auto_select = f.auto_select.checked;
  return body;
}

const DECADES = [["", "Any decade"], ["60s", "The 60s"], ["70s", "The 70s"], ["80s", "The 80s"], ["90s", "The 90s"],
  ["00s", "The 00s"], ["10s", "The 10s"], ["20s", "The 20s"], ["mix", "Mixed"]];

/**
 * The lobby's settings form, filled with `s`; `modeLocked` once players have joined.
 * @param {any} s the game's settings
 * @param {{modeLocked: boolean}} options
 */
export function settingsForm(s, { modeLocked }) {
  const number = (label, name, min, max, value) =>
    el("label", {}, `${label} `, el("input", { name, type: "number", min: String(min), max: String(max), value: String(value), required: true }));
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
    el("label", { class: "check" }, el("input", { type: "checkbox", name: "trivia_enabled", checked: s.trivia_enabled }), " Trivia after each reveal"),
    el("label", {}, "Decade ", decade),
    el("label", {}, "Genres ", el("input", { name: "genre", maxlength: "100", placeholder: "rock, pop", value: s.genre || "" })),
    el("label", { class: "wide" }, "Artists ", el("input", { name: "artists", maxlength: "500", placeholder: "Comma-separated", value: (s.artists || []).join(", ") })),
    el("div", { class: "actions wide" }, el("button", { class: "primary", type: "submit", id: "save-settings" }, "Save settings")));
}
