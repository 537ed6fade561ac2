// The server's clock, as seen from this page: a countdown to a moment the server set (a
// clip's end) or a position it knows (a song that started at a time) must read the same on
// every phone, whatever each phone's own clock says.

/**
 * The offset to add to this page's clock to read the server's, from samples taken the way
 * NTP does: `sent` and `received` are this page's times around a request, `server` the time
 * the server answered. The sample with the shortest round trip is the truest; the server's
 * time is taken to fall in the middle of it.
 * @param {{sent: number, received: number, server: number}[]} samples milliseconds
 * @returns {number} milliseconds (0 without samples)
 */
export function clockOffset(samples) {
  const usable = samples.filter((s) => Number.isFinite(s.server) && s.received >= s.sent);
  if (!usable.length) return 0;
  const best = usable.reduce((a, b) => (b.received - b.sent < a.received - a.sent ? b : a));
  return best.server - (best.sent + best.received) / 2;
}

/**
 * Seconds left until `endsAt` (milliseconds since 1970 by the server's clock), never below 0.
 * @param {number} endsAt
 * @param {number} offset from clockOffset
 * @param {number} [now] this page's clock, milliseconds
 */
export function secondsUntil(endsAt, offset, now = Date.now()) {
  if (!Number.isFinite(endsAt)) return 0;
  return Math.max(0, (endsAt - (now + offset)) / 1000);
}

let measured = null;

/**
 * The offset to the server's clock, measured once per page from three quick requests; 0
 * when the server cannot be asked (the countdown is then as good as this phone's clock).
 * @returns {Promise<number>}
 */
export function serverOffset() {
  measured ??= (async () => {
    const samples = [];
    for (let i = 0; i < 3; i++) {
      try {
        const sent = Date.now();
        const response = await fetch("/api/v1/clock", { cache: "no-store", headers: { Accept: "application/json" } });
        const received = Date.now();
        if (!response.ok) continue;
        const body = await response.json();
        samples.push({ sent, received, server: Number(body.now) });
      } catch (_) { /* offline: fewer samples */ }
    }
    return clockOffset(samples);
  })();
  return measured;
}
