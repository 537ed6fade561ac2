// Dual Player's screens: Now Playing and the tab bar's screens (Library, Books, Podcasts,
// Articles, Radio). The one shown follows the address's #fragment, so Back returns to the
// screen before and a link can open one. On a phone one screen shows at a time (Now Playing
// opened from the mini player); on a wide screen Now Playing stays beside the chosen one.
// `visibleScreens` and `screenFor` are the pure part (node --test).

/** The tab bar's screens, in order. */
export const PANES = ["library", "books", "podcasts", "articles", "radio"];

/**
 * The screen an address's fragment names, or null for anything else. A screen's own places
 * follow a slash ("#library/album/<id>": the Library, showing that album).
 * @param {string} hash location.hash, such as "#books"
 * @returns {string | null}
 */
export function screenFor(hash) {
  const id = hash.replace(/^#/, "").split(/[/?]/)[0];
  return id === "now" || PANES.includes(id) ? id : null;
}

/**
 * The screens shown for `current`: itself on a phone; on a wide screen Now Playing and a
 * pane (the last pane chosen when Now Playing itself is asked for).
 * @param {string} current @param {boolean} wide @param {string} lastPane
 * @returns {string[]}
 */
export function visibleScreens(current, wide, lastPane) {
  if (!wide) return [current];
  return ["now", current === "now" ? lastPane : current];
}

export class Screens {
  /**
   * @param {HTMLElement} main the element holding the screens (`.dual-screen[data-screen]`)
   * @param {(screen: string) => void} onShow called after a screen is shown
   */
  constructor(main, onShow) {
    this.main = main;
    this.onShow = onShow;
    this.wideQuery = matchMedia("(min-width: 960px)");
    this.lastPane = "library";
    this.current = screenFor(location.hash) ?? "now";
    addEventListener("hashchange", () => this.show(screenFor(location.hash) ?? "now", { focus: true }));
    this.wideQuery.addEventListener("change", () => this.show(this.current));
    this.show(this.current);
  }

  /**
   * Opens `screen` by changing the address (so that Back comes back here).
   * @param {string} screen
   */
  open(screen) {
    if (screen === this.current) return;
    location.hash = screen;
  }

  /** @param {string} screen @param {{ focus?: boolean }} options */
  show(screen, { focus = false } = {}) {
    this.current = screen;
    if (screen !== "now") this.lastPane = screen;
    const shown = visibleScreens(screen, this.wideQuery.matches, this.lastPane);
    this.main.dataset.screen = screen;
    for (const section of this.main.querySelectorAll(".dual-screen")) {
      /** @type {HTMLElement} */ (section).hidden = !shown.includes(/** @type {HTMLElement} */ (section).dataset.screen ?? "");
    }
    const pane = shown.find((s) => s !== "now") ?? null;
    for (const link of this.main.querySelectorAll(".tabbar a")) {
      const target = screenFor(/** @type {HTMLAnchorElement} */ (link).hash);
      if (target === pane) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (focus) {
      // The screen's heading takes the focus, as a new page's would, and it starts at its top.
      const heading = /** @type {HTMLElement | null} */ (this.main.querySelector(`.dual-screen[data-screen="${screen}"] h2`));
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      if (!this.wideQuery.matches) scrollTo({ top: 0 });
    }
    this.onShow(screen);
  }
}
