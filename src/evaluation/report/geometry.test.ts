import { describe, expect, it } from 'vitest';
import { fixedScore } from '../../../test/helpers/evaluation-report-fixture.js';
import { barStatus, fitLabel, layoutHarnessChart, layoutPillarChart, scoreScale } from './geometry.js';

describe('scoreScale', () => {
  it('maps 0..1 linearly and clamps what lies outside', () => {
    const y = scoreScale(200, 0);
    expect(y(0)).toBe(200);
    expect(y(0.5)).toBe(100);
    expect(y(1)).toBe(0);
    expect(y(1.5)).toBe(0);
    expect(y(-1)).toBe(200);
  });
});

describe('layoutPillarChart', () => {
  const entries = [
    { key: 'reliability', label: 'Reliability', score: fixedScore(0.5, 40) },
    { key: 'security', label: 'Security', score: null },
    { key: 'safety', label: 'Safety', score: fixedScore(0.9, 40) },
  ];
  const layout = layoutPillarChart(entries, 0.7, { width: 600, height: 300, fontSize: 10 });

  it('gives a measured pillar a bar from the axis to its score, and its whisker the interval', () => {
    const { plot } = layout;
    const [reliability, security, safety] = layout.columns;
    const y = scoreScale(plot.bottom, plot.top);
    expect(reliability?.bar).toMatchObject({ y: y(0.5), height: plot.bottom - y(0.5), status: 'below' });
    expect(safety?.bar?.status).toBe('meets');
    expect(reliability?.whisker?.top).toBeCloseTo(y(fixedScore(0.5, 40).high));
    expect(reliability?.whisker?.bottom).toBeCloseTo(y(fixedScore(0.5, 40).low));
    expect(security?.bar).toBeNull();
    expect(security?.whisker).toBeNull();
  });

  it('puts the threshold line at its value and spaces the columns evenly inside the plot', () => {
    const { plot, columns } = layout;
    expect(layout.thresholdY).toBeCloseTo(plot.bottom - 0.7 * (plot.bottom - plot.top));
    const centres = columns.map((c) => c.centerX);
    expect((centres[1] ?? 0) - (centres[0] ?? 0)).toBeCloseTo((centres[2] ?? 0) - (centres[1] ?? 0));
    for (const column of columns) {
      if (column.bar === null) continue;
      expect(column.bar.x).toBeGreaterThanOrEqual(plot.left);
      expect(column.bar.x + column.bar.width).toBeLessThanOrEqual(plot.right);
    }
    expect(layout.ticks.map((t) => t.label)).toEqual(['0\u00a0%', '25\u00a0%', '50\u00a0%', '75\u00a0%', '100\u00a0%']);
  });
});

describe('layoutHarnessChart', () => {
  it('lays one row per harness, bars from the axis to the score, and grows with the rows', () => {
    const harnesses = [
      { id: 'a', name: 'A harness with a name far too long to fit the label column', score: fixedScore(0.25) },
      { id: 'b', name: 'B', score: fixedScore(1) },
    ];
    const layout = layoutHarnessChart(harnesses, 0.7, { width: 500, fontSize: 8 });
    const x = scoreScale(layout.plot.left, layout.plot.right);
    expect(layout.rows).toHaveLength(2);
    expect(layout.rows[0]?.bar).toMatchObject({ x: layout.plot.left, width: x(0.25) - layout.plot.left, status: 'below' });
    expect(layout.rows[1]?.bar?.width).toBeCloseTo(layout.plot.right - layout.plot.left);
    expect(layout.rows[0]?.label.endsWith('…')).toBe(true);
    expect(layout.thresholdX).toBeCloseTo(x(0.7));
    const three = layoutHarnessChart([...harnesses, { id: 'c', name: 'C', score: fixedScore(0.5) }], 0.7, { width: 500, fontSize: 8 });
    expect(three.height).toBeGreaterThan(layout.height);
    expect(layoutHarnessChart([], 0.7, { width: 500, fontSize: 8 }).rows).toEqual([]);
  });

  it('leaves a harness that scored no prompt without bar or whisker', () => {
    const [row] = layoutHarnessChart([{ id: 'x', name: 'X', score: { score: 0, n: 0, low: 0, high: 1 } }], 0.7, { width: 500, fontSize: 8 }).rows;
    expect(row?.bar).toBeNull();
    expect(row?.whisker).toBeNull();
    expect(row?.score).toBeNull();
    expect(row?.track.width).toBeGreaterThan(0);
  });
});

describe('helpers', () => {
  it('barStatus follows the threshold rule', () => {
    expect(barStatus(0.7, 0.7)).toBe('meets');
    expect(barStatus(0.6999, 0.7)).toBe('below');
  });

  it('fitLabel shortens only what does not fit', () => {
    expect(fitLabel('Safety', 100, 10)).toBe('Safety');
    expect(Array.from(fitLabel('x'.repeat(100), 100, 10)).length).toBeLessThanOrEqual(17);
  });
});
