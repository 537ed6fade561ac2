// The music player's queue: the list a song was played from (an album, a page of songs, the
// search's results), so that Next and Previous move along it. Pure (node --test).

/**
 * The index Next (1) or Previous (-1) goes to from `index`, passing over songs this server
 * cannot play; -1 when there is none (the deck's button is then disabled, never a silent no-op).
 * @param {{ playable?: boolean }[]} queue
 * @param {number} index
 * @param {number} direction 1 or -1
 */
export function queueStep(queue, index, direction) {
  if (index < 0) return -1;
  let next = index + direction;
  while (next >= 0 && next < queue.length && queue[next].playable === false) next += direction;
  return next >= 0 && next < queue.length ? next : -1;
}

/**
 * What to queue when one song is played from a list: the list itself, or, when the list is
 * that one song (a search with one result), its album, from that song on, once the album is
 * known. Returns the queue and the song's place in it.
 * @template {{ id: string }} T
 * @param {T[]} list where the song was played from
 * @param {number} index its place there
 * @param {T[] | null} album its album's songs, in order, when fetched
 * @returns {{ queue: T[], index: number }}
 */
export function queueFor(list, index, album) {
  if (list.length > 1 || !album) return { queue: list, index };
  const at = album.findIndex((song) => song.id === list[index]?.id);
  return at >= 0 && album.length > 1 ? { queue: album, index: at } : { queue: list, index };
}
