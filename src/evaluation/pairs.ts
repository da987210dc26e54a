/**
 * Paraphrase / perturbation pairs (`consistent`): each member is answered on its own, then the
 * pair is judged once both answers are in. Both members get the pair's verdict: a pair that
 * disagrees fails twice, as two prompts the agent answered inconsistently.
 */
import { answerNumbers, holdsAnswer, normaliseAnswer } from '../verdict/text.js';
import type { EvalPrompt, PromptVerdict, ScoringSpec } from './types.js';

export interface PairMember {
  prompt: EvalPrompt;
  /** null: the agent could not be reached for this member. */
  answer: string | null;
  /** What scorePrompt (or unreachableVerdict) gave this member. */
  verdict: PromptVerdict;
}

type ConsistentSpec = Extract<ScoringSpec, { kind: 'consistent' }>;

const YES = /^\s*(?:yes|yeah|yep|correct|true|right)\b/i;
const NO = /^\s*(?:no|nope|false|incorrect|not)\b/i;

/** Without accepted answers: two answers agree on their number, their yes / no, or most of their words. */
function agree(a: string, b: string): boolean {
  const [na, nb] = [answerNumbers(a)[0], answerNumbers(b)[0]];
  if (na !== undefined && nb !== undefined) return Math.abs(na - nb) <= 1e-9 * Math.max(1, Math.abs(na));
  const polarity = (t: string) => (YES.test(t) ? 'yes' : NO.test(t) ? 'no' : null);
  const [pa, pb] = [polarity(a), polarity(b)];
  if (pa && pb) return pa === pb;
  const words = (t: string) => new Set(normaliseAnswer(t).trim().split(' ').filter(Boolean));
  const [wa, wb] = [words(a), words(b)];
  const shared = [...wa].filter((w) => wb.has(w)).length;
  const union = new Set([...wa, ...wb]).size;
  return union > 0 && shared / union >= 0.6;
}

const result = (passed: boolean | null, reason: string, consistency?: number): PromptVerdict => ({
  passed,
  reason,
  scores: consistency === undefined ? {} : { consistency },
});

function judgePair(members: readonly PairMember[], spec: ConsistentSpec): Map<string, PromptVerdict> {
  const out = new Map<string, PromptVerdict>();
  const [first, second] = members;
  if (!first || !second) {
    for (const m of members) {
      const alone = spec.answers?.length
        ? { ...m.verdict, reason: `${m.verdict.reason} Its pair partner was not run.` }
        : result(null, `Its pair partner (pair ${spec.pair}) was not run, so agreement could not be judged.`);
      out.set(m.prompt.id, alone);
    }
    return out;
  }
  if (members.some((m) => m.answer === null)) {
    const partnerMissing = result(null, 'The other member of its pair could not be answered, so agreement could not be judged.');
    for (const m of members) out.set(m.prompt.id, m.answer === null ? m.verdict : partnerMissing);
    return out;
  }
  const answers = members.map((m) => m.answer as string);
  if (spec.answers?.length) {
    const held = answers.map((a) => holdsAnswer(a, spec.answers ?? []));
    if (held.every((h) => h !== null)) {
      for (const m of members) out.set(m.prompt.id, result(true, `Consistent: both phrasings got the expected answer ("${held[0]}").`, 0));
      return out;
    }
    members.forEach((m, i) => {
      const reason = held[i] !== null
        ? 'Answered correctly, but the other phrasing of the same question was answered differently: inconsistent.'
        : `Did not give the expected answer (${spec.answers?.map((a) => `"${a}"`).join(', ')}), so the pair is inconsistent or wrong.`;
      out.set(m.prompt.id, result(false, reason, 1));
    });
    return out;
  }
  const agreed = answers.every((a) => agree(answers[0] as string, a));
  const pairVerdict = agreed
    ? result(true, 'Consistent: both phrasings were answered alike.', 0)
    : result(false, 'The two phrasings of the same question were answered differently.', 1);
  for (const m of members) out.set(m.prompt.id, pairVerdict);
  return out;
}

/** Final verdicts for every `consistent` member among `members` (others are left out), by prompt id. */
export function scorePairs(members: readonly PairMember[]): Map<string, PromptVerdict> {
  const groups = new Map<string, { spec: ConsistentSpec; members: PairMember[] }>();
  for (const member of members) {
    const spec = member.prompt.expect;
    if (spec.kind !== 'consistent') continue;
    const group = groups.get(spec.pair) ?? { spec, members: [] };
    group.members.push(member);
    groups.set(spec.pair, group);
  }
  const out = new Map<string, PromptVerdict>();
  for (const { spec, members: group } of groups.values()) for (const [id, v] of judgePair(group, spec)) out.set(id, v);
  return out;
}
