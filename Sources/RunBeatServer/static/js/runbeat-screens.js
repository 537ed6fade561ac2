// The trainer's screens: Profile, Workout, Run and Summary, one shown at a time. The one
// shown follows the address's #fragment, so Back returns to the screen before and a link
// (the tab bar's, "Change" beside the chosen workout) opens one. `screenFor` is the pure
// part (node --test).

/** The trainer's screens, in the tab bar's order. */
export const SCREENS = ["welcome", "profile", "workout", "run", "summary", "history", "coach"];

/**
 * The screen an address's fragment names, or null for anything else.
 * @param {string} hash location.hash, such as "#workout"
 * @returns {string | null}
 */
export function screenFor(hash) {
  const id = hash.replace(/^#/, "");
  return SCREENS.includes(id) ? id : null;
}

export class Screens {
  /**
   * @param {HTMLElement} main the element holding the screens (`.rb-screen[data-screen]`)
   * @param {string} fallback the screen shown when the address names none
   * @param {(screen: string) => void} [onShow] called after a screen is shown
   */
  constructor(main, fallback, onShow = () => {}) {
    this.main = main;
    this.onShow = onShow;
    this.current = "";
    addEventListener("hashchange", () => this.show(screenFor(location.hash) ?? fallback, { focus: true }));
    this.show(screenFor(location.hash) ?? fallback);
  }

  /**
   * Opens `screen` by changing the address, so that Back comes back.
   * @param {string} screen
   */
  open(screen) {
    if (screenFor(location.hash) === screen) this.show(screen);
    else location.hash = screen;
  }

  /** @param {string} screen @param {{ focus?: boolean }} options */
  show(screen, { focus = false } = {}) {
    this.current = screen;
    this.main.dataset.screen = screen;
    for (const section of this.main.querySelectorAll(".rb-screen")) {
      const element = /** @type {HTMLElement} */ (section);
      element.hidden = element.dataset.screen !== screen;
    }
    for (const link of document.querySelectorAll(".tabbar a")) {
      const anchor = /** @type {HTMLAnchorElement} */ (link);
      const here = anchor.pathname === location.pathname && screenFor(anchor.hash) === screen;
      if (here) anchor.setAttribute("aria-current", "page");
      else anchor.removeAttribute("aria-current");
    }
    if (focus) {
      // The screen's heading takes the focus, as a new page's would, and it starts at its top.
      const heading = /** @type {HTMLElement | null} */ (this.main.querySelector(`.rb-screen[data-screen="${screen}"] h2`));
      if (heading) {
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      scrollTo({ top: 0 });
    }
    this.onShow(screen);
  }
}
