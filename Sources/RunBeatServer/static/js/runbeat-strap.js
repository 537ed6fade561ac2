// Where heart rate comes from: a chest strap over Web Bluetooth (Heart Rate service 0x180D),
// a simulated heart, or a recorded workout replayed. Each calls `onSample(bpm, rawHex)` and
// `onStatus(text, live)`; the page stamps the time.
import { isUsable, parseBattery, parseMeasurement, toHex } from "./runbeat-hrm.js";
import { SimulatedHeart } from "./runbeat-simulator.js";
import { reconnectDelay } from "/static/js/live.js";

/** Seconds before a silent strap is said to be silent. */
export const STALE_AFTER = 5;

export class BluetoothStrap {
  constructor({ onSample, onStatus }) {
    this.onSample = onSample;
    this.onStatus = onStatus;
    this.device = null;
    this.failures = 0;
    this.lastHeard = 0;
    this.battery = null;
    this.stopped = false;
    this.staleTimer = null;
  }

  static available() {
    return typeof navigator !== "undefined" && "bluetooth" in navigator;
  }

  async connect() {
    const bluetooth = /** @type {any} */ (navigator).bluetooth;
    this.device = await bluetooth.requestDevice({ filters: [{ services: ["heart_rate"] }], optionalServices: ["battery_service"] });
    this.device.addEventListener("gattserverdisconnected", () => this.dropped());
    await this.attach();
    this.staleTimer = setInterval(() => {
      if (this.lastHeard && Date.now() - this.lastHeard > STALE_AFTER * 1000) this.onStatus(`${this.name()}: silent, check the strap`, false);
    }, 1000);
  }

  name() {
    return this.device?.name || "Strap";
  }

  async attach() {
    const server = await this.device.gatt.connect();
    const service = await server.getPrimaryService("heart_rate");
    const measurement = await service.getCharacteristic("heart_rate_measurement");
    measurement.addEventListener("characteristicvaluechanged", (event) => {
      const view = /** @type {any} */ (event.target).value;
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      this.heard(bytes);
    });
    await measurement.startNotifications();
    this.failures = 0;
    this.onStatus(`${this.name()} connected`, true);
    try {
      const battery = await (await server.getPrimaryService("battery_service")).getCharacteristic("battery_level");
      this.battery = parseBattery(new Uint8Array((await battery.readValue()).buffer));
      this.onStatus(`${this.name()} connected${this.battery != null ? `, battery ${this.battery}%` : ""}`, true);
    } catch {
      // Not every strap offers its battery level.
    }
  }

  heard(bytes) {
    let m;
    try {
      m = parseMeasurement(bytes);
    } catch {
      return;  // a damaged notification: the next one comes within a second
    }
    this.lastHeard = Date.now();
    if (!isUsable(m)) {
      this.onStatus(`${this.name()}: no skin contact, wet the strap's pads`, false);
      return;
    }
    this.onSample(m.bpm, toHex(bytes));
  }

  /** The strap went away: try again, waiting longer each time. */
  dropped() {
    if (this.stopped) return;
    this.failures += 1;
    const wait = reconnectDelay(this.failures);
    this.onStatus(`${this.name()} lost; reconnecting in ${Math.round(wait / 1000)} s`, false);
    setTimeout(async () => {
      if (this.stopped) return;
      try {
        await this.attach();
      } catch {
        this.dropped();
      }
    }, wait);
  }

  stop() {
    this.stopped = true;
    if (this.staleTimer) clearInterval(this.staleTimer);
    try {
      this.device?.gatt?.disconnect();
    } catch {
      // already gone
    }
  }
}

/** A heart that follows the plan, one beat reading a workout second (faster with speed). */
export class SimulatedStrap {
  /** @param {{onSample: Function, onStatus: Function, clock: {elapsed(): number, speed: number}, phases: any[], seed?: number}} options */
  constructor({ onSample, onStatus, clock, phases, seed = 7 }) {
    this.onSample = onSample;
    this.onStatus = onStatus;
    this.clock = clock;
    this.heart = new SimulatedHeart(phases, { seed });
    this.timer = null;
    this.next = 0;
  }

  start() {
    this.onStatus("Simulated strap", true);
    // A page reloaded mid-run goes on from now, not from the start again.
    this.next = Math.ceil(this.clock.elapsed());
    this.timer = setInterval(() => {
      const now = this.clock.elapsed();
      while (this.next <= now) {
        this.onSample(this.heart.beat(this.next), undefined, this.next);
        this.next += 1;
      }
    }, Math.max(10, 250 / this.clock.speed));
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
  }
}

/** A recorded workout's samples, played as a strap would send them, at the clock's speed. */
export class ReplayStrap {
  /** @param {{onSample: Function, onStatus: Function, clock: {elapsed(): number, speed: number}, samples: {t: number, bpm: number}[]}} options */
  constructor({ onSample, onStatus, clock, samples }) {
    this.onSample = onSample;
    this.onStatus = onStatus;
    this.clock = clock;
    this.samples = samples;
    this.index = 0;
    this.timer = null;
  }

  start() {
    this.onStatus(`Replaying ${this.samples.length} samples`, true);
    const now = this.clock.elapsed();
    while (this.index < this.samples.length && this.samples[this.index].t < now) this.index++;
    this.timer = setInterval(() => {
      const now = this.clock.elapsed();
      while (this.index < this.samples.length && this.samples[this.index].t <= now) {
        const sample = this.samples[this.index++];
        this.onSample(sample.bpm, undefined, sample.t);
      }
      if (this.index >= this.samples.length) this.onStatus("The recording has ended", false);
    }, Math.max(10, 250 / this.clock.speed));
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
  }
}
