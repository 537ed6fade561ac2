// Positions (and played marks, and what each player has loaded) saved while the network is
// gone wait on the device and go when it is back. An outbox keeps one entry per item, the newest; it survives a closed tab (localStorage); and
// entries leave it only when the server has answered for them. Times are this device's clock
// corrected by the last offset measured to the server's, so that a phone whose clock runs
// minutes behind another's does not lose to the other's older position. The server keeps the
// newest of what devices send (and takes a time from the future as its own now).

/** @typedef {{item: string, seconds: number, updated_at: number}} QueuedPosition */

/**
 * The outbox with `position` in it: a newer one replaces the item's entry; an older one (sent
 * late, out of order) or the same again changes nothing.
 * @template {{item: string, updated_at: number}} T
 * @param {T[]} outbox
 * @param {T} position
 * @returns {T[]}
 */
export function enqueue(outbox, position) {
  const existing = outbox.find((p) => p.item === position.item);
  if (existing && existing.updated_at >= position.updated_at) return outbox;
  return [...outbox.filter((p) => p.item !== position.item), position];
}

/**
 * The outbox once the server has kept `sent`: each sent entry leaves unless a newer one for
 * its item was queued while the request was on its way.
 * @template {{item: string, updated_at: number}} T
 * @param {T[]} outbox
 * @param {{item: string, updated_at: number}[]} sent
 * @returns {T[]}
 */
export function acknowledge(outbox, sent) {
  return outbox.filter((p) => !sent.some((s) => s.item === p.item && s.updated_at >= p.updated_at));
}

/**
 * A stored position as it is queued, or null when it is not one.
 * @param {any} p
 * @returns {QueuedPosition | null}
 */
export function asPosition(p) {
  return p && typeof p.item === "string" && Number.isFinite(p.seconds) && Number.isFinite(p.updated_at)
    ? { item: p.item, seconds: p.seconds, updated_at: p.updated_at }
    : null;
}

/**
 * A stored played mark (an episode played or not) as it is queued, or null.
 * @param {any} p
 * @returns {{item: string, played: boolean, updated_at: number} | null}
 */
export function asPlayedMark(p) {
  return p && typeof p.item === "string" && typeof p.played === "boolean" && Number.isFinite(p.updated_at)
    ? { item: p.item, played: p.played, updated_at: p.updated_at }
    : null;
}

/**
 * A stored player snapshot (what a player has loaded, where, and whether it plays), or null.
 * @param {any} p
 * @returns {{item: string, snapshot: any, updated_at: number} | null}
 */
export function asPlayerSnapshot(p) {
  return p && (p.item === "music" || p.item === "speech") && p.snapshot && typeof p.snapshot === "object" && Number.isFinite(p.updated_at)
    ? { item: p.item, snapshot: p.snapshot, updated_at: p.updated_at }
    : null;
}

/**
 * The outbox from what was stored: entries `shape` does not recognise are dropped, and
 * duplicates collapse to the newest.
 * @template {{item: string, updated_at: number}} T
 * @param {unknown} stored
 * @param {(p: any) => T | null} [shape] positions unless said
 * @returns {T[]}
 */
export function restore(stored, shape = /** @type {any} */ (asPosition)) {
  if (!Array.isArray(stored)) return [];
  const shaped = stored.map(shape).filter(/** @type {(p: T | null) => p is T} */ ((p) => p !== null));
  return shaped.reduce((outbox, p) => enqueue(outbox, p), /** @type {T[]} */ ([]));
}

/**
 * Milliseconds since 1970 by the server's clock as this device last measured it.
 * @param {number} offset
 * @param {number} [now]
 */
export function stamp(offset, now = Date.now()) {
  return Math.round(now + (Number.isFinite(offset) ? offset : 0));
}

const OFFSET_KEY = "juke_server_offset";
/** The most the server takes in one request. */
const BATCH = 200;

/**
 * A queue on the device of changes for the server, one per item, the newest: kept in
 * localStorage under `storageKey`, sent by `send` (true when the server has answered for them,
 * kept or refused for good), and sent again when the network comes back.
 * @template {{item: string, updated_at: number}} T
 */
export class Outbox {
  /**
   * @param {string} storageKey
   * @param {(entries: T[]) => Promise<boolean>} send
   * @param {(p: any) => T | null} shape
   */
  constructor(storageKey, send, shape) {
    this.storageKey = storageKey;
    this.send = send;
    this.shape = shape;
    this.sending = false;
    addEventListener("online", () => this.flush());
  }

  /**
   * The offset to the server's clock, kept on the device for when there is no server to ask
   * (one value for every outbox: each reads it when it stamps).
   * @param {number} offset milliseconds, the server's clock less this device's
   */
  learnOffset(offset) {
    if (Number.isFinite(offset)) localStorage.setItem(OFFSET_KEY, String(offset));
  }

  /** Now, by the server's clock as last measured. */
  now() {
    return stamp(Number(localStorage.getItem(OFFSET_KEY) || 0));
  }

  /** @returns {T[]} */
  get entries() {
    try {
      return restore(JSON.parse(localStorage.getItem(this.storageKey) || "[]"), this.shape);
    } catch (_) {
      return [];
    }
  }

  set entries(outbox) {
    localStorage.setItem(this.storageKey, JSON.stringify(outbox));
  }

  /**
   * Queues a change (stamped now unless it says when) and sends what waits.
   * @param {any} change
   */
  put(change) {
    const entry = this.shape({ updated_at: this.now(), ...change });
    if (entry) this.entries = enqueue(this.entries, entry);
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

/**
 * The device's outbox of positions, sent with `send` (a function that PUTs a batch).
 * @extends {Outbox<QueuedPosition>}
 */
export class PositionOutbox extends Outbox {
  /** @param {(positions: QueuedPosition[]) => Promise<boolean>} send true when the server kept them */
  constructor(send) {
    super("juke_dual_outbox", send, asPosition);
  }

  /**
   * Queues where `item` is and sends what waits.
   * @param {string} item
   * @param {number} seconds
   */
  add(item, seconds) {
    return this.put({ item, seconds });
  }
}
