/**
 * The shipped injection classifier: logistic regression over the hashed features of
 * injection-features.ts, trained by scripts/train-injection-classifier.mjs on
 * datasets/guard/injection-train.jsonl (docs/guardrails.md says how to retrain). The weights are
 * int8-quantised and base64-encoded in src/guard/models/injection-classifier.json; nothing is
 * downloaded.
 */
import model from '../models/injection-classifier.json' with { type: 'json' };
import { extractFeatures, FEATURE_BITS } from './injection-features.js';

export interface ClassifierModel {
  format: 'warden-hashed-logreg-v1';
  featureBits: number;
  bias: number;
  /** Weight of bucket i = int8[i] × scale. */
  scale: number;
  weights: string;
  trainedOn: { file: string; items: number; sha256: string };
}

export interface LoadedClassifier {
  bias: number;
  weights: Float32Array;
  meta: ClassifierModel['trainedOn'];
}

export function loadClassifier(m: ClassifierModel): LoadedClassifier {
  if (m.format !== 'warden-hashed-logreg-v1' || m.featureBits !== FEATURE_BITS) {
    throw new Error(`injection classifier: expected warden-hashed-logreg-v1 with ${FEATURE_BITS} feature bits`);
  }
  const bytes = Buffer.from(m.weights, 'base64');
  if (bytes.length !== 1 << FEATURE_BITS) throw new Error('injection classifier: weight table has the wrong size');
  const q = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float32Array(q.length);
  for (let i = 0; i < q.length; i += 1) weights[i] = (q[i] as number) * m.scale;
  return { bias: m.bias, weights, meta: m.trainedOn };
}

let shipped: LoadedClassifier | undefined;
/** The classifier in the repository, decoded once on first use. */
export function shippedClassifier(): LoadedClassifier {
  shipped ??= loadClassifier(model as ClassifierModel);
  return shipped;
}

/** P(attack) for a normalised text (its first FEATURE_MAX_CHARS characters). */
export function classify(normalized: string, classifier: LoadedClassifier = shippedClassifier()): number {
  const features = extractFeatures(normalized);
  if (features.length === 0) return 1 / (1 + Math.exp(-classifier.bias));
  let z = 0;
  for (let i = 0; i < features.length; i += 1) z += classifier.weights[features[i] as number] as number;
  z = classifier.bias + z / Math.sqrt(features.length);
  return 1 / (1 + Math.exp(-z));
}
