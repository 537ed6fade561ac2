// What the page says about Spotify: the run's status line from the server's `spotify`
// messages, and the outcome of connecting as Spotify's redirect back to /runbeat tells it.
// Pure, so node tests it.

/**
 * What the run's status line says about Spotify, from the server's `spotify` message.
 * @param {{state: string, intent?: string, device?: string, playlist?: string, message?: string}} status
 */
export function spotifyLine(status) {
  if (!status) return "";
  if (status.message) return status.message;
  if (status.state === "disconnected") return "Spotify not connected: Juke's music plays";
  if (status.state === "connected" && status.playlist) return `Spotify: ${status.playlist}${status.device ? ` on ${status.device}` : ""}`;
  if (status.state === "connected") return `Spotify ready${status.device ? ` on ${status.device}` : ""}`;
  return "Spotify: finding your device…";
}

/**
 * What the callback's redirect said (`?spotify=connected` or `failed` with a reason), once.
 * @param {string} search location.search
 */
export function callbackOutcome(search) {
  const params = new URLSearchParams(search);
  const outcome = params.get("spotify");
  if (outcome === "connected") return { ok: true, text: "Spotify is connected: choose a playlist for a phase." };
  if (outcome === "failed") return { ok: false, text: `Spotify was not connected: ${params.get("reason") || "try again"}` };
  return null;
}
