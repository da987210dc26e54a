/**
 * The recognizers of `privacy-presidio`: one per entity type, each a precompiled pattern with
 * bounded quantifiers (linear on any input) followed by a validation of the candidate
 * (checksums, number plans, ranges) and a score that context words raise. Scores follow
 * Presidio's idea: a validated checksum is near-certain (1.0); a pattern that many harmless
 * strings share stays under the default threshold (0.5) unless a context word is near.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { createHash } from 'node:crypto';
import { isValidIBAN } from 'ibantools';
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { after, before, digitsOf, type Finding, forEachMatch, luhnValid } from '../text.js';

export const PII_ENTITIES = [
  'EMAIL_ADDRESS',
  'PHONE_NUMBER',
  'CREDIT_CARD',
  'IBAN_CODE',
  'US_SSN',
  'US_ITIN',
  'IP_ADDRESS',
  'DATE_OF_BIRTH',
  'US_PASSPORT',
  'US_DRIVER_LICENSE',
  'US_BANK_NUMBER',
  'CRYPTO',
  'UK_NINO',
  'UK_NHS',
] as const;
export type PiiEntity = (typeof PII_ENTITIES)[number];

/** The labels of Dome's `labeled` redaction (`[REDACTED - <label>]`). */
export const ENTITY_LABELS: Record<PiiEntity, string> = {
  EMAIL_ADDRESS: 'Email Address',
  PHONE_NUMBER: 'Phone Number',
  CREDIT_CARD: 'Credit Card',
  IBAN_CODE: 'IBAN',
  US_SSN: 'SSN',
  US_ITIN: 'ITIN',
  IP_ADDRESS: 'IP Address',
  DATE_OF_BIRTH: 'Date of Birth',
  US_PASSPORT: 'Passport',
  US_DRIVER_LICENSE: "Driver's License",
  US_BANK_NUMBER: 'Bank Account',
  CRYPTO: 'Crypto Wallet',
  UK_NINO: 'NINO',
  UK_NHS: 'NHS Number',
};

export interface PiiFinding extends Finding {
  type: PiiEntity;
}

type Push = (type: PiiEntity, start: number, end: number, score: number) => void;

/**
 * The regions whose national phone formats are recognised, as Presidio names them (its default
 * `supported_regions`). A number written with its country code (+44…, 0044…) is recognised
 * whatever the list.
 */
export const PHONE_REGIONS = ['US', 'UK', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR'] as const;
export type PhoneRegion = (typeof PHONE_REGIONS)[number];
/** Presidio's region names → libphonenumber's (ISO 3166: the United Kingdom is GB). */
const REGION_CODE: Record<PhoneRegion, CountryCode> = { US: 'US', UK: 'GB', DE: 'DE', FR: 'FR', IL: 'IL', IN: 'IN', CA: 'CA', BR: 'BR' };

export interface RecognizerOptions {
  phoneRegions: readonly PhoneRegion[];
}
export const DEFAULT_RECOGNIZER_OPTIONS: RecognizerOptions = { phoneRegions: PHONE_REGIONS };

interface Recognizer {
  type: PiiEntity;
  /** A cheap test that lets the recognizer skip texts it cannot match (`lower` is the text in lower case). */
  mayMatch(text: string, lower: string): boolean;
  find(text: string, push: Push, options: RecognizerOptions): void;
}

const CONTEXT_DISTANCE = 48;
const near = (text: string, start: number, end: number, context: RegExp) =>
  context.test(before(text, start, CONTEXT_DISTANCE).toLowerCase()) || context.test(after(text, end, 24).toLowerCase());

const HAS_DIGIT = /\d/;
const hasDigit = (text: string) => HAS_DIGIT.test(text);

// ---------------------------------------------------------------- email
const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,8}\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;
/** `icon@2x.png` is a file name, not an address. */
const FILE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'bmp', 'css', 'js', 'ts', 'json', 'map', 'pdf']);
const email: Recognizer = {
  type: 'EMAIL_ADDRESS',
  mayMatch: (text) => text.includes('@'),
  find(text, push) {
    forEachMatch(text, EMAIL, (m, offset) => {
      const value = m[0];
      const local = value.slice(0, value.indexOf('@'));
      if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return;
      const tld = value.slice(value.lastIndexOf('.') + 1).toLowerCase();
      if (FILE_EXTENSIONS.has(tld)) return;
      push('EMAIL_ADDRESS', offset + m.index, offset + m.index + value.length, 1);
    });
  },
};

// ---------------------------------------------------------------- phone
const PHONE = /(?<![\w+.\-/])(?:\+|00)?\(?\d[\d \u00A0().\-]{5,22}\d(?![\w]|[.\-/]\d)/g;
const PHONE_CONTEXT = /(?<![a-z])(?:phone|tel|telephone|call|mobile|cell|fax|contact|whatsapp|sms|text me|reach me|dial)(?![a-z])/;
const DATE_LIKE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/**
 * Numbering-plan look-ups per text (one per candidate written with its country code, one per
 * region for a national one): beyond this many, the cheaper shape check below decides, so a long
 * text costs linear time at a small constant (libphonenumber takes tens of microseconds per look-up).
 */
const PLAN_CHECKS = 2000;
/** +country (not 1) and 8 to 15 digits, or a North American number whose area code and exchange start with 2-9. */
const PHONE_SHAPE = /^(?:(?:\+|00)(?!1)[1-9][\d ().\-]{6,20}|(?:(?:\+|00)?1[ .\-]?)?\(?[2-9]\d\d\)?[ .\-]?[2-9]\d\d[ .\-]?\d{4})$/;
const NANP = new Set<CountryCode>(['US', 'CA']);
const groupsOf = (value: string) => value.split(/\D+/).filter((g) => g.length > 0).map((g) => g.length).join(',');
/**
 * Whether `raw` (no country code) is a number of `country` as written there. Outside North America
 * a national number starts with its trunk prefix 0 (Brazil's area code may instead stand in
 * brackets) and, when written in groups, in the country's own groups: `0XX XXXX XXXX`, not
 * `536-22-1234` (an SSN's shape, which German, French and Israeli plans would also accept).
 */
function nationalNumberOf(raw: string, country: CountryCode): boolean {
  const number = parsePhoneNumberFromString(raw, { defaultCountry: country });
  if (number?.isValid() !== true) return false;
  if (NANP.has(country)) return true;
  const digits = digitsOf(raw);
  if (!(digits.startsWith('0') || (country === 'BR' && raw.startsWith('(')))) return false;
  const groups = groupsOf(raw);
  return !groups.includes(',') || groups === groupsOf(number.formatNational());
}
function phoneValidator(regions: readonly PhoneRegion[]) {
  const seen = new Map<string, boolean>();
  const countries = regions.map((r) => REGION_CODE[r]);
  let lookups = 0;
  return (raw: string, international: boolean): boolean => {
    const known = seen.get(raw);
    if (known !== undefined) return known;
    let valid = false;
    const cost = international ? 1 : countries.length;
    if (lookups + cost <= PLAN_CHECKS) {
      lookups += cost;
      if (international) {
        valid = parsePhoneNumberFromString(raw.startsWith('00') ? `+${raw.slice(2)}` : raw)?.isValid() === true;
      } else {
        // A national number: valid in one of the regions' numbering plans and written as it is written there.
        for (const country of countries) {
          if (nationalNumberOf(raw, country)) {
            valid = true;
            break;
          }
        }
      }
      seen.set(raw, valid);
    } else {
      valid = PHONE_SHAPE.test(raw) && (international || countries.includes('US') || countries.includes('CA'));
    }
    return valid;
  };
}
const phone: Recognizer = {
  type: 'PHONE_NUMBER',
  mayMatch: hasDigit,
  find(text, push, options) {
    const validPhone = phoneValidator(options.phoneRegions);
    forEachMatch(text, PHONE, (m, offset) => {
      const raw = m[0];
      const digits = digitsOf(raw);
      if (digits.length < 7 || digits.length > 15) return;
      if (DATE_LIKE.test(raw) || DOTTED_QUAD.test(raw)) return;
      const open = raw.split('(').length - 1;
      if (open !== raw.split(')').length - 1 || open > 1) return;
      // Real numbers are written in a few groups of several digits ("1 2 3 4 5 6 7 8" is not one); checked before the costlier number plan.
      const groups = raw.split(/[^\d]+/).filter((g) => g.length > 0);
      if (groups.length > 6 || groups.filter((g) => g.length === 1).length > 2) return;
      const international = raw.startsWith('+') || raw.startsWith('00');
      if (!validPhone(raw, international)) return;
      const start = offset + m.index;
      const end = start + raw.length;
      const formatted = international || /[ ().\-]/.test(raw);
      const context = near(text, start, end, PHONE_CONTEXT);
      push('PHONE_NUMBER', start, end, context ? 0.9 : formatted ? 0.75 : 0.4);
    });
  },
};

// ---------------------------------------------------------------- credit card
const CARD = /(?<![\p{L}\p{N}_\-])\d(?:[ \-]?\d){12,18}(?![\p{L}\p{N}_]|-\d)/gu;
const CARD_BRAND = /^(?:4|5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)|3[47]|6(?:011|5|4[4-9]|2)|3(?:0[0-5]|[689])|35(?:2[89]|[3-8]\d)|5[06-9]|6\d)/;
const creditCard: Recognizer = {
  type: 'CREDIT_CARD',
  mayMatch: hasDigit,
  find(text, push) {
    forEachMatch(text, CARD, (m, offset) => {
      const raw = m[0];
      const separators = new Set(raw.replace(/\d/g, ''));
      if (separators.size > 1) return;
      const digits = digitsOf(raw);
      if (digits.length < 13 || digits.length > 19) return;
      if (/^(\d)\1+$/.test(digits) || !CARD_BRAND.test(digits) || !luhnValid(digits)) return;
      push('CREDIT_CARD', offset + m.index, offset + m.index + raw.length, 1);
    });
  },
};

// ---------------------------------------------------------------- IBAN
const IBAN = /(?<![\p{L}\p{N}])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![\p{L}\p{N}])/gu;
const iban: Recognizer = {
  type: 'IBAN_CODE',
  mayMatch: hasDigit,
  find(text, push) {
    forEachMatch(text, IBAN, (m, offset) => {
      // The pattern may take a following word ("… 00 AND"); drop trailing groups until valid.
      let raw = m[0];
      for (let tries = 0; tries < 4 && raw.length >= 15; tries++) {
        if (isValidIBAN(raw.replace(/ /g, ''))) {
          push('IBAN_CODE', offset + m.index, offset + m.index + raw.length, 1);
          return;
        }
        const cut = raw.lastIndexOf(' ');
        if (cut < 0) return;
        raw = raw.slice(0, cut);
      }
    });
  },
};

// ---------------------------------------------------------------- US SSN / ITIN
const SSN = /(?<![\p{L}\p{N}_\-])(\d{3})([- ]?)(\d{2})\2(\d{4})(?![\p{L}\p{N}_]|-\d)/gu;
const SSN_CONTEXT = /(?<![a-z])(?:ssn|ssns|social security|social sec|ss#|ss #|itin|taxpayer|tax id|tin)(?![a-z])/;
/** Numbers printed as examples or issued in error, never assigned to a person. */
const SSN_EXAMPLES = new Set(['078051120', '219099999', '123456789', '457555462']);
const ssnAndItin = (type: 'US_SSN' | 'US_ITIN'): Recognizer => ({
  type,
  mayMatch: hasDigit,
  find(text, push) {
    forEachMatch(text, SSN, (m, offset) => {
      const [raw, area = '', separator = '', group = '', serial = ''] = m;
      const areaNumber = Number(area);
      const groupNumber = Number(group);
      if (SSN_EXAMPLES.has(area + group + serial) || serial === '0000' || groupNumber === 0) return;
      if (type === 'US_SSN' && (areaNumber === 0 || areaNumber === 666 || areaNumber >= 900)) return;
      const itinGroup =
        (groupNumber >= 50 && groupNumber <= 65) || (groupNumber >= 70 && groupNumber <= 88) || (groupNumber >= 90 && groupNumber <= 99 && groupNumber !== 93);
      if (type === 'US_ITIN' && (areaNumber < 900 || !itinGroup)) return;
      const start = offset + m.index;
      const end = start + raw.length;
      const context = near(text, start, end, SSN_CONTEXT);
      push(type, start, end, separator ? (context ? 1 : 0.85) : context ? 0.85 : 0.3);
    });
  },
});

// ---------------------------------------------------------------- IP addresses
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?![\\d]|\\.\\d)`, 'g');
const IPV6 = /(?<![\p{L}\p{N}:.])(?:[0-9A-Fa-f]{1,4})?(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.\d{1,3}){0,3}(?![\p{L}\p{N}:])/gu;
const VERSION_CONTEXT = /(?:\bv|\bversion|\bver\.?|\brelease|\bbuild|\bfirmware|\bupdate to|@)\s*$/i;
/** Private, loopback, link-local, unspecified, multicast and broadcast ranges: an address there names no person. */
function privateV4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  if (a === 0 || a === 10 || a === 127 || a >= 224) return true;
  return (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
}
function privateV6(ip: string): boolean {
  const lower = ip.toLowerCase();
  if (lower === '::' || lower === '::1' || lower.startsWith('ff')) return true;
  return /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^::ffff:(?:10|127|192\.168)\./.test(lower);
}
const ipAddress: Recognizer = {
  type: 'IP_ADDRESS',
  mayMatch: (text) => text.includes('.') || text.includes(':'),
  find(text, push) {
    forEachMatch(text, IPV4, (m, offset) => {
      const start = offset + m.index;
      if (!isIPv4(m[0])) return;
      const version = VERSION_CONTEXT.test(before(text, start, 16));
      push('IP_ADDRESS', start, start + m[0].length, version || privateV4(m[0]) ? 0.3 : 0.6);
    });
    if (!text.includes('::') && !/[0-9A-Fa-f]:[0-9A-Fa-f]{1,4}:/.test(text)) return;
    forEachMatch(text, IPV6, (m, offset) => {
      const raw = m[0];
      if (!isIPv6(raw)) return;
      const groups = raw.split(':').filter((g) => g.length > 0);
      if (groups.length < 2 || digitsOf(raw).length + raw.replace(/[^a-fA-F]/g, '').length < 4) return;
      const start = offset + m.index;
      push('IP_ADDRESS', start, start + raw.length, privateV6(raw) ? 0.3 : 0.6);
    });
  },
};

// ---------------------------------------------------------------- date of birth
const MONTHS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const DATE = new RegExp(
  [
    '(?<![\\d/.\\-])(\\d{1,2})([/.\\-])(\\d{1,2})\\2((?:19|20)\\d{2})(?![\\d]|[/.\\-]\\d)', // 04/03/1985, 4.3.1985
    '(?<![\\d/.\\-])((?:19|20)\\d{2})-(\\d{1,2})-(\\d{1,2})(?![\\d]|-\\d)', // 1985-03-04
    `\\b(${MONTHS})\\.? (\\d{1,2})(?:st|nd|rd|th)?,? ((?:19|20)\\d{2})\\b`, // March 4, 1985
    `\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTHS})\\.?,? ((?:19|20)\\d{2})\\b`, // 4 March 1985
  ].join('|'),
  'gi',
);
const DOB_CONTEXT = /(?<![a-z])(?:born|birth|birthday|birthdate|dob|d\.o\.b|date of birth|geburtsdatum|née?)(?![a-z])/;
const MONTH_PREFIXES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const monthIndex = (name: string) => MONTH_PREFIXES.indexOf(name.slice(0, 3).toLowerCase()) + 1;
function plausibleDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getTime() <= Date.now() && year >= 1900;
}
const dateOfBirth: Recognizer = {
  type: 'DATE_OF_BIRTH',
  mayMatch: (_text, lower) => DOB_CONTEXT.test(lower),
  find(text, push) {
    forEachMatch(text, DATE, (m, offset) => {
      let valid = false;
      if (m[1] !== undefined) {
        const a = Number(m[1]);
        const b = Number(m[3]);
        const year = Number(m[4]);
        valid = plausibleDate(year, a, b) || plausibleDate(year, b, a); // US or day-first order
      } else if (m[5] !== undefined) valid = plausibleDate(Number(m[5]), Number(m[6]), Number(m[7]));
      else if (m[8] !== undefined) valid = plausibleDate(Number(m[10]), monthIndex(m[8]), Number(m[9]));
      else if (m[11] !== undefined) valid = plausibleDate(Number(m[13]), monthIndex(m[12] ?? ''), Number(m[11]));
      if (!valid) return;
      const start = offset + m.index;
      const end = start + m[0].length;
      if (DOB_CONTEXT.test(before(text, start, 40).toLowerCase())) push('DATE_OF_BIRTH', start, end, 0.9);
    });
  },
};

// ---------------------------------------------------------------- numbers that are PII only beside a context word
function contextual(type: PiiEntity, pattern: RegExp, context: RegExp, score: number, valid: (value: string) => boolean = () => true): Recognizer {
  return {
    type,
    mayMatch: (_text, lower) => context.test(lower),
    find(text, push) {
      forEachMatch(text, pattern, (m, offset) => {
        const start = offset + m.index;
        const end = start + m[0].length;
        if (valid(m[0]) && near(text, start, end, context)) push(type, start, end, score);
      });
    },
  };
}

const PASSPORT = /(?<![\p{L}\p{N}])(?:[A-Z]\d{8}|\d{9})(?![\p{L}\p{N}])/gu;
const PASSPORT_CONTEXT = /(?<![a-z])passport(?:s| no| number| #)?(?![a-z])/;
const DRIVER_LICENSE = /(?<![\p{L}\p{N}-])[A-Z0-9](?:-?[A-Z0-9]){4,19}(?![\p{L}\p{N}-])/gu;
const DRIVER_LICENSE_CONTEXT = /(?<![a-z])(?:driver'?s? licen[cs]e|driving licen[cs]e|drivers? lic|dl ?(?:#|no|number)|licen[cs]e (?:number|no|#))(?![a-z])/;
const BANK_ACCOUNT = /(?<![\p{L}\p{N}_\-])\d{8,17}(?![\p{L}\p{N}_]|-\d)/gu;
const BANK_CONTEXT = /(?<![a-z])(?:account (?:number|no|#)|acct|bank account|checking account|savings account|routing)(?![a-z])/;
const NHS = /(?<![\p{L}\p{N}_\-])\d{3}[ -]?\d{3}[ -]?\d{4}(?![\p{L}\p{N}_]|-\d)/gu;
const NHS_CONTEXT = /(?<![a-z])nhs(?![a-z])/;
function nhsValid(raw: string): boolean {
  const d = digitsOf(raw);
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(d[i]) * (10 - i);
  const check = 11 - (sum % 11);
  return check !== 10 && (check === 11 ? 0 : check) === Number(d[9]);
}

// ---------------------------------------------------------------- UK National Insurance number
const NINO = /(?<![\p{L}\p{N}])(?!BG|GB|NK|KN|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\p{L}\p{N}])/gu;
const nino: Recognizer = {
  type: 'UK_NINO',
  mayMatch: hasDigit,
  find(text, push) {
    forEachMatch(text, NINO, (m, offset) => push('UK_NINO', offset + m.index, offset + m.index + m[0].length, 0.85));
  },
};

// ---------------------------------------------------------------- crypto wallets
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BTC_LEGACY = /(?<![\p{L}\p{N}])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?![\p{L}\p{N}])/gu;
const BECH32 = /(?<![\p{L}\p{N}])(?:bc1|tb1)[02-9ac-hj-np-z]{8,87}(?![\p{L}\p{N}])/gu;
const ETH = /(?<![\p{L}\p{N}])0x[0-9a-fA-F]{40}(?![\p{L}\p{N}])/gu;
const WALLET_CONTEXT = /(?<![a-z])(?:wallet|eth|ether|ethereum|btc|bitcoin|crypto|send|address|usdt|usdc)(?![a-z])/;
function base58CheckValid(value: string): boolean {
  let n = 0n;
  for (const ch of value) {
    const digit = BASE58.indexOf(ch);
    if (digit < 0) return false;
    n = n * 58n + BigInt(digit);
  }
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const leading = value.length - value.replace(/^1+/, '').length;
  const bytes = Buffer.concat([Buffer.alloc(leading), Buffer.from(hex, 'hex')]);
  if (bytes.length !== 25) return false;
  const payload = bytes.subarray(0, 21);
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  return checksum.equals(bytes.subarray(21));
}
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function bech32Valid(value: string): boolean {
  const separator = value.lastIndexOf('1');
  const hrp = value.slice(0, separator);
  const data = [...value.slice(separator + 1)].map((c) => BECH32_CHARSET.indexOf(c));
  if (data.some((d) => d < 0) || data.length < 6) return false;
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  const values = [...[...hrp].map((c) => c.charCodeAt(0) >> 5), 0, ...[...hrp].map((c) => c.charCodeAt(0) & 31), ...data];
  for (const v of values) {
    const top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >> i) & 1) chk ^= GEN[i] ?? 0;
  }
  return chk === 1 || chk === 0x2bc830a3; // bech32 (segwit v0) or bech32m (taproot)
}
const crypto: Recognizer = {
  type: 'CRYPTO',
  mayMatch: () => true,
  find(text, push) {
    forEachMatch(text, BTC_LEGACY, (m, offset) => {
      if (base58CheckValid(m[0])) push('CRYPTO', offset + m.index, offset + m.index + m[0].length, 1);
    });
    if (text.includes('bc1') || text.includes('tb1')) {
      forEachMatch(text, BECH32, (m, offset) => {
        if (bech32Valid(m[0])) push('CRYPTO', offset + m.index, offset + m.index + m[0].length, 1);
      });
    }
    if (text.includes('0x')) {
      // A bare 0x-prefixed 160-bit hex value is also a contract, a hash prefix, a test vector: a wallet only with context.
      forEachMatch(text, ETH, (m, offset) => {
        const start = offset + m.index;
        const end = start + m[0].length;
        push('CRYPTO', start, end, near(text, start, end, WALLET_CONTEXT) ? 0.8 : 0.3);
      });
    }
  },
};

export const RECOGNIZERS: readonly Recognizer[] = [
  email,
  phone,
  creditCard,
  iban,
  ssnAndItin('US_SSN'),
  ssnAndItin('US_ITIN'),
  ipAddress,
  dateOfBirth,
  contextual('US_PASSPORT', PASSPORT, PASSPORT_CONTEXT, 0.8),
  contextual('US_DRIVER_LICENSE', DRIVER_LICENSE, DRIVER_LICENSE_CONTEXT, 0.7, (value) => /\d/.test(value)),
  contextual('US_BANK_NUMBER', BANK_ACCOUNT, BANK_CONTEXT, 0.6),
  crypto,
  nino,
  contextual('UK_NHS', NHS, NHS_CONTEXT, 0.85, nhsValid),
];
