import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../attacks/random.js';
import { allocate, newSeed, selectPrompts } from './sampling.js';
import type { EvalPrompt } from './types.js';

const make = (scenario: string, probe: string, base: string, variation: string, pair?: string): EvalPrompt => ({
  id: `h.${scenario}.${probe}.${base}.${variation}`,
  harness: 'h',
  scenario,
  probe,
  turns: ['x'],
  base,
  variation,
  expect: pair ? { kind: 'consistent', pair } : { kind: 'refusal' },
});

// Scenario "big" has 2 probes × 10 bases × 4 variations; "small" 1 × 2 × 2; "pairs" 5 pairs.
const PROMPTS: EvalPrompt[] = [
  ...['p1', 'p2'].flatMap((probe) => Array.from({ length: 10 }, (_, b) => ['plain', 'v1', 'v2', 'v3'].map((v) => make('big', probe, `b${b}`, v))).flat()),
  ...Array.from({ length: 2 }, (_, b) => ['plain', 'v1'].map((v) => make('small', 'p', `b${b}`, v))).flat(),
  ...Array.from({ length: 5 }, (_, b) => ['a', 'b'].map((v) => make('pairs', 'p', `b${b}`, v, `pair-${b}`))).flat(),
];

describe('selectPrompts', () => {
  it('returns every prompt without a sample size or when the size covers the harness', () => {
    expect(selectPrompts(PROMPTS, null, 1)).toEqual(PROMPTS);
    expect(selectPrompts(PROMPTS, 10_000, 1)).toEqual(PROMPTS);
  });

  it('is repeated exactly with the same seed and differs with another', () => {
    const a = selectPrompts(PROMPTS, 12, 42).map((p) => p.id);
    expect(selectPrompts(PROMPTS, 12, 42).map((p) => p.id)).toEqual(a);
    expect(selectPrompts(PROMPTS, 12, 43).map((p) => p.id)).not.toEqual(a);
  });

  it('covers every scenario and probe when the sample allows, in proportion to size, in catalogue order', () => {
    const sample = selectPrompts(PROMPTS, 12, 7);
    const count = (scenario: string) => sample.filter((p) => p.scenario === scenario && p.expect.kind !== 'consistent').length;
    expect(new Set(sample.map((p) => p.scenario))).toEqual(new Set(['big', 'small', 'pairs']));
    expect(new Set(sample.filter((p) => p.scenario === 'big').map((p) => p.probe))).toEqual(new Set(['p1', 'p2']));
    expect(count('big')).toBeGreaterThan(count('small'));
    const order = PROMPTS.map((p) => p.id);
    const positions = sample.map((p) => order.indexOf(p.id));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
  });

  it('spreads a probe share over its bases before repeating a base', () => {
    const sample = selectPrompts(PROMPTS, 21, 3).filter((p) => p.scenario === 'big' && p.probe === 'p1');
    expect(new Set(sample.map((p) => p.base)).size).toBe(sample.length);
  });

  it('keeps both members of a pair and counts a pair as one', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const sample = selectPrompts(PROMPTS, 6, seed);
      const pairs = sample.filter((p) => p.expect.kind === 'consistent');
      expect(pairs.length % 2).toBe(0);
      const units = sample.length - pairs.length / 2;
      expect(units).toBe(6);
    }
  });

  it('with fewer units than scenarios, picks scenarios at random', () => {
    const sample = selectPrompts(PROMPTS, 2, 11);
    expect(new Set(sample.map((p) => p.scenario)).size).toBe(2);
  });

  it('rejects a size that is not a positive integer', () => {
    expect(() => selectPrompts(PROMPTS, 0, 1)).toThrow(RangeError);
    expect(() => selectPrompts(PROMPTS, 2.5, 1)).toThrow(RangeError);
  });
});

describe('allocate', () => {
  it('gives each group one, the rest in proportion, never more than a group holds', () => {
    const random = mulberry32(1);
    expect(allocate([80, 4, 5], 10, random)).toEqual([8, 1, 1]);
    expect(allocate([1, 1, 100], 50, random)).toEqual([1, 1, 48]);
    expect(allocate([3, 3], 100, random)).toEqual([3, 3]);
    const shares = allocate([5, 5, 5, 5], 2, random);
    expect(shares.reduce((t, s) => t + s, 0)).toBe(2);
    expect(Math.max(...shares)).toBe(1);
  });
});

describe('newSeed', () => {
  it('gives non-negative 31-bit integers', () => {
    const seeds = Array.from({ length: 20 }, newSeed);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});
