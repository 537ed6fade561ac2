// The heart-rate chart: zone bands behind, phase boundaries as lines, the heart rate over
// them; drawn on a canvas as the workout runs and on the summary.
import { clock } from "./runbeat-timeline.js";

const ZONE_COLOURS = ["#7fb3d5", "#76d7c4", "#f7dc6f", "#f0b27a", "#ec7063"];

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{samples: {t: number, bpm: number}[], zones: {zone: number, low: number, high: number}[], phases: {start: number, kind: string}[], span: number, now?: number}} data
 */
export function drawChart(canvas, { samples, zones, phases, span, now = undefined }) {
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const width = canvas.width;
  const height = canvas.height;
  const left = 40;
  const bottom = 20;
  const plotWidth = width - left - 8;
  const plotHeight = height - bottom - 8;
  const lowest = Math.min(zones[0]?.low ?? 100, ...samples.map((s) => s.bpm)) - 10;
  const highest = Math.max(zones[zones.length - 1]?.high ?? 190, ...samples.map((s) => s.bpm)) + 5;
  const x = (t) => left + (Math.max(0, t) / Math.max(span, 1)) * plotWidth;
  const y = (bpm) => 8 + plotHeight - ((bpm - lowest) / (highest - lowest)) * plotHeight;
  ctx.clearRect(0, 0, width, height);
  ctx.font = "12px system-ui, sans-serif";
  zones.forEach((zone, i) => {
    ctx.fillStyle = ZONE_COLOURS[i] + "55";
    const top = y(i === zones.length - 1 ? highest : zone.high);
    ctx.fillRect(left, top, plotWidth, y(zone.low) - top);
    ctx.fillStyle = "#555";
    ctx.fillText(`Z${zone.zone}`, 4, (top + y(zone.low)) / 2 + 4);
  });
  ctx.strokeStyle = "#333";
  ctx.setLineDash([4, 4]);
  for (const phase of phases) {
    if (phase.start <= 0 || phase.start > span) continue;
    ctx.beginPath();
    ctx.moveTo(x(phase.start), 8);
    ctx.lineTo(x(phase.start), 8 + plotHeight);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.fillStyle = "#555";
  for (let i = 0; i <= 4; i++) ctx.fillText(clock((span * i) / 4), left + (plotWidth * i) / 4 - (i === 4 ? 30 : 0), height - 4);
  if (now !== undefined) {
    ctx.strokeStyle = "#999";
    ctx.beginPath();
    ctx.moveTo(x(now), 8);
    ctx.lineTo(x(now), 8 + plotHeight);
    ctx.stroke();
  }
  ctx.strokeStyle = "#c0392b";
  ctx.lineWidth = 2;
  ctx.beginPath();
  samples.forEach((s, i) => (i === 0 ? ctx.moveTo(x(s.t), y(s.bpm)) : ctx.lineTo(x(s.t), y(s.bpm))));
  ctx.stroke();
  ctx.lineWidth = 1;
}
