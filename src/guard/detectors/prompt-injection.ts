/**
 * `prompt-injection-warden`: prompt injections and jailbreaks, offline. Weighted rules over the
 * normalised text (injection-rules.ts) combined with a small logistic-regression classifier
 * trained on Warden's own data (injection-classifier.ts); encoded payloads are decoded
 * (decodeLayers) and judged like plain text, and string-splitting tricks are reassembled. A long
 * text is read whole, in overlapping windows that cover every character (linear time: the
 * length a scan may take is bounded by the `max-length` guard of the configuration). Dome's model-based security methods are served by this
 * detector under their own ids (SECURITY_ALIASES) so existing Dome configurations load unchanged.
 */
import { GuardConfigError, type DetectionResult, type DetectorDefinition } from '../types.js';
import { decodeLayers, type DecodedLayer } from './decode-layers.js';
import { classify } from './injection-classifier.js';
import { FEATURE_MAX_CHARS } from './injection-features.js';
import { matchRules, ruleScore, type RuleMatch } from './injection-rules.js';
import { normalizeForMatching } from './text-normalize.js';
import { reassembleSplitPayload } from './payload-splitting.js';

export const PROMPT_INJECTION_ID = 'prompt-injection-warden';
/** Tuned on Warden's own data (docs/guardrails.md, "Measured quality"). */
export const DEFAULT_SCORE_THRESHOLD = 0.4;

/**
 * Windowing: a text longer than one window is read as consecutive windows of WINDOW_CHARS that
 * overlap by WINDOW_OVERLAP (an injection shorter than the overlap lies whole inside one window).
 */
export const WINDOW_CHARS = FEATURE_MAX_CHARS;
export const WINDOW_OVERLAP = 1_000;

/**
 * Start offsets of windows of `size` characters, `overlap` apart, that together cover all of a
 * text of `length` characters: every character is read, none is skipped, and the count grows
 * linearly with the length (⌈(length − overlap) / (size − overlap)⌉). The last window ends at the
 * text's end.
 */
export function windowStarts(length: number, size: number = WINDOW_CHARS, overlap: number = WINDOW_OVERLAP): number[] {
  if (length <= size) return [0];
  const step = size - overlap;
  const starts: number[] = [];
  for (let s = 0; s + size < length; s += step) starts.push(s);
  starts.push(length - size);
  return starts;
}

export interface PromptInjectionParams {
  score_threshold: number;
}

/** Parameters of Dome's model-based methods that mean nothing here (tokeniser windows, model choice). */
const IGNORED_PARAMS = new Set([
  'truncation', 'max_length', 'window_stride', 'engine', 'model', 'model_id', 'in_mem', 'batch_size', 'stride_length', 'device',
  'prefix_threshold', 'suffix_threshold', 'prefix_length', 'suffix_length',
]);

function threshold(value: unknown, key: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new GuardConfigError([key], `${key} must be a number between 0 and 1`);
  }
  return value;
}

/**
 * Reads `score_threshold` (or Dome's `threshold`, when it is a probability) and tolerates the
 * documented parameters of the Dome methods aliased here (the catalogue drops an alias's model
 * settings, its thresholds included, before this runs: they are on another model's scale).
 */
export function parsePromptInjectionParams(raw: Record<string, unknown>): PromptInjectionParams {
  const unknown = Object.keys(raw).filter((k) => k !== 'score_threshold' && k !== 'threshold' && !IGNORED_PARAMS.has(k));
  if (unknown.length > 0) throw new GuardConfigError([unknown[0] as string], `unknown parameter(s): ${unknown.join(', ')}`);
  let value: number | undefined;
  if (raw.score_threshold !== undefined && raw.score_threshold !== null) value = threshold(raw.score_threshold, 'score_threshold');
  else if (typeof raw.threshold === 'number' && raw.threshold >= 0 && raw.threshold <= 1) value = raw.threshold;
  // A perplexity `threshold` (e.g. 89.79) is on another scale: ignored like the model parameters.
  else if (raw.threshold !== undefined && raw.threshold !== null && typeof raw.threshold !== 'number') threshold(raw.threshold, 'threshold');
  if (value === undefined) value = DEFAULT_SCORE_THRESHOLD;
  return { score_threshold: value };
}

interface WindowVerdict {
  score: number;
  classifier: number;
  rules: RuleMatch[];
  decoded: Array<{ encoding: string; excerpt: string; score: number }>;
}

const EXCERPT_CHARS = 160;

/**
 * A short turn ("ok", "yes", "thanks!", "continue") is judged by the rules alone: a classifier
 * over a few words has nothing to go on, and a conversation is full of them.
 */
export const MIN_CLASSIFIER_WORDS = 4;
const WORDS = /[\p{L}\p{N}]+/gu;
function wordCountAtLeast(text: string, n: number): boolean {
  WORDS.lastIndex = 0;
  let count = 0;
  while (count < n && WORDS.exec(text) !== null) count++;
  return count >= n;
}

/** Rules and classifier on one normalised text. */
function judge(normalized: string): { score: number; classifier: number; rules: RuleMatch[] } {
  const rules = matchRules(normalized);
  const classifier = wordCountAtLeast(normalized, MIN_CLASSIFIER_WORDS) ? classify(normalized) : 0;
  const r = ruleScore(rules);
  return { score: 1 - (1 - r) * (1 - classifier), classifier, rules };
}

/** A decoded or reassembled text counts on evidence, not on the classifier alone (unreliable on a few words). */
function hasEvidence(v: { classifier: number; rules: RuleMatch[] }, text: string): boolean {
  return v.rules.some((m) => m.weight >= 0.3) || (v.classifier >= 0.85 && text.length >= 60);
}

function judgeWindow(window: string, scoreThreshold: number): WindowVerdict {
  const base = judge(normalizeForMatching(window));
  const rules = [...base.rules];
  const decoded: WindowVerdict['decoded'] = [];
  let score = base.score;

  // What an encoding hides is judged as if it were plain text; leetspeak is already folded.
  const layers: DecodedLayer[] = decodeLayers(window).filter((l) => l.encoding !== 'leetspeak');
  for (const layer of layers) {
    const v = judge(normalizeForMatching(layer.text));
    decoded.push({ encoding: layer.encoding, excerpt: layer.text.slice(0, EXCERPT_CHARS), score: Number(v.score.toFixed(4)) });
    if (v.score >= scoreThreshold && hasEvidence(v, layer.text)) {
      rules.push({ id: `encoded.${layer.encoding}`, family: 'encoded_payload', weight: Math.min(0.95, v.score) });
    }
  }

  const split = reassembleSplitPayload(window);
  if (split !== undefined) {
    const v = judge(normalizeForMatching(split.text));
    decoded.push({ encoding: 'payload_splitting', excerpt: split.text.slice(0, EXCERPT_CHARS), score: Number(v.score.toFixed(4)) });
    if (v.score >= scoreThreshold && hasEvidence(v, split.text)) {
      rules.push({ id: 'split.reassembled', family: 'payload_splitting', weight: Math.min(0.95, v.score) });
    } else if (split.hasInstructionCue) {
      rules.push({ id: 'split.assemble_and_run', family: 'payload_splitting', weight: 0.35 });
    }
  }

  if (rules.length > base.rules.length) score = 1 - (1 - ruleScore(rules)) * (1 - base.classifier);
  return { score, classifier: base.classifier, rules, decoded };
}

export function detectPromptInjection(text: string, params: PromptInjectionParams): DetectionResult {
  const starts = windowStarts(text.length);
  let best: WindowVerdict = { score: 0, classifier: 0, rules: [], decoded: [] };
  let bestIndex = 0;
  const families = new Set<string>();
  const ruleIds = new Set<string>();
  starts.forEach((start, i) => {
    const v = judgeWindow(text.slice(start, start + WINDOW_CHARS), params.score_threshold);
    for (const m of v.rules) {
      families.add(m.family);
      ruleIds.add(m.id);
    }
    if (v.score > best.score || i === 0) {
      best = v;
      bestIndex = i;
    }
  });
  const score = Number(best.score.toFixed(4));
  const hit = score >= params.score_threshold;
  const details: Record<string, unknown> = {
    families: [...families].sort(),
    rules: [...ruleIds].sort(),
    classifier_probability: Number(best.classifier.toFixed(4)),
    threshold: params.score_threshold,
    windows: starts.length,
    window_index: bestIndex,
    window_start: starts[bestIndex] ?? 0,
    scanned_chars: text.length,
  };
  if (best.decoded.length > 0) details.decoded = best.decoded;
  return { hit, score, label: hit ? 'flagged' : 'clean', details };
}

export const promptInjectionWarden: DetectorDefinition<PromptInjectionParams> = {
  id: PROMPT_INJECTION_ID,
  type: 'security',
  description:
    'Prompt injections and jailbreaks (overrides, personas, prompt extraction, fake turns, split or encoded payloads; 10 languages): rules + local classifier',
  parseParams: (raw) => parsePromptInjectionParams(raw),
  detect: (text, params) => detectPromptInjection(text, params),
};

/**
 * Vijil Dome's model-based security methods that do the same job, served by this detector so real
 * Dome configurations load unchanged. Value: the Warden method that serves them.
 */
export const SECURITY_ALIASES: Readonly<Record<string, string>> = {
  'prompt-injection-deberta-v3-base': PROMPT_INJECTION_ID,
  'prompt-injection-deberta-finetuned-11122024': PROMPT_INJECTION_ID,
  'prompt-injection-mbert': PROMPT_INJECTION_ID,
  'security-promptguard': PROMPT_INJECTION_ID,
  'security-embeddings': PROMPT_INJECTION_ID,
  'jb-length-per-perplexity': PROMPT_INJECTION_ID,
  'jb-prefix-suffix-perplexity': PROMPT_INJECTION_ID,
};
