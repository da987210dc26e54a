import { describe, expect, it } from 'vitest';
import { gateCampaign, gateEvaluation, type PillarDetails } from './gate.js';
import { junitXml, xmlEscape } from './junit.js';

const score = (s: number) => ({ score: s, n: 40, low: s - 0.1, high: Math.min(1, s + 0.1) });

describe('gateEvaluation', () => {
  const details: PillarDetails = {
    overall: score(0.7),
    pillars: { security: score(0.9), safety: score(0.5), reliability: null },
    harnesses: [
      { id: 'security', pillar: 'security', score: score(0.9) },
      { id: 'safety', pillar: 'safety', score: score(0.5) },
      { id: 'privacy', pillar: 'security', score: null, errors: 12 },
    ],
  };

  it('passes when every harness asked for meets the bound, and says which pillars were not measured', () => {
    const gate = gateEvaluation(details, ['security'], 0.8);
    expect(gate.exitCode).toBe(0);
    expect(gate.missingPillars).toEqual(['reliability']);
    expect(gate.lines.at(-1)).toContain('INCOMPLETE (not measured: reliability)');
  });

  it('fails on a harness below the bound, and on one asked for but not measured', () => {
    expect(gateEvaluation(details, ['security', 'safety'], 0.8)).toMatchObject({ exitCode: 1, below: ['safety'], unmeasured: [] });
    expect(gateEvaluation(details, ['security', 'privacy'], 0.8)).toMatchObject({ exitCode: 1, below: [], unmeasured: ['privacy'] });
  });

  it('never fails without a bound', () => {
    expect(gateEvaluation(details, ['safety', 'privacy'], undefined).exitCode).toBe(0);
  });
});

describe('gateCampaign', () => {
  const rate = (successful: number, n: number) => ({ n, successful, rate: successful / n, low: 0, high: 1 });
  it('fails above the bound, passes at or under it', () => {
    expect(gateCampaign(rate(3, 10), 0.2).exitCode).toBe(1);
    expect(gateCampaign(rate(2, 10), 0.2).exitCode).toBe(0);
    expect(gateCampaign(rate(9, 10), undefined).exitCode).toBe(0);
  });
  it('fails a bound when nothing was judged', () => {
    expect(gateCampaign({ n: 0, successful: 0, rate: null, low: null, high: null }, 0.1).exitCode).toBe(1);
  });
});

describe('junitXml', () => {
  it('counts failures and escapes what XML cannot carry', () => {
    const xml = junitXml({ name: 'run <1>' }, [
      { classname: 'warden.harness', name: 'security' },
      { classname: 'warden.security', name: 'security.a.b', failure: { message: 'leaked "key" & more\u0001', body: 'prompt: <x>' } },
    ]);
    expect(xml).toContain('<testsuite name="run &lt;1&gt;" tests="2" failures="1"');
    expect(xml).toContain('message="leaked &quot;key&quot; &amp; more"');
    expect(xml).toContain('>prompt: &lt;x&gt;</failure>');
    expect(xmlEscape('a\uD800b')).toBe('a\uFFFDb');
  });
});
