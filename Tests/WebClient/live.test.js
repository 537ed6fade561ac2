// The live connection's decisions (live.js), without a browser: which transport next, when
// to reconnect, when to give way to polling.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  EVENT_FAILURES_BEFORE_POLLING,
  MAX_RECONNECT_DELAY,
  POLL_INTERVAL,
  initialState,
  reconnectDelay,
  step,
} from "../../Sources/JukePlatform/Web/static/js/live.js";

/** Runs events through the machine; returns the last state and every action. */
function run(transports, events) {
  let state = initialState(transports);
  const actions = [];
  for (const event of events) {
    const result = step(state, event);
    state = result.state;
    actions.push(...result.actions);
  }
  return { state, actions };
}

test("it starts with the best transport the page has", () => {
  assert.deepEqual(run(["websocket", "events", "polling"], [{ type: "start" }]).actions, [
    { type: "open", transport: "websocket", after: 0 },
  ]);
  assert.deepEqual(run(["polling"], [{ type: "start" }]).actions, [{ type: "poll", after: 0 }]);
});

test("a WebSocket that never opens gives way to server-sent events at once", () => {
  const { state, actions } = run(["websocket", "events", "polling"], [{ type: "start" }, { type: "closed" }]);
  assert.equal(state.transports[state.index], "events");
  assert.deepEqual(actions.at(-1), { type: "open", transport: "events", after: 0 });
});

test("a WebSocket that worked and dropped reconnects, waiting longer each time", () => {
  const { state, actions } = run(
    ["websocket", "events", "polling"],
    [{ type: "start" }, { type: "opened" }, { type: "closed" }, { type: "closed" }, { type: "closed" }],
  );
  assert.equal(state.transports[state.index], "websocket");
  const opens = actions.filter((a) => a.type === "open").map((a) => a.after);
  assert.deepEqual(opens, [0, 1000, 2000, 4000]);
  assert.ok(actions.some((a) => a.type === "status" && a.text === "Reconnecting…"));
});

test("a message clears the status line and the failure count", () => {
  const { state, actions } = run(["websocket"], [{ type: "start" }, { type: "opened" }, { type: "closed" }, { type: "state" }]);
  assert.equal(state.failures, 0);
  assert.deepEqual(actions.at(-1), { type: "status", text: "" });
});

test("server-sent events reconnect by themselves, then give way to polling", () => {
  const failures = Array.from({ length: EVENT_FAILURES_BEFORE_POLLING - 1 }, () => ({ type: "closed" }));
  const before = run(["events", "polling"], [{ type: "start" }, ...failures]);
  assert.equal(before.state.transports[before.state.index], "events");
  assert.ok(!before.actions.some((a) => a.type === "open" && a.after > 0), "no reconnect of its own: EventSource does it");
  const after = run(["events", "polling"], [{ type: "start" }, ...failures, { type: "closed" }]);
  assert.equal(after.state.transports[after.state.index], "polling");
  assert.deepEqual(after.actions.slice(-2), [{ type: "close" }, { type: "poll", after: 0 }]);
});

test("a failed poll says why and polls again after the interval", () => {
  const { actions } = run(["polling"], [{ type: "start" }, { type: "pollFailed", message: "Request failed (502)" }]);
  assert.deepEqual(actions.slice(-2), [
    { type: "status", text: "Request failed (502)" },
    { type: "poll", after: POLL_INTERVAL },
  ]);
});

test("a deleted subject closes the connection and nothing happens after", () => {
  const { state, actions } = run(["websocket", "polling"], [{ type: "start" }, { type: "opened" }, { type: "deleted" }, { type: "closed" }]);
  assert.equal(state.stopped, true);
  assert.deepEqual(actions.slice(1), [{ type: "close" }, { type: "status", text: "" }, { type: "deleted" }]);
});

test("the reconnect delay doubles up to its cap", () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 10].map(reconnectDelay), [1000, 2000, 4000, 8000, MAX_RECONNECT_DELAY, MAX_RECONNECT_DELAY, MAX_RECONNECT_DELAY]);
});

test("a page without a transport is refused", () => {
  assert.throws(() => initialState([]));
});
