/**
 * The rules of `detect-secrets`: provider token formats (the plugins Dome enables in Yelp's
 * detect-secrets, and the newer providers), private key blocks, JWTs, passwords in URLs and in
 * assignments, and high-entropy strings beside a credential word. Every pattern has bounded
 * quantifiers (no match is longer than 4 KB, the windows' overlap) and a cheap substring hint
 * that lets a text without it skip the rule.
 */
import { before, shannonEntropy } from '../text.js';

export interface SecretRule {
  type: string;
  pattern: RegExp;
  /** Lower-case substrings; the rule runs only when the lower-cased text holds one of them. */
  hints?: readonly string[];
  /** The capture groups that hold the secret (the first present one is censored); the whole match otherwise. */
  groups?: readonly number[];
  score: number;
  /** A further check of the candidate (`value` is the secret part). */
  validate?(value: string, match: RegExpExecArray, text: string, start: number): boolean;
}

/** Values that stand for a secret in documentation and templates. */
const PLACEHOLDER =
  /^(?:\*+|x{3,}|\.{3,}|-+|_+|<[^>]*>|\[[^\]]*\]|\$\{[^}]*\}?|\{\{[^}]*\}\}|%[^%]+%|\$[A-Za-z_][A-Za-z0-9_]*|null|none|nil|true|false|undefined|string|str|number|int|boolean|bool|changeme|change_me|password|passw0rd|secret|token|redacted|hidden|masked|dummy|example\w*|sample\w*|your[_\- ]?\w*|my[_\- ]?\w*|placeholder|todo|tbd|required|optional)$/i;
/** A value that names where the secret comes from rather than being it. */
const REFERENCE = /^(?:os\.|process\.env|env\.|config\.|settings\.|self\.|this\.|secrets\.|vault:|ssm:|arn:|!)|\(|getenv|\bsecrets?manager\b/i;
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** Keys that hold something about a secret (its name, length, path…), not the secret. */
const NOT_A_SECRET_KEY =
  /(?:name|id|ids|arn|path|file|ref|type|len|length|count|version|manager|url|uri|endpoint|field|policy|expiry|expires|ttl|timeout|header|prefix|format|rotation|store|hint|label|env)$/i;

/**
 * A value written to stand for a key in documentation and examples: cut short (`sk-...`,
 * `sk-proj-…`), crossed out (`xxxx`, `****`), an angle-bracketed or `YOUR_…` name.
 */
const PLACEHOLDER_PART = /\.{3}|\u2026|x{4}|\*{3}|<[^>]*>|your[_\- ]|_here\b|(?:^|[_\-])(?:example|sample|dummy|fake|placeholder|redacted)(?:$|[_\-])/i;
/** A run of six ascending characters (`1234567890abcdef`): a random key all but never holds one. */
const ASCENDING_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
function hasAscendingRun(value: string, run = 6): boolean {
  const lower = value.toLowerCase();
  let length = 1;
  for (let i = 1; i < lower.length; i++) {
    const at = ASCENDING_ALPHABET.indexOf(lower[i - 1]!);
    length = at >= 0 && ASCENDING_ALPHABET[at + 1] === lower[i] ? length + 1 : 1;
    if (length >= run) return true;
  }
  return false;
}
export const isPlaceholder = (value: string) => PLACEHOLDER.test(value.trim()) || PLACEHOLDER_PART.test(value);

/**
 * A value that looks like a random key: at least 16 characters, letters and digits both, of
 * some entropy, no run of ten lower-case letters (a word: `feature-test-environmentsetup2024`
 * is a branch; a random mixed-case key holds such a run about once in 200), no placeholder
 * and no ascending run. Identifiers, words, versions and dates fail it.
 */
export function randomLookingKey(value: string): boolean {
  const body = value.replace(/=+$/, '');
  return (
    body.length >= 16 &&
    /\d/.test(body) &&
    /[A-Za-z]/.test(body) &&
    !/[a-z]{10}/.test(body) &&
    shannonEntropy(body) >= 3.2 &&
    !isPlaceholder(body) &&
    !hasAscendingRun(body)
  );
}

function classes(value: string): number {
  return Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value)) + Number(/[^A-Za-z0-9]/.test(value));
}

/**
 * An assigned or stated password that is neither a placeholder, a reference nor an ordinary
 * word: quoted, anything else; unquoted (prose, code), it must hold a digit or a symbol, or be
 * long and random-looking.
 */
export function plausibleSecretValue(value: string, quoted: boolean): boolean {
  const trimmed = value.trim();
  if (trimmed.length < 4 || isPlaceholder(trimmed) || REFERENCE.test(trimmed)) return false;
  if (quoted) return true;
  if (DOTTED_IDENTIFIER.test(trimmed)) return false;
  return /[^A-Za-z]/.test(trimmed) || (trimmed.length >= 16 && shannonEntropy(trimmed) >= 3.5);
}

const KEYWORD_CONTEXT =
  /(?<![a-z])(?:key|secret|token|password|passwd|pwd|credential|credentials|auth|authorization|bearer|api|signature|private|access)(?![a-z])/;
const hasKeywordBefore = (text: string, start: number) => KEYWORD_CONTEXT.test(before(text, start, 40).toLowerCase());

function jwtHeaderValid(value: string): boolean {
  const header = value.slice(0, value.indexOf('.'));
  try {
    const decoded = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as unknown;
    return typeof decoded === 'object' && decoded !== null && 'alg' in decoded;
  } catch {
    return false;
  }
}

const B = '(?<![A-Za-z0-9_\\-])';
const E = '(?![A-Za-z0-9_\\-])';
const re = (source: string, flags = 'g') => new RegExp(source, flags);
/** A JSON Web Token: base64url header and payload (both JSON objects, so both begin `eyJ`) and signature. */
const JWT_SOURCE = `${B}eyJ[A-Za-z0-9_\\-]{8,500}\\.eyJ[A-Za-z0-9_\\-]{8,3000}\\.[A-Za-z0-9_\\-]{0,500}${E}`;
const JWT = re(JWT_SOURCE);

/** Where the text holds JSON Web Tokens (a header that decodes to JSON naming its `alg`), as [start, end) spans. */
export function jwtSpans(text: string): Array<[number, number]> {
  if (!text.includes('eyJ')) return [];
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(JWT)) if (jwtHeaderValid(m[0])) spans.push([m.index, m.index + m[0].length]);
  return spans;
}
/** A token's characters (base64, base64url, JWT dots), not ending with a full stop; and what may not follow it. */
const TOKEN_BODY = '[A-Za-z0-9._~+/\\-]{15,1000}[A-Za-z0-9_~+/\\-]={0,2}';
const TOKEN_END = '(?![A-Za-z0-9_~+/=\\-]|\\.[A-Za-z0-9])';

export const SECRET_RULES: readonly SecretRule[] = [
  {
    type: 'aws-access-key-id',
    pattern: re(`(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z2-7]{16}(?![A-Z0-9])`),
    hints: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'apka', 'asca'],
    score: 1,
  },
  {
    type: 'aws-secret-access-key',
    pattern: re('(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])'),
    hints: ['aws', 'secret'],
    score: 0.9,
    validate: (value, _m, text, start) =>
      classes(value) >= 3 && shannonEntropy(value) >= 4 && /aws|secret/.test(before(text, start, 60).toLowerCase()),
  },
  { type: 'gcp-api-key', pattern: re(`${B}AIza[0-9A-Za-z_\\-]{35}${E}`), hints: ['aiza'], score: 1 },
  { type: 'gcp-oauth-client-secret', pattern: re(`${B}GOCSPX-[A-Za-z0-9_\\-]{28}${E}`), hints: ['gocspx-'], score: 1 },
  { type: 'google-oauth-token', pattern: re(`${B}ya29\\.[0-9A-Za-z_\\-]{20,1000}${E}`), hints: ['ya29.'], score: 1 },
  { type: 'gcp-service-account-key', pattern: re('"private_key_id"\\s{0,5}:\\s{0,5}"([0-9a-f]{40})"'), hints: ['private_key_id'], groups: [1], score: 1 },
  {
    type: 'azure-storage-key',
    pattern: re('(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{42,86}={0,2})', 'gi'),
    hints: ['accountkey=', 'sharedaccesskey='],
    groups: [1],
    score: 1,
  },
  {
    type: 'azure-client-secret',
    pattern: re('(?<![A-Za-z0-9_~.\\-])[A-Za-z0-9_~.\\-]{3}\\dQ~[A-Za-z0-9_~.\\-]{31,34}(?![A-Za-z0-9_~.\\-])'),
    hints: ['q~'],
    score: 1,
  },
  { type: 'azure-sas-token', pattern: re('[?&]sig=([A-Za-z0-9%+/=]{40,120})(?![A-Za-z0-9%+/=])'), hints: ['sig='], groups: [1], score: 0.9 },
  {
    type: 'github-token',
    pattern: re(`${B}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{82,255})${E}`),
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    score: 1,
  },
  {
    type: 'gitlab-token',
    pattern: re(`${B}(?:(?:glpat|gldt|glrt|glptt|glft|glsoat|glcbt|gloas|glimt|glagent)-[A-Za-z0-9_\\-]{20,64}|GR1348941[A-Za-z0-9_\\-]{20,64})${E}`),
    hints: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-', 'glcbt-', 'gloas-', 'glimt-', 'glagent-', 'gr1348941'],
    score: 1,
  },
  { type: 'slack-token', pattern: re(`${B}xox[abposr]-[A-Za-z0-9\\-]{10,250}${E}`), hints: ['xox'], score: 1 },
  {
    type: 'slack-webhook',
    pattern: re('https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_\\-]{20,200}'),
    hints: ['hooks.slack.com'],
    score: 1,
  },
  {
    type: 'stripe-key',
    pattern: re(`${B}(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{20,247}${E}|${B}whsec_[A-Za-z0-9]{32,128}${E}`),
    hints: ['_live_', '_test_', 'whsec_'],
    score: 1,
  },
  {
    type: 'openai-api-key',
    pattern: re(`${B}sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\\-]{40,250}|[A-Za-z0-9]{48}|[A-Za-z0-9_\\-]{20,200}T3BlbkFJ[A-Za-z0-9_\\-]{20,200})${E}`),
    hints: ['sk-'],
    score: 1,
  },
  { type: 'anthropic-api-key', pattern: re(`${B}sk-ant-[A-Za-z0-9_\\-]{32,250}${E}`), hints: ['sk-ant-'], score: 1 },
  { type: 'huggingface-token', pattern: re(`${B}hf_[A-Za-z0-9]{34,40}${E}`), hints: ['hf_'], score: 1, validate: (value) => classes(value) >= 3 },
  { type: 'groq-api-key', pattern: re(`${B}gsk_[A-Za-z0-9]{52}${E}`), hints: ['gsk_'], score: 1 },
  { type: 'npm-token', pattern: re(`${B}npm_[A-Za-z0-9]{36}${E}`), hints: ['npm_'], score: 1 },
  { type: 'pypi-token', pattern: re(`${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\\-]{50,300}${E}`), hints: ['pypi-ageichlwas5vcmc'], score: 1 },
  { type: 'sendgrid-key', pattern: re(`${B}SG\\.[A-Za-z0-9_\\-]{22}\\.[A-Za-z0-9_\\-]{43}${E}`), hints: ['sg.'], score: 1 },
  { type: 'mailchimp-key', pattern: re(`${B}[0-9a-f]{32}-us\\d{1,2}${E}`), hints: ['-us'], score: 1 },
  { type: 'twilio-key', pattern: re(`(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])`), hints: ['sk'], score: 0.9 },
  { type: 'telegram-bot-token', pattern: re(`(?<![\\d:])\\d{8,10}:AA[A-Za-z0-9_\\-]{33}${E}`), hints: [':aa'], score: 1 },
  { type: 'discord-bot-token', pattern: re(`${B}[MNO][A-Za-z\\d_\\-]{23,25}\\.[A-Za-z\\d_\\-]{6}\\.[A-Za-z\\d_\\-]{27,38}${E}`), score: 1 },
  { type: 'square-token', pattern: re(`${B}(?:sq0(?:csp|atp|idp)-[0-9A-Za-z_\\-]{22,43}|EAAA[A-Za-z0-9_\\-]{60})${E}`), hints: ['sq0', 'eaaa'], score: 1 },
  { type: 'shopify-token', pattern: re(`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}${E}`), hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], score: 1 },
  { type: 'digitalocean-token', pattern: re(`${B}do[opr]_v1_[a-f0-9]{64}${E}`), hints: ['_v1_'], score: 1 },
  { type: 'databricks-token', pattern: re(`${B}dapi[a-f0-9]{32}(?:-\\d)?${E}`), hints: ['dapi'], score: 1 },
  { type: 'artifactory-token', pattern: re(`${B}(?:AKCp[A-Za-z0-9]{69}|cmVmdGtu[A-Za-z0-9]{56})${E}`), hints: ['akcp', 'cmvmdgtu'], score: 1 },
  {
    type: 'jwt',
    pattern: re(JWT_SOURCE),
    hints: ['eyj'],
    score: 1,
    validate: jwtHeaderValid,
  },
  {
    type: 'basic-auth-header',
    pattern: re('(?<![a-z])basic\\s{1,3}([A-Za-z0-9+/]{8,400}={0,2})(?![A-Za-z0-9+/=])', 'gi'),
    hints: ['basic'],
    groups: [1],
    score: 0.9,
    validate(value, _m, text, start) {
      if (!/authorization|auth/.test(before(text, start, 40).toLowerCase())) return false;
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      return /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(decoded);
    },
  },
  {
    type: 'url-password',
    pattern: re('(?<![A-Za-z0-9+.\\-])[A-Za-z][A-Za-z0-9+.\\-]{1,20}://[^\\s:/?#@"\'<>]{1,128}:([^\\s/?#@"\'<>]{1,256})@[A-Za-z0-9.\\-\\[\\]:%_]{1,255}'),
    hints: ['://'],
    groups: [1],
    score: 1,
    validate: (value) => plausibleSecretValue(decodeURIComponentSafe(value), true),
  },
  {
    type: 'keyword-assignment',
    pattern: re(
      '(?<![A-Za-z0-9])((?:[A-Za-z0-9]{1,30}[_\\-.])?(?:password|passwd|pwd|passphrase|secret|token|api[_\\-]?key|apikey|access[_\\-]?key|auth[_\\-]?key|' +
        'client[_\\-]?secret|private[_\\-]?key|credentials?|(?:access|auth|bearer|refresh|session|id|app|bot|signing|master)[_\\-]?(?:token|secret))' +
        '(?:[_\\-.][A-Za-z0-9]{1,20})?)["\']?[ \\t]{0,5}(?::=|=>|=|:)[ \\t]{0,5}' +
        '(?:"([^"\\r\\n]{4,256})"|\'([^\'\\r\\n]{4,256})\'|([^\\s"\',;)}\\]]{4,256}))',
      'gi',
    ),
    hints: ['pass', 'pwd', 'secret', 'token', 'key', 'credential'],
    groups: [2, 3, 4],
    score: 0.9,
    // A quoted password may be any word; a quoted token or key is held to the unquoted rule
    // (a digit or a symbol, or long and random), so `"token": "expired"` is not one.
    validate: (value, m) =>
      !NOT_A_SECRET_KEY.test(m[1] ?? '') && plausibleSecretValue(value, m[4] === undefined && !/(?:token|key)$/i.test(m[1] ?? '')),
  },
  {
    // What a person calls an API key without a provider's format: a short prefix, an
    // environment marker and a random part (`sk-live-…`, `ak_prod_…`, `rk_test_…`), in `-` or
    // `_` spelling. Stripe's publishable `pk_` keys are made to be shared.
    type: 'prefixed-api-key',
    pattern: re(`${B}([A-Za-z]{2,12})[-_](?:live|test|prod|production|dev|staging|sandbox)[-_]([A-Za-z0-9]{16,200})${E}`, 'gi'),
    hints: ['-live', '_live', '-test', '_test', '-prod', '_prod', '-dev', '_dev', '-staging', '_staging', '-sandbox', '_sandbox'],
    score: 1,
    validate: (_value, m) => m[1]!.toLowerCase() !== 'pk' && randomLookingKey(m[2]!),
  },
  {
    // `sk-` followed by a random part of any length (OpenAI's older keys, and the many services
    // that copied the shape); the provider rules above catch the longer known formats.
    type: 'sk-api-key',
    pattern: re(`${B}sk[-_]([A-Za-z0-9]{20,200})${E}`),
    hints: ['sk-', 'sk_'],
    score: 1,
    validate: (value) => randomLookingKey(value.slice(3)),
  },
  {
    // A bearer token in an Authorization header or a curl line; detect-secrets' keyword
    // detector's idea, held to a random-looking value (`Bearer $TOKEN`, `Bearer <token>` pass).
    type: 'bearer-token',
    pattern: re(`(?<![A-Za-z])bearer[ \\t]{1,3}(${TOKEN_BODY})${TOKEN_END}`, 'gi'),
    hints: ['bearer'],
    groups: [1],
    score: 0.9,
    validate: (value) => randomLookingKey(value),
  },
  {
    // A key stated in prose: "your API key is 4eC39…", "the token was …".
    type: 'key-in-text',
    pattern: re(
      '(?<![a-z])(?:api[ _\\-]?key|access[ _\\-]?key|secret[ _\\-]?key|access[ _\\-]?token|auth(?:entication)?[ _\\-]?token|token|secret|key)' +
        `\\s{1,3}(?:is|was)\\s{0,3}:?\\s{0,3}["'\u201c\`]?(${TOKEN_BODY})${TOKEN_END}`,
      'gi',
    ),
    hints: ['key', 'token', 'secret'],
    groups: [1],
    score: 0.9,
    validate: (value) => randomLookingKey(value),
  },
  {
    type: 'password-in-text',
    pattern: re('(?<![a-z])(?:password|passcode|passphrase|pin code|pwd)\\s{1,3}(?:is|was)\\s{0,3}[:\\-]?\\s{0,3}["\'\u201c]?([^\\s"\'\u201d]{4,128})', 'gi'),
    hints: ['pass', 'pwd', 'pin code'],
    groups: [1],
    score: 0.8,
    validate: (value) => plausibleSecretValue(value.replace(/[.,;!?)]+$/, ''), false),
  },
];

/** Private key blocks: from BEGIN to its END line, found with indexOf (blocks can be longer than a window). */
export const PRIVATE_KEY_BEGIN = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d: /g;

/** High-entropy strings, reported only beside a credential word (hashes and ids in logs are not secrets). */
export const BASE64_CANDIDATE = /(?<![A-Za-z0-9+/=_\-])[A-Za-z0-9+/_\-]{20,512}={0,2}(?![A-Za-z0-9+/=_\-])/g;
export const HEX_CANDIDATE = /(?<![A-Za-z0-9_\-])(?:[0-9a-f]{32,512}|[0-9A-F]{32,512})(?![A-Za-z0-9_\-])/g;
export { hasKeywordBefore };

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
