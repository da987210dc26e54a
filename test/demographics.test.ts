import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectParametersLikeReference, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: token === null ? {} : bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

const DIMENSION_LIST = 'src__service_agent_environment__api__dimensions__DimensionListResponse';
const VALUE_LIST = 'src__service_agent_environment__api__dimensions__ValueListResponse';
const DEFAULTS = ['age_band', 'disability', 'ethnicity', 'gender', 'language', 'region', 'religion'];

// Both mounts serve the same implementation: every test runs on each.
for (const base of ['/v1/demographics', '/v1/dimensions']) {
  describe(`${base}/`, () => {
    let counter = 0;
    const unique = (label: string) => `${label}_${base.slice(4)}_${++counter}`;
    async function createDimension(body: Record<string, unknown> = {}) {
      const res = await call('POST', `${base}/`, world.admin.token, { name: unique('dim'), display_name: 'Dimension', ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    }

    it('ships the common dimensions with their values', async () => {
      const res = await call('GET', `${base}/?limit=250`, world.teamA.member.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expectReferenceShape(body, DIMENSION_LIST);
      const names = body.results.map((d: { name: string }) => d.name);
      for (const name of DEFAULTS) expect(names).toContain(name);
      expect(body.count).toBe(body.results.length);
      for (const name of DEFAULTS) {
        const dimension = (await call('GET', `${base}/by-name/${name}`, world.teamA.member.token)).json();
        expectReferenceShape(dimension, 'DemographicDimension');
        expect(dimension.values.length, name).toBeGreaterThanOrEqual(3);
        expect(dimension.values.map((v: { sort_order: number }) => v.sort_order)).toEqual(dimension.values.map((_: unknown, i: number) => i));
      }
    });

    it('filters protected classes only, and pages with the full count', async () => {
      const all = (await call('GET', `${base}/?limit=250`, world.teamA.member.token)).json();
      const protectedOnly = (await call('GET', `${base}/?protected_class_only=true&limit=250`, world.teamA.member.token)).json();
      expectReferenceShape(protectedOnly, DIMENSION_LIST);
      expect(protectedOnly.results.every((d: { protected_class: boolean }) => d.protected_class)).toBe(true);
      const protectedNames = protectedOnly.results.map((d: { name: string }) => d.name);
      for (const name of ['age_band', 'gender', 'ethnicity', 'disability', 'religion']) expect(protectedNames).toContain(name);
      expect(protectedNames).not.toContain('language');
      expect(protectedNames).not.toContain('region');
      expect(protectedOnly.count).toBe(all.results.filter((d: { protected_class: boolean }) => d.protected_class).length);
      const page = (await call('GET', `${base}/?limit=2&offset=1`, world.teamA.member.token)).json();
      expect(page.count).toBe(all.count);
      expect(page.results).toEqual(all.results.slice(1, 3));
      expect422(await call('GET', `${base}/?limit=251`, world.teamA.member.token), ['query', 'limit'], 'less_than_equal');
      expect422(await call('GET', `${base}/?protected_class_only=maybe`, world.teamA.member.token), ['query', 'protected_class_only'], 'bool_parsing');
    });

    it('gets a dimension by id and by name; unknown ones answer 404', async () => {
      const byName = (await call('GET', `${base}/by-name/gender`, world.teamB.member.token)).json();
      const byId = await call('GET', `${base}/${byName.id}`, world.teamB.member.token);
      expect(byId.statusCode, byId.body).toBe(200);
      expect(byId.json()).toEqual(byName);
      expectDetail(await call('GET', `${base}/by-name/no_such_dimension`, world.teamA.member.token), 404);
      expectDetail(await call('GET', `${base}/019b7a11-0000-7000-8000-000000000000`, world.teamA.member.token), 404);
      expect422(await call('GET', `${base}/not-a-uuid`, world.teamA.member.token), ['path', 'dimension_id'], 'uuid_parsing');
    });

    it('path ids: a name (a plain string in the reference) that no dimension has is a 404 whatever it is; uuid ids are a 422 when malformed', async () => {
      const token = world.teamA.member.token;
      for (const name of ['x'.repeat(150), 'not-a-uuid', encodeURIComponent('Gender (self-described) é'), '%20', '0']) {
        expectDetail(await call('GET', `${base}/by-name/${name}`, token), 404);
      }
      const dimension = await createDimension();
      const [value] = (await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [{ value: 'v' }] })).json();
      expect((await call('GET', `${base}/by-name/${dimension.name}`, token)).json().values).toEqual([value]);
      expect422(await call('GET', `${base}/nope/values`, token), ['path', 'dimension_id'], 'uuid_parsing');
      expect422(await call('PUT', `${base}/nope`, world.admin.token, { display_name: 'x' }), ['path', 'dimension_id'], 'uuid_parsing');
      expect422(await call('DELETE', `${base}/nope`, world.admin.token), ['path', 'dimension_id'], 'uuid_parsing');
      expect422(await call('POST', `${base}/nope/values/bulk`, world.admin.token, { values: [] }), ['path', 'dimension_id'], 'uuid_parsing');
      expect422(await call('PUT', `${base}/values/nope`, world.admin.token, { value: 'x' }), ['path', 'value_id'], 'uuid_parsing');
      expect422(await call('DELETE', `${base}/values/nope`, world.admin.token), ['path', 'value_id'], 'uuid_parsing');
    });

    it('creates, updates and deletes a dimension (super admin)', async () => {
      const res = await call('POST', `${base}/`, world.admin.token, {
        name: unique('veteran_status'),
        display_name: 'Veteran status',
        description: 'Military service',
      });
      expect(res.statusCode, res.body).toBe(201);
      const dimension = res.json();
      expectReferenceShape(dimension, 'DemographicDimension');
      expect(dimension).toMatchObject({
        display_name: 'Veteran status',
        protected_class: true,
        description: 'Military service',
        values: [],
        created_at: t.clock.current,
      });

      const updated = await call('PUT', `${base}/${dimension.id}`, world.admin.token, { protected_class: false, display_name: null, description: null });
      expect(updated.statusCode, updated.body).toBe(200);
      expectReferenceShape(updated.json(), 'DemographicDimension');
      expect(updated.json()).toMatchObject({ protected_class: false, display_name: 'Veteran status', description: null });

      const deleted = await call('DELETE', `${base}/${dimension.id}`, world.admin.token);
      expect(deleted.statusCode).toBe(204);
      expectDetail(await call('GET', `${base}/${dimension.id}`, world.admin.token), 404);
      expectDetail(await call('DELETE', `${base}/${dimension.id}`, world.admin.token), 404);
    });

    it('validates dimension bodies and refuses a taken name', async () => {
      expect422(await call('POST', `${base}/`, world.admin.token, { name: 'x' }), ['body', 'display_name'], 'missing');
      expect422(await call('POST', `${base}/`, world.admin.token, { name: 'n'.repeat(101), display_name: 'x' }), ['body', 'name'], 'string_too_long');
      expect422(
        await call('POST', `${base}/`, world.admin.token, { name: 'x', display_name: 'x', protected_class: 'yes' }),
        ['body', 'protected_class'],
        'bool_parsing',
      );
      expectDetail(await call('POST', `${base}/`, world.admin.token, { name: 'gender', display_name: 'Again' }), 409);
      const dimension = await createDimension();
      expect422(await call('PUT', `${base}/${dimension.id}`, world.admin.token, { display_name: '' }), ['body', 'display_name'], 'string_too_short');
      expectDetail(await call('PUT', `${base}/019b7a11-0000-7000-8000-000000000000`, world.admin.token, { display_name: 'x' }), 404);
    });

    it('adds, lists, updates and deletes values', async () => {
      const dimension = await createDimension();
      const added = await call('POST', `${base}/${dimension.id}/values`, world.admin.token, {
        value: 'veteran',
        display_name: 'Veteran',
        metadata: { source: 'census' },
        sort_order: 2,
      });
      expect(added.statusCode, added.body).toBe(201);
      const value = added.json();
      expectReferenceShape(value, 'DemographicValue');
      expect(value).toMatchObject({ dimension_id: dimension.id, value: 'veteran', value_metadata: { source: 'census' }, sort_order: 2 });

      const bulk = await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, {
        values: [{ value: 'non_veteran', sort_order: 1 }, { value: 'active_duty', sort_order: 3 }, { value: 'reserve' }],
      });
      expect(bulk.statusCode, bulk.body).toBe(201);
      expectReferenceShape(bulk.json(), 'DemographicValue[]');
      expect(bulk.json().map((v: { value: string }) => v.value)).toEqual(['non_veteran', 'active_duty', 'reserve']);

      const list = await call('GET', `${base}/${dimension.id}/values`, world.teamA.member.token);
      expect(list.statusCode, list.body).toBe(200);
      expectReferenceShape(list.json(), VALUE_LIST);
      expect(list.json().count).toBe(4);
      expect(list.json().results.map((v: { value: string }) => v.value)).toEqual(['reserve', 'non_veteran', 'veteran', 'active_duty']);
      const page = (await call('GET', `${base}/${dimension.id}/values?limit=2&offset=1`, world.teamA.member.token)).json();
      expect(page).toEqual({ results: list.json().results.slice(1, 3), count: 4 });
      expect((await call('GET', `${base}/${dimension.id}`, world.teamA.member.token)).json().values).toEqual(list.json().results);

      const renamed = await call('PUT', `${base}/values/${value.id}`, world.admin.token, { value: 'veteran_us', metadata: null, sort_order: null });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expectReferenceShape(renamed.json(), 'DemographicValue');
      expect(renamed.json()).toMatchObject({ value: 'veteran_us', value_metadata: null, sort_order: 2, display_name: 'Veteran' });
      expectDetail(await call('PUT', `${base}/values/${value.id}`, world.admin.token, { value: 'reserve' }), 409);

      expect((await call('DELETE', `${base}/values/${value.id}`, world.admin.token)).statusCode).toBe(204);
      expectDetail(await call('DELETE', `${base}/values/${value.id}`, world.admin.token), 404);
      expectDetail(await call('PUT', `${base}/values/${value.id}`, world.admin.token, { value: 'x' }), 404);
      expect((await call('GET', `${base}/${dimension.id}/values`, world.admin.token)).json().count).toBe(3);

      // Deleting the dimension takes its values with it.
      const [remaining] = (await call('GET', `${base}/${dimension.id}/values`, world.admin.token)).json().results;
      expect((await call('DELETE', `${base}/${dimension.id}`, world.admin.token)).statusCode).toBe(204);
      expectDetail(await call('PUT', `${base}/values/${remaining.id}`, world.admin.token, { value: 'x' }), 404);
      expectDetail(await call('GET', `${base}/${dimension.id}/values`, world.admin.token), 404);
    });

    it('refuses duplicate values: 409 for one the dimension has, 422 for one sent twice; bulk is all or nothing', async () => {
      const dimension = await createDimension();
      await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: 'a' });
      expectDetail(await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: 'a' }), 409);
      expectDetail(await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [{ value: 'b' }, { value: 'a' }] }), 409);
      expect422(
        await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [{ value: 'c' }, { value: 'c' }] }),
        ['body', 'values', 1, 'value'],
        'value_error',
      );
      expect((await call('GET', `${base}/${dimension.id}/values`, world.admin.token)).json().results.map((v: { value: string }) => v.value)).toEqual(['a']);
      expect422(await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [{}] }), ['body', 'values', 0, 'value'], 'missing');
      expect422(await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, {}), ['body', 'values'], 'missing');
      expect422(await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: '' }), ['body', 'value'], 'string_too_short');
      expect422(
        await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: 'x', sort_order: 1.5 }),
        ['body', 'sort_order'],
        'int_from_float',
      );
      expectDetail(await call('POST', `${base}/019b7a11-0000-7000-8000-000000000000/values`, world.admin.token, { value: 'x' }), 404);
      expectDetail(await call('GET', `${base}/019b7a11-0000-7000-8000-000000000000/values`, world.admin.token), 404);
    });

    it("declares the reference's parameters in /openapi.json: limit and offset optional with its defaults", async () => {
      const ours = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const operations: Array<[string, string]> = [
        ['get', '/'],
        ['post', '/'],
        ['get', '/{dimension_id}'],
        ['put', '/{dimension_id}'],
        ['delete', '/{dimension_id}'],
        ['get', '/by-name/{name}'],
        ['get', '/{dimension_id}/values'],
        ['post', '/{dimension_id}/values'],
        ['post', '/{dimension_id}/values/bulk'],
        ['put', '/values/{value_id}'],
        ['delete', '/values/{value_id}'],
      ];
      for (const [method, path] of operations) expectParametersLikeReference(ours, method, `${base}${path}`);
      const values = (await call('GET', `${base}/${(await createDimension()).id}/values`, world.admin.token)).json();
      expect(values).toEqual({ results: [], count: 0 });
    });

    it('accepts what the reference accepts: an empty bulk list, any 32-bit sort_order', async () => {
      const dimension = await createDimension();
      const empty = await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [] });
      expect(empty.statusCode, empty.body).toBe(201);
      expect(empty.json()).toEqual([]);
      expect((await call('GET', `${base}/${dimension.id}/values`, world.admin.token)).json().count).toBe(0);
      expectDetail(await call('POST', `${base}/019b7a11-0000-7000-8000-000000000000/values/bulk`, world.admin.token, { values: [] }), 404);
      expectDetail(await call('POST', `${base}/${dimension.id}/values/bulk`, world.teamA.owner.token, { values: [] }), 403);

      const far = await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: 'last', sort_order: 2_000_000_000 });
      expect(far.statusCode, far.body).toBe(201);
      expect(far.json().sort_order).toBe(2_000_000_000);
      const first = await call('PUT', `${base}/values/${far.json().id}`, world.admin.token, { sort_order: -2_000_000_000 });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().sort_order).toBe(-2_000_000_000);
      expect422(
        await call('POST', `${base}/${dimension.id}/values`, world.admin.token, { value: 'x', sort_order: 2 ** 31 }),
        ['body', 'sort_order'],
        'less_than_equal',
      );
    });

    it('answers 401 without a credential and 403 to writers who are not super admins', async () => {
      const dimension = await createDimension();
      const [value] = (await call('POST', `${base}/${dimension.id}/values/bulk`, world.admin.token, { values: [{ value: 'v' }] })).json();
      const writes: Array<[Method, string, unknown]> = [
        ['POST', `${base}/`, { name: unique('x'), display_name: 'x' }],
        ['PUT', `${base}/${dimension.id}`, { display_name: 'x' }],
        ['DELETE', `${base}/${dimension.id}`, undefined],
        ['POST', `${base}/${dimension.id}/values`, { value: 'w' }],
        ['POST', `${base}/${dimension.id}/values/bulk`, { values: [{ value: 'w' }] }],
        ['PUT', `${base}/values/${value.id}`, { value: 'w' }],
        ['DELETE', `${base}/values/${value.id}`, undefined],
      ];
      const adminReadOnly = await createApiKey(t.app, world.admin.token, ['agent:read_all', 'persona:read_all']);
      for (const [method, url, body] of writes) {
        expectDetail(await call(method, url, null, body), 401);
        expectDetail(await call(method, url, world.teamA.owner.token, body), 403);
        expectDetail(await call(method, url, adminReadOnly, body), 403);
      }
      const reads = [`${base}/`, `${base}/${dimension.id}`, `${base}/by-name/gender`, `${base}/${dimension.id}/values`];
      const personaOnly = await createApiKey(t.app, world.teamA.member.token, ['persona:read']);
      const agentReader = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
      for (const url of reads) {
        expectDetail(await call('GET', url, null), 401);
        expectDetail(await call('GET', url, personaOnly), 403);
        expect((await call('GET', url, agentReader)).statusCode).toBe(200);
        expect((await call('GET', url, adminReadOnly)).statusCode).toBe(200);
      }
    });
  });
}
