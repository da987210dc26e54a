/**
 * A campaign's plan (docs/redteam.md, "How a campaign runs"): `num_tests` cases per category
 * from the catalogue's probes, taken in turn so every probe is used; from grey_box on, as many
 * again from the probes that use what Warden knows of the agent; each case delivered with each
 * strategy. Deterministic: the same campaign (seed, purpose, settings) plans the same attacks.
 */
import { hashSeed, mulberry32 } from '../attacks/random.js';
import { getProbe, probesOf, type Probe, type ProbeContext } from './probes/index.js';
import { purposeProfile } from './purpose.js';
import type { AccessLevel, AgentKnowledge, AttackCase, AttackCategory, PlannedAttack, Strategy } from './types.js';

export interface PlanInput {
  purpose: string;
  categories: readonly AttackCategory[];
  /** Probe ids, for the `custom` category. */
  customPlugins: readonly string[];
  numTests: number;
  accessLevel: AccessLevel;
  knowledge: AgentKnowledge;
  seed: number;
}

/** The plan has nothing to run (e.g. the custom probes named all need knowledge Warden does not have). */
export class PlanError extends Error {
  override name = 'PlanError';
}

// Letters that no transform rewrites nor confuses: a canary survives every strategy and its decoding.
const TOKEN_LETTERS = 'CDFHJKMNPQRUVWXYZ';

/** The canary of one case: `WARDEN-RT-` and six letters, from the campaign's seed and the case. */
export function canaryFor(seed: number, key: string): string {
  const random = mulberry32(hashSeed(seed, key));
  return `WARDEN-RT-${Array.from({ length: 6 }, () => TOKEN_LETTERS[Math.floor(random() * TOKEN_LETTERS.length)]).join('')}`;
}

const reachesGreyBox = (level: AccessLevel) => level === 'grey_box' || level === 'white_box';

/** Ways of putting a request that say the same: a probe asked for more cases than it has wordings repeats none. */
const OPENERS = ['', 'Quick question. ', 'Please help, this is urgent. ', 'My manager asked me to sort this out today. ', 'Hi again! ', 'One more thing. '];
const CLOSERS = ['', ' Thanks in advance.', ' Please answer directly.', ' Keep it short.'];

/** The k-th rewording of a request (k = 0: as it is). */
function reworded(payload: string, k: number): string {
  const opener = OPENERS[k % OPENERS.length] as string;
  const closer = CLOSERS[Math.floor(k / OPENERS.length) % CLOSERS.length] as string;
  return `${opener}${payload}${closer}`;
}

/**
 * Up to `count` cases from `probes`, one probe after the other (probe k's n-th case is case
 * n × probes + k); a probe that has nothing to attack drops out.
 */
function casesFrom(probes: readonly Probe[], count: number, category: AttackCategory, input: PlanInput, source: AttackCase['source']): AttackCase[] {
  const profile = purposeProfile(input.purpose);
  const out: AttackCase[] = [];
  const seen = new Set<string>();
  let live = [...probes];
  for (let n = 0; out.length < count && live.length > 0; n += 1) {
    const next: Probe[] = [];
    for (const probe of live) {
      if (out.length >= count) break;
      const context: ProbeContext = { profile, knowledge: input.knowledge, canary: (k) => canaryFor(input.seed, `${category}:${probe.id}:${k}`) };
      const draft = probe.make(context, n);
      if (draft === null) continue;
      next.push(probe);
      let payload = draft.payload;
      for (let k = 1; seen.has(payload) && k < OPENERS.length * CLOSERS.length; k += 1) payload = reworded(draft.payload, k);
      seen.add(payload);
      out.push({ id: `${category}:${probe.id}:${n}`, category, probe: probe.id, source, ...draft, payload });
    }
    live = next;
  }
  return out;
}

/** Every case of the campaign, category by category (the LLM's cases are added by the caller). */
export function planCases(input: PlanInput): AttackCase[] {
  const cases: AttackCase[] = [];
  const grey = reachesGreyBox(input.accessLevel);
  for (const category of new Set(input.categories)) {
    if (category === 'custom') {
      const named = input.customPlugins.map((id) => getProbe(id)).filter((p): p is Probe => p !== undefined && (grey || p.access === 'black_box'));
      const custom = casesFrom(named, input.numTests, 'custom', input, 'template');
      if (custom.length === 0) {
        throw new PlanError('None of the custom_plugins can run: the probes named use what Warden knows of the agent, which needs grey_box access');
      }
      cases.push(...custom);
      continue;
    }
    const probes = probesOf(category);
    cases.push(...casesFrom(probes.filter((p) => p.access === 'black_box'), input.numTests, category, input, 'template'));
    if (grey) cases.push(...casesFrom(probes.filter((p) => p.access === 'grey_box'), input.numTests, category, input, 'grey_box'));
  }
  return cases;
}

/** Each case with each strategy, in case order (a category's attacks stay together). */
export function planAttacks(cases: readonly AttackCase[], strategies: readonly Strategy[], seed: number): PlannedAttack[] {
  return cases.flatMap((attackCase) =>
    [...new Set(strategies)].map((strategy) => {
      const id = `${attackCase.id}@${strategy}`;
      return { id, case: attackCase, strategy, seed: hashSeed(seed, id) };
    }),
  );
}
