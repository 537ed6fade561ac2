// A simulated heart for trying RunBeat with no strap (and for the browser tests): it follows
// each phase's target with a lag, as a real heart does, about 0.6 bpm a second toward the
// middle of the target (110 where there is none), plus a strap's jitter. Seeded, so a run
// can be repeated.

export class SimulatedHeart {
  /**
   * @param {{kind: string, start: number, seconds: number | null, low?: number | null, high?: number | null}[]} phases
   * @param {{resting?: number, seed?: number, jitter?: number}} options
   */
  constructor(phases, { resting = 70, seed = 1, jitter = 2 }) {
    this.phases = phases;
    this.heart = resting + 30;
    this.state = seed >>> 0 || 1;
    this.jitter = jitter;
    this.last = 0;
  }

  random() {
    // xorshift32
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 0x100000000;
  }

  /**
   * The heart rate the plan aims at `t` seconds in.
   * @param {number} t
   */
  goal(t) {
    for (const phase of this.phases) {
      if (phase.seconds == null || t < phase.start + phase.seconds) {
        if (phase.low != null && phase.high != null) return (phase.low + phase.high) / 2;
        return phase.kind === "free" ? 140 : 110;
      }
    }
    return 100;
  }

  /**
   * The heart rate `t` seconds into the workout (called with t rising).
   * @param {number} t
   */
  beat(t) {
    const steps = Math.max(1, Math.round(t - this.last));
    this.last = t;
    for (let i = 0; i < steps; i++) {
      const delta = this.goal(t) - this.heart;
      this.heart += Math.max(-0.6, Math.min(0.6, delta));
    }
    const noise = Math.round((this.random() * 2 - 1) * this.jitter);
    return Math.max(40, Math.min(220, Math.round(this.heart) + noise));
  }
}
