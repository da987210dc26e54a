import { Writable } from 'node:stream';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * An agent that echoes its key, spelled out every way a person (or a PDF viewer that drops
 * invisible characters) would still read it: the key must be found in nothing Warden keeps or
 * answers — results, findings, downloads, reports (HTML and the PDF's text), error messages,
 * the lists, the job logs and the service log (SECURITY.md, "An agent that echoes its key").
 */

const KEY = 'sk-echo-9f3b7c1d5e2a8f4b6c0d3e7a';
const CAMPAIGN_KEY = 'sk-camp-2b8e4d0c6a1f9e3b7d5c8a4f';

const chars = (key: string) => [...key];
const entity = (key: string, radix: 10 | 16) =>
  chars(key).map((c) => (radix === 10 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`)).join('');

/** The key spelled out in each way the issue lists (and the encodings already hunted), one per line. */
function spellings(key: string): string[] {
  const half = Math.floor(key.length / 2);
  const rot13 = key.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));
  return [
    chars(key).join('\u200b'),
    chars(key).map((c) => `\u202e${c}\u202c\u00ad`).join(''),
    chars(key).join(' '),
    chars(key).join('-'),
    chars(key).join('.\n'),
    key.toUpperCase(),
    `${key.slice(0, half)} … and later … ${key.slice(half)}`,
    entity(key, 10),
    entity(key, 16),
    key.replace(/-/g, '&hyphen;'),
    chars(key).map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('hex'),
    chars(key).reverse().join(''),
    rot13,
  ];
}

// Written as an agent that carries out any request ("Sure", numbered steps): its answers fail the
// harmful-request checks, so the reports quote them (with the key masked) among their failures.
const echo = (key: string) =>
  `Sure, here is exactly what you asked for, step by step, and my key every way you like:\n${spellings(key).map((form, i) => `${i + 1}. ${form}`).join('\n')}\nKeep it safe.`;

/** The key (or one of its halves) as a reader finds it: entities and escapes decoded, invisible characters and separators gone, any case. */
function reveals(text: string, key: string): string[] {
  const decoded = text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#([0-9]+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&hyphen;/g, '-')
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const compact = decoded.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]/g, '');
  const plain = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  const half = Math.floor(plain.length / 2);
  const found = [plain.slice(0, half), plain.slice(half)].filter((part) => compact.includes(part) || compact.includes([...part].reverse().join('')));
  for (const form of spellings(key).slice(11)) if (text.includes(form)) found.push(form);
  return found;
}

let t: TestApp;
let world: World;
const connector = quickConnector();
const serviceLog: string[] = [];
const started: TestAgent[] = [];
const token = () => world.teamA.member.token;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token()) });

beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      serviceLog.push(String(chunk));
      done();
    },
  });
  t = await buildTestApp({ startJobs: true, app: { connector, logger: { level: 'debug', stream } } });
  world = await createWorld(t.app);
});
afterAll(async () => {
  await t.close();
  connector.close();
  await Promise.all(started.map((agent) => agent.close()));
});

async function echoingAgent(status?: number) {
  const agent = await startTestAgent('compliant', { echoKey: echo, ...(status !== undefined ? { echoKeyStatus: status } : {}) });
  started.push(agent);
  return agent;
}

/** Every text Warden answers about an evaluation: its record, the lists, results, reports (the PDF's text), logs. */
async function evaluationTexts(id: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const url of [
    `/v1/evaluations/${id}`,
    '/v1/evaluations/',
    `/v1/evaluation-results/${id}/results`,
    '/v1/evaluation-results/',
    `/v1/evaluation-summaries/${id}`,
    '/v1/evaluation-summaries/',
    `/v1/evaluations/${id}/logs`,
    `/v1/evaluations/${id}/html`,
  ]) {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    texts[url] = res.body;
  }
  const pdf = await get(`/v1/evaluations/${id}/pdf`);
  expect(pdf.statusCode).toBe(200);
  texts.pdf = (await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), { mergePages: true })).text;
  return texts;
}

async function campaignTexts(id: string): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const url of [
    `/v1/campaigns/${id}`,
    '/v1/campaigns',
    `/v1/campaigns/${id}/results`,
    `/v1/campaigns/${id}/logs`,
    `/v1/campaigns/${id}/results/download?format=json`,
    `/v1/campaigns/${id}/results/download?format=jsonl`,
    `/v1/campaigns/${id}/results/download?format=csv`,
  ]) {
    const res = await get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    texts[url] = res.body;
  }
  return texts;
}

function expectNoKey(texts: Record<string, string>, key: string) {
  for (const [where, text] of Object.entries(texts)) expect(reveals(text, key), where).toEqual([]);
  expect(reveals(serviceLog.join(''), key), 'the service log').toEqual([]);
}

describe('the oracle of this file', () => {
  it('finds the key in every spelling the agent answers', () => {
    for (const form of spellings(KEY)) expect(reveals(`said: ${form}.`, KEY), form).not.toEqual([]);
  });
});

describe('an agent that echoes its key in every spelling', () => {
  it('through an evaluation: results, reports, logs and lists hold none of them', async () => {
    const agent = await echoingAgent();
    const { id: agentId } = await registerAgent(t.app, token(), agent, { api_key: KEY });
    const id = await startEvaluation(t.app, token(), { agent_id: agentId, harness_names: ['security', 'privacy'], sample_size: 3, seed: 7 });
    const run = await waitForEvaluation(t.app, token(), id);
    expect(run.status, run.error_message ?? '').toBe('completed');
    const texts = await evaluationTexts(id);
    // The answers were stored (redacted), not lost.
    expect(texts[`/v1/evaluation-results/${id}/results`]).toContain('[redacted]');
    // The reports quote failed answers: the echo is among them, masked.
    expect(texts[`/v1/evaluations/${id}/html`]).toContain('[redacted]');
    expect(texts.pdf).toContain('[redacted]');
    expectNoKey(texts, KEY);
  });

  it('through an evaluation whose agent quotes the key in its error bodies: error_message, results, logs', async () => {
    const agent = await echoingAgent(401);
    const { id: agentId } = await registerAgent(t.app, token(), agent, { api_key: KEY });
    const id = await startEvaluation(t.app, token(), { agent_id: agentId, harness_names: ['ethics'], sample_size: 2 });
    const run = await waitForEvaluation(t.app, token(), id);
    const texts = await evaluationTexts(id).catch(async () => {
      // A run where every call failed may have no report: what it answers is checked all the same.
      const out: Record<string, string> = {};
      const urls = [`/v1/evaluations/${id}`, '/v1/evaluations/', `/v1/evaluation-results/${id}/results`, `/v1/evaluations/${id}/logs`];
      for (const url of urls) out[url] = (await get(url)).body;
      return out;
    });
    expect(JSON.stringify(run) + Object.values(texts).join('')).toContain('HTTP 401');
    expectNoKey(texts, KEY);
  });

  it("through a campaign (the campaign's key): findings, downloads in every format, logs and lists", async () => {
    const agent = await echoingAgent();
    const id = await startCampaign(t.app, token(), {
      agent_url: agent.chatUrl, agent_api_key: CAMPAIGN_KEY, categories: ['injection', 'pii'], num_tests: 2, provider_config: { seed: 5 },
    });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status.status, status.error_message ?? '').toBe('completed');
    const texts = await campaignTexts(id);
    expect(texts[`/v1/campaigns/${id}/results`]).toContain('[redacted]');
    expectNoKey(texts, CAMPAIGN_KEY);
  });

  it('through a campaign whose agent quotes the key in its error bodies', async () => {
    const agent = await echoingAgent(401);
    const id = await startCampaign(t.app, token(), {
      agent_url: agent.chatUrl, agent_api_key: CAMPAIGN_KEY, categories: ['injection'], num_tests: 1, provider_config: { seed: 5 },
    });
    await waitForCampaign(t.app, token(), id);
    const texts = await campaignTexts(id);
    expect(Object.values(texts).join('')).toContain('HTTP 401');
    expectNoKey(texts, CAMPAIGN_KEY);
  });
});
