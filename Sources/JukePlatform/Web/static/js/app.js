import { bindLogout, byId } from "./api.js";
import { LibraryBrowser } from "./library.js";
import { Player } from "./player.js";

bindLogout();

const playerRoot = byId("player");
if (playerRoot) {
  const player = new Player(playerRoot);
  const browser = new LibraryBrowser({
    root: byId("browser"),
    crumbs: byId("crumbs"),
    tabs: [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[role=tab]"))],
    search: byId("search"),
    player,
  });
  browser.fromAddress();
  // Marks the playing row wherever it is listed.
  document.addEventListener("juke:track", (event) => {
    if (!(event instanceof CustomEvent)) return;
    for (const row of document.querySelectorAll(".track[aria-current]")) row.removeAttribute("aria-current");
    for (const row of document.querySelectorAll(`.track[data-id="${event.detail.id}"]`)) row.setAttribute("aria-current", "true");
  });
  for (const card of document.querySelectorAll(".app-card:not(:has(.app-link))")) card.setAttribute("aria-disabled", "true");
}
