// TuneTrivia's home: join by code, create a game with every setting, your games, and the
// global leaderboard.
import { APIError, api, bindLogout, byId, counted, el, errorMessage, requiredElement } from "/static/js/api.js";
import { readSettings } from "./settings-form.js";

bindLogout();

const joinForm = /** @type {HTMLFormElement} */ (byId("join-form"));
const joinCode = /** @type {HTMLInputElement} */ (joinForm.elements.namedItem("code"));
const joinName = /** @type {HTMLInputElement} */ (joinForm.elements.namedItem("name"));
const joinError = byId("join-error");
joinForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  joinError.textContent = "";
  const button = requiredElement("button", HTMLButtonElement, joinForm);
  button.disabled = true;
  try {
    /** @type {{invite_code: string, display_name?: string}} */
    const body = { invite_code: joinCode.value.trim() };
    if (joinName.value.trim()) body.display_name = joinName.value.trim();
    const game = await api("/api/v1/tunetrivia/sessions/join", { method: "POST", body });
    location.assign(`/tunetrivia/${game.id}`);
  } catch (e) {
    joinError.textContent = e instanceof APIError && e.status === 404 ? "No game has that code. Check it and try again." : errorMessage(e);
  } finally {
    button.disabled = false;
  }
});

const newForm = /** @type {HTMLFormElement} */ (byId("new-form"));
const newError = byId("new-error");
newForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  newError.textContent = "";
  const body = readSettings(newForm);
  if (!body.decade) delete body.decade;
  if (!body.genre) delete body.genre;
  const button = requiredElement("button[type=submit]", HTMLButtonElement, newForm);
  button.disabled = true;
  try {
    const game = await api("/api/v1/tunetrivia/sessions", { method: "POST", body });
    if (body.auto_select) {
      const picked = await api(`/api/v1/tunetrivia/sessions/${game.id}/rounds/auto-generate`, { method: "POST" });
      // The lobby says what the library lacked (tunetrivia-game.js shows it once).
      if (picked.missing.length) sessionStorage.setItem(`tunetrivia-pick-${game.id}`, JSON.stringify(picked));
    }
    location.assign(`/tunetrivia/${game.id}`);
  } catch (e) {
    newError.textContent = errorMessage(e);
  } finally {
    button.disabled = false;
  }
});

async function loadGames() {
  const list = byId("games");
  try {
    /** @type {{items: {id: string, title: string, is_host: boolean, status: string, player_count: number}[]}} */
    const page = await api("/api/v1/tunetrivia/sessions?limit=50");
    if (!page.items.length) {
      list.replaceChildren(el("li", { class: "muted" }, "No games yet: create one or join with a code."));
      return;
    }
    list.replaceChildren(...page.items.map((g) =>
      el("li", {},
        el("a", { href: `/tunetrivia/${g.id}` }, g.title),
        el("span", { class: "muted" }, ` · ${g.is_host ? "hosting" : "playing"} · ${g.status} · ${g.player_count} player${g.player_count === 1 ? "" : "s"}`))));
  } catch (e) {
    list.replaceChildren(el("li", { class: "form-error" }, errorMessage(e)));
  }
}

let boardOffset = 0;
async function loadBoard() {
  const list = byId("leaderboard");
  const more = byId("board-more");
  /** @type {{items: {rank: number, display_name: string, total_points: number, games_played: number}[], total: number}} */
  const page = await api(`/api/v1/tunetrivia/leaderboard?limit=20&offset=${boardOffset}`);
  if (boardOffset === 0 && !page.items.length) list.replaceChildren(el("li", { class: "muted" }, "Nobody has finished a game yet."));
  list.append(...page.items.map((e) =>
    el("li", { value: String(e.rank) }, el("strong", {}, e.display_name), ` ${counted(e.total_points, "point")} · ${counted(e.games_played, "game")}`)));
  boardOffset += page.items.length;
  more.hidden = boardOffset >= page.total;
  await loadMyStats();
}

// My stats: what the leaderboard keeps for this person, beyond the rank.
async function loadMyStats() {
  const box = byId("my-rank");
  try {
    const me = await api("/api/v1/tunetrivia/leaderboard/me");
    box.replaceChildren(
      el("p", {}, `You are #${me.rank} with ${counted(me.total_points, "point")}.`),
      el("dl", { class: "stats", id: "my-stats" },
        ...[["Games played", me.games_played], ["Best game", counted(me.highest_game_score, "point")],
          ["Artists named", me.total_artist_correct], ["Songs named", me.total_song_correct], ["Trivia right", me.total_trivia_correct]]
          .flatMap(([term, value]) => [el("dt", {}, term), el("dd", {}, String(value))])));
  } catch (_) {
    box.textContent = "Finish a party game to get on the board.";
  }
}
byId("board-more").addEventListener("click", loadBoard);

// Back from signing in or up by an invite link (TuneTriviaPageRoutes): join at once, as the
// link asked; the address loses the mark, so a reload shows the form instead of joining again.
const params = new URLSearchParams(location.search);
if (params.get("join") === "now" && joinCode.value) {
  history.replaceState(null, "", `/tunetrivia?code=${encodeURIComponent(joinCode.value)}`);
  joinForm.requestSubmit();
} else if (joinCode.value) {
  joinName.focus();
}
loadGames();
loadBoard();
