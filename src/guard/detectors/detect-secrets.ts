/**
 * `detect-secrets`: credentials in a text (secret-rules.ts). Dome's semantics: with `censor`
 * (the default) the text passes with each secret censored (its first character kept, the rest
 * `*`, as Dome's plugin does) and is not blocked; without it, a secret blocks. Details name the
 * kind and the span of each secret, never its value.
 */
import { booleanParam, numberParam, paramParser, type SyncDetectorDefinition } from '../params.js';
import { type Finding, forEachMatch, replaceSpans, resolveOverlaps, shannonEntropy } from '../text.js';
import { clean } from '../types.js';
import { BASE64_CANDIDATE, HEX_CANDIDATE, hasKeywordBefore, isPlaceholder, PRIVATE_KEY_BEGIN, SECRET_RULES, type SecretRule } from './secret-rules.js';

const parseParams = paramParser({
  censor: booleanParam(true),
  /** Warden: also report high-entropy strings beside a credential word. */
  entropy: booleanParam(true),
  /** Shannon entropy (bits per character) from which a base64-like string counts (detect-secrets' default). */
  base64_limit: numberParam(4.5, { min: 0, max: 8 }),
  /** The same for hexadecimal strings. */
  hex_limit: numberParam(3, { min: 0, max: 4 }),
});
export type SecretsParams = ReturnType<typeof parseParams>;

/** Rules whose secret is a capture group need the group's offsets (the `d` flag). */
const RULES: readonly SecretRule[] = SECRET_RULES.map((rule) =>
  rule.groups ? { ...rule, pattern: new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('d', '')}d`) } : rule,
);
const MAX_KEY_BLOCK = 16_384;
/** Tokens made to be published (Stripe's publishable keys): random-looking, beside the word "key", and no secret. */
const PUBLIC_TOKEN = /^pk_(?:live|test)_/;

function valueSpan(rule: SecretRule, m: RegExpExecArray): { start: number; end: number; value: string } {
  for (const group of rule.groups ?? []) {
    const span = m.indices?.[group];
    const value = m[group];
    if (span && value !== undefined) return { start: span[0], end: span[1], value };
  }
  return { start: m.index, end: m.index + m[0].length, value: m[0] };
}

/** The secrets in `text`, overlaps resolved (types and spans only). */
export function findSecrets(text: string, params: Pick<SecretsParams, 'entropy' | 'base64_limit' | 'hex_limit'>): Finding[] {
  const lower = text.toLowerCase();
  const found: Finding[] = [];
  for (const rule of RULES) {
    if (rule.hints && !rule.hints.some((hint) => lower.includes(hint))) continue;
    forEachMatch(text, rule.pattern, (m, offset) => {
      const span = valueSpan(rule, m);
      // A documented example (`sk_test_xxxx…`, `ghp_…`, `sk-1234567890abcdef…`) is no secret in any format.
      if (isPlaceholder(span.value) || (rule.validate && !rule.validate(span.value, m, text, offset + m.index))) return;
      found.push({ type: rule.type, start: offset + span.start, end: offset + span.end, score: rule.score });
    });
  }
  if (lower.includes('private key') || text.includes('PuTTY-User-Key-File-')) {
    forEachMatch(text, PRIVATE_KEY_BEGIN, (m, offset) => {
      const start = offset + m.index;
      const endMarker = text.indexOf('-----END', start + m[0].length);
      let end = start + m[0].length;
      if (endMarker >= 0 && endMarker - start < MAX_KEY_BLOCK) {
        const close = text.indexOf('-----', endMarker + 8);
        end = close >= 0 && close - endMarker < 80 ? close + 5 : endMarker + 8;
      } else {
        // No END within reach (a cut-off block): the key runs to the next blank line, bounded.
        const blank = text.indexOf('\n\n', end);
        end = blank >= 0 && blank - start < MAX_KEY_BLOCK ? blank : Math.min(text.length, start + MAX_KEY_BLOCK);
      }
      found.push({ type: 'private-key', start, end, score: 1 });
    });
  }
  if (params.entropy) {
    const entropyFinding = (pattern: RegExp, limit: number, type: string) =>
      forEachMatch(text, pattern, (m, offset) => {
        const start = offset + m.index;
        const value = m[0].replace(/=+$/, '');
        if (shannonEntropy(value) < limit || !hasKeywordBefore(text, start)) return;
        // An inline image or file (`data:image/png;base64,…`) is data, not a credential.
        if (text.slice(Math.max(0, start - 7), start).toLowerCase() === 'base64,') return;
        if (type === 'base64-high-entropy' && (!/\d/.test(value) || !/[A-Za-z]/.test(value) || PUBLIC_TOKEN.test(value))) return;
        found.push({ type, start, end: start + m[0].length, score: 0.8 });
      });
    entropyFinding(BASE64_CANDIDATE, params.base64_limit, 'base64-high-entropy');
    entropyFinding(HEX_CANDIDATE, params.hex_limit, 'hex-high-entropy');
  }
  return resolveOverlaps(found);
}

/** Dome's censoring: the first character kept, every other one `*`. */
const censorValue = (value: string) => (value.length > 1 ? value[0] + '*'.repeat(value.length - 1) : value);

export const detectSecrets: SyncDetectorDefinition<SecretsParams> = {
  id: 'detect-secrets',
  type: 'privacy',
  description:
    'Credentials: cloud keys (AWS, GCP, Azure), provider tokens (GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, …), private keys, JWTs, ' +
    'passwords in URLs and assignments, high-entropy strings beside a credential word; censors them with `censor`.',
  parseParams,
  detect(text, params) {
    const secrets = findSecrets(text, params);
    if (secrets.length === 0) return clean({ secrets: [] });
    const details = { secrets: secrets.map((s) => ({ type: s.type, start: s.start, end: s.end })) };
    const score = Math.max(...secrets.map((s) => s.score));
    if (!params.censor) return { hit: true, score, label: 'flagged', details };
    return { hit: true, score, label: 'flagged', details, sanitized: replaceSpans(text, secrets, (_s, original) => censorValue(original)) };
  },
};
