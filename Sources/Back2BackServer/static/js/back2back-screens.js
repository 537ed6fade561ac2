// Back2Back's home screens: Sessions, Personas (and a persona's editor, a screen of its own)
// and Settings, one shown at a time. The one shown follows the address's #fragment, so Back
// returns to the screen before and a link opens one. `routeFor` is the pure part (node --test).

/** The tab bar's screens, in order. */
export const TABS = ["sessions", "personas", "settings"];

/**
 * The screen an address's fragment names: a tab's, or the persona editor's ("#persona/new",
 * "#persona/<id>"), with the tab it belongs to. Anything else is Sessions.
 * @param {string} hash location.hash, such as "#personas"
 * @returns {{ screen: string, tab: string, persona: string | null }}
 */
export function routeFor(hash) {
  const id = decodeURIComponent(hash.replace(/^#/, ""));
  if (TABS.includes(id)) return { screen: id, tab: id, persona: null };
  const editing = /^persona\/(.+)$/.exec(id);
  if (editing) return { screen: "persona", tab: "personas", persona: editing[1] };
  return { screen: "sessions", tab: "sessions", persona: null };
}

export class Screens {
  /**
   * @param {HTMLElement} main the element holding the screens (`.b2b-screen[data-screen]`)
   * @param {(route: { screen: string, tab: string, persona: string | null }) => void} onShow called after a screen is shown
   */
  constructor(main, onShow) {
    this.main = main;
    this.onShow = onShow;
    addEventListener("hashchange", () => this.show(routeFor(location.hash), true));
    this.show(routeFor(location.hash), false);
  }

  /**
   * Opens a screen by changing the address, so that Back comes back.
   * @param {string} hash
   */
  open(hash) {
    location.hash = hash;
  }

  /** @param {{ screen: string, tab: string, persona: string | null }} route @param {boolean} focus */
  show(route, focus) {
    this.main.dataset.screen = route.screen;
    for (const section of this.main.querySelectorAll(".b2b-screen")) {
      const element = /** @type {HTMLElement} */ (section);
      element.hidden = element.dataset.screen !== route.screen;
    }
    for (const link of this.main.querySelectorAll(".tabbar a")) {
      const anchor = /** @type {HTMLAnchorElement} */ (link);
      if (routeFor(anchor.hash).tab === route.tab) anchor.setAttribute("aria-current", "page");
      else anchor.removeAttribute("aria-current");
    }
    this.onShow(route);
    if (focus) {
      // The screen's heading takes the focus, as a new page's would, and it starts at its top.
      const heading = /** @type {HTMLElement | null} */ (this.main.querySelector(`.b2b-screen[data-screen="${route.screen}"] h2`));
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      scrollTo({ top: 0 });
    }
  }
}
