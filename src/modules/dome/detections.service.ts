import type { Deps } from '../../deps.js';
import { getMethod } from '../../guard/catalogue.js';
import { runDetection } from '../../guard/engine.js';
import { GuardConfigError } from '../../guard/types.js';
import { isUniqueViolation } from '../../db/errors.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import * as repo from './dome.repo.js';
import type { DetectionRow } from './dome.repo.js';
import type { DetectionInputIn, DetectionOut, DetectionRequestBody } from './dome.schemas.js';
import { createGuardContexts } from './guard-context.js';

type DetectionDeps = Pick<Deps, 'db' | 'now' | 'llm' | 'readVersion'>;

interface DetectionOutput {
  score: number;
  label: string | null;
  details: Record<string, unknown> | null;
}

/** The text a detection input holds: the prompt, else the response, else the question. */
const textOf = (input: DetectionInputIn) => input.prompt ?? input.response ?? input.question ?? '';

function toDetection(row: DetectionRow): DetectionOut {
  return {
    id: row.id,
    status: row.status,
    ...repo.detectionColumns(row),
    error_message: row.error_message,
  };
}

/**
 * Detections (the reference's "Execution Flow test input"): one guard method run on each of
 * `detector_inputs`, stored per team under the id the client chose. Every method of Warden's
 * catalogue is synchronous from the caller's view, so a detection answers `COMPLETED` (or
 * `ERROR`, when every input's method failed) at once (docs/guardrails.md, "Detections").
 */
export function createDetectionService(deps: DetectionDeps) {
  const { db, now } = deps;
  const contexts = createGuardContexts(deps);

  /** The method of each input (its own `dome_detection_method`, else the request's `detector_id`), checked before any runs. */
  function methodsOf(body: DetectionRequestBody): string[] {
    return body.detector_inputs.map((input, i) => {
      const method = input.dome_detection_method ?? body.detector_id;
      const definition = getMethod(method);
      const loc = input.dome_detection_method == null ? ['body', 'detector_id'] : ['body', 'detector_inputs', i, 'dome_detection_method'];
      if (definition === undefined) throw invalid(loc, `Unknown detection method "${method}": see docs/guardrails.md for the catalogue`, 'enum');
      if (definition.needsLlm === true && deps.llm === undefined) {
        throw invalid(loc, `The method "${method}" needs a language model: set WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL`, 'value_error');
      }
      return method;
    });
  }

  return {
    async create(principal: Principal, teamIdParam: string | undefined, body: DetectionRequestBody) {
      requireAnywhere(principal, 'guardrail:write');
      const teamId = resolveTeam(principal, teamIdParam);
      authorize(principal, 'guardrail:write', teamId, 'Team');
      const methods = methodsOf(body);
      const context = await contexts.forScan(teamId, methods.some((m) => getMethod(m)?.type === 'policy'));
      const outputs: DetectionOutput[] = [];
      for (const [i, input] of body.detector_inputs.entries()) {
        try {
          const result = await runDetection(methods[i] as string, textOf(input), {}, context);
          outputs.push({ score: result.score, label: result.label, details: result.details });
        } catch (error) {
          if (error instanceof GuardConfigError) throw invalid(['body', 'detector_inputs', i], error.message, error.type);
          outputs.push({ score: 0, label: 'error', details: { error: error instanceof Error ? error.message : 'the method failed' } });
        }
      }
      const failed = outputs.length > 0 && outputs.every((o) => o.label === 'error');
      // The proxy key of DetectionParams is a secret of the caller: never stored or answered.
      const params = body.detector_params === undefined ? null : { hub: body.detector_params.hub ?? null, model: body.detector_params.model ?? null };
      const row: DetectionRow = {
        team_id: teamId,
        id: body.id,
        detector_id: body.detector_id,
        detector_params: params === null ? null : JSON.stringify(params),
        detector_inputs: JSON.stringify(body.detector_inputs),
        detector_outputs: JSON.stringify(outputs),
        status: failed ? 'ERROR' : 'COMPLETED',
        error_message: failed ? 'Every input of this detection failed: see detector_outputs[].details.error' : null,
        created_by: principal.userId,
        created_at: now(),
      };
      try {
        await repo.insertDetection(db, row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A detection with id "${body.id}" already exists in this team`);
        throw error;
      }
      return toDetection(row);
    },

    async get(principal: Principal, id: string) {
      requireAnywhere(principal, 'guardrail:read');
      const teams = principal.isSuperAdmin ? null : [...principal.memberships.keys()];
      const row = await repo.findDetection(db, teams, id);
      if (row === undefined) throw notFound('Detection');
      authorize(principal, 'guardrail:read', row.team_id, 'Detection');
      return toDetection(row);
    },
  };
}

export type DetectionService = ReturnType<typeof createDetectionService>;
