// The heart-rate chart: zone bands behind, phase boundaries as lines, the heart rate over
// them; drawn on a canvas as the workout runs and on the summary. The canvas is drawn at the
// size it is shown (times the screen's pixel ratio), so its words are 12 CSS px on a phone
// as on a desktop, never a 900 px drawing shrunk to a third; dark, like the rest of Juke.
import { formatTime } from "/static/js/api.js";

const ZONE_COLOURS = ["#7fb3d5", "#76d7c4", "#f7dc6f", "#f0b27a", "#ec7063"];
/** CSS px: the chart's words (at least 11 on a phone, for the runner's glance). */
export const LABEL_PX = 12;
const INK = "#9aa6b2";  // --muted: 5.6:1 on the darkest surfaces
const LINE = "#ff7a45";  // RunBeat's accent as ink on dark
const GRID = "#3a4350";

/**
 * Sizes the canvas's drawing to its shown size; returns the CSS size drawn in.
 * @param {HTMLCanvasElement} canvas
 */
function fit(canvas) {
  const ratio = globalThis.devicePixelRatio || 1;
  // A hidden canvas has no size: it keeps the one its attributes give.
  const width = canvas.clientWidth || canvas.width / ratio;
  const height = canvas.clientHeight || canvas.height / ratio;
  const w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  return { width: canvas.width / ratio, height: canvas.height / ratio, ratio };
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{samples: {t: number, bpm: number}[], zones: {zone: number, low: number, high: number}[], phases: {start: number, kind: string}[], span: number, now?: number}} data
 */
export function drawChart(canvas, { samples, zones, phases, span, now = undefined }) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const { width, height, ratio } = fit(canvas);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const left = 34;
  const top = 6;
  const bottom = LABEL_PX + 10;
  const plotWidth = width - left - 8;
  const plotHeight = height - bottom - top;
  const lowest = Math.min(zones[0]?.low ?? 100, ...samples.map((s) => s.bpm)) - 10;
  const highest = Math.max(zones[zones.length - 1]?.high ?? 190, ...samples.map((s) => s.bpm)) + 5;
  const x = (/** @type {number} */ t) => left + (Math.max(0, t) / Math.max(span, 1)) * plotWidth;
  const y = (/** @type {number} */ bpm) => top + plotHeight - ((bpm - lowest) / (highest - lowest)) * plotHeight;
  ctx.clearRect(0, 0, width, height);
  ctx.font = `${LABEL_PX}px system-ui, sans-serif`;
  ctx.textBaseline = "middle";
  zones.forEach((zone, i) => {
    const upper = y(i === zones.length - 1 ? highest : zone.high);
    ctx.fillStyle = ZONE_COLOURS[i] + "33";
    ctx.fillRect(left, upper, plotWidth, y(zone.low) - upper);
    ctx.fillStyle = ZONE_COLOURS[i];
    ctx.fillRect(left - 4, upper, 3, y(zone.low) - upper);
    ctx.fillStyle = INK;
    ctx.fillText(`Z${zone.zone}`, 4, (upper + y(zone.low)) / 2);
  });
  ctx.strokeStyle = GRID;
  ctx.setLineDash([4, 4]);
  for (const phase of phases) {
    if (phase.start <= 0 || phase.start > span) continue;
    ctx.beginPath();
    ctx.moveTo(x(phase.start), top);
    ctx.lineTo(x(phase.start), top + plotHeight);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.fillStyle = INK;
  ctx.textBaseline = "alphabetic";
  // As many time marks as fit: one every 70 CSS px at most.
  const marks = Math.max(1, Math.min(4, Math.floor(plotWidth / 70)));
  for (let i = 0; i <= marks; i++) {
    const text = formatTime((span * i) / marks);
    const at = left + (plotWidth * i) / marks;
    ctx.textAlign = i === 0 ? "left" : i === marks ? "right" : "center";
    ctx.fillText(text, at, height - 3);
  }
  ctx.textAlign = "left";
  if (now !== undefined) {
    ctx.strokeStyle = "#e8ecf1";
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    ctx.moveTo(x(now), top);
    ctx.lineTo(x(now), top + plotHeight);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = LINE;
  ctx.lineWidth = 2.5;
  ctx.lineJoin = "round";
  ctx.beginPath();
  samples.forEach((s, i) => (i === 0 ? ctx.moveTo(x(s.t), y(s.bpm)) : ctx.lineTo(x(s.t), y(s.bpm))));
  ctx.stroke();
  ctx.lineWidth = 1;
}
