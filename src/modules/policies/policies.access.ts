import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize } from '../auth/permissions.js';
import type { PolicyRow } from './policies.repo.js';
import * as repo from './policies.repo.js';

/**
 * A client-chosen id already taken, by a policy or rule of the caller's team or of any other
 * team (or a preset): one 409 and one message for all, so the answer does not tell whose it is
 * (docs/policies.md, "Teams").
 */
export const ID_IN_USE = 'This id is already in use: choose another, or leave id out to get a new one';

export type PolicyPermission = 'policy:read' | 'policy:write';

/** The policy, if the caller may act on it with `permission` (404 when its team is not visible). */
export async function loadPolicy(db: Kysely<DB>, principal: Principal, id: string, permission: PolicyPermission): Promise<PolicyRow> {
  const row = await repo.findPolicy(db, id);
  if (row === undefined) throw notFound('Policy');
  authorize(principal, permission, row.team_id, 'Policy');
  return row;
}
