import type { Deps } from '../../deps.js';
import { isUniqueViolation } from '../../db/errors.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Principal } from '../auth/permissions.js';
import { requireAnywhere, requireGlobal } from '../auth/permissions.js';
import type { DimensionRow, ValueRow } from './demographics.repo.js';
import * as repo from './demographics.repo.js';
import type {
  DemographicDimensionCreateBody,
  DemographicDimensionOut,
  DemographicDimensionUpdateBody,
  DemographicValueCreateBody,
  DemographicValueOut,
  DemographicValueUpdateBody,
} from './demographics.schemas.js';

type DemographicsDeps = Pick<Deps, 'db' | 'now'>;

/**
 * Dimensions are global reference data (the reference): anyone who may read agents reads
 * them; writing needs a super admin whose credential allows `persona:write_all`.
 */
const READ = 'agent:read';
const WRITE = 'persona:write_all';

const toValue = (row: ValueRow): DemographicValueOut => ({
  id: row.id,
  dimension_id: row.dimension_id,
  value: row.value,
  display_name: row.display_name,
  value_metadata: repo.valueMetadataOf(row),
  sort_order: row.sort_order,
  created_at: row.created_at,
});

const toDimension = (row: DimensionRow, values: ValueRow[] | null): DemographicDimensionOut => ({
  id: row.id,
  name: row.name,
  display_name: row.display_name,
  protected_class: row.protected_class === 1,
  description: row.description,
  created_at: row.created_at,
  values: values === null ? null : values.map(toValue),
});

const duplicateValues = (values: readonly string[]) =>
  conflict(`The dimension already has the value${values.length > 1 ? 's' : ''} ${values.map((v) => `"${v}"`).join(', ')}`);

export function createDemographicsService(deps: DemographicsDeps) {
  const { db, now } = deps;

  async function loadDimension(id: string): Promise<DimensionRow> {
    const row = await repo.findDimension(db, id);
    if (row === undefined) throw notFound('Dimension');
    return row;
  }

  const withValues = async (row: DimensionRow) => toDimension(row, await repo.listValues(db, row.id));

  const valueRow = (dimensionId: string, body: DemographicValueCreateBody, at: number): ValueRow => ({
    id: newId(),
    dimension_id: dimensionId,
    value: body.value,
    display_name: body.display_name ?? null,
    value_metadata: body.metadata == null ? null : JSON.stringify(body.metadata),
    sort_order: body.sort_order ?? 0,
    created_at: at,
  });

  async function insertValues(dimensionId: string, rows: ValueRow[]) {
    const taken = await repo.existingValues(db, dimensionId, rows.map((r) => r.value));
    if (taken.length > 0) throw duplicateValues(taken);
    try {
      await db.transaction().execute((trx) => repo.insertValues(trx, rows));
    } catch (error) {
      // A concurrent writer added one of them between the check and the insert.
      if (isUniqueViolation(error)) throw duplicateValues(rows.map((r) => r.value));
      throw error;
    }
  }

  return {
    async list(principal: Principal, protectedOnly: boolean, limit: number, offset: number) {
      requireAnywhere(principal, READ);
      const [rows, count] = await Promise.all([repo.listDimensions(db, protectedOnly, limit, offset), repo.countDimensions(db, protectedOnly)]);
      return { results: rows.map((r) => toDimension(r, null)), count };
    },

    async get(principal: Principal, id: string) {
      requireAnywhere(principal, READ);
      return withValues(await loadDimension(id));
    },

    async getByName(principal: Principal, name: string) {
      requireAnywhere(principal, READ);
      const row = await repo.findDimensionByName(db, name);
      if (row === undefined) throw notFound('Dimension');
      return withValues(row);
    },

    async create(principal: Principal, body: DemographicDimensionCreateBody) {
      requireGlobal(principal, WRITE);
      const row: DimensionRow = {
        id: newId(),
        name: body.name,
        display_name: body.display_name,
        protected_class: body.protected_class === false ? 0 : 1,
        description: body.description ?? null,
        created_at: now(),
      };
      try {
        await repo.insertDimension(db, row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A dimension named "${body.name}" already exists`);
        throw error;
      }
      return toDimension(row, []);
    },

    async update(principal: Principal, id: string, body: DemographicDimensionUpdateBody) {
      requireGlobal(principal, WRITE);
      await loadDimension(id);
      const patch: Partial<DimensionRow> = {};
      if (body.display_name != null) patch.display_name = body.display_name;
      if (body.protected_class != null) patch.protected_class = body.protected_class ? 1 : 0;
      if (body.description !== undefined) patch.description = body.description;
      const updated = Object.keys(patch).length === 0 ? await repo.findDimension(db, id) : await repo.updateDimension(db, id, patch);
      if (updated === undefined) throw notFound('Dimension');
      return withValues(updated);
    },

    async remove(principal: Principal, id: string) {
      requireGlobal(principal, WRITE);
      const deleted = await db.transaction().execute((trx) => repo.deleteDimension(trx, id));
      if (!deleted) throw notFound('Dimension');
    },

    async listValues(principal: Principal, dimensionId: string, limit: number, offset: number) {
      requireAnywhere(principal, READ);
      await loadDimension(dimensionId);
      const [rows, count] = await Promise.all([repo.listValues(db, dimensionId, limit, offset), repo.countValues(db, dimensionId)]);
      return { results: rows.map(toValue), count };
    },

    async addValue(principal: Principal, dimensionId: string, body: DemographicValueCreateBody) {
      requireGlobal(principal, WRITE);
      await loadDimension(dimensionId);
      const row = valueRow(dimensionId, body, now());
      await insertValues(dimensionId, [row]);
      return toValue(row);
    },

    /** All or nothing: a value sent twice is a 422, a value the dimension already has a 409. */
    async bulkAddValues(principal: Principal, dimensionId: string, values: DemographicValueCreateBody[]) {
      requireGlobal(principal, WRITE);
      await loadDimension(dimensionId);
      if (values.length === 0) return [];
      const seen = new Map<string, number>();
      values.forEach((v, index) => {
        const first = seen.get(v.value);
        if (first !== undefined) throw invalid(['body', 'values', index, 'value'], `"${v.value}" is already sent at values[${first}]`, 'value_error');
        seen.set(v.value, index);
      });
      const at = now();
      const rows = values.map((v) => valueRow(dimensionId, v, at));
      await insertValues(dimensionId, rows);
      return rows.map(toValue);
    },

    async updateValue(principal: Principal, valueId: string, body: DemographicValueUpdateBody) {
      requireGlobal(principal, WRITE);
      const current = await repo.findValue(db, valueId);
      if (current === undefined) throw notFound('Value');
      const patch: Partial<ValueRow> = {};
      if (body.value != null) patch.value = body.value;
      if (body.display_name !== undefined) patch.display_name = body.display_name;
      if (body.metadata !== undefined) patch.value_metadata = body.metadata === null ? null : JSON.stringify(body.metadata);
      if (body.sort_order != null) patch.sort_order = body.sort_order;
      if (Object.keys(patch).length === 0) return toValue(current);
      try {
        const updated = await repo.updateValue(db, valueId, patch);
        if (updated === undefined) throw notFound('Value');
        return toValue(updated);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateValues([body.value ?? current.value]);
        throw error;
      }
    },

    async removeValue(principal: Principal, valueId: string) {
      requireGlobal(principal, WRITE);
      if (!(await repo.deleteValue(db, valueId))) throw notFound('Value');
    },
  };
}

export type DemographicsService = ReturnType<typeof createDemographicsService>;
