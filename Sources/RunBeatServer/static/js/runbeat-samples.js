// The page's record of a workout's samples: each numbered from 0, kept until the server says
// it is stored, so a dropped connection loses nothing and a resend stores nothing twice.

export class SampleBuffer {
  /** @param {number} [acked] the highest seq the server holds with all before it (-1: none) */
  constructor(acked = -1) {
    this.acked = acked;
    this.nextSeq = acked + 1;
    /** @type {{seq: number, t: number, bpm: number, m?: string}[]} */
    this.pending = [];
  }

  /** A new sample, numbered. */
  add(t, bpm, m = undefined) {
    const sample = { seq: this.nextSeq++, t: Math.round(t * 1000) / 1000, bpm };
    if (m) sample.m = m;
    this.pending.push(sample);
    return sample;
  }

  /** The server holds every sample up to `seq`. */
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

  /** The server said (hello) what it holds: forget those; number on from what the page has. */
  resume(acked) {
    this.ack(acked);
    this.nextSeq = Math.max(this.nextSeq, acked + 1);
  }
}
