import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { startControlCharacterAgent } from './helpers/control-agent.js';
import { registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { quickConnector, startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * Bounds of what a run stores and what one answer holds (docs/api.md, "Bounds"), against an
 * agent that answers 40,000 control characters to every prompt: each stored text at most 16 KiB
 * once JSON-escaped, marked truncated with its original length; a page of results or findings
 * at most 4 MiB, paged on by `next_offset`; downloads streamed whole.
 */

const TEXT_BYTES = 16_384;
const PAGE_BYTES = 4 * 1024 * 1024;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

let t: TestApp;
let world: World;
let agent: Awaited<ReturnType<typeof startControlCharacterAgent>>;
const connector = quickConnector();
const token = () => world.teamA.member.token;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  agent = await startControlCharacterAgent(40_000);
});
afterAll(async () => {
  await t.close();
  connector.close();
  await agent.close();
});

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: bearer(token()) });
  expect(res.statusCode, res.body).toBe(200);
  return res;
};

describe('evaluation results', () => {
  let id: string;
  let total: number;

  beforeAll(async () => {
    const registered = await registerAgent(t.app, token(), agent);
    id = await startEvaluation(t.app, token(), { agent_id: registered.id, harness_names: ['security'] });
    const status = await waitForEvaluation(t.app, token(), id, undefined, 240_000);
    expect(status.status, status.error_message ?? '').toBe('completed');
  }, 300_000);

  it('keeps each answer within 16 KiB of JSON, says it was cut and how long it was', async () => {
    const page = (await get(`/v1/evaluation-results/${id}/results?limit=20`)).json();
    total = page.total;
    expect(total).toBeGreaterThan(500);
    expect(page.results).toHaveLength(20);
    for (const result of page.results) {
      expect(result.response_truncated).toBe(true);
      expect(result.response_length).toBe(40_000);
      expect(result.response.endsWith('…')).toBe(true);
      expect(jsonBytes(result.response) - 2).toBeLessThanOrEqual(TEXT_BYTES);
      expect(jsonBytes(result.response) - 2).toBeGreaterThan(TEXT_BYTES - 16);
      expect(result.prompt_truncated).toBe(false);
      expect(result.prompt_length).toBe(result.prompt.length);
    }
  });

  it('stops a page at 4 MiB and pages on by next_offset through every prompt once', async () => {
    const seen = new Set<string>();
    let offset = 0;
    let pages = 0;
    for (;;) {
      const res = await get(`/v1/evaluation-results/${id}/results?limit=2000&offset=${offset}`);
      expect(res.rawPayload.length).toBeLessThanOrEqual(PAGE_BYTES + 4096);
      const page = res.json();
      pages++;
      for (const result of page.results) seen.add(result.prompt_id);
      if (page.next_offset === null) {
        expect(page.size_limited).toBe(false);
        break;
      }
      expect(page.size_limited).toBe(true);
      expect(page.results.length).toBeLessThan(2000);
      expect(page.next_offset).toBe(offset + page.results.length);
      offset = page.next_offset;
    }
    expect(pages).toBeGreaterThan(1);
    expect(seen.size).toBe(total);
  });
});

describe('campaign results and downloads', () => {
  let id: string;

  beforeAll(async () => {
    id = await startCampaign(t.app, token(), {
      agent_url: agent.chatUrl,
      categories: ['injection', 'jailbreak', 'harmful', 'pii', 'toxicity', 'hallucination', 'overreliance'],
      strategies: ['basic', 'hex', 'rot13'],
      num_tests: 25,
      provider_config: { seed: 7 },
    });
    const status = await waitForCampaign(t.app, token(), id, undefined, 240_000);
    expect(status.status, status.error_message ?? '').toBe('completed');
  }, 300_000);

  it('bounds each finding and pages findings by size, the summary counting them all', async () => {
    const first = (await get(`/v1/campaigns/${id}/results`)).json();
    const total = first.raw_output.findings_total;
    expect(total).toBe(first.summary.total_tests - first.summary.errors);
    const finding = first.findings[0];
    expect(finding.metadata.agent_response_truncated).toBe(true);
    expect(finding.metadata.agent_response_length).toBe(40_000);
    expect(jsonBytes(finding.agent_response) - 2).toBeLessThanOrEqual(TEXT_BYTES);
    for (const turn of finding.raw_metadata.conversation) expect(jsonBytes(turn.response) - 2).toBeLessThanOrEqual(4_096);

    const ids = new Set<string>();
    let page = first;
    let pages = 1;
    for (;;) {
      expect(jsonBytes(page)).toBeLessThanOrEqual(PAGE_BYTES + 64 * 1024);
      expect(page.summary).toEqual(first.summary);
      for (const f of page.findings) ids.add(f.raw_metadata.attack_id);
      if (page.raw_output.next_offset === null) break;
      expect(page.raw_output.size_limited).toBe(true);
      expect(page.raw_output.next_offset).toBe(page.raw_output.findings_offset + page.findings.length);
      page = (await get(`/v1/campaigns/${id}/results?offset=${page.raw_output.next_offset}`)).json();
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(ids.size).toBe(total);
  });

  it('streams every finding in each download format', async () => {
    const { raw_output } = (await get(`/v1/campaigns/${id}/results`)).json();
    const json = JSON.parse((await get(`/v1/campaigns/${id}/results/download?format=json`)).body);
    expect(json.findings).toHaveLength(raw_output.findings_total);
    expect(json.raw_output.next_offset).toBeNull();
    const jsonl = (await get(`/v1/campaigns/${id}/results/download?format=jsonl`)).body.trimEnd().split('\n');
    expect(jsonl).toHaveLength(raw_output.findings_total);
    const csv = parse((await get(`/v1/campaigns/${id}/results/download?format=csv`)).body, { columns: true }) as unknown[];
    expect(csv).toHaveLength(raw_output.findings_total);
  });
});
