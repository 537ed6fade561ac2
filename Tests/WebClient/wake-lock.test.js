// The screen wake lock shared by RunBeat, TuneTrivia and Dual Player (wake-lock.js), with a
// stand-in for the browser's navigator and document.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ScreenWakeLock } from "../../Sources/JukePlatform/Web/static/js/wake-lock.js";

/** A browser whose wake lock counts requests, and whose page can be hidden and shown. */
function browser({ refuse = false } = {}) {
  /** @type {(() => void)[]} */
  const visibilityListeners = [];
  const page = {
    requests: 0,
    /** @type {{released: boolean, fire: () => void}[]} */
    sentinels: [],
    doc: {
      visibilityState: "visible",
      /** @param {string} _type @param {() => void} listener */
      addEventListener(_type, listener) {
        visibilityListeners.push(listener);
      },
    },
    nav: {
      wakeLock: {
        async request() {
          page.requests += 1;
          if (refuse) throw new Error("NotAllowedError");
          /** @type {(() => void)[]} */
          const releaseListeners = [];
          const sentinel = {
            released: false,
            fire: () => releaseListeners.forEach((listener) => listener()),
            async release() {
              sentinel.released = true;
              sentinel.fire();
            },
            /** @param {string} _type @param {() => void} listener */
            addEventListener(_type, listener) {
              releaseListeners.push(listener);
            },
          };
          page.sentinels.push(sentinel);
          return sentinel;
        },
      },
    },
    /** The browser hides the page (and lets go of its lock), or shows it again. */
    async setVisible(/** @type {boolean} */ visible) {
      page.doc.visibilityState = visible ? "visible" : "hidden";
      if (!visible) for (const s of page.sentinels) if (!s.released) { s.released = true; s.fire(); }
      visibilityListeners.forEach((listener) => listener());
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return page;
}

test("keep holds one lock however often it is asked", async () => {
  const page = browser();
  const lock = new ScreenWakeLock(page.nav, page.doc);
  await Promise.all([lock.keep(), lock.keep()]);
  await lock.keep();
  assert.equal(page.requests, 1);
  assert.equal(lock.held, true);
});

test("the lock is asked for again when the page comes back, while it is wanted", async () => {
  const page = browser();
  const lock = new ScreenWakeLock(page.nav, page.doc);
  await lock.keep();
  await page.setVisible(false);
  assert.equal(lock.held, false);
  await page.setVisible(true);
  assert.equal(page.requests, 2);
  assert.equal(lock.held, true);
});

test("release lets go, and a page shown again after it asks for nothing", async () => {
  const page = browser();
  const lock = new ScreenWakeLock(page.nav, page.doc);
  await lock.keep();
  await lock.release();
  assert.equal(page.sentinels[0].released, true);
  assert.equal(lock.held, false);
  await page.setVisible(false);
  await page.setVisible(true);
  assert.equal(page.requests, 1);
});

test("released while the request is on its way: the lock it brings is let go at once", async () => {
  const page = browser();
  const lock = new ScreenWakeLock(page.nav, page.doc);
  const keeping = lock.keep();
  await lock.release();
  await keeping;
  assert.equal(page.sentinels[0].released, true);
  assert.equal(lock.held, false);
});

test("a hidden page asks for nothing until it is shown", async () => {
  const page = browser();
  page.doc.visibilityState = "hidden";
  const lock = new ScreenWakeLock(page.nav, page.doc);
  await lock.keep();
  assert.equal(page.requests, 0);
  await page.setVisible(true);
  assert.equal(page.requests, 1);
});

test("a refused lock, or a browser without the API, leaves everything running", async () => {
  const refused = browser({ refuse: true });
  const lock = new ScreenWakeLock(refused.nav, refused.doc);
  await lock.keep();
  assert.equal(lock.held, false);
  const bare = browser();
  const without = new ScreenWakeLock({}, bare.doc);
  await without.keep();
  await without.release();
  assert.equal(without.held, false);
});
