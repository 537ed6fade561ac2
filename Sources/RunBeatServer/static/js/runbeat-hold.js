// "Hold to end": a workout ends only after the button is held down for 1.5 s, with a ring
// filling as it is held (let go early and nothing happens), so a pocket or a sweaty thumb
// cannot end it. A keyboard or a screen reader cannot hold: their press (a click with no
// pointer, detail 0) asks for a confirmation instead. `HoldGesture` is the pure part.

export const HOLD_MS = 1500;

/** How far a hold has got: pressed at some time, released, or held to the end. */
export class HoldGesture {
  /** @param {number} [ms] */
  constructor(ms = HOLD_MS) {
    this.ms = ms;
    /** @type {number | null} */
    this.start = null;
  }

  /** @param {number} t ms */
  press(t) {
    this.start = t;
  }

  /**
   * 0 to 1: the share of the hold done at `t` (0 when not pressed).
   * @param {number} t ms
   */
  progress(t) {
    return this.start == null ? 0 : Math.min(1, Math.max(0, (t - this.start) / this.ms));
  }

  /**
   * True once held long enough.
   * @param {number} t ms
   */
  done(t) {
    return this.progress(t) >= 1;
  }

  /** Let go (or cancelled): the hold starts again from nothing. */
  release() {
    this.start = null;
  }
}

/**
 * Makes `button` a hold-to-act button. Its ring is `.rb-hold-fill` (a circle with
 * pathLength 100); the button carries data-hold="idle" | "holding".
 * @param {HTMLButtonElement} button
 * @param {{onHeld: () => void, onConfirm: () => void, ms?: number}} actions
 */
export function holdButton(button, { onHeld, onConfirm, ms = HOLD_MS }) {
  const gesture = new HoldGesture(ms);
  const fill = /** @type {SVGElement | null} */ (button.querySelector(".rb-hold-fill"));
  let frame = 0;
  const draw = (/** @type {number} */ share) => {
    // A CSSOM property, which the page's Content-Security-Policy allows (a style attribute it would not).
    if (fill) fill.style.strokeDashoffset = String(100 - share * 100);
  };
  const stop = () => {
    cancelAnimationFrame(frame);
    gesture.release();
    button.dataset.hold = "idle";
    draw(0);
  };
  const step = () => {
    const now = performance.now();
    draw(gesture.progress(now));
    if (gesture.done(now)) {
      stop();
      onHeld();
      return;
    }
    frame = requestAnimationFrame(step);
  };
  button.dataset.hold = "idle";
  draw(0);
  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || button.disabled) return;
    event.preventDefault();  // no text selection, no focus ring flash, no long-press menu
    try {
      button.setPointerCapture(event.pointerId);
    } catch {
      // An emulated pointer may not be capturable: leaving the button still cancels.
    }
    gesture.press(performance.now());
    button.dataset.hold = "holding";
    frame = requestAnimationFrame(step);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave", "lostpointercapture"]) {
    button.addEventListener(type, () => {
      if (button.dataset.hold === "holding") stop();
    });
  }
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  // A pointer's click follows its release and is the hold's business; a click with no
  // pointer (Enter, Space, a screen reader's activation) asks instead.
  button.addEventListener("click", (event) => {
    if (event.detail === 0) onConfirm();
  });
  return { cancel: stop };
}
