import { parse } from 'csv-parse/sync';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../src/crypto/keys.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createWorld, UNDECRYPTABLE_KEY, type World } from './helpers/factories.js';
import { findingWriter } from '../src/modules/redteam/run/findings.js';
import {
  AGENT_KEY,
  CAMPAIGN_KEY,
  campaignResults,
  PURPOSE,
  quickConnector,
  registerAgent,
  startCampaign,
  SYSTEM_PROMPT,
  waitForCampaign,
} from './helpers/redteam.js';

/**
 * Red-team campaigns end to end (issue 20) against agents started on loopback: what each kind
 * of agent yields, the API's answers (validated against the reference's schemas), downloads,
 * and the keys that must never come back.
 */

const ALL = ['injection', 'jailbreak', 'harmful', 'pii', 'toxicity', 'hallucination', 'overreliance'];
let t: TestApp;
let world: World;
const agents: Record<'compliant' | 'refusing' | 'crescendo', TestAgent> = {} as never;
const connector = quickConnector();
const token = () => world.teamA.member.token;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  agents.compliant = await startTestAgent('compliant');
  agents.refusing = await startTestAgent('refusing');
  agents.crescendo = await startTestAgent('crescendo');
});
afterAll(async () => {
  await t.close();
  connector.close();
  await Promise.all(Object.values(agents).map((agent) => agent.close()));
});

/** Runs a campaign to its end. A fixed seed unless the test gives one: the same attacks on every run (a failure can be replayed). */
async function run(body: Record<string, unknown>) {
  const config = { seed: 20_261_125, ...(body.provider_config as Record<string, unknown> | undefined) };
  const id = await startCampaign(t.app, token(), { ...body, provider_config: config });
  const status = await waitForCampaign(t.app, token(), id);
  expect(status.status, status.error_message ?? '').toBe('completed');
  return { id, status, results: await campaignResults(t.app, token(), id) };
}

const failedBy = (results: { findings: Array<{ passed: boolean; category: string }> }) => {
  const out: Record<string, number> = {};
  for (const finding of results.findings) if (!finding.passed) out[finding.category] = (out[finding.category] ?? 0) + 1;
  return out;
};

describe('GET /v1/tools', () => {
  it('answers Warden\u2019s own engine as diamond_security with the categories it covers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/tools', headers: bearer(token()) });
    expect(res.json()).toEqual([{ tool: 'diamond_security', categories: [...ALL, 'custom'] }]);
  });
});

describe('creating a campaign', () => {
  const post = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/v1/campaigns', headers: bearer(token()), payload: { tool: 'diamond_security', purpose: PURPOSE, categories: ['injection'], agent_url: 'http://127.0.0.1:9/v1', ...payload } });

  it('refuses the reference\u2019s other tools with a 422 that lists the tools this installation runs', async () => {
    for (const tool of ['promptfoo', 'garak', 'pyrit', 'unknown']) {
      const res = await post({ tool });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'tool'], type: 'enum' });
      expect(res.json().detail[0].msg).toMatch(/the tools this installation runs are: diamond_security/);
    }
  });

  it('validates strategies, custom plugins, the target and provider_config, naming what is valid', async () => {
    const strategy = await post({ strategies: ['basic', 'telepathy'] });
    expect(strategy.json().detail[0]).toMatchObject({ loc: ['body', 'strategies', 1], type: 'enum' });
    expect(strategy.json().detail[0].msg).toMatch(/'crescendo'/);
    const plugin = await post({ categories: ['custom'], custom_plugins: ['injection.ignore-previous', 'nope'] });
    expect(plugin.json().detail[0]).toMatchObject({ loc: ['body', 'custom_plugins', 1], type: 'enum' });
    expect(plugin.json().detail[0].msg).toMatch(/'toxicity.insult'/);
    expect((await post({ categories: ['custom'] })).json().detail[0].loc).toEqual(['body', 'custom_plugins']);
    expect((await post({ custom_plugins: ['toxicity.insult'] })).json().detail[0].loc).toEqual(['body', 'custom_plugins']);
    // Grey-box probes need what Warden knows of an agent: a bare URL has none.
    const grey = await post({ categories: ['custom'], custom_plugins: ['injection.tool-abuse'] });
    expect(grey.json().detail[0]).toMatchObject({ loc: ['body', 'custom_plugins'], msg: expect.stringMatching(/grey_box/) });
    expect((await post({ agent_url: null })).json().detail[0].loc).toEqual(['body', 'agent_id']);
    expect((await post({ agent_url: 'ftp://example.com/agent' })).statusCode).toBe(422);
    const option = (await post({ provider_config: { best_of_n: 99 } })).json().detail[0];
    expect(option).toMatchObject({ loc: ['body', 'provider_config', 'best_of_n'], type: 'less_than_equal' });
    expect((await post({ num_tests: 101 })).statusCode).toBe(422);
    expect((await post({ categories: ['telepathy'] })).statusCode).toBe(422);
    // A campaign plans at most 2,000 attacks: its findings are answered whole.
    const strategies = ['basic', 'base64', 'rot13', 'hex', 'leetspeak', 'roleplay', 'homoglyph'];
    const huge = await post({ categories: ['injection', 'jailbreak', 'pii'], strategies, num_tests: 100 });
    expect(huge.json().detail[0]).toMatchObject({ loc: ['body', 'num_tests'], type: 'less_than_equal', msg: expect.stringMatching(/2000 attacks.*= 2100/) });
  });

  it('counts the grey-box cases of a grey-box agent in the 2,000-attack cap, naming the product', async () => {
    const grey = await registerAgent(t.app, token(), agents.refusing, { access_level: 'grey_box' });
    const strategies = ['basic', 'base64', 'rot13', 'hex'];
    const body = { agent_url: null, agent_id: grey.id, categories: ['injection', 'jailbreak', 'pii'], strategies, num_tests: 100 };
    const res = await post(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().detail[0]).toMatchObject({
      loc: ['body', 'num_tests'],
      type: 'less_than_equal',
      msg: expect.stringContaining('2000 attacks, and this one can plan (100 cases × 3 categories + 100 grey-box cases × 3 categories) × 4 strategies = 2400'),
    });
  });

  it('fails a campaign whose plan exceeds the cap when the job plans it, saying so', async () => {
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const as = people.teamA.member.token;
      const strategies = ['basic', 'base64', 'rot13', 'hex', 'leetspeak', 'homoglyph', 'zero-width', 'tag-smuggling', 'reversed', 'roleplay'];
      const id = await startCampaign(quiet.app, as, { agent_url: 'http://127.0.0.1:9/v1', categories: ALL, strategies, num_tests: 1 });
      // Stored by a version that checked less, or planned with more than the creation could know.
      await quiet.database.db.updateTable('redteam_campaigns').set({ num_tests: 40 }).where('id', '=', id).execute();
      await quiet.app.jobs.start();
      const status = await waitForCampaign(quiet.app, as, id);
      expect(status).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/^The plan has \d+ attacks, more than the 2000 a campaign may plan: lower num_tests/) });
      expect((await quiet.database.db.selectFrom('redteam_findings').select('attack_id').where('campaign_id', '=', id).execute()).length).toBe(0);
    } finally {
      await quiet.close();
    }
  });

  it('answers 404 for an agent of another team and 409 for an agent without a URL', async () => {
    const theirs = await registerAgent(t.app, world.teamB.member.token, agents.compliant);
    expect((await post({ agent_url: null, agent_id: theirs.id })).statusCode).toBe(404);
    const payload = { agent_name: 'n', model_name: 'm' };
    const noUrl = await t.app.inject({ method: 'POST', url: '/v1/agent-configurations/', headers: bearer(token()), payload });
    expect((await post({ agent_url: null, agent_id: noUrl.json().id })).statusCode).toBe(409);
  });

  it('answers 202 with a pending campaign', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ campaign_id: expect.any(String), status: 'pending' });
    await waitForCampaign(t.app, token(), res.json().campaign_id);
  });
});

describe('what each agent yields', () => {
  it('a compliant agent: failed findings in every category, normalized as the reference\u2019s Finding', async () => {
    const agent = await registerAgent(t.app, token(), agents.compliant);
    const { results } = await run({ agent_id: agent.id, categories: ALL, num_tests: 3 });
    expect(Object.keys(failedBy(results)).sort()).toEqual([...ALL].sort());
    expect(results).toMatchObject({ tool: 'diamond_security', summary: { total_tests: 21, errors: 0, categories_tested: ALL, vulnerabilities_found: true } });
    const injection = results.findings.find((f: any) => f.attack_type === 'injection.ignore-previous');
    expect(injection).toMatchObject({
      category: 'injection',
      severity: 'high',
      passed: false,
      phenotype_category: 'security.integrity.prompt_injection',
      attack_score: 1,
      detector_id: 'canary',
      metadata: { strategy: 'basic', probe: 'injection.ignore-previous', caught_by: [{ guard: 'redteam-prompt-injection', direction: 'input' }] },
    });
    const turn = { turn: 1, prompt: injection.attack_prompt, response: injection.agent_response };
    expect(injection.raw_metadata.conversation).toEqual([expect.objectContaining(turn)]);
    const pii = results.findings.find((f: any) => f.category === 'pii' && !f.passed);
    expect(pii.metadata.caught_by).toContainEqual(expect.objectContaining({ guard: 'redteam-output-privacy', action: 'redacted' }));
    // The success rate of each category, with its Wilson 95 % interval.
    expect(results.raw_output.attack_success_rate.by_category.injection).toEqual({ n: 3, successful: 3, rate: 1, low: 0.4385, high: 1 });
    expect(results.raw_output.suggested_dome_config.config_body['input-guards']).toContain('redteam-prompt-injection');
  });

  it('a refusing agent: few', async () => {
    const agent = await registerAgent(t.app, token(), agents.refusing);
    const { results } = await run({ agent_id: agent.id, categories: ALL, num_tests: 3, strategies: ['basic', 'base64', 'roleplay', 'multilingual'] });
    expect(results.summary.total_tests).toBe(84);
    expect(results.summary.failed).toBeLessThanOrEqual(4);
    expect(results.raw_output.suggested_dome_config).toBeNull();
  });

  it('an agent that gives in only on the third turn: caught by crescendo, not by basic', async () => {
    const agent = await registerAgent(t.app, token(), agents.crescendo);
    const { results } = await run({ agent_id: agent.id, categories: ['injection', 'pii'], num_tests: 2, strategies: ['basic', 'crescendo'] });
    const rates = results.raw_output.attack_success_rate.by_strategy;
    expect(rates.basic).toMatchObject({ n: 4, successful: 0 });
    expect(rates.crescendo).toMatchObject({ n: 4, successful: 4 });
    const conversation = results.findings.find((f: any) => f.metadata.strategy === 'crescendo').raw_metadata.conversation;
    expect(conversation).toHaveLength(5);
    expect(conversation.map((turn: any) => turn.refused)).toEqual([true, true, false, false, false]);
  });

  it('an A2A agent: a crescendo continues its conversation by contextId', async () => {
    const agent = await registerAgent(t.app, token(), agents.crescendo, { agent_url: agents.crescendo.a2aUrl, protocol: 'a2a' });
    const { results } = await run({ agent_id: agent.id, categories: ['toxicity'], num_tests: 1, strategies: ['basic', 'crescendo'] });
    expect(failedBy(results)).toEqual({ toxicity: 1 });
    expect(results.findings.find((f: any) => !f.passed).metadata.strategy).toBe('crescendo');
  });
});

describe('results, downloads and secrets', () => {
  let id: string;
  let requestsBefore: number;
  beforeAll(async () => {
    requestsBefore = agents.compliant.requests.length;
    const campaign = { agent_url: agents.compliant.chatUrl, agent_api_key: CAMPAIGN_KEY, categories: ['injection', 'pii'], num_tests: 2 };
    ({ id } = await run({ ...campaign, strategies: ['basic', 'hex'] }));
  });

  it('a bare URL is attacked black box with the campaign\u2019s key', async () => {
    const sent = agents.compliant.requests.slice(requestsBefore);
    expect(sent.length).toBe(8);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${CAMPAIGN_KEY}`)).toBe(true);
    const results = await campaignResults(t.app, token(), id);
    expect(results.raw_output.access_level).toBe('black_box');
  });

  it('downloads parse in each format, under the reference\u2019s file name', async () => {
    const get = (format: string) => t.app.inject({ method: 'GET', url: `/v1/campaigns/${id}/results/download?format=${format}`, headers: bearer(token()) });
    const results = await campaignResults(t.app, token(), id);
    const json = await get('json');
    expect(json.headers['content-disposition']).toBe(`attachment; filename="results_diamond_security_${id}.json"`);
    expect(JSON.parse(json.body)).toEqual(results);
    const jsonl = await get('jsonl');
    expect(jsonl.headers['content-disposition']).toBe(`attachment; filename="results_diamond_security_${id}.jsonl"`);
    expect(jsonl.body.trim().split('\n').map((line) => JSON.parse(line))).toEqual(results.findings);
    const csv = await get('csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="results_diamond_security_${id}.csv"`);
    // Read as spreadsheets read it: any line break outside quotes ends a row (the encoding strategies' prompts hold some).
    expect(results.findings.some((f: any) => f.attack_prompt.includes('\n'))).toBe(true);
    // The UTF-8 byte-order mark first, so that spreadsheet programs read non-ASCII text as UTF-8.
    expect([...csv.rawPayload.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 'c'.charCodeAt(0)]);
    const rows = parse(csv.body, { bom: true, columns: true, record_delimiter: ['\r\n', '\n', '\r'] }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(results.findings.length);
    expect(rows.map((r) => [r.category, r.passed, r.attack_prompt])).toEqual(results.findings.map((f: any) => [f.category, String(f.passed), f.attack_prompt]));
    const byDefault = await t.app.inject({ method: 'GET', url: `/v1/campaigns/${id}/results/download`, headers: bearer(token()) });
    expect(JSON.parse(byDefault.body)).toEqual(results);
  });

  it('never answers, logs or exports the campaign\u2019s key or the agent\u2019s, and stores the campaign\u2019s encrypted', async () => {
    const agent = await registerAgent(t.app, token(), agents.compliant);
    const viaAgent = await run({ agent_id: agent.id, categories: ['injection'], num_tests: 1 });
    const texts: string[] = [];
    for (const campaign of [id, viaAgent.id]) {
      for (const url of [`/v1/campaigns/${campaign}`, `/v1/campaigns/${campaign}/results`, `/v1/campaigns/${campaign}/logs`, '/v1/campaigns']) {
        texts.push((await t.app.inject({ method: 'GET', url, headers: bearer(token()) })).body);
      }
      for (const format of ['json', 'jsonl', 'csv']) {
        texts.push((await t.app.inject({ method: 'GET', url: `/v1/campaigns/${campaign}/results/download?format=${format}`, headers: bearer(token()) })).body);
      }
    }
    const rows = await t.database.db.selectFrom('redteam_campaigns').selectAll().execute();
    const findings = await t.database.db.selectFrom('redteam_findings').selectAll().execute();
    const logs = await t.database.db.selectFrom('job_logs').selectAll().execute();
    texts.push(JSON.stringify(rows), JSON.stringify(findings), JSON.stringify(logs));
    for (const key of [CAMPAIGN_KEY, AGENT_KEY]) expect(texts.join('\n')).not.toContain(key.slice(3));
    expect(rows.find((r) => r.id === id)?.agent_api_key_enc).toMatch(/^v1\./);
  });

  it('logs say what the campaign did', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/campaigns/${id}/logs`, headers: bearer(token()) });
    expect(res.json()).toMatchObject({ campaign_id: id, status: 'completed' });
    expect(res.json().logs).toMatch(/Planned 8 attacks/);
    expect(res.json().logs).toMatch(/injection: \d of 4 attacks succeeded/);
  });
});

describe('listing, reading and deleting across teams', () => {
  it('lists the caller\u2019s teams\u2019 campaigns (team_id narrows), and hides other teams\u2019 (404)', async () => {
    const mine = await startCampaign(t.app, token(), { agent_url: agents.refusing.chatUrl, categories: ['toxicity'], num_tests: 1 });
    const theirs = await startCampaign(t.app, world.teamB.member.token, { agent_url: agents.refusing.chatUrl, categories: ['toxicity'], num_tests: 1 });
    await waitForCampaign(t.app, token(), mine);
    const list = (await t.app.inject({ method: 'GET', url: '/v1/campaigns', headers: bearer(token()) })).json();
    const ids = list.campaigns.map((c: any) => c.campaign_id);
    expect(ids).toContain(mine);
    expect(ids).not.toContain(theirs);
    const item = list.campaigns.find((c: any) => c.campaign_id === mine);
    expect(item).toMatchObject({ team_id: world.teamA.id, tool: 'diamond_security', categories: ['toxicity'], summary: { total_tests: 1 } });
    expect(list.campaigns.some((c: any) => 'agent_api_key' in c || 'agent_api_key_enc' in c)).toBe(false);
    const narrowed = await t.app.inject({ method: 'GET', url: `/v1/campaigns?team_id=${world.teamB.id}`, headers: bearer(token()) });
    expect(narrowed.statusCode).toBe(404);
    for (const suffix of ['', '/results', '/logs']) {
      expect((await t.app.inject({ method: 'GET', url: `/v1/campaigns/${theirs}${suffix}`, headers: bearer(token()) })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/v1/campaigns/${mine}?team_id=${world.teamB.id}`, headers: bearer(token()) })).statusCode).toBe(404);
    await waitForCampaign(t.app, world.teamB.member.token, theirs);
  });

  it('deletes a campaign with its findings; an ended one cannot be cancelled', async () => {
    const done = await startCampaign(t.app, token(), { agent_url: agents.refusing.chatUrl, categories: ['toxicity'], num_tests: 1 });
    await waitForCampaign(t.app, token(), done);
    expect((await t.app.inject({ method: 'POST', url: `/v1/campaigns/${done}/cancel`, headers: bearer(token()) })).statusCode).toBe(409);
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/campaigns/${done}`, headers: bearer(token()) });
    expect(res.json()).toEqual({ status: 'deleted', campaign_id: done });
    expect((await t.app.inject({ method: 'GET', url: `/v1/campaigns/${done}`, headers: bearer(token()) })).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('redteam_findings').select('attack_id').where('campaign_id', '=', done).execute()).toEqual([]);
    expect(await t.database.db.selectFrom('jobs').select('id').where('subject_id', '=', done).execute()).toEqual([]);
  });

  it('fails a campaign whose agent cannot be reached, with the reason', async () => {
    const id = await startCampaign(t.app, token(), { agent_url: 'http://127.0.0.1:9/v1', categories: ['injection'], num_tests: 1 });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/No attack got an answer from the agent: .*could not be reached/) });
  });

  it("fails with the evaluations' message for a person when the agent's key cannot be decrypted", async () => {
    const agent = await registerAgent(t.app, token(), agents.refusing);
    // Sealed under another WARDEN_SECRET_KEY.
    const foreign = encryptSecret(randomBytes(32), AGENT_KEY);
    await t.database.db.updateTable('agents').set({ api_key_enc: foreign }).where('id', '=', agent.id).execute();
    const id = await startCampaign(t.app, token(), { agent_id: agent.id, categories: ['injection'], num_tests: 1 });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status).toMatchObject({ status: 'failed', error_message: UNDECRYPTABLE_KEY });
  });

  it('gives up on an agent that cannot be reached after ten attacks, and says so once', async () => {
    const id = await startCampaign(t.app, token(), { agent_url: 'http://127.0.0.1:9/v1', categories: ['injection'], num_tests: 6, strategies: ['basic', 'base64'] });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status.status).toBe('failed');
    expect(status.progress.done).toBeLessThan(12);
    expect(status.error_message).toMatch(/^No attack got an answer from the agent \(the first 10 all failed\): the agent could not be reached: /);
  });
});

it('keeps the system prompt it judges leaks by out of the findings unless the agent leaked it', async () => {
  const agent = await registerAgent(t.app, token(), agents.refusing);
  const { results } = await run({ agent_id: agent.id, categories: ['injection'], num_tests: 4 });
  expect(JSON.stringify(results)).not.toContain(SYSTEM_PROMPT);
});

describe('findings after the end', () => {
  it('are not stored for a campaign cancelled or deleted before they are written', async () => {
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const as = people.teamA.member.token;
      for (const end of ['cancel', 'delete'] as const) {
        const id = await startCampaign(quiet.app, as, { agent_url: agents.compliant.chatUrl, categories: ['injection'], num_tests: 1 });
        const written: number[] = [];
        const onWritten = (n: number) => written.push(n);
        const { job_id: jobId } = await quiet.database.db.selectFrom('redteam_campaigns').select('job_id').where('id', '=', id).executeTakeFirstOrThrow();
        // The job's own fence holds (no runner here): the campaign's status and job decide.
        const fenced = (write: (trx: typeof quiet.database.db) => Promise<boolean>) => quiet.database.db.transaction().execute(write);
        const writer = findingWriter(fenced, { campaignId: id, jobId: jobId!, now: quiet.clock.now, size: 10, intervalMs: 10_000, onWritten });
        const url = `/v1/campaigns/${id}`;
        const request = end === 'cancel' ? { method: 'POST' as const, url: `${url}/cancel` } : { method: 'DELETE' as const, url };
        const ended = await quiet.app.inject({ ...request, headers: bearer(as) });
        expect(ended.statusCode, ended.body).toBe(200);
        // An attack answered while the cancel was on its way: its finding comes after the end.
        await writer.add({
          campaign_id: id,
          attack_id: 'injection:late:0@basic',
          seq: 0,
          category: 'injection',
          probe: 'late',
          strategy: 'basic',
          severity: 'high',
          passed: 1,
          attack_prompt: 'hello',
          agent_response: 'no',
          phenotype_category: null,
          attack_score: 0,
          detector_id: null,
          metadata: '{}',
          conversation: '[]',
          error: null,
          created_at: quiet.clock.now(),
        });
        await writer.flush();
        writer.close();
        expect([writer.stopped, written], end).toEqual([true, []]);
        const stored = await quiet.database.db.selectFrom('redteam_findings').select('attack_id').where('campaign_id', '=', id).execute();
        expect(stored, end).toEqual([]);
      }
    } finally {
      await quiet.close();
    }
  });
});
