// Positions saved while the network is gone wait on the device and go when it is back. The
// outbox keeps one entry per item, the newest; it survives a closed tab (localStorage); and
// entries leave it only when the server has answered for them. Times are this device's clock
// corrected by the last offset measured to the server's, so that a phone whose clock runs
// minutes behind another's does not lose to the other's older position. The server keeps the
// newest of what devices send (and takes a time from the future as its own now).

/** @typedef {{item: string, seconds: number, updated_at: number}} QueuedPosition */

/**
 * The outbox with `position` in it: a newer one replaces the item's entry; an older one (sent
 * late, out of order) or the same again changes nothing.
 * @param {QueuedPosition[]} outbox
 * @param {QueuedPosition} position
 * @returns {QueuedPosition[]}
 */
export function enqueue(outbox, position) {
  const existing = outbox.find((p) => p.item === position.item);
  if (existing && existing.updated_at >= position.updated_at) return outbox;
  return [...outbox.filter((p) => p.item !== position.item), position];
}

/**
 * The outbox once the server has kept `sent`: each sent entry leaves unless a newer one for
 * its item was queued while the request was on its way.
 * @param {QueuedPosition[]} outbox
 * @param {QueuedPosition[]} sent
 */
export function acknowledge(outbox, sent) {
  return outbox.filter((p) => !sent.some((s) => s.item === p.item && s.updated_at >= p.updated_at));
}

/**
 * The outbox from what was stored: entries that are not positions are dropped, and
 * duplicates collapse to the newest.
 * @param {unknown} stored
 * @returns {QueuedPosition[]}
 */
export function restore(stored) {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((p) => p && typeof p.item === "string" && Number.isFinite(p.seconds) && Number.isFinite(p.updated_at))
    .reduce((outbox, p) => enqueue(outbox, { item: p.item, seconds: p.seconds, updated_at: p.updated_at }), /** @type {QueuedPosition[]} */ ([]));
}

/**
 * Milliseconds since 1970 by the server's clock as this device last measured it.
 * @param {number} offset
 * @param {number} [now]
 */
export function stamp(offset, now = Date.now()) {
  return Math.round(now + (Number.isFinite(offset) ? offset : 0));
}

const KEY = "juke_dual_outbox";
const OFFSET_KEY = "juke_server_offset";
/** The most the server takes in one request. */
const BATCH = 200;

/** The device's outbox of positions, sent with `send` (a function that PUTs a batch). */
export class PositionOutbox {
  /** @param {(positions: QueuedPosition[]) => Promise<boolean>} send true when the server kept them */
  constructor(send) {
    this.send = send;
    this.sending = false;
    this.offset = Number(localStorage.getItem(OFFSET_KEY) || 0);
    addEventListener("online", () => this.flush());
  }

  /** The offset to the server's clock, kept for when there is no server to ask. */
  learnOffset(offset) {
    if (!Number.isFinite(offset)) return;
    this.offset = offset;
    localStorage.setItem(OFFSET_KEY, String(offset));
  }

  get entries() {
    try {
      return restore(JSON.parse(localStorage.getItem(KEY) || "[]"));
    } catch (_) {
      return [];
    }
  }

  set entries(outbox) {
    localStorage.setItem(KEY, JSON.stringify(outbox));
  }

  /** Queues where `item` is and sends what waits. */
  add(item, seconds) {
    this.entries = enqueue(this.entries, { item, seconds, updated_at: stamp(this.offset) });
    return this.flush();
  }

  /** Sends what waits, a batch at a time, unless a send is on its way or the device is offline. */
  async flush() {
    if (this.sending || !navigator.onLine) return;
    this.sending = true;
    try {
      for (;;) {
        const batch = this.entries.slice(0, BATCH);
        if (!batch.length || !(await this.send(batch))) break;
        this.entries = acknowledge(this.entries, batch);
      }
    } finally {
      this.sending = false;
    }
  }
}
