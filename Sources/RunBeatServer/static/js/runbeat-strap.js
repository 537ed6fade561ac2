// Where heart rate comes from: a chest strap over Web Bluetooth (Heart Rate service 0x180D),
// a simulated heart, or a recorded workout replayed. Each calls `onSample(bpm, rawHex)` and
// `onStatus(text, live)`; the page stamps the time.
import { isUsable, parseBattery, parseMeasurement, toHex } from "./runbeat-hrm.js";
import { SimulatedHeart } from "./runbeat-simulator.js";
import { reconnectDelay } from "/static/js/live.js";

/**
 * What a strap calls: a heart rate (with the strap's raw measurement in hex, and the workout's
 * second it belongs to when the source keeps its own time), and what to say about the strap.
 * @typedef {(bpm: number, hex?: string, at?: number) => void} SampleHandler
 * @typedef {(text: string, live?: boolean) => void} StatusHandler
 */

/**
 * The parts of Web Bluetooth used here (TypeScript 4.8's DOM types have none).
 * @typedef {{value?: DataView, addEventListener(type: "characteristicvaluechanged", listener: () => void): void, startNotifications(): Promise<unknown>, readValue(): Promise<DataView>}} GattCharacteristic
 * @typedef {{getPrimaryService(name: string): Promise<{getCharacteristic(name: string): Promise<GattCharacteristic>}>}} GattServer
 * @typedef {{name?: string, gatt?: {connect(): Promise<GattServer>, disconnect(): void}, addEventListener(type: "gattserverdisconnected", listener: () => void): void}} StrapDevice
 * @typedef {{requestDevice(options: object): Promise<StrapDevice>}} Bluetooth
 */

/** Seconds before a silent strap is said to be silent. */
export const STALE_AFTER = 5;

export class BluetoothStrap {
  /** @param {{onSample: SampleHandler, onStatus: StatusHandler}} handlers */
  constructor({ onSample, onStatus }) {
    this.onSample = onSample;
    this.onStatus = onStatus;
    /** @type {StrapDevice | null} */
    this.device = null;
    this.failures = 0;
    this.lastHeard = 0;
    /** @type {number | null} */
    this.battery = null;
    this.stopped = false;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.staleTimer = null;
  }

  static available() {
    return typeof navigator !== "undefined" && "bluetooth" in navigator;
  }

  async connect() {
    const bluetooth = /** @type {{bluetooth: Bluetooth}} */ (/** @type {unknown} */ (navigator)).bluetooth;
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
    const gatt = this.device?.gatt;
    if (!gatt) throw new Error("No strap to connect to.");
    const server = await gatt.connect();
    const service = await server.getPrimaryService("heart_rate");
    const measurement = await service.getCharacteristic("heart_rate_measurement");
    measurement.addEventListener("characteristicvaluechanged", () => {
      const view = measurement.value;
      if (!view) return;
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

  /** @param {Uint8Array} bytes a Heart Rate Measurement notification */
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
  /** @param {{onSample: SampleHandler, onStatus: StatusHandler, clock: {elapsed(): number, speed: number}, phases: import("./runbeat-timeline.js").Phase[], seed?: number}} options */
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
  /** @param {{onSample: SampleHandler, onStatus: StatusHandler, clock: {elapsed(): number, speed: number}, samples: {t: number, bpm: number}[]}} options */
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
