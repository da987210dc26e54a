import type { Deps } from '../../deps.js';
import { conflict } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { loadEvaluation, type EvaluationPermission } from './access.js';
import { findReportPart, reportGeneratedAt, saveReport, type EvaluationRow } from './evaluations.repo.js';
import { buildReportModel } from './report-model.js';

type ReportDeps = Pick<Deps, 'db' | 'now' | 'reportRenderer'>;

/** The report's file name: the agent's name (ASCII letters and digits only) and the evaluation's id. */
export function reportFileName(row: Pick<EvaluationRow, 'id' | 'agent_name'>, extension: 'html' | 'pdf'): string {
  const agent = (row.agent_name ?? 'agent')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `warden-evaluation-${agent || 'agent'}-${row.id}.${extension}`;
}

/**
 * The HTML and PDF reports of ended evaluations (docs/evaluations.md, "Reports"): rendered
 * from the stored results on first request (or on POST …/report), kept in the database, served
 * from there until regenerated.
 */
export function createReportService(deps: ReportDeps) {
  const { db, now, reportRenderer } = deps;

  /** Every ended run has a report (completed, failed, cancelled); a running one has none yet. */
  async function endedEvaluation(principal: Principal, id: string, teamId: string | undefined, permission: EvaluationPermission) {
    const row = await loadEvaluation(db, principal, id, teamId, permission);
    if (row.status === 'running') throw conflict('The evaluation is running: its report is made once it has ended');
    return row;
  }

  async function render(row: EvaluationRow, userId: string | null) {
    const model = await buildReportModel(db, row);
    const { html, pdf } = await reportRenderer.render(model);
    const generatedAt = now();
    await saveReport(db, { evaluation_id: row.id, html, pdf, generated_by: userId, generated_at: generatedAt });
    return { html, pdf, generatedAt };
  }

  return {
    async html(principal: Principal, id: string, teamId: string | undefined) {
      const row = await endedEvaluation(principal, id, teamId, 'evaluation:read');
      const cached = await findReportPart(db, row.id, 'html');
      const html = cached?.html ?? (await render(row, principal.userId)).html;
      return { html, fileName: reportFileName(row, 'html') };
    },

    async pdf(principal: Principal, id: string, teamId: string | undefined) {
      const row = await endedEvaluation(principal, id, teamId, 'evaluation:read');
      const cached = await findReportPart(db, row.id, 'pdf');
      const pdf = cached === undefined ? (await render(row, principal.userId)).pdf : Buffer.from(cached.pdf);
      return { pdf, fileName: reportFileName(row, 'pdf') };
    },

    /** Renders both reports now (when not cached, or with force_regenerate) and says where to get them. */
    async generate(principal: Principal, id: string, teamId: string | undefined, force: boolean) {
      const row = await endedEvaluation(principal, id, teamId, 'evaluation:write');
      const cached = force ? undefined : await reportGeneratedAt(db, row.id);
      const generatedAt = cached ?? (await render(row, principal.userId)).generatedAt;
      const team = `?team_id=${row.team_id}`;
      return {
        evaluation_id: row.id,
        status: cached === undefined ? 'generated' : 'cached',
        generated_at: generatedAt,
        html_url: `/v1/evaluations/${row.id}/html${team}`,
        pdf_url: `/v1/evaluations/${row.id}/pdf${team}`,
      };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
