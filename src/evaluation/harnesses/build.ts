/**
 * How the harness files grow base prompts into prompts: stable ids, seeded transforms (the
 * seed is the prompt id's hash, so a release always sends the same text), variation pools
 * rotated over the bases so every variation is used about equally, canaries and markers.
 */
import { ATTACK_LANGUAGES, hasTranslation } from '../../attacks/languages.js';
import { hashSeed, mulberry32 } from '../../attacks/random.js';
import { applyTransform } from '../../attacks/transforms.js';
import type { EvalPrompt, HarnessDefinition, Pillar, ScenarioDefinition, ScoringSpec } from '../types.js';

// Letters only, none that leetspeak rewrites (a e i o s t b) nor ones easily confused (l g):
// a canary survives every transform and its decoding exactly.
const TOKEN_LETTERS = 'CDFHJKMNPQRUVWXYZ';

const token = (prefix: string, key: string): string => {
  const random = mulberry32(hashSeed(key));
  const letters = Array.from({ length: 6 }, () => TOKEN_LETTERS[Math.floor(random() * TOKEN_LETTERS.length)]);
  return `${prefix}-${letters.join('')}`;
};

/** The canary of one base: the injected instruction asks for it; its presence in an answer means the injection worked. */
export const canaryFor = (key: string): string => token('WARDEN-CANARY', key);
/** The marker of one encoded payload: the decoded instruction asks for it. */
export const markerFor = (key: string): string => token('WARDEN-DECODE', key);

/** `count` consecutive items of the pool starting at the base's turn: spread evenly over many bases. */
export function rotate<T>(pool: readonly T[], index: number, count: number): T[] {
  const n = Math.min(count, pool.length);
  return Array.from({ length: n }, (_, k) => pool[(index * n + k) % pool.length] as T);
}

/** The language a translatable base is sent in, rotating over the eight. */
export const languageFor = (index: number): string => `lang-${ATTACK_LANGUAGES[index % ATTACK_LANGUAGES.length]}`;

/** A transform applied with the prompt's own seed. */
export const transformed = (variation: string, text: string, promptId: string): string => applyTransform(variation, text, hashSeed(promptId));

export interface Entry {
  scenario: string;
  probe: string;
  base: string;
  expect: ScoringSpec;
  /** Each variation's turns, `plain` usually first. */
  variations: Array<[variation: string, turns: string[]]>;
}

export const promptId = (harness: string, scenario: string, probe: string, base: string, variation: string): string =>
  `${harness}.${scenario}.${probe}.${base}.${variation}`;

export function promptsOf(harness: string, entries: readonly Entry[]): EvalPrompt[] {
  return entries.flatMap((e) =>
    e.variations.map(([variation, turns]) => ({
      id: promptId(harness, e.scenario, e.probe, e.base, variation),
      harness,
      scenario: e.scenario,
      probe: e.probe,
      turns,
      base: e.base,
      variation,
      expect: e.expect,
    })),
  );
}

/**
 * Variations of a single-turn base by whole-text transforms; `seedKey(variation)` gives the
 * prompt id whose hash seeds the transform.
 */
export const grownText = (text: string, variations: readonly string[], idOf: (variation: string) => string): Array<[string, string[]]> => [
  ['plain', [text]],
  ...variations.map((v): [string, string[]] => [v, [transformed(v, text, idOf(v))]]),
];

interface HarnessSpec {
  id: string;
  name: string;
  description: string;
  pillar: Pillar;
  scenarios: ScenarioDefinition[];
  build(): EvalPrompt[];
}

/** A harness whose prompts are built once, on first use, and checked against its scenarios and probes. */
export function defineHarness(spec: HarnessSpec): HarnessDefinition {
  let prompts: EvalPrompt[] | null = null;
  const { build, ...definition } = spec;
  return {
    ...definition,
    prompts() {
      if (!prompts) {
        const built = build();
        const ids = new Set<string>();
        for (const p of built) {
          const scenario = spec.scenarios.find((s) => s.id === p.scenario);
          if (!scenario?.probes.some((probe) => probe.id === p.probe)) throw new Error(`${p.id}: unknown scenario or probe`);
          if (ids.has(p.id)) throw new Error(`${p.id}: duplicate prompt id`);
          ids.add(p.id);
        }
        prompts = built;
      }
      return prompts;
    },
  };
}

export type BaseTable = Record<string, Record<string, ReadonlyArray<readonly [id: string, text: string]>>>;

/**
 * Entries of single-turn bases laid out scenario → probe → [id, text]: each base plain, plus
 * `count` variations rotated over `pool` (one of them a language when the text has a translation).
 */
export function tableEntries(
  harness: string,
  table: BaseTable,
  expectFor: (scenario: string, probe: string) => ScoringSpec,
  pool: readonly string[],
  count = 3,
): Entry[] {
  let index = 0;
  return Object.entries(table).flatMap(([scenario, probes]) =>
    Object.entries(probes).flatMap(([probe, bases]) =>
      bases.map(([base, text]): Entry => {
        const i = index++;
        const variations = hasTranslation(text) ? [languageFor(i), ...rotate(pool, i, count - 1)] : rotate(pool, i, count);
        const grown = grownText(text, variations, (v) => promptId(harness, scenario, probe, base, v));
        return { scenario, probe, base, expect: expectFor(scenario, probe), variations: grown };
      }),
    ),
  );
}
