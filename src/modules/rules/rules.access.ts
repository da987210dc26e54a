import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize } from '../auth/permissions.js';
import type { PolicyPermission } from '../policies/policies.access.js';
import type { RuleRow } from './rules.repo.js';
import * as repo from './rules.repo.js';

/** The rule, if the caller may act on it with `permission` (404 when its team is not visible). */
export async function loadRule(
  db: Kysely<DB>,
  principal: Principal,
  id: string,
  permission: PolicyPermission,
  lock?: { dialect: Dialect },
): Promise<RuleRow> {
  const row = await repo.findRule(db, id, lock);
  if (row === undefined) throw notFound('Rule');
  authorize(principal, permission, row.team_id, 'Rule');
  return row;
}
