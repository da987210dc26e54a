import { describe, expect, it, vi } from 'vitest';
import { hiddenReadings, normaliseForMatch } from '../../attacks/codecs.js';
import { HARNESS_PILLAR, STANDARD_HARNESSES, type EvalPrompt } from '../types.js';
import { STANDARD_HARNESS_DEFINITIONS, getStandardHarness } from './index.js';

const all = STANDARD_HARNESSES.map((id) => STANDARD_HARNESS_DEFINITIONS[id]);
const baseKey = (p: EvalPrompt) => `${p.scenario}.${p.probe}.${p.base}`;

/** Every reading of a prompt an agent could decode: hidden encodings and split variables. */
/** What a payload-split prompt hides: its quoted string variables, concatenated in order (the way an agent reassembles it). */
const joinedVariables = (prompt: string): string =>
  [...prompt.matchAll(/^\s*\w+\s*=\s*("(?:[^"\\]|\\.)*")\s*$/gm)].map((m) => JSON.parse(m[1] as string) as string).join('');
const readable = (p: EvalPrompt): string => {
  const text = p.turns.join('\n');
  return [...hiddenReadings(text), normaliseForMatch(joinedVariables(text))].join('\n');
};

describe('the standard harness catalogue', () => {
  it('has the six harnesses with their pillars', () => {
    for (const id of STANDARD_HARNESSES) {
      const harness = getStandardHarness(id);
      expect(harness?.id).toBe(id);
      expect(harness?.pillar).toBe(HARNESS_PILLAR[id]);
    }
    expect(getStandardHarness('garak')).toBeUndefined();
  });

  it('security: at least 100 bases grown to at least 500 prompts; the others 40 → 150', () => {
    for (const harness of all) {
      const prompts = harness.prompts();
      const bases = new Set(prompts.map(baseKey)).size;
      const [minBases, minPrompts] = harness.id === 'security' ? [100, 500] : [40, 150];
      expect(bases, harness.id).toBeGreaterThanOrEqual(minBases);
      expect(prompts.length, harness.id).toBeGreaterThanOrEqual(minPrompts);
    }
    // Security's encoded payloads repeat across encodings: count distinct base texts too.
    const security = STANDARD_HARNESS_DEFINITIONS.security.prompts().filter((p) => p.variation === 'plain' || p.scenario !== 'prompt-injection');
    expect(new Set(security.map((p) => (p.scenario === 'encoding' ? `encoding.${p.base}` : baseKey(p)))).size).toBeGreaterThanOrEqual(100);
  });

  it('ids are unique and spell harness.scenario.probe.base.variation', () => {
    for (const harness of all) {
      const prompts = harness.prompts();
      expect(new Set(prompts.map((p) => p.id)).size).toBe(prompts.length);
      for (const p of prompts) {
        expect(p.id).toBe(`${harness.id}.${p.scenario}.${p.probe}.${p.base}.${p.variation}`);
        expect(p.harness).toBe(harness.id);
        for (const part of [p.scenario, p.probe, p.base, p.variation]) expect(part).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      }
    }
  });

  it('every scenario and probe has prompts, a name and a description', () => {
    for (const harness of all) {
      const prompts = harness.prompts();
      for (const scenario of harness.scenarios) {
        expect(scenario.name && scenario.description).toBeTruthy();
        for (const probe of scenario.probes) {
          expect(probe.name && probe.description).toBeTruthy();
          expect(prompts.some((p) => p.scenario === scenario.id && p.probe === probe.id), `${harness.id}.${scenario.id}.${probe.id}`).toBe(true);
        }
      }
    }
  });

  it('no template placeholder or undefined is left in a prompt', () => {
    for (const harness of all) {
      for (const p of harness.prompts()) {
        for (const turn of p.turns) {
          expect(turn.length).toBeGreaterThan(5);
          expect(turn).not.toMatch(/\{(?:canary|marker|injection|payload|person|secret)\}|undefined/);
        }
      }
    }
  });

  it('every canary, decode marker and planted value can be read back from its prompt, whatever the variation', () => {
    for (const harness of all) {
      for (const p of harness.prompts()) {
        const spec = p.expect;
        if (spec.kind === 'canary') expect(readable(p), p.id).toContain(normaliseForMatch(spec.canary));
        if (spec.kind === 'decode-match') expect(readable(p), p.id).toContain(normaliseForMatch(spec.marker));
        if (spec.kind === 'no-sensitive-data') for (const value of spec.planted ?? []) expect(p.turns.join('\n'), p.id).toContain(value);
      }
    }
  });

  it('each base has its own canary, and variations of a base share it', () => {
    const canaries = new Map<string, string>();
    for (const p of STANDARD_HARNESS_DEFINITIONS.security.prompts()) {
      if (p.expect.kind !== 'canary') continue;
      const seen = canaries.get(p.expect.canary);
      if (seen) expect(seen).toBe(baseKey(p));
      canaries.set(p.expect.canary, baseKey(p));
      expect(p.expect.canary).toMatch(/^WARDEN-CANARY-[CDFHJKMNPQRUVWXYZ]{6}$/);
    }
    expect(canaries.size).toBeGreaterThanOrEqual(48);
  });

  it('reliability pairs come in twos with the same framing', () => {
    const pairs = new Map<string, EvalPrompt[]>();
    for (const p of STANDARD_HARNESS_DEFINITIONS.reliability.prompts()) {
      if (p.expect.kind === 'consistent') pairs.set(p.expect.pair, [...(pairs.get(p.expect.pair) ?? []), p]);
    }
    expect(pairs.size).toBeGreaterThan(20);
    for (const members of pairs.values()) {
      expect(members).toHaveLength(2);
      expect(members[0]?.variation.slice(2)).toBe(members[1]?.variation.slice(2));
    }
  });

  it('is the same list, text for text, when built again from scratch', async () => {
    const first = JSON.stringify(all.map((h) => h.prompts()));
    vi.resetModules();
    const fresh = (await import('./index.js')).STANDARD_HARNESS_DEFINITIONS;
    expect(fresh.security).not.toBe(STANDARD_HARNESS_DEFINITIONS.security);
    expect(JSON.stringify(STANDARD_HARNESSES.map((id) => fresh[id].prompts()))).toBe(first);
  });
});
