import { createBatchWriter } from '../../../jobs/batches.js';
import type { JobContext } from '../../../jobs/types.js';
import { CATEGORY_DEFAULTS, getProbe } from '../../../redteam/probes/index.js';
import type { StaticFinding } from '../../../redteam/static-analysis.js';
import type { Catch } from '../../../redteam/guard.js';
import type { AttackOutcome, ConversationTurn } from '../../../redteam/types.js';
import { boundText } from '../../../jobs/text.js';
import { insertFindings, updateActiveOf, type NewFinding } from '../redteam.repo.js';

/**
 * What a finding keeps (the verdict was made on the whole texts): its attack and answer up to
 * MAX_TEXT_BYTES of JSON each (boundText: control characters count as the 6 bytes they are
 * answered in), and the last MAX_TURNS turns of its conversation, each text up to
 * MAX_TURN_BYTES (`metadata.turns` counts them all). Cut texts end in `…`; the metadata says
 * which were cut and their original lengths (`agent_response_truncated`, `agent_response_length`…).
 */
const MAX_TEXT_BYTES = 16_384;
const MAX_TURNS = 10;
const MAX_TURN_BYTES = 4_096;
/** An errored attack's error (raw_output lists the first 50; the summary reads them all). */
const MAX_ERROR_BYTES = 2_048;
const storable = (text: string, max = MAX_TEXT_BYTES) => boundText(text, max).text;

const storableTurn = (turn: ConversationTurn): ConversationTurn => ({
  ...turn,
  prompt: storable(turn.prompt, MAX_TURN_BYTES),
  response: storable(turn.response, MAX_TURN_BYTES),
  ...(turn.unguardedResponse !== undefined ? { unguardedResponse: storable(turn.unguardedResponse, MAX_TURN_BYTES) } : {}),
});

/** The attack and the answer as stored, and what the finding's metadata says of their cut. */
function boundedTexts(prompt: string, response: string) {
  const attack = boundText(prompt, MAX_TEXT_BYTES);
  const answer = boundText(response, MAX_TEXT_BYTES);
  const cut: Record<string, unknown> = {};
  if (attack.truncated) Object.assign(cut, { attack_prompt_truncated: true, attack_prompt_length: attack.length });
  if (answer.truncated) Object.assign(cut, { agent_response_truncated: true, agent_response_length: answer.length });
  return { attack_prompt: attack.text, agent_response: answer.text, cut };
}

/** One attack's row: its finding (or its error) and its conversation. */
export function findingRow(campaignId: string, seq: number, outcome: AttackOutcome, catches: readonly Catch[] | null, at: number): NewFinding {
  const { attack, verdict } = outcome;
  const probe = getProbe(attack.case.probe);
  const fallback = attack.case.category === 'custom' ? undefined : CATEGORY_DEFAULTS[attack.case.category];
  const judgedTurn = outcome.conversation.find((turn) => turn.judged && turn.prompt === outcome.prompt);
  const texts = boundedTexts(outcome.prompt, outcome.response);
  const metadata: Record<string, unknown> = {
    case_id: attack.case.id,
    source: attack.case.source,
    goal: attack.case.goal.kind,
    reason: verdict?.reason ?? null,
    turns: outcome.conversation.length,
  };
  if (attack.strategy === 'best-of-n') metadata.attempts = new Set(outcome.conversation.map((t) => t.attempt)).size;
  if (judgedTurn?.blockedBy) metadata.blocked_by = judgedTurn.blockedBy;
  if (judgedTurn?.guardedBy) metadata.guarded_by = judgedTurn.guardedBy;
  if (catches !== null) metadata.caught_by = catches;
  Object.assign(metadata, texts.cut);
  return {
    campaign_id: campaignId,
    attack_id: attack.id,
    seq,
    category: attack.case.category,
    probe: attack.case.probe,
    strategy: attack.strategy,
    severity: probe?.severity ?? fallback?.severity ?? 'medium',
    passed: verdict === null ? null : verdict.succeeded ? 0 : 1,
    attack_prompt: texts.attack_prompt,
    agent_response: texts.agent_response,
    phenotype_category: probe?.phenotype ?? fallback?.phenotype ?? null,
    attack_score: verdict?.score ?? null,
    detector_id: verdict?.detector ?? null,
    metadata: JSON.stringify(metadata),
    conversation: JSON.stringify(outcome.conversation.slice(-MAX_TURNS).map(storableTurn)),
    error: outcome.error === null ? null : storable(outcome.error, MAX_ERROR_BYTES),
    created_at: at,
  };
}

const STATIC_PHENOTYPE: Record<StaticFinding['rule'], string> = {
  'hardcoded-secret': 'security.confidentiality.hardcoded_secret',
  'prompt-concatenation': 'security.integrity.prompt_injection',
  'unrestricted-tool': 'security.integrity.excessive_agency',
};

/** A white-box finding: no conversation, the source location instead. Never the secret itself. */
export function staticRow(campaignId: string, seq: number, finding: StaticFinding, index: number, at: number): NewFinding {
  return {
    campaign_id: campaignId,
    attack_id: `static:${finding.rule}:${index}`,
    seq,
    category: 'source_code',
    probe: `static.${finding.rule}`,
    strategy: 'static-analysis',
    severity: finding.severity,
    passed: 0,
    attack_prompt: `${finding.file}:${finding.line}`,
    agent_response: storable(finding.excerpt),
    phenotype_category: STATIC_PHENOTYPE[finding.rule],
    attack_score: 1,
    detector_id: finding.rule === 'hardcoded-secret' ? 'detect-secrets' : `static-${finding.rule}`,
    metadata: JSON.stringify({ rule: finding.rule, file: finding.file, line: finding.line, reason: finding.detail }),
    conversation: '[]',
    error: null,
    created_at: at,
  };
}

/** A white-box check that found nothing: one passed finding, so that the summary counts it. */
export function staticPassRow(campaignId: string, seq: number, rule: StaticFinding['rule'], files: number, at: number): NewFinding {
  const what: Record<StaticFinding['rule'], string> = {
    'hardcoded-secret': 'No hard-coded secret found',
    'prompt-concatenation': 'No prompt built from user input by concatenation found',
    'unrestricted-tool': 'No tool reaching a shell, code, URL, file or SQL sink without an allow-list found',
  };
  return {
    campaign_id: campaignId,
    attack_id: `static:${rule}:clean`,
    seq,
    category: 'source_code',
    probe: `static.${rule}`,
    strategy: 'static-analysis',
    severity: 'low',
    passed: 1,
    attack_prompt: `${files} source file(s)`,
    agent_response: what[rule],
    phenotype_category: STATIC_PHENOTYPE[rule],
    attack_score: 0,
    detector_id: rule === 'hardcoded-secret' ? 'detect-secrets' : `static-${rule}`,
    metadata: JSON.stringify({ rule, reason: what[rule] }),
    conversation: '[]',
    error: null,
    created_at: at,
  };
}

/**
 * A campaign's findings through the jobs' batch writer (src/jobs/batches.ts): one transaction per
 * `size` rows or per `intervalMs`, so that a campaign costs few commits whatever its size
 * (docs/jobs.md, "Cost on SQLite"). A batch that comes after the campaign ended (cancelled,
 * deleted) or after the run lost its job is dropped: the job's fenced transaction checks the
 * job, then the campaign still running that job (its row locked), before the findings are written.
 */
export function findingWriter(
  fenced: JobContext['fenced'],
  options: { campaignId: string; jobId: string; size: number; intervalMs: number; onWritten: (count: number) => void; now: () => number },
) {
  const writer = createBatchWriter<NewFinding>({
    fenced,
    size: options.size,
    intervalMs: options.intervalMs,
    async store(trx, rows) {
      if (!(await updateActiveOf(trx, options.campaignId, options.jobId, { updated_at: options.now() }))) return false;
      await insertFindings(trx, rows);
      return true;
    },
    onWritten: (rows) => options.onWritten(rows.length),
  });
  return {
    /** The campaign had ended when a batch was written: nothing more is stored. */
    get stopped() {
      return writer.stopped;
    },
    add: (rows: NewFinding | readonly NewFinding[]) => writer.add(Array.isArray(rows) ? rows : [rows as NewFinding]),
    flush: writer.flush,
    close: writer.close,
  };
}
