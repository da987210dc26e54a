/**
 * Calibration of the injection classifier: a logistic (Platt) map from the classifier's raw margin
 * and the number of segments read to a probability, fitted on a held-out calibration split by
 * scripts/train-injection-classifier.mjs, and the reliability table the guard bench prints. Pure
 * functions, shared by training, inference and the bench.
 */

export interface Calibration {
  /** p = sigmoid(a · margin + b + c · ln(segments)). */
  a: number;
  b: number;
  c: number;
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function calibrate(cal: Calibration, margin: number, segments: number): number {
  return sigmoid(cal.a * margin + cal.b + cal.c * Math.log(Math.max(1, segments)));
}

export interface CalibrationPoint {
  margin: number;
  segments: number;
  /** 1 for an attack, 0 for benign. */
  y: 0 | 1;
}

/**
 * Fits a, b, c by Newton's method on the log-loss, with Platt's smoothed targets
 * ((n₊ + 1) / (n₊ + 2) and 1 / (n₋ + 2)) so a separable split does not drive the slope to infinity.
 * Deterministic.
 */
export function fitCalibration(points: readonly CalibrationPoint[], iterations = 60): Calibration {
  const free = fitLogistic(points, iterations, true);
  // More segments can only add chances for a benign document's maximum to be high: a positive c would
  // reward length itself (an artefact of a split where long texts are mostly attacks), so c ≤ 0.
  return free.c <= 0 ? free : fitLogistic(points, iterations, false);
}

function fitLogistic(points: readonly CalibrationPoint[], iterations: number, withSegments: boolean): Calibration {
  const pos = points.filter((p) => p.y === 1).length;
  const neg = points.length - pos;
  if (pos === 0 || neg === 0) throw new Error('calibration needs both attacks and benign items');
  const hi = (pos + 1) / (pos + 2);
  const lo = 1 / (neg + 2);
  let w = [1, 0, 0];
  const xs = points.map((p) => [p.margin, 1, withSegments ? Math.log(Math.max(1, p.segments)) : 0] as const);
  const ts = points.map((p) => (p.y === 1 ? hi : lo));
  const ridge = 1e-6;
  for (let it = 0; it < iterations; it += 1) {
    const g = [0, 0, 0];
    const h = [[ridge, 0, 0], [0, ridge, 0], [0, 0, withSegments ? ridge : 1]];
    for (let i = 0; i < xs.length; i += 1) {
      const x = xs[i] as readonly [number, number, number];
      const p = sigmoid(w[0]! * x[0] + w[1]! * x[1] + w[2]! * x[2]);
      const d = p - (ts[i] as number);
      const s = p * (1 - p);
      for (let j = 0; j < 3; j += 1) {
        g[j]! += d * x[j]!;
        for (let k = 0; k < 3; k += 1) h[j]![k]! += s * x[j]! * x[k]!;
      }
    }
    const step = solve3(h, g);
    // Damped Newton: halve the step until the loss does not grow.
    const before = logLoss(xs, ts, w);
    let t = 1;
    let next = w.map((v, j) => v - step[j]!);
    while (logLoss(xs, ts, next) > before && t > 1e-6) {
      t /= 2;
      next = w.map((v, j) => v - t * step[j]!);
    }
    w = next;
    if (Math.max(...step.map((v) => Math.abs(v * t))) < 1e-9) break;
  }
  return { a: w[0]!, b: w[1]!, c: w[2]! };
}

function logLoss(xs: ReadonlyArray<readonly [number, number, number]>, ts: readonly number[], w: readonly number[]): number {
  let loss = 0;
  for (let i = 0; i < xs.length; i += 1) {
    const x = xs[i]!;
    const z = w[0]! * x[0] + w[1]! * x[1] + w[2]! * x[2];
    const t = ts[i]!;
    // log(1 + e^z) - t·z, computed without overflow.
    loss += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - t * z;
  }
  return loss;
}

/** Solves the 3×3 system h · x = g (Gaussian elimination with partial pivoting). */
function solve3(h: number[][], g: number[]): number[] {
  const m = h.map((row, i) => [...row, g[i]!]);
  for (let col = 0; col < 3; col += 1) {
    let pivot = col;
    for (let r = col + 1; r < 3; r += 1) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const d = m[col]![col]!;
    if (Math.abs(d) < 1e-300) return [0, 0, 0];
    for (let r = 0; r < 3; r += 1) {
      if (r === col) continue;
      const f = m[r]![col]! / d;
      for (let k = col; k < 4; k += 1) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return [0, 1, 2].map((i) => m[i]![3]! / m[i]![i]!);
}

export interface ReliabilityBin {
  /** Bin [from, to) of predicted probability. */
  from: number;
  to: number;
  items: number;
  meanPredicted: number;
  /** Share of attacks among the items of the bin (precision of a detection in that bin). */
  observed: number;
}

/** Reliability table: predicted probability against the observed share of attacks, in equal-width bins. */
export function reliabilityTable(predicted: readonly number[], labels: readonly (0 | 1)[], bins = 10): ReliabilityBin[] {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({ from: i / bins, to: (i + 1) / bins, items: 0, meanPredicted: 0, observed: 0 }));
  predicted.forEach((p, i) => {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(p * bins)))]!;
    b.items += 1;
    b.meanPredicted += p;
    b.observed += labels[i]!;
  });
  for (const b of out) {
    if (b.items > 0) {
      b.meanPredicted /= b.items;
      b.observed /= b.items;
    }
  }
  return out;
}

/** Expected calibration error: the items-weighted mean gap between predicted and observed. */
export function expectedCalibrationError(table: readonly ReliabilityBin[]): number {
  const n = table.reduce((s, b) => s + b.items, 0);
  return n === 0 ? 0 : table.reduce((s, b) => s + (b.items * Math.abs(b.meanPredicted - b.observed)) / n, 0);
}
