// The workout's clock: seconds since it started, at the replay's speed, stopped while the
// runner pauses. The plan's phases, the strap's samples and the server's engine all follow
// this time, so a pause needs nothing of the engine: while it is stopped nothing moves, and
// resuming carries on from the same second (as a sports watch's timer does). Wall time is
// injected so the clock can be tested without waiting.

export class WorkoutClock {
  /**
   * @param {number} speed workout seconds per real second (a replay or simulation runs faster)
   * @param {number} [offset] workout seconds already run when `wallOrigin` was read
   * @param {number} [wallOrigin] ms, when the clock last (re)started
   * @param {boolean} [paused]
   * @param {() => number} [now] ms, the wall clock
   */
  constructor(speed, offset = 0, wallOrigin = Date.now(), paused = false, now = () => Date.now()) {
    this.speed = speed;
    this.offset = offset;
    this.wallOrigin = wallOrigin;
    this.paused = paused;
    this.now = now;
  }

  elapsed() {
    if (this.paused) return this.offset;
    return this.offset + ((this.now() - this.wallOrigin) / 1000) * this.speed;
  }

  /** Stops the clock where it is. */
  pause() {
    if (this.paused) return;
    this.offset = this.elapsed();
    this.paused = true;
  }

  /** Starts it again from where it stopped. */
  resume() {
    if (!this.paused) return;
    this.wallOrigin = this.now();
    this.paused = false;
  }

  /** What a reloaded page needs to carry on with the same clock. */
  saved() {
    return { speed: this.speed, offset: this.offset, wallOrigin: this.wallOrigin, paused: this.paused };
  }

  /**
   * The clock a previous page saved.
   * @param {{speed: number, offset: number, wallOrigin: number, paused?: boolean}} saved
   * @param {() => number} [now]
   */
  static from(saved, now = () => Date.now()) {
    return new WorkoutClock(saved.speed, saved.offset, saved.wallOrigin, Boolean(saved.paused), now);
  }
}
