import { randomUUID } from 'node:crypto';
import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the demographic dimension routes (test/helpers/route-table.ts),
 * one implementation on two mounts. Dimensions are global reference data: another team's
 * member reads them (200), and only a super admin writes them (403 to team members, whoever they are).
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;

async function dimensionId(ctx: Ctx, base: string): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: `${base}/by-name/gender`, headers: auth(A(ctx).member.token) });
  return res.json().id as string;
}

/** A dimension of its own (made by the super admin), for the routes that change or delete one. */
async function ownDimension(ctx: Ctx, base: string): Promise<{ id: string; valueId: string }> {
  const created = await ctx.app.inject({
    method: 'POST',
    url: `${base}/`,
    headers: auth(ctx.world.admin.token),
    payload: { name: `matrix_${randomUUID()}`, display_name: 'Matrix' },
  });
  const id = created.json().id as string;
  const values = await ctx.app.inject({
    method: 'POST',
    url: `${base}/${id}/values/bulk`,
    headers: auth(ctx.world.admin.token),
    payload: { values: [{ value: 'v' }] },
  });
  return { id, valueId: values.json()[0].id as string };
}

const READ_GLOBAL = { member: 200, otherTeam: 200 };
const ADMIN_ONLY = (status: number) => ({ member: 403, otherTeam: 403, superAdmin: status });

function demographicRouteCases(base: '/v1/demographics' | '/v1/dimensions'): RouteCase[] {
  return [
    { method: 'GET', url: `${base}/`, needs: 'agent:read', expect: READ_GLOBAL, prepare: async () => ({ url: `${base}/` }) },
    {
      method: 'POST',
      url: `${base}/`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(201),
      prepare: async () => ({ url: `${base}/`, body: { name: `matrix_${randomUUID()}`, display_name: 'Matrix' } }),
    },
    { method: 'GET', url: `${base}/by-name/:name`, needs: 'agent:read', expect: READ_GLOBAL, prepare: async () => ({ url: `${base}/by-name/gender` }) },
    {
      method: 'GET',
      url: `${base}/:dimension_id`,
      needs: 'agent:read',
      expect: READ_GLOBAL,
      prepare: async (ctx) => ({ url: `${base}/${await dimensionId(ctx, base)}` }),
    },
    {
      method: 'PUT',
      url: `${base}/:dimension_id`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(200),
      prepare: async (ctx) => ({ url: `${base}/${(await ownDimension(ctx, base)).id}`, body: { display_name: 'Renamed' } }),
    },
    {
      method: 'DELETE',
      url: `${base}/:dimension_id`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(204),
      prepare: async (ctx) => ({ url: `${base}/${(await ownDimension(ctx, base)).id}` }),
    },
    {
      method: 'GET',
      url: `${base}/:dimension_id/values`,
      needs: 'agent:read',
      expect: READ_GLOBAL,
      prepare: async (ctx) => ({ url: `${base}/${await dimensionId(ctx, base)}/values` }),
    },
    {
      method: 'POST',
      url: `${base}/:dimension_id/values`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(201),
      prepare: async (ctx) => ({ url: `${base}/${(await ownDimension(ctx, base)).id}/values`, body: { value: 'w' } }),
    },
    {
      method: 'POST',
      url: `${base}/:dimension_id/values/bulk`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(201),
      prepare: async (ctx) => ({ url: `${base}/${(await ownDimension(ctx, base)).id}/values/bulk`, body: { values: [{ value: 'w' }] } }),
    },
    {
      method: 'PUT',
      url: `${base}/values/:value_id`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(200),
      prepare: async (ctx) => ({ url: `${base}/values/${(await ownDimension(ctx, base)).valueId}`, body: { value: 'renamed' } }),
    },
    {
      method: 'DELETE',
      url: `${base}/values/:value_id`,
      needs: 'persona:write_all',
      expect: ADMIN_ONLY(204),
      prepare: async (ctx) => ({ url: `${base}/values/${(await ownDimension(ctx, base)).valueId}` }),
    },
  ];
}

export const DEMOGRAPHIC_ROUTE_CASES: RouteCase[] = [...demographicRouteCases('/v1/demographics'), ...demographicRouteCases('/v1/dimensions')];
