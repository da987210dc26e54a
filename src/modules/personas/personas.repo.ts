import { type Expression, type ExpressionBuilder, type Insertable, type Kysely, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { DB, PersonasTable } from '../../db/schema.js';
import { countRows, type CountMemo } from '../../db/count-memo.js';
import { tableCaching } from '../../db/table-caching.js';
import { containsIgnoringCase } from '../../db/contains.js';

/** Cache classes (docs/caching.md). */
export const PERSONA_TABLES = tableCaching({ personas: 'data' });

export type PersonaRow = Selectable<PersonasTable>;
export type PersonaPatch = Updateable<PersonasTable>;

export const insertPersona = (db: Kysely<DB>, row: Insertable<PersonasTable>) => db.insertInto('personas').values(row).execute();

export const findPersona = (db: Kysely<DB>, id: string) => db.selectFrom('personas').selectAll().where('id', '=', id).executeTakeFirst();

export const updatePersona = (db: Kysely<DB>, id: string, patch: PersonaPatch) =>
  db.updateTable('personas').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

export const deletePersona = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('personas').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

/** Of `ids`, the team's personas (system presets are not rows: callers look them up apart). */
export const teamPersonas = (db: Kysely<DB>, teamId: string, ids: readonly string[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('personas').selectAll().where('team_id', '=', teamId).where('id', 'in', ids).execute();

export interface PersonaFilter {
  teamId: string;
  intents?: readonly string[] | undefined;
  isPreset?: boolean | undefined;
  search?: string | undefined;
}

function matching(eb: ExpressionBuilder<DB, 'personas'>, f: PersonaFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('team_id', '=', f.teamId)];
  if (f.intents !== undefined && f.intents.length > 0) conditions.push(eb('intent', 'in', f.intents));
  if (f.isPreset !== undefined) conditions.push(eb('is_preset', '=', f.isPreset ? 1 : 0));
  if (f.search !== undefined && f.search !== '') {
    const term = f.search;
    conditions.push(eb.or((['name', 'description', 'role'] as const).map((column) => containsIgnoringCase(eb.ref(column), term))));
  }
  return eb.and(conditions);
}

export const listPersonas = (db: Kysely<DB>, f: PersonaFilter, limit: number, offset: number) =>
  db
    .selectFrom('personas')
    .selectAll()
    .where((eb) => matching(eb, f))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();

export const countPersonas = (db: Kysely<DB>, f: PersonaFilter, counts?: CountMemo) =>
  countRows(db, db.selectFrom('personas').select((eb) => eb.fn.countAll().as('n')).where((eb) => matching(eb, f)), counts);
