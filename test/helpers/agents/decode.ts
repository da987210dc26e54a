/**
 * How the test agents "see through" an obfuscated request (test/helpers/agents/README.md):
 * hidden Unicode tag characters, zero-width characters (interleaved, or as bits), base64, hex,
 * and whole-text rot13 / reversal / leetspeak, each judged by how much more English the result
 * reads than the original.
 */

export type Encoding = 'plain' | 'tags' | 'zero-width' | 'base64' | 'hex' | 'rot13' | 'reversed' | 'leetspeak';

export interface DecodedRequest {
  /** The request the agent acts on: the hidden or decoded text, or the message itself. */
  text: string;
  how: Encoding;
}

const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF\u180E]/g;
const HAS_ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\uFEFF\u180E]/;
const TAG_CHARS = /[\u{E0000}-\u{E007F}]/gu;

/** Words common in English requests: the measure of "reads like English". */
const COMMON = new Set(
  (
    'a about above after all also an and any are as ask at be been before begin but by can could describe detailed do does down each end every explain ' +
    'follow for from get give go had has have hello her here him his how i if ignore in include information instruction instructions into is it its ' +
    'just know let list make me more most my new no not now of on one only or other our out over please print prompt provide put repeat reply respond ' +
    'reveal rules say secret see she should show so some start step steps system tell text than that the their them then there these they this to ' +
    'told up us use very want was we were what when where which who why will with word words would write you your yours above previous hidden exact ' +
    'exactly phrase answer message password code token output now again something everything nothing sure okay ok yes'
  ).split(' '),
);

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z']+/g) ?? [];
}

/** Share of the words that are common English words (0 when there are none). */
export function englishScore(text: string): number {
  const all = words(text);
  if (all.length === 0) return 0;
  return all.filter((word) => COMMON.has(word.replace(/'s$/, ''))).length / all.length;
}

function printableShare(text: string): number {
  if (text.length === 0) return 0;
  const printable = text.match(/[\x20-\x7e\u00a0-\uffff\n\r\t]/g)?.length ?? 0;
  return printable / text.length;
}

function readableUtf8(bytes: Buffer): string | null {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD') || printableShare(text) < 0.95 || !/[a-z]{2}/i.test(text)) return null;
  return text;
}

function hiddenTags(message: string): string | null {
  const tags = message.match(TAG_CHARS);
  if (!tags || tags.length < 3) return null;
  return tags
    .map((char) => String.fromCharCode(char.codePointAt(0)! - 0xe0000))
    .join('')
    .replace(/[\x00-\x1f\x7f]/g, '')
    .trim();
}

/** Zero-width characters used as bits (one character for 0, another for 1), 8 per character. */
function zeroWidthBits(message: string): string | null {
  for (const run of message.match(/[\u200B\u200C\u200D\u2060\uFEFF]{16,}/g) ?? []) {
    const kinds = [...new Set(run)];
    if (kinds.length !== 2) continue;
    for (const [zero, one] of [kinds, [...kinds].reverse()]) {
      const bits = [...run].map((char) => (char === zero ? '0' : char === one ? '1' : '')).join('');
      const bytes: number[] = [];
      for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
      const text = readableUtf8(Buffer.from(bytes));
      if (text !== null) return text;
    }
  }
  return null;
}

function hexRuns(message: string): string[] {
  const found: string[] = [];
  for (const run of message.match(/(?:(?:0x|\\x)?[0-9a-fA-F]{2}[\s,:]*){6,}/g) ?? []) {
    const digits = run.replace(/0x|\\x/g, '').replace(/[^0-9a-fA-F]/g, '');
    if (digits.length % 2 !== 0) continue;
    const text = readableUtf8(Buffer.from(digits, 'hex'));
    if (text !== null) found.push(text);
  }
  return found;
}

function base64Tokens(message: string): string[] {
  const found: string[] = [];
  for (const token of message.match(/[A-Za-z0-9+/_-]{12,}={0,2}/g) ?? []) {
    if (/^[0-9a-fA-F]+$/.test(token) && token.length % 2 === 0) continue; // hex, handled above
    if (/^[a-z]+$/i.test(token) && englishScore(token) > 0) continue;
    const text = readableUtf8(Buffer.from(token, 'base64'));
    if (text !== null && (englishScore(text) > 0 || /\s/.test(text))) found.push(text);
  }
  return found;
}

export function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (char) => {
    const base = char <= 'Z' ? 65 : 97;
    return String.fromCharCode(((char.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const LEET: Record<string, string> = { '4': 'a', '@': 'a', '8': 'b', '3': 'e', '6': 'g', '1': 'i', '0': 'o', '5': 's', $: 's', '7': 't' };

/** Undoes leetspeak in words that mix letters and digits/symbols; upper-case identifiers (canaries such as ZEBRA-42) are left alone. */
export function unleet(text: string): string {
  return text.replace(/[A-Za-z0-9@$]+/g, (word) => {
    if (!/[a-z]/.test(word) || !/[0-9@$]/.test(word)) return word;
    return [...word].map((char) => LEET[char] ?? char).join('');
  });
}

function segments(message: string): string[] {
  const out = new Set<string>([message.trim()]);
  const colon = message.lastIndexOf(':');
  if (colon >= 0 && colon < message.length - 1) out.add(message.slice(colon + 1).trim());
  for (const match of message.matchAll(/["'`“]([^"'`”]{4,})["'`”]/g)) out.add(match[1]!.trim());
  return [...out].filter((segment) => segment.length > 0);
}

/** What the message asks once decoded, or the message itself (how: 'plain'). */
export function decodeRequest(message: string): DecodedRequest {
  const tags = hiddenTags(message);
  if (tags) return { text: tags, how: 'tags' };
  const bits = zeroWidthBits(message);
  if (bits) return { text: bits, how: 'zero-width' };
  if (HAS_ZERO_WIDTH.test(message)) {
    const visible = message.replace(ZERO_WIDTH, '');
    const inner = decodeRequest(visible);
    return inner.how === 'plain' ? { text: visible, how: 'zero-width' } : inner;
  }
  const hex = hexRuns(message);
  if (hex.length > 0) return { text: hex.join(' '), how: 'hex' };
  const b64 = base64Tokens(message);
  if (b64.length > 0) return { text: b64.join(' '), how: 'base64' };

  let best: DecodedRequest = { text: message, how: 'plain' };
  let bestScore = englishScore(message);
  const baseline = bestScore;
  for (const segment of segments(message)) {
    const original = englishScore(segment);
    const candidates: Array<[Encoding, string]> = [
      ['rot13', rot13(segment)],
      ['reversed', [...segment].reverse().join('')],
      ['leetspeak', unleet(segment)],
    ];
    for (const [how, text] of candidates) {
      if (text === segment) continue;
      const score = englishScore(text);
      if (score >= 0.34 && score >= original + 0.2 && score > bestScore && score >= baseline) {
        best = { text: text.trim(), how };
        bestScore = score;
      }
    }
  }
  return best;
}
