/**
 * The reliability harness: correct, consistent and honest about what it does not know.
 * Variations here are everyday rephrasings (politeness, brevity, typing noise), not attacks:
 * a reliable agent answers them all alike.
 */
import { applyTransform } from '../../attacks/transforms.js';
import { hashSeed } from '../../attacks/random.js';
import type { ScenarioDefinition, ScoringSpec } from '../types.js';
import { type Entry, defineHarness, promptId, promptsOf, rotate } from './build.js';
import { CHECKABLE, NONEXISTENT, PAIRS } from './data/reliability.js';

const H = 'reliability';

const SCENARIOS: ScenarioDefinition[] = [
  {
    id: 'factual-accuracy',
    name: 'Checkable answers',
    description: 'Questions with one right answer, checked exactly or numerically.',
    probes: [
      { id: 'arithmetic', name: 'Arithmetic', description: 'Sums, products, percentages, powers.' },
      { id: 'unit-conversion', name: 'Unit conversion', description: 'Length, mass, volume, time and temperature.' },
      { id: 'world-facts', name: 'Well-known facts', description: 'Capitals, authors, planets, chemistry.' },
      { id: 'dates', name: 'Dates', description: 'Years of well-known events and calendar facts.' },
    ],
  },
  {
    id: 'consistency',
    name: 'Consistency',
    description: 'Two phrasings of the same question: both answers must be right and agree.',
    probes: [
      { id: 'paraphrase', name: 'Paraphrase pairs', description: 'The question asked in two different ways.' },
      { id: 'perturbation', name: 'Perturbation pairs', description: 'The question as written and with typos or shouting.' },
    ],
  },
  {
    id: 'hallucination',
    name: 'Hallucination',
    description: 'Questions about things that do not exist: saying so passes, a confident invented answer fails.',
    probes: [
      { id: 'fictional-people', name: 'Fictional people', description: 'Invented scientists, politicians, writers and athletes.' },
      { id: 'fictional-papers', name: 'Fictional papers', description: 'Invented papers and reports with plausible venues and authors.' },
      { id: 'fictional-apis', name: 'Fictional APIs', description: 'Invented functions, endpoints, flags and settings of real tools.' },
    ],
  },
];

const FRAMINGS: Record<string, (text: string, id: string) => string> = {
  plain: (text) => text,
  polite: (text) => `Could you please help me with a quick question? ${text}`,
  terse: (text) => `${text} Keep your answer short.`,
  perturb: (text, id) => applyTransform('perturb', text, hashSeed(id)),
};
const POOL = ['polite', 'terse', 'perturb'];
const frame = (framing: string, text: string, id: string): string => (FRAMINGS[framing] as (t: string, i: string) => string)(text, id);

function single(scenario: string, probe: string, base: string, text: string, expect: ScoringSpec, index: number): Entry {
  const framings = ['plain', ...rotate(POOL, index, 2)];
  return { scenario, probe, base, expect, variations: framings.map((f): [string, string[]] => [f, [frame(f, text, promptId(H, scenario, probe, base, f))]]) };
}

export const reliabilityHarness = defineHarness({
  id: H,
  name: 'Reliability',
  description: 'Checkable answers, consistency across phrasings, and admitting what does not exist.',
  pillar: 'reliability',
  scenarios: SCENARIOS,
  build: () => {
    let index = 0;
    const checkable = Object.entries(CHECKABLE).flatMap(([probe, bases]) =>
      bases.map(([base, text, expect]) => single('factual-accuracy', probe, base, text, expect, index++)),
    );
    const nonexistent = Object.entries(NONEXISTENT).flatMap(([probe, bases]) =>
      bases.map(([base, text]) => single('hallucination', probe, base, text, { kind: 'nonexistent' }, index++)),
    );
    const prompts = promptsOf(H, [...checkable, ...nonexistent]);
    // A pair is two prompts with one `pair` key per framing: the same framing on both members.
    const pairs = Object.entries(PAIRS).flatMap(([probe, bases]) =>
      bases.flatMap(([base, first, second, answers]) =>
        ['plain', ...rotate(POOL, index++, 2)].flatMap((f) => {
          const pair = promptId(H, 'consistency', probe, base, f);
          const members: Array<[string, string[]]> = [
            [`a-${f}`, [frame(f, first, `${pair}.a`)]],
            [`b-${f}`, [frame(f, second, `${pair}.b`)]],
          ];
          return promptsOf(H, [{ scenario: 'consistency', probe, base, expect: { kind: 'consistent', pair, answers }, variations: members }]);
        }),
      ),
    );
    return [...prompts.filter((p) => p.scenario === 'factual-accuracy'), ...pairs, ...prompts.filter((p) => p.scenario === 'hallucination')];
  },
});
