// The workout's live connection: samples to the server as they come, the server's cues,
// phases and acknowledgements back. When it drops, the page keeps recording (SampleBuffer),
// reconnects with backoff and sends what the server has not stored; if the WebSocket cannot
// get through, the backlog goes over HTTP.
import { api } from "/static/js/api.js";
import { reconnectDelay } from "/static/js/live.js";

export class LiveLink {
  /**
   * @param {string} workoutId
   * @param {import("./runbeat-samples.js").SampleBuffer} buffer
   * @param {{onMessage: (message: any) => void, onState: (state: "live" | "offline" | "closed") => void, now: () => number, page?: string}} handlers
   *   page: this page's own id (the same page reconnecting records on; another page watches)
   */
  constructor(workoutId, buffer, { onMessage, onState, now, page = "" }) {
    this.page = page;
    /** Another page records the run: this one sends nothing of it. */
    this.viewer = false;
    this.id = workoutId;
    this.buffer = buffer;
    this.onMessage = onMessage;
    this.onState = onState;
    this.now = now;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.failures = 0;
    this.closed = false;
    this.uploading = false;
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.page ? `?page=${encodeURIComponent(this.page)}` : "";
    const socket = new WebSocket(`${scheme}//${location.host}/api/v1/runbeat/workouts/${this.id}/live${query}`);
    this.socket = socket;
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message.type === "hello" && message.role === "viewer") {
        this.failures = 0;
        this.viewer = true;
        this.onState("live");
      } else if (message.type === "hello") {
        this.failures = 0;
        this.viewer = false;
        this.buffer.resume(message.acked_seq);
        this.onState("live");
        // The page's clock first, so the server knows the backlog is old.
        this.sendJSON({ type: "tick", t: this.now() });
        for (const piece of this.buffer.unacked()) this.sendJSON({ type: "samples", t: this.now(), samples: piece });
      } else if (message.type === "ack") {
        this.buffer.ack(message.seq);
      }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => this.dropped(socket));
    socket.addEventListener("error", () => socket.close());
  }

  /** @param {WebSocket} socket the connection that closed */
  dropped(socket) {
    if (socket !== this.socket || this.closed) return;
    this.socket = null;
    this.failures += 1;
    this.onState("offline");
    if (this.failures >= 3) this.upload();
    setTimeout(() => this.open(), reconnectDelay(this.failures));
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** @param {object} object */
  sendJSON(object) {
    if (this.viewer) return;
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(object));
  }

  /**
   * A new sample: sent now when connected, else kept for the reconnect.
   * @param {{seq: number, t: number, bpm: number, m?: string}} sample
   */
  send(sample) {
    this.sendJSON({ type: "samples", t: this.now(), samples: [sample] });
  }

  tick() {
    this.sendJSON({ type: "tick", t: this.now() });
  }

  /** The backlog over HTTP (the WebSocket is refused or the run is ending). */
  async upload() {
    if (this.uploading) return;
    this.uploading = true;
    try {
      for (const piece of this.buffer.unacked(2000)) {
        const receipt = await api(`/api/v1/runbeat/workouts/${this.id}/samples`, { method: "POST", body: { samples: piece } });
        this.buffer.ack(receipt.acked_seq);
      }
    } catch {
      // Still offline: the next reconnect tries again.
    } finally {
      this.uploading = false;
    }
  }

  close() {
    this.closed = true;
    this.socket?.close();
    this.onState("closed");
  }
}
