// The server's clock as a page reads it (server-clock.js): the offset from NTP-style
// samples, and the countdown to a moment the server set.
import test from "node:test";
import assert from "node:assert/strict";
import { clockOffset, secondsUntil } from "../../Sources/JukePlatform/Web/static/js/server-clock.js";

test("the quickest round trip decides the offset, the server's time taken at its middle", () => {
  const samples = [
    { sent: 1000, received: 1400, server: 6000 }, // slow: 400 ms round trip
    { sent: 2000, received: 2020, server: 7015 }, // quick: the server is 5,005 ms ahead
    { sent: 3000, received: 3100, server: 8000 },
  ];
  assert.equal(clockOffset(samples), 5005);
});

test("no usable sample means no offset", () => {
  assert.equal(clockOffset([]), 0);
  assert.equal(clockOffset([{ sent: 10, received: 5, server: 100 }, { sent: 1, received: 2, server: NaN }]), 0);
});

test("seconds left count by the server's clock and stop at zero", () => {
  const end = Date.parse("2026-11-26T10:00:30.000Z");
  const now = Date.parse("2026-11-26T10:00:00.000Z");
  assert.equal(secondsUntil(end, 0, now), 30);
  // This phone runs 10 s behind the server: 20 s are left, not 30.
  assert.equal(secondsUntil(end, 10_000, now), 20);
  assert.equal(secondsUntil(end, 60_000, now), 0);
  assert.equal(secondsUntil(NaN, 0, now), 0);
});
