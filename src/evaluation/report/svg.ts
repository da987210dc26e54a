/**
 * The HTML report's charts as inline SVG, drawn from the shared geometry. Every model string
 * that reaches the markup goes through escapeHtml; each chart has a <title> and a <desc> that
 * say in words what the bars show, and below-threshold bars are hatched as well as coloured.
 */
import { thresholdLabel, type PillarEntry } from './content.js';
import { barStatus, layoutHarnessChart, layoutPillarChart, meetsThreshold, type BarStatus } from './geometry.js';
import { escapeHtml as esc, formatInterval, formatPercent, NBSP } from './text.js';
import type { EvaluationReportModel } from '../types.js';

const CHART_WIDTH = 760;
const FONT = 13;

const n = (value: number) => (Math.round(value * 100) / 100).toString();

function hatchDefs(id: string): string {
  return (
    `<defs><pattern id="${id}" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)">` +
    `<rect width="7" height="7" class="fill-below"/><line x1="0" y1="0" x2="0" y2="7" class="hatch-line"/></pattern></defs>`
  );
}

/** A whisker over a white halo, so it stays visible where it crosses a dark bar. */
const whiskerPaths = (d: string) => `<path class="whisker-halo" d="${d}"/><path class="whisker" d="${d}"/>`;

const barFill = (status: BarStatus, hatchId: string) => (status === 'meets' ? 'class="bar bar-meets"' : `class="bar bar-below" fill="url(#${hatchId})"`);

function describe(label: string, score: { score: number; n: number; low: number; high: number } | null, threshold: number): string {
  if (score === null || score.n === 0) return `${label}: not measured`;
  const relation = meetsThreshold(score.score, threshold) ? 'at or above' : 'below';
  return (
    `${label}: ${formatPercent(score.score)}, 95${NBSP}% interval ${formatInterval(score.low, score.high)}, ` +
    `n${NBSP}=${NBSP}${score.n}, ${relation} the threshold`
  );
}

export function pillarChartSvg(entries: PillarEntry[], threshold: number): string {
  const layout = layoutPillarChart(
    entries.map((e) => ({ key: e.pillar, label: e.label, score: e.score })),
    threshold,
    { width: CHART_WIDTH, height: 300, fontSize: FONT },
  );
  const { plot } = layout;
  const hatch = 'hatch-pillars';
  const parts: string[] = [];
  const desc =
    `${layout.columns.map((c) => describe(c.label, c.score, threshold)).join('; ')}. ` +
    `Error bars: Wilson 95${NBSP}% intervals. Dashed line: ${thresholdLabel(threshold)}.`;
  parts.push(
    `<svg class="chart" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-labelledby="pillars-title pillars-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="pillars-title">Pillar scores</title><desc id="pillars-desc">${esc(desc)}</desc>`,
    hatchDefs(hatch),
  );
  for (const tick of layout.ticks) {
    parts.push(
      `<line class="grid" x1="${n(plot.left)}" x2="${n(plot.right)}" y1="${n(tick.at)}" y2="${n(tick.at)}"/>`,
      `<text class="tick" x="${n(plot.left - 8)}" y="${n(tick.at)}" text-anchor="end" dominant-baseline="middle">${esc(tick.label)}</text>`,
    );
  }
  parts.push(`<line class="axis" x1="${n(plot.left)}" x2="${n(plot.right)}" y1="${n(plot.bottom)}" y2="${n(plot.bottom)}"/>`);
  for (const column of layout.columns) {
    const { bar, whisker, score } = column;
    if (bar === null || whisker === null || score === null) {
      parts.push(`<text class="muted" x="${n(column.centerX)}" y="${n(plot.bottom - FONT * 1.2)}" text-anchor="middle">not measured</text>`);
    } else {
      const c = whisker.capHalfWidth;
      parts.push(
        `<rect ${barFill(bar.status, hatch)} x="${n(bar.x)}" y="${n(bar.y)}" width="${n(bar.width)}" height="${n(Math.max(bar.height, 0.5))}">` +
          `<title>${esc(describe(column.label, score, threshold))}</title></rect>`,
        whiskerPaths(
          `M${n(whisker.x)} ${n(whisker.top)}V${n(whisker.bottom)}M${n(whisker.x - c)} ${n(whisker.top)}H${n(whisker.x + c)}` +
            `M${n(whisker.x - c)} ${n(whisker.bottom)}H${n(whisker.x + c)}`,
        ),
        `<text class="value" x="${n(column.centerX)}" y="${n(whisker.top - 7)}" text-anchor="middle">${esc(formatPercent(score.score))}</text>`,
      );
    }
    parts.push(`<text class="label" x="${n(column.centerX)}" y="${n(plot.bottom + FONT * 1.5)}" text-anchor="middle">${esc(column.label)}</text>`);
  }
  parts.push(
    `<line class="threshold" x1="${n(plot.left)}" x2="${n(plot.right)}" y1="${n(layout.thresholdY)}" y2="${n(layout.thresholdY)}"/>`,
    `<text class="threshold-label" x="${n(plot.right + 6)}" y="${n(layout.thresholdY)}" dominant-baseline="middle">${esc(thresholdLabel(threshold))}</text>`,
    '</svg>',
  );
  return parts.join('');
}

export function harnessChartSvg(model: EvaluationReportModel): string {
  const threshold = model.passThreshold;
  const layout = layoutHarnessChart(model.harnesses, threshold, { width: CHART_WIDTH, fontSize: FONT });
  const { plot } = layout;
  const hatch = 'hatch-harnesses';
  const desc =
    `${layout.rows.map((r) => describe(r.name, r.score, threshold)).join('; ')}. ` +
    `Whiskers: Wilson 95${NBSP}% intervals. Dashed line: ${thresholdLabel(threshold)}.`;
  const parts: string[] = [
    `<svg class="chart" viewBox="0 0 ${layout.width} ${n(layout.height)}" role="img" aria-labelledby="harnesses-title harnesses-desc" xmlns="http://www.w3.org/2000/svg">`,
    `<title id="harnesses-title">Harness scores</title><desc id="harnesses-desc">${esc(desc)}</desc>`,
    hatchDefs(hatch),
  ];
  for (const tick of layout.ticks) {
    parts.push(
      `<line class="grid" x1="${n(tick.at)}" x2="${n(tick.at)}" y1="${n(plot.top)}" y2="${n(plot.bottom)}"/>`,
      `<text class="tick" x="${n(tick.at)}" y="${n(plot.bottom + FONT * 1.4)}" text-anchor="middle">${esc(tick.label)}</text>`,
    );
  }
  for (const row of layout.rows) {
    const { bar, whisker, score, track } = row;
    parts.push(
      `<g class="harness-row">`,
      `<text class="label" x="${n(plot.left - 10)}" y="${n(row.centerY)}" text-anchor="end" dominant-baseline="middle">${esc(row.label)}<title>${esc(row.name)}</title></text>`,
      `<rect class="track" x="${n(track.x)}" y="${n(track.y)}" width="${n(track.width)}" height="${n(track.height)}"/>`,
    );
    if (bar === null || whisker === null || score === null) {
      parts.push(
        `<text class="muted" x="${n(plot.left + 8)}" y="${n(row.centerY)}" dominant-baseline="middle">not measured (no prompt scored)</text>`,
        `<text class="value" x="${n(row.valueX)}" y="${n(row.centerY)}" dominant-baseline="middle">—</text>`,
        '</g>',
      );
      continue;
    }
    const c = whisker.capHalfHeight;
    parts.push(
      `<rect ${barFill(bar.status, hatch)} data-chart="harness" x="${n(bar.x)}" y="${n(bar.y)}" ` +
        `width="${n(Math.max(bar.width, 0.5))}" height="${n(bar.height)}">` +
        `<title>${esc(describe(row.name, score, threshold))}</title></rect>`,
      whiskerPaths(
        `M${n(whisker.low)} ${n(row.centerY)}H${n(whisker.high)}M${n(whisker.low)} ${n(row.centerY - c)}V${n(row.centerY + c)}` +
          `M${n(whisker.high)} ${n(row.centerY - c)}V${n(row.centerY + c)}`,
      ),
      `<text class="value" x="${n(row.valueX)}" y="${n(row.centerY)}" dominant-baseline="middle">${esc(formatPercent(score.score))}` +
        `<tspan class="interval" dx="6">${esc(formatInterval(score.low, score.high))}</tspan></text>`,
      '</g>',
    );
  }
  parts.push(
    `<line class="axis" x1="${n(plot.left)}" x2="${n(plot.left)}" y1="${n(plot.top)}" y2="${n(plot.bottom)}"/>`,
    `<line class="threshold" x1="${n(layout.thresholdX)}" x2="${n(layout.thresholdX)}" y1="${n(plot.top - 4)}" y2="${n(plot.bottom)}"/>`,
    `<text class="threshold-label" x="${n(layout.thresholdX)}" y="${n(plot.top - 9)}" text-anchor="middle">${esc(thresholdLabel(threshold))}</text>`,
    '</svg>',
  );
  return parts.join('');
}

/** A small meter for a table row; decorative (the row states the numbers), hidden from screen readers. */
export function meterSvg(score: { score: number; low: number; high: number }, threshold: number): string {
  const w = 90;
  const h = 10;
  const x = (v: number) => n(Math.min(1, Math.max(0, v)) * w);
  const status = barStatus(score.score, threshold);
  return (
    `<svg class="meter" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" aria-hidden="true" focusable="false" xmlns="http://www.w3.org/2000/svg">` +
    `<rect class="track" width="${w}" height="${h}"/><rect class="bar-${status}" width="${x(score.score)}" height="${h}"/>` +
    `<path class="whisker" d="M${x(score.low)} ${h / 2}H${x(score.high)}"/>` +
    `<line class="threshold" x1="${x(threshold)}" x2="${x(threshold)}" y1="0" y2="${h}"/></svg>`
  );
}
