// Game sound effects made by Juke with Web Audio: no sound files, nothing to license.
// Browsers start audio only after a person has interacted with the page, so the context
// is created (or resumed) on first use.
export class Sounds {
  context() {
    if (!this.ctx) {
      // Older Safari names it webkitAudioContext.
      const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
      if (!Context) return null;
      this.ctx = new Context();
    }
    if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    return this.ctx;
  }

  // A browser lets a page start sound only during a tap or key press. The reveal and the
  // final fanfare arrive from the server with no tap of their own, so the sound is opened
  // (and resumed after the phone slept) on any tap.
  unlockOnFirstGesture() {
    const unlock = () => this.context();
    for (const type of ["pointerdown", "keydown", "touchend"]) document.addEventListener(type, unlock, { capture: true, passive: true });
  }

  /**
   * Plays notes: [frequency Hz, start s, length s, wave].
   * @param {[number, number, number, OscillatorType?][]} list
   * @param {number} [volume]
   */
  notes(list, volume = 0.18) {
    const ctx = this.context();
    if (!ctx) return;
    const now = ctx.currentTime + 0.02;
    for (const [frequency, start, length, type = "triangle"] of list) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = type;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0, now + start);
      gain.gain.linearRampToValueAtTime(volume, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.05);
    }
  }

  correct() { this.notes([[660, 0, 0.12], [880, 0.1, 0.25]]); }
  wrong() { this.notes([[220, 0, 0.18, "sawtooth"], [175, 0.16, 0.3, "sawtooth"]], 0.1); }
  reveal() { this.notes([[523, 0, 0.12], [659, 0.09, 0.12], [784, 0.18, 0.12], [1047, 0.27, 0.35]]); }
  victory() {
    this.notes([[523, 0, 0.15], [523, 0.15, 0.15], [523, 0.3, 0.15], [698, 0.45, 0.5], [880, 0.95, 0.2], [784, 1.15, 0.2], [1047, 1.35, 0.8]]);
  }
}
