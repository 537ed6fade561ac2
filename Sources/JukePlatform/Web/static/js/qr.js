// QR codes drawn by Juke (ISO/IEC 18004): byte mode (with the UTF-8 ECI when the text is not
// ASCII), error correction level M, versions 1 to 10 (up to 213 bytes, plenty for an invite
// link), the mask chosen by the standard's penalty rules. Returns an SVG element; nothing
// leaves the page.

// Level M block structure per version: [EC codewords per block, [blocks, data codewords]...].
/** @type {Array<[number, ...Array<[number, number]>] | null>} */
const BLOCKS = [
  null,
  [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
  [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]],
];
const ALIGNMENT = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x;
  LOG[x] = i;
  x <<= 1;
  if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
/** @type {(a: number, b: number) => number} */
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/**
 * The Reed-Solomon generator polynomial of this degree, highest power first.
 * @param {number} degree
 * @returns {number[]}
 */
function generator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= mul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly;
}

/**
 * The error-correction codewords of a block.
 * @param {number[]} data
 * @param {number} degree
 * @returns {number[]}
 */
function reedSolomon(data, degree) {
  const gen = generator(degree);
  const rest = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ rest.shift();
    rest.push(0);
    for (let i = 0; i < degree; i++) rest[i] ^= mul(gen[i + 1], factor);
  }
  return rest;
}

/**
 * The block structure of a version (1 to 10).
 * @param {number} version
 */
function blocksOf(version) {
  const blocks = BLOCKS[version];
  if (!blocks) throw new Error(`No QR version ${version} here.`);
  return blocks;
}

/**
 * Data codewords a version holds at level M.
 * @param {number} version
 */
function dataCapacity(version) {
  const [, ...groups] = blocksOf(version);
  return groups.reduce((sum, [count, size]) => sum + count * size, 0);
}

/**
 * The codewords: mode, length, bytes, terminator, padding, then blocks interleaved with ECC.
 * @param {number[]} bytes
 * @param {number} version
 * @returns {number[]}
 */
function codewords(bytes, version) {
  /** @type {number[]} */
  const bits = [];
  /** @type {(value: number, length: number) => void} */
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  // Byte mode means Latin-1 to a strict reader; UTF-8 text says so with ECI 26 first.
  if (bytes.some((b) => b > 0x7f)) {
    put(0b0111, 4);
    put(26, 8);
  }
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCapacity(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  while (bits.length % 8) bits.push(0);
  /** @type {number[]} */
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(parseInt(bits.slice(i, i + 8).join(""), 2));
  for (let pad = 0xec; data.length < capacity / 8; pad ^= 0xec ^ 0x11) data.push(pad);
  const [ecLength, ...groups] = blocksOf(version);
  /** @type {{data: number[], ec: number[]}[]} */
  const blocks = [];
  let offset = 0;
  for (const [count, size] of groups) {
    for (let i = 0; i < count; i++) {
      const block = data.slice(offset, offset + size);
      offset += size;
      blocks.push({ data: block, ec: reedSolomon(block, ecLength) });
    }
  }
  /** @type {number[]} */
  const out = [];
  const longest = Math.max(...blocks.map((b) => b.data.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ecLength; i++) for (const b of blocks) out.push(b.ec[i]);
  return out;
}

/**
 * The BCH remainder of `value` (format and version information).
 * @param {number} value
 * @param {number} poly
 * @param {number} bitsOfPoly
 */
function bch(value, poly, bitsOfPoly) {
  let v = value << (bitsOfPoly - 1);
  for (let i = 31 - Math.clz32(v); i >= bitsOfPoly - 1; i--) if ((v >>> i) & 1) v ^= poly << (i - bitsOfPoly + 1);
  return v;
}

/** @type {((r: number, c: number) => boolean)[]} */
const MASKS = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (r, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
];

/**
 * The modules of the symbol (true is dark), with the data masked by this mask.
 * @param {number} version
 * @param {number[]} words
 * @param {number} maskIndex
 * @returns {boolean[][]}
 */
function build(version, words, maskIndex) {
  const size = 17 + 4 * version;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  /** @type {(r: number, c: number, on: boolean) => void} */
  const set = (r, c, on) => { dark[r][c] = on; fixed[r][c] = true; };

  for (const [r0, c0] of [[0, 0], [0, size - 7], [size - 7, 0]]) {
    for (let r = -1; r <= 7; r++) for (let c = -1; c <= 7; c++) {
      const rr = r0 + r, cc = c0 + c;
      if (rr < 0 || cc < 0 || rr >= size || cc >= size) continue;
      const ring = Math.max(Math.abs(r - 3), Math.abs(c - 3));
      set(rr, cc, r >= 0 && r <= 6 && c >= 0 && c <= 6 && ring !== 2);
    }
  }
  for (let i = 8; i < size - 8; i++) {
    set(6, i, i % 2 === 0);
    set(i, 6, i % 2 === 0);
  }
  const centers = ALIGNMENT[version] ?? [];
  const last = centers.length - 1;
  centers.forEach((r, i) => centers.forEach((c, j) => {
    // Not where a finder pattern sits (three corners); over the timing lines, yes.
    if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
    for (let dr = -2; dr <= 2; dr++) for (let dc = -2; dc <= 2; dc++) set(r + dr, c + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
  }));
  set(size - 8, 8, true);
  // Format information (level M = 00), in both places.
  const format = (bch((0b00 << 3) | maskIndex, 0x537, 11) | (((0b00 << 3) | maskIndex) << 10)) ^ 0x5412;
  for (let i = 0; i < 15; i++) {
    const bit = ((format >>> i) & 1) === 1;
    if (i < 6) set(i, 8, bit); else if (i < 8) set(i + 1, 8, bit); else set(size - 15 + i, 8, bit);
    if (i < 8) set(8, size - i - 1, bit); else if (i < 9) set(8, 15 - i, bit); else set(8, 14 - i, bit);
  }
  if (version >= 7) {
    const info = bch(version, 0x1f25, 13) | (version << 12);
    for (let i = 0; i < 18; i++) {
      const bit = ((info >>> i) & 1) === 1;
      set(Math.floor(i / 3), size - 11 + (i % 3), bit);
      set(size - 11 + (i % 3), Math.floor(i / 3), bit);
    }
  }
  // Data, in two-column strips from the bottom right, up and down in turn.
  const mask = MASKS[maskIndex];
  let bit = 0;
  const total = words.length * 8;
  for (let right = size - 1, upward = true; right > 0; right -= 2, upward = !upward) {
    if (right === 6) right = 5;
    for (let i = 0; i < size; i++) {
      const r = upward ? size - 1 - i : i;
      for (const c of [right, right - 1]) {
        if (fixed[r][c]) continue;
        const on = bit < total && ((words[bit >>> 3] >>> (7 - (bit & 7))) & 1) === 1;
        bit++;
        dark[r][c] = on !== mask(r, c);
      }
    }
  }
  return dark;
}

/**
 * The standard's four penalties: runs, 2x2 blocks, finder-like patterns, dark balance.
 * @param {boolean[][]} m
 */
function penalty(m) {
  const n = m.length;
  let score = 0;
  /** @type {((i: number, j: number) => boolean)[]} */
  const lines = [(i, j) => m[i][j], (i, j) => m[j][i]];
  for (const line of lines) {
    for (let i = 0; i < n; i++) {
      let run = 1;
      for (let j = 1; j < n; j++) {
        if (line(i, j) === line(i, j - 1)) {
          run++;
          if (run === 5) score += 3; else if (run > 5) score += 1;
        } else run = 1;
      }
      for (let j = 0; j + 10 < n; j++) {
        const s = Array.from({ length: 11 }, (_, k) => (line(i, j + k) ? 1 : 0)).join("");
        if (s === "10111010000" || s === "00001011101") score += 40;
      }
    }
  }
  for (let i = 0; i + 1 < n; i++) for (let j = 0; j + 1 < n; j++) {
    const v = m[i][j];
    if (v === m[i + 1][j] && v === m[i][j + 1] && v === m[i + 1][j + 1]) score += 3;
  }
  const darkCount = m.flat().filter(Boolean).length;
  score += Math.floor(Math.abs((darkCount * 100) / (n * n) - 50) / 5) * 10;
  return score;
}

/**
 * The modules of the QR code of `text` (true is dark), with the mask of least penalty.
 * @param {string} text
 * @returns {boolean[][]}
 */
export function qrMatrix(text) {
  const bytes = Array.from(new TextEncoder().encode(text));
  let version = 1;
  const eci = bytes.some((b) => b > 0x7f) ? 12 : 0;
  while (version <= 10 && eci + 4 + (version < 10 ? 8 : 16) + 8 * bytes.length > dataCapacity(version) * 8) version++;
  if (version > 10) throw new Error("Too long for a QR code here.");
  const words = codewords(bytes, version);
  let best = { m: build(version, words, 0), p: 0 };
  best.p = penalty(best.m);
  for (let mask = 1; mask < 8; mask++) {
    const m = build(version, words, mask);
    const p = penalty(m);
    if (p < best.p) best = { m, p };
  }
  return best.m;
}

/**
 * The QR code of `text` as an SVG element, with its quiet zone.
 * @param {string} text
 * @param {{label?: string}} options what a screen reader says of it
 */
export function qrSVG(text, { label = "QR code" } = {}) {
  const m = qrMatrix(text);
  const quiet = 4;
  const size = m.length + 2 * quiet;
  let path = "";
  m.forEach((row, r) => row.forEach((on, c) => { if (on) path += `M${c + quiet} ${r + quiet}h1v1h-1z`; }));
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("class", "qr");
  const background = document.createElementNS(ns, "rect");
  background.setAttribute("width", String(size));
  background.setAttribute("height", String(size));
  background.setAttribute("fill", "#fff");
  const modules = document.createElementNS(ns, "path");
  modules.setAttribute("d", path);
  modules.setAttribute("fill", "#000");
  svg.append(background, modules);
  return svg;
}
