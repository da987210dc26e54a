/**
 * `privacy-presidio`: personal data, found offline by the recognizers of pii-recognizers.ts
 * (Dome runs Microsoft Presidio with spaCy; Warden needs no model). Dome's parameters and
 * semantics: with `anonymize` (the default) the text passes with each finding replaced, and is
 * not blocked; without it, a finding at or above `score_threshold` blocks.
 */
import { booleanParam, IGNORED, numberParam, paramParser, stringListParam, stringParam, type SyncDetectorDefinition } from '../params.js';
import { resolveOverlaps, replaceSpans } from '../text.js';
import { clean } from '../types.js';
import {
  DEFAULT_RECOGNIZER_OPTIONS, ENTITY_LABELS, PHONE_REGIONS, type PhoneRegion, PII_ENTITIES, type PiiEntity, type PiiFinding, RECOGNIZERS,
} from './pii-recognizers.js';

const parseParams = paramParser({
  score_threshold: numberParam(0.5, { min: 0, max: 1 }),
  anonymize: booleanParam(true),
  redaction_style: stringParam<'labeled' | 'masked'>('labeled', { oneOf: ['labeled', 'masked'] }),
  /** Files on Dome's host: the service reads no file named by a configuration (use `allow_list`). */
  allow_list_files: IGNORED,
  /** Warden: values never reported (exact, case-insensitive), e.g. the company's own support address. */
  allow_list: stringListParam([], { maxItems: 1000, maxLength: 200 }),
  /** Warden: the entity types to report; all by default. */
  entities: stringListParam([...PII_ENTITIES], { maxItems: PII_ENTITIES.length, oneOf: PII_ENTITIES }),
  /** Warden (Presidio's `supported_regions`): whose national phone formats are recognised; all of Presidio's by default. */
  phone_regions: stringListParam([...PHONE_REGIONS], { maxItems: PHONE_REGIONS.length, oneOf: PHONE_REGIONS }),
});
export type PresidioParams = ReturnType<typeof parseParams>;

/** The personal data in `text` at or above `threshold`, overlaps resolved (no values, only types and spans). */
export function findPii(
  text: string,
  options: { threshold: number; entities: readonly string[]; allowList?: readonly string[]; phoneRegions?: readonly string[] },
): PiiFinding[] {
  const recognizerOptions = options.phoneRegions ? { phoneRegions: options.phoneRegions as readonly PhoneRegion[] } : DEFAULT_RECOGNIZER_OPTIONS;
  const lower = text.toLowerCase();
  const wanted = new Set(options.entities);
  const found: PiiFinding[] = [];
  const push = (type: PiiEntity, start: number, end: number, score: number) => {
    if (score >= options.threshold) found.push({ type, start, end, score });
  };
  for (const recognizer of RECOGNIZERS) {
    if (wanted.has(recognizer.type) && recognizer.mayMatch(text, lower)) recognizer.find(text, push, recognizerOptions);
  }
  const allowed = new Set((options.allowList ?? []).map((v) => v.toLowerCase()));
  const kept = allowed.size ? found.filter((f) => !allowed.has(text.slice(f.start, f.end).toLowerCase())) : found;
  return resolveOverlaps(kept);
}

export const privacyPresidio: SyncDetectorDefinition<PresidioParams> = {
  id: 'privacy-presidio',
  type: 'privacy',
  description:
    'Personal data (email, phone in international and national formats of `phone_regions`, payment card with Luhn, ' +
    'IBAN of every IBAN country with mod-97, SSN/ITIN, IP, date of birth, passport, ' +
    "driver's licence, bank account, crypto wallet, UK NINO/NHS); redacts it with `anonymize`.",
  parseParams,
  detect(text, params) {
    const findings = findPii(text, {
      threshold: params.score_threshold,
      entities: params.entities,
      allowList: params.allow_list,
      phoneRegions: params.phone_regions,
    });
    if (findings.length === 0) return clean({ entities: [] });
    const details = {
      entities: findings.map((f) => ({ type: f.type, start: f.start, end: f.end, score: f.score })),
    };
    const score = Math.max(...findings.map((f) => f.score));
    if (!params.anonymize) return { hit: true, score, label: 'flagged', details };
    const sanitized = replaceSpans(text, findings, (finding, original) =>
      params.redaction_style === 'masked' ? '*'.repeat(Math.min(original.length, 100)) + original.slice(100) : `[REDACTED - ${ENTITY_LABELS[finding.type]}]`,
    );
    return { hit: true, score, label: 'flagged', details, sanitized };
  },
};
