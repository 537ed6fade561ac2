// Words the page says of counts and of a LibriVox book being added to the shelf. Pure: the
// tests read them as the page does (Tests/WebClient/dual-words.test.js).

/**
 * "1 chapter", "3 chapters".
 * @param {number} n
 * @param {string} one
 * @param {string} [many]
 */
export function count(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What a LibriVox search row's button says of its book once added, by the book's status on
 * the shelf: the download follows the shelf, so a finished book no longer says it downloads.
 * @param {string} status the shelf's: downloading, ready or failed
 */
export function shelvedLabel(status) {
  if (status === "ready") return "On your shelf";
  if (status === "failed") return "Stopped: see your shelf";
  return "Downloading to the server…";
}
