/**
 * Keeping an agent's key out of what the connector answers (docs/connector.md, "Secrets").
 * The key is only ever written into the Authorization header; these helpers clean what comes
 * back, because an agent (or a proxy in front of it) may echo the request in its answer.
 */

const REDACTED = '[redacted]';
/** A key shorter than this is not hunted inside free text (it would blank ordinary words). */
const MIN_SECRET_LENGTH = 4;
/** An error excerpt's word sharing this many consecutive characters with the key is blanked. */
const FRAGMENT_LENGTH = 8;

/** A spelling shorter than this, from base64 cut to the characters the key alone decides, is left alone (it could blank ordinary text). */
const MIN_SHIFTED_BASE64 = 12;

/**
 * The characters of base64 that only `bytes` decide, when `bytes` start `shift` bytes into a
 * longer encoded text: base64 is read in groups of three bytes, so a key echoed inside a
 * larger base64 blob (a proxy echoing the whole request) is spelled one of three ways.
 */
function shiftedBase64(bytes: Buffer, shift: 0 | 1 | 2, url: boolean): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
  const whole = (shift + bytes.length) % 3 === 0;
  return encoded.slice([0, 2, 3][shift], whole ? undefined : -1);
}

const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/**
 * The spellings of `secret` an echo may use: as is, JSON-escaped, URL-encoded, base64 (also of
 * `Bearer …`, and inside a longer base64 text), hexadecimal, reversed and ROT13 (the encodings
 * an agent may be asked to answer in).
 */
function spellings(secret: string): string[] {
  const forms = new Set<string>([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  for (const plain of [secret, `Bearer ${secret}`]) {
    const b64 = Buffer.from(plain).toString('base64');
    forms.add(b64);
    forms.add(b64.replace(/=+$/, ''));
    forms.add(Buffer.from(plain).toString('base64url'));
  }
  const bytes = Buffer.from(secret);
  for (const shift of [0, 1, 2] as const) {
    for (const url of [false, true]) {
      const form = shiftedBase64(bytes, shift, url);
      if (form.length >= MIN_SHIFTED_BASE64) forms.add(form);
    }
  }
  const hex = bytes.toString('hex');
  forms.add(hex);
  forms.add(hex.toUpperCase());
  forms.add([...secret].reverse().join(''));
  forms.add(rot13(secret));
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of `secret` (in its usual spellings) replaced by "[redacted]". */
export function redactSecret(text: string, secret: string | null | undefined): string {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return text;
  let out = text;
  for (const form of spellings(secret)) out = out.split(form).join(REDACTED);
  return out;
}

function sharesFragment(word: string, secret: string): boolean {
  const size = Math.min(FRAGMENT_LENGTH, secret.length);
  if (word.length < size) return false;
  for (let i = 0; i + size <= secret.length; i++) {
    if (word.includes(secret.slice(i, i + size))) return true;
  }
  return false;
}

/**
 * A short, one-line excerpt of an agent's error body for a person: control characters and
 * runs of space collapsed, cut at `max` characters, the key redacted, and any word that shares
 * a run of 8 characters with the key blanked too (a partly masked echo such as `sk-abc…wxyz`).
 */
export function bodyExcerpt(body: string, secret: string | null | undefined, max = 160): string {
  let text = redactSecret(body, secret)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (secret && secret.length >= MIN_SECRET_LENGTH) {
    text = text
      .split(/([\s"'`,;:=()[\]{}<>]+)/)
      .map((word) => (sharesFragment(word, secret) ? REDACTED : word))
      .join('');
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
