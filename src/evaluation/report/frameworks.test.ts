import { describe, expect, it } from 'vitest';
import { STANDARD_HARNESS_DEFINITIONS } from '../harnesses/index.js';
import { PROBES } from '../../redteam/probes/index.js';
import { ATTACK_CATEGORIES } from '../../redteam/types.js';
import { ATLAS_TECHNIQUES, attackMapping, coverage, evaluationMapping, OWASP_LLM_2025 } from './frameworks.js';

const valid = (mapping: { owasp: string[]; atlas: string[] }) => {
  expect(mapping.owasp.length).toBeGreaterThan(0);
  expect(mapping.atlas.length).toBeGreaterThan(0);
  for (const id of mapping.owasp) expect(Object.keys(OWASP_LLM_2025)).toContain(id);
  for (const id of mapping.atlas) expect(Object.keys(ATLAS_TECHNIQUES)).toContain(id);
};

describe('the OWASP LLM 2025 / MITRE ATLAS mapping', () => {
  it('maps every probe of every standard harness to at least one OWASP item and one ATLAS technique', () => {
    for (const harness of Object.values(STANDARD_HARNESS_DEFINITIONS)) {
      for (const scenario of harness.scenarios) for (const probe of scenario.probes) valid(evaluationMapping(harness.id, scenario.id, probe.id));
    }
  });

  it('maps every red-team category but custom, and every catalogue probe', () => {
    for (const category of ATTACK_CATEGORIES.filter((c) => c !== 'custom')) valid(attackMapping(category, null));
    for (const probe of PROBES) valid(attackMapping(probe.category, probe.id));
  });

  it('tells direct from indirect injection, and adds prompt obfuscation for an encoding strategy', () => {
    expect(evaluationMapping('security', 'prompt-injection', 'direct').atlas).toEqual(['AML.T0051.000']);
    expect(evaluationMapping('security', 'prompt-injection', 'indirect-email').atlas).toEqual(['AML.T0051.001']);
    expect(evaluationMapping('security', 'system-prompt-extraction', 'direct-request').owasp).toEqual(['LLM07']);
    expect(attackMapping('injection', 'injection.ignore-previous', 'base64').atlas).toContain('AML.T0068');
    expect(attackMapping('injection', 'injection.ignore-previous', 'basic').atlas).not.toContain('AML.T0068');
  });

  it('counts tested and failing items per OWASP item, listing untested OWASP items with 0', () => {
    const cov = coverage([
      { mapping: { owasp: ['LLM01'], atlas: ['AML.T0054'] }, failing: true },
      { mapping: { owasp: ['LLM01', 'LLM07'], atlas: ['AML.T0056'] }, failing: false },
    ]);
    expect(cov.owasp).toHaveLength(10);
    expect(cov.owasp.find((r) => r.id === 'LLM01')).toMatchObject({ tested: 2, failing: 1 });
    expect(cov.owasp.find((r) => r.id === 'LLM07')).toMatchObject({ tested: 1, failing: 0 });
    expect(cov.owasp.find((r) => r.id === 'LLM10')).toMatchObject({ tested: 0, failing: 0 });
    expect(cov.atlas.map((r) => r.id)).toEqual(['AML.T0054', 'AML.T0056']);
  });
});
