import { bindLogout } from "./api.js";
import { LibraryBrowser } from "./library.js";
import { Player } from "./player.js";

bindLogout();

const playerRoot = document.getElementById("player");
if (playerRoot) {
  const player = new Player(playerRoot);
  const browser = new LibraryBrowser({
    root: document.getElementById("browser"),
    crumbs: document.getElementById("crumbs"),
    pager: document.getElementById("pager"),
    more: document.getElementById("more"),
    tabs: [...document.querySelectorAll("[role=tab]")],
    search: document.getElementById("search"),
    player,
  });
  browser.show("albums");
  // Marks the playing row wherever it is listed.
  document.addEventListener("juke:track", (event) => {
    for (const row of document.querySelectorAll(".track[aria-current]")) row.removeAttribute("aria-current");
    for (const row of document.querySelectorAll(`.track[data-id="${event.detail.id}"]`)) row.setAttribute("aria-current", "true");
  });
  for (const card of document.querySelectorAll(".app-card:not(:has(.app-link))")) card.setAttribute("aria-disabled", "true");
}
