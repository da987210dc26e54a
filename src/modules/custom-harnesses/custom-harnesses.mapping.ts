import type { Static } from 'typebox';
import type { Job } from '../../jobs/types.js';
import { promptColumns, sourceIdsOf, type CustomHarnessPromptRow, type CustomHarnessRow } from './custom-harnesses.repo.js';
import type { CustomHarnessListItem, CustomHarnessOut, CustomHarnessPrompt, CustomHarnessStatus, WorkflowStatusInfo } from './custom-harnesses.schemas.js';

export function toCustomHarness(row: CustomHarnessRow): CustomHarnessOut {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    description: row.description,
    agent_id: row.agent_id,
    persona_ids: sourceIdsOf(row).personaIds,
    policy_ids: sourceIdsOf(row).policyIds,
    status: row.status as CustomHarnessStatus,
    workflow_id: row.job_id,
    s3_key: null,
    generated_at: row.generated_at,
    prompt_count: row.prompt_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    creation_error: row.creation_error,
    pillar: row.pillar,
    generator: row.generator,
  };
}

export function toListItem(row: CustomHarnessRow, agentName: string | undefined): Static<typeof CustomHarnessListItem> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as CustomHarnessStatus,
    created_at: row.created_at,
    updated_at: row.updated_at,
    agent_id: row.agent_id,
    agent_name: agentName ?? null,
    policy_ids: sourceIdsOf(row).policyIds,
    persona_ids: sourceIdsOf(row).personaIds,
    prompt_count: row.prompt_count,
  };
}

const WORKFLOW_STATUS = { queued: 'created', running: 'running', completed: 'succeeded', failed: 'failed', cancelled: 'cancelled' } as const;

/**
 * The generation job as the reference's workflow (status, phase = its progress, error). The
 * handler makes the harness active in its own transaction, a moment before the runner records
 * the job's end: an active harness's workflow has succeeded, whatever the job row says yet.
 */
export function toWorkflow(job: Job, harness: Pick<CustomHarnessRow, 'status'>): Static<typeof WorkflowStatusInfo> {
  return {
    status: harness.status === 'active' ? 'succeeded' : WORKFLOW_STATUS[job.status],
    phase: job.progress.message,
    error_message: job.error,
    task_id: job.id,
    session_id: null,
  };
}

export function toPrompt(row: CustomHarnessPromptRow): Static<typeof CustomHarnessPrompt> {
  const { lineage } = promptColumns(row);
  const text = (key: string) => (typeof lineage[key] === 'string' ? (lineage[key] as string) : '');
  const orNull = (key: string) => (typeof lineage[key] === 'string' ? (lineage[key] as string) : null);
  return {
    dimension_name: row.dimension_name,
    prompt_text: row.prompt_text,
    pass_criteria: row.pass_criteria,
    lineage: {
      principle: text('principle'),
      theme: text('theme'),
      policy_section: text('policy_section'),
      persona: text('persona'),
      diagnostic_hooks: Array.isArray(lineage.diagnostic_hooks) ? lineage.diagnostic_hooks.filter((h): h is string => typeof h === 'string') : [],
      rule_id: orNull('rule_id'),
      policy_id: orNull('policy_id'),
      persona_id: orNull('persona_id'),
    },
  };
}
