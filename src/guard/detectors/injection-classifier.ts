/**
 * The shipped injection classifier: logistic regression over the hashed features of
 * injection-features.ts, trained by scripts/train-injection-classifier.mjs on the committed data sets
 * (datasets/README.md; docs/guardrails.md says how to retrain). The weights are int8-quantised and
 * base64-encoded in src/guard/models/injection-classifier.json; nothing is downloaded.
 *
 * A text up to SINGLE_SEGMENT_MAX characters is judged whole. A longer one is cut into segments
 * (segmentBounds), each judged with its document's context (documentContext), and the highest margin
 * is calibrated together with the number of segments read (injection-calibration.ts), so a long benign
 * document does not collect false positives from its many segments. The probability is calibrated on
 * a held-out split: a score of 0.9 means about nine in ten such texts were attacks.
 */
import model from '../models/injection-classifier.json' with { type: 'json' };
import { calibrate, type Calibration } from './injection-calibration.js';
import { documentContext, extractFeatures, FEATURE_BITS, segmentBounds } from './injection-features.js';

export interface ClassifierModel {
  format: 'warden-hashed-logreg-v2';
  featureBits: number;
  bias: number;
  /** Weight of bucket i = int8[i] × scale. */
  scale: number;
  weights: string;
  calibration: Calibration;
  /** Threshold on the calibrated probability chosen from the development curve (docs/guardrails.md). */
  threshold: number;
  trainedOn: { files: Array<{ file: string; items: number }>; items: number; sha256: string };
}

export interface LoadedClassifier {
  bias: number;
  weights: Float32Array;
  calibration: Calibration;
  threshold: number;
  meta: ClassifierModel['trainedOn'];
}

export function loadClassifier(m: ClassifierModel): LoadedClassifier {
  if (m.format !== 'warden-hashed-logreg-v2' || m.featureBits !== FEATURE_BITS) {
    throw new Error(`injection classifier: expected warden-hashed-logreg-v2 with ${FEATURE_BITS} feature bits`);
  }
  const bytes = Buffer.from(m.weights, 'base64');
  if (bytes.length !== 1 << FEATURE_BITS) throw new Error('injection classifier: weight table has the wrong size');
  const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float32Array(q.length);
  for (let i = 0; i < q.length; i += 1) weights[i] = (q[i] as number) * m.scale;
  return { bias: m.bias, weights, calibration: m.calibration, threshold: m.threshold, meta: m.trainedOn };
}

let shipped: LoadedClassifier | undefined;
/** The classifier in the repository, decoded once on first use. */
export function shippedClassifier(): LoadedClassifier {
  shipped ??= loadClassifier(model as ClassifierModel);
  return shipped;
}

/** Raw margin (log-odds before calibration) of one segment's features. */
export function margin(features: Uint32Array, classifier: LoadedClassifier): number {
  if (features.length === 0) return classifier.bias;
  let z = 0;
  for (let i = 0; i < features.length; i += 1) z += classifier.weights[features[i] as number] as number;
  return classifier.bias + z / Math.sqrt(features.length);
}

/** Texts with fewer word tokens than this carry no instruction to judge (greetings, "yes", "continue"). */
export const MIN_WORDS = 3;
const WORD = /[\p{L}\p{N}]+/gu;
function hasWords(text: string, n: number): boolean {
  WORD.lastIndex = 0;
  let count = 0;
  while (WORD.exec(text) !== null) if (++count >= n) return true;
  return false;
}

export interface Classification {
  /** Calibrated P(attack). */
  probability: number;
  /** Segments read, and the [start, end) of the highest-scoring one in the normalised text. */
  segments: number;
  segment: [number, number];
}

/** Calibrated P(attack) of a normalised text, read whole or in segments, with the deciding segment. */
export function classifyDetailed(normalized: string, classifier: LoadedClassifier = shippedClassifier()): Classification {
  if (!hasWords(normalized, MIN_WORDS)) return { probability: 0, segments: 1, segment: [0, normalized.length] };
  const bounds = segmentBounds(normalized);
  if (bounds.length === 1) {
    const z = margin(extractFeatures(normalized), classifier);
    return { probability: calibrate(classifier.calibration, z, 1), segments: 1, segment: [0, normalized.length] };
  }
  const context = documentContext(normalized);
  let best = -Infinity;
  let at = bounds[0] as [number, number];
  for (const b of bounds) {
    const z = margin(extractFeatures(normalized.slice(b[0], b[1]), context), classifier);
    if (z > best) {
      best = z;
      at = b;
    }
  }
  return { probability: calibrate(classifier.calibration, best, bounds.length), segments: bounds.length, segment: at };
}

/** Calibrated P(attack) of a normalised text. */
export function classify(normalized: string, classifier: LoadedClassifier = shippedClassifier()): number {
  return classifyDetailed(normalized, classifier).probability;
}
