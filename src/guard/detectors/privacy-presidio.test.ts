import { composeIBAN, friendlyFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { GuardConfigError } from '../types.js';
import { findPii, privacyPresidio } from './privacy-presidio.js';

const ALL = privacyPresidio.parseParams({});
const types = (text: string, threshold = 0.5) => findPii(text, { threshold, entities: ALL.entities }).map((f) => f.type);
const run = (text: string, raw: Record<string, unknown> = {}) => privacyPresidio.detect(text, privacyPresidio.parseParams(raw), {});

describe('privacy-presidio recognizers', () => {
  it('finds email addresses, including non-ASCII ones, but not file names or bare handles', () => {
    expect(types('Write to jane.doe+billing@example.co.uk today.')).toEqual(['EMAIL_ADDRESS']);
    expect(types('Contact: josé.müller@correo.es')).toEqual(['EMAIL_ADDRESS']);
    expect(types('see icon@2x.png and @jane on the forum, or user@localhost')).toEqual([]);
  });

  it('finds phone numbers in US and international formats, validated against the numbering plan', () => {
    expect(types('Call (415) 555-0132 after lunch.')).toEqual(['PHONE_NUMBER']);
    expect(types('Our London office: +44 20 7946 0958.')).toEqual(['PHONE_NUMBER']);
    expect(types('Paris 0033 1 42 68 53 00')).toEqual(['PHONE_NUMBER']);
    expect(types('mobile +91 98765 43210')).toEqual(['PHONE_NUMBER']);
  });

  it('leaves dates, versions, amounts and invalid numbers alone', () => {
    expect(types('Released 2024-01-15, version 10.4.2, total 1,234,567 units, code 123-4567, id 1234567890')).toEqual([]);
    expect(types('The plan +1 000 000 0000 is not a number')).toEqual([]);
  });

  it('finds payment cards only when the Luhn checksum holds', () => {
    expect(types('Card: 4111 1111 1111 1111, exp 12/29')).toEqual(['CREDIT_CARD']);
    expect(types('Amex 3782-822463-10005')).toEqual(['CREDIT_CARD']);
    expect(types('card 5555555555554444')).toEqual(['CREDIT_CARD']);
    expect(types('Card: 4111 1111 1111 1112')).toEqual([]);
    expect(types('order 4111-1111 1111-1111')).toEqual([]); // mixed separators
  });

  it('finds IBANs only when mod-97 and the country format hold', () => {
    expect(types('Pay to DE89 3704 0044 0532 0130 00 by Friday')).toEqual(['IBAN_CODE']);
    expect(types('IBAN GB82WEST12345698765432.')).toEqual(['IBAN_CODE']);
    expect(types('IBAN GB82WEST12345698765433.')).toEqual([]);
    expect(types('Pay to DE89 3704 0044 0532 0130 00 AND more')).toEqual(['IBAN_CODE']);
  });

  it('finds US SSNs by the issuing rules, and bare nine digits only beside a context word', () => {
    expect(types('SSN 536-22-1234')).toEqual(['US_SSN']);
    expect(types('her number is 536 22 1234')).toEqual(['US_SSN']);
    expect(types('social security number 536221234')).toEqual(['US_SSN']);
    expect(types('reference 536221234')).toEqual([]);
    expect(types('SSN 000-22-1234, 666-22-1234, 536-00-1234, 536-22-0000, 078-05-1120')).toEqual([]);
    expect(types('ITIN 912-70-1234')).toEqual(['US_ITIN']);
  });

  it('finds public IP addresses (v4 and v6) and scores private ones and version strings below the threshold', () => {
    expect(types('login from 203.0.113.45 at noon')).toEqual(['IP_ADDRESS']);
    expect(types('peer 2a03:2880:f12f:83:face:b00c:0:25de')).toEqual(['IP_ADDRESS']);
    expect(types('gateway 192.168.1.1, loopback 127.0.0.1 and ::1, upgrade to v1.2.3.4')).toEqual([]);
    expect(types('gateway 192.168.1.1', 0.2)).toEqual(['IP_ADDRESS']);
    expect(types('at 12:30:45 and mac 00:1A:2B:3C:4D:5E, 999.1.1.1')).toEqual([]);
  });

  it('finds a date of birth only beside a birth word', () => {
    expect(types('DOB: 04/03/1985')).toEqual(['DATE_OF_BIRTH']);
    expect(types('born on March 4, 1985 in Ohio')).toEqual(['DATE_OF_BIRTH']);
    expect(types('date of birth 1985-03-04')).toEqual(['DATE_OF_BIRTH']);
    expect(types('the meeting is on 04/03/2025')).toEqual([]);
    expect(types('born 31/02/1985')).toEqual([]);
  });

  it('finds context-bound identifiers only with their context', () => {
    expect(types('passport number 912803456')).toEqual(['US_PASSPORT']);
    expect(types("driver's license D1234-5678-9012")).toEqual(['US_DRIVER_LICENSE']);
    expect(types('bank account number 000123456789')).toEqual(['US_BANK_NUMBER']);
    expect(types('NHS number 943 476 5919')).toEqual(['UK_NHS']);
    expect(types('NHS number 9434765918')).toEqual([]);
    expect(types('ticket 912803456, build D1234-5678-9012')).toEqual([]);
  });

  it('finds UK National Insurance numbers and crypto wallets with valid checksums', () => {
    expect(types('NI: AB 12 34 56 C')).toEqual(['UK_NINO']);
    expect(types('NI: GB 12 34 56 C')).toEqual([]);
    expect(types('send to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toEqual(['CRYPTO']);
    expect(types('send to 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toEqual([]);
    expect(types('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toEqual(['CRYPTO']);
    expect(types('my ETH wallet 0x52908400098527886E0F7030069857D2E4169EE7')).toEqual(['CRYPTO']);
    expect(types('commit 0x52908400098527886E0F7030069857D2E4169EE7')).toEqual([]);
  });

  it('does not flag UUIDs, hashes, version strings or ordinary prose', () => {
    const text =
      'Build 3f2504e0-4f89-11d3-9a0c-0305e82c3301 passed; commit 9fceb02d0ae598e95dc970b74767f19372d61af8 merged by the team ' +
      'on Tuesday. Node 20.11.1, Python 3.12.0. The meeting room holds 12 people and the budget is $45,000.';
    expect(types(text)).toEqual([]);
  });
});

describe('privacy-presidio method', () => {
  it('anonymizes by default with Dome-style labels, reporting types and spans but never the values', () => {
    const text = 'Mail jane@example.com or call (415) 555-0132.';
    const result = run(text);
    expect(result.hit).toBe(true);
    expect(result.sanitized).toBe('Mail [REDACTED - Email Address] or call [REDACTED - Phone Number].');
    expect(JSON.stringify(result.details)).not.toContain('jane@example.com');
    expect(result.details).toEqual({
      entities: [
        { type: 'EMAIL_ADDRESS', start: 5, end: 21, score: 1 },
        { type: 'PHONE_NUMBER', start: 30, end: 44, score: 0.9 },
      ],
    });
  });

  it('masks with redaction_style masked, and blocks (no sanitized text) without anonymize', () => {
    expect(run('to jane@example.com', { redaction_style: 'masked' }).sanitized).toBe('to ****************');
    const blocking = run('to jane@example.com', { anonymize: false });
    expect(blocking.hit).toBe(true);
    expect(blocking.sanitized).toBeUndefined();
  });

  it('honours entities, allow_list and score_threshold', () => {
    expect(run('jane@example.com and 4111 1111 1111 1111', { entities: ['CREDIT_CARD'] }).sanitized).toBe('jane@example.com and [REDACTED - Credit Card]');
    expect(run('write to support@acme.test', { allow_list: ['SUPPORT@acme.test'] }).hit).toBe(false);
    expect(run('call (415) 555-0132', { score_threshold: 0.95 }).hit).toBe(false);
  });

  it('validates its parameters and accepts Dome-only ones', () => {
    expect(() => privacyPresidio.parseParams({ allow_list_files: ['/etc/allow.txt'] })).not.toThrow();
    expect(() => privacyPresidio.parseParams({ score_threshold: 2 })).toThrow(GuardConfigError);
    expect(() => privacyPresidio.parseParams({ redaction_style: 'hashed' })).toThrow(/'labeled' or 'masked'/);
    expect(() => privacyPresidio.parseParams({ entities: ['PERSON'] })).toThrow(GuardConfigError);
    try {
      privacyPresidio.parseParams({ anonymise: true });
    } catch (error) {
      expect((error as GuardConfigError).path).toEqual(['anonymise']);
      expect((error as GuardConfigError).type).toBe('extra_forbidden');
    }
  });

  it('stays linear on pathological and huge inputs, and still finds what they hold', () => {
    const digits = '1'.repeat(200_000);
    const dotted = '1.'.repeat(100_000);
    const ats = 'a@'.repeat(100_000);
    const colons = 'a:'.repeat(100_000);
    for (const text of [digits, dotted, ats, colons, ' (4'.repeat(100_000), '1 '.repeat(100_000)]) expect(run(text).hit).toBe(false);
    const dense = 'mail a@example.com or call (415) 555-0132; '.repeat(5_000);
    expect(run(dense).details.entities).toHaveLength(10_000);
  });

  it('keeps finding phone numbers past the numbering-plan budget of a text, by their shape', () => {
    const numbers = Array.from({ length: 1_200 }, (_, i) => `(212) ${400 + (i % 500)}-${String(1000 + i).padStart(4, '0')}`);
    const text = `${numbers.join(', ')} and +1 (212) 000-0000`;
    const found = run(text, { anonymize: false }).details.entities as Array<{ type: string }>;
    expect(found).toHaveLength(1_200);
    expect(found.every((f) => f.type === 'PHONE_NUMBER')).toBe(true);
    const haystack = `${'lorem ipsum dolor sit amet '.repeat(20_000)}reach me at jane@example.com${' consectetur'.repeat(10_000)}`;
    const result = run(haystack);
    expect(result.details.entities).toEqual([{ type: 'EMAIL_ADDRESS', start: 540_012, end: 540_028, score: 1 }]);
  });

  it('keeps offsets right around astral characters and combining marks', () => {
    const text = '😀 café́ jane@example.com';
    const result = run(text);
    expect(result.sanitized).toBe('😀 café́ [REDACTED - Email Address]');
  });
});

describe('privacy-presidio: national phone formats per region (phone_regions)', () => {
  const phones = (text: string, phone_regions?: string[]) =>
    privacyPresidio.detect(text, privacyPresidio.parseParams({ anonymize: false, ...(phone_regions ? { phone_regions } : {}) }), {}).details
      .entities as Array<{ type: string }>;
  /** One number per region in its own national format (no country code). */
  const NATIONAL: Record<string, string> = {
    US: 'Call (415) 555-0132 after lunch.',
    UK: 'Ring the office on 020 7946 0958 tomorrow.',
    DE: 'Telefon: 030 12345678, bitte zurückrufen.',
    FR: 'Appelez le 01 42 68 53 00 avant midi.',
    IL: 'Phone the clinic at 03-612-3456 today.',
    IN: 'Reach me on 098765 43210 in the evening.',
    CA: 'Call the Toronto desk at (416) 234-5678.',
    BR: 'Ligue para (11) 91234-5678 hoje.',
  };

  for (const [region, text] of Object.entries(NATIONAL)) {
    it(`finds a ${region} number in its national format when ${region} is listed, and by default`, () => {
      expect(phones(text, [region]).map((e) => e.type)).toEqual(['PHONE_NUMBER']);
      expect(phones(text).map((e) => e.type)).toEqual(['PHONE_NUMBER']);
    });
  }

  for (const region of ['UK', 'DE', 'FR', 'IL', 'IN', 'BR']) {
    it(`leaves a ${region} national number alone when only US is listed`, () => {
      expect(phones(NATIONAL[region] as string, ['US'])).toEqual([]);
    });
  }

  it('finds a number written with its country code whatever the regions', () => {
    expect(phones('Our Paris office: +33 1 42 68 53 00.', ['US']).map((e) => e.type)).toEqual(['PHONE_NUMBER']);
  });

  it('refuses a region Presidio does not support, naming the entry', () => {
    expect(() => privacyPresidio.parseParams({ phone_regions: ['US', 'JP'] })).toThrow(GuardConfigError);
    try {
      privacyPresidio.parseParams({ phone_regions: ['US', 'JP'] });
    } catch (error) {
      expect((error as GuardConfigError).path).toEqual(['phone_regions', 1]);
    }
  });
});

describe('privacy-presidio: every IBAN country', () => {
  const specs = Object.entries(getCountrySpecifications()).filter(([, spec]) => spec.chars);
  const IBAN_ONLY = privacyPresidio.parseParams({ anonymize: false, entities: ['IBAN_CODE'] });
  const ibans = (text: string) =>
    (privacyPresidio.detect(text, IBAN_ONLY, {}).details.entities as unknown[]).length;
  /** A deterministic BBAN matching the country's format (bban_regexp), varied by `seed`. */
  function bban(pattern: string, seed: number): string {
    let out = '';
    let n = seed;
    for (const m of pattern.matchAll(/\[([^\]]+)\]\{(\d+)\}/g)) {
      const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      const alphabet = m[1] === '0-9' ? '0123456789' : m[1] === 'A-Z' ? letters : `0123456789${letters}`;
      for (let i = 0; i < Number(m[2]); i++) {
        n = (Math.imul(n, 1103515245) + 12345) >>> 0;
        out += alphabet[(n >>> 8) % alphabet.length];
      }
    }
    return out;
  }

  it('knows the 80-odd IBAN countries of the registry and beyond', () => {
    expect(specs.length).toBeGreaterThan(80);
  });

  for (const [country, spec] of specs) {
    it(`${country}: a valid IBAN of ${spec.chars} characters is found; one with failing check digits or the wrong length is not`, () => {
      let iban: string | null = null;
      // Some countries carry national check digits in the BBAN too: draw until one holds.
      for (let seed = 1; seed < 20_000 && !iban; seed++) {
        const candidate = composeIBAN({ countryCode: country, bban: bban(spec.bban_regexp as string, seed) });
        if (candidate && isValidIBAN(candidate)) iban = candidate;
      }
      expect(iban, `no valid ${country} IBAN generated`).not.toBeNull();
      const valid = iban as string;
      expect(valid).toHaveLength(spec.chars as number);
      expect(ibans(`Please transfer the deposit to ${valid} by Friday.`)).toBe(1);
      expect(ibans(`Please transfer the deposit to ${friendlyFormatIBAN(valid)} by Friday.`)).toBe(1);
      const check = Number(valid.slice(2, 4));
      const wrongCheck = `${valid.slice(0, 2)}${String(check === 97 ? 2 : check + 1).padStart(2, '0')}${valid.slice(4)}`;
      expect(ibans(`Please transfer the deposit to ${wrongCheck} by Friday.`)).toBe(0);
      const shorter = composeIBAN({ countryCode: country, bban: valid.slice(4, -1) });
      if (shorter) expect(ibans(`Please transfer the deposit to ${shorter} by Friday.`)).toBe(0);
    });
  }
});
