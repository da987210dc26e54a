import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, DemographicDimensionsTable, DemographicValuesTable } from '../../db/schema.js';
import { Type } from 'typebox';
import { decodeNullableJsonColumn } from '../../db/json-columns.js';
import { tableCaching } from '../../db/table-caching.js';

/** Cache classes (docs/caching.md). */
export const DEMOGRAPHIC_TABLES = tableCaching({ demographic_dimensions: 'data', demographic_values: 'data' });

export type DimensionRow = Selectable<DemographicDimensionsTable>;
export type ValueRow = Selectable<DemographicValuesTable>;

export const findDimension = (db: Kysely<DB>, id: string) =>
  db.selectFrom('demographic_dimensions').selectAll().where('id', '=', id).executeTakeFirst();

export const findDimensionByName = (db: Kysely<DB>, name: string) =>
  db.selectFrom('demographic_dimensions').selectAll().where('name', '=', name).executeTakeFirst();

export const insertDimension = (db: Kysely<DB>, row: Insertable<DemographicDimensionsTable>) =>
  db.insertInto('demographic_dimensions').values(row).execute();

export const updateDimension = (db: Kysely<DB>, id: string, patch: Updateable<DemographicDimensionsTable>) =>
  db.updateTable('demographic_dimensions').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

/** Deletes the dimension and its values (explicitly: the engines need not agree on cascades). */
export async function deleteDimension(db: Kysely<DB>, id: string): Promise<boolean> {
  await db.deleteFrom('demographic_values').where('dimension_id', '=', id).execute();
  const result = await db.deleteFrom('demographic_dimensions').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const listDimensions = (db: Kysely<DB>, protectedOnly: boolean, limit: number, offset: number) => {
  let query = db.selectFrom('demographic_dimensions').selectAll();
  if (protectedOnly) query = query.where('protected_class', '=', 1);
  return query.orderBy('name').orderBy('id').limit(limit).offset(offset).execute();
};

export const countDimensions = async (db: Kysely<DB>, protectedOnly: boolean) => {
  let query = db.selectFrom('demographic_dimensions').select((eb) => eb.fn.countAll().as('n'));
  if (protectedOnly) query = query.where('protected_class', '=', 1);
  return Number((await query.executeTakeFirstOrThrow()).n);
};

export const listValues = (db: Kysely<DB>, dimensionId: string, limit?: number, offset = 0) => {
  let query = db
    .selectFrom('demographic_values')
    .selectAll()
    .where('dimension_id', '=', dimensionId)
    .orderBy('sort_order')
    .orderBy('id');
  if (limit !== undefined) query = query.limit(limit).offset(offset);
  return query.execute();
};

export const countValues = async (db: Kysely<DB>, dimensionId: string) =>
  Number(
    (
      await db
        .selectFrom('demographic_values')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('dimension_id', '=', dimensionId)
        .executeTakeFirstOrThrow()
    ).n,
  );

export const existingValues = async (db: Kysely<DB>, dimensionId: string, values: readonly string[]) =>
  (
    await db
      .selectFrom('demographic_values')
      .select('value')
      .where('dimension_id', '=', dimensionId)
      .where('value', 'in', values)
      .execute()
  ).map((r) => r.value);

export const insertValues = (db: Kysely<DB>, rows: Insertable<DemographicValuesTable>[]) =>
  db.insertInto('demographic_values').values(rows).execute();

export const findValue = (db: Kysely<DB>, id: string) =>
  db.selectFrom('demographic_values').selectAll().where('id', '=', id).executeTakeFirst();

export const updateValue = (db: Kysely<DB>, id: string, patch: Updateable<DemographicValuesTable>) =>
  db.updateTable('demographic_values').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteValue = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('demographic_values').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

/** A value's metadata, decoded once here. */
export const valueMetadataOf = (row: Pick<ValueRow, 'value_metadata'>): Record<string, unknown> | null =>
  decodeNullableJsonColumn(Type.Record(Type.String(), Type.Unknown()), row.value_metadata, 'demographic_values.value_metadata');
