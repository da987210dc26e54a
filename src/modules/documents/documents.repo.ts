import type { Insertable, Kysely } from 'kysely';
import type { DB, PolicyFilesTable } from '../../db/schema.js';
import { tableCaching } from '../../db/table-caching.js';

/** Cache classes (docs/caching.md): a policy's uploaded document and its Markdown. */
export const DOCUMENT_TABLES = tableCaching({ policy_files: 'data' });

export const findPolicyFile = (db: Kysely<DB>, policyId: string) =>
  db.selectFrom('policy_files').selectAll().where('policy_id', '=', policyId).executeTakeFirst();

export const findConvertedMarkdown = (db: Kysely<DB>, policyId: string) =>
  db.selectFrom('policy_files').select('converted_markdown').where('policy_id', '=', policyId).executeTakeFirst();

export async function putPolicyFile(db: Kysely<DB>, row: Insertable<PolicyFilesTable>) {
  await db.deleteFrom('policy_files').where('policy_id', '=', row.policy_id).execute();
  await db.insertInto('policy_files').values(row).execute();
}

export const deletePolicyFile = (db: Kysely<DB>, policyId: string) => db.deleteFrom('policy_files').where('policy_id', '=', policyId).execute();
