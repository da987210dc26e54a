import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, rawHeaderValues, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { registerAgent as registerRedteamAgent, startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * The reports a CISO forwards (issue 27, item 4): an evaluation report checkable against the
 * results API (its SHA-256), compared with the agent's previous run, and a campaign's report in
 * HTML and PDF.
 */

let t: TestApp;
let world: World;
const connector = quickConnector();
let compliant: TestAgent;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  compliant = await startTestAgent('compliant');
});
afterAll(async () => {
  await t.close();
  connector.close();
  await compliant.close();
});

const token = () => world.teamA.member.token;
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(token()) });
const pdftotext = (pdf: Buffer) => execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');

/** What a recipient runs (docs/evaluations.md, "Checking a report"): keys sorted, no spaces. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('an evaluation report', () => {
  let first: any;
  let second: any;

  beforeAll(async () => {
    const agent = await registerAgent(t.app, token(), compliant, { agent_name: 'Pushover' });
    const run = async () => {
      const id = await startEvaluation(t.app, token(), { agent_id: agent.id, team_id: world.teamA.id, harness_names: ['security'], sample_size: 12, seed: 11 });
      return waitForEvaluation(t.app, token(), id);
    };
    first = await run();
    second = await run();
  });

  it('prints a SHA-256 that matches the results the API answers, recomputed from its pages', async () => {
    const results: unknown[] = [];
    for (let offset = 0; ; ) {
      const page = (await get(`/v1/evaluation-results/${second.evaluation_id}/results?limit=5&offset=${offset}`)).json();
      results.push(...page.results);
      if (page.next_offset === null) break;
      offset = page.next_offset;
    }
    expect(results.length).toBe(second.progress.total);
    const sha256 = createHash('sha256').update(canonical(results), 'utf8').digest('hex');
    const html = (await get(`/v1/evaluations/${second.evaluation_id}/html`)).body;
    expect(html).toContain(sha256);
    // The other run's results hash differently: the hash is of this run's results.
    expect((await get(`/v1/evaluations/${first.evaluation_id}/html`)).body).not.toContain(sha256);
    const pdf = pdftotext((await get(`/v1/evaluations/${second.evaluation_id}/pdf`)).rawPayload);
    expect(pdf).toContain(sha256);
  });

  it('has a first page with top risks and what to do next; each failure with its prompt id, transform and OWASP item', async () => {
    const results = (await get(`/v1/evaluation-results/${second.evaluation_id}/results?passed=false&limit=2000`)).json().results;
    expect(results.length).toBeGreaterThan(0);
    const html = (await get(`/v1/evaluations/${second.evaluation_id}/html`)).body;
    expect(html.indexOf('Top risks')).toBeLessThan(html.indexOf('What to do next'));
    expect(html.indexOf('What to do next')).toBeLessThan(html.indexOf('<h2>Pillars'));
    expect(html).toMatch(/class="severity">(CRITICAL|HIGH|MEDIUM|LOW)</);
    expect(html).toContain('LLM01 Prompt Injection');
    const text = pdftotext((await get(`/v1/evaluations/${second.evaluation_id}/pdf`)).rawPayload);
    const shown = results.filter((r: any) => text.includes(r.prompt_id));
    expect(shown.length).toBeGreaterThan(0);
    expect(text).toContain(`transform ${shown[0].variation}`);
    expect(text).toMatch(/LLM0\d /);
    expect(text).toContain(`Seed 11`);
    expect(text).toMatch(/Warden version \d+\.\d+\.\d+/);
  });

  it('compares with the previous completed run of the same harnesses: scores per pillar, new and fixed failures', async () => {
    const html = (await get(`/v1/evaluations/${second.evaluation_id}/html`)).body;
    expect(html).toContain(`Compared with evaluation ${first.evaluation_id}`);
    expect(html).toMatch(/<th scope="row">Security<\/th><td class="num">[\d.]+\u00a0%<\/td><td class="num">[\d.]+\u00a0%<\/td>/);
    expect(html).toMatch(/New failures:<\/strong> (none|\d+)/);
    // The first run has nothing before it.
    expect((await get(`/v1/evaluations/${first.evaluation_id}/html`)).body).toContain('This is the first completed run of these harnesses');
  });
});

describe('a campaign report', () => {
  let id: string;

  beforeAll(async () => {
    const agent = await registerRedteamAgent(t.app, token(), compliant);
    id = await startCampaign(t.app, token(), {
      agent_id: agent.id,
      categories: ['injection', 'pii'],
      strategies: ['basic', 'multilingual'],
      num_tests: 2,
      provider_config: { seed: 20_261_125 },
    });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status.status, status.error_message ?? '').toBe('completed');
  });

  it('sends one Content-Security-Policy header with the HTML, on GET and HEAD; the page\'s own <meta> policy says no more than it', async () => {
    const url = `/v1/campaigns/${id}/report?format=html`;
    for (const method of ['GET', 'HEAD']) {
      const policies = await rawHeaderValues(t.app, method, url, bearer(token()), 'content-security-policy');
      expect(policies, method).toHaveLength(1);
      expect(policies[0]).toMatch(/^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/);
    }
    const [header] = await rawHeaderValues(t.app, 'GET', url, bearer(token()), 'content-security-policy');
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec((await get(url)).body)?.[1];
    // A saved copy opened from disk keeps the same policy; only frame-ancestors, which a <meta> cannot carry, is the header's alone.
    expect(meta).toBeDefined();
    expect(header).toBe(`${meta}; frame-ancestors 'none'`);
  });

  it('answers HTML: the verdict, top risks, success rates with intervals, each successful attack, OWASP and ATLAS, under the report CSP', async () => {
    const res = await get(`/v1/campaigns/${id}/report?format=html`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(res.headers['content-security-policy'])).toMatch(/^default-src 'none'/);
    const results = (await get(`/v1/campaigns/${id}/results`)).json();
    const successes = results.findings.filter((f: any) => !f.passed);
    expect(successes.length).toBeGreaterThan(0);
    expect(res.body).toContain('VULNERABLE');
    expect(res.body).toContain('Top risks');
    expect(res.body).toContain('Attack success rate');
    expect(res.body).toMatch(/95\u00a0% interval [\d.]+\u00a0%–[\d.]+\u00a0%/);
    expect(res.body).toContain(`Successful attacks (${successes.length})`);
    for (const finding of successes.slice(0, 5)) expect(res.body).toContain(finding.raw_metadata.attack_id);
    expect(res.body).toContain('LLM01 Prompt Injection');
    expect(res.body).toContain('AML.T0051');
    expect(res.body).toContain('OWASP Top 10 for LLM Applications (2025) and MITRE ATLAS');
    // The default format is HTML.
    expect((await get(`/v1/campaigns/${id}/report`)).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers a PDF whose text holds the attacks, their ids and categories and the OWASP identifiers', async () => {
    const res = await get(`/v1/campaigns/${id}/report?format=pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="warden-redteam-report-${id}.pdf"`);
    const text = pdftotext(res.rawPayload);
    const results = (await get(`/v1/campaigns/${id}/results`)).json();
    const success = results.findings.find((f: any) => !f.passed);
    expect(text).toContain(success.raw_metadata.attack_id);
    expect(text).toContain('Attack success rate');
    expect(text).toMatch(/LLM01 Prompt Injection/);
    expect(text).toMatch(/LLM02 Sensitive Information Disclosure/);
  });

  it('is 404 for another team, 422 for an unknown format', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/v1/campaigns/${id}/report`, headers: bearer(world.teamB.member.token) })).statusCode).toBe(404);
    expect((await get(`/v1/campaigns/${id}/report?format=docx`)).statusCode).toBe(422);
  });
});
