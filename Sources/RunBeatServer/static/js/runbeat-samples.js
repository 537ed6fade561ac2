// The page's record of a workout's samples: each numbered from 0, kept until the server says
// it is stored, so a dropped connection loses nothing and a resend stores nothing twice. The
// record is also kept on the device (`backlog`, `fromBacklog`): a page reloaded or closed with
// no network picks up the samples it had not sent.

export class SampleBuffer {
  /** @param {number} [acked] the highest seq the server holds with all before it (-1: none) */
  constructor(acked = -1) {
    this.acked = acked;
    this.nextSeq = acked + 1;
    /** @type {{seq: number, t: number, bpm: number, m?: string}[]} */
    this.pending = [];
  }

  /**
   * A new sample, numbered.
   * @param {number} t seconds into the workout
   * @param {number} bpm
   * @param {string} [m] the strap's raw measurement, in hex
   */
  add(t, bpm, m = undefined) {
    /** @type {{seq: number, t: number, bpm: number, m?: string}} */
    const sample = { seq: this.nextSeq++, t: Math.round(t * 1000) / 1000, bpm };
    if (m) sample.m = m;
    this.pending.push(sample);
    return sample;
  }

  /**
   * The server holds every sample up to `seq`.
   * @param {number} seq
   */
  ack(seq) {
    if (seq <= this.acked) return;
    this.acked = seq;
    this.pending = this.pending.filter((s) => s.seq > seq);
  }

  /** What to send again after a reconnect, oldest first, in pieces of at most `size`. */
  unacked(size = 500) {
    const pieces = [];
    for (let i = 0; i < this.pending.length; i += size) pieces.push(this.pending.slice(i, i + size));
    return pieces;
  }

  /**
   * The server said (hello) what it holds: forget those; number on from what the page has.
   * @param {number} acked
   */
  resume(acked) {
    this.ack(acked);
    this.nextSeq = Math.max(this.nextSeq, acked + 1);
  }

  /** What to keep on the device: enough to carry on after a reload. */
  backlog() {
    return { acked: this.acked, next_seq: this.nextSeq, pending: this.pending };
  }

  /**
   * The samples a previous page kept and the server may not hold: numbering carries on after
   * them, and any the server has already acknowledged (acked) are left out.
   * @param {unknown} kept
   */
  restore(kept) {
    const k = /** @type {any} */ (kept);
    if (!k || !Array.isArray(k.pending)) return;
    const known = new Set(this.pending.map((s) => s.seq));
    for (const s of k.pending) {
      if (!s || !Number.isInteger(s.seq) || !Number.isFinite(s.t) || !Number.isFinite(s.bpm)) continue;
      if (s.seq <= this.acked || known.has(s.seq)) continue;
      known.add(s.seq);
      this.pending.push(s.m ? { seq: s.seq, t: s.t, bpm: s.bpm, m: s.m } : { seq: s.seq, t: s.t, bpm: s.bpm });
    }
    this.pending.sort((a, b) => a.seq - b.seq);
    const last = this.pending.length ? this.pending[this.pending.length - 1].seq : -1;
    this.nextSeq = Math.max(this.nextSeq, last + 1, Number.isInteger(k.next_seq) ? k.next_seq : 0);
  }
}
