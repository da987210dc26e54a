import { describe, expect, it } from 'vitest';
import { detectSecrets, findSecrets } from './detect-secrets.js';

/** Deterministic random-looking strings: test tokens are made here, never copied from anywhere. */
function fake(alphabet: string, length: number, seed = 7): string {
  let state = seed >>> 0;
  let out = '';
  for (let i = 0; i < length; i++) {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return out;
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const B64URL = `${ALNUM}_-`;

const DEFAULTS = detectSecrets.parseParams({});
const kinds = (text: string) => findSecrets(text, DEFAULTS).map((f) => f.type);
const jwt = () => {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: 'user-42', iat: 1700000000 })}.${fake(B64URL, 43)}`;
};

describe('detect-secrets rules', () => {
  const cases: Array<[string, string]> = [
    ['aws-access-key-id', `aws_access_key_id = AKIA${fake('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`],
    ['aws-secret-access-key', `aws_secret_access_key = ${fake(`${ALNUM}/+`, 40, 3)}`],
    ['gcp-api-key', `key=AIza${fake(B64URL, 35)}`],
    ['gcp-oauth-client-secret', `client secret GOCSPX-${fake(B64URL, 28)}`],
    ['azure-storage-key', `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${fake(`${ALNUM}+/`, 86)}==;EndpointSuffix=core.windows.net`],
    ['azure-client-secret', `AZURE_CLIENT_SECRET value ${fake(ALNUM, 3)}8Q~${fake(ALNUM, 34)}`],
    ['github-token', `use ghp_${fake(ALNUM, 36)} for the API`],
    ['github-token', `github_pat_${fake(`${ALNUM}_`, 82)}`],
    ['gitlab-token', `CI token glpat-${fake(B64URL, 20)}`],
    ['slack-token', `SLACK_BOT=xoxb-${fake('0123456789', 12)}-${fake('0123456789', 13)}-${fake(ALNUM, 24)}`],
    ['slack-webhook', `post to https://hooks.slack.com/services/T${fake('ABCDEFGHIJ0123456789', 8)}/B${fake('ABCDEFGHIJ0123456789', 8)}/${fake(ALNUM, 24)}`],
    ['stripe-key', `stripe.api_key = sk_live_${fake(ALNUM, 24)}`],
    ['openai-api-key', `OPENAI_API_KEY=sk-proj-${fake(B64URL, 64)}`],
    ['openai-api-key', `key sk-${fake(ALNUM, 20)}T3BlbkFJ${fake(ALNUM, 20)}`],
    ['anthropic-api-key', `x-api-key: sk-ant-api03-${fake(B64URL, 93)}AA`],
    ['huggingface-token', `HF token hf_${fake(ALNUM, 34)}`],
    ['npm-token', `//registry.npmjs.org/:_authToken=npm_${fake(ALNUM, 36)}`],
    ['sendgrid-key', `SG.${fake(B64URL, 22)}.${fake(B64URL, 43)}`],
    ['mailchimp-key', `mailchimp ${fake(HEX, 32)}-us14`],
    ['telegram-bot-token', `bot 123456789:AA${fake(B64URL, 33)}`],
    ['jwt', `Authorization: Bearer ${jwt()}`],
    ['url-password', 'DATABASE_URL=postgres://app:Zq8!vR2m@db.internal:5432/main'],
    ['url-password', 'mongodb+srv://admin:Tr0ub4dor%263@cluster0.example.net/test'],
    ['keyword-assignment', 'db_password = "correct horse battery"'],
    ['keyword-assignment', '{"client_secret": "a8F3kd92LmQp"}'],
    ['keyword-assignment', 'API_KEY: 9f8e7d6c5b4a'],
    ['password-in-text', 'my password is Hunter2024!'],
    ['basic-auth-header', `Authorization: Basic ${Buffer.from('admin:s3cr3t-pass').toString('base64')}`],
    ['base64-high-entropy', `signing secret for the webhook ${fake(`${ALNUM}+/`, 44, 11)}`],
    ['hex-high-entropy', `api token ${fake(HEX, 64, 5)}`],
    // What a person calls an API key without a provider's format (issue 29): bare, with no credential word near.
    ['prefixed-api-key', `Sure! sk-live-${fake(ALNUM, 24, 21)}`],
    ['prefixed-api-key', `use sk_test-${fake(ALNUM, 24, 22)} while you try it`],
    ['prefixed-api-key', `ak_prod_${fake(ALNUM, 32, 23)}`],
    ['prefixed-api-key', `rk-sandbox-${fake(HEX, 32, 24)}`],
    ['sk-api-key', `Done: sk-${fake(ALNUM, 32, 25)}`],
    ['keyword-assignment', `{"accessToken": "${fake(ALNUM, 20, 26)}"}`],
    ['keyword-assignment', `"authToken":"${fake(ALNUM, 24, 27)}"`],
    ['keyword-assignment', `export API_KEY=${fake(ALNUM, 20, 28)}`],
    ['bearer-token', `Authorization: Bearer ${fake(ALNUM, 24, 29)}`],
    ['bearer-token', `curl -H "Authorization: Bearer ${fake(B64URL, 40, 30)}" https://api.example.com/v1`],
    ['key-in-text', `Your API key is ${fake(ALNUM, 28, 31)}.`],
    ['key-in-text', `the access token was "${fake(ALNUM, 32, 32)}"`],
    // Some services' keys are UUIDs: one stated as the key is taken for one.
    ['key-in-text', 'your API key is 5f0c8e2a-9b1d-4c3e-8a7f-2d6b4e9c1a30'],
  ];
  for (const [kind, text] of cases) {
    it(`finds ${kind} in "${text.slice(0, 40)}…"`, () => expect(kinds(text)).toContain(kind));
  }

  it('finds a private key block from BEGIN to END, and a cut-off block to the next blank line', () => {
    const block = `-----BEGIN RSA PRIVATE KEY-----\n${fake(`${ALNUM}+/`, 64)}\n${fake(`${ALNUM}+/`, 64)}\n-----END RSA PRIVATE KEY-----`;
    const text = `key:\n${block}\nthanks`;
    expect(findSecrets(text, DEFAULTS)).toEqual([{ type: 'private-key', start: 5, end: 5 + block.length, score: 1 }]);
    const cut = `-----BEGIN OPENSSH PRIVATE KEY-----\n${fake(ALNUM, 70)}\n\nRegards`;
    expect(findSecrets(cut, DEFAULTS)).toEqual([{ type: 'private-key', start: 0, end: cut.indexOf('\n\n'), score: 1 }]);
  });

  it('leaves look-alikes alone: hashes, UUIDs, placeholders, references, public keys, prose', () => {
    const clean = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Jane <jane@example.com>',
      'sha256: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
      'request id 3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      'password: ********',
      'password = "<your-password>"',
      'api_key: ${API_KEY}',
      'token = os.environ["TOKEN"]',
      'const token = getToken(user);',
      'password = req.body.password',
      'secret_name: prod-db-secret',
      'max_tokens: 2000, password_min_length: 12',
      'Password: must be at least 8 characters long.',
      'The password is incorrect, please try again.',
      'pk_live_51Hx is a publishable key and safe to share',
      `publishable key pk_live_${fake(ALNUM, 24, 9)} goes in the browser`,
      '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
      'Visit https://example.com/docs/getting-started?ref=nav for details',
      'The state-of-the-art-language-understanding-benchmark improved.',
      'eyJhbGciOiJIUzI1NiJ9 alone is just a base64 header',
      // Look-alikes of the issue-29 shapes: ids, hashes, images, references and placeholders.
      'HEAD is now at 3f9c2a1b7e4d5f60819a2b3c4d5e6f7081920a1b, the key is in the config',
      'token refresh for request 123e4567-e89b-12d3-a456-426614174000 failed', // a UUID beside the word, not stated as the key
      '"integrity": "sha512-Q2f3kdl9v0x8c7b6n5m4a3s2d1f0g9h8j7k6l5z4x3c2v1b0n9m8a7s6d5f4g3h2j1k0l9z8x7c6v5b4n3m2a1s0d9f8g7h6j5k4l3=="',
      `Here is the API key screenshot: ![api key](data:image/png;base64,${fake(`${ALNUM}+/`, 120, 33)}==)`,
      'const apiKey = process.env.OPENAI_API_KEY;',
      'apiKey = config.apiKey',
      'OPENAI_API_KEY=sk-...',
      'OPENAI_API_KEY=sk-proj-…',
      'api_key = "YOUR_API_KEY"',
      'export STRIPE_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx',
      'token: xxxxxxxxxxxxxxxx',
      'sk-xxxxxxxxxxxxxxxxxxxxxxxx and sk-1234567890abcdef1234567890abcdef are examples',
      'Authorization: Bearer <token>',
      'Authorization: Bearer $TOKEN',
      'curl -H "Authorization: Bearer ${API_KEY}"',
      'Authorization: Bearer YOUR_ACCESS_TOKEN_HERE',
      '{"token": "expired", "token_type": "Bearer"}',
      'The key is the primary key of the table.',
      'the token is valid for 3600 seconds',
      'git checkout feature-test-environmentsetup2024',
      'def test_case_runner_for_all_modules1(): pass',
      'scikit-learn and task_queue_worker_2024_01 are names',
    ];
    for (const text of clean) expect(kinds(text), text).toEqual([]);
  });

  it('turns the entropy rules off with entropy: false and honours the limits', () => {
    const text = `signing secret for the webhook ${fake(`${ALNUM}+/`, 44, 11)}`;
    expect(findSecrets(text, { ...DEFAULTS, entropy: false })).toEqual([]);
    expect(findSecrets(text, { ...DEFAULTS, base64_limit: 7.9 })).toEqual([]);
  });
});

describe('detect-secrets method', () => {
  it('censors like Dome (first character kept) and reports kinds and spans, never values', () => {
    const token = `ghp_${fake(ALNUM, 36)}`;
    const text = `token ${token} here`;
    const result = detectSecrets.detect(text, DEFAULTS, {}) as { hit: boolean; sanitized?: string; details: Record<string, unknown> };
    expect(result.hit).toBe(true);
    expect(result.sanitized).toBe(`token g${'*'.repeat(token.length - 1)} here`);
    expect(result.details).toEqual({ secrets: [{ type: 'github-token', start: 6, end: 6 + token.length }] });
    expect(JSON.stringify(result.details)).not.toContain(token);
  });

  it('censors only the value of an assignment or a URL password', () => {
    const result = detectSecrets.detect('postgres://app:Zq8!vR2m@db:5432/x', DEFAULTS, {}) as { sanitized?: string };
    expect(result.sanitized).toBe('postgres://app:Z*******@db:5432/x');
  });

  it('blocks instead of censoring with censor: false', () => {
    const result = detectSecrets.detect(`AKIA${fake('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`, detectSecrets.parseParams({ censor: false }), {}) as {
      hit: boolean;
      sanitized?: string;
    };
    expect(result.hit).toBe(true);
    expect(result.sanitized).toBeUndefined();
  });

  it('stays linear on pathological inputs and finds a secret deep in a huge text', () => {
    const pathological = [
      'a'.repeat(300_000),
      'password = '.repeat(30_000),
      'sk-'.repeat(100_000),
      'eyJ'.repeat(100_000),
      `${'ab:'.repeat(50_000)}//`,
      'bearer '.repeat(50_000),
      `Bearer ${'a.'.repeat(100_000)}`,
      'sk-live-'.repeat(40_000),
      'the key is '.repeat(30_000),
      '"accessToken": '.repeat(20_000),
    ];
    for (const text of pathological) {
      expect(detectSecrets.detect(text, DEFAULTS, {}).hit, text.slice(0, 12)).toBe(false);
    }
    const token = `glpat-${fake(B64URL, 20)}`;
    const text = `${'word '.repeat(100_000)}${token}${' word'.repeat(10_000)}`;
    expect(findSecrets(text, DEFAULTS)).toEqual([{ type: 'gitlab-token', start: 500_000, end: 500_000 + token.length, score: 1 }]);
  });
});
