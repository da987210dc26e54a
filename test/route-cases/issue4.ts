import { randomUUID } from 'node:crypto';
import { PRESETS } from '../../src/modules/personas/personas.presets.js';
import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of issue 4's routes (personas, demographics, agent import, the
 * trust dashboard), for test/helpers/route-table.ts: `...ISSUE4_ROUTES` in its ROUTES.
 * Dimensions are global reference data: another team's member reads them (200), and only a
 * super admin writes them (403 to team members, whoever they are).
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;
const PRESET_ID = PRESETS[0]!.id;
const CARD = { name: 'Matrix agent', url: 'https://matrix-agent.example.com/a2a', skills: [{ id: 'echo', name: 'Echo' }] };

async function persona(ctx: Ctx): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/personas/', headers: auth(A(ctx).member.token), payload: { team_id: A(ctx).id, name: 'matrix', role: 'tester' } });
  return res.json().id as string;
}

async function dimensionId(ctx: Ctx, base: string): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: `${base}/by-name/gender`, headers: auth(A(ctx).member.token) });
  return res.json().id as string;
}

/** A dimension of its own (made by the super admin), for the routes that change or delete one. */
async function ownDimension(ctx: Ctx, base: string): Promise<{ id: string; valueId: string }> {
  const created = await ctx.app.inject({ method: 'POST', url: `${base}/`, headers: auth(ctx.world.admin.token), payload: { name: `matrix_${randomUUID()}`, display_name: 'Matrix' } });
  const id = created.json().id as string;
  const values = await ctx.app.inject({ method: 'POST', url: `${base}/${id}/values/bulk`, headers: auth(ctx.world.admin.token), payload: { values: [{ value: 'v' }] } });
  return { id, valueId: values.json()[0].id as string };
}

const READ_GLOBAL = { member: 200, otherTeam: 200 };
const ADMIN_ONLY = (status: number) => ({ member: 403, otherTeam: 403, superAdmin: status });

function demographicRoutes(base: '/v1/demographics' | '/v1/dimensions'): RouteCase[] {
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

export const ISSUE4_ROUTES: RouteCase[] = [
  // personas
  {
    method: 'POST',
    url: '/v1/personas/',
    needs: 'persona:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: '/v1/personas/', body: { team_id: A(ctx).id, name: 'matrix', role: 'tester' } }),
  },
  { method: 'GET', url: '/v1/personas/', needs: 'persona:read', expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/personas/?team_id=${A(ctx).id}` }) },
  // The presets are the system's: without team_id, another team's member reads them too.
  { method: 'GET', url: '/v1/personas/presets/', needs: 'persona:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/personas/presets/' }) },
  {
    method: 'POST',
    url: '/v1/personas/from-preset/:preset_id',
    needs: 'persona:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/personas/from-preset/${PRESET_ID}?team_id=${A(ctx).id}`, body: { name_override: 'matrix' } }),
  },
  { method: 'GET', url: '/v1/personas/:id', needs: 'persona:read', expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}` }) },
  {
    method: 'PUT',
    url: '/v1/personas/:id',
    needs: 'persona:write',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}`, body: { name: 'renamed' } }),
  },
  { method: 'DELETE', url: '/v1/personas/:id', needs: 'persona:write', expect: { member: 204 }, prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}` }) },
  // demographic dimensions: one implementation, two mounts
  ...demographicRoutes('/v1/demographics'),
  ...demographicRoutes('/v1/dimensions'),
  // agent import (a card, so that no network call is made)
  {
    method: 'POST',
    url: '/v1/agent-configurations/import/validate',
    needs: 'agent:write',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/agent-configurations/import/validate', body: { agent_card: CARD } }),
  },
  {
    method: 'POST',
    url: '/v1/agent-configurations/import',
    needs: 'agent:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/agent-configurations/import?team_id=${A(ctx).id}`, body: { agent_card: CARD } }),
  },
  // the trust dashboard
  { method: 'GET', url: '/v1/dashboard/trust', needs: 'agent:read', expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/dashboard/trust?team_id=${A(ctx).id}` }) },
];
