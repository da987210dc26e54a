import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { decodeNullableJsonColumn } from '../../db/json-columns.js';
import { Nullable } from '../../http/schemas.js';
import type { DB } from '../../db/schema.js';
import { aggregate, PASS_THRESHOLD } from '../../evaluation/aggregate.js';
import { getStandardHarness } from '../../evaluation/harnesses/index.js';
import { formatTimestamp } from '../../evaluation/report/text.js';
import { PILLARS, type EvaluationReportModel, type Pillar, type RunComparison, type ScoreWithInterval } from '../../evaluation/types.js';
import { WARDEN_VERSION } from '../../version.js';
import { findHarnessesByIds } from '../custom-harnesses/custom-harnesses.repo.js';
import { detectorScoresOf, harnessNamesOf, requestParamsOf } from './evaluations.mapping.js';
import { findAgent } from '../agents/agents.repo.js';
import { teamName } from '../identity/identity.repo.js';
import { changedVerdicts, failureExamples, previousCompletedRun, verdictRows, type EvaluationRow } from './evaluations.repo.js';
import { CATALOGUE_UPDATED_AT } from './results.service.js';
import { resultsSha256 } from './results-hash.js';
import { pillarDetails } from './run/complete.js';
import { harnessesOf } from './run/plan.js';

/** Failure examples per probe in a report (the renderers bound them again for the page). */
export const FAILURES_PER_PROBE = 3;

/** pillar_details as completeRun stores it. */
const Score = Type.Object({ score: Type.Number(), n: Type.Number(), low: Type.Number(), high: Type.Number() });
const PillarColumn = Type.Enum(PILLARS);

/** What a completed run stored in `pillar_details` (./run/complete.ts, pillarDetails), as much as a report reads. */
const StoredDetails = Type.Partial(
  Type.Object({
    overall: Nullable(Score),
    pillars: Type.Partial(Type.Object({ reliability: Nullable(Score), security: Nullable(Score), safety: Nullable(Score) })),
    harnesses: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        pillar: PillarColumn,
        score: Nullable(Score),
        errors: Type.Number(),
        scenarios: Type.Array(
          Type.Object({
            id: Type.String(),
            score: Nullable(Score),
            errors: Type.Number(),
            probes: Type.Array(Type.Object({ id: Type.String(), score: Nullable(Score) })),
          }),
        ),
      }),
    ),
  }),
);
type StoredDetails = Static<typeof StoredDetails>;
// Fails to compile when the stored pillars gain one this column does not decode.
const pillarsCovered: Pillar extends keyof NonNullable<StoredDetails['pillars']> ? true : never = true;
void pillarsCovered;

const storedDetails = (row: Pick<EvaluationRow, 'pillar_details'>): StoredDetails =>
  decodeNullableJsonColumn(StoredDetails, row.pillar_details, 'evaluations.pillar_details') ?? {};

/** A level nothing was scored in: n = 0, which the renderers draw as "not measured". */
const orUnmeasured = (score: ScoreWithInterval | null): ScoreWithInterval => score ?? { score: 0, n: 0, low: 0, high: 1 };

interface Names {
  scenario(harness: string, id: string): string;
  probe(harness: string, id: string): { name: string; description: string };
}

/** Scenario and probe names: the catalogue's for standard harnesses, the generator's ids for custom ones. */
function namesOf(): Names {
  return {
    scenario: (harness, id) => getStandardHarness(harness)?.scenarios.find((s) => s.id === id)?.name ?? id,
    probe: (harness, id) => {
      for (const scenario of getStandardHarness(harness)?.scenarios ?? []) {
        const probe = scenario.probes.find((p) => p.id === id);
        if (probe !== undefined) return { name: probe.name, description: probe.description };
      }
      return { name: id, description: '' };
    },
  };
}

/**
 * The scores a report shows: a completed run's stored ones; for a run that ended otherwise
 * (failed, cancelled), the scores of the prompts it stored before it stopped, computed here as
 * completion would have (they are no verdict and not the agent's evidence: the report says so).
 */
async function detailsOf(db: Kysely<DB>, row: EvaluationRow): Promise<StoredDetails> {
  if (row.status === 'completed') return storedDetails(row);
  const harnesses = await harnessesOf(db, row);
  // A custom harness deleted since counts toward no pillar: its results are left out.
  const rows = (await verdictRows(db, row.id)).filter((r) => harnesses.has(r.harness));
  const scores = aggregate(
    rows.map((r) => ({ ...r, passed: r.passed === null ? null : r.passed === 1 })),
    (harness) => harnesses.get(harness)?.pillar,
  );
  return pillarDetails(scores, harnesses, rows.length);
}

/** The report's content, from what the evaluation stored (its scores and a few failures per probe). */
export async function buildReportModel(db: Kysely<DB>, row: EvaluationRow): Promise<EvaluationReportModel> {
  const details = await detailsOf(db, row);
  const names = namesOf();
  const [agent, team, failures, hash, comparison] = await Promise.all([
    findAgent(db, row.agent_id),
    teamName(db, row.team_id),
    failureExamples(db, row.id, FAILURES_PER_PROBE),
    resultsSha256(db, row.id),
    compareWithPrevious(db, row, details),
  ]);
  const customNames =
    row.harness_type === 'custom' ? new Map((await findHarnessesByIds(db, harnessNamesOf(row))).map((h) => [h.id, h.name])) : new Map<string, string>();
  const pillars = Object.fromEntries(PILLARS.map((p) => [p, details.pillars?.[p] ?? null])) as Record<Pillar, ScoreWithInterval | null>;
  const requestParams = requestParamsOf(row) ?? {};
  return {
    evaluationId: row.id,
    agent: {
      id: row.agent_id,
      name: agent?.agent_name ?? row.agent_name ?? row.agent_id,
      modelName: agent?.model_name ?? row.agent_model_name,
      url: agent?.agent_url ?? row.agent_url,
    },
    teamName: team,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    status: row.status,
    errorMessage: row.error_message,
    passThreshold: PASS_THRESHOLD,
    overall: details.overall ?? null,
    pillars,
    harnesses: (details.harnesses ?? []).map((h) => ({
      id: h.id,
      name: customNames.get(h.id) ?? h.name,
      pillar: h.pillar,
      score: orUnmeasured(h.score),
      errors: h.errors,
      scenarios: h.scenarios.map((s) => ({
        id: s.id,
        name: names.scenario(h.id, s.id),
        score: orUnmeasured(s.score),
        probes: s.probes.map((p) => ({ id: p.id, ...names.probe(h.id, p.id), score: orUnmeasured(p.score) })),
      })),
    })),
    failures: failures.map((f) => ({
      promptId: f.prompt_id,
      harness: f.harness,
      scenario: f.scenario,
      probe: f.probe,
      variation: f.variation,
      prompt: f.prompt,
      response: f.response ?? '',
      reason: f.reason,
      checks: detectorScoresOf(f.scores),
    })),
    requestParams: { ...requestParams, prompts: row.progress_total, errors: row.error_count },
    provenance: {
      seed: row.seed,
      wardenVersion: WARDEN_VERSION,
      catalogueVersion: formatTimestamp(CATALOGUE_UPDATED_AT).slice(0, 10),
      resultsSha256: hash.sha256,
      resultsCount: hash.count,
    },
    comparison,
  };
}

/** Prompt ids listed per kind of change (the counts are whole). */
const CHANGED_IDS_SHOWN = 8;

/** The comparison with the agent's previous completed run of the same harnesses (null: none). */
async function compareWithPrevious(db: Kysely<DB>, row: EvaluationRow, details: StoredDetails): Promise<RunComparison | null> {
  const previous = await previousCompletedRun(db, row);
  if (previous === undefined) return null;
  const before = storedDetails(previous);
  const score = (d: StoredDetails, pillar: Pillar | 'overall') =>
    (pillar === 'overall' ? d.overall : d.pillars?.[pillar])?.score ?? null;
  const [newFailures, fixedFailures] = await Promise.all([
    changedVerdicts(db, row.id, previous.id, 1, 0, CHANGED_IDS_SHOWN),
    changedVerdicts(db, row.id, previous.id, 0, 1, CHANGED_IDS_SHOWN),
  ]);
  return {
    previousId: previous.id,
    previousCompletedAt: previous.completed_at,
    scores: [
      ...PILLARS.map((pillar) => ({ label: PILLAR_NAMES[pillar], before: score(before, pillar), after: score(details, pillar) })),
      { label: 'Overall', before: score(before, 'overall'), after: score(details, 'overall') },
    ],
    newFailures,
    fixedFailures,
  };
}

const PILLAR_NAMES: Record<Pillar, string> = { reliability: 'Reliability', security: 'Security', safety: 'Safety' };
