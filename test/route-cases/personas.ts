import { PRESETS } from '../../src/modules/personas/personas.presets.js';
import type { Ctx, RouteCase } from '../helpers/route-table.js';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;
const PRESET_ID = PRESETS[0]!.id;

async function persona(ctx: Ctx): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/personas/',
    headers: auth(A(ctx).member.token),
    payload: { team_id: A(ctx).id, name: 'matrix', role: 'tester' },
  });
  return res.json().id as string;
}

/** The isolation-matrix entries of the persona routes (test/helpers/route-table.ts). */
export const PERSONA_ROUTE_CASES: RouteCase[] = [
  {
    method: 'POST',
    url: '/v1/personas/',
    needs: 'persona:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: '/v1/personas/', body: { team_id: A(ctx).id, name: 'matrix', role: 'tester' } }),
  },
  {
    method: 'GET',
    url: '/v1/personas/',
    needs: 'persona:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/personas/?team_id=${A(ctx).id}` }),
  },
  // The presets are the system's: without team_id, another team's member reads them too.
  {
    method: 'GET',
    url: '/v1/personas/presets/',
    needs: 'persona:read',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/personas/presets/' }),
  },
  {
    method: 'POST',
    url: '/v1/personas/from-preset/:preset_id',
    needs: 'persona:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/personas/from-preset/${PRESET_ID}?team_id=${A(ctx).id}`, body: { name_override: 'matrix' } }),
  },
  {
    method: 'GET',
    url: '/v1/personas/:id',
    needs: 'persona:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}` }),
  },
  {
    method: 'PUT',
    url: '/v1/personas/:id',
    needs: 'persona:write',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}`, body: { name: 'renamed' } }),
  },
  {
    method: 'DELETE',
    url: '/v1/personas/:id',
    needs: 'persona:write',
    expect: { member: 204 },
    prepare: async (ctx) => ({ url: `/v1/personas/${await persona(ctx)}` }),
  },
];
