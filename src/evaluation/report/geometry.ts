/**
 * Chart geometry shared by the HTML (SVG) and PDF (pdfkit) reports, so both draw the same
 * charts: scales, ticks, bar and whisker positions. Coordinates are relative to the chart's
 * top-left corner with y pointing down, as in both SVG and PDFKit; units are the renderer's
 * (SVG user units, PDF points). Sizes of gutters follow the font size, which the caller gives.
 */
import type { ScoreWithInterval } from '../types.js';
import { clamp01, formatPercent, truncate } from './text.js';

export type BarStatus = 'meets' | 'below';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Tick {
  value: number;
  /** Position along the score axis (y for the pillar chart, x for the harness chart). */
  at: number;
  label: string;
}

export const SCORE_TICKS = [0, 0.25, 0.5, 0.75, 1] as const;

/** A linear map of 0..1 onto [from, to] (values outside 0..1 are clamped). */
export function scoreScale(from: number, to: number): (value: number) => number {
  return (value) => from + clamp01(value) * (to - from);
}

/**
 * Whether a score reaches the threshold. A mean of shares carries floating-point noise (the mean
 * of 0.75 and 0.65 is 0.6999999999999998), so a shortfall under 1e-9 counts as reaching it; any
 * real shortfall (0.6999 against 0.70) does not.
 */
export function meetsThreshold(score: number, threshold: number): boolean {
  return score >= threshold - 1e-9;
}

export function barStatus(score: number, threshold: number): BarStatus {
  return meetsThreshold(score, threshold) ? 'meets' : 'below';
}

/** `text` shortened to fit `width` at `fontSize`. */
export function fitLabel(text: string, width: number, fontSize: number): string {
  return truncate(text, Math.max(3, Math.floor(width / (fontSize * 0.56))));
}

// ---- Pillar chart: vertical bars with error bars ----

export interface PillarColumn<K extends string = string> {
  key: K;
  label: string;
  centerX: number;
  /** Null when the pillar was not measured. */
  bar: { x: number; y: number; width: number; height: number; status: BarStatus } | null;
  whisker: { x: number; top: number; bottom: number; capHalfWidth: number } | null;
  score: ScoreWithInterval | null;
}

export interface PillarChartLayout<K extends string = string> {
  width: number;
  height: number;
  plot: Box;
  ticks: Tick[];
  thresholdY: number;
  columns: Array<PillarColumn<K>>;
}

export function layoutPillarChart<K extends string>(
  entries: ReadonlyArray<{ key: K; label: string; score: ScoreWithInterval | null }>,
  threshold: number,
  size: { width: number; height: number; fontSize: number },
): PillarChartLayout<K> {
  const { width, height, fontSize } = size;
  const plot: Box = { left: fontSize * 4, top: fontSize * 2.2, right: width - fontSize * 7.5, bottom: height - fontSize * 2.6 };
  const y = scoreScale(plot.bottom, plot.top);
  const band = (plot.right - plot.left) / Math.max(1, entries.length);
  const barWidth = Math.min(band * 0.45, fontSize * 7);
  const columns = entries.map((entry, i) => {
    const centerX = plot.left + band * (i + 0.5);
    const score = entry.score !== null && entry.score.n > 0 ? entry.score : null;
    if (score === null) return { key: entry.key, label: entry.label, centerX, bar: null, whisker: null, score: null };
    const top = y(score.score);
    return {
      key: entry.key,
      label: entry.label,
      centerX,
      bar: { x: centerX - barWidth / 2, y: top, width: barWidth, height: plot.bottom - top, status: barStatus(score.score, threshold) },
      whisker: { x: centerX, top: y(score.high), bottom: y(score.low), capHalfWidth: barWidth * 0.18 },
      score,
    };
  });
  return {
    width,
    height,
    plot,
    ticks: SCORE_TICKS.map((value) => ({ value, at: y(value), label: formatPercent(value).replace('.0', '') })),
    thresholdY: y(threshold),
    columns,
  };
}

// ---- Harness chart: horizontal bars with interval whiskers and the threshold line ----

export interface HarnessRow {
  id: string;
  /** The name as it fits the label column (the full name is given beside it by the renderer). */
  label: string;
  name: string;
  top: number;
  centerY: number;
  /** The track the bar runs in (the full 0..1 width). */
  track: { x: number; y: number; width: number; height: number };
  /** Null (as the whisker) when the harness scored no prompt (n = 0): it was not measured. */
  bar: { x: number; y: number; width: number; height: number; status: BarStatus } | null;
  whisker: { low: number; high: number; capHalfHeight: number } | null;
  valueX: number;
  /** Null when not measured. */
  score: ScoreWithInterval | null;
}

export interface HarnessChartLayout {
  width: number;
  height: number;
  plot: Box;
  ticks: Tick[];
  thresholdX: number;
  rows: HarnessRow[];
}

export function layoutHarnessChart(
  harnesses: ReadonlyArray<{ id: string; name: string; score: ScoreWithInterval }>,
  threshold: number,
  size: { width: number; fontSize: number },
): HarnessChartLayout {
  const { width, fontSize } = size;
  const rowHeight = fontSize * 2.5;
  const labelWidth = Math.min(width * 0.26, fontSize * 14);
  const top = fontSize * 2;
  const plot: Box = { left: labelWidth, top, right: width - fontSize * 12, bottom: top + rowHeight * harnesses.length };
  const x = scoreScale(plot.left, plot.right);
  const barHeight = rowHeight * 0.52;
  const rows = harnesses.map((harness, i) => {
    const rowTop = plot.top + i * rowHeight;
    const centerY = rowTop + rowHeight / 2;
    const score = harness.score.n > 0 ? harness.score : null;
    const barY = centerY - barHeight / 2;
    return {
      id: harness.id,
      name: harness.name,
      label: fitLabel(harness.name, labelWidth - fontSize, fontSize),
      top: rowTop,
      centerY,
      track: { x: plot.left, y: barY, width: plot.right - plot.left, height: barHeight },
      bar: score && { x: plot.left, y: barY, width: x(score.score) - plot.left, height: barHeight, status: barStatus(score.score, threshold) },
      whisker: score && { low: x(score.low), high: x(score.high), capHalfHeight: barHeight * 0.38 },
      valueX: plot.right + fontSize * 0.8,
      score,
    };
  });
  return {
    width,
    height: plot.bottom + fontSize * 2.2,
    plot,
    ticks: SCORE_TICKS.map((value) => ({ value, at: x(value), label: formatPercent(value).replace('.0', '') })),
    thresholdX: x(threshold),
    rows,
  };
}
