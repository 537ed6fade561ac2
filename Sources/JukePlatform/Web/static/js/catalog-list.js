// A long list of the catalog as a music app shows one: pages fetched by the route's cursor as
// the person scrolls near the end (never an offset, never the whole library), only the pages
// near the screen kept drawn (the others stand as empty blocks of their height, drawn again
// when scrolled back to), an A-Z index beside it that jumps to a letter in one tap or a slide
// of the finger, and the order and filters to choose from. The platform's library and Dual
// Player's draw their rows their own way through this one module.
import { api, el, errorMessage } from "./api.js";
import { ALBUM_SORTS, LETTERS, decadesOf, effectiveSort, letterAt, pageAddress } from "./catalog-order.js";

/** @typedef {import("./catalog-order.js").ListState} ListState */

/** Rows fetched at a time. */
export const PAGE_SIZE = 50;

/** How far from the screen a page is still kept drawn, and the next one fetched: two screens. */
const NEAR = "200% 0px 200% 0px";

/**
 * @typedef {object} ListSource
 * @property {string} path the catalog route
 * @property {URLSearchParams} query its first page's query
 * @property {(item: any, index: number) => HTMLElement} draw a row (an <li>) of one entry
 * @property {(item: any) => any} [map] the answer's item as the list keeps it
 * @property {string} [empty] what an empty list says
 * @property {boolean} [byOffset] page by offset (a search's pages, which have no cursor)
 * @property {(page: any) => void} [onPage] told of each page as it arrives
 */

/**
 * One list, as blocks of a page each (`<ul class=listClass>`) in `root`, and a line under them
 * that says how many are shown and, on a failure, offers to try again.
 */
export class PagedList {
  /**
   * @param {HTMLElement} root where the pages go (emptied)
   * @param {{ listClass: string, label: string, pageSize?: number, what?: [string, string], scroller?: HTMLElement | null }} options
   *   `label`: the lists' accessible name; `what`: a row's noun, singular and plural ("album", "albums");
   *   `scroller`: the box the list scrolls in, when not the page
   */
  constructor(root, { listClass, label, pageSize = PAGE_SIZE, what = ["item", "items"], scroller = null }) {
    this.root = root;
    this.listClass = listClass;
    this.label = label;
    this.pageSize = pageSize;
    this.what = what;
    /**
     * Every entry loaded so far, in order (a list of songs is its own queue).
     * @type {any[]}
     */
    this.items = [];
    this.total = 0;
    /** @type {string | null} where the next page goes on from; null once the last is in */
    this.after = null;
    this.done = true;
    this.loading = false;
    /** Which start the answers belong to: an older list's answer arriving late is dropped. */
    this.generation = 0;
    /** @type {ListSource | null} */
    this.source = null;
    /** @type {Map<Element, { first: number, count: number }>} each block's entries */
    this.blocks = new Map();
    this.pages = el("div", { class: "catalog-pages" });
    this.sentinel = el("div", { class: "catalog-sentinel", "aria-hidden": "true" });
    this.status = el("p", { class: "catalog-status muted", role: "status" });
    root.replaceChildren(this.pages, this.sentinel, this.status);
    // The next page, fetched while the end is still two screens away.
    this.nearEnd = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.more();
    }, { root: scroller, rootMargin: NEAR });
    this.nearEnd.observe(this.sentinel);
    // Pages far from the screen are emptied and drawn again on the way back.
    this.nearScreen = new IntersectionObserver((entries) => {
      for (const entry of entries) (entry.isIntersecting ? this.fill(entry.target) : this.hollow(entry.target));
    }, { root: scroller, rootMargin: NEAR });
  }

  /**
   * Starts the list anew from its first page.
   * @param {ListSource} source
   */
  start(source) {
    this.generation += 1;
    this.source = source;
    this.items = [];
    this.total = 0;
    this.after = null;
    this.done = false;
    this.loading = false;
    for (const block of this.blocks.keys()) this.nearScreen.unobserve(block);
    this.blocks.clear();
    this.pages.replaceChildren();
    this.status.textContent = "Loading…";
    this.root.setAttribute("aria-busy", "true");
    return this.more();
  }

  /** Fetches and draws the next page, unless one is on its way or the last is in. */
  async more() {
    const source = this.source;
    if (!source || this.loading || this.done) return;
    const generation = this.generation;
    this.loading = true;
    try {
      const address = source.byOffset
        ? pageAddress(source.path, source.query, { limit: this.pageSize, offset: this.items.length })
        : pageAddress(source.path, source.query, { limit: this.pageSize, after: this.after });
      const page = await api(address);
      if (generation !== this.generation) return;
      const entries = page.items.map(source.map ?? ((/** @type {any} */ x) => x));
      const first = this.items.length;
      // The same array grows: a song played from the list keeps the later pages as its queue.
      this.items.push(...entries);
      this.total = page.total;
      this.after = page.next ?? null;
      this.done = source.byOffset ? !entries.length || this.items.length >= page.total : !page.next;
      if (entries.length) {
        const block = el("ul", { class: `catalog-page ${this.listClass}`, "aria-label": this.label });
        this.blocks.set(block, { first, count: entries.length });
        this.draw(block);
        this.pages.append(block);
        this.nearScreen.observe(block);
      }
      source.onPage?.(page);
      this.loading = false;
      this.say();
      // Still near the end (a short page, a tall screen): the observer would not fire again.
      if (!this.done) {
        this.nearEnd.unobserve(this.sentinel);
        this.nearEnd.observe(this.sentinel);
      }
    } catch (error) {
      if (generation !== this.generation) return;
      this.loading = false;
      this.status.replaceChildren(
        el("span", {}, errorMessage(error) || "Couldn't load the list."), " ",
        el("button", { type: "button", class: "btn btn-ghost btn-s catalog-retry", onclick: () => this.more() }, "Try again"));
    } finally {
      if (generation === this.generation) this.root.setAttribute("aria-busy", String(this.loading));
    }
  }

  /** The line under the list: how many are shown of how many, or that there are none. */
  say() {
    const [one, many] = this.what;
    if (!this.items.length) {
      this.status.textContent = this.source?.empty ?? "Nothing here yet.";
    } else if (this.done && this.items.length < this.total && !this.source?.byOffset) {
      // A random page: one page of the whole list, no more to scroll to.
      this.status.textContent = `${this.items.length.toLocaleString("en")} of ${this.total.toLocaleString("en")} ${many}, at random`;
    } else if (this.done) {
      this.status.textContent = this.items.length === 1 ? `1 ${one}` : `${this.items.length.toLocaleString("en")} ${many}`;
    } else {
      this.status.textContent = `${this.items.length.toLocaleString("en")} of ${this.total.toLocaleString("en")} ${many}…`;
    }
  }

  /** @param {Element} block */
  draw(block) {
    const range = this.blocks.get(block);
    const source = this.source;
    if (!range || !source) return;
    block.replaceChildren(...this.items.slice(range.first, range.first + range.count).map((item, i) => source.draw(item, range.first + i)));
  }

  /**
   * Empties a page far from the screen: it keeps its height, so nothing moves. Not one that
   * holds the focus (a keyboard's place in the list).
   * @param {Element} block
   */
  hollow(block) {
    if (!(block instanceof HTMLElement) || block.dataset.hollow || block.contains(document.activeElement)) return;
    block.style.height = `${block.getBoundingClientRect().height}px`;
    block.dataset.hollow = "true";
    block.replaceChildren();
  }

  /** @param {Element} block */
  fill(block) {
    if (!(block instanceof HTMLElement) || !block.dataset.hollow) return;
    delete block.dataset.hollow;
    this.draw(block);
    block.style.height = "";
  }

  /** Stops watching the screen (the list is taken off the page). */
  close() {
    this.generation += 1;
    this.nearEnd.disconnect();
    this.nearScreen.disconnect();
  }

  /** How many rows are drawn now (the rest are empty blocks). */
  drawnRows() {
    return this.pages.querySelectorAll(".catalog-page > li").length;
  }
}

/**
 * The A-Z index: a rail of letters beside the list, as a phone's lists have. A tap on a letter
 * jumps to it; a finger sliding along the rail shows the letter under it, large, and jumps
 * where it is lifted. The rail is one control (a slider, as the index of iOS lists is to
 * VoiceOver: "adjustable") at least 44 px wide, so the letters may be as short as the screen
 * needs: the arrow keys, Home and End move it letter by letter, jumping as they go.
 * @param {{ label: string, pick: (letter: string) => void }} options
 */
export function letterRail({ label, pick }) {
  const bubble = el("div", { class: "letter-rail-bubble", "aria-hidden": "true", hidden: true });
  const list = el("ol", { class: "letter-rail-letters", "aria-hidden": "true" },
    LETTERS.map((letter) => el("li", { class: "letter-rail-letter", dataset: { letter } }, letter)));
  const rail = el("div", {
    class: "letter-rail", role: "slider", tabindex: "0", "aria-label": label, "aria-orientation": "vertical",
    "aria-valuemin": "0", "aria-valuemax": String(LETTERS.length - 1), "aria-valuenow": "0", "aria-valuetext": "Top",
  }, list, bubble);
  /** @param {string} letter */
  const mark = (letter) => {
    const index = Math.max(LETTERS.indexOf(/** @type {any} */ (letter)), 0);
    rail.setAttribute("aria-valuenow", String(index));
    rail.setAttribute("aria-valuetext", index === 0 ? "Top" : LETTERS[index]);
    for (const item of list.children) item.classList.toggle("current", item instanceof HTMLElement && item.dataset.letter === LETTERS[index]);
  };
  /** A slide in progress: its pointer and the letter under it now. */
  let slide = /** @type {{ id: number, letter: string } | null} */ (null);
  const under = (/** @type {PointerEvent} */ e) => {
    const box = list.getBoundingClientRect();
    return letterAt(e.clientY, box.top, box.height);
  };
  const show = (/** @type {string} */ letter) => {
    bubble.textContent = letter;
    bubble.hidden = false;
    mark(letter);
  };
  rail.addEventListener("pointerdown", (/** @type {PointerEvent} */ e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    slide = { id: e.pointerId, letter: under(e) };
    rail.setPointerCapture?.(e.pointerId);
    show(slide.letter);
  });
  rail.addEventListener("pointermove", (/** @type {PointerEvent} */ e) => {
    if (!slide || e.pointerId !== slide.id) return;
    slide.letter = under(e);
    show(slide.letter);
  });
  const end = (/** @type {PointerEvent} */ e, lifted = true) => {
    if (!slide || e.pointerId !== slide.id) return;
    const { letter } = slide;
    slide = null;
    bubble.hidden = true;
    if (lifted) pick(letter);
  };
  rail.addEventListener("pointerup", (/** @type {PointerEvent} */ e) => end(e));
  rail.addEventListener("pointercancel", (/** @type {PointerEvent} */ e) => end(e, false));
  // Keys move a letter at a time; the jump waits for a pause, so holding a key is one request.
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let keyed;
  rail.addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
    const now = Number(rail.getAttribute("aria-valuenow"));
    /** @type {Record<string, number>} */
    const moves = { ArrowDown: now + 1, ArrowRight: now + 1, PageDown: now + 5, ArrowUp: now - 1, ArrowLeft: now - 1, PageUp: now - 5, Home: 0, End: LETTERS.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const letter = LETTERS[Math.min(Math.max(to, 0), LETTERS.length - 1)];
    mark(letter);
    clearTimeout(keyed);
    keyed = setTimeout(() => pick(letter), 350);
  });
  return { element: rail, mark };
}

/**
 * A labelled choice (<select>) in a list's toolbar.
 * @param {{ label: string, name: string, options: [string, string][], value: string, disabled?: boolean, change: (value: string) => void }} o
 */
export function choice({ label, name, options, value, disabled = false, change }) {
  const select = /** @type {HTMLSelectElement} */ (el("select", { name, disabled, onchange: () => change(select.value) },
    options.map(([v, text]) => el("option", { value: v, selected: v === value }, text))));
  // The label is read out, not drawn: each option says what it is ("By year", "All genres",
  // "1990s"), so the toolbar fits one or two lines of a phone.
  return el("label", { class: `catalog-choice catalog-${name}` }, el("span", { class: "visually-hidden" }, label), select);
}

/**
 * The letter the top of the list is at: the first row under the given line whose
 * `data-letter` says so (rows carry the letter of the name they are ordered by).
 * @param {HTMLElement} root
 * @param {number} line the list's visible top, in viewport pixels
 */
export function letterAtTop(root, line) {
  for (const row of root.querySelectorAll(".catalog-page > li[data-letter]")) {
    if (row.getBoundingClientRect().bottom > line && row instanceof HTMLElement) return row.dataset.letter ?? "";
  }
  return "";
}

/**
 * The library's genres and decades, fetched once per page (a failure is asked again next time).
 * @type {Promise<{ genres: string[], decades: number[] }> | null}
 */
let facets = null;

/**
 * The albums' toolbar: the order, and a genre or a decade when the library has them. A choice
 * hands `change` the list's new state, from the top. A genre's albums come by title and a
 * decade's by year (the route takes no other): picking another order leaves the filter, and
 * picking a filter shows its order.
 * @param {ListState} state
 * @param {(state: ListState) => void} change
 */
export function albumToolbar(state, change) {
  const to = (/** @type {Partial<ListState>} */ patch) => change({ ...state, ...patch, letter: "" });
  const toolbar = el("div", { class: "catalog-toolbar", role: "group", "aria-label": "Order and filter the albums" },
    choice({
      label: "Sort by", name: "sort", value: effectiveSort(state), options: ALBUM_SORTS.map((s) => [s.value, s.label]),
      change: (value) => to({ sort: value, genre: value === "name" ? state.genre : "", decade: value === "year" ? state.decade : null }),
    }));
  facets ??= Promise.all([api("/api/v1/catalog/genres"), api("/api/v1/catalog/years")])
    .then(([genres, years]) => ({ genres: genres.map((/** @type {{ value: string }} */ g) => String(g.value)), decades: decadesOf(years) }))
    .catch(() => {
      facets = null;
      return { genres: [], decades: [] };
    });
  facets.then(({ genres, decades }) => {
    if (genres.length) {
      toolbar.append(choice({
        label: "Genre", name: "genre", value: state.genre,
        options: [["", "All genres"], ...genres.map((/** @type {string} */ g) => /** @type {[string, string]} */ ([g, g]))],
        change: (value) => to({ genre: value, decade: null, sort: value ? "name" : state.sort }),
      }));
    }
    if (decades.length) {
      toolbar.append(choice({
        label: "Years", name: "decade", value: state.decade === null ? "" : String(state.decade),
        options: [["", "All years"], ...decades.map((/** @type {number} */ d) => /** @type {[string, string]} */ ([String(d), `${d}s`]))],
        change: (value) => to({ decade: value ? Number(value) : null, genre: "", sort: value ? "year" : state.sort }),
      }));
    }
  });
  return toolbar;
}
