// One live connection for every app's page: a WebSocket where the page has one, server-sent
// events where a WebSocket cannot get through (a proxy that strips upgrades), polling where
// neither can. What to do next is decided by `step`, a pure state machine (events in, new
// state and actions out, no timers or sockets of its own), tested with `node --test`;
// `openLive` performs its actions with the browser's WebSocket, EventSource and fetch.
import { api, APIError } from "./api.js";

/** @typedef {"websocket" | "events" | "polling"} Transport */

/**
 * @typedef {object} LiveState
 * @property {Transport[]} transports the page's transports, best first
 * @property {number} index the one in use
 * @property {boolean} opened whether the one in use ever delivered
 * @property {number} failures failures in a row of the one in use
 * @property {boolean} stopped the subject is gone, or the page closed the connection
 */

/**
 * @typedef {{type: "start"} | {type: "opened"} | {type: "state"} | {type: "closed"}
 *   | {type: "pollFailed", message: string} | {type: "deleted"} | {type: "stop"}} LiveEvent
 */

/**
 * @typedef {{type: "open", transport: Transport, after: number} | {type: "close"}
 *   | {type: "poll", after: number} | {type: "status", text: string} | {type: "deleted"}} LiveAction
 */

/** How long to wait between polls, and the longest wait before reconnecting. */
export const POLL_INTERVAL = 3000;
export const MAX_RECONNECT_DELAY = 15000;
/** Server-sent events that fail this many times in a row give way to polling. */
export const EVENT_FAILURES_BEFORE_POLLING = 3;

/**
 * The reconnect delay after `failures` failures in a row: 1 s, doubling, at most 15 s.
 * @param {number} failures
 */
export function reconnectDelay(failures) {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), MAX_RECONNECT_DELAY);
}

/**
 * @param {Transport[]} transports the page's transports, best first
 * @returns {LiveState}
 */
export function initialState(transports) {
  if (transports.length === 0) throw new Error("a live connection needs a transport");
  return { transports, index: 0, opened: false, failures: 0, stopped: false };
}

/**
 * @param {LiveState} state
 * @param {LiveEvent} event
 * @returns {{state: LiveState, actions: LiveAction[]}}
 */
export function step(state, event) {
  if (state.stopped) return { state, actions: [] };
  const transport = state.transports[state.index];
  switch (event.type) {
    case "start":
      return { state, actions: [open(transport, 0)] };
    case "opened":
      return { state: { ...state, opened: true }, actions: [] };
    case "state":
      // Anything delivered means the connection works: the status line clears.
      return { state: { ...state, opened: true, failures: 0 }, actions: [{ type: "status", text: "" }] };
    case "deleted":
      // Nothing will reconnect: a "Reconnecting…" shown before must not stay on screen.
      return { state: { ...state, stopped: true }, actions: [{ type: "close" }, { type: "status", text: "" }, { type: "deleted" }] };
    case "stop":
      return { state: { ...state, stopped: true }, actions: [{ type: "close" }] };
    case "closed": {
      const failures = state.failures + 1;
      // A WebSocket that never opened cannot get through: the next transport, at once.
      if (transport === "websocket" && !state.opened) return fallBack(state);
      // An event stream reconnects by itself; after a few failures in a row, polling.
      if (transport === "events") {
        if (failures >= EVENT_FAILURES_BEFORE_POLLING && state.index + 1 < state.transports.length) {
          return fallBack(state, [{ type: "close" }]);
        }
        return { state: { ...state, failures }, actions: [{ type: "status", text: "Reconnecting…" }] };
      }
      return {
        state: { ...state, failures },
        actions: [{ type: "status", text: "Reconnecting…" }, open(transport, reconnectDelay(failures))],
      };
    }
    case "pollFailed":
      return {
        state: { ...state, failures: state.failures + 1 },
        actions: [{ type: "status", text: event.message }, { type: "poll", after: POLL_INTERVAL }],
      };
  }
  return { state, actions: [] };
}

/**
 * @param {Transport} transport
 * @param {number} after
 * @returns {LiveAction}
 */
function open(transport, after) {
  return transport === "polling" ? { type: "poll", after } : { type: "open", transport, after };
}

/**
 * @param {LiveState} state
 * @param {LiveAction[]} before
 * @returns {{state: LiveState, actions: LiveAction[]}}
 */
function fallBack(state, before = []) {
  if (state.index + 1 >= state.transports.length) {
    const failures = state.failures + 1;
    return {
      state: { ...state, failures },
      actions: [...before, { type: "status", text: "Reconnecting…" }, open(state.transports[state.index], reconnectDelay(failures))],
    };
  }
  const next = { ...state, index: state.index + 1, opened: false, failures: 0 };
  return { state: next, actions: [...before, open(next.transports[next.index], 0)] };
}

/**
 * @typedef {object} LiveOptions
 * @property {string} [websocket] the WebSocket's path (wss: or ws: is added)
 * @property {string} [events] the server-sent events' path ("state" and "deleted" events)
 * @property {string} poll the JSON state's path, polled last
 * @property {(state: any) => void} onState each new state
 * @property {() => void} onDeleted the subject was deleted
 * @property {(text: string) => void} [onStatus] a short status line ("" when all is well)
 * @property {(transport: Transport) => void} [onTransport] the transport in use
 */

/**
 * Opens the live connection; returns a function that closes it.
 * @param {LiveOptions} options
 */
export function openLive(options) {
  /** @type {Transport[]} */
  const transports = [];
  if (options.websocket) transports.push("websocket");
  if (options.events) transports.push("events");
  transports.push("polling");
  let state = initialState(transports);
  /** @type {WebSocket | EventSource | null} */
  let connection = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;

  /** @param {LiveEvent} event */
  const send = (event) => {
    const result = step(state, event);
    state = result.state;
    for (const action of result.actions) perform(action);
  };

  /** @param {any} message */
  const deliver = (message) => {
    if (message && message.deleted) return send({ type: "deleted" });
    send({ type: "state" });
    options.onState(message);
  };

  /** @param {LiveAction} action */
  const perform = (action) => {
    switch (action.type) {
      case "status":
        options.onStatus?.(action.text);
        break;
      case "deleted":
        options.onDeleted();
        break;
      case "close":
        if (timer) clearTimeout(timer);
        connection?.close();
        connection = null;
        break;
      case "open":
        timer = setTimeout(() => connect(action.transport), action.after);
        break;
      case "poll":
        timer = setTimeout(poll, action.after);
        break;
    }
  };

  /** @param {Transport} transport */
  const connect = (transport) => {
    options.onTransport?.(transport);
    if (transport === "websocket" && options.websocket) {
      const protocol = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(`${protocol}//${location.host}${options.websocket}`);
      connection = socket;
      socket.onopen = () => send({ type: "opened" });
      socket.onmessage = (event) => deliver(JSON.parse(event.data));
      socket.onclose = () => {
        if (connection === socket) send({ type: "closed" });
      };
    } else if (transport === "events" && options.events) {
      const source = new EventSource(options.events);
      connection = source;
      source.addEventListener("open", () => send({ type: "opened" }));
      source.addEventListener("state", (event) => deliver(JSON.parse(/** @type {MessageEvent} */ (event).data)));
      source.addEventListener("deleted", () => send({ type: "deleted" }));
      source.onerror = () => send({ type: "closed" });
    }
  };

  const poll = async () => {
    if (state.stopped) return;
    options.onTransport?.("polling");
    try {
      deliver(await api(options.poll));
      if (!state.stopped) timer = setTimeout(poll, POLL_INTERVAL);
    } catch (error) {
      if (error instanceof APIError && error.status === 404) return send({ type: "deleted" });
      send({ type: "pollFailed", message: error instanceof Error ? error.message : String(error) });
    }
  };

  send({ type: "start" });
  return () => send({ type: "stop" });
}
