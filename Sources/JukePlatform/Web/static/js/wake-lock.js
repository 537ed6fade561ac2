// Keeps the screen on while something is under way (a run, a game, a book read aloud), where the
// browser allows it. The browser lets go of a screen wake lock whenever the page is hidden, so
// the lock is asked for again each time the page comes back while it is still wanted. Not
// allowed (battery saver, an insecure origin, no Wake Lock API): the screen may sleep, and
// whatever runs goes on.

/**
 * The parts of the Screen Wake Lock API used here (TypeScript 4.8's DOM types have none).
 * @typedef {{release(): Promise<void>, addEventListener(type: "release", listener: () => void): void}} WakeLockSentinel
 * @typedef {{request(type: "screen"): Promise<WakeLockSentinel>}} WakeLockRequester
 * @typedef {{wakeLock?: WakeLockRequester}} WakeLockNavigator
 * @typedef {{visibilityState: string, addEventListener(type: "visibilitychange", listener: () => void): void}} WakeLockDocument
 */

export class ScreenWakeLock {
  /**
   * @param {WakeLockNavigator} [nav] the browser's navigator (a stand-in in tests)
   * @param {WakeLockDocument} [doc] the page's document (a stand-in in tests)
   */
  constructor(nav = /** @type {WakeLockNavigator} */ (navigator), doc = document) {
    this.nav = nav;
    this.doc = doc;
    /** Whether the screen should stay on: between `keep` and `release`. */
    this.wanted = false;
    /** @type {WakeLockSentinel | null} the lock held now */
    this.sentinel = null;
    /** @type {Promise<void> | null} a request on its way (never two at once) */
    this.asking = null;
    doc.addEventListener("visibilitychange", () => {
      if (this.wanted && doc.visibilityState === "visible") this.acquire();
    });
  }

  /** Whether a lock is held now. */
  get held() {
    return this.sentinel !== null;
  }

  /** Keeps the screen on from now until `release`, and asks again each time the page is shown. */
  keep() {
    this.wanted = true;
    return this.acquire();
  }

  /** Lets the screen sleep again. */
  async release() {
    this.wanted = false;
    await this.asking;
    if (this.wanted) return; // kept again meanwhile
    const sentinel = this.sentinel;
    this.sentinel = null;
    try {
      await sentinel?.release();
    } catch {
      // Already let go of by the browser.
    }
  }

  /** Asks for a lock unless one is held, one is on its way, or the page is hidden (a hidden page is refused). */
  acquire() {
    if (this.sentinel || this.asking || !this.nav.wakeLock || this.doc.visibilityState !== "visible") return this.asking ?? Promise.resolve();
    const requester = this.nav.wakeLock;
    this.asking = (async () => {
      try {
        const sentinel = await requester.request("screen");
        // The browser lets go of it when the page is hidden: it is asked for again on return.
        sentinel.addEventListener("release", () => {
          if (this.sentinel === sentinel) this.sentinel = null;
        });
        this.sentinel = sentinel;
      } catch {
        // Not allowed here: the screen may sleep, and what runs goes on.
      } finally {
        this.asking = null;
      }
    })();
    return this.asking;
  }
}
