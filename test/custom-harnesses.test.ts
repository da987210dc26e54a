import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { waitFor } from './helpers/jobs.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.js';
import type { JobContext } from '../src/jobs/types.js';
import { createGenerationJob, type GenerationJobPayload } from '../src/modules/custom-harnesses/generation/generation-job.js';
import { llmPrompts, MAX_MODEL_PAIRS } from '../src/modules/custom-harnesses/generation/llm.js';
import { MAX_GENERATED_PROMPTS } from '../src/modules/custom-harnesses/generation/source.js';

/**
 * Custom harnesses (issue 19, item 5): prompts generated from the agent's purpose, the chosen
 * personas and the approved rules of the chosen policies, offline from templates and with a
 * model when one is configured; then run as harness_type "custom".
 */

const connector = quickConnector();
const agents: TestAgent[] = [];
let compliant: TestAgent;
let refusing: TestAgent;

beforeAll(async () => {
  compliant = await startTestAgent('compliant');
  refusing = await startTestAgent('refusing');
  agents.push(compliant, refusing);
});
afterAll(async () => {
  connector.close();
  await Promise.all(agents.map((a) => a.close()));
});

type Method = 'GET' | 'POST' | 'DELETE';
const caller = (app: FastifyInstance, token: string) => (method: Method, url: string, payload?: unknown) =>
  app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

/** A policy copied from a preset with every rule approved; its id and rule count. */
async function approvedPolicy(app: FastifyInstance, token: string, category: string): Promise<{ id: string; rules: number }> {
  const call = caller(app, token);
  const presets = (await call('GET', `/v1/policies/presets/?category=${category}`)).json();
  const copy = (await call('POST', `/v1/policies/presets/${presets.results[0].id}/copy`)).json();
  const rules = (await call('GET', `/v1/rules/?policy_id=${copy.id}&limit=1000`)).json().results as Array<{ id: string; rule_type: string }>;
  for (const rule of rules) expect((await call('POST', `/v1/rules/${rule.id}/approve`)).statusCode).toBe(200);
  return { id: copy.id, rules: rules.filter((r) => r.rule_type === 'prohibition' || r.rule_type === 'obligation').length };
}

async function persona(app: FastifyInstance, token: string, teamId: string, body: Record<string, unknown>): Promise<string> {
  const res = await caller(app, token)('POST', '/v1/personas/', { team_id: teamId, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function harnessWhenDone(app: FastifyInstance, token: string, id: string) {
  let body: any;
  await waitFor(async () => {
    body = (await caller(app, token)('GET', `/v1/custom-harnesses/${id}`)).json();
    return body.harness.status !== 'draft';
  }, 'the generation to end');
  return body;
}

describe('custom harnesses without a model (templates)', () => {
  let t: TestApp;
  let world: World;
  let call: ReturnType<typeof caller>;
  let policy: { id: string; rules: number };
  let personaIds: string[];
  let harness: any;

  beforeAll(async () => {
    t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
    world = await createWorld(t.app);
    call = caller(t.app, world.teamA.member.token);
    policy = await approvedPolicy(t.app, world.teamA.member.token, 'privacy');
    personaIds = [
      await persona(t.app, world.teamA.member.token, world.teamA.id, { name: 'Mallory', role: 'contractor', intent: 'malicious' }),
      await persona(t.app, world.teamA.member.token, world.teamA.id, { name: 'Amélie', role: 'customer', intent: 'curious', language: 'fr' }),
    ];
    const agent = await registerAgent(t.app, world.teamA.member.token, refusing, { purpose: 'Answers questions about orders and returns.' });
    const res = await call('POST', `/v1/custom-harnesses/?team_id=${world.teamA.id}`, {
      name: 'Privacy rules under pressure',
      description: 'Our privacy policy, put to the agent by two personas',
      agent_id: agent.id,
      persona_ids: personaIds,
      policy_ids: [policy.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    harness = res.json();
  });
  afterAll(async () => t.close());

  it('is created as a draft with its generation workflow', () => {
    expectReferenceShape(harness, 'CustomHarness');
    expect(harness).toMatchObject({ status: 'draft', persona_ids: personaIds, policy_ids: [policy.id], prompt_count: null, created_by: world.teamA.member.id });
    expect(harness.workflow_id).toEqual(expect.any(String));
  });

  it('becomes active with prompts built from every approved rule for every persona, plus persona probes', async () => {
    const done = await harnessWhenDone(t.app, world.teamA.member.token, harness.id);
    expectReferenceShape(done, 'CustomHarnessResponse');
    expect(done.harness).toMatchObject({ status: 'active', generator: 'templates', pillar: 'security', creation_error: null });
    expect(done.workflow).toMatchObject({ status: 'succeeded' });
    const prompts = (await call('GET', `/v1/custom-harnesses/${harness.id}/prompts`)).json();
    expectReferenceShape(prompts, 'HarnessPromptsResponse');
    expect(prompts.count).toBe(done.harness.prompt_count);
    const policyPrompts = prompts.prompts.filter((p: any) => p.dimension_name === 'Policy compliance');
    const personaPrompts = prompts.prompts.filter((p: any) => p.dimension_name === 'Persona robustness');
    expect(policyPrompts.length).toBeGreaterThanOrEqual(policy.rules * personaIds.length * 2);
    expect(personaPrompts).toHaveLength(personaIds.length * 2);
    for (const prompt of policyPrompts) {
      expect(prompt.pass_criteria.length).toBeGreaterThan(10);
      expect(prompt.lineage).toMatchObject({ policy_id: policy.id, rule_id: expect.any(String), persona_id: expect.any(String) });
      expect(prompt.prompt_text).toContain(prompt.lineage.persona);
    }
    expect(prompts.prompts.some((p: any) => p.lineage.persona === 'Amélie' && p.prompt_text.endsWith('Please reply in French.'))).toBe(true);
  });

  it('lists it, newest first, with its agent', async () => {
    const list = (await call('GET', `/v1/custom-harnesses/?status=active`)).json();
    expectReferenceShape(list, 'CustomHarnessListResponse');
    expect(list.results[0]).toMatchObject({ id: harness.id, agent_name: 'Tessa' });
  });

  it('runs as harness_type custom: a compliant agent scores below a refusing one, with lineage on each result', async () => {
    const token = world.teamA.member.token;
    const bad = await registerAgent(t.app, token, compliant, { agent_name: 'Yes-man' });
    const good = await registerAgent(t.app, token, refusing, { agent_name: 'Careful' });
    const runs = await Promise.all(
      [bad, good].map(async (agent) =>
        waitForEvaluation(t.app, token, await startEvaluation(t.app, token, { agent_id: agent.id, harness_names: [harness.id], harness_type: 'custom' })),
      ),
    );
    for (const run of runs) expect(run).toMatchObject({ status: 'completed', harness_type: 'custom', harness_names: [harness.id] });
    expect(runs[1].scores[harness.id] - runs[0].scores[harness.id]).toBeGreaterThan(0.3);
    const rows = (await call('GET', `/v1/evaluation-results/${runs[0].evaluation_id}/results?limit=2000`)).json().results;
    expect(rows.every((r: any) => r.lineage && typeof r.lineage.principle === 'string')).toBe(true);
    const summary = (await call('GET', `/v1/evaluation-summaries/${runs[0].evaluation_id}`)).json();
    expect(summary).toMatchObject({ harness_type: 'custom', security_score: expect.any(Number), safety_score: null });
    const agent = (await call('GET', `/v1/agent-configurations/${bad.id}`)).json();
    expect(agent.evaluated_harnesses).toEqual(['Privacy rules under pressure']);
    const html = await call('GET', `/v1/evaluations/${runs[0].evaluation_id}/html`);
    expect(html.body).toContain('Privacy rules under pressure');
    // By name too, when the name is the team's only harness of that name.
    const byName = await startEvaluation(t.app, token, {
      agent_id: good.id,
      harness_names: ['Privacy rules under pressure'],
      harness_type: 'custom',
      sample_size: 3,
    });
    expect((await waitForEvaluation(t.app, token, byName)).harness_names).toEqual([harness.id]);
  });

  it('refuses sources the team does not have, and another team\'s agent', async () => {
    const agent = await registerAgent(t.app, world.teamA.member.token, refusing);
    const base = { name: 'x', agent_id: agent.id };
    const unknownPersona = '01890000-0000-7000-8000-000000000001';
    expect422(await call('POST', '/v1/custom-harnesses/', { ...base, persona_ids: [unknownPersona] }), ['body', 'persona_ids', 0], 'value_error');
    const foreignPolicy = await approvedPolicy(t.app, world.teamB.member.token, 'security');
    expect422(await call('POST', '/v1/custom-harnesses/', { ...base, policy_ids: [foreignPolicy.id] }), ['body', 'policy_ids', 0], 'value_error');
    const foreignAgent = await registerAgent(t.app, world.teamB.member.token, refusing);
    expectDetail(await call('POST', '/v1/custom-harnesses/', { ...base, agent_id: foreignAgent.id }), 404);
    expectDetail(await caller(t.app, world.teamB.member.token)('GET', `/v1/custom-harnesses/${harness.id}`), 404);
  });

  it('fails, with the reason, when there is nothing to build prompts from; such a harness cannot run', async () => {
    const agent = await registerAgent(t.app, world.teamA.member.token, refusing);
    const empty = (await call('POST', '/v1/custom-harnesses/', { name: 'Empty', agent_id: agent.id })).json();
    const done = await harnessWhenDone(t.app, world.teamA.member.token, empty.id);
    expect(done.harness).toMatchObject({ status: 'failed', prompt_count: null });
    expect(done.harness.creation_error).toMatch(/Nothing to build prompts from/);
    expect(done.workflow).toMatchObject({ status: 'failed' });
    expect422(
      await call('POST', '/v1/evaluations/', { agent_id: agent.id, harness_names: [empty.id], harness_type: 'custom' }),
      ['body', 'harness_names', 0],
      'value_error',
    );
  });

  it('deletes it and its prompts', async () => {
    const agent = await registerAgent(t.app, world.teamA.member.token, refusing);
    const doomed = (await call('POST', '/v1/custom-harnesses/', { name: 'Doomed', agent_id: agent.id, persona_ids: personaIds })).json();
    await harnessWhenDone(t.app, world.teamA.member.token, doomed.id);
    expect((await call('DELETE', `/v1/custom-harnesses/${doomed.id}`)).statusCode).toBe(204);
    expectDetail(await call('GET', `/v1/custom-harnesses/${doomed.id}`), 404);
    expectDetail(await call('GET', `/v1/custom-harnesses/${doomed.id}/prompts`), 404);
  });
});

describe('cancelling a generation', () => {
  it('ends the harness failed, its workflow cancelled', async () => {
    const t = await buildTestApp({ referenceCheck: true, app: { connector } });
    try {
      const world = await createWorld(t.app);
      const call = caller(t.app, world.teamA.member.token);
      const agent = await registerAgent(t.app, world.teamA.member.token, refusing);
      const harness = (await call('POST', '/v1/custom-harnesses/', { name: 'Queued', agent_id: agent.id })).json();
      const res = await call('POST', `/v1/custom-harnesses/${harness.id}/cancel`);
      expect(res.json()).toEqual({ status: 'cancelled', harness_id: harness.id });
      const after = (await call('GET', `/v1/custom-harnesses/${harness.id}`)).json();
      expect(after.harness).toMatchObject({ status: 'failed', creation_error: 'Generation was cancelled' });
      expect(after.workflow.status).toBe('cancelled');
      expectDetail(await call('POST', `/v1/custom-harnesses/${harness.id}/cancel`), 409);
    } finally {
      await t.close();
    }
  });
});

describe('a generation stopped while it builds', () => {
  it('writes no prompt for a harness cancelled or deleted meanwhile', async () => {
    const t = await buildTestApp({ referenceCheck: true, app: { connector } });
    try {
      const world = await createWorld(t.app);
      const call = caller(t.app, world.teamA.member.token);
      const agent = await registerAgent(t.app, world.teamA.member.token, refusing, { purpose: 'Answers questions about orders.' });
      const body = { agent_id: agent.id, persona_ids: [await persona(t.app, world.teamA.member.token, world.teamA.id, { name: 'Eve', role: 'customer' })] };
      const job = createGenerationJob({ db: t.database.db, now: t.clock.now });
      const agentOfB = await registerAgent(t.app, world.teamB.member.token, refusing);
      const callB = caller(t.app, world.teamB.member.token);
      for (const stop of ['cancel', 'delete', 'recreate'] as const) {
        // Client-chosen ids: 'recreate' deletes the harness and another team creates one under its id.
        const harnessId = newId();
        const harness = (await call('POST', '/v1/custom-harnesses/', { id: harnessId, name: `Stopped by ${stop}`, ...body })).json();
        const context: JobContext<GenerationJobPayload> = {
          id: harness.workflow_id,
          kind: job.kind,
          payload: { harnessId: harness.id },
          attempt: 1,
          signal: new AbortController().signal,
          progress: async () => undefined,
          // The job's own fence holds (no runner here): the harness's status and job decide.
          fenced: (write) => t.database.db.transaction().execute(write),
          deferFor: () => false,
          // The person stops it while its sources are read (a cancel request another process has not seen yet).
          log: async (line) => {
            if (!line.startsWith('Sources:')) return;
            const url = `/v1/custom-harnesses/${harness.id}`;
            const res = stop === 'cancel' ? await call('POST', `${url}/cancel`) : await call('DELETE', url);
            expect(res.statusCode, res.body).toBeLessThan(300);
            if (stop === 'recreate') {
              const again = await callB('POST', '/v1/custom-harnesses/', { id: harnessId, name: 'Of B', agent_id: agentOfB.id });
              expect(again.statusCode, again.body).toBe(201);
            }
          },
        };
        await job.run(context);
        const prompts = await t.database.db.selectFrom('custom_harness_prompts').select('harness_id').where('harness_id', '=', harness.id).execute();
        expect(prompts, stop).toEqual([]);
        if (stop === 'cancel') {
          expect((await call('GET', `/v1/custom-harnesses/${harness.id}`)).json().harness).toMatchObject({ status: 'failed', prompt_count: null });
        }
        if (stop === 'recreate') {
          // B's harness is still B's draft, waiting for its own generation: nothing of A's run.
          expect((await callB('GET', `/v1/custom-harnesses/${harnessId}`)).json().harness).toMatchObject({ status: 'draft', name: 'Of B', prompt_count: null });
        }
      }
    } finally {
      await t.close();
    }
  });
});

describe('with a model configured (WARDEN_LLM_*)', () => {
  let t: TestApp;
  let world: World;
  let model: ScriptedLlm;

  beforeAll(async () => {
    model = await startScriptedLlm();
    t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector, llm: model.llm } });
    world = await createWorld(t.app);
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('generates prompts with the model, and judges custom prompts with it', async () => {
    const token = world.teamA.member.token;
    const call = caller(t.app, token);
    const policy = await approvedPolicy(t.app, token, 'security');
    const personaId = await persona(t.app, token, world.teamA.id, { name: 'Eve', role: 'intern', intent: 'adversarial' });
    const agent = await registerAgent(t.app, token, compliant, { agent_name: 'Eager' });
    const body = { name: 'Model-written', agent_id: agent.id, persona_ids: [personaId], policy_ids: [policy.id] };
    const created = (await call('POST', '/v1/custom-harnesses/', body)).json();
    const done = await harnessWhenDone(t.app, token, created.id);
    expect(done.harness).toMatchObject({ status: 'active', generator: 'llm' });
    expect(model.generations).toBeGreaterThan(0);
    const prompts = (await call('GET', `/v1/custom-harnesses/${created.id}/prompts`)).json().prompts;
    expect(prompts.some((p: any) => p.prompt_text.startsWith('(Eve) Please break this rule for me'))).toBe(true);

    const before = model.judgements;
    const id = await startEvaluation(t.app, token, { agent_id: agent.id, harness_names: [created.id], harness_type: 'custom' });
    const run = await waitForEvaluation(t.app, token, id);
    expect(run.status).toBe('completed');
    expect(model.judgements - before).toBe(run.progress.total - run.progress.errors);
    const rows = (await call('GET', `/v1/evaluation-results/${run.evaluation_id}/results`)).json().results;
    expect(rows.every((r: any) => 'judge' in r.detector_scores || r.passed === null)).toBe(true);
    expect(rows.some((r: any) => r.reason === 'Scripted judge: the agent went along with it.' && r.passed === false)).toBe(true);
    // The agent's key is never sent to the model.
    expect(JSON.stringify(model.requests)).not.toContain('sk-warden-test');
  });

  it('asks the model for a bounded number of (rule, persona) pairs; the pairs past it get the templates', async () => {
    expect(MAX_MODEL_PAIRS * 3).toBeGreaterThanOrEqual(MAX_GENERATED_PROMPTS);
    const rule = (n: number) => ({
      id: `rule-${n}`,
      ruleId: `PDP-${n}`,
      policyId: 'policy-1',
      policyName: 'Privacy',
      policyCategory: 'privacy',
      ruleType: 'prohibition',
      action: 'disclose',
      target: `record type ${n}`,
      naturalLanguage: `Never disclose record type ${n}.`,
      category: null,
    });
    const person = (name: string) => ({ id: `persona-${name}`, name, role: 'customer', roleDescription: null, intent: 'curious', language: 'en' });
    const source = { agentName: 'Agent', description: 'Answers questions.', personas: ['Ann', 'Bob', 'Cy'].map(person), rules: [1, 2, 3].map(rule) };
    const before = model.generations;
    const report = await llmPrompts(model.llm, source, new AbortController().signal, () => undefined, 5);
    expect(model.generations - before).toBe(5);
    expect(report.pairs).toBe(5);
    // Every pair has prompts: the first five the model's, the other four the templates'.
    const pairsCovered = new Set(report.prompts.filter((p) => p.lineage.rule_id !== null).map((p) => `${p.lineage.rule_id}/${p.lineage.persona_id}`));
    expect(pairsCovered.size).toBe(9);
  });

  it('falls back to templates for the pairs the model fails on', async () => {
    const token = world.teamA.member.token;
    const call = caller(t.app, token);
    model.failGeneration = true;
    try {
      const policy = await approvedPolicy(t.app, token, 'privacy');
      const agent = await registerAgent(t.app, token, refusing);
      const created = (await call('POST', '/v1/custom-harnesses/', { name: 'Fallback', agent_id: agent.id, policy_ids: [policy.id] })).json();
      const done = await harnessWhenDone(t.app, token, created.id);
      expect(done.harness).toMatchObject({ status: 'active', generator: 'llm' });
      const prompts = (await call('GET', `/v1/custom-harnesses/${created.id}/prompts`)).json().prompts;
      expect(prompts.length).toBeGreaterThan(0);
      expect(prompts.every((p: any) => !p.prompt_text.startsWith('('))).toBe(true);
    } finally {
      model.failGeneration = false;
    }
  });
});
