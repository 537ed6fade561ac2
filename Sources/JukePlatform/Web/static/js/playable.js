// What this browser plays, told to the server once per page: a `juke_plays` cookie that
// every audio request carries, so a track in a codec the browser cannot play (WMA, WavPack,
// DSD, ALAC on most browsers) comes back transcoded, whichever app's player asks for it.

/** The MIME types that show a browser plays each of Juke's codec names. */
export const PROBES = {
  mp3: ["audio/mpeg"],
  aac: ['audio/mp4; codecs="mp4a.40.2"'],
  alac: ['audio/mp4; codecs="alac"'],
  flac: ["audio/flac", 'audio/mp4; codecs="flac"'],
  vorbis: ['audio/ogg; codecs="vorbis"'],
  opus: ['audio/ogg; codecs="opus"'],
  wav: ['audio/wav; codecs="1"', "audio/wav"],
  aiff: ["audio/aiff", "audio/x-aiff"],
};

/**
 * The codecs `canPlayType` says yes or maybe to, in PROBES' order.
 * @param {(type: string) => string} canPlayType
 * @returns {string[]}
 */
export function playableCodecs(canPlayType) {
  return Object.entries(PROBES)
    .filter(([, types]) => types.some((type) => canPlayType(type) !== ""))
    .map(([codec]) => codec);
}

/**
 * The cookie that carries them, for a year, to every path on this server.
 * @param {string[]} codecs
 */
export function playsCookie(codecs) {
  return `juke_plays=${codecs.join(",")}; path=/; max-age=31536000; SameSite=Lax`;
}

/** This browser's codecs (empty outside a browser). */
export function browserCodecs() {
  if (typeof document === "undefined") return [];
  const probe = document.createElement("audio");
  return playableCodecs((type) => probe.canPlayType(type));
}

if (typeof document !== "undefined") document.cookie = playsCookie(browserCodecs());
