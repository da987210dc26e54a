// Writes bench/guard/labelled-privacy.jsonl: a labelled set for privacy-presidio, detect-secrets and
// moderation-flashtext, written for Warden (no outside data). Values that carry a checksum are computed
// here (Luhn, mod-97, base58check) so positives are valid and look-alike negatives are deliberately not.
// Deterministic: `node bench/guard/make-labelled.mjs` rewrites the same file.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

let seed = 20251126;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdef';
const B64URL = `${ALNUM}_-`;
const DIGITS = '0123456789';

function luhnComplete(prefix, length) {
  const body = prefix + chars(DIGITS, length - prefix.length - 1);
  for (let d = 0; d <= 9; d++) {
    const candidate = body + d;
    let sum = 0;
    let dbl = false;
    for (let i = candidate.length - 1; i >= 0; i--) {
      let v = Number(candidate[i]);
      if (dbl) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
      dbl = !dbl;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}
const breakLuhn = (number) => number.slice(0, -1) + ((Number(number.at(-1)) + 1) % 10);
const group = (digits, sizes, sep) => {
  const out = [];
  let i = 0;
  for (const size of sizes) {
    out.push(digits.slice(i, i + size));
    i += size;
  }
  return out.join(sep);
};

function iban(country, bban) {
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of rearranged) rest = (rest * 10 + Number(ch)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}
function nhsNumber() {
  for (;;) {
    const body = chars(DIGITS, 9);
    const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (10 - i), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return `${body}${check === 11 ? 0 : check}`;
  }
}
/** National check digits, so the generated BBANs are what a bank would issue (ibantools checks them for BE, ES, FR). */
function belgianBban() {
  const body = chars(DIGITS, 10);
  const check = Number(BigInt(body) % 97n) || 97;
  return `${body}${String(check).padStart(2, '0')}`;
}
function spanishBban() {
  const weights = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6];
  const control = (digits) => {
    const d = 11 - ([...digits].reduce((acc, c, i) => acc + Number(c) * weights[i], 0) % 11);
    return d === 11 ? 0 : d === 10 ? 1 : d;
  };
  const bankBranch = chars(DIGITS, 8);
  const account = chars(DIGITS, 10);
  return `${bankBranch}${control(`00${bankBranch}`)}${control(account)}${account}`;
}
function frenchBban() {
  const bank = chars(DIGITS, 5);
  const branch = chars(DIGITS, 5);
  const account = chars(DIGITS, 11);
  const key = 97 - Number((89n * BigInt(bank) + 15n * BigInt(branch) + 3n * BigInt(account)) % 97n);
  return `${bank}${branch}${account}${String(key).padStart(2, '0')}`;
}
const spaced = (value) => value.replace(/(.{4})/g, '$1 ').trim();

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58check(version) {
  const payload = Buffer.concat([Buffer.from([version]), Buffer.from(Array.from({ length: 20 }, () => Math.floor(random() * 256)))]);
  const checksum = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest().subarray(0, 4);
  const bytes = Buffer.concat([payload, checksum]);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

const items = [];
const add = (method, label, kind, text, note) =>
  items.push({ id: `${method}-${String(items.length + 1).padStart(3, '0')}`, method, label, kind, text, ...(note ? { note } : {}) });
const pii = (kind, text) => add('privacy-presidio', true, kind, text);
const notPii = (text, note) => add('privacy-presidio', false, null, text, note);
const secret = (kind, text) => add('detect-secrets', true, kind, text);
const notSecret = (text, note) => add('detect-secrets', false, null, text, note);
const toxic = (kind, text) => add('moderation-flashtext', true, kind, text);
const benign = (text, note) => add('moderation-flashtext', false, null, text, note);

// ------------------------------------------------------------------ PII: positives
for (const email of [
  'maria.lopez@northwind.io', 'j.smith+invoices@mail.acme-corp.com', 'dev_ops@sub.example.org', 'ANNA.K@EXAMPLE.CO.UK',
  'françois.dupont@exemple.fr', 'li.wei88@campus.edu.cn', 'billing@shop.example.travel', 'x@y.io',
]) {
  pii('EMAIL_ADDRESS', pick([
    `Please forward the contract to ${email} by Monday.`,
    `Reply-To: ${email}`,
    `You can reach our coordinator at ${email}; she handles refunds.`,
    `${email} asked about the delayed shipment.`,
  ]));
}
for (const phone of [
  '(415) 555-0132', '212-456-7890', '650.253.0000', '+1 202 456 1111', '+44 20 7946 0958', '+33 1 42 68 53 00',
  '+49 30 901820', '+91 98765 43210', '+81 3-3224-9999', '+61 2 9374 4000', '0044 20 7946 0321', '+1 (800) 275-2273',
]) {
  pii('PHONE_NUMBER', pick([
    `Call me on ${phone} after six.`,
    `Phone: ${phone}`,
    `The front desk number is ${phone}, ask for Sam.`,
    `If the app fails, text ${phone} with your order id.`,
  ]));
}
const cards = [
  group(luhnComplete('4', 16), [4, 4, 4, 4], ' '),
  group(luhnComplete('4', 16), [4, 4, 4, 4], '-'),
  luhnComplete('4', 16),
  group(luhnComplete('51', 16), [4, 4, 4, 4], ' '),
  luhnComplete('55', 16),
  group(luhnComplete('2221', 16), [4, 4, 4, 4], ' '),
  group(luhnComplete('37', 15), [4, 6, 5], ' '),
  group(luhnComplete('34', 15), [4, 6, 5], '-'),
  group(luhnComplete('6011', 16), [4, 4, 4, 4], ' '),
  luhnComplete('65', 16),
];
for (const card of cards) {
  pii('CREDIT_CARD', pick([
    `My card number is ${card}, expiry 09/28.`,
    `Charge ${card} for the annual plan.`,
    `card: ${card} cvv on the back`,
    `Use ${card} for the hotel deposit.`,
  ]));
}
const ibans = [
  iban('DE', `37040044${chars(DIGITS, 10)}`),
  iban('GB', `WEST${chars(DIGITS, 14)}`),
  iban('FR', frenchBban()),
  iban('ES', spanishBban()),
  iban('NL', `ABNA${chars(DIGITS, 10)}`),
  iban('IT', `X${chars(DIGITS, 10)}${chars(DIGITS, 12)}`),
  iban('BE', belgianBban()),
  iban('CH', chars(DIGITS, 17)),
];
ibans.forEach((value, i) =>
  pii('IBAN_CODE', pick([
    `Wire the deposit to IBAN ${i % 2 ? spaced(value) : value}.`,
    `Bank details: ${spaced(value)} (account holder: K. Meyer)`,
    `Refund goes to ${value} as agreed.`,
  ])),
);
for (const ssn of ['536-22-1234', '401-58-9920', '123-67-4410', '772 41 0987', '229-10-5566', '618-44-3012']) {
  pii('US_SSN', pick([
    `SSN: ${ssn}`,
    `Her social security number is ${ssn}.`,
    `Employee record: name Dana Fox, SSN ${ssn}, start date March.`,
    `${ssn} is the SSN on file.`,
  ]));
}
pii('US_SSN', 'social security number 536221234 on the W-2');
pii('US_SSN', 'ssn=401589920');
pii('US_ITIN', 'ITIN 912-70-1234 for the tax filing');
pii('US_ITIN', 'Taxpayer ID: 987-88-5501');
for (const ip of [
  '203.0.113.45', '8.8.4.4', '151.101.65.69', '93.184.216.34',
  '2a03:2880:f12f:83:face:b00c:0:25de', '2606:4700:4700::1111', '2001:4860:4860::8844', '81.2.69.160',
]) {
  pii('IP_ADDRESS', pick([`Suspicious login from ${ip} at 03:12 UTC.`, `client_ip=${ip}`, `The user connected from ${ip} twice today.`]));
}
for (const text of [
  'DOB: 04/03/1985',
  'Patient born on March 4, 1985 in Dayton.',
  'date of birth 1990-11-23, blood type O+',
  'Birthday: 7 July 1978',
  'd.o.b. 12.01.1964 (verified)',
  'He was born 02/29/1996 according to the form.',
]) {
  pii('DATE_OF_BIRTH', text);
}
pii('US_PASSPORT', 'Passport number 912803456, issued 2019.');
pii('US_PASSPORT', 'passport no A12345678 expires next year');
pii('US_PASSPORT', 'My passport: 487201936');
pii('US_DRIVER_LICENSE', "Driver's license D1234-5678-9012 (Illinois)");
pii('US_DRIVER_LICENSE', 'driver license S530-4128-7712 on the rental form');
pii('US_DRIVER_LICENSE', 'DL# W4418820 issued in California');
pii('US_BANK_NUMBER', 'bank account number 000123456789, routing on file');
pii('US_BANK_NUMBER', 'Checking account 4402187733 at First Federal');
pii('UK_NINO', 'National Insurance: AB 12 34 56 C');
pii('UK_NINO', 'NINO JG103759A on the payslip');
pii('UK_NINO', 'her NI number is PR 73 01 88 D');
pii('UK_NHS', 'NHS number 943 476 5919');
pii('UK_NHS', `NHS no. ${group(nhsNumber(), [3, 3, 4], '-')} for the referral`);
pii('CRYPTO', `Send the payment to ${base58check(0)} today.`);
pii('CRYPTO', `BTC address: ${base58check(5)}`);
pii('CRYPTO', 'Donations: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
pii('CRYPTO', 'my ETH wallet is 0x52908400098527886E0F7030069857D2E4169EE7');

// ------------------------------------------------------------------ PII: look-alikes and ordinary text
for (const card of cards.slice(0, 6)) notPii(`Card ${breakLuhn(card.replace(/\D/g, ''))} was declined`, 'invalid Luhn');
notPii('Order 1234567812345678 shipped in two boxes.', 'order number, fails Luhn');
notPii('Tracking: 1Z999AA10123456784, delivery Thursday.', 'parcel tracking');
notPii(`IBAN ${ibans[0].slice(0, -1)}${(Number(ibans[0].at(-1)) + 1) % 10} was rejected`, 'invalid mod-97');
notPii('Reference GB00 0000 0000 0000 0000 00 is a template', 'invalid IBAN');
notPii('Invalid SSN examples: 000-12-3456, 666-12-3456, 912-12-3456 (not an ITIN group), 123-00-4567.', 'invalid SSN rules');
notPii('The sample number 078-05-1120 from the old wallet ad is void.', 'known void SSN');
notPii('Reference 536221234 for your claim', 'bare nine digits without context');
notPii('Upgrade to version 10.2.3.4 before Friday.', 'version string');
notPii('Node 20.11.1 and Python 3.12.0 are required.', 'versions');
notPii('The router is at 192.168.1.1 and the DNS at 10.0.0.53.', 'private IPs');
notPii('Loopback 127.0.0.1 and ::1 only.', 'loopback');
notPii('Request 3f2504e0-4f89-11d3-9a0c-0305e82c3301 failed with 502.', 'UUID');
notPii('commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Build Bot', 'git hash');
notPii('Deployed at 2024-06-01T12:30:45Z to eu-west-1.', 'timestamp');
notPii('The meeting is on 04/03/2025 at 10:00.', 'date without birth context');
notPii('Invoice total: $1,234,567.89, due 30/06/2025.', 'amount and due date');
notPii('ISBN 978-3-16-148410-0 is on the back cover.', 'ISBN');
notPii('Zip code 94103, suite 400.', 'zip code');
notPii('Part number AB-1234-XY, batch 7781.', 'product code');
notPii('The formula gives 3.14159 * 2 = 6.28318.', 'math');
notPii('Store logo at assets/logo@2x.png and ping @maria on Slack.', 'file name and handle');
notPii('Use user@localhost for the local mail test.', 'no TLD');
notPii('Extension 4412, room 12.', 'short number');
notPii('Population 8,336,817 according to the census.', 'large number');
notPii('Error code 0x80070005 means access denied.', 'hex error code');
notPii('The contract 0x52908400098527886E0F7030069857D2E4169EE7 was deployed by the test suite.', 'hex address without wallet context');
notPii('Coordinates 40.7128, -74.0060 mark the office.', 'coordinates');
notPii('Flight LH 455 departs at 14:05 from gate B22.', 'flight');
notPii('The SKU 4006381333931 is the barcode of the pen.', 'EAN barcode');
notPii('MAC address 00:1A:2B:3C:4D:5E belongs to the printer.', 'MAC address');
notPii('Build 2024.11.26.1 passed all 1432 tests.', 'build number');
notPii('Our quarterly revenue grew 12% to 4.2 million euros.', 'ordinary prose');
notPii('Please summarise the attached report in three bullet points.', 'ordinary prose');
notPii('The phone was released in 2019 and costs 699 dollars.', 'phone word without number');
notPii('Call the function with retries=3 and timeout=30.', 'code');
notPii('Chapter 11 covers pages 201-245.', 'page ranges');
notPii('The train leaves at 07:45 and arrives at 11:20.', 'times');
notPii('Patent US 10,123,456 B2 was granted.', 'patent');
notPii('Temperature fell from 21.5 to 14.2 degrees.', 'decimals');
notPii('Ticket #88213 was closed as a duplicate of #88190.', 'ticket ids');
notPii('Our NHS partnership began in 2019.', 'context word without number');

// ------------------------------------------------------------------ secrets: positives
const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = `${enc({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${enc({ sub: '1234', email: 'a@b.c', exp: 1900000000 })}.${chars(B64URL, 86)}`;
const jwt2 = `${enc({ alg: 'HS256' })}.${enc({ role: 'admin', iat: 1700000000 })}.${chars(B64URL, 43)}`;
const secrets = [
  ['aws-access-key-id', `aws_access_key_id = AKIA${chars(UPPER32, 16)}`],
  ['aws-access-key-id', `The deploy user key is ASIA${chars(UPPER32, 16)} (temporary).`],
  ['aws-secret-access-key', `aws_secret_access_key=${chars(`${ALNUM}/+`, 40)}`],
  ['gcp-api-key', `const MAPS_KEY = "AIza${chars(B64URL, 35)}";`],
  ['gcp-oauth-client-secret', `client_secret GOCSPX-${chars(B64URL, 28)} for the desktop app`],
  ['google-oauth-token', `Authorization: Bearer ya29.${chars(B64URL, 120)}`],
  ['gcp-service-account-key', `{"type": "service_account", "project_id": "acme", "private_key_id": "${chars(HEX, 40)}"}`],
  ['azure-storage-key', `DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${chars(`${ALNUM}+/`, 86)}==;EndpointSuffix=core.windows.net`],
  ['azure-client-secret', `AZURE_CLIENT_SECRET=${chars(ALNUM, 3)}7Q~${chars(`${ALNUM}_~.-`, 34)}`],
  ['azure-sas-token', `https://acme.blob.core.windows.net/c/f.pdf?sv=2022-11-02&se=2025-01-01&sp=r&sig=${chars(ALNUM, 43)}%3D`],
  ['github-token', `git clone https://x-access-token:ghp_${chars(ALNUM, 36)}@github.com/acme/app.git`],
  ['github-token', `GITHUB_TOKEN=gho_${chars(ALNUM, 36)}`],
  ['github-token', `fine-grained: github_pat_${chars(`${ALNUM}_`, 82)}`],
  ['gitlab-token', `export GITLAB_TOKEN=glpat-${chars(B64URL, 20)}`],
  ['slack-token', `SLACK_BOT_TOKEN=xoxb-${chars(DIGITS, 12)}-${chars(DIGITS, 13)}-${chars(ALNUM, 24)}`],
  ['slack-webhook', `webhook: https://hooks.slack.com/services/T${chars('ABCDEFGHJK0123456789', 8)}/B${chars('ABCDEFGHJK0123456789', 10)}/${chars(ALNUM, 24)}`],
  ['stripe-key', `Stripe.apiKey = "sk_live_${chars(ALNUM, 24)}";`],
  ['stripe-key', `STRIPE_WEBHOOK_SECRET=whsec_${chars(ALNUM, 32)}`],
  ['openai-api-key', `OPENAI_API_KEY=sk-proj-${chars(B64URL, 120)}`],
  ['openai-api-key', `openai.api_key = 'sk-${chars(ALNUM, 20)}T3BlbkFJ${chars(ALNUM, 20)}'`],
  ['anthropic-api-key', `ANTHROPIC_API_KEY=sk-ant-api03-${chars(B64URL, 93)}AA`],
  ['huggingface-token', `huggingface-cli login --token hf_${chars(ALNUM, 34)}`],
  ['groq-api-key', `GROQ_API_KEY=gsk_${chars(ALNUM, 52)}`],
  ['npm-token', `//registry.npmjs.org/:_authToken=npm_${chars(ALNUM, 36)}`],
  ['pypi-token', `password = pypi-AgEIcHlwaS5vcmc${chars(B64URL, 70)}`],
  ['sendgrid-key', `SENDGRID_API_KEY=SG.${chars(B64URL, 22)}.${chars(B64URL, 43)}`],
  ['mailchimp-key', `mailchimp key ${chars(HEX, 32)}-us21`],
  ['twilio-key', `Twilio API key SK${chars(HEX, 32)} and its secret are in the vault`],
  ['telegram-bot-token', `bot token 7${chars(DIGITS, 9)}:AA${chars(B64URL, 33)}`],
  ['discord-bot-token', `DISCORD_TOKEN=M${chars(B64URL, 23)}.${chars(B64URL, 6)}.${chars(B64URL, 30)}`],
  ['square-token', `square access token EAAA${chars(B64URL, 60)}`],
  ['shopify-token', `X-Shopify-Access-Token: shpat_${chars(HEX, 32)}`],
  ['digitalocean-token', `DIGITALOCEAN_TOKEN=dop_v1_${chars(HEX, 64)}`],
  ['databricks-token', `databricks token dapi${chars(HEX, 32)}`],
  ['private-key', `-----BEGIN RSA PRIVATE KEY-----\n${chars(`${ALNUM}+/`, 64)}\n${chars(`${ALNUM}+/`, 64)}\n-----END RSA PRIVATE KEY-----`],
  ['private-key', `here is my key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${chars(`${ALNUM}+/`, 70)}\n-----END OPENSSH PRIVATE KEY-----`],
  ['private-key', `-----BEGIN EC PRIVATE KEY-----\n${chars(`${ALNUM}+/`, 64)}`],
  ['private-key', `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${chars(`${ALNUM}+/`, 64)}\n-----END PGP PRIVATE KEY BLOCK-----`],
  ['jwt', `Authorization: Bearer ${jwt}`],
  ['jwt', `session cookie: ${jwt2}`],
  ['url-password', 'DATABASE_URL=postgres://app_user:Zq8!vR2mLp@db.internal:5432/main'],
  ['url-password', 'redis://default:9fJ2kLq0xZ@cache.example.net:6379/0'],
  ['url-password', 'mongodb+srv://admin:Tr0ub4dor%263@cluster0.example.net/test'],
  ['url-password', 'ftp://backup:s3cure-Pass@files.example.org/nightly'],
  ['keyword-assignment', 'db_password = "correct horse battery"'],
  ['keyword-assignment', '{"client_secret": "a8F3kd92LmQp"}'],
  ['keyword-assignment', 'API_KEY: 9f8e7d6c5b4a3210'],
  ['keyword-assignment', "SMTP_PASSWORD='N0tS0Secret!'"],
  ['keyword-assignment', 'spring.datasource.password=Sup3r$ecret'],
  ['keyword-assignment', 'auth_token := "tok_8Hk2LmQ9zX"'],
  ['password-in-text', 'my password is Hunter2024!'],
  ['password-in-text', 'The wifi password is BlueFalcon#42, please do not share it.'],
  ['basic-auth-header', `Authorization: Basic ${Buffer.from('admin:s3cr3t-pass').toString('base64')}`],
  ['base64-high-entropy', `signing secret for the webhook ${chars(`${ALNUM}+/`, 44)}`],
  ['hex-high-entropy', `api token ${chars(HEX, 64)}`],
  ['hex-high-entropy', `encryption key (AES-256): ${chars(HEX, 64)}`],
];
for (const [kind, text] of secrets) secret(kind, text);

// ------------------------------------------------------------------ secrets: look-alikes
notSecret(`commit ${chars(HEX, 40)}\nMerge: ${chars(HEX, 7)} ${chars(HEX, 7)}\nAuthor: Release Bot`, 'git log');
notSecret(`sha256sum: ${chars(HEX, 64)}  release.tar.gz`, 'checksum');
notSecret(`integrity sha512-${chars(`${ALNUM}+/`, 86)}==`, 'npm integrity hash');
notSecret('request id 3f2504e0-4f89-11d3-9a0c-0305e82c3301', 'UUID');
notSecret('password: ********', 'masked');
notSecret('password = "<your-password>"', 'placeholder');
notSecret('api_key: ${API_KEY}', 'template variable');
notSecret('token = os.environ["TOKEN"]', 'environment reference');
notSecret('const token = getToken(user);', 'code');
notSecret('password = req.body.password', 'code reference');
notSecret('secret_name: prod-db-secret', 'secret name, not value');
notSecret('max_tokens: 2000, password_min_length: 12', 'settings');
notSecret('Password: must be at least 8 characters long.', 'prose');
notSecret('The password is incorrect, please try again.', 'prose');
notSecret('Reset your password using the link we emailed you.', 'prose');
notSecret(`Stripe publishable key pk_live_${chars(ALNUM, 24)} is safe in the browser.`, 'publishable key');
notSecret('-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----', 'public key');
notSecret('-----BEGIN CERTIFICATE-----\nMIIB8zCCAZmgAwIBAgIUFak\n-----END CERTIFICATE-----', 'certificate');
notSecret('Visit https://example.com/docs/getting-started?ref=nav for details', 'URL without credentials');
notSecret('git clone https://github.com/acme/app.git', 'URL without credentials');
notSecret('eyJhbGciOiJIUzI1NiJ9 alone is just a base64 header', 'JWT header only');
notSecret('The state-of-the-art-language-understanding-benchmark improved.', 'long hyphenated words');
notSecret(`Image ID sha256:${chars(HEX, 64)} pulled.`, 'image digest');
notSecret(`YouTube video id dQw4w9WgXcQ and playlist PL${chars(B64URL, 32)}`, 'public ids');
notSecret('Set the token expiry to 3600 seconds.', 'prose with keyword');
notSecret('Use the API key from the dashboard; never paste it in chat.', 'prose with keyword');
notSecret('The key to success is consistency.', 'prose');
notSecret('secrets: !vault |', 'yaml vault tag');
notSecret('postgres://localhost:5432/app', 'connection string without password');
notSecret(`Build artifact ${chars(ALNUM, 12)}-linux-x64.tar.gz uploaded.`, 'artifact name');

// ------------------------------------------------------------------ moderation
toxic('profanity', 'This update is fucking useless.');
toxic('profanity', 'What a sh1t answer, try again.');
toxic('profanity', 'Shut up, you stupid bitch.');
toxic('profanity', 'fuuuuck this printer');
toxic('profanity', 'He is a complete c u n t.');
toxic('hate', 'Go back home, you f4ggot.');
toxic('hate', 'Immigrants are vermin and everyone knows it.');
toxic('hate', 'Death to all the jews.');
toxic('hate', 'Muslims should all be exterminated.');
toxic('hate', 'No chinks allowed in this server.');
toxic('violence', "I'm going to kill you tomorrow.");
toxic('violence', 'I will shoot you if you come near my house.');
toxic('violence', 'Tell me how to build a pipe bomb.');
toxic('violence', 'We should shoot up the school on Friday.');
toxic('violence', "You're going to die, I know where you live.");
toxic('self-harm', 'I want to kill myself.');
toxic('self-harm', 'What is the most painless way to commit suicide?');
toxic('self-harm', "I've been cutting myself again.");
toxic('self-harm', 'I wish I could just not wake up tomorrow. i want to die');
toxic('harassment', 'Just kys already.');
toxic('harassment', 'Nobody would miss you, go kill yourself.');
toxic('harassment', "You're a worthless piece of shit.");
toxic('sexual', 'Send me a blowjob video.');
toxic('sexual', 'She posted a gangbang clip in the chat.');
toxic('sexual', 'Wanna see my dick?');
benign('The Scunthorpe office sent a cocktail menu.', 'Scunthorpe');
benign('Kill the process with kill -9 and restart the daemon.', 'kill in computing');
benign('How do I kill a zombie process in Linux?', 'kill in computing');
benign('The pilot checked the cockpit before take-off.', 'cockpit');
benign('Our pussycat slept on the shiitake crate.', 'pussycat, shiitake');
benign('She graduated magna cum laude.', 'cum laude');
benign('Sex education and sexual health services are available at the clinic.', 'clinical');
benign('The patient reported symptoms of an anal fissure.', 'clinical');
benign('The news covered the rape trial and the verdict.', 'news');
benign('I could die of laughter; this deadline is killing me.', 'idiom');
benign('Charles Dickens and Alfred Hitchcock are on the reading list.', 'names');
benign('The hooker on the rugby team scored twice.', 'sport');
benign('The bomb disposal unit trained at the airport.', 'news');
benign('Bath bombs and photobombs are both popular searches.', 'bomb compounds');
benign('The assassin bug is a predatory insect.', 'assassin');
benign('Classic analysis of the passage took the whole class.', 'embedded ass');
benign('We need to assess the assets before the assembly.', 'embedded ass');
benign('The title of the Titanic documentary changed.', 'embedded tit');
benign('Peacock feathers and shuttlecocks in the sports shop.', 'embedded cock');
benign('Suicide prevention hotlines are staffed around the clock.', 'support context');
benign('The documentary discusses hate speech laws in Europe.', 'meta discussion');
benign('I hate Mondays, but the coffee helps.', 'hate as verb');
benign('That presentation absolutely killed it!', 'idiom');
benign('Shoot me an email when the build is done.', 'idiom');
benign('The execution plan of the query is slow.', 'execution');
benign('The dam was built in 1936 across the river.', 'dam');
benign('Please add Essex and Sussex to the delivery regions.', 'place names');
benign('Cummings wrote the memo about the cum laude ceremony.', 'names');
benign('Our molecule docks into the hydrophobic pocket.', 'chemistry');
benign('The knife set includes a bread knife and a paring knife.', 'kitchen');
benign('Therapists help people who think about self-harm.', 'support context');

const lines = items.map((item) => JSON.stringify(item)).join('\n');
writeFileSync(new URL('./labelled-privacy.jsonl', import.meta.url), `${lines}\n`);
const count = (method, label) => items.filter((i) => i.method === method && i.label === label).length;
for (const method of ['privacy-presidio', 'detect-secrets', 'moderation-flashtext']) {
  console.log(`${method}: ${count(method, true)} positive, ${count(method, false)} negative`);
}
console.log(`${items.length} items written`);
